//! The front ends' kit (feature `cli`), shared by the command-line
//! binaries of the package (`reversi`, the product, and `reversi-lab`, the
//! lab), compiled once here: the one `error:` line and exit status of every
//! command ([`exit`], [`UsageError`]), argument parsing with clap's
//! builder API ([`parse`], [`option`], [`flag`]: no proc-macro crates, so
//! the documented static opt-in build keeps working), stdout and stderr
//! writes that never panic, and the readers of the files the lab makes
//! and the product reads ([`readers`]: weights, books). It re-exports the
//! file handling beneath it ([`crate::files`]: [`input`],
//! [`output_files`], [`signals`], [`UsageError`]), so the binaries name
//! it one way. Nothing in it names a subcommand.
//!
//! It is the one module of the library that writes to stdout and stderr,
//! and only when a binary asks: stdout with [`write_stdout`] (its errors
//! are returned), stderr with [`write_stderr_line`], which each binary's
//! `eprintln!` calls instead of the standard macro (that one panics when
//! stderr cannot be written: `2>/dev/full`, a closed pipe).

/// Writes a line to stderr like the standard `eprintln!`, ignoring a write
/// error instead of panicking; for the kit's own modules (defined before
/// their `mod` lines).
macro_rules! eprintln {
    ($($arg:tt)*) => {
        $crate::kit::write_stderr_line(::std::format_args!($($arg)*))
    };
}

pub mod readers;

pub use crate::files::{input, output_files, signals, usage, UsageError};

use anyhow::{Context as _, Result};
use clap::error::ErrorKind;
use clap::{Arg, ArgAction, ArgMatches, Command};
use std::ffi::OsString;
use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;

/// A command line, parsed: the command's own typed request, or a text it
/// asked to see (`--help`, `--version`), which is the command's whole
/// result (printed, exit status 0).
#[derive(Debug)]
pub enum Parsed<T> {
    /// What to do: the command's typed request.
    Request(T),
    /// The help or version text asked for.
    Text(String),
}

/// The command line's words (without the program's name) as strings: a
/// word that is not valid UTF-8 is refused.
pub fn arguments(args: Vec<OsString>) -> Result<Vec<String>> {
    let words = args
        .into_iter()
        .map(|a| {
            a.into_string()
                .map_err(|a| UsageError(format!("argument {a:?} is not valid UTF-8")))
        })
        .collect::<Result<Vec<String>, UsageError>>()?;
    Ok(words)
}

/// Parses `args` (the words after the subcommand's name) with `command`,
/// whose name is the whole command (`reversi perft`), into the command's
/// typed request: `typed` reads clap's matches, which go no further.
/// `--help` and `--version` give their text ([`Parsed::Text`]); an error
/// becomes one [`UsageError`] line pointing to `--help`.
pub fn parse<T>(
    command: Command,
    args: &[String],
    typed: impl FnOnce(&ArgMatches) -> Result<T>,
) -> Result<Parsed<T>> {
    let name = command.get_name().to_owned();
    let argv = std::iter::once(name.clone()).chain(args.iter().cloned());
    match command.bin_name(name.clone()).try_get_matches_from(argv) {
        Ok(m) => Ok(Parsed::Request(typed(&m)?)),
        Err(e) => match e.kind() {
            ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                Ok(Parsed::Text(e.render().to_string()))
            }
            _ => usage(one_line(&e.render().to_string(), &name)),
        },
    }
}

/// Parses `args` with `command` into a typed request ([`parse`]) and runs
/// it with `run`, or prints the help or version text asked for.
pub fn parse_and_run<T>(
    command: Command,
    args: &[String],
    typed: impl FnOnce(&ArgMatches) -> Result<T>,
    run: impl FnOnce(T) -> Result<()>,
) -> Result<()> {
    match parse(command, args, typed)? {
        Parsed::Request(request) => run(request),
        Parsed::Text(text) => write_stdout(&text),
    }
}

/// clap's rendered error (a message, perhaps indented details and a tip,
/// then a usage block and a pointer to `--help`) as one line: the message
/// and details joined by spaces, the tip in parentheses, and a pointer to
/// `NAME --help`.
fn one_line(rendered: &str, name: &str) -> String {
    let mut line = String::new();
    for text in rendered.lines().map(str::trim) {
        if text.starts_with("Usage:") || text.starts_with("For more information") {
            break;
        }
        if text.is_empty() {
            continue;
        }
        let text = text.strip_prefix("error: ").unwrap_or(text);
        if !line.is_empty() {
            line.push(' ');
        }
        match text.strip_prefix("tip: ") {
            Some(tip) => {
                line.push('(');
                line.push_str(tip);
                line.push(')');
            }
            None => line.push_str(text),
        }
    }
    format!("{line}; see `{name} --help`")
}

