//! Tournaments: one player against another from every opening of a given
//! length, each opening played twice with the colours swapped.

use super::selfplay::{openings, play_game, Player, Record};
use crate::game::Game;
use crate::reversi::{Position, Reversi};

/// The results of a tournament, from the first player's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standings {
    /// Games played.
    pub games: u32,
    /// Wins, draws and losses with black.
    pub as_black: [u32; 3],
    /// Wins, draws and losses with white.
    pub as_white: [u32; 3],
    /// The sum of the final disc margins.
    pub margin: i64,
    /// Moves the first player took from its opening book.
    pub book_moves: u64,
    /// Games in which the first player took at least one book move.
    pub book_games: u32,
    /// The sum over those games of the ply (moves from the start) of the
    /// first player's last book move.
    pub last_book_ply: u64,
}

impl Standings {
    /// Wins in all.
    #[must_use]
    pub const fn wins(&self) -> u32 {
        self.as_black[0] + self.as_white[0]
    }

    /// Draws in all.
    #[must_use]
    pub const fn draws(&self) -> u32 {
        self.as_black[1] + self.as_white[1]
    }

    /// Losses in all.
    #[must_use]
    pub const fn losses(&self) -> u32 {
        self.as_black[2] + self.as_white[2]
    }

    /// The share of games won, in percent.
    #[must_use]
    pub fn win_rate(&self) -> f64 {
        100.0 * f64::from(self.wins()) / f64::from(self.games.max(1))
    }

    /// Book moves the first player took per game.
    #[must_use]
    pub fn book_moves_per_game(&self) -> f64 {
        self.book_moves as f64 / f64::from(self.games.max(1))
    }

    /// The average ply of the first player's last book move, over the
    /// games in which it took one (`None`: it never did).
    #[must_use]
    pub fn average_last_book_ply(&self) -> Option<f64> {
        (self.book_games > 0).then(|| self.last_book_ply as f64 / f64::from(self.book_games))
    }

    /// Counts the book moves of the side that played black when
    /// `as_black`, else of white, in the game `r`.
    fn count_book_moves(&mut self, r: &Record, as_black: bool) {
        let mut last = None;
        for (i, c) in r.choices.iter().enumerate() {
            let ply = r.opening + i;
            // Passes are moves of the record, so black moves at even plies.
            if c.book && ply.is_multiple_of(2) == as_black {
                self.book_moves += 1;
                last = Some(ply + 1);
            }
        }
        if let Some(ply) = last {
            self.book_games += 1;
            self.last_book_ply += ply as u64;
        }
    }

    fn record(&mut self, as_black: bool, margin: i32) {
        let k = match margin.signum() {
            1 => 0,
            0 => 1,
            _ => 2,
        };
        if as_black {
            self.as_black[k] += 1;
        } else {
            self.as_white[k] += 1;
        }
        self.games += 1;
        self.margin += i64::from(margin);
    }
}

/// Plays `me` against `other` on a board of `size` from every opening of
/// `plies` moves (both colours each); `progress` hears the standings after
/// each opening with the number of openings done and in all.
pub fn tournament(
    size: u8,
    plies: u32,
    me: &Player,
    other: &Player,
    mut progress: impl FnMut(&Standings, usize, usize),
) -> Standings {
    let game = Reversi::DISC_DIFFERENCE;
    let lines = openings(size, plies);
    let mut standings = Standings::default();
    for (i, line) in lines.iter().enumerate() {
        let start = line
            .iter()
            .fold(Position::start(size), |p, &m| game.play(&p, m));
        for me_black in [true, false] {
            let (black, white) = if me_black { (me, other) } else { (other, me) };
            let r = play_game(start, line.clone(), black, white, |_| {});
            standings.record(me_black, if me_black { r.score } else { -r.score });
            standings.count_book_moves(&r, me_black);
        }
        progress(&standings, i + 1, lines.len());
    }
    standings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_against_itself_scores_evenly_and_counts_every_game() {
        let p = Player::at_depth(2);
        let s = tournament(4, 2, &p, &p, |_, _, _| {});
        assert_eq!(s.games as usize, 2 * openings(4, 2).len());
        assert_eq!(s.wins() + s.draws() + s.losses(), s.games);
        // The same player on both sides: every opening's two games mirror
        // each other, so wins with one colour are losses with the other.
        assert_eq!(s.wins(), s.losses());
        assert_eq!(s.margin, 0);
    }

    #[test]
    fn book_moves_are_counted_for_the_first_player_only() {
        use crate::engine::analyze::{BlackValue, Choice};
        use crate::reversi::Move;
        use std::time::Duration;
        let choice = |book| Choice {
            mv: Move::Pass,
            black_value: BlackValue::Points(0),
            nodes: 0,
            depth: 0,
            time: Duration::ZERO,
            book,
            discs: None,
        };
        // One opening move (black's), then white, black, white, black,
        // white: plies 2 to 6 of the game.
        let r = Record {
            moves: vec![Move::Pass; 6],
            opening: 1,
            choices: [true, true, false, true, false]
                .into_iter()
                .map(choice)
                .collect(),
            last: Position::start(8),
            score: 0,
        };
        let mut white = Standings::default();
        white.count_book_moves(&r, false);
        // White took a book move at ply 2 only, black at plies 3 and 5.
        assert_eq!(
            (white.book_moves, white.book_games, white.last_book_ply),
            (1, 1, 2)
        );
        let mut black = Standings::default();
        black.count_book_moves(&r, true);
        assert_eq!(
            (black.book_moves, black.book_games, black.last_book_ply),
            (2, 1, 5)
        );
        let mut none = Standings::default();
        let r = Record {
            choices: vec![choice(false); 5],
            ..r
        };
        none.count_book_moves(&r, true);
        assert_eq!(none.average_last_book_ply(), None);
        assert_eq!(none.book_moves_per_game(), 0.0);
    }
}
