//! `reversi`: the command-line front end. Parses, calls the library, formats.
//! See `reversi --help` and README.md.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    cli::exit(cli::run(args))
}
