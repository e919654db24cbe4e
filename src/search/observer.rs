//! Observers: callbacks on every node a search visits.

use crate::game::{Game, Value, INFINITY};

/// A node of the searched tree as an observer sees it.
#[derive(Debug)]
pub struct Node<'a, G: Game> {
    /// The state of the node.
    pub state: &'a G::State,
    /// The move that led here from the parent (`None` at the root).
    pub mv: Option<G::Move>,
    /// Plies from the root (the root is 0).
    pub ply: u32,
}

/// The alpha-beta window of a node (minimax reports the open window).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// The best value MAX is already sure of.
    pub alpha: Value,
    /// The best value MIN is already sure of.
    pub beta: Value,
}

impl Window {
    /// The window `(-inf, +inf)`.
    pub const OPEN: Window = Window {
        alpha: -INFINITY,
        beta: INFINITY,
    };
}

/// Callbacks on the events of a search. Every method does nothing by default.
///
/// For each counted node the search calls `enter`, then either `leaf`
/// (terminal or at the depth limit) or `expand` followed by one `update` per
/// child searched, then `leave`.
pub trait Observer<G: Game> {
    /// Whether the search should report the successors that alpha-beta
    /// prunes (costs a little time at every cut-off).
    const WANTS_PRUNED: bool = false;

    /// Whether the observer looks at single nodes. When it does not, the
    /// search may take a whole subtree's value and count from
    /// [`Game::minimax_subtree`] without entering its nodes.
    const SEES_NODES: bool = true;

    /// A node is entered (and counted).
    fn enter(&mut self, _node: &Node<'_, G>, _window: Window) {}

    /// The node is a leaf with this value (utility, or evaluation at the limit).
    fn leaf(&mut self, _node: &Node<'_, G>, _value: Value, _window: Window) {}

    /// The node is internal; its children follow.
    fn expand(&mut self, _node: &Node<'_, G>, _window: Window) {}

    /// A child returned: the node's value and window are now these, and
    /// `cutoff` says that alpha-beta stops here.
    fn update(&mut self, _node: &Node<'_, G>, _value: Value, _window: Window, _cutoff: bool) {}

    /// A successor that alpha-beta did not search (only if `WANTS_PRUNED`).
    fn pruned(&mut self, _parent: &Node<'_, G>, _mv: G::Move) {}

    /// The node is left with its final value.
    fn leave(&mut self, _node: &Node<'_, G>, _value: Value) {}
}

/// The observer that observes nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl<G: Game> Observer<G> for NoObserver {
    const SEES_NODES: bool = false;
}
