//! Keeping big allocations within the machine: the solver's transposition
//! table is sized against the memory the system says is available, and
//! trees that are recorded whole (tree pictures, traverse logs) are
//! counted with a cap before they are searched, so that no option aborts
//! the process with a failed allocation.

use anyhow::Result;
use reversi::game::Game;
use reversi::kit::usage;
use std::path::Path;

/// Bytes of one transposition-table entry (as `reversi solve --help` says).
pub const TABLE_ENTRY_BYTES: u64 = 24;

/// The smallest table `--tt-bits` allows.
const MIN_TABLE_BITS: u32 = 10;

/// The memory available for new allocations, in bytes: `MemAvailable` of
/// `/proc/meminfo` (Linux); `None` where the system does not say.
pub fn available_memory() -> Option<u64> {
    let text =
        reversi::kit::input::read_text_capped(Path::new("/proc/meminfo"), "/proc/meminfo", 1 << 20)
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

/// The number of states of the whole game tree below `root` (`root`
/// included) down to `depth` plies, or to the end of the game, if it is at
/// most `cap`; `None` if it is larger. Stops counting past `cap`, so it is
/// quick whatever the tree. This is what plain minimax visits, and an upper
/// bound of what alpha-beta visits.
pub fn tree_size_within<G: Game>(
    game: &G,
    root: &G::State,
    depth: Option<u32>,
    cap: u64,
) -> Option<u64> {
    fn count<G: Game>(game: &G, s: &G::State, left: Option<u32>, seen: &mut u64, cap: u64) -> bool {
        *seen += 1;
        if *seen > cap {
            return false;
        }
        if left == Some(0) {
            return true;
        }
        let below = left.map(|d| d - 1);
        game.moves(s)
            .all(|mv| count(game, &game.play(s, mv), below, seen, cap))
    }
    let mut seen = 0;
    count(game, root, depth, &mut seen, cap).then_some(seen)
}

/// Bytes of one traverse-log line, at most (`a1 2 -Infinity -Infinity
/// Infinity CUT-OFF` and the line end are 40).
const LOG_LINE_BYTES: u64 = 48;

/// Log lines accepted where the available memory is unknown (1.5 GB).
const DEFAULT_LOG_LINES: u64 = 32_000_000;

/// The most traverse-log lines (one per searched node) that fit in half
/// the available memory: the 8x8 contract holds the first step's log in
/// memory until both outputs are written.
pub fn log_line_budget() -> u64 {
    available_memory().map_or(DEFAULT_LOG_LINES, |a| a / 2 / LOG_LINE_BYTES)
}

/// The size of `lines` log lines, for messages.
pub fn log_size(lines: u64) -> String {
    size(lines.saturating_mul(LOG_LINE_BYTES))
}
