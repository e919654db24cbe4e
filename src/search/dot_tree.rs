//! Pictures of searched trees: an [`Observer`] that records every counted
//! state and writes the tree as Graphviz DOT.
//!
//! Each counted state is one node statement `nK` (K = 0, 1, ... in the order
//! the search entered them), labelled with its value; MAX nodes are boxes,
//! MIN nodes ellipses. Successors that alpha-beta pruned are dashed nodes
//! `pK`. Edges carry the move. The chosen line (the first best child from
//! the root down) is drawn bold and red.

use crate::game::{Game, Side, Value};
use crate::search::{Node, Observer, Window};
use std::fmt::{Display, Write as _};

/// Records a search for [`DotTree::to_dot`].
#[derive(Debug)]
pub struct DotTree<'g, G: Game> {
    game: &'g G,
    nodes: Vec<Entry>,
    edges: Vec<(usize, String, Target)>,
    pruned: usize,
    stack: Vec<Frame>,
}

#[derive(Debug)]
enum Target {
    Node(usize),
    Pruned(usize),
}

#[derive(Debug, Default, Clone)]
struct Entry {
    value: Value,
    side_max: bool,
    best: Option<usize>,
}

#[derive(Debug)]
struct Frame {
    id: usize,
    value: Option<Value>,
    last_child: Option<usize>,
    best: Option<usize>,
}

impl<'g, G: Game> DotTree<'g, G> {
    /// An empty recorder for searches of `game`.
    pub fn new(game: &'g G) -> Self {
        DotTree {
            game,
            nodes: Vec::new(),
            edges: Vec::new(),
            pruned: 0,
            stack: Vec::new(),
        }
    }

    /// The number of counted states recorded.
    #[must_use]
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The recorded tree as a DOT digraph.
    #[must_use]
    pub fn to_dot(&self) -> String {
        let mut chosen = vec![false; self.nodes.len()];
        let mut at = (!self.nodes.is_empty()).then_some(0);
        while let Some(i) = at {
            chosen[i] = true;
            at = self.nodes[i].best;
        }
        let mut s = String::with_capacity(self.nodes.len() * 60);
        s.push_str("digraph search {\n");
        let _ = writeln!(
            s,
            "  // {} counted states (n nodes), {} pruned successors (p nodes)",
            self.nodes.len(),
            self.pruned
        );
        s.push_str("  node [fontname=\"Helvetica\", fontsize=10, height=0.3];\n");
        s.push_str("  edge [fontname=\"Helvetica\", fontsize=9];\n");
        for (i, e) in self.nodes.iter().enumerate() {
            let shape = if e.side_max { "box" } else { "ellipse" };
            let _ = write!(s, "  n{i} [label=\"{}\", shape={shape}", e.value);
            if chosen[i] {
                s.push_str(", color=red, penwidth=2");
            }
            s.push_str("];\n");
        }
        for k in 0..self.pruned {
            let _ = writeln!(
                s,
                "  p{k} [label=\"\", style=dashed, shape=circle, width=0.2];"
            );
        }
        for (from, mv, to) in &self.edges {
            match to {
                Target::Node(j) => {
                    let _ = write!(s, "  n{from} -> n{j} [label=\"{mv}\"");
                    if chosen[*from] && self.nodes[*from].best == Some(*j) {
                        s.push_str(", color=red, penwidth=2, fontcolor=red");
                    }
                    s.push_str("];\n");
                }
                Target::Pruned(k) => {
                    let _ = writeln!(s, "  n{from} -> p{k} [label=\"{mv}\", style=dashed];");
                }
            }
        }
        s.push_str("}\n");
        s
    }
}

impl<G: Game> Observer<G> for DotTree<'_, G>
where
    G::Move: Display,
{
    const WANTS_PRUNED: bool = true;

    fn enter(&mut self, node: &Node<'_, G>, _window: Window) {
        let id = self.nodes.len();
        self.nodes.push(Entry {
            side_max: self.game.side(node.state) == Side::Max,
            ..Entry::default()
        });
        if let Some(parent) = self.stack.last_mut() {
            parent.last_child = Some(id);
            let mv = node.mv.map_or_else(String::new, |m| m.to_string());
            self.edges.push((parent.id, mv, Target::Node(id)));
        }
        self.stack.push(Frame {
            id,
            value: None,
            last_child: None,
            best: None,
        });
    }

    fn update(&mut self, _node: &Node<'_, G>, value: Value, _window: Window, _cutoff: bool) {
        let f = self.stack.last_mut().expect("update inside a node");
        // The searches keep the first child that strictly improves the value.
        if f.value != Some(value) {
            f.value = Some(value);
            f.best = f.last_child;
        }
    }

    fn pruned(&mut self, _parent: &Node<'_, G>, mv: G::Move) {
        let f = self.stack.last().expect("pruned inside a node");
        self.edges
            .push((f.id, mv.to_string(), Target::Pruned(self.pruned)));
        self.pruned += 1;
    }

    fn leave(&mut self, _node: &Node<'_, G>, value: Value) {
        let f = self.stack.pop().expect("leave after enter");
        let e = &mut self.nodes[f.id];
        e.value = value;
        e.best = f.best;
    }
}

#[cfg(test)]
mod tests {
    // The one `crate::reversi` path of the search layer is here, in test
    // code: Reversi (layer 1, below this one) as a concrete game to draw.
    // The drawing itself is generic over `Game`.
    use super::*;
    use crate::board::{Board, Color};
    use crate::reversi::{Position, Reversi};
    use crate::search::{alphabeta_with, minimax_with, Limit};

    #[test]
    fn one_node_statement_per_counted_state() {
        let game = Reversi::WIN_LOSS;
        let p = Position {
            board: Board::from_digits("0211122112111120").unwrap(),
            to_move: Color::Black,
        };
        for ab in [false, true] {
            let mut t = DotTree::new(&game);
            let out = if ab {
                alphabeta_with(&game, &p, &Limit::NONE, &mut t)
            } else {
                minimax_with(&game, &p, &Limit::NONE, &mut t)
            };
            let dot = t.to_dot();
            let n = dot
                .lines()
                .map(str::trim_start)
                .filter(|l| {
                    l.starts_with('n') && l.as_bytes()[1].is_ascii_digit() && !l.contains("->")
                })
                .count();
            assert_eq!(n as u64, out.nodes);
            assert_eq!(t.node_count() as u64, out.nodes);
            assert!(dot.contains("color=red"));
        }
    }
}
