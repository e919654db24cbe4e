//! `reversi-lab book new|deepen|add|search|merge|check|export|import|import-edax|export-edax`:
//! building the opening book, checking its values and converting its forms (see `reversi-lab
//! book --help`, docs/BOOK.md; `reversi book show|stats` read a book).
//!
//! The rules are the library's: `reversi::lab::book` plans positions,
//! searches them, merges the searches and runs the deepening's rounds
//! (`lab::book::searches` is the search files' format), and
//! `reversi::engine::book` is the book and its forms. This module reads the
//! options, reads and writes the files and reports on stderr: `new`,
//! `deepen` and `add` here, the sharded searches and their merge in
//! [`search`](mod@search), the check against deeper searches in
//! [`check`](mod@check), the text and Edax forms in [`convert`].

mod check;
mod convert;
mod search;

use crate::args::{self, Running};
use crate::progress::Progress;
use anyhow::Result;
use clap::{value_parser, Arg, ArgMatches, Command};
use convert::{export, export_edax, import, import_edax, Convert};
use reversi::engine::book::file::BOOK_SIGNATURE;
use reversi::engine::book::{pending, Book};
use reversi::engine::midgame::Level;
use reversi::kit::output_files::{self, InPlace, Planned, Rule, Signature};
use reversi::kit::readers::read_book;
use reversi::kit::{flag, option, usage, value, write_stdout, UsageError};
use reversi::lab::book::searches::merge_files;
use reversi::lab::book::{self as build, parse_discs};
use reversi::lab::book::{input, searches};
use reversi::lab::shard::Shard;
use reversi::units::Eval;
use search::{merge, search, Search};
use std::path::Path;

/// Book files: their magic bytes.
const BOOK: Signature = BOOK_SIGNATURE;

const ABOUT: &str = "The opening book: `new` builds one from the start (or from openings) \
to a depth, `deepen` extends its best lines, `add` learns played games, `search` and `merge` \
split the searches of a book planned with --no-search between runs (--shard K/N), \
`check` compares the book's values with deeper searches, `export`/`import` convert to and from a text form, `import-edax`/`export-edax` read and \
write Edax's book.dat (`reversi book show|stats` read a book)";

fn out_arg() -> Arg {
    option(
        "out",
        "FILE",
        "The book to write (replaced only if it is a book, or with --force)",
    )
    .required(true)
}

fn book_arg(help: &'static str) -> Arg {
    option("book", "FILE", help)
}

fn building_args() -> [Arg; 6] {
    [
        option("max-positions", "N", "Refuse a plan that would make the book larger than N positions, before it takes the memory (5000000: about 1.1 GB while planning)")
            .value_parser(value_parser!(usize))
            .default_value("5000000"),
        option("level", "L", "Search the new positions at this engine level (required unless --no-search)")
            .value_parser(value_parser!(u32).range(1..=i64::from(Level::MAX))),
        args::threads("Worker threads (the book is the same for any number)"),
        flag("no-search", "Only plan: write the book with its new positions unsearched, for `reversi-lab book search` (split with --shard) and `reversi-lab book merge`").conflicts_with("level"),
        flag("force", "Replace --out even if it is not a book"),
        args::quiet(),
    ]
}

fn searched_arg() -> Arg {
    option("searched", "FILE", "Write the searches into this search file as they finish, and continue it when run again after an interruption (as `reversi-lab book search`)").conflicts_with("no-search")
}

fn new_command() -> Command {
    Command::new("reversi-lab book new")
        .about("A book of every position of the first --depth plies from the start (or from each opening of --openings), each position whose moves leave the book valued by a search at --level")
        .arg(out_arg())
        .arg(option("depth", "PLIES", "Plies from the start").value_parser(value_parser!(u32).range(0..=60)).required(true))
        .arg(option("openings", "FILE", "Openings to start from, one transcript a line (f5d6c3); `#` lines are skipped"))
        .arg(book_arg("Add to this book: its positions keep their values and lines, the positions it lacks are added and searched (e.g. every position of the first 7 plies added to a book of deeper lines)"))
        .arg(searched_arg())
        .args(building_args())
}

