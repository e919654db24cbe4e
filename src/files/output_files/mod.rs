//! Every file a command writes, by one rule (the 8x8 contract's
//! `-op MOVES -ol LOG`, `reversi-lab train`'s games, weights and tables):
//!
//! - A regular file is replaced only if it is ours (it starts with the
//!   signature of what the command writes, [`Rule::ours`]) or `--force`
//!   says so; the 8x8 contract, whose outputs the user names freely,
//!   replaces any regular file ([`Rule::CONTRACT`]).
//! - A device, FIFO or socket (`/dev/null`, `/dev/stdout`) is written in
//!   place or refused ([`InPlace`]), never renamed over or replaced.
//! - A symlink is followed to its final target, which is written (the link
//!   is kept).
//! - A regular file is written through a temporary file in its folder and a
//!   rename, so it is never seen half written.
//!
//! Several outputs of one command are one transaction: afterwards either
//! every output holds the new content or every output still holds what it
//! held before.
//!
//! - [`plan`] (and [`plan_output`] for one output) looks at each output
//!   before the work starts. Two outputs that are the same file under two
//!   spellings, or an output that is the input file, are found by identity
//!   (device and inode), not by spelling.
//! - [`write()`] writes the in-place outputs first (their errors, such as
//!   `/dev/full`'s, stop everything before a regular file changes), then
//!   locks the folders of the other outputs (so that two runs writing the
//!   same files take turns), writes each to a temporary file in its folder
//!   and renames them over the targets. If a rename fails, the renames
//!   already done are undone from hard-linked (or copied) backups of the old
//!   files. The writing is a [`Critical`](super::signals::Critical) section: SIGINT, SIGTERM or SIGHUP
//!   arriving then removes the temporary files before the renames start, or
//!   takes effect once the transaction is complete (see [`super::signals`]).
//! - [`Streams`] is the same transaction for outputs written as the work
//!   goes (`train import`'s games): each body goes to a temporary file
//!   through a buffer, and the commit renames them all (a signal before
//!   it removes the temporary files: `signals::remove_on_stop`).
//! - Temporary names are short (`.reversi-PID-N.tmp`), so they are valid in
//!   any folder whatever the length of the target's name.
//!
//! The one writer that changes a file in place is `reversi-lab train
//! generate`, which appends games to a games file it wrote (so a long run
//! can be continued); it creates that file here, header first.

mod streams;
mod transaction;

pub use streams::Streams;
pub use transaction::write;

use super::usage;
use anyhow::Result;
use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// Symlinks followed before giving up (as the kernel's `ELOOP` limit).
const MAX_LINKS: usize = 40;

pub use super::Signature;

/// What may be done with a path that is not a regular file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]

pub enum InPlace {
    /// Nothing: only a regular file (or a new name) will do.
    Refused,
    /// A device (`/dev/null`) is written in place; a FIFO or socket is
    /// refused (opening one would wait for a reader that may never come).
    Devices,
    /// Devices, FIFOs and sockets are written in place.
    Any,
}

/// The rule one output follows (see the module's documentation).
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    /// The signature of the files this command writes; `None`: any
    /// regular file may be replaced.
    pub ours: Option<Signature>,
    /// `--force`: a regular file that is not ours is replaced too.
    pub force: bool,
    /// What happens to a device, FIFO or socket.
    pub in_place: InPlace,
}

impl Rule {
    /// The rule of an output whose files begin with `ours`: a regular file
    /// of that signature (or any, with `force`) is replaced, and
    /// `in_place` says what becomes of a device, FIFO or socket.
    #[must_use]
    pub const fn written_by(ours: Signature, force: bool, in_place: InPlace) -> Rule {
        Rule {
            ours: Some(ours),
            force,
            in_place,
        }
    }

    /// The 8x8 contract's outputs: any regular file is replaced, anything
    /// else written in place.
    pub const CONTRACT: Rule = Rule {
        ours: None,
        force: false,
        in_place: InPlace::Any,
    };
}

/// Which file a path names, independent of its spelling.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Identity {
    /// An existing file: its device and inode.
    File(u64, u64),
    /// A name not yet taken: its folder's identity and the name.
    New(u64, u64, OsString),
}

/// How one output is written.
#[derive(Debug)]
enum Kind {
    /// A regular file or a new name: replaced through a temporary file.
    Replace {
        /// Whether a file is there now (it is kept as a backup while the
        /// renames run).
        exists: bool,
    },
    /// A device, FIFO or socket: opened and written where it is.
    InPlace,
}

