//! Game collections as files: which form a file holds (WTHOR's binary
//! `.wtb`, PGN, Logistello's `.gam` lines), told by its name or its first
//! bytes, and its games read one at a time in bounded memory
//! ([`CollectionReader`], on [`archive`]'s readers), each error naming the
//! file. Both the product (`reversi games index`) and the lab (`reversi-lab
//! train import`, `book add`) read collections through it.

use super::archive::{self, ArchiveGame};
use crate::board::{symmetry, Color, Square};
use crate::reversi::{Move, Position};
use std::fmt;
use std::io::BufRead;

/// The forms of game collections.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// WTHOR's binary `.wtb`.
    Wtb,
    /// PGN (WTHOR's conversion).
    Pgn,
    /// Logistello's `.gam`, a game a line.
    Gam,
}

/// The bytes of a collection's start that [`form_by_head`] looks at.
pub const SNIFFED_BYTES: u64 = 4096;

/// Why a collection cannot be read: the message names the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CollectionError(pub String);

impl fmt::Display for CollectionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CollectionError {}

/// The form the file name `name` gives: `.wtb` (any case) is WTHOR's
/// binary form; any other name is told by its bytes ([`form_by_head`]).
#[must_use]
pub fn form_by_name(name: &str) -> Option<Form> {
    std::path::Path::new(name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("wtb"))
        .then_some(Form::Wtb)
}

/// The form of the collection `name`, sniffed as `form` ([`form_by_name`]
/// or [`form_by_head`]), which `train import` requires.
///
/// # Errors
/// A file of none of the forms, named.
pub fn known_form(name: &str, form: Option<Form>) -> Result<Form, CollectionError> {
    form.ok_or_else(|| {
        CollectionError(format!(
            "{name} is not a WTHOR file (.wtb), PGN or Logistello .gam lines"
        ))
    })
}

/// The form of the collection `name` whose first bytes (at most
/// [`SNIFFED_BYTES`]) are `head`: PGN, `.gam` lines (its first line that
/// is not blank), or `None` for neither.
///
/// # Errors
/// A gzip file, with the way to read it.
pub fn form_by_head(name: &str, head: &[u8]) -> Result<Option<Form>, CollectionError> {
    if head.starts_with(&[0x1f, 0x8b]) {
        return Err(CollectionError(format!(
            "{name} is gzip-compressed: decompress it first (zcat {name} > FILE)"
        )));
    }
    let text = String::from_utf8_lossy(head);
    let first_line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    Ok(if archive::is_pgn(&text) {
        Some(Form::Pgn)
    } else if archive::is_gam_line(first_line) {
        Some(Form::Gam)
    } else {
        None
    })
}

/// The games of one collection read one at a time, in memory bounded
/// whatever the file's size ([`archive::WtbReader`],
/// [`archive::TextReader`]): an [`Iterator`] of the games that ends after
/// the first error, each error naming the collection (and the game).
pub struct CollectionReader<R> {
    name: String,
    games: Games<R>,
    /// WTHOR's tournament and player names (`WTHOR.TRN`, `WTHOR.JOU`)
    /// that name a `.wtb` file's games ([`CollectionReader::with_names`]).
    names: Option<WthorNames>,
}

/// WTHOR's name lists, indexed by the numbers a `.wtb` game gives.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WthorNames {
    /// `WTHOR.TRN`: the tournaments.
    pub tournaments: Vec<String>,
    /// `WTHOR.JOU`: the players.
    pub players: Vec<String>,
}

/// The reader of each form.
enum Games<R> {
    Wtb(archive::WtbReader<R>),
    Text(archive::TextReader<R>),
}

impl<R: BufRead> CollectionReader<R> {
    /// The games of the collection `name` of `form` in `reader`, whose
    /// length is `length` bytes (a `.wtb` file's header is read and
    /// checked against it now, before any game).
    ///
    /// # Errors
    /// A `.wtb` header that is not WTHOR's or does not announce `length`
    /// bytes of games, named as the games' errors are.
    pub fn new(
        name: &str,
        reader: R,
        length: u64,
        form: Form,
    ) -> Result<CollectionReader<R>, CollectionError> {
        let games = match form {
            Form::Wtb => Games::Wtb(
                archive::WtbReader::new(reader, length).map_err(|e| collection_error(name, &e))?,
            ),
            Form::Pgn => Games::Text(archive::TextReader::pgn(reader)),
            Form::Gam => Games::Text(archive::TextReader::gam(reader)),
        };
        Ok(CollectionReader {
            name: name.to_owned(),
            games,
            names: None,
        })
    }

