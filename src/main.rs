//! `reversi`: the command-line front end. Parses, calls the library, formats.
//! See `reversi --help` and README.md.

/// The standard `eprintln!` panics when stderr cannot be written; this one
/// (see `reversi::kit::write_stderr_line`) ignores the error. Defined before
/// the `mod` lines, it replaces the standard macro in every module below.
macro_rules! eprintln {
    ($($arg:tt)*) => { ::reversi::kit::write_stderr_line(::std::format_args!($($arg)*)) };
}

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    reversi::kit::exit(cli::run(args))
}