/// `text` with control characters escaped (`\n`, `\u{1b}`), so that a
/// message quoting user input stays one line and cannot drive the terminal.
pub fn escape(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// The longest error line printed, in characters: a message quoting a
/// huge input (a 5 MiB line) keeps its start and end.
const MAX_ERROR_CHARS: usize = 1000;

/// `text` cut to about [`MAX_ERROR_CHARS`] characters: its first 700 and
/// last 250, the characters between left out and counted.
fn capped(text: &str) -> String {
    let count = text.chars().count();
    if count <= MAX_ERROR_CHARS {
        return text.to_owned();
    }
    let (head, tail) = (700, 250);
    let start: String = text.chars().take(head).collect();
    let end: String = text.chars().skip(count - tail).collect();
    format!(
        "{start} [... {} characters left out ...] {end}",
        count - head - tail
    )
}

/// Writes `args` and a newline to stderr, ignoring errors: what the
/// binaries' `eprintln!` calls.
pub fn write_stderr_line(args: fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let _ = err.write_fmt(args).and_then(|()| err.write_all(b"\n"));
}

/// `--LONG <VALUE>`: an option taking one value; its id is `long`.
pub fn option(long: &'static str, value: &'static str, help: &'static str) -> Arg {
    Arg::new(long)
        .long(long)
        .value_name(value)
        .action(ArgAction::Set)
        .help(help)
}

/// `--LONG`: a flag, true when given; its id is `long`.
pub fn flag(long: &'static str, help: &'static str) -> Arg {
    Arg::new(long)
        .long(long)
        .action(ArgAction::SetTrue)
        .help(help)
}

/// The value of an argument that is required or has a default.
pub fn value<T: Clone + Send + Sync + 'static>(m: &ArgMatches, id: &str) -> T {
    m.get_one::<T>(id)
        .cloned()
        .unwrap_or_else(|| panic!("{id} is required or has a default"))
}

/// Writes `text` to stdout in one go.
pub fn write_stdout(text: &str) -> Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("cannot write to stdout")
}

/// Turns the result of the binary's `run` into the process's exit status, printing
/// the error (if any) once on stderr. A closed stdout (a pipe into `head`)
/// is not an error.
pub fn exit(result: Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let broken_pipe = e
                .chain()
                .filter_map(|c| c.downcast_ref::<io::Error>())
                .any(|io| io.kind() == io::ErrorKind::BrokenPipe);
            if broken_pipe {
                return ExitCode::SUCCESS;
            }
            // One line whatever the message quotes (a file name with a line
            // break, an escape sequence).
            eprintln!("error: {}", capped(&escape(&format!("{e:#}"))));
            if e.downcast_ref::<UsageError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(args: &[&str]) -> Result<Parsed<bool>> {
        let command = Command::new("test run").arg(flag("fast", "Go fast"));
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        parse(command, &args, |m| Ok(m.get_flag("fast")))
    }

    #[test]
    fn error_lines_keep_their_start_and_end() {
        assert_eq!(capped("short"), "short");
        let long = format!("a{}z", "é".repeat(5000));
        let cut = capped(&long);
        assert!(cut.starts_with('a') && cut.ends_with('z'), "{cut}");
        assert!(cut.contains("[... 4052 characters left out ...]"), "{cut}");
        assert!(cut.chars().count() < MAX_ERROR_CHARS + 50);
    }

    #[test]
    fn help_is_an_ordinary_result_and_a_bad_argument_one_usage_line() {
        assert!(matches!(parsed(&["--fast"]), Ok(Parsed::Request(true))));
        assert!(matches!(parsed(&[]), Ok(Parsed::Request(false))));
        match parsed(&["--help"]) {
            Ok(Parsed::Text(text)) => assert!(text.contains("Usage: test run"), "{text}"),
            other => panic!("{other:?}"),
        }
        let e = parsed(&["--slow"]).unwrap_err();
        let message = e
            .downcast_ref::<UsageError>()
            .expect("a usage error")
            .0
            .clone();
        assert!(!message.contains('\n'), "{message}");
        assert!(message.ends_with("see `test run --help`"), "{message}");
    }
}