    /// The same reader writing each `.wtb` game's tournament into its
    /// record's `place` and its players into `black` and `white`, from
    /// `names` (as [`archive::WthorFile::name_games`]; the text forms name
    /// their games themselves).
    #[must_use]
    pub fn with_names(self, names: WthorNames) -> CollectionReader<R> {
        CollectionReader {
            names: Some(names),
            ..self
        }
    }
}

impl<R: BufRead> Iterator for CollectionReader<R> {
    type Item = Result<ArchiveGame, CollectionError>;

    fn next(&mut self) -> Option<Self::Item> {
        let read = match &mut self.games {
            Games::Wtb(r) => r.next_game().map(|read| {
                read.map(|(mut game, numbers)| {
                    if let Some(n) = &self.names {
                        archive::name_game(&mut game, numbers, &n.tournaments, &n.players);
                    }
                    game
                })
            }),
            Games::Text(r) => r.next(),
        }?;
        Some(read.map_err(|e| collection_error(&self.name, &e)))
    }
}

/// The error `e` of the collection `name`, naming it (text that is not
/// UTF-8 is the whole file's fault, not a game's).
fn collection_error(name: &str, e: &archive::ArchiveError) -> CollectionError {
    CollectionError(match e.kind {
        archive::ArchiveErrorKind::NotText => format!("{name} is not text (not UTF-8)"),
        _ => format!("{name}: {e}"),
    })
}

/// The moves of a game from the start as square numbers (64 for a pass),
/// under the symmetry of the start position that makes the first move f5:
/// one key for a game and its three images that start the same way.
#[must_use]
pub fn normalised_moves(moves: &[Move]) -> Vec<u8> {
    let start = Position::start(8).board;
    let (black, white) = (start.discs(Color::Black), start.discs(Color::White));
    let f5 = Square::new(4, 5).0;
    let s = match moves.first() {
        Some(Move::Place(first)) => (0..8)
            .find(|&s| {
                symmetry::image(black, s) == black
                    && symmetry::image(white, s) == white
                    && symmetry::square_image(first.0, s) == f5
            })
            .unwrap_or(0),
        _ => 0,
    };
    moves
        .iter()
        .map(|m| match m {
            Move::Place(sq) => symmetry::square_image(sq.0, s),
            Move::Pass => 64,
        })
        .collect()
}

/// The form of the collection in `path`, by its extension (`.wtb`) or its
/// first bytes ([`form_by_head`]), or `None` for a file of none of these
/// forms. A gzip file is refused with the way to read it.
///
/// # Errors
/// A file that cannot be opened or read, or a compressed one
/// ([`UsageError`](crate::files::UsageError)).
#[cfg(feature = "files")]
pub fn form_of(path: &str) -> anyhow::Result<Option<Form>> {
    use crate::files::{input::open_regular, UsageError};
    use std::io::Read;
    if let Some(form) = form_by_name(path) {
        return Ok(Some(form));
    }
    let (file, _) = open_regular(std::path::Path::new(path), path)?;
    let mut head = Vec::new();
    file.take(SNIFFED_BYTES)
        .read_to_end(&mut head)
        .map_err(|e| UsageError(format!("cannot read {path}: {e}")))?;
    Ok(form_by_head(path, &head).map_err(|e| UsageError(e.0))?)
}

/// The games of the collection `path` of `form` (a regular file), read
/// one at a time ([`CollectionReader`]): a `.wtb` file's header is checked
/// against its length before any game is read.
///
/// # Errors
/// A file that cannot be opened, or a `.wtb` header refused
/// ([`UsageError`](crate::files::UsageError)).
#[cfg(feature = "files")]
pub fn read_collection(
    path: &str,
    form: Form,
) -> anyhow::Result<CollectionReader<std::io::BufReader<std::fs::File>>> {
    let (file, length) = crate::files::input::open_regular(std::path::Path::new(path), path)?;
    Ok(
        CollectionReader::new(path, std::io::BufReader::new(file), length, form)
            .map_err(collection_usage)?,
    )
}

