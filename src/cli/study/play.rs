//! `reversi play OPTIONS`: play against the computer on 4x4, 6x6 or 8x8.
//! (Without options `reversi play` is the Tiny dialog, elsewhere.)

use super::{
    board_picture, color_name, describe, parse, parse_depth, parse_size, parse_time, player,
    verdict, AlgorithmArg, EvalArg, OrderArg,
};
use crate::cli::usage;
use anyhow::Result;
use reversi::board::{Color, Square};
use reversi::game::Game;
use reversi::reversi::{Move, Position, Reversi};
use reversi::study::engine::Memory;
use reversi::study::selfplay::parse_move;
use std::io::{self, BufRead, Write};
use std::time::Duration;

/// Who the human plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Human {
    Black,
    White,
    Both,
    None,
}

/// Play against the computer.
#[derive(clap::Parser, Debug)]
#[command(name = "reversi play", about = "Play Reversi against the computer")]
struct Args {
    /// Board size: 4, 6 or 8.
    #[arg(long, default_value = "4", value_parser = parse_size)]
    size: u8,
    /// The colour(s) the human plays.
    #[arg(long, value_enum, default_value = "black")]
    human: Human,
    /// The computer's depth bound in plies (default 4; with --time, a cap).
    #[arg(long, value_parser = parse_depth)]
    depth: Option<u32>,
    /// The computer's time per move in seconds (anytime search).
    #[arg(long, value_parser = parse_time)]
    time: Option<Duration>,
    /// The computer's evaluation.
    #[arg(long, value_enum, default_value = "disc")]
    eval: EvalArg,
    /// The computer's search algorithm.
    #[arg(long, value_enum, default_value = "alphabeta")]
    algorithm: AlgorithmArg,
    /// The computer's move ordering.
    #[arg(long, value_enum, default_value = "natural")]
    order: OrderArg,
}

/// Runs `reversi play OPTIONS`, reading moves from stdin.
pub fn run(args: &[String]) -> Result<()> {
    let a: Args = parse("play", args);
    let computer = player(a.depth, a.time, a.algorithm, a.order, a.eval);
    let game = Reversi::DISC_DIFFERENCE;
    let mut p = Position::start(a.size);
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = io::stdout().lock();
    let mut memory = Memory::default();
    writeln!(
        out,
        "Reversi {n}x{n}. You play {}; the computer: {}.\nEnter moves as c4{}; `quit` ends the game.",
        match a.human {
            Human::Both => "both colours",
            Human::None => "nothing (the computer plays itself)",
            Human::Black => "black (X)",
            Human::White => "white (O)",
        },
        describe(&computer),
        if a.size == 4 { " or square numbers 1-16" } else { "" },
        n = a.size
    )?;
    while !game.is_terminal(&p) {
        let legal: Vec<Move> = game.moves(&p).collect();
        let marks = legal.iter().fold(0u64, |m, mv| match mv {
            Move::Place(sq) => m | sq.bit(),
            Move::Pass => m,
        });
        let who = color_name(p.to_move);
        let names: Vec<String> = legal.iter().map(ToString::to_string).collect();
        writeln!(
            out,
            "\n{}X {}  O {}   {who} ({}) to move; legal: {}",
            board_picture(&p.board, marks),
            p.board.count(Color::Black),
            p.board.count(Color::White),
            if p.to_move == Color::Black { 'X' } else { 'O' },
            names.join(" ")
        )?;
        let human = match a.human {
            Human::Both => true,
            Human::None => false,
            Human::Black => p.to_move == Color::Black,
            Human::White => p.to_move == Color::White,
        };
        let mv = if !human {
            let c = computer.choose_in(&p, &mut memory);
            writeln!(
                out,
                "Computer ({who}) plays {}: value {}, {} nodes, depth {}, {:.3} s",
                c.mv,
                c.value,
                c.nodes,
                c.depth,
                c.time.as_secs_f64()
            )?;
            c.mv
        } else if legal == [Move::Pass] {
            writeln!(out, "You ({who}) have no move and pass.")?;
            Move::Pass
        } else {
            loop {
                write!(out, "Your move ({who}): ")?;
                out.flush()?;
                let Some(line) = lines.next() else {
                    writeln!(out)?;
                    return usage("input ended before the game did");
                };
                let text = line?.trim().to_string();
                if text == "quit" || text == "q" {
                    writeln!(out, "Game abandoned.")?;
                    return Ok(());
                }
                match read_move(&p, &text) {
                    Ok(m) => break m,
                    Err(e) => writeln!(out, "{e}")?,
                }
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
