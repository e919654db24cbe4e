//! The [`Game`] trait: what a two-player, zero-sum, perfect-information game
//! must say about itself so that the searches in [`crate::search`] can play it.
//!
//! A state knows whose turn it is. Successors come in one canonical order
//! (the order that first-best tie-breaking refers to), a forced pass is an
//! ordinary move, and a state is terminal exactly when it has no successors.
//! Values are always from MAX's point of view.

use std::fmt::Debug;

/// A game value, always from MAX's point of view.
///
/// Utilities and evaluations are small integers; [`INFINITY`] and
/// `-INFINITY` stand for the open bounds of a search window.
pub type Value = i32;

/// The value larger than every utility and evaluation (`-INFINITY` is the smallest).
pub const INFINITY: Value = i32::MAX;

/// The two roles of minimax: MAX wants the largest value, MIN the smallest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The maximising player.
    Max,
    /// The minimising player.
    Min,
}

impl Side {
    /// The other side.
    #[must_use]
    pub const fn other(self) -> Side {
        match self {
            Side::Max => Side::Min,
            Side::Min => Side::Max,
        }
    }
}

/// A game that minimax and alpha-beta can search.
///
/// Implementations are cheap, stateless descriptions of the rules (board
/// size, winning run length, ...); all mutable information lives in
/// [`Game::State`].
pub trait Game {
    /// A position together with the side to move.
    type State: Clone + Debug;
    /// A move, including a pass where the rules force one.
    type Move: Copy + Debug + PartialEq;
    /// The moves of a state in canonical order.
    type Moves: Iterator<Item = Self::Move>;

    /// The side to move in `state`.
    fn side(&self, state: &Self::State) -> Side;

    /// The legal moves of `state` in canonical order; empty exactly when
    /// `state` is terminal. A forced pass is a move.
    fn moves(&self, state: &Self::State) -> Self::Moves;

    /// The state after `mv` (which must be one of [`Game::moves`]).
    fn play(&self, state: &Self::State, mv: Self::Move) -> Self::State;

    /// The exact value of a terminal state, from MAX's point of view.
    fn utility(&self, state: &Self::State) -> Value;

    /// Whether the game is over in `state`.
    fn is_terminal(&self, state: &Self::State) -> bool {
        self.moves(state).next().is_none()
    }

    /// The result of plain minimax on the whole subtree of `state`, when the
    /// game can compute it faster than the generic recursion: the value
    /// (MAX's point of view) and the number of states minimax visits there,
    /// `state` included. It must agree exactly with
    /// [`crate::search::minimax`]. Searches use it only below the root, with
    /// no depth limit and an observer that does not look at single nodes.
    /// The default declines.
    fn minimax_subtree(&self, _state: &Self::State) -> Option<(Value, u64)> {
        None
    }

    /// Every successor with the move that leads to it, in canonical order.
    fn successors(&self, state: &Self::State) -> Vec<(Self::Move, Self::State)> {
        self.moves(state)
            .map(|mv| (mv, self.play(state, mv)))
            .collect()
    }
}

/// A static evaluation of non-terminal states, used where a depth-limited
/// search stops. Values are from MAX's point of view.
pub trait Evaluator<G: Game> {
    /// The heuristic value of `state`.
    fn evaluate(&self, game: &G, state: &G::State) -> Value;

    /// The value of the finished game `state` as a search that evaluates
    /// with this evaluator counts it: by default the game's utility (the
    /// contracts' and the study's searches); an analysis counts it in its
    /// evaluation's unit instead, so that a final score and an estimate
    /// compare.
    fn finished(&self, game: &G, state: &G::State) -> Value {
        game.utility(state)
    }
}

/// The evaluator that scores every state with the game's utility; with it a
/// depth-limited search treats its horizon as if the game ended there.
#[derive(Clone, Copy, Debug, Default)]
pub struct UtilityEval;

impl<G: Game> Evaluator<G> for UtilityEval {
    fn evaluate(&self, game: &G, state: &G::State) -> Value {
        game.utility(state)
    }
}
