//! Counted, assignment-exact game-tree search over any [`Game`].
//!
//! [`minimax`] and [`alphabeta`] are AIMA's Max-Value/Min-Value procedures:
//! the node counter is incremented once on entry to every call (root, pass
//! states and terminal states included), successors are tried in the game's
//! canonical order, and a node keeps the FIRST successor that reaches its
//! best value. Alpha-beta returns from a MAX node as soon as `v >= beta`
//! and from a MIN node as soon as `v <= alpha`.
//!
//! Both take an optional depth [`Limit`] (plies from the root; a node at the
//! limit is scored by an [`Evaluator`]) and an [`Observer`] that sees every
//! node entered and left, which is how traversal logs (the 8x8 contract's,
//! an application's) and tree pictures ([`DotTree`]) are produced without
//! touching the search. Engine searches (ordering,
//! iterative deepening, transposition tables) live elsewhere and never
//! change these counts.

mod alphabeta;
pub mod dot_tree;
mod minimax;
mod observer;
#[cfg(test)]
mod tests;

pub use alphabeta::{alphabeta, alphabeta_with};
pub use dot_tree::DotTree;
pub use minimax::{minimax, minimax_with};
pub use observer::{NoObserver, Node, Observer, Window};

use crate::game::{Evaluator, Game, UtilityEval, Value};

/// The result of a search from one root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The root's value (MAX's point of view).
    pub value: Value,
    /// The first move that reaches `value`; `None` at a terminal root or a
    /// root at the depth limit.
    pub best: Option<M>,
    /// The number of states explored (Max-Value and Min-Value calls).
    pub nodes: u64,
}

/// Where a search stops: after `depth` plies (if any), scored by `eval`.
/// Terminal states are always scored by the game's utility.
#[derive(Clone, Copy, Debug)]
pub struct Limit<E> {
    /// Maximum plies from the root; `None` searches to the end of the game.
    pub depth: Option<u32>,
    /// The evaluation of states at the depth limit.
    pub eval: E,
}

impl Limit<UtilityEval> {
    /// No depth limit: search every line to the end of the game.
    pub const NONE: Limit<UtilityEval> = Limit {
        depth: None,
        eval: UtilityEval,
    };
}

impl<E> Limit<E> {
    /// A limit of `depth` plies with evaluation `eval`.
    pub const fn depth(depth: u32, eval: E) -> Limit<E> {
        Limit {
            depth: Some(depth),
            eval,
        }
    }
}

/// Whether the node of `state` at `ply` is a leaf, and its value if so:
/// the utility when the game is over, the evaluation at the depth limit.
/// `moves` are the state's moves; they are only peeked at.
fn leaf_value<G, E>(
    game: &G,
    limit: &Limit<E>,
    state: &G::State,
    ply: u32,
    moves: &mut std::iter::Peekable<G::Moves>,
) -> Option<Value>
where
    G: Game,
    E: Evaluator<G>,
{
    if moves.peek().is_none() {
        Some(game.utility(state))
    } else if limit.depth == Some(ply) {
        Some(limit.eval.evaluate(game, state))
    } else {
        None
    }
}

/// The two counted searches, for callers that choose at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Plain minimax: every node of the tree.
    Minimax,
    /// Alpha-beta pruning: same value and move, fewer nodes.
    AlphaBeta,
}

impl Algorithm {
    /// Runs this algorithm from `root` with `limit` and `observer`.
    pub fn run<G, E, O>(
        self,
        game: &G,
        root: &G::State,
        limit: &Limit<E>,
        observer: &mut O,
    ) -> SearchResult<G::Move>
    where
        G: Game,
        E: Evaluator<G>,
        O: Observer<G>,
    {
        match self {
            Algorithm::Minimax => minimax_with(game, root, limit, observer),
            Algorithm::AlphaBeta => alphabeta_with(game, root, limit, observer),
        }
    }
}