/// A collection's error as the one `error:` line.
#[cfg(feature = "files")]
#[must_use]
pub fn collection_usage(e: CollectionError) -> crate::files::UsageError {
    crate::files::UsageError(e.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{parse_game, GameRecord};

    fn game(text: &str) -> GameRecord {
        parse_game(text, 8).unwrap()
    }

    /// A finished game (Logistello's, from d3).
    const LINE: &str = "+d3-c3+c4-e3+c2-b3+d2-e1+d1-c1+f4-d6+e6-g4+b2-f6+d7-c8+e7-d8+f3-f5+g5-h4+h6-f2+f7-h5+g6-c6+c5-c7+b6-b5+b4-e8+h3-g3+h2-e2+h7-g2+b1-a1+h1-a2+a3-g7+f8-h8+g8-a4+g1-f1+a6-a5+a7-a8+b8-b7: -04 10";

    #[test]
    fn collections_are_told_by_name_then_by_their_first_bytes() {
        assert_eq!(form_by_name("dir/WTH_2001.WTB"), Some(Form::Wtb));
        assert_eq!(form_by_name("wthor.pgn"), None);
        assert_eq!(form_by_name("wtb"), None);
        let head = |bytes: &[u8]| form_by_head("f", bytes);
        assert_eq!(head(b"[Event \"x\"]\n1. f5 d6"), Ok(Some(Form::Pgn)));
        assert_eq!(
            head(format!("\n  \n{LINE}\n").as_bytes()),
            Ok(Some(Form::Gam))
        );
        assert_eq!(head(b"f5d6c3\n"), Ok(None));
        assert_eq!(head(b""), Ok(None));
        assert_eq!(
            form_by_head("g.pgn.gz", &[0x1f, 0x8b, 8, 0]),
            Err(CollectionError(
                "g.pgn.gz is gzip-compressed: decompress it first (zcat g.pgn.gz > FILE)".into()
            ))
        );
    }

    /// Every game of the collection `name` whose bytes are `bytes`.
    fn parse_collection(
        name: &str,
        bytes: &[u8],
        form: Form,
    ) -> Result<Vec<ArchiveGame>, CollectionError> {
        CollectionReader::new(name, bytes, bytes.len() as u64, form)?.collect()
    }

    #[test]
    fn collections_are_parsed_by_their_form_and_refused_with_their_name() {
        let games = parse_collection("l.gam", LINE.as_bytes(), Form::Gam).expect("a game");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].record, game(LINE));
        assert_eq!(
            parse_collection("l.gam", b"+d3\xff", Form::Gam),
            Err(CollectionError("l.gam is not text (not UTF-8)".into()))
        );
        let e = parse_collection("w.wtb", b"short", Form::Wtb).expect_err("truncated");
        assert!(e.0.starts_with("w.wtb: "), "{e}");
    }

    #[test]
    fn an_import_requires_a_known_form() {
        assert_eq!(known_form("a.wtb", form_by_name("a.wtb")), Ok(Form::Wtb));
        let head = form_by_head("x.txt", b"hello\n").expect("not gzip");
        assert_eq!(
            known_form("x.txt", head),
            Err(CollectionError(
                "x.txt is not a WTHOR file (.wtb), PGN or Logistello .gam lines".to_owned()
            ))
        );
    }

    #[test]
    fn a_wtb_reader_with_names_names_its_games() {
        let bytes = include_bytes!("../../tests/data/wthor/WTH_1984-sample.wtb");
        let names = WthorNames {
            tournaments: vec!["t".into(); 1000],
            players: (0..2000).map(|n| format!("p{n}")).collect(),
        };
        let plain: Vec<ArchiveGame> =
            CollectionReader::new("w", &bytes[..], bytes.len() as u64, Form::Wtb)
                .expect("header")
                .collect::<Result<_, _>>()
                .expect("games");
        let named: Vec<ArchiveGame> =
            CollectionReader::new("w", &bytes[..], bytes.len() as u64, Form::Wtb)
                .expect("header")
                .with_names(names.clone())
                .collect::<Result<_, _>>()
                .expect("games");
        let mut file = archive::parse_wtb(bytes).expect("the sample");
        file.name_games(&names.tournaments, &names.players);
        assert_eq!(named, file.games);
        assert!(plain.iter().all(|g| g.record.info.black.is_none()));
        assert!(named.iter().all(|g| g.record.info.black.is_some()));
    }

    #[test]
    fn a_game_and_its_images_from_the_start_normalise_alike() {
        let d3 = game(LINE);
        let f5: Vec<Move> = d3
            .move_list()
            .iter()
            .map(|m| match m {
                // d3 -> f5 is the transposition through the other diagonal.
                Move::Place(sq) => Move::Place(Square(symmetry::square_image(sq.0, 7))),
                Move::Pass => Move::Pass,
            })
            .collect();
        let normal = normalised_moves(&d3.move_list());
        assert_eq!(normal[0], Square::new(4, 5).0);
        assert_eq!(normalised_moves(&f5), normal);
    }
}