/// One output, checked and resolved by [`plan`] or [`plan_output`].
#[derive(Debug)]
pub struct Planned {
    /// The path as given, for messages.
    given: PathBuf,
    /// The file actually written: `given` with symlinks followed.
    target: PathBuf,
    /// The folder of `target` (`.` for a bare name).
    folder: PathBuf,
    kind: Kind,
    identity: Identity,
}

impl Planned {
    /// The file written: the path as given with its symlinks followed.
    pub fn target(&self) -> &Path {
        &self.target
    }
}

/// The device and inode of `meta`.
#[cfg(unix)]
fn inode(meta: &fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

/// Without inodes, a file is known by its size and time (never equal
/// across two different files by accident in practice).
#[cfg(not(unix))]
fn inode(meta: &fs::Metadata) -> (u64, u64) {
    let t = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as u64);
    (meta.len(), t)
}

/// `path` with every symlink along the final component followed.
fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = fs::read_link(&at)?;
                at = match at.parent() {
                    Some(folder) if link.is_relative() => folder.join(link),
                    _ => link,
                };
            }
            Ok(_) => return Ok(at),
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(at),
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// What kind of file that is not regular or a folder `meta` describes, for
/// messages.
fn special_kind(meta: &fs::Metadata) -> &'static str {
    if meta.is_file() {
        "a regular file reached through a link that names no path"
    } else {
        super::input::special_kind(meta)
    }
}

/// Whether the non-regular file `meta` may be written in place by `rule`;
/// the refusal's reason if not.
fn check_in_place(option: &str, name: &str, meta: &fs::Metadata, rule: &Rule) -> Result<()> {
    let kind = special_kind(meta);
    let allowed = match rule.in_place {
        InPlace::Any => true,
        // A regular file reached through a link that names no path
        // (`/dev/stdout` redirected to a file) is appended to.
        InPlace::Devices => kind == "a device" || meta.is_file(),
        InPlace::Refused => false,
    };
    if allowed {
        return Ok(());
    }
    let wanted = match rule.in_place {
        InPlace::Devices => "a regular file or a device",
        _ => "a regular file",
    };
    usage(format!(
        "{option} {name} is {kind}; this command writes {wanted}"
    ))
}

/// Whether the regular file `target` starts with `signature`'s bytes, of
/// today or [former](Signature::former) (reading no more than the longer).
fn starts_with(target: &Path, signature: &Signature) -> io::Result<bool> {
    let starts = [Some(signature.start), signature.former];
    let longest = starts.iter().flatten().map(|s| s.len()).max().unwrap_or(0);
    let mut start = Vec::with_capacity(longest);
    File::open(target)?
        .take(longest as u64)
        .read_to_end(&mut start)?;
    Ok(starts
        .iter()
        .flatten()
        .any(|s| start.starts_with(s.as_bytes())))
}

/// Checks one output (`option` such as `-op` or `--out`, for messages)
/// against `rule` and decides how to write it: the output of a command
/// with a single output file.
pub fn plan_output(option: &str, given: &Path, rule: &Rule) -> Result<Planned> {
    let planned = plan_one(option, given, rule)?;
    if let (Kind::Replace { exists: true }, Some(signature)) = (&planned.kind, rule.ours) {
        let name = given.display();
        match starts_with(&planned.target, &signature) {
            Ok(true) => {}
            Ok(false) if rule.force => {}
            Ok(false) => {
                return usage(format!(
                    "{name} exists and is not {}; not replacing it (use --force)",
                    signature.kind
                ))
            }
            Err(e) => return usage(format!("cannot check {option} {name}: {e}")),
        }
    }
    Ok(planned)
}

