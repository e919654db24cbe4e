//! Minimax: the exact value of every node, by visiting the whole tree (down
//! to an optional depth limit). The first successor reaching the best value
//! is the chosen move.

use super::{leaf_value, Limit, Node, Observer, SearchResult, Window};
use crate::game::{Evaluator, Game, Side, UtilityEval, Value, INFINITY};

/// Minimax to the end of the game, counting states.
///
/// ```
/// use reversi::{reversi::{Position, Reversi}, search::minimax};
/// let out = minimax(&Reversi::WIN_LOSS, &Position::start(4));
/// assert_eq!((out.value, out.nodes), (-1, 224_821));
/// ```
pub fn minimax<G: Game>(game: &G, root: &G::State) -> SearchResult<G::Move> {
    minimax_with(
        game,
        root,
        &Limit::<UtilityEval>::NONE,
        &mut super::NoObserver,
    )
}

/// Minimax with a depth limit and an observer.
pub fn minimax_with<G, E, O>(
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
    let mut search = Minimax {
        game,
        limit,
        observer,
        nodes: 0,
    };
    let (value, best) = search.value(root, None, 0);
    SearchResult {
        value,
        best,
        nodes: search.nodes,
    }
}

struct Minimax<'a, G, E, O> {
    game: &'a G,
    limit: &'a Limit<E>,
    observer: &'a mut O,
    nodes: u64,
}

impl<G, E, O> Minimax<'_, G, E, O>
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
    ) -> (Value, Option<G::Move>) {
        if !O::SEES_NODES && ply > 0 && self.limit.depth.is_none() {
            if let Some((value, nodes)) = self.game.minimax_subtree(state) {
                self.nodes += nodes;
                return (value, None);
            }
        }
        self.nodes += 1;
        let node = Node { state, mv, ply };
        self.observer.enter(&node, Window::OPEN);
        let mut moves = self.game.moves(state).peekable();
        if let Some(v) = leaf_value(self.game, self.limit, state, ply, &mut moves) {
            self.observer.leaf(&node, v, Window::OPEN);
            self.observer.leave(&node, v);
            return (v, None);
        }
        self.observer.expand(&node, Window::OPEN);
        let side = self.game.side(state);
        let mut best_value = match side {
            Side::Max => -INFINITY,
            Side::Min => INFINITY,
        };
        let mut best = None;
        for m in moves {
            let child = self.game.play(state, m);
            let (v, _) = self.value(&child, Some(m), ply + 1);
            let better = match side {
                Side::Max => v > best_value,
                Side::Min => v < best_value,
            };
            if better {
                best_value = v;
                best = Some(m);
            }
            self.observer.update(&node, best_value, Window::OPEN, false);
        }
        self.observer.leave(&node, best_value);
        (best_value, best)
    }
}
