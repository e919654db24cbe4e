//! `reversi games`: the world's games as a database of positions.
//! `reversi games index FILE...` builds the index from game collections
//! (WTHOR's `.wtb` with `WTHOR.JOU`/`WTHOR.TRN`, PGN, Logistello's `.gam`);
//! `reversi games POSITION` asks it about a position (see
//! [`reversi::record::games`]).

use super::options::{read_record, record_words, until_arg};
use anyhow::Result;
use clap::{Arg, ArgMatches, Command};
use reversi::kit::input::{open_regular, read_capped};
use reversi::kit::output_files::{self, InPlace, Rule, Signature};
use reversi::kit::readers::{collection_usage, form_of, read_collection, read_games_index};
use reversi::kit::{flag, option, usage, value, write_stdout};
use reversi::record::archive::{parse_wthor_names, NameFile};
use reversi::record::collection::{known_form, WthorNames};
use reversi::record::games::{Added, IndexBuilder, Outcomes, PositionGames, MAGIC};
use reversi::record::{write_board_string, write_transcript, GameRecord};
use reversi::reversi::Position;
use std::path::Path;
use std::time::Instant;

/// The index `reversi games` reads and `reversi games index` writes unless
/// told otherwise.
pub const DEFAULT_INDEX: &str = "reversi-games.idx";

/// The games indexes `reversi games index` writes.
const INDEX_FILE: Signature = Signature {
    start: MAGIC,
    former: None,
    kind: "a games index",
};

fn index_command() -> Command {
    Command::new("reversi games index")
        .about("Build the games index from game collections: WTHOR's binary files (`WTH_YYYY.wtb`, by the extension; their players and tournaments named by `WTHOR.JOU` and `WTHOR.TRN`, given among the files or found beside them), WTHOR PGN and Logistello's `.gam` lines (by their text). Every game is replayed (an illegal move names its file and game); a game whose moves repeat an earlier one's up to symmetry is left out (the first file given keeps it). Files are read a game at a time and must not be compressed: `zcat WTH_2023.pgn.gz > WTH_2023.pgn` first")
        .arg(Arg::new("files").value_name("FILE").num_args(1..).required(true).help("Collection files (and WTHOR.JOU, WTHOR.TRN), read in this order"))
        .arg(option("out", "FILE", "The index to write (replaced only if it is a games index, or with --force)").default_value(DEFAULT_INDEX))
        .arg(flag("force", "Replace --out even if it is another kind of file"))
        .arg(flag("quiet", "No progress on stderr"))
}

fn query_command() -> Command {
    Command::new("reversi games")
        .about("What the world's games say about a position (8x8, under any of the board's 8 symmetries): how many reached it, how they ended, each move played next with its games and results, and the latest games with their players, tournament, year, score and moves (turned to the position as asked). The index is built once by `reversi games index`")
        .arg(Arg::new("position").value_name("POSITION").required(true).allow_hyphen_values(true).help("A board string (64 of -/X/O then X or O to move), optionally followed by moves; a transcript from the start (f5d6c3); a GGF game; or a file holding one. The position is the one after the last move (or after --until's)"))
        .arg(Arg::new("more").value_name("MORE").num_args(0..).help("More words of the record, joined with spaces"))
        .arg(until_arg("The position after the record's first N moves (a pass counts as one) instead of its last"))
        .arg(option("index", "FILE", "The games index (`reversi games index`'s)").default_value(DEFAULT_INDEX))
        .arg(option("games", "N", "How many games to list, the latest first (0-1000)").value_parser(clap::builder::RangedU64ValueParser::<usize>::new().range(0..=1000)).default_value("10"))
        .arg(flag("json", "One JSON object"))
}

/// The subcommands' definitions (for the consistency test).
#[cfg(test)]
pub(super) fn commands() -> [Command; 2] {
    [index_command(), query_command()]
}

/// Runs `reversi games ...` (`args[0]` is `games`).
pub fn run(args: &[String]) -> Result<()> {
    if args.get(1).map(String::as_str) == Some("index") {
        return reversi::kit::parse_and_run(
            index_command(),
            &args[2..],
            Build::from_matches,
            build,
        );
    }
    reversi::kit::parse_and_run(query_command(), &args[1..], Query::from_matches, query)
}

/// `reversi games index`'s request.
struct Build {
    files: Vec<String>,
    out: String,
    force: bool,
    quiet: bool,
}