/// Checks one output (`option` is `-op` or `-ol`, for messages) and
/// decides how to write it; whether a regular file is ours is left to the
/// caller.
fn plan_one(option: &str, given: &Path, rule: &Rule) -> Result<Planned> {
    let name = given.display();
    let cannot = |e: io::Error| usage::<Planned>(format!("cannot write output file {name}: {e}"));
    // What the kernel opens for this path: a device or FIFO, or a file
    // reached through a link that names no path (`/dev/stdout` is
    // `/proc/self/fd/1`, which may be a pipe or the file of a `>`), is
    // written in place through the path as given.
    let in_place = match fs::metadata(given) {
        Ok(m) if m.is_dir() => return usage(format!("output path {name} is a folder")),
        Ok(m) if !m.is_file() => Some(m),
        Ok(m) => match follow_links(given).and_then(fs::metadata) {
            Ok(t) if inode(&t) == inode(&m) => None,
            _ => Some(m),
        },
        Err(_) => None,
    };
    if let Some(m) = in_place {
        check_in_place(option, &name.to_string(), &m, rule)?;
        let (dev, ino) = inode(&m);
        return Ok(Planned {
            given: given.to_path_buf(),
            target: given.to_path_buf(),
            folder: PathBuf::from("."),
            kind: Kind::InPlace,
            identity: Identity::File(dev, ino),
        });
    }
    let target = match follow_links(given) {
        Ok(t) => t,
        Err(e) => return cannot(e),
    };
    let Some(file_name) = target.file_name().map(OsString::from) else {
        return usage(format!("{option} {name} is not a file name"));
    };
    let folder = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    match fs::metadata(&target) {
        Ok(m) if m.is_dir() => usage(format!("output path {name} is a folder")),
        Ok(m) => {
            if !m.is_file() {
                check_in_place(option, &name.to_string(), &m, rule)?;
            }
            let (dev, ino) = inode(&m);
            Ok(Planned {
                given: given.to_path_buf(),
                target,
                folder,
                kind: if m.is_file() {
                    Kind::Replace { exists: true }
                } else {
                    Kind::InPlace
                },
                identity: Identity::File(dev, ino),
            })
        }
        // A dangling symlink (checked above): its target is created.
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let folder_meta = match fs::metadata(&folder) {
                Ok(m) if m.is_dir() => m,
                Ok(_) => return cannot(io::Error::other("its folder is not a folder")),
                Err(e) => return cannot(e),
            };
            let (dev, ino) = inode(&folder_meta);
            Ok(Planned {
                given: given.to_path_buf(),
                target,
                folder,
                kind: Kind::Replace { exists: false },
                identity: Identity::New(dev, ino, file_name),
            })
        }
        Err(e) => cannot(e),
    }
}

/// Checks the outputs `(option, path)` before anything is computed: each
/// must be writable in principle (its folder exists, it is no folder), no
/// two may be the same regular file, and none may be the `input` file.
pub fn plan(input: &Path, outputs: &[(&str, &Path)]) -> Result<Vec<Planned>> {
    check_distinct(outputs)?;
    let planned = outputs
        .iter()
        .map(|(option, path)| plan_output(option, path, &Rule::CONTRACT))
        .collect::<Result<Vec<_>>>()?;
    let input_identity = fs::metadata(input).ok().map(|m| {
        let (dev, ino) = inode(&m);
        Identity::File(dev, ino)
    });
    for (i, p) in planned.iter().enumerate() {
        if !matches!(p.kind, Kind::Replace { .. }) {
            continue;
        }
        if Some(&p.identity) == input_identity.as_ref() {
            return usage(format!(
                "{} {} is the input file; it would be overwritten",
                outputs[i].0,
                p.given.display()
            ));
        }
    }
    Ok(planned)
}

/// Which regular file (or new name) `path` writes, independent of its
/// spelling: symlinks followed, a new name known by its folder's device
/// and inode. `None` for anything else (a device, a folder, a path that
/// cannot be looked at): planning the output refuses it or writes it in
/// place, and two such outputs never replace one another.
fn file_identity(path: &Path) -> Option<Identity> {
    let target = follow_links(path).ok()?;
    match fs::metadata(&target) {
        Ok(m) if m.is_file() => {
            let (dev, ino) = inode(&m);
            Some(Identity::File(dev, ino))
        }
        Ok(_) => None,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let name = target.file_name()?;
            let folder = match target.parent() {
                Some(p) if !p.as_os_str().is_empty() => p,
                _ => Path::new("."),
            };
            let (dev, ino) = inode(&fs::metadata(folder).ok()?);
            Some(Identity::New(dev, ino, name.to_os_string()))
        }
        Err(_) => None,
    }
}

