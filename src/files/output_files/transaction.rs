//! The transaction of [`write()`]: each output written to a temporary
//! file in its folder, the folders locked, the temporaries renamed over
//! the targets, the renames undone from backups if one fails.

use super::{inode, Identity, Kind, Planned};
use crate::files::signals::{self, Critical};
use crate::files::{usage, UsageError};
use anyhow::Result;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// A temporary file name in `folder`, unique to this process and `k`.
pub(super) fn temporary(folder: &Path, k: usize, suffix: &str) -> PathBuf {
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

/// Appends what `write` writes to `p` if it is an output written in
/// place (a device or FIFO ignores the position, and a file reached
/// through `/dev/stdout` continues after what `>>` kept); nothing for a
/// regular file, which is replaced. Errors name the output.
fn append_in_place(p: &Planned, write: impl FnOnce(&mut File) -> io::Result<()>) -> Result<()> {
    if !matches!(p.kind, Kind::InPlace) {
        return Ok(());
    }
    let written = OpenOptions::new()
        .append(true)
        .open(&p.target)
        .and_then(|mut f| {
            write(&mut f)?;
            f.flush()
        });
    match written {
        Ok(()) => Ok(()),
        Err(e) => usage(format!(
            "cannot write output file {}: {e}",
            p.given.display()
        )),
    }
}

/// Writes `contents[i]` to `planned[i]` as one transaction (see the
/// module's documentation). Errors name the output and say that no
/// regular output file was changed.
pub fn write(planned: &[Planned], contents: &[&[u8]]) -> Result<()> {
    for (p, bytes) in planned.iter().zip(contents) {
        append_in_place(p, |f| f.write_all(bytes))?;
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
pub(super) fn replace_all(
    planned: &[Planned],
    contents: &[&[u8]],
    stop: &dyn Fn() -> bool,
) -> Result<()> {
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

/// Puts the finished temporary files `finals[k]` in place of `planned[k]`:
/// the devices' appended first, then the regular files renamed (backups
/// kept until all are), in a critical section.
pub(super) fn commit_finals(planned: &[Planned], finals: &[PathBuf]) -> Result<()> {
    for (p, tmp) in planned.iter().zip(finals) {
        append_in_place(p, |f| io::copy(&mut File::open(tmp)?, f).map(drop))?;
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