fn deepen_command() -> Command {
    Command::new("reversi-lab book deepen")
        .about("Extend a book's lines: from the start (or from every position at --from-ply), the lines whose moves lose at most --within discs in all against their positions' best moves grow one ply, until --depth; round after round until no line grows, --out written after each round (one round with --no-search). Run again with --book set to the --out file to go on after a stop")
        .arg(book_arg("The book to extend").required(true))
        .arg(out_arg())
        .arg(option("depth", "PLIES", "Plies from the start").value_parser(value_parser!(u32).range(0..=60)).required(true))
        .arg(option("within", "DISCS", "The discs a line may lose in all, both sides' moves counted, against the best").value_parser(parse_discs).default_value("0"))
        .arg(option("from-ply", "PLY", "Start lines at every book position of this ply (default: the start position)").value_parser(value_parser!(u32).range(0..=60)))
        .args(building_args())
}

fn add_command() -> Command {
    Command::new("reversi-lab book add")
        .about("Learn games: the positions of their first --depth plies join the book (the new ones searched at --level) and count each finished game's result; a games file without a game is refused")
        .arg(book_arg("The book to add to (default: an empty book)"))
        .arg(out_arg())
        .arg(Arg::new("games").value_name("GAMES").num_args(1..).required(true).help("Files of games: games files of `reversi-lab train import` (or generate), WTHOR files (`.wtb`, PGN), or one game a line: transcripts (f5d6c3...), GGF games, Logistello .gam lines, or board strings followed by moves; `#` lines are skipped"))
        .arg(option("depth", "PLIES", "Plies of each game learned").value_parser(value_parser!(u32).range(0..=60)).default_value("30"))
        .arg(option("min-games", "N", "Only the positions that at least N of the games reach within --depth plies (the book's tree from the world's games: games files of `reversi-lab train import`); each position counts every game through it").value_parser(value_parser!(u64).range(1..)))
        .arg(flag("count-only", "Add no position: each position --book holds gets the counts of the games through it within --depth plies (replacing those it had), and nothing is searched (the book plays as before; its hints say how many games reached each move)").requires("book").conflicts_with_all(["min-games", "level", "searched"]))
        .arg(searched_arg())
        .args(building_args())
}

fn search_command() -> Command {
    Command::new("reversi-lab book search")
        .about("Search the positions of a book planned with --no-search (those whose moves leave the book without a valued best one), one line each into --out; continues an existing file")
        .arg(book_arg("The planned book").required(true))
        .arg(option("out", "FILE", "The search file (created, or continued if it is one of the same book and options; any other file is refused without --force)").required(true))
        .arg(option("level", "L", "Engine level of the searches").value_parser(value_parser!(u32).range(1..=i64::from(Level::MAX))).required(true))
        .arg(args::shard("Search only the positions whose number is K modulo N; `reversi-lab book merge` joins the runs' files"))
        .arg(args::threads("Worker threads (the file is the same for any number)"))
        .arg(flag("force", "Start --out over if it is not a search file of this book and options"))
        .arg(args::quiet())
}

fn merge_command() -> Command {
    Command::new("reversi-lab book merge")
        .about("Store the search files of a planned book (every shard, each finished) in it and value it by negamax: the same book bytes whatever the split")
        .arg(book_arg("The planned book").required(true))
        .arg(out_arg())
        .arg(Arg::new("searched").value_name("SEARCHED").num_args(1..).required(true).help("The search files, in any order"))
        .arg(option("odd-gain", "DISCS", "Value by negamax with every move into the book losing DISCS: what the evaluation's searches of odd depth give the side to move over even ones (the difference of `book check`'s mean at levels L-1 and L, docs/BOOK.md), so that every value is an estimate of even depth; 0: plain negamax. A later build step's merge values by plain negamax again. A gain that would value a position beyond 64 discs is refused before --out is written").value_parser(parse_discs).default_value("0"))
        .arg(flag("force", "Replace --out even if it is not a book"))
}

fn export_command() -> Command {
    Command::new("reversi-lab book export")
        .about("The book as text, one position a line (docs/BOOK.md), on stdout or into --out")
        .arg(book_arg("The book").required(true))
        .arg(option(
            "out",
            "FILE",
            "The text file to write (replaced only if it is a book's text, or with --force)",
        ))
        .arg(flag(
            "force",
            "Replace --out even if it is not a book's text",
        ))
}

