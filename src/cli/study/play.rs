//! `reversi play OPTIONS`: play against the computer on 4x4, 6x6 or 8x8.
//! (Without options `reversi play` is the Tiny dialog, elsewhere.) A line
//! that is not a move (unreadable included) is answered and asked again;
//! end of input abandons the game as in every interactive mode: the prompt's
//! line ended, `end of input: game abandoned` on stderr, exit status 0.

use super::{
    algorithm, board_picture, depth, describe, eval, from_arg, level, order, parse_and_run, size,
    time, verdict, EvalArg, PlayerSpec, Weights, LEVEL_HELP,
};
use anyhow::Result;
use clap::builder::PossibleValue;
use clap::{value_parser, ArgMatches, Command, ValueEnum};
use reversi::apps::study::selfplay::parse_move;
use reversi::apps::study::selfplay::SideMemory;
use reversi::board::{Color, Square};
use reversi::game::Game;
use reversi::kit::input::{read_answer, Answer};
use reversi::kit::{option, value};
use reversi::reversi::{Move, Position, Reversi};
use std::io::{self, Write};

/// Who the human plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Human {
    Black,
    White,
    Both,
    None,
}

impl ValueEnum for Human {
    fn value_variants<'a>() -> &'a [Self] {
        &[Human::Black, Human::White, Human::Both, Human::None]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(match self {
            Human::Black => "black",
            Human::White => "white",
            Human::Both => "both",
            Human::None => "none",
        }))
    }
}

/// Play against the computer.
#[derive(Debug)]
struct Args {
    /// The opening book's options.
    book: crate::cli::options::BookOptions,
    size: u8,
    human: Human,
    side: PlayerSpec,
    from: Option<String>,
}

/// `reversi play`'s options.
pub(super) fn command() -> Command {
    Command::new("reversi play")
        .about("Play Reversi against the computer")
        .arg(size("4"))
        .args(crate::cli::options::book_args())
        .arg(
            option("human", "HUMAN", "The colour(s) the human plays")
                .value_parser(value_parser!(Human))
                .default_value("black"),
        )
        .arg(depth(
            "depth",
            "DEPTH",
            "The computer's depth bound in plies (default 4; with --time, a cap)",
        ))
        .arg(time(
            "The computer's time per move in seconds (anytime search)",
        ))
        .arg(eval(
            "eval",
            "EVAL",
            "The computer's evaluation (default: pattern on 8x8, disc on 4x4 and 6x6)",
        ))
        .arg(algorithm("The computer's search algorithm"))
        .arg(order("The computer's move ordering", "natural"))
        .arg(level("level", "LEVEL", LEVEL_HELP).conflicts_with_all([
            "depth",
            "eval",
            "algorithm",
            "order",
        ]))
        .arg(from_arg())
}

impl Args {
    fn from_matches(m: &ArgMatches) -> Args {
        let size = value(m, "size");
        Args {
            book: crate::cli::options::BookOptions::from_matches(m),
            size,
            human: value(m, "human"),
            side: PlayerSpec::from_matches(
                m,
                m.get_one("eval").copied().unwrap_or(if size == 8 {
                    // The trained evaluation knows 8x8 Othello; the smaller
                    // boards keep the study's disc difference.
                    EvalArg::Pattern
                } else {
                    EvalArg::Disc
                }),
            ),
            from: m.get_one("from").cloned(),
        }
    }
}

/// Runs `reversi play OPTIONS`, reading moves from stdin.
pub fn run(args: &[String]) -> Result<()> {
    parse_and_run(command(), args, Args::from_matches, play)
}

/// Runs `reversi play OPTIONS` as asked.
fn play(a: Args, weights: Weights) -> Result<()> {
    let mut computer = a.side.player(&weights);
    computer.book = a.book.book_and_randomness()?;
    let game = Reversi::DISC_DIFFERENCE;
    let mut p = match &a.from {
        Some(from) => crate::cli::options::read_record(from, a.size)?.last(),
        None => Position::start(a.size),
    };
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut out = io::stdout().lock();
    let mut memory = SideMemory::default();
    writeln!(
        out,
        "Reversi {n}x{n}. You play {}; the computer: {}.\nEnter moves as c4{}; `quit` ends the game.",
        a.human.describe(),
        describe(&computer),
        if a.size == 4 { " or square numbers 1-16" } else { "" },
        n = a.size
    )?;
    while !game.is_terminal(&p) {
        let legal: Vec<Move> = game.moves(&p).collect();
        show_position(&mut out, &p, &legal)?;
        let who = p.to_move.name();
        let mv = if !a.human.plays(p.to_move) {
            let c = computer.choose_in(&p, &mut memory);
            writeln!(
                out,
                "Computer ({who}) plays {}: {}",
                c.mv,
                choice_text(&c, &p, computer.eval)
            )?;
            c.mv
        } else if legal == [Move::Pass] {
            writeln!(out, "You ({who}) have no move and pass.")?;
            Move::Pass
        } else {
            match ask_move(&mut out, &mut input, &p)? {
                Some(mv) => mv,
                None => return Ok(()),
            }
        };
        p = game.play(&p, mv);
    }
    let score = game.utility(&p);
    writeln!(
        out,
        "\n{}Game over. Black {}, white {}: score {score} ({}).",
        board_picture(&p.board, 0),
        p.board.count(Color::Black),
        p.board.count(Color::White),
        verdict(score)
    )?;
    out.flush()?;
    Ok(())
}