/// Refuses two of a command's outputs `(option, path)` that are one
/// regular file under two spellings (`games.txt` and `./games.txt`,
/// `sub/../games.txt`, a symlink to it; existing or not), compared as
/// files by device and inode: called before anything is written, so no
/// output replaces another. Outputs that are devices (`/dev/null` twice)
/// are written in place and may repeat.
pub fn check_distinct(outputs: &[(&str, &Path)]) -> Result<()> {
    let identities: Vec<Option<Identity>> = outputs
        .iter()
        .map(|(_, path)| file_identity(path))
        .collect();
    for (i, identity) in identities.iter().enumerate() {
        let Some(identity) = identity else { continue };
        if let Some(j) = (0..i).find(|&j| identities[j].as_ref() == Some(identity)) {
            return usage(format!(
                "{} and {} name the same file ({} and {}); give each its own",
                outputs[j].0,
                outputs[i].0,
                outputs[j].1.display(),
                outputs[i].1.display()
            ));
        }
    }
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::transaction::replace_all;
    use super::*;
    use std::io::Write;

    /// A scratch folder with `m.txt` and `l.txt` holding "old".
    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "reversi-output-files-{name}-{}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("scratch folder");
        for f in ["m.txt", "l.txt"] {
            fs::write(dir.join(f), "old\n").expect("write");
        }
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .expect("read")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_signal_before_the_renames_removes_the_temporary_files() {
        let dir = folder("signal");
        let (m, l) = (dir.join("m.txt"), dir.join("l.txt"));
        let planned = plan(Path::new("/nonexistent"), &[("-op", &m), ("-ol", &l)]).unwrap();
        let result = replace_all(&planned, &[b"new\n", b"new\n"], &|| true);
        assert!(result.is_ok());
        assert_eq!(names(&dir), ["l.txt", "m.txt"]);
        assert_eq!(fs::read_to_string(&m).unwrap(), "old\n");
        assert_eq!(fs::read_to_string(&l).unwrap(), "old\n");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn outputs_are_compared_as_files_and_devices_may_repeat() {
        let dir = folder("distinct");
        let (new, sub) = (dir.join("new.txt"), dir.join("sub"));
        fs::create_dir_all(&sub).expect("sub");
        let again = sub.join("..").join("new.txt");
        let refused = check_distinct(&[("--out", &new), ("--dropped", &again)]);
        assert!(refused.is_err(), "a new name under two spellings");
        let (m, also_m) = (dir.join("m.txt"), dir.join(".").join("m.txt"));
        assert!(check_distinct(&[("-a", &m), ("-b", &also_m)]).is_err());
        assert!(check_distinct(&[("-a", &m), ("-b", &dir.join("l.txt"))]).is_ok());
        let null = Path::new("/dev/null");
        assert!(check_distinct(&[("-a", null), ("-b", null)]).is_ok());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn streams_put_their_heads_and_bodies_in_place_or_leave_nothing() {
        let dir = folder("streams");
        let (m, l) = (dir.join("m.txt"), dir.join("l.txt"));
        let planned = plan(Path::new("/nonexistent"), &[("-op", &m), ("-ol", &l)]).unwrap();
        let mut streams = Streams::open(planned).unwrap();
        streams.writer(0).write_all(b"body\n").unwrap();
        assert_eq!(
            names(&dir).len(),
            4,
            "two temporary files beside the outputs"
        );
        drop(streams);
        assert_eq!(names(&dir), ["l.txt", "m.txt"]);
        assert_eq!(fs::read_to_string(&m).unwrap(), "old\n");
        let planned = plan(Path::new("/nonexistent"), &[("-op", &m), ("-ol", &l)]).unwrap();
        let mut streams = Streams::open(planned).unwrap();
        streams.writer(0).write_all(b"body\n").unwrap();
        streams.writer(1).write_all(b"log\n").unwrap();
        streams.commit(&[Some(b"head\n"), None]).unwrap();
        assert_eq!(names(&dir), ["l.txt", "m.txt"]);
        assert_eq!(fs::read_to_string(&m).unwrap(), "head\nbody\n");
        assert_eq!(fs::read_to_string(&l).unwrap(), "log\n");
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn without_a_signal_both_files_are_replaced_and_nothing_is_left() {
        let dir = folder("plain");
        let (m, l) = (dir.join("m.txt"), dir.join("l.txt"));
        let planned = plan(Path::new("/nonexistent"), &[("-op", &m), ("-ol", &l)]).unwrap();
        replace_all(&planned, &[b"moves\n", b"log\n"], &|| false).unwrap();
        assert_eq!(names(&dir), ["l.txt", "m.txt"]);
        assert_eq!(fs::read_to_string(&m).unwrap(), "moves\n");
        assert_eq!(fs::read_to_string(&l).unwrap(), "log\n");
        let _ = fs::remove_dir_all(&dir);
    }
}