fn import_command() -> Command {
    Command::new("reversi-lab book import")
        .about("A book from its text form (as `reversi-lab book export` writes it): the same book byte for byte")
        .arg(Arg::new("text").value_name("TEXT").required(true).help("The text file"))
        .arg(out_arg())
        .arg(flag("force", "Replace --out even if it is not a book"))
}

fn import_edax_command() -> Command {
    Command::new("reversi-lab book import-edax")
        .about("A book from an Edax book file (book.dat, as Edax's `book save` writes it): every position with Edax's moves, values, levels and solved-line counts")
        .arg(Arg::new("edax").value_name("EDAX_BOOK").required(true).help("The Edax book file"))
        .arg(out_arg())
        .arg(flag("force", "Replace --out even if it is not a book"))
        .arg(flag("quiet", "No note on stderr").short('q'))
}

fn export_edax_command() -> Command {
    Command::new("reversi-lab book export-edax")
        .about("Writes a book as an Edax book file, which Edax reads with `book load` (values rounded to whole discs)")
        .arg(book_arg("The book").required(true))
        .arg(
            option("out", "FILE", "The Edax book to write (replaced only if it is an Edax book, or with --force)")
                .required(true),
        )
        .arg(flag("force", "Replace --out even if it is not an Edax book"))
}

/// The subcommands' definitions (for the consistency test).
#[cfg(test)]
pub(super) fn commands() -> [Command; 10] {
    [
        new_command(),
        deepen_command(),
        add_command(),
        search_command(),
        merge_command(),
        check::check_command(),
        export_command(),
        import_command(),
        import_edax_command(),
        export_edax_command(),
    ]
}

/// Runs `reversi-lab book ...` (`args[0]` is `book`).
pub fn run(args: &[String]) -> Result<()> {
    let sub = args.get(1).map(String::as_str);
    let rest = args.get(2..).unwrap_or(&[]);
    match sub {
        Some("new") => reversi::kit::parse_and_run(new_command(), rest, New::from_matches, new),
        Some("deepen") => reversi::kit::parse_and_run(deepen_command(), rest, Deepen::from_matches, deepen),
        Some("add") => reversi::kit::parse_and_run(add_command(), rest, Add::from_matches, add),
        Some("search") => reversi::kit::parse_and_run(search_command(), rest, Search::from_matches, search),
        Some("merge") => reversi::kit::parse_and_run(merge_command(), rest, |m| Ok(Convert::from_matches(m, "book")), merge),
        Some("check") => reversi::kit::parse_and_run(check::check_command(), rest, check::Check::from_matches, check::check),
        Some("export") => reversi::kit::parse_and_run(export_command(), rest, |m| Ok(Convert::from_matches(m, "book")), export),
        Some("import") => reversi::kit::parse_and_run(import_command(), rest, |m| Ok(Convert::from_matches(m, "text")), import),
        Some("import-edax") => reversi::kit::parse_and_run(import_edax_command(), rest, |m| Ok(Convert::from_matches(m, "edax")), import_edax),
        Some("export-edax") => reversi::kit::parse_and_run(export_edax_command(), rest, |m| Ok(Convert::from_matches(m, "book")), export_edax),
        Some("-h" | "--help" | "help") | None => write_stdout(&format!(
            "{ABOUT}.\n\nUsage:\n  reversi-lab book new --depth PLIES --level L --out BOOK [--openings FILE] [--book BOOK]\n  reversi-lab book deepen --book BOOK --depth PLIES --within DISCS --level L --out BOOK\n  reversi-lab book add [--book BOOK] --level L --out BOOK GAMES...\n  reversi-lab book search --book PLANNED --level L --out SEARCHED [--shard K/N]\n  reversi-lab book merge --book PLANNED --out BOOK SEARCHED...\n  reversi-lab book check --book BOOK --level L [--positions N] [--seed S] [--within DISCS]\n  reversi-lab book export --book BOOK [--out TEXT]\n  reversi-lab book import TEXT --out BOOK\n  reversi-lab book import-edax EDAX_BOOK --out BOOK\n  reversi-lab book export-edax --book BOOK --out EDAX_BOOK\n\nEach has --help.\n"
        )),
        Some(other) => usage(format!(
            "unknown book subcommand {:?}; the subcommands are new, deepen, add, search, merge, check, export, import, import-edax, export-edax (`show` and `stats` are `reversi book`'s; see `reversi-lab book --help`)",
            reversi::kit::escape(other)
        )),
    }
}

