//! Tournaments: one player against another from every opening of a given
//! length, each opening played twice with the colours swapped.

use super::selfplay::{openings, play_game, Player};
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
}
