//! Alpha-beta pruning (AIMA): the minimax value and first-best move with
//! fewer nodes. A MAX node returns as soon as `v >= beta`, a MIN node as
//! soon as `v <= alpha`; alpha and beta are raised/lowered after each child.

use super::{leaf_value, Limit, Node, Observer, SearchResult, Window};
use crate::game::{Evaluator, Game, Side, UtilityEval, Value, INFINITY};

/// Alpha-beta to the end of the game, counting states.
///
/// ```
/// use reversi::{reversi::{Position, Reversi}, search::alphabeta};
/// let out = alphabeta(&Reversi::WIN_LOSS, &Position::start(4));
/// assert_eq!((out.value, out.nodes), (-1, 7_208));
/// ```
pub fn alphabeta<G: Game>(game: &G, root: &G::State) -> SearchResult<G::Move> {
    alphabeta_with(
        game,
        root,
        &Limit::<UtilityEval>::NONE,
        &mut super::NoObserver,
    )
}

/// Alpha-beta with a depth limit and an observer, from the open window.
///
/// ```
/// use reversi::eval::DiscDifference;
/// use reversi::reversi::{Position, Reversi};
/// use reversi::search::{alphabeta_with, DotTree, Limit};
/// let game = Reversi::DISC_DIFFERENCE;
/// let mut tree = DotTree::new(&game);
/// let result = alphabeta_with(&game, &Position::start(6), &Limit::depth(2, DiscDifference), &mut tree);
/// assert_eq!(tree.node_count() as u64, result.nodes); // the observer saw every state
/// assert!(result.best.is_some());
/// ```
pub fn alphabeta_with<G, E, O>(
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
    let mut search = AlphaBeta {
        game,
        limit,
        observer,
        nodes: 0,
    };
    let (value, best) = search.value(root, None, 0, Window::OPEN);
    SearchResult {
        value,
        best,
        nodes: search.nodes,
    }
}

struct AlphaBeta<'a, G, E, O> {
    game: &'a G,
    limit: &'a Limit<E>,
    observer: &'a mut O,
    nodes: u64,
}

impl<G, E, O> AlphaBeta<'_, G, E, O>
where
    G: Game,
    E: Evaluator<G>,
    O: Observer<G>,
{
    fn value(
        &mut self,
        state: &G::State,
        mv: Option<G::Move>,
        ply: u32,
        mut window: Window,
    ) -> (Value, Option<G::Move>) {
        self.nodes += 1;
        let node = Node { state, mv, ply };
        self.observer.enter(&node, window);
        let mut moves = self.game.moves(state).peekable();
        if let Some(v) = leaf_value(self.game, self.limit, state, ply, &mut moves) {
            self.observer.leaf(&node, v, window);
            self.observer.leave(&node, v);
            return (v, None);
        }
        self.observer.expand(&node, window);
        let side = self.game.side(state);
        let mut best_value = match side {
            Side::Max => -INFINITY,
            Side::Min => INFINITY,
        };
        let mut best = None;
        while let Some(m) = moves.next() {
            let child = self.game.play(state, m);
            let (v, _) = self.value(&child, Some(m), ply + 1, window);
            match side {
                Side::Max => {
                    if v > best_value {
                        best_value = v;
                        best = Some(m);
                    }
                    window.alpha = window.alpha.max(best_value);
                }
                Side::Min => {
                    if v < best_value {
                        best_value = v;
                        best = Some(m);
                    }
                    window.beta = window.beta.min(best_value);
                }
            }
            // With alpha < beta on entry, `alpha >= beta` here is exactly
            // AIMA's `v >= beta` (MAX) or `v <= alpha` (MIN).
            let cutoff = window.alpha >= window.beta;
            self.observer.update(&node, best_value, window, cutoff);
            if cutoff {
                if O::WANTS_PRUNED {
                    for rest in moves {
                        self.observer.pruned(&node, rest);
                    }
                }
                break;
            }
        }
        self.observer.leave(&node, best_value);
        (best_value, best)
    }
}
