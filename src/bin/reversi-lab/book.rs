//! `reversi-lab book new|deepen|add|search|merge|show|export|import|stats`: the
//! opening book (see `reversi-lab book --help`, docs/BOOK.md). The building
//! logic is in `reversi::lab::book`; this module reads and writes files.

use crate::cli::input::CappedLines;
use crate::cli::output_files::{self, InPlace, Planned, Rule, Signature};
use crate::cli::readers::{read_book, read_book_bytes};
use crate::cli::{flag, option, usage, value, write_stdout, UsageError};
use crate::sharded::{
    append_lines, header_number, parse_shard, push_shard, Progress, Resumable, ShardFiles,
};
use crate::train::import::{form_of, read_collection, Form};
use anyhow::Result;
use clap::{value_parser, Arg, ArgMatches, Command};
use reversi::engine::book::text::TEXT_HEADER;
use reversi::engine::book::{pending, ply, Book, Key};
use reversi::engine::midgame::Level;
use reversi::lab::book::{self as build, Searched};
use reversi::lab::train::Shard;
use reversi::record::{edax_book, parse_game};
use reversi::reversi::Position;
use reversi::units::Eval;
use std::path::Path;

/// Book files: their magic bytes.
const BOOK: Signature = Signature {
    start: "RVOBOOK1",
    kind: "an opening book",
};

/// The search files of `reversi-lab book search`: a header line.
const SEARCHED: Signature = Signature {
    start: "# reversi book search:",
    kind: "a search file of `reversi-lab book search`",
};

/// The longest line of a search file, an openings or games file, or a
/// book's text form.
const MAX_LINE: usize = 1 << 16;

/// The most lines of a search file.
const MAX_SEARCHED: u64 = 100_000_000;

/// The most openings a book is planned from (each held as its moves).
const MAX_OPENINGS: usize = 1_000_000;

const ABOUT: &str = "The opening book: `new` builds one from the start (or from openings) \
to a depth, `deepen` extends its best lines, `add` learns played games, `search` and `merge` \
split the searches of a book planned with --no-search between runs (--shard K/N), \
`export`/`import` convert to and from a text form, `import-edax`/`export-edax` read and \
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
        option("threads", "N", "Worker threads (the book is the same for any number)")
            .value_parser(value_parser!(usize))
            .default_value("2"),
        flag("no-search", "Only plan: write the book with its new positions unsearched, for `reversi-lab book search` (split with --shard) and `reversi-lab book merge`").conflicts_with("level"),
        flag("force", "Replace --out even if it is not a book"),
        flag("quiet", "No progress on stderr").short('q'),
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
        .about("Learn games: the positions of their first --depth plies join the book (the new ones searched at --level) and count each finished game's result")
        .arg(book_arg("The book to add to (default: an empty book)"))
        .arg(out_arg())
        .arg(Arg::new("games").value_name("GAMES").num_args(1..).required(true).help("Files of games: WTHOR files (`.wtb`, PGN), or one game a line: transcripts (f5d6c3...), GGF games, Logistello .gam lines, or board strings followed by moves; `#` lines are skipped"))
        .arg(option("depth", "PLIES", "Plies of each game learned").value_parser(value_parser!(u32).range(0..=60)).default_value("30"))
        .arg(searched_arg())
        .args(building_args())
}

fn search_command() -> Command {
    Command::new("reversi-lab book search")
        .about("Search the positions of a book planned with --no-search (those whose moves leave the book without a valued best one), one line each into --out; continues an existing file")
        .arg(book_arg("The planned book").required(true))
        .arg(option("out", "FILE", "The search file (created, or continued if it is one of the same book and options; any other file is refused without --force)").required(true))
        .arg(option("level", "L", "Engine level of the searches").value_parser(value_parser!(u32).range(1..=i64::from(Level::MAX))).required(true))
        .arg(option("shard", "K/N", "Search only the positions whose number is K modulo N; `reversi-lab book merge` joins the runs' files").value_parser(parse_shard))
        .arg(option("threads", "N", "Worker threads (the file is the same for any number)").value_parser(value_parser!(usize)).default_value("2"))
        .arg(flag("force", "Start --out over if it is not a search file of this book and options"))
        .arg(flag("quiet", "No progress on stderr").short('q'))
}

