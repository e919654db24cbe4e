//! The files a command reads and writes, below everything that has rules
//! about them (layer 1, beside [`crate::lines`]): how a command's files
//! begin ([`Signature`], the one type of every file kind, the lab's
//! included), and with feature `cli` the capped input readers
//! (`input`), the output files written whole or not at all
//! (`output_files`), the signals that stop a long command but never inside
//! a file's write (`signals`) and the error that bad input gives
//! (`UsageError`). It names no command and prints nothing; the front ends'
//! kit re-exports it beside its clap glue.

#[cfg(feature = "cli")]
pub mod input;
#[cfg(feature = "cli")]
pub mod output_files;
#[cfg(feature = "cli")]
pub mod signals;
mod signature;

pub use signature::Signature;

#[cfg(feature = "cli")]
use anyhow::Result;

#[cfg(feature = "cli")]
message_error! {
    /// A problem with what the user gave us (arguments, input files, stdin):
    /// reported as `error: ...` on stderr with exit status 2.
    pub struct UsageError(pub String);
}

/// Shorthand for an `Err` holding a [`UsageError`].
#[cfg(feature = "cli")]
pub fn usage<T>(message: impl Into<String>) -> Result<T> {
    Err(UsageError(message.into()).into())
}
