//! The arguments several `reversi-lab` commands share, each defined once
//! (its help told by the command where it differs), and the reading of
//! their values (the running options [`Running`] of every request).

use clap::{value_parser, Arg, ArgMatches};
use reversi::kit::{flag, option};
use reversi::lab::shard::{parse_shard, Shard};

/// `--quiet`, `-q`: no progress on stderr.
pub fn quiet() -> Arg {
    flag("quiet", "No progress on stderr").short('q')
}

/// `--threads N` (default 2), `help` saying what the threads do.
pub fn threads(help: &'static str) -> Arg {
    option("threads", "N", help)
        .value_parser(value_parser!(usize))
        .default_value("2")
}

/// `--shard K/N`, `help` saying what the run's shard holds.
pub fn shard(help: &'static str) -> Arg {
    option("shard", "K/N", help).value_parser(parse_shard)
}

/// The run's shard: `--shard`'s, or the whole stage without it.
pub fn shard_of(m: &ArgMatches) -> Shard {
    m.get_one::<Shard>("shard").copied().unwrap_or(Shard::WHOLE)
}

/// The running options of a lab command: `--threads` (1 where the
/// command has none), `--force`, `--quiet` (false where it has none),
/// read once for every request.
#[derive(Clone, Copy, Debug)]
pub struct Running {
    pub threads: usize,
    pub force: bool,
    pub quiet: bool,
}

impl Running {
    pub fn from_matches(m: &ArgMatches) -> Running {
        let flag = |id| matches!(m.try_get_one::<bool>(id), Ok(Some(true)));
        Running {
            threads: m
                .try_get_one("threads")
                .ok()
                .flatten()
                .copied()
                .unwrap_or(1),
            force: flag("force"),
            quiet: flag("quiet"),
        }
    }

    /// A progress note on stderr unless `--quiet`.
    pub fn note(self, text: &str) {
        if !self.quiet {
            eprintln!("{text}");
        }
    }
}

/// Every value given of the argument `id`, in order (none if absent).
pub fn strings(m: &ArgMatches, id: &str) -> Vec<String> {
    m.get_many::<String>(id)
        .into_iter()
        .flatten()
        .cloned()
        .collect()
}
