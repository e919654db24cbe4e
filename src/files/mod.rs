//! The files a command reads and writes, below everything that has rules
//! about them (feature `cli`; layer 1, beside [`crate::lines`]): the
//! capped input readers ([`input`]), the output files written whole or
//! not at all ([`output_files`]), the signals that stop a long command
//! but never inside a file's write ([`signals`]), and the error that bad
//! input gives ([`UsageError`]). It names no command and prints nothing;
//! the front ends' kit ([`crate::kit`]) re-exports it beside its clap glue,
//! and the lab uses it for its stages' files.

pub mod input;
pub mod output_files;
pub mod signals;

use anyhow::Result;

message_error! {
    /// A problem with what the user gave us (arguments, input files, stdin):
    /// reported as `error: ...` on stderr with exit status 2.
    pub struct UsageError(pub String);
}

/// Shorthand for an `Err` holding a [`UsageError`].
pub fn usage<T>(message: impl Into<String>) -> Result<T> {
    Err(UsageError(message.into()).into())
}
