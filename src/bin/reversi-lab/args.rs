//! The arguments several `reversi-lab train` commands share, each defined
//! once (its help told by the command where it differs), and the reading
//! of their values.

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

/// Every value given of the argument `id`, in order (none if absent).
pub fn strings(m: &ArgMatches, id: &str) -> Vec<String> {
    m.get_many::<String>(id)
        .into_iter()
        .flatten()
        .cloned()
        .collect()
}
