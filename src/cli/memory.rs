//! Keeping big allocations within the machine: the solver's transposition
//! table is sized against the memory the system says is available, so that
//! no option aborts the process with a failed allocation.

use super::usage;
use anyhow::Result;
use std::path::Path;

/// Bytes of one transposition-table entry (as `reversi solve --help` says).
pub const TABLE_ENTRY_BYTES: u64 = 24;

/// The smallest table `--tt-bits` allows.
const MIN_TABLE_BITS: u32 = 10;

/// The memory available for new allocations, in bytes: `MemAvailable` of
/// `/proc/meminfo` (Linux); `None` where the system does not say.
pub fn available_memory() -> Option<u64> {
    let text = super::input::read_text_capped(Path::new("/proc/meminfo"), "/proc/meminfo", 1 << 20)
        .ok()?;
    let kib = text
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))?
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse::<u64>()
        .ok()?;
    kib.checked_mul(1024)
}

/// Bytes as GiB with one decimal, or MiB below 1 GiB.
fn size(bytes: u64) -> String {
    const MIB: f64 = 1024.0 * 1024.0;
    let mib = bytes as f64 / MIB;
    if mib >= 1024.0 {
        format!("{:.1} GiB", mib / 1024.0)
    } else {
        format!("{mib:.0} MiB")
    }
}

/// The table bits to use: `bits` if the table fits in the available
/// memory. An explicit `--tt-bits` (`given`) that does not fit is refused
/// with one error line naming the largest that does; a default that takes
/// more than half of the available memory is made smaller, with a note on
/// stderr unless `quiet`. Where the available memory is unknown, `bits`.
pub fn table_bits_that_fit(bits: u32, given: bool, quiet: bool) -> Result<u32> {
    let Some(available) = available_memory() else {
        return Ok(bits);
    };
    let bytes = |b: u32| TABLE_ENTRY_BYTES << b;
    let budget = if given { available } else { available / 2 };
    if bytes(bits) <= budget {
        return Ok(bits);
    }
    let fits = (MIN_TABLE_BITS..bits).rev().find(|&b| bytes(b) <= budget);
    if given {
        return match fits {
            Some(b) => usage(format!(
                "--tt-bits {bits} needs {} for the table, more than the {} of memory \
                 available; use --tt-bits {b} or less",
                size(bytes(bits)),
                size(available)
            )),
            None => usage(format!(
                "--tt-bits {bits} needs {}, and only {} of memory is available",
                size(bytes(bits)),
                size(available)
            )),
        };
    }
    let b = fits.unwrap_or(MIN_TABLE_BITS);
    if !quiet {
        eprintln!(
            "note: the transposition table has 2^{b} entries ({}) instead of 2^{bits} ({}), \
             to fit in the {} of memory available",
            size(bytes(b)),
            size(bytes(bits)),
            size(available)
        );
    }
    Ok(b)
}