/// Plans `--out`, the book `out` (replaced only if it is one or with
/// `force`).
pub(super) fn plan_book_out(out: &str, force: bool) -> Result<Planned> {
    output_files::plan_output(
        "--out",
        Path::new(out),
        &Rule::written_by(BOOK, force, InPlace::Devices),
    )
}

/// Searches the pending positions of `book` of `shard` at `level` into
/// the search file `out` as `running` says, with progress on stderr.
fn search_into(running: Running, book: &Book, level: u32, out: &str, shard: Shard) -> Result<()> {
    let mut progress = Progress::new(running.quiet);
    let threads_force = (running.threads, running.force);
    searches::search_into(book, level, out, shard, threads_force, &mut |e| {
        progress.event(out, e)
    })
}

/// The options of the commands that build a book (`new`, `deepen`,
/// `add`): the book written, the searches' level (none with
/// `--no-search`), their search file and how they run, the plan's limit.
struct Building {
    out: String,
    level: Option<u32>,
    searched: Option<String>,
    max_positions: usize,
    running: Running,
}

impl Building {
    fn from_matches(m: &ArgMatches) -> Result<Building> {
        let counting = matches!(m.try_get_one::<bool>("count-only"), Ok(Some(true)));
        let planning = m.get_flag("no-search") || counting;
        let level = build::searches_level(m.get_one::<u32>("level").copied(), planning)
            .map_err(|e| UsageError(e.into()))?;
        Ok(Building {
            out: value(m, "out"),
            level,
            searched: m.try_get_one::<String>("searched").ok().flatten().cloned(),
            max_positions: value(m, "max-positions"),
            running: Running::from_matches(m),
        })
    }

    /// Plans `--out`, after checking that `--searched` (if given) is
    /// another file.
    fn plan_out(&self) -> Result<Planned> {
        if let Some(searched) = &self.searched {
            output_files::check_distinct(&[
                ("--searched", Path::new(searched)),
                ("--out", Path::new(&self.out)),
            ])?;
        }
        plan_book_out(&self.out, self.running.force)
    }

    /// Searches the pending positions of `book` at the level (unless
    /// none) and writes it to the planned `--out`.
    fn finish(&self, book: &mut Book, planned: Planned) -> Result<()> {
        match (self.level, &self.searched) {
            (Some(level), Some(file)) => {
                search_into(self.running, book, level, file, Shard::WHOLE)?;
                merge_files(book, std::slice::from_ref(file), Eval(0))?;
            }
            (Some(level), None) => search_in_process(self.running, book, level),
            (None, _) => {}
        }
        output_files::write(&[planned], &[&book.to_bytes()])
    }
}

/// Searches every pending position of `book` at `level` and merges the
/// results, with progress on stderr.
fn search_in_process(running: Running, book: &mut Book, level: u32) {
    let total = pending(book).len() as u64;
    let mut progress = Progress::of("book", "positions searched", running.quiet, total);
    build::search_and_merge(book, level, running.threads, &mut |done, _| {
        progress.at(done);
    });
}

/// `reversi-lab book new`'s request.
struct New {
    building: Building,
    depth: u32,
    openings: Option<String>,
    book: Option<String>,
}

impl New {
    fn from_matches(m: &ArgMatches) -> Result<New> {
        Ok(New {
            building: Building::from_matches(m)?,
            depth: value(m, "depth"),
            openings: m.get_one("openings").cloned(),
            book: m.get_one("book").cloned(),
        })
    }
}

fn new(r: New) -> Result<()> {
    let planned = r.building.plan_out()?;
    let openings = match &r.openings {
        Some(path) => input::read_openings(path)?,
        None => Vec::new(),
    };
    let mut book = match &r.book {
        Some(path) => read_book(path)?,
        None => Book::new(),
    };
    let added = build::plan_new(&mut book, &openings, r.depth, r.building.max_positions)
        .or_else(|e| usage(e.to_string()))?;
    r.building
        .running
        .note(&format!("book: {added} positions planned"));
    r.building.finish(&mut book, planned)
}