fn merge_command() -> Command {
    Command::new("reversi-lab book merge")
        .about("Store the search files of a planned book (every shard, each finished) in it and value it by negamax: the same book bytes whatever the split")
        .arg(book_arg("The planned book").required(true))
        .arg(out_arg())
        .arg(Arg::new("searched").value_name("SEARCHED").num_args(1..).required(true).help("The search files, in any order"))
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
pub(super) fn commands() -> [Command; 9] {
    [
        new_command(),
        deepen_command(),
        add_command(),
        search_command(),
        merge_command(),
        export_command(),
        import_command(),
        import_edax_command(),
        export_edax_command(),
    ]
}

/// Reads a number of discs (0 to 128, a multiple of 1/64).
fn parse_discs(text: &str) -> Result<Eval, String> {
    match text.parse::<f64>() {
        Ok(d) if (0.0..=128.0).contains(&d) => {
            Ok(Eval((d * f64::from(Eval::PER_DISC)).round() as i32))
        }
        _ => Err(format!("{text:?} is not a number of discs from 0 to 128")),
    }
}

/// Runs `reversi-lab book ...` (`args[0]` is `book`).
pub fn run(args: &[String]) -> Result<()> {
    let sub = args.get(1).map(String::as_str);
    let rest = args.get(2..).unwrap_or(&[]);
    match sub {
        Some("new") => crate::cli::parse_and_run(new_command(), rest, New::from_matches, new),
        Some("deepen") => crate::cli::parse_and_run(deepen_command(), rest, Deepen::from_matches, deepen),
        Some("add") => crate::cli::parse_and_run(add_command(), rest, Add::from_matches, add),
        Some("search") => crate::cli::parse_and_run(search_command(), rest, Search::from_matches, search),
        Some("merge") => crate::cli::parse_and_run(merge_command(), rest, |m| Ok(Convert::from_matches(m, "book")), merge),
        Some("export") => crate::cli::parse_and_run(export_command(), rest, |m| Ok(Convert::from_matches(m, "book")), export),
        Some("import") => crate::cli::parse_and_run(import_command(), rest, |m| Ok(Convert::from_matches(m, "text")), import),
        Some("import-edax") => crate::cli::parse_and_run(import_edax_command(), rest, |m| Ok(Convert::from_matches(m, "edax")), import_edax),
        Some("export-edax") => crate::cli::parse_and_run(export_edax_command(), rest, |m| Ok(Convert::from_matches(m, "book")), export_edax),
        Some("-h" | "--help" | "help") | None => write_stdout(&format!(
            "{ABOUT}.\n\nUsage:\n  reversi-lab book new --depth PLIES --level L --out BOOK [--openings FILE] [--book BOOK]\n  reversi-lab book deepen --book BOOK --depth PLIES --within DISCS --level L --out BOOK\n  reversi-lab book add [--book BOOK] --level L --out BOOK GAMES...\n  reversi-lab book search --book PLANNED --level L --out SEARCHED [--shard K/N]\n  reversi-lab book merge --book PLANNED --out BOOK SEARCHED...\n  reversi-lab book export --book BOOK [--out TEXT]\n  reversi-lab book import TEXT --out BOOK\n  reversi-lab book import-edax EDAX_BOOK --out BOOK\n  reversi-lab book export-edax --book BOOK --out EDAX_BOOK\n\nEach has --help.\n"
        )),
        Some(other) => usage(format!(
            "unknown book subcommand {:?}; the subcommands are new, deepen, add, search, merge, export, import, import-edax, export-edax (`show` and `stats` are `reversi book`'s; see `reversi-lab book --help`)",
            crate::cli::escape(other)
        )),
    }
}

/// Plans `--out`, the book `out` (replaced only if it is one or with
/// `force`).
fn plan_book_out(out: &str, force: bool) -> Result<Planned> {
    output_files::plan_output(
        "--out",
        Path::new(out),
        &Rule {
            ours: Some(BOOK),
            force,
            in_place: InPlace::Devices,
        },
    )
}

/// How the searches of a command run and report: `--threads`, `--force`
/// (a search file of other options started over), `--quiet`.
#[derive(Clone, Copy, Debug)]
struct Searching {
    threads: usize,
    force: bool,
    quiet: bool,
}

impl Searching {
    fn from_matches(m: &ArgMatches) -> Searching {
        Searching {
            threads: value(m, "threads"),
            force: m.get_flag("force"),
            quiet: m.get_flag("quiet"),
        }
    }

    /// A progress note on stderr unless `--quiet`.
    fn note(self, text: &str) {
        if !self.quiet {
            eprintln!("{text}");
        }
    }
}

/// The options of the commands that build a book (`new`, `deepen`,
/// `add`): the book written, the searches' level (none with
/// `--no-search`), their search file and how they run, the plan's limit.
struct Building {
    out: String,
    level: Option<u32>,
    searched: Option<String>,
    max_positions: usize,
    searching: Searching,
}

impl Building {
    fn from_matches(m: &ArgMatches) -> Result<Building> {
        // The level: required unless --no-search.
        let level = match (m.get_one::<u32>("level"), m.get_flag("no-search")) {
            (Some(&l), _) => Some(l),
            (None, true) => None,
            (None, false) => {
                return usage("give --level L for the searches, or --no-search to only plan")
            }
        };
        Ok(Building {
            out: value(m, "out"),
            level,
            searched: m.try_get_one::<String>("searched").ok().flatten().cloned(),
            max_positions: value(m, "max-positions"),
            searching: Searching::from_matches(m),
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
        plan_book_out(&self.out, self.searching.force)
    }

    /// Searches the pending positions of `book` at the level (unless
    /// none) and writes it to the planned `--out`.
    fn finish(&self, book: &mut Book, planned: Planned) -> Result<()> {
        match (self.level, &self.searched) {
            (Some(level), Some(file)) => {
                search_into(self.searching, book, level, file, Shard::WHOLE)?;
                merge_files(book, std::slice::from_ref(file))?;
            }
            (Some(level), None) => search_in_process(self.searching, book, level),
            (None, _) => {}
        }
        output_files::write(&[planned], &[&book.to_bytes()])
    }
}

/// Searches every pending position of `book` at `level` and merges the
/// results, with progress on stderr.
fn search_in_process(searching: Searching, book: &mut Book, level: u32) {
    let total = pending(book).len() as u64;
    let mut progress = Progress::new("book", "positions searched", searching.quiet, 0, total);
    build::search_and_merge(book, level, searching.threads, &mut |done, _| {
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
    let mut openings = Vec::new();
    if let Some(path) = &r.openings {
        let mut lines = CappedLines::open(Path::new(path), path, MAX_LINE)?;
        while let Some(line) = lines.next_line()? {
            if line.text.starts_with('#') || line.text.trim().is_empty() {
                continue;
            }
            let game = parse_game(line.text, 8)
                .map_err(|e| UsageError(format!("{path} line {}: {e}", line.number)))?;
            if game.start != Position::start(8) {
                return usage(format!(
                    "{path} line {}: an opening is a transcript from the start position",
                    line.number
                ));
            }
            if openings.len() >= MAX_OPENINGS {
                return usage(format!(
                    "{path} holds more than {MAX_OPENINGS} openings, the most a book is planned from"
                ));
            }
            openings.push(game.move_list());
        }
        if openings.is_empty() {
            return usage(format!("{path} holds no opening"));
        }
    }
    let mut book = match &r.book {
        Some(path) => read_book(path)?,
        None => Book::new(),
    };
    let added = build::plan_new(&mut book, &openings, r.depth, r.building.max_positions)
        .or_else(|e| usage(e.to_string()))?;
    r.building
        .searching
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
    let level = r.building.level;
    let searching = r.building.searching;
    let planned = r.building.plan_out()?;
    let mut book = read_book(&r.book)?;
    let (depth, within, limit) = (r.depth, r.within, r.building.max_positions);
    let roots = match r.from_ply {
        Some(p) => build::Roots::Ply(p),
        None => build::Roots::Start,
    };
    if let build::Roots::Ply(p) = roots {
        let plies: Vec<u32> = book.sorted().iter().map(|&(k, _)| ply(k)).collect();
        if !plies.contains(&p) {
            let (low, high) = (plies.iter().min(), plies.iter().max());
            return match (low, high) {
                (Some(low), Some(high)) => usage(format!(
                    "the book has no position at ply {p} (its positions are at plies {low} to {high})"
                )),
                _ => usage("the book is empty: no line to deepen"),
            };
        }
    }
    let Some(level) = level else {
        let added = build::plan_deepen(&mut book, roots, depth, within, limit)
            .or_else(|e| usage(e.to_string()))?;
        searching.note(&format!("book: {added} positions planned"));
        return output_files::write(&[planned], &[&book.to_bytes()]);
    };
    // Pending positions first: a line is followed on values.
    search_in_process(searching, &mut book, level);
    let mut planned = Some(planned);
    let mut round = 0;
    loop {
        round += 1;
        let added = build::plan_deepen(&mut book, roots, depth, within, limit)
            .or_else(|e| usage(e.to_string()))?;
        // Each round's plan is written with the searches before it: a
        // stopped run goes on from it (searching what waits first). The
        // round adding nothing writes the finished book.
        let out = match planned.take() {
            Some(p) => p,
            None => r.building.plan_out()?,
        };
        output_files::write(&[out], &[&book.to_bytes()])?;
        let s = if added == 1 { "" } else { "s" };
        searching.note(&format!(
            "book: round {round}: {added} position{s} added, book written ({} positions)",
            book.len()
        ));
        if added == 0 {
            return Ok(());
        }
        search_in_process(searching, &mut book, level);
    }
}

/// `reversi-lab book add`'s request.
struct Add {
    building: Building,
    book: Option<String>,
    games: Vec<String>,
    depth: u32,
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
        })
    }
}

fn add(r: Add) -> Result<()> {
    let planned = r.building.plan_out()?;
    let mut book = match &r.book {
        Some(path) => read_book(path)?,
        None => Book::new(),
    };
    let (depth, limit) = (r.depth, r.building.max_positions);
    let (mut games, mut added) = (0u64, 0usize);
    for path in &r.games {
        if let Some(form @ (Form::Wtb | Form::Pgn)) = form_of(path)? {
            for (i, game) in read_collection(path, form)?.iter().enumerate() {
                added += build::plan_game(&mut book, &game.record, depth, limit)
                    .map_err(|e| UsageError(format!("{path} game {}: {e}", i + 1)))?;
                games += 1;
            }
            continue;
        }
        let mut lines = CappedLines::open(Path::new(path), path, MAX_LINE)?;
        while let Some(line) = lines.next_line()? {
            if line.text.starts_with('#') || line.text.trim().is_empty() {
                continue;
            }
            let game = parse_game(line.text, 8)
                .map_err(|e| UsageError(format!("{path} line {}: {e}", line.number)))?;
            added += build::plan_game(&mut book, &game, depth, limit)
                .map_err(|e| UsageError(format!("{path} line {}: {e}", line.number)))?;
            games += 1;
        }
    }
    r.building
        .searching
        .note(&format!("book: {games} games, {added} new positions"));
    r.building.finish(&mut book, planned)
}

/// The checksum naming a book in a search file's header: its file's last
/// 8 bytes.
fn book_checksum(book: &Book) -> u64 {
    let bytes = book.to_bytes();
    u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().expect("8 bytes"))
}

/// The header of the search files of `book`'s pending `list` at `level`
/// (without the shard).
fn search_header(book: &Book, list: &[Key], level: u32) -> String {
    format!(
        "{} level {level} book {:016x} positions {}",
        SEARCHED.start,
        book_checksum(book),
        list.len()
    )
}

/// `reversi-lab book search`'s request.
struct Search {
    book: String,
    out: String,
    level: u32,
    shard: Shard,
    searching: Searching,
}

impl Search {
    fn from_matches(m: &ArgMatches) -> Result<Search> {
        Ok(Search {
            book: value(m, "book"),
            out: value(m, "out"),
            level: value(m, "level"),
            shard: m.get_one::<Shard>("shard").copied().unwrap_or(Shard::WHOLE),
            searching: Searching::from_matches(m),
        })
    }
}

fn search(r: Search) -> Result<()> {
    let book = read_book(&r.book)?;
    search_into(r.searching, &book, r.level, &r.out, r.shard)
}

/// Searches the pending positions of `book` of `shard` at `level` into the
/// search file `out` (continued if it holds some of them already).
fn search_into(
    searching: Searching,
    book: &Book,
    level: u32,
    out: &str,
    shard: Shard,
) -> Result<()> {
    let list = pending(book);
    let mut header_line = search_header(book, &list, level);
    push_shard(&mut header_line, shard);
    let check = |line: &str| checked_search(line, &list, level).map(|r| r.item);
    let (file, done) = Resumable {
        signature: SEARCHED,
        noun: "position",
        out,
        header_line: &header_line,
        force: searching.force,
        item: &check,
    }
    .open(shard, MAX_SEARCHED)?;
    let total = shard.items_below(list.len() as u64);
    let threads = searching.threads;
    let progress = Progress::new("book search", "positions", searching.quiet, done, total);
    append_lines(file, out, progress, |deliver| {
        build::search_pending(book, &list, level, shard, done..total, threads, |r| {
            deliver(r.to_line())
        });
    })
}

/// The search result a search file's line holds, checked by
/// [`Searched::parse_line`] and against what the run knows: it is of the
/// pending position of its number in `list`, searched at the `level` of
/// the file's header.
fn checked_search(line: &str, list: &[Key], level: u32) -> Result<Searched, String> {
    let r = Searched::parse_line(line).map_err(|e| e.to_string())?;
    match usize::try_from(r.item).ok().and_then(|i| list.get(i)) {
        Some(&key) if key == r.key => {}
        Some(_) => {
            return Err(format!(
                "holds another position than pending position {}",
                r.item
            ))
        }
        None => {
            return Err(format!(
                "holds position {}, beyond the {} pending positions",
                r.item,
                list.len()
            ))
        }
    }
    if u32::from(r.level) != level {
        return Err(format!(
            "was searched at level {}, its file at level {level}",
            r.level
        ));
    }
    Ok(r)
}

/// The request of a command that makes one file of another (`merge`,
/// `export`, `import`, `import-edax`, `export-edax`): its input (`--book`,
/// or the TEXT or EDAX_BOOK operand), `--out`, `--force`, `--quiet`, and
/// merge's search files.
struct Convert {
    input: String,
    out: Option<String>,
    force: bool,
    quiet: bool,
    searched: Vec<String>,
}

impl Convert {
    /// Reads the request of a command whose input is the argument `input`.
    fn from_matches(m: &ArgMatches, input: &str) -> Convert {
        Convert {
            input: value(m, input),
            out: m.get_one("out").cloned(),
            force: m.get_flag("force"),
            quiet: m
                .try_get_one::<bool>("quiet")
                .ok()
                .flatten()
                .copied()
                .unwrap_or(false),
            searched: m
                .try_get_many::<String>("searched")
                .ok()
                .flatten()
                .into_iter()
                .flatten()
                .cloned()
                .collect(),
        }
    }

    /// `--out`, required where this is called.
    fn out(&self) -> &str {
        self.out.as_deref().expect("--out is required")
    }

    /// Plans `--out`, a book.
    fn plan_book_out(&self) -> Result<Planned> {
        plan_book_out(self.out(), self.force)
    }
}

fn merge(r: Convert) -> Result<()> {
    let planned = r.plan_book_out()?;
    let mut book = read_book(&r.input)?;
    merge_files(&mut book, &r.searched)?;
    output_files::write(&[planned], &[&book.to_bytes()])
}

/// Stores the results of the search files `inputs` (every shard of one
/// split of `book`'s pending positions) in `book` and values it.
fn merge_files(book: &mut Book, inputs: &[String]) -> Result<()> {
    let list = pending(book);
    let check_header = |path: &str, header: &str| {
        let level = header_number(header, "level").unwrap_or(0);
        let expected = search_header(book, &list, level as u32);
        if header == expected {
            Ok(())
        } else {
            Err(format!(
                "{path} holds the searches of another book or plan ({header:?}; this book's would be {expected:?})"
            ))
        }
    };
    let item = |header: &str, line: &str| {
        let level = header_number(header, "level").unwrap_or(0);
        checked_search(line, &list, level as u32).map(|r| (r.item, r))
    };
    let shards = ShardFiles {
        signatures: &[SEARCHED],
        kind: SEARCHED.kind,
        check_header: &check_header,
        again: "search",
        noun: "position",
        max_items: list.len() as u64,
        max_line: MAX_LINE,
        item: &item,
    }
    .read(inputs)?;
    let results: Vec<Searched> = shards.items.into_iter().map(|(_, r)| r).collect();
    build::merge(book, &list, &results).or_else(|e| usage(e.to_string()))
}

/// A book's text form: its header line.
const TEXT: Signature = Signature {
    start: TEXT_HEADER,
    kind: "a book's text form",
};

fn export(r: Convert) -> Result<()> {
    let book = read_book(&r.input)?;
    let text = book.to_text();
    match &r.out {
        None => write_stdout(&text),
        Some(out) => {
            let planned = output_files::plan_output(
                "--out",
                Path::new(out),
                &Rule {
                    ours: Some(TEXT),
                    force: r.force,
                    in_place: InPlace::Devices,
                },
            )?;
            output_files::write(&[planned], &[text.as_bytes()])
        }
    }
}

fn import(r: Convert) -> Result<()> {
    let planned = r.plan_book_out()?;
    let path = r.input;
    let mut lines = CappedLines::open(Path::new(&path), &path, MAX_LINE)?;
    let mut book = Book::new();
    // A line at a time: only the positions are held.
    while let Some(line) = lines.next_line()? {
        book.read_text_line(line.number, line.text)
            .or_else(|e| usage(format!("{path} {e}")))?;
        if book.len() > build::MAX_POSITIONS {
            return usage(format!(
                "{path} holds more than {} positions, the most a book imported here holds",
                build::MAX_POSITIONS
            ));
        }
    }
    output_files::write(&[planned], &[&book.to_bytes()])
}

/// Edax book files: their magic bytes.
const EDAX_BOOK: Signature = Signature {
    start: "XADEKOOB",
    kind: "an Edax book",
};

fn import_edax(r: Convert) -> Result<()> {
    let planned = r.plan_book_out()?;
    let path = &r.input;
    let bytes = read_book_bytes(path, "Edax book")?;
    let edax = edax_book::from_bytes(&bytes).or_else(|e| usage(format!("{path}: {e}")))?;
    let book = Book::from_edax(&edax).or_else(|e| usage(format!("{path}: {e}")))?;
    if !r.quiet {
        eprintln!("{} positions read from {path}", book.len());
    }
    output_files::write(&[planned], &[&book.to_bytes()])
}

fn export_edax(r: Convert) -> Result<()> {
    let book = read_book(&r.input)?;
    let planned = output_files::plan_output(
        "--out",
        Path::new(r.out()),
        &Rule {
            ours: Some(EDAX_BOOK),
            force: r.force,
            in_place: InPlace::Devices,
        },
    )?;
    output_files::write(&[planned], &[&edax_book::to_bytes(&book.to_edax())])
}
