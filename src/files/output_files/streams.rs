//! [`Streams`]: outputs written as the work goes, committed as one
//! transaction like [`super::write()`].

use super::transaction::{commit_finals, temporary};
use super::{Kind, Planned};
use crate::files::signals::{self, Critical};
use crate::files::usage;
use anyhow::Result;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

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
/// transaction like [`super::write()`]: each output's body goes to a temporary
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
    /// files replaced as by [`super::write()`] (all or none, a signal taking
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