impl Build {
    fn from_matches(m: &ArgMatches) -> Result<Build> {
        Ok(Build {
            files: m
                .get_many::<String>("files")
                .into_iter()
                .flatten()
                .cloned()
                .collect(),
            out: value(m, "out"),
            force: m.get_flag("force"),
            quiet: m.get_flag("quiet"),
        })
    }
}

/// Which WTHOR name file `path` is, by its name (`WTHOR.JOU`, `.TRN`).
fn name_file(path: &str) -> Option<NameFile> {
    let ext = Path::new(path).extension()?.to_str()?.to_ascii_uppercase();
    match ext.as_str() {
        "JOU" => Some(NameFile::Players),
        "TRN" => Some(NameFile::Tournaments),
        _ => None,
    }
}

/// Reads a WTHOR name file.
fn read_names(path: &str, which: NameFile) -> Result<Vec<String>> {
    let (file, _) = open_regular(Path::new(path), path)?;
    let bytes = read_capped(file, 1 << 24, path)?;
    parse_wthor_names(&bytes, which).or_else(|e| usage(format!("{path}: {e}")))
}

/// The names of WTHOR's players and tournaments: the name files given, else
/// those beside the first `.wtb` file (`WTHOR.JOU`, `WTHOR.TRN`), else
/// none.
fn wthor_names(files: &[String], first_wtb: Option<&str>) -> Result<WthorNames> {
    let mut names = WthorNames::default();
    let mut given = [false, false];
    for path in files {
        match name_file(path) {
            Some(NameFile::Players) => {
                (names.players, given[0]) = (read_names(path, NameFile::Players)?, true)
            }
            Some(NameFile::Tournaments) => {
                (names.tournaments, given[1]) = (read_names(path, NameFile::Tournaments)?, true);
            }
            None => {}
        }
    }
    if let Some(folder) = first_wtb.map(|w| Path::new(w).parent().unwrap_or(Path::new(""))) {
        for (k, (which, file)) in [
            (NameFile::Players, "WTHOR.JOU"),
            (NameFile::Tournaments, "WTHOR.TRN"),
        ]
        .into_iter()
        .enumerate()
        {
            let path = folder.join(file);
            if !given[k] && path.is_file() {
                let list = read_names(&path.to_string_lossy(), which)?;
                match which {
                    NameFile::Players => names.players = list,
                    NameFile::Tournaments => names.tournaments = list,
                }
            }
        }
    }
    Ok(names)
}

fn build(r: Build) -> Result<()> {
    let planned = output_files::plan_output(
        "--out",
        Path::new(&r.out),
        &Rule {
            ours: Some(INDEX_FILE),
            force: r.force,
            in_place: InPlace::Devices,
        },
    )?;
    let collections: Vec<&String> = r.files.iter().filter(|f| name_file(f).is_none()).collect();
    if collections.is_empty() {
        return usage("no game collection given (only WTHOR name files)");
    }
    let mut forms = Vec::with_capacity(collections.len());
    for path in &collections {
        forms.push(known_form(path, form_of(path)?).map_err(collection_usage)?);
    }
    let first_wtb = collections
        .iter()
        .zip(&forms)
        .find(|(_, f)| **f == reversi::record::collection::Form::Wtb)
        .map(|(p, _)| p.as_str());
    let names = wthor_names(&r.files, first_wtb)?;
    let start = Instant::now();
    let mut builder = IndexBuilder::new();
    for (path, form) in collections.iter().zip(forms) {
        builder.start_file(path);
        let (before, dupes) = (builder.games(), builder.duplicates());
        let mut read = 0u32;
        for game in read_collection(path, form)?.with_names(names.clone()) {
            read += 1;
            let game = game.map_err(collection_usage)?;
            if builder.add(&game, read) == Added::NotFromStart {
                return usage(format!(
                    "{path}: game {read} does not start from the 8x8 start"
                ));
            }
        }
        if !r.quiet {
            eprintln!(
                "games: {path}: {read} games read, {} indexed, {} duplicates ({:.1} s)",
                builder.games() - before,
                builder.duplicates() - dupes,
                start.elapsed().as_secs_f64()
            );
        }
    }
    let mut streams = output_files::Streams::open(vec![planned])?;
    let quiet = r.quiet;
    let summary = builder
        .write(streams.writer(0), &mut |pass, passes| {
            if !quiet && passes > 1 {
                eprintln!(
                    "games: positions, pass {pass} of {passes} ({:.1} s)",
                    start.elapsed().as_secs_f64()
                );
            }
        })
        .or_else(|e| {
            usage(format!(
                "cannot write output file {}: {e}; no output file was changed",
                r.out
            ))
        })?;
    streams.commit(&[None])?;
    // The time with the progress (stderr): the summary on stdout is the
    // same at every run, as the README's example shows it.
    if !quiet {
        eprintln!("games: done in {:.1} s", start.elapsed().as_secs_f64());
    }
    write_stdout(&format!(
        "{}: {} games ({} duplicates left out), {} positions, {} bytes\n",
        r.out, summary.games, summary.duplicates, summary.postings, summary.bytes,
    ))
}

