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
//!   files. The writing is a [`Critical`] section: SIGINT, SIGTERM or SIGHUP
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

use super::signals::{self, Critical};
use super::{usage, UsageError};
use anyhow::Result;
use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// Symlinks followed before giving up (as the kernel's `ELOOP` limit).
const MAX_LINKS: usize = 40;

/// How a command's files begin, whatever their version: what tells a file
/// it wrote from anyone else's.
#[derive(Clone, Copy, Debug)]
pub struct Signature {
    /// The first bytes of every such file.
    pub start: &'static str,
    /// The first bytes such files had when an earlier version wrote them,
    /// if they changed: those files are ours too.
    pub former: Option<&'static str>,
    /// Its kind, for messages (`a weights file`).
    pub kind: &'static str,
}

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

/// A temporary file name in `folder`, unique to this process and `k`.
fn temporary(folder: &Path, k: usize, suffix: &str) -> PathBuf {
    folder.join(format!(".reversi-{}-{k}.{suffix}", std::process::id()))
}

/// Writes `bytes` to a new temporary file for `p` (with the permissions of
/// the file it replaces) and makes it durable.
fn write_temporary(p: &Planned, k: usize, bytes: &[u8]) -> io::Result<PathBuf> {
    let tmp = temporary(&p.folder, k, "tmp");
    let written = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut f| {
            if let Ok(m) = fs::metadata(&p.target) {
                f.set_permissions(m.permissions())?;
            }
            f.write_all(bytes)?;
            f.sync_all()
        });
    match written {
        Ok(()) => Ok(tmp),
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// A copy of the current `target` kept while the renames run: a hard link
/// if the file system allows one, else a copy.
fn backup(target: &Path, folder: &Path, k: usize) -> io::Result<PathBuf> {
    let old = temporary(folder, k, "old");
    if fs::hard_link(target, &old).is_ok() {
        return Ok(old);
    }
    match fs::copy(target, &old) {
        Ok(_) => Ok(old),
        Err(e) => {
            let _ = fs::remove_file(&old);
            Err(e)
        }
    }
}

/// Locks the folders of the replaced outputs, each once and in a fixed
/// order (so that two runs cannot wait on each other), for as long as the
/// returned files are open. A folder that cannot be opened or locked is
/// left unlocked: the transaction is still all-or-nothing, only two runs
/// at once may then interleave.
fn lock_folders(planned: &[Planned]) -> Vec<File> {
    let mut folders: Vec<(Identity, &Path)> = planned
        .iter()
        .filter(|p| matches!(p.kind, Kind::Replace { .. }))
        .filter_map(|p| {
            let m = fs::metadata(&p.folder).ok()?;
            let (dev, ino) = inode(&m);
            Some((Identity::File(dev, ino), p.folder.as_path()))
        })
        .collect();
    folders.sort();
    folders.dedup_by(|a, b| a.0 == b.0);
    folders
        .into_iter()
        .filter_map(|(_, folder)| {
            let f = File::open(folder).ok()?;
            f.lock().ok()?;
            Some(f)
        })
        .collect()
}

/// Writes `contents[i]` to `planned[i]` as one transaction (see the
/// module's documentation). Errors name the output and say that no
/// regular output file was changed.
pub fn write(planned: &[Planned], contents: &[&[u8]]) -> Result<()> {
    for (p, bytes) in planned.iter().zip(contents) {
        if matches!(p.kind, Kind::InPlace) {
            // Appending: a device or FIFO ignores it, and a file reached
            // through `/dev/stdout` continues after what `>>` kept.
            let written = OpenOptions::new()
                .append(true)
                .open(&p.target)
                .and_then(|mut f| {
                    f.write_all(bytes)?;
                    f.flush()
                });
            if let Err(e) = written {
                return usage(format!(
                    "cannot write output file {}: {e}",
                    p.given.display()
                ));
            }
        }
    }
    let _locks = lock_folders(planned);
    // A signal that arrives now ends the process once the renames are
    // done, or, if it came before them, once the temporary files are gone.
    let _critical = Critical::open();
    let result = replace_all(planned, contents, &|| signals::arrived().is_some());
    signals::end_if_arrived();
    result
}

/// The temporary-file-and-rename part of [`write`](fn@write), in a
/// critical section: if `stop()` says so before the renames start, the
/// temporary files are removed and nothing is replaced.
fn replace_all(planned: &[Planned], contents: &[&[u8]], stop: &dyn Fn() -> bool) -> Result<()> {
    let replaced: Vec<(usize, &Planned)> = planned
        .iter()
        .enumerate()
        .filter(|(_, p)| matches!(p.kind, Kind::Replace { .. }))
        .collect();
    let mut temps: Vec<PathBuf> = Vec::new();
    let mut backups: Vec<Option<PathBuf>> = Vec::new();
    let clean = |temps: &[PathBuf], backups: &[Option<PathBuf>]| {
        for t in temps.iter().chain(backups.iter().flatten()) {
            let _ = fs::remove_file(t);
        }
    };
    for &(i, p) in &replaced {
        let made = write_temporary(p, i, contents[i]).and_then(|tmp| {
            temps.push(tmp);
            match p.kind {
                Kind::Replace { exists: true } => backup(&p.target, &p.folder, i).map(Some),
                _ => Ok(None),
            }
        });
        match made {
            Ok(b) => backups.push(b),
            Err(e) => {
                clean(&temps, &backups);
                return usage(format!(
                    "cannot write output file {}: {e}; no output file was changed",
                    p.given.display()
                ));
            }
        }
        if stop() {
            clean(&temps, &backups);
            return Ok(());
        }
    }
    rename_into_place(&replaced, &temps, &backups)
}

/// Renames `temps[k]` over the target of `replaced[k]`, each in turn; if
/// one fails, the renames done are undone from their `backups` (see
/// [`undo`]). The backups and temporaries left are removed, and the
/// folders synced.
fn rename_into_place(
    replaced: &[(usize, &Planned)],
    temps: &[PathBuf],
    backups: &[Option<PathBuf>],
) -> Result<()> {
    let clean = |temps: &[PathBuf], backups: &[Option<PathBuf>]| {
        for t in temps.iter().chain(backups.iter().flatten()) {
            let _ = fs::remove_file(t);
        }
    };
    for (k, &(_, p)) in replaced.iter().enumerate() {
        if let Err(e) = fs::rename(&temps[k], &p.target) {
            let undone = undo(&replaced[..k], &backups[..k]);
            clean(&temps[k..], &[]);
            let message = match undone {
                Ok(()) => {
                    clean(&[], backups);
                    format!(
                        "cannot write output file {}: {e}; no output file was changed",
                        p.given.display()
                    )
                }
                Err(u) => format!(
                    "cannot write output file {}: {e}; undoing the files already replaced \
                     failed too ({u}), their old content is in .reversi-*.old beside them",
                    p.given.display()
                ),
            };
            return Err(UsageError(message).into());
        }
    }
    clean(&[], backups);
    // Make the renames durable too (a folder's entries are its content);
    // where a folder cannot be synced, the files themselves already are.
    for &(_, p) in replaced {
        if let Ok(folder) = File::open(&p.folder) {
            let _ = folder.sync_all();
        }
    }
    Ok(())
}

/// One output of [`Streams`]: its plan and the temporary file its body
/// is written to.
struct Stream {
    planned: Planned,
    /// The body's temporary file: beside the target for a replaced file,
    /// in the system's temporary folder for one written in place.
    part: PathBuf,
    file: BufWriter<File>,
}

/// Outputs written as the work goes (a long import's games), as one
/// transaction like [`write()`]: each output's body goes to a temporary
/// file (beside its target, or in the system's temporary folder for a
/// device written in place) through a [`BufWriter`], so memory does not
/// grow with the output. [`Streams::commit`] puts them all in place at the
/// end (with a head, such as a header that counts the lines, written
/// before each body); dropped without a commit, or stopped by a signal,
/// the temporary files are removed and no output is touched.
pub struct Streams {
    streams: Vec<Stream>,
}

impl Streams {
    /// Opens a temporary file for each of `planned`.
    ///
    /// # Errors
    /// A temporary file that cannot be created, naming its output.
    pub fn open(planned: Vec<Planned>) -> Result<Streams> {
        let mut streams = Streams {
            streams: Vec::with_capacity(planned.len()),
        };
        for (k, p) in planned.into_iter().enumerate() {
            let folder = match p.kind {
                Kind::Replace { .. } => p.folder.clone(),
                Kind::InPlace => std::env::temp_dir(),
            };
            let part = temporary(&folder, k, "part");
            match create_temporary(&part) {
                Ok(file) => streams.streams.push(Stream {
                    planned: p,
                    part,
                    file: BufWriter::new(file),
                }),
                Err(e) => {
                    return usage(format!(
                        "cannot write output file {}: {e}; no output file was changed",
                        p.given.display()
                    ))
                }
            }
        }
        Ok(streams)
    }

    /// The writer of output `k` (in the order planned).
    ///
    /// # Panics
    /// If there is no output `k`.
    pub fn writer(&mut self, k: usize) -> &mut BufWriter<File> {
        &mut self.streams[k].file
    }

    /// The writers of every output, in the order planned (to write to
    /// several at once).
    pub fn writers(&mut self) -> Vec<&mut BufWriter<File>> {
        self.streams.iter_mut().map(|s| &mut s.file).collect()
    }

    /// Puts every output in place: `heads[k]`, if any, then what was
    /// written to output `k`. Devices are written first, then the regular
    /// files replaced as by [`write()`] (all or none, a signal taking
    /// effect before the renames or after them).
    ///
    /// # Errors
    /// A write or rename that fails, naming the output; no regular output
    /// file was changed then.
    pub fn commit(mut self, heads: &[Option<&[u8]>]) -> Result<()> {
        let mut finals = Vec::with_capacity(self.streams.len());
        for (k, s) in self.streams.iter_mut().enumerate() {
            let head = heads.get(k).copied().flatten();
            match finish_stream(s, k, head) {
                Ok(path) => finals.push(path),
                Err(e) => {
                    for path in &finals {
                        let _ = fs::remove_file(path);
                        signals::forget_temporary(path);
                    }
                    return usage(format!(
                        "cannot write output file {}: {e}; no output file was changed",
                        s.planned.given.display()
                    ));
                }
            }
        }
        let streams = std::mem::take(&mut self.streams);
        let planned: Vec<Planned> = streams.into_iter().map(|s| s.planned).collect();
        let result = commit_finals(&planned, &finals);
        for path in &finals {
            let _ = fs::remove_file(path);
            signals::forget_temporary(path);
        }
        result
    }
}

impl Drop for Streams {
    fn drop(&mut self) {
        for s in &self.streams {
            let _ = fs::remove_file(&s.part);
            signals::forget_temporary(&s.part);
        }
    }
}

/// Creates the temporary file `path`, removed if a signal ends the
/// process.
fn create_temporary(path: &Path) -> io::Result<File> {
    let _critical = Critical::open();
    signals::remove_on_stop(path);
    let created = OpenOptions::new().write(true).create_new(true).open(path);
    if created.is_err() {
        signals::forget_temporary(path);
    }
    created
}

/// Ends the stream `s` (output `k`): its body flushed and, with a `head`,
/// copied after the head into a second temporary file (the body's is then
/// removed); the file made durable, with the permissions of the file it
/// replaces. Returns the finished temporary file.
fn finish_stream(s: &mut Stream, k: usize, head: Option<&[u8]>) -> io::Result<PathBuf> {
    s.file.flush()?;
    let Some(head) = head else {
        s.file.get_ref().sync_all()?;
        if let Ok(m) = fs::metadata(&s.planned.target) {
            s.file.get_ref().set_permissions(m.permissions())?;
        }
        return Ok(s.part.clone());
    };
    let folder = s.part.parent().unwrap_or(Path::new("."));
    let tmp = temporary(folder, k, "tmp");
    let mut file = create_temporary(&tmp)?;
    let copied = (|| {
        if let Ok(m) = fs::metadata(&s.planned.target) {
            file.set_permissions(m.permissions())?;
        }
        file.write_all(head)?;
        io::copy(&mut File::open(&s.part)?, &mut file)?;
        file.sync_all()
    })();
    match copied {
        Ok(()) => {
            let _ = fs::remove_file(&s.part);
            Ok(tmp)
        }
        Err(e) => {
            let _ = fs::remove_file(&tmp);
            signals::forget_temporary(&tmp);
            Err(e)
        }
    }
}

/// Puts the finished temporary files `finals[k]` in place of `planned[k]`:
/// the devices' appended first, then the regular files renamed (backups
/// kept until all are), in a critical section.
fn commit_finals(planned: &[Planned], finals: &[PathBuf]) -> Result<()> {
    for (p, tmp) in planned.iter().zip(finals) {
        if matches!(p.kind, Kind::InPlace) {
            let written = OpenOptions::new()
                .append(true)
                .open(&p.target)
                .and_then(|mut f| {
                    io::copy(&mut File::open(tmp)?, &mut f)?;
                    f.flush()
                });
            if let Err(e) = written {
                return usage(format!(
                    "cannot write output file {}: {e}",
                    p.given.display()
                ));
            }
        }
    }
    let replaced: Vec<(usize, &Planned)> = planned
        .iter()
        .enumerate()
        .filter(|(_, p)| matches!(p.kind, Kind::Replace { .. }))
        .collect();
    let temps: Vec<PathBuf> = replaced.iter().map(|&(i, _)| finals[i].clone()).collect();
    let _locks = lock_folders(planned);
    let _critical = Critical::open();
    let mut backups = Vec::with_capacity(replaced.len());
    for &(i, p) in &replaced {
        let made = match p.kind {
            Kind::Replace { exists: true } => backup(&p.target, &p.folder, i).map(Some),
            _ => Ok(None),
        };
        match made {
            Ok(b) => backups.push(b),
            Err(e) => {
                for b in backups.iter().flatten() {
                    let _ = fs::remove_file(b);
                }
                return usage(format!(
                    "cannot write output file {}: {e}; no output file was changed",
                    p.given.display()
                ));
            }
        }
    }
    if signals::arrived().is_some() {
        for b in backups.iter().flatten() {
            let _ = fs::remove_file(b);
        }
        // The temporary files are registered: they go with the process.
        signals::end_if_arrived();
    }
    let result = rename_into_place(&replaced, &temps, &backups);
    signals::end_if_arrived();
    result
}

/// Puts back the old files of outputs already replaced: their backups are
/// renamed back, and a file that did not exist before is removed.
fn undo(done: &[(usize, &Planned)], backups: &[Option<PathBuf>]) -> io::Result<()> {
    let mut result = Ok(());
    for (&(_, p), b) in done.iter().zip(backups) {
        let r = match b {
            Some(old) => fs::rename(old, &p.target),
            None => fs::remove_file(&p.target),
        };
        if r.is_err() && result.is_ok() {
            result = r;
        }
    }
    result
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

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
