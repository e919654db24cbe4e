//! `reversi serve [--port N] [--host ADDR] [--allow-host NAME]`: the local
//! web pages (play, search explorer, study). The server itself is
//! [`reversi::apps::serve`]; this module parses, says where it listens and
//! runs it until Ctrl-C.

use anyhow::Result;
use clap::{value_parser, ArgAction, ArgMatches, Command};
use reversi::apps::serve::{Config, ServeError, Server};
use reversi::kit::{option, value, UsageError};
use reversi::units::Discs;
use std::io::Write;
use std::net::IpAddr;

/// The options of `reversi serve`.
#[derive(Debug)]
struct Args {
    /// The opening book's options.
    book: crate::cli::options::BookOptions,
    host: IpAddr,
    port: u16,
    allow_hosts: Vec<String>,
    /// `--games FILE`: the games index.
    games: Option<String>,
}

/// `reversi serve`'s options.
pub(super) fn command() -> Command {
    Command::new("reversi serve")
        .about(
            "Serve the pages to play Reversi and to watch minimax and alpha-beta search, \
             on this machine; Ctrl-C stops",
        )
        .after_help(
            "Pages: /play, /explore (the search tree of a position, with the counts of \
             `reversi 300/500`), /study. The JSON API (e.g. /api/tiny?flag=300&player=1&\
             board=0000021001200000) is described in docs/SERVE.md.\n\
             Only requests naming this server (an IP address or localhost with the port) are \
             answered; every search is capped in nodes, depth and time.",
        )
        .arg(
            option(
                "host",
                "ADDR",
                "Address to listen on; other than 127.0.0.1 or ::1 lets other machines in",
            )
            .value_parser(value_parser!(IpAddr))
            .default_value("127.0.0.1"),
        )
        .arg(
            option("port", "PORT", "Port to listen on; 0 picks a free one")
                .value_parser(value_parser!(u16))
                .default_value("8080"),
        )
        .arg(
            option(
                "allow-host",
                "NAME",
                "A host name (besides localhost and IP addresses) that requests may use \
                 to reach the server; may be repeated",
            )
            .action(ArgAction::Append),
        )
        .arg(option(
            "games",
            "FILE",
            "A games index (`reversi games index`'s): the pages' explorer of masters' games and /api/games",
        ))
        .args(crate::cli::options::book_args())
}

impl Args {
    fn from_matches(m: &ArgMatches) -> Args {
        Args {
            book: crate::cli::options::BookOptions::from_matches(m),
            host: value(m, "host"),
            port: value(m, "port"),
            allow_hosts: m
                .get_many::<String>("allow-host")
                .map(|v| v.cloned().collect())
                .unwrap_or_default(),
            games: m.get_one("games").cloned(),
        }
    }
}

/// Runs `reversi serve ARGS` (`args` starts with `serve`).
pub fn run(args: &[String]) -> Result<()> {
    reversi::kit::parse_and_run(command(), &args[1..], |m| Ok(Args::from_matches(m)), serve)
}

/// Runs `reversi serve` as asked.
fn serve(a: Args) -> Result<()> {
    let book = a.book.book_and_randomness()?;
    // Started with SIGHUP ignored (`nohup`): it stays ignored.
    #[cfg(unix)]
    let stop_on_hangup = !reversi::kit::signals::ignored(libc::SIGHUP);
    #[cfg(not(unix))]
    let stop_on_hangup = true;
    let games = match &a.games {
        Some(path) => Some(std::sync::Arc::new(
            reversi::kit::readers::read_games_index(path)?,
        )),
        None => None,
    };
    // An address that is taken or not this machine's is the user's to
    // change: exit status 2 like any bad argument.
    let server = Server::bind(Config {
        host: a.host,
        port: a.port,
        allowed_hosts: a.allow_hosts,
        book_randomness: book.as_ref().map_or(Discs(0.0), |b| b.1),
        book: book.map(|b| b.0),
        games,
        stop_on_hangup,
        ..Config::default()
    })
    .map_err(|e| match e {
        ServeError::Bind(..) => anyhow::Error::new(UsageError(e.to_string())),
        other => anyhow::Error::new(other),
    })?;
    if !server.is_loopback() {
        eprintln!(
            "warning: listening on {}, not only on this machine: other machines can reach these pages",
            server.local_addr()
        );
    }
    let banner = format!(
        "reversi serve: listening on {}\nPress Ctrl-C to stop.\n",
        server.url()
    );
    let signal = server.run_until_signal(|| {
        let mut out = std::io::stdout().lock();
        out.write_all(banner.as_bytes())?;
        out.flush()
    })?;
    reversi::kit::write_stdout("reversi serve: stopped\n")?;
    // As every command that a signal stops: dies by it.
    reversi::kit::signals::die_by(signal)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_command_definition_is_consistent() {
        super::command().debug_assert();
    }
}