/// `reversi-lab book deepen`'s request.
struct Deepen {
    building: Building,
    book: String,
    depth: u32,
    within: Eval,
    from_ply: Option<u32>,
}

impl Deepen {
    fn from_matches(m: &ArgMatches) -> Result<Deepen> {
        Ok(Deepen {
            building: Building::from_matches(m)?,
            book: value(m, "book"),
            depth: value(m, "depth"),
            within: value(m, "within"),
            from_ply: m.get_one("from-ply").copied(),
        })
    }
}

fn deepen(r: Deepen) -> Result<()> {
    let running = r.building.running;
    let planned = r.building.plan_out()?;
    let mut book = read_book(&r.book)?;
    let roots = match r.from_ply {
        Some(p) => build::Roots::Ply(p),
        None => build::Roots::Start,
    };
    roots.check(&book).or_else(|e| usage(e.to_string()))?;
    let plan = build::Deepening {
        roots,
        depth: r.depth,
        within: r.within,
        limit: r.building.max_positions,
    };
    let Some(level) = r.building.level else {
        let added = plan.plan(&mut book).or_else(|e| usage(e.to_string()))?;
        running.note(&format!("book: {added} positions planned"));
        return output_files::write(&[planned], &[&book.to_bytes()]);
    };
    let mut planned = Some(planned);
    // Each round's plan is written with the searches before it: a stopped
    // run goes on from it. The round adding nothing writes the finished
    // book.
    let mut write = |book: &Book, round: build::Round| -> Result<()> {
        let out = match planned.take() {
            Some(p) => p,
            None => r.building.plan_out()?,
        };
        output_files::write(&[out], &[&book.to_bytes()])?;
        let added = round.added;
        let s = if added == 1 { "" } else { "s" };
        running.note(&format!(
            "book: round {}: {added} position{s} added, book written ({} positions)",
            round.number,
            book.len()
        ));
        Ok(())
    };
    let mut search = |book: &mut Book| search_in_process(running, book, level);
    build::deepen(&mut book, &plan, &mut search, &mut write).map_err(|e| match e {
        build::DeepenError::Plan(e) => UsageError(e.to_string()).into(),
        build::DeepenError::Checkpoint(e) => e,
    })
}

/// `reversi-lab book add`'s request.
struct Add {
    building: Building,
    book: Option<String>,
    games: Vec<String>,
    depth: u32,
    min_games: Option<u64>,
    count_only: bool,
}

impl Add {
    fn from_matches(m: &ArgMatches) -> Result<Add> {
        Ok(Add {
            building: Building::from_matches(m)?,
            book: m.get_one("book").cloned(),
            games: m
                .get_many::<String>("games")
                .into_iter()
                .flatten()
                .cloned()
                .collect(),
            depth: value(m, "depth"),
            min_games: m.get_one("min-games").copied(),
            count_only: m.get_flag("count-only"),
        })
    }
}

fn add(r: Add) -> Result<()> {
    let planned = r.building.plan_out()?;
    let mut book = match &r.book {
        Some(path) => read_book(path)?,
        None => Book::new(),
    };
    let (paths, depth, limit) = (&r.games, r.depth, r.building.max_positions);
    if let Some(min_games) = r.min_games {
        let (games, added) = input::add_world(&mut book, paths, depth, Some(min_games), limit)?;
        r.building.running.note(&format!(
            "book: {games} finished games, {added} new positions reached by at least {min_games}"
        ));
        return r.building.finish(&mut book, planned);
    }
    if r.count_only {
        let (games, reached) = input::add_world(&mut book, paths, depth, None, limit)?;
        r.building.running.note(&format!(
            "book: {games} finished games counted through {reached} of its positions"
        ));
        return r.building.finish(&mut book, planned);
    }
    let (games, added) = input::add_games(&mut book, paths, depth, limit)?;
    r.building
        .running
        .note(&format!("book: {games} games, {added} new positions"));
    r.building.finish(&mut book, planned)
}
