//! The files a command reads and writes, below everything that has rules
//! about them (layer 1, beside [`crate::lines`]): how a command's files
//! begin ([`Signature`], the one type of every file kind, the lab's
//! included), and with feature `files` (in `lab` and `cli`) the capped input readers
//! (`input`), the output files written whole or not at all
//! (`output_files`), the signals that stop a long command but never inside
//! a file's write (`signals`) and the error that bad input gives
//! (`UsageError`). It names no command and prints nothing; the front ends'
//! kit re-exports it beside its clap glue.

#[cfg(feature = "files")]
pub mod input;
#[cfg(feature = "files")]
pub mod output_files;
#[cfg(feature = "files")]
pub mod signals;
mod signature;

pub use signature::Signature;

#[cfg(feature = "files")]
use anyhow::Result;

#[cfg(feature = "files")]
message_error! {
    /// A problem with what the user gave us (arguments, input files, stdin):
    /// reported as `error: ...` on stderr with exit status 2.
    pub struct UsageError(pub String);
}

/// Shorthand for an `Err` holding a [`UsageError`].
#[cfg(feature = "files")]
pub fn usage<T>(message: impl Into<String>) -> Result<T> {
    Err(UsageError(message.into()).into())
}
