//! `reversi play`: the 4x4 game against alpha-beta, holding the dialog of
//! the Tiny assignment's provided front end byte for byte on stdout (the
//! recorded dialogs are in `tests/data/reversi-play.md`). Each answer is taken exactly
//! as typed, as the front end takes it (`Yes ` with a trailing space is a
//! wrong answer); a wrong or unreadable answer (not UTF-8, too long) asks
//! the question again. End of input abandons the game as in every
//! interactive mode: `end of input: game abandoned` on stderr, exit status 0.
//!
//! The dialog: two questions (which player, who moves first), a blank line,
//! the start board if the person moves first; then per turn `Player N's
//! turn`, for the person the prompt (repeated until a legal square is given)
//! and a blank line, the board after the move and a blank line; a player
//! without a legal move gets `Player N can't move` instead. The result line
//! ends the game.

use anyhow::Result;
use reversi::board::{Board, Color, Square};
use reversi::game::Game;
use reversi::kit::input::{read_answer, Answer};
use reversi::reversi::{Position, Reversi};
use reversi::search::alphabeta;
use std::io::{self, BufRead, Write};

const PROMPT: &str = "Enter the board position to put your new piece [1-16]:";

/// Plays one game on the process's stdin and stdout.
pub fn run() -> Result<()> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    dialog(&mut stdin.lock(), &mut stdout.lock())
}

/// Asks `question` until `parse` accepts the answer; `None` at end of input.
fn ask<T>(
    input: &mut impl BufRead,
    out: &mut impl Write,
    question: &str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Option<T>> {
    loop {
        writeln!(out, "{question}")?;
        out.flush()?;
        match read_answer(input)? {
            Answer::End => return Ok(None),
            Answer::Unreadable => {}
            Answer::Text(answer) => {
                if let Some(v) = parse(&answer) {
                    return Ok(Some(v));
                }
            }
        }
    }
}

/// The board as the front end draws it: rows `| 0 | 2 | 1 | 0 |` between
/// lines of dashes.
fn draw(board: &Board) -> String {
    let rule = "-".repeat(4 * usize::from(board.size()) + 1);
    let mut s = format!("{rule}\n");
    let digits = board.to_digits();
    for row in digits.as_bytes().chunks(usize::from(board.size())) {
        for &c in row {
            s.push_str("| ");
            s.push(char::from(c));
            s.push(' ');
        }
        s.push_str("|\n");
        s.push_str(&rule);
        s.push('\n');
    }
    s
}

/// Ends the game at end of input, as every interactive mode does: a note
/// on stderr, exit status 0 (every prompt of this dialog ends its line).
fn abandoned() -> Result<()> {
    eprintln!("end of input: game abandoned");
    Ok(())
}

/// The whole dialog over any input and output.
pub fn dialog(input: &mut impl BufRead, out: &mut impl Write) -> Result<()> {
    writeln!(out, "Welcome to Reversi-Tiny!")?;
    let Some(human) = ask(
        input,
        out,
        "Do you want to play as player 1 or player 2? [Enter 1 or 2]",
        |a| a.parse::<u8>().ok().and_then(Color::from_number),
    )?
    else {
        return abandoned();
    };
    let Some(human_first) = ask(input, out, "Do you want to play first? [Y/n]", |a| match a
        .to_ascii_lowercase()
        .as_str()
    {
        "y" | "yes" => Some(true),
        "n" | "no" => Some(false),
        _ => None,
    })?
    else {
        return abandoned();
    };
    let game = Reversi::WIN_LOSS;
    let mut pos = Position {
        board: Board::start(4),
        to_move: if human_first { human } else { human.other() },
    };
    writeln!(out)?;
    if human_first {
        write!(out, "{}", draw(&pos.board))?;
    }
    while !pos.board.is_game_over() {
        let mover = pos.to_move.number();
        if pos.board.moves(pos.to_move) == 0 {
            writeln!(out, "Player {mover} can't move")?;
            pos.to_move = pos.to_move.other();
            continue;
        }
        writeln!(out, "Player {mover}'s turn")?;
        if pos.to_move == human {
            let legal = pos.board.moves(human);
            let choice = ask(input, out, PROMPT, |a| {
                let n: u8 = a.parse().ok()?;
                let sq = (1..=16)
                    .contains(&n)
                    .then(|| Square::new((n - 1) / 4, (n - 1) % 4))?;
                (legal & sq.bit() != 0).then_some(sq)
            })?;
            let Some(sq) = choice else {
                return abandoned();
            };
            pos.board = pos.board.play_unchecked(human, sq);
            writeln!(out)?;
        } else {
            let best = alphabeta(&game, &pos)
                .best
                .expect("a player with a legal move has a best move");
            pos.board = game.play(&pos, best).board;
        }
        write!(out, "{}", draw(&pos.board))?;
        writeln!(out)?;
        out.flush()?;
        pos.to_move = pos.to_move.other();
    }
    let result = match pos.board.disc_difference().signum() {
        1 => "Player 1 Wins!",
        -1 => "Player 2 Wins!",
        _ => "Tied Game!",
    };
    writeln!(out, "{result}")?;
    out.flush()?;
    Ok(())
}