/// `reversi games`'s request.
struct Query {
    record: String,
    until: Option<usize>,
    index: String,
    games: usize,
    json: bool,
}

impl Query {
    fn from_matches(m: &ArgMatches) -> Result<Query> {
        Ok(Query {
            record: record_words(m, "position", "more"),
            until: m.get_one::<usize>("until").copied(),
            index: value(m, "index"),
            games: value(m, "games"),
            json: m.get_flag("json"),
        })
    }
}

fn query(r: Query) -> Result<()> {
    let mut game = read_record(&r.record, 8)?;
    if let Some(n) = r.until {
        game = game
            .until(n)
            .or_else(|e| usage(format!("--until {n}: {e}")))?;
    }
    let index = read_games_index(&r.index)?;
    let p = game.last();
    let found = index.query(&p, r.games);
    let text = if r.json {
        format!(
            "{{\"position\":\"{}\",{}}}\n",
            write_board_string(&p),
            found.json_fields()
        )
    } else {
        text(&p, &found, index.games())
    };
    write_stdout(&text)
}

/// `n` of `of` as a percentage with one decimal.
fn percent(n: u64, of: u64) -> String {
    if of == 0 {
        "-".to_owned()
    } else {
        format!("{:.1}%", 100.0 * n as f64 / of as f64)
    }
}

/// The mean score, signed, or `-`.
fn mean(o: &Outcomes) -> String {
    o.mean_score()
        .map_or_else(|| "-".to_owned(), |m| format!("{m:+.2}"))
}

/// The answer as text.
fn text(p: &Position, found: &PositionGames, indexed: u64) -> String {
    use std::fmt::Write as _;
    let mut s = format!("{}\n", write_board_string(p));
    let t = &found.total;
    if t.games == 0 {
        let _ = writeln!(s, "no game of the {indexed} indexed reaches this position");
        return s;
    }
    let known = t.games - t.unknown;
    let _ = write!(
        s,
        "{} games: black won {} ({}), {} drawn ({}), white won {} ({}); mean score {} (black minus white)",
        t.games,
        t.black_wins,
        percent(t.black_wins, known),
        t.draws,
        percent(t.draws, known),
        t.white_wins,
        percent(t.white_wins, known),
        mean(t)
    );
    if t.unknown > 0 {
        let _ = write!(s, "; {} of unknown result", t.unknown);
    }
    s.push('\n');
    if !found.moves.is_empty() {
        let _ = writeln!(s, "move    games  black won  drawn  white won    mean");
        for m in &found.moves {
            let o = &m.outcomes;
            let k = o.games - o.unknown;
            let _ = writeln!(
                s,
                "{:<5} {:>7}  {:>9}  {:>5}  {:>9}  {:>6}",
                m.mv.to_string(),
                o.games,
                percent(o.black_wins, k),
                percent(o.draws, k),
                percent(o.white_wins, k),
                mean(o)
            );
        }
    }
    if !found.games.is_empty() {
        let _ = writeln!(
            s,
            "games (the latest {} of {}):",
            found.games.len(),
            t.games
        );
        for g in &found.games {
            let or = |n: &Option<String>| n.clone().unwrap_or_else(|| "?".to_owned());
            let score = g.score.map_or_else(|| "?".to_owned(), |v| format!("{v:+}"));
            let _ = writeln!(
                s,
                "{}  {} - {}  {score}  {}  ({} game {})",
                g.year.map_or_else(|| "----".to_owned(), |y| y.to_string()),
                or(&g.black),
                or(&g.white),
                or(&g.tournament),
                g.file,
                g.game_in_file
            );
            let mut record = GameRecord::new(Position::start(8));
            record.moves = g
                .moves
                .iter()
                .map(|&m| reversi::record::RecordedMove::plain(m))
                .collect();
            let note = if g.as_asked {
                format!("the position after move {}", g.at)
            } else {
                format!("an image of the position after move {}", g.at)
            };
            let _ = writeln!(s, "      {}  ({note})", write_transcript(&record));
        }
    }
    s
}
