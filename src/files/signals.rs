//! SIGINT, SIGTERM and SIGHUP for every command but `serve` (which shuts
//! its server down by itself): the process stops within moments of the
//! signal, never in the middle of writing a file, and dies by the same
//! signal ([`die_by`]: the default disposition restored and the signal
//! raised again), as well-behaved Unix tools do, so that a shell's loop or
//! a scheduler sees a stop rather than an ordinary exit status (a shell
//! still shows it as 128 + the signal's number: 130, 143, 129).
//!
//! [`install`] runs first thing in every command. A signal wakes a watcher
//! thread through a self-pipe; the watcher waits until no [`Critical`]
//! section is open (every write of a file or of a resumable file's line is
//! one), lets none start, and ends the process. So a file replaced through
//! a temporary file is either replaced or untouched, with no temporary file
//! left, and a resumable file (games, labels, searches) keeps whole lines:
//! running the same command again continues it.
//!
//! A signal the program was started with ignored (SIGHUP under `nohup`)
//! stays ignored: no handler is installed for it ([`ignored`]).
//!
//! The standard library and the default dispositions would leave a signal
//! acting anywhere, mid-line; the earlier scheme (handlers registered
//! around each write and unregistered after) left the signals caught and
//! ignored after the first write, since unregistering a `signal-hook`
//! action does not restore the default disposition.

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, Mutex};

/// Critical sections open, over all threads.
static OPEN: AtomicUsize = AtomicUsize::new(0);
/// Set once the watcher has decided to end the process: no critical
/// section starts after it.
static ENDING: AtomicBool = AtomicBool::new(false);
/// The signal that arrived (0: none), set by the handlers.
static ARRIVED: LazyLock<Arc<AtomicUsize>> = LazyLock::new(|| Arc::new(AtomicUsize::new(0)));

/// Files removed when the process ends for a signal: the temporary files
/// of outputs written as the work goes (`output_files::Streams`).
static TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

thread_local! {
    /// Critical sections this thread has open (a nested one never waits).
    static DEPTH: Cell<usize> = const { Cell::new(0) };
}

/// The signals handled.
#[cfg(unix)]
const STOP_SIGNALS: [i32; 3] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
];

/// Starts handling SIGINT, SIGTERM and SIGHUP as the module says (once;
/// later calls do nothing). Where the handlers cannot be installed the
/// default dispositions stay.
pub fn install() {
    #[cfg(unix)]
    {
        static INSTALLED: std::sync::Once = std::sync::Once::new();
        INSTALLED.call_once(|| {
            let _ = start_watcher();
        });
    }
}

#[cfg(unix)]
fn start_watcher() -> std::io::Result<()> {
    use std::io::Read;
    use std::os::unix::net::UnixStream;
    let (mut wake, sender) = UnixStream::pair()?;
    // The thread is started before any handler: a signal never finds a
    // handler without a watcher to act on it.
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            let mut byte = [0u8; 1];
            while arrived().is_none() {
                match wake.read(&mut byte) {
                    Ok(n) if n > 0 => {}
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    // Never expected (the handlers keep the other end
                    // open): fall back to looking at the flag.
                    _ => std::thread::sleep(std::time::Duration::from_millis(20)),
                }
            }
            ENDING.store(true, Ordering::SeqCst);
            while OPEN.load(Ordering::SeqCst) > 0 {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            end_if_arrived();
        })?;
    for signal in STOP_SIGNALS {
        // A signal ignored when the program started stays ignored, as
        // `nohup` and a shell's background jobs expect (POSIX leaves an
        // ignored signal ignored across exec).
        if ignored(signal) {
            continue;
        }
        // Which signal, recorded before the watcher is woken (a signal's
        // actions run in the order they were registered).
        signal_hook::flag::register_usize(signal, ARRIVED.clone(), signal as usize)?;
        signal_hook::low_level::pipe::register(signal, sender.try_clone()?)?;
    }
    Ok(())
}

/// Whether `signal` is ignored now (its disposition `SIG_IGN`): one the
/// program was started with ignored (`nohup` ignores SIGHUP) is left so.
/// `false` where it cannot be told.
#[cfg(unix)]
#[must_use]
pub fn ignored(signal: i32) -> bool {
    // SAFETY: sigaction(2) with a null new action only reads the current
    // disposition into `old`, a zeroed plain-data struct of ours.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut old) == 0
            && old.sa_sigaction == libc::SIG_IGN
    }
}

/// Whether `signal` is ignored now (never, off Unix).
#[cfg(not(unix))]
#[must_use]
pub fn ignored(_signal: i32) -> bool {
    false
}

/// The signal that has arrived, if any (the process is about to end).
pub fn arrived() -> Option<i32> {
    match ARRIVED.load(Ordering::SeqCst) {
        0 => None,
        signal => i32::try_from(signal).ok(),
    }
}

/// Ends the process now for a signal that has arrived, from inside a
/// critical section that has undone its own half-done work (the 8x8
/// contract's temporary files). Does nothing if no signal arrived.
pub fn end_if_arrived() {
    if let Some(signal) = arrived() {
        let temporaries = TEMPORARIES.lock().map(|t| t.clone()).unwrap_or_default();
        for path in temporaries {
            let _ = std::fs::remove_file(path);
        }
        die_by(signal);
    }
}

/// Has `path` removed if the process ends for a signal (until
/// [`forget_temporary`]). Register a file before creating it, inside a
/// [`Critical`] section, so that no signal leaves it behind.
pub fn remove_on_stop(path: &Path) {
    if let Ok(mut t) = TEMPORARIES.lock() {
        t.push(path.to_path_buf());
    }
}

/// No longer removes `path` on a signal (it was renamed into place or
/// removed).
pub fn forget_temporary(path: &Path) {
    if let Ok(mut t) = TEMPORARIES.lock() {
        t.retain(|p| p != path);
    }
}

/// Ends the process by `signal` after its cleanup: the signal's default
/// disposition is restored and the signal raised, so the parent sees a
/// death by it. Lines already written to stdout are out (it is
/// line-buffered); nothing else is flushed. Where the signal cannot be
/// raised (not a terminating signal, or not Unix), exits with status
/// 128 + `signal` instead.
pub fn die_by(signal: i32) -> ! {
    #[cfg(unix)]
    {
        // Returns only for a signal whose default action is not to end the
        // process (never one of ours); aborts if the raise fails.
        let _ = signal_hook::low_level::emulate_default_handler(signal);
    }
    std::process::exit(128 + signal)
}

/// A section of code (a file's write) that a signal does not interrupt:
/// the process ends after it closes, not inside it. Sections nest.
#[must_use = "the section lasts as long as the guard"]
pub struct Critical(());

impl Critical {
    /// Opens a critical section. If the process is already ending for a
    /// signal, a section not nested in another never opens: the thread
    /// waits for the end.
    pub fn open() -> Critical {
        let depth = DEPTH.with(Cell::get);
        OPEN.fetch_add(1, Ordering::SeqCst);
        if depth == 0 && ENDING.load(Ordering::SeqCst) {
            OPEN.fetch_sub(1, Ordering::SeqCst);
            loop {
                std::thread::park();
            }
        }
        DEPTH.with(|d| d.set(depth + 1));
        Critical(())
    }
}

impl Drop for Critical {
    fn drop(&mut self) {
        DEPTH.with(|d| d.set(d.get() - 1));
        OPEN.fetch_sub(1, Ordering::SeqCst);
    }
}