impl Human {
    /// Whether the human plays `color`.
    fn plays(self, color: Color) -> bool {
        match self {
            Human::Both => true,
            Human::None => false,
            Human::Black => color == Color::Black,
            Human::White => color == Color::White,
        }
    }

    /// What the human plays, for the greeting.
    fn describe(self) -> &'static str {
        match self {
            Human::Both => "both colours",
            Human::None => "nothing (the computer plays itself)",
            Human::Black => "black (X)",
            Human::White => "white (O)",
        }
    }
}

/// The board with the legal squares marked, the disc counts, the side to
/// move and its legal moves.
fn show_position(out: &mut impl Write, p: &Position, legal: &[Move]) -> io::Result<()> {
    let marks = legal.iter().fold(0u64, |m, mv| match mv {
        Move::Place(sq) => m | sq.bit(),
        Move::Pass => m,
    });
    let names: Vec<String> = legal.iter().map(ToString::to_string).collect();
    writeln!(
        out,
        "\n{}X {}  O {}   {} ({}) to move; legal: {}",
        board_picture(&p.board, marks),
        p.board.count(Color::Black),
        p.board.count(Color::White),
        p.to_move.name(),
        if p.to_move == Color::Black { 'X' } else { 'O' },
        names.join(" ")
    )
}

/// Asks the human for a legal move until one is given; `None` when the
/// game is abandoned (`quit`, or the end of the input).
fn ask_move(
    out: &mut impl Write,
    input: &mut impl io::BufRead,
    p: &Position,
) -> Result<Option<Move>> {
    let who = p.to_move.name();
    loop {
        write!(out, "Your move ({who}): ")?;
        out.flush()?;
        let text = match read_answer(input)? {
            Answer::End => {
                writeln!(out)?;
                out.flush()?;
                eprintln!("end of input: game abandoned");
                return Ok(None);
            }
            Answer::Unreadable => {
                writeln!(out, "not a move (not UTF-8 text, or too long)")?;
                continue;
            }
            Answer::Text(t) => t.trim().to_string(),
        };
        if text == "quit" || text == "q" {
            writeln!(out, "Game abandoned.")?;
            return Ok(None);
        }
        match read_move(p, &text) {
            Ok(m) => return Ok(Some(m)),
            Err(e) => writeln!(out, "{e}")?,
        }
    }
}

/// A move typed by the human: a name (`c4`, `pass`) or, on 4x4, a 1-based
/// square number in reading order.
fn read_move(p: &Position, text: &str) -> Result<Move, String> {
    let n = p.board.size();
    if n == 4 {
        if let Ok(k) = text.parse::<u8>() {
            if (1..=16).contains(&k) {
                let sq = Square::new((k - 1) / 4, (k - 1) % 4);
                return parse_move(p, &sq.to_string());
            }
            return Err(format!("{k} is not a square number (1-16)"));
        }
    }
    if let Ok(sq) = text.parse::<Square>() {
        if !p.board.contains(sq) {
            return Err(format!("{text} is not on the {n}x{n} board"));
        }
    }
    parse_move(p, text)
}

/// What a computer's move was worth and cost, in words: a book move as
/// one, with the book's value; a value in discs for the side that played
/// it; the evaluation's own points from black's view, named.
fn choice_text(
    c: &reversi::engine::analyze::Choice,
    p: &Position,
    eval: reversi::eval::Heuristic,
) -> String {
    let time = c.time.as_secs_f64();
    let mover = p.to_move;
    match c.discs {
        Some(d) if c.book => format!(
            "a book move, {:+.2} discs for {} (the book's value), {time:.3} s",
            d.for_color(mover).0,
            mover.name()
        ),
        Some(d) => format!(
            "{:+.2} discs for {}, {} nodes, depth {}, {time:.3} s",
            d.for_color(mover).0,
            mover.name(),
            c.nodes,
            c.depth
        ),
        None => {
            let unit = if c.black_value.in_discs(eval, p.board.size()) {
                "discs".to_owned()
            } else {
                format!("{} points", format!("{eval:?}").to_lowercase())
            };
            format!(
                "value {} for black ({unit}), {} nodes, depth {}, {time:.3} s",
                c.black_value, c.nodes, c.depth
            )
        }
    }
}
