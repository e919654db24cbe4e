//! The search explorer's trees: a counted minimax or alpha-beta search run
//! with an [`Observer`] that records every counted state compactly, so the
//! page can open any node of a 224,821-node tree on demand and replay the
//! search in visit order.
//!
//! Nodes are numbered in the order the search entered them (the root is 0),
//! which is depth-first preorder: a node's first child is the next number
//! and its next sibling comes right after its subtree. Each node keeps 24
//! bytes (parent, subtree size, value, window on entry, move, flags); boards
//! are recomputed from the root along the path when asked for.
//!
//! The search is the library's own [`minimax_with`] / [`alphabeta_with`] on
//! [`ExplorerGame`], which plays exactly as [`Reversi`] in natural order (so
//! the value and count are the Tiny contract's: -1 and 224,821 for minimax
//! from the 4x4 start) and in best order sorts each node's moves best-first
//! by a static key. The same game stops a search early (every node becomes a
//! leaf) when the caller's stop flag is set, the node cap is reached or the
//! deadline passes; a stopped search yields no tree.

use crate::board::Square;
use crate::game::{Game, Side, Value, INFINITY};
use crate::reversi::{Move, Position, Reversi};
use crate::search::{alphabeta_with, minimax_with, Algorithm, Limit, Node, Observer, Window};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

mod game;
use game::BoundEval;
pub use game::{Caps, ExplorerGame, MoveOrder, SearchSpec, Stopped};

/// The move code of the root (no move led there).
const ROOT_MOVE: u8 = u8::MAX;
/// The move code of a pass (squares are 0..=63).
const PASS_MOVE: u8 = 64;

const LEAF: u8 = 1;
const CHOSEN: u8 = 2;
const CUTOFF: u8 = 4;

/// One counted state, 24 bytes.
#[derive(Clone, Copy, Debug)]
struct Rec {
    parent: u32,
    /// Nodes in the subtree, this one included.
    size: u32,
    value: Value,
    alpha: Value,
    beta: Value,
    mv: u8,
    flags: u8,
}

fn move_code(mv: Option<Move>) -> u8 {
    match mv {
        None => ROOT_MOVE,
        Some(Move::Pass) => PASS_MOVE,
        Some(Move::Place(sq)) => sq.0,
    }
}

fn code_move(code: u8) -> Option<Move> {
    match code {
        ROOT_MOVE => None,
        PASS_MOVE => Some(Move::Pass),
        sq => Some(Move::Place(Square(sq))),
    }
}

/// A finished search with every counted state.
#[derive(Debug)]
pub struct Tree {
    spec: SearchSpec,
    rules: Reversi,
    recs: Vec<Rec>,
    value: Value,
    best: Option<Move>,
    nodes: u64,
    /// The cutoffs in replay order: (the last node of the cut node's
    /// subtree, the cut node), by that last node, the deepest cut first.
    cuts: Vec<(u32, u32)>,
}

/// One event of the replay: the search entering a node (counted), or a
/// node cutting off after its last searched child (not counted: the
/// count stays the contract's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The search entered this node.
    Enter(u32),
    /// This node's window closed (alpha >= beta) and its remaining moves
    /// were pruned.
    Cutoff(u32),
}

/// The moment of a cutoff: the node, its window and the value that closed
/// it, and the moves never searched.
#[derive(Clone, Debug)]
pub struct Cutoff {
    /// The node that cut off.
    pub node: NodeView,
    /// Whether MAX (the first player, dark) is to move there.
    pub max: bool,
    /// The window at the cut (the entry window narrowed by its children).
    pub window: Window,
    /// The value of its searched children that closed the window.
    pub value: Value,
    /// The moves pruned, in the search's order.
    pub pruned: Vec<Move>,
}

/// How the page sees one node of a [`Tree`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeView {
    /// The node's number: its place in the visit order (the root is 0).
    pub index: u32,
    /// The move that led here (`None` at the root).
    pub mv: Option<Move>,
    /// The node's final value (MAX's point of view).
    pub value: Value,
    /// The alpha-beta window on entry (minimax: always open).
    pub window: Window,
    /// Whether the node is a leaf (game over, or at the depth bound).
    pub leaf: bool,
    /// Whether it is the first best child of its parent.
    pub chosen: bool,
    /// Whether alpha-beta cut off before its last move (some moves were
    /// never searched).
    pub cutoff: bool,
    /// Counted states in its subtree, itself included.
    pub size: u32,
    /// Plies from the root.
    pub ply: u32,
}

/// A node with its position, children and the moves alpha-beta pruned.
#[derive(Clone, Debug)]
pub struct NodeDetail {
    /// The node itself.
    pub node: NodeView,
    /// Its position.
    pub position: Position,
    /// Its searched children in the order searched.
    pub children: Vec<NodeView>,
    /// The moves that were never searched because of a cut-off, in order.
    pub pruned: Vec<Move>,
    /// Whether the node lies on the chosen line (first best moves from the root).
    pub on_chosen_line: bool,
}

/// What a child of a node on the path looked like at one step of the replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChildState {
    /// Its search has finished with this value.
    Done(Value),
    /// It is on the path to the current node.
    Current,
    /// Not entered yet.
    Waiting,
    /// Never searched (pruned by a cut-off that has already happened).
    Pruned,
}

/// A node on the path from the root to the current node of a replay step.
#[derive(Clone, Debug)]
pub struct StepFrame {
    /// The node (its final value is not shown until its search is over).
    pub node: NodeView,
    /// The best value from the children finished so far (`None` if none).
    pub value_so_far: Option<Value>,
    /// The window now (the entry window narrowed by the finished children).
    pub window_now: Window,
    /// Whether MAX (the first player, dark) is to move at the node.
    pub max: bool,
    /// Every move of the node, in the search's order, with its state.
    pub children: Vec<(Move, Option<u32>, ChildState)>,
}

/// The search as it stood when it entered node `step`.
#[derive(Clone, Debug)]
pub struct Step {
    /// The node entered at this step.
    pub step: u32,
    /// The counter: states explored so far (`step + 1`).
    pub count: u64,
    /// The path from the root to the node (the node last).
    pub path: Vec<StepFrame>,
    /// The node's position.
    pub position: Position,
}

/// A node being searched: its number, its value so far, its last child
/// entered and its first best child so far.
#[derive(Clone, Copy, Debug)]
struct Open {
    index: u32,
    value: Option<Value>,
    last_child: Option<u32>,
    best: Option<u32>,
}

struct Recorder<'s> {
    recs: Vec<Rec>,
    stack: Vec<Open>,
    stop: &'s Cell<bool>,
    cancel: &'s AtomicBool,
    caps: Caps,
    stopped: Option<Stopped>,
}

impl Recorder<'_> {
    fn halt(&mut self, why: Stopped) {
        if self.stopped.is_none() {
            self.stopped = Some(why);
        }
        self.stop.set(true);
    }
}

impl Observer<ExplorerGame<'_>> for Recorder<'_> {
    const WANTS_PRUNED: bool = true;

    fn enter(&mut self, node: &Node<'_, ExplorerGame<'_>>, window: Window) {
        let index = self.recs.len() as u32;
        let parent = match self.stack.last_mut() {
            Some(top) => {
                top.last_child = Some(index);
                top.index
            }
            None => u32::MAX,
        };
        self.recs.push(Rec {
            parent,
            size: 1,
            value: 0,
            alpha: window.alpha,
            beta: window.beta,
            mv: move_code(node.mv),
            flags: 0,
        });
        self.stack.push(Open {
            index,
            value: None,
            last_child: None,
            best: None,
        });
        let n = self.recs.len() as u64;
        if n >= self.caps.max_nodes {
            self.halt(Stopped::TooManyNodes(self.caps.max_nodes));
        } else if n.is_multiple_of(1024) {
            if self.cancel.load(Ordering::Relaxed) {
                self.halt(Stopped::Cancelled);
            } else if Instant::now() >= self.caps.deadline {
                self.halt(Stopped::OutOfTime);
            }
        }
    }

    fn leaf(&mut self, _node: &Node<'_, ExplorerGame<'_>>, _value: Value, _window: Window) {
        if let Some(top) = self.stack.last() {
            self.recs[top.index as usize].flags |= LEAF;
        }
    }

    fn update(
        &mut self,
        _node: &Node<'_, ExplorerGame<'_>>,
        value: Value,
        _window: Window,
        _cutoff: bool,
    ) {
        if let Some(top) = self.stack.last_mut() {
            // The searches keep the first child that strictly improves.
            if top.value != Some(value) {
                top.value = Some(value);
                top.best = top.last_child;
            }
        }
    }

    fn pruned(&mut self, _parent: &Node<'_, ExplorerGame<'_>>, _mv: Move) {
        if let Some(top) = self.stack.last() {
            self.recs[top.index as usize].flags |= CUTOFF;
        }
    }

    fn leave(&mut self, _node: &Node<'_, ExplorerGame<'_>>, value: Value) {
        if let Some(Open { index: i, best, .. }) = self.stack.pop() {
            let len = self.recs.len() as u32;
            let rec = &mut self.recs[i as usize];
            rec.value = value;
            rec.size = len - i;
            if let Some(b) = best {
                self.recs[b as usize].flags |= CHOSEN;
            }
        }
    }
}

/// Runs the search of `spec` within `caps`, stopping early once `cancel`
/// is set, and returns its tree.
///
/// # Errors
/// [`Stopped`] if the cap, the deadline or `cancel` stopped it.
pub fn search(spec: SearchSpec, caps: Caps, cancel: &AtomicBool) -> Result<Tree, Stopped> {
    let rules = if spec.depth.is_some() {
        Reversi::DISC_DIFFERENCE
    } else {
        Reversi::WIN_LOSS
    };
    let stop = Cell::new(false);
    // A depth-bounded search evaluates: its finished games are scored as
    // the play page scores them. (Without a bound, the contracts' win/loss.)
    let game =
        ExplorerGame::new(rules, spec.order, &stop).with_standard_scores(spec.depth.is_some());
    let limit = Limit {
        depth: spec.depth,
        eval: BoundEval(spec.eval),
    };
    let mut rec = Recorder {
        recs: Vec::new(),
        stack: Vec::new(),
        stop: &stop,
        cancel,
        caps,
        stopped: None,
    };
    let out = match spec.algorithm {
        Algorithm::Minimax => minimax_with(&game, &spec.root, &limit, &mut rec),
        Algorithm::AlphaBeta => alphabeta_with(&game, &spec.root, &limit, &mut rec),
    };
    if let Some(why) = rec.stopped {
        return Err(why);
    }
    let mut recs = rec.recs;
    recs.shrink_to_fit();
    let mut cuts: Vec<(u32, u32)> = recs
        .iter()
        .enumerate()
        .filter(|(_, r)| r.flags & CUTOFF != 0)
        .map(|(i, r)| (i as u32 + r.size - 1, i as u32))
        .collect();
    cuts.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    cuts.shrink_to_fit();
    Ok(Tree {
        cuts,
        spec,
        rules,
        recs,
        value: out.value,
        best: out.best,
        nodes: out.nodes,
    })
}

fn window_text(v: Value) -> String {
    if v == INFINITY {
        "+inf".to_string()
    } else if v <= -INFINITY {
        "-inf".to_string()
    } else {
        v.to_string()
    }
}

/// A window bound as the page prints it (`-inf`, `+inf` or the number).
#[must_use]
pub fn bound_text(v: Value) -> String {
    window_text(v)
}

impl Tree {
    /// What was searched.
    #[must_use]
    pub fn spec(&self) -> &SearchSpec {
        &self.spec
    }

    /// The root's value, as `reversi 300/500` prints it.
    #[must_use]
    pub fn value(&self) -> Value {
        self.value
    }

    /// The first best move at the root (`None` at a leaf root).
    #[must_use]
    pub fn best(&self) -> Option<Move> {
        self.best
    }

    /// The number of states explored, as `reversi 300/500` prints it.
    #[must_use]
    pub fn count(&self) -> u64 {
        self.nodes
    }

    /// The number of nodes stored (equal to [`Tree::count`]).
    #[must_use]
    pub fn len(&self) -> usize {
        self.recs.len()
    }

    /// Whether the tree has no node (never: the root is always counted).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.recs.is_empty()
    }

    /// The bytes the tree keeps for its nodes.
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        self.recs.capacity() * std::mem::size_of::<Rec>()
            + self.cuts.capacity() * std::mem::size_of::<(u32, u32)>()
    }

    /// The number of replay events: a node entered per counted state and
    /// a cutoff per node that cut off.
    #[must_use]
    pub fn events(&self) -> usize {
        self.recs.len() + self.cuts.len()
    }

    /// The event number at which the search entered node `k`.
    #[must_use]
    pub fn enter_event(&self, k: u32) -> u32 {
        k + self.cuts.partition_point(|c| c.0 < k) as u32
    }

    /// Replay event `e` (0-based); `None` past the last.
    #[must_use]
    pub fn event(&self, e: u32) -> Option<Event> {
        if e as usize >= self.events() {
            return None;
        }
        // The last node entered at or before event e.
        let (mut lo, mut hi) = (0u32, self.recs.len() as u32 - 1);
        while lo < hi {
            let mid = lo + (hi - lo).div_ceil(2);
            if self.enter_event(mid) <= e {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        let at = self.enter_event(lo);
        if at == e {
            return Some(Event::Enter(lo));
        }
        let first = self.cuts.partition_point(|c| c.0 < lo);
        self.cuts
            .get(first + (e - at - 1) as usize)
            .map(|c| Event::Cutoff(c.1))
    }

    /// The event numbers of the last cutoff before event `e` and of the
    /// first after it (`None` where there is none): the replay's jumps.
    #[must_use]
    pub fn cutoffs_around(&self, e: u32) -> (Option<u32>, Option<u32>) {
        // The i-th cutoff (in replay order) is event cuts[i].0 + i + 1:
        // after its last node's entry and the i cutoffs before it.
        let event = |i: usize| self.cuts[i].0 + i as u32 + 1;
        let (mut lo, mut hi) = (0, self.cuts.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if event(mid) <= e {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        let next = (lo < self.cuts.len()).then(|| event(lo));
        let before = if lo > 0 && event(lo - 1) == e {
            lo - 1
        } else {
            lo
        };
        let prev = before.checked_sub(1).map(event);
        (prev, next)
    }

    /// The replay right after node `k` cut off: the path to it with every
    /// searched child finished, and what closed its window.
    #[must_use]
    pub fn cutoff(&self, k: u32) -> Option<(Step, Cutoff)> {
        let r = self.rec(k)?;
        if r.flags & CUTOFF == 0 {
            return None;
        }
        let last = k + r.size - 1;
        let step = self.replay(k, last + 1, last);
        let frame = step.path.last()?;
        let pruned = frame
            .children
            .iter()
            .filter(|c| c.2 == ChildState::Pruned)
            .map(|c| c.0)
            .collect();
        let cut = Cutoff {
            node: frame.node.clone(),
            max: frame.max,
            window: frame.window_now,
            value: frame.value_so_far?,
            pruned,
        };
        Some((step, cut))
    }

    fn rec(&self, i: u32) -> Option<&Rec> {
        self.recs.get(i as usize)
    }

    fn children_of(&self, i: u32) -> Vec<u32> {
        let mut out = Vec::new();
        let Some(r) = self.rec(i) else { return out };
        let end = i + r.size;
        let mut c = i + 1;
        while c < end {
            out.push(c);
            c += self.recs[c as usize].size;
        }
        out
    }

    /// The nodes from the root to `i` (both included).
    fn path_to(&self, i: u32) -> Vec<u32> {
        let mut path = vec![i];
        let mut at = i;
        while let Some(r) = self.rec(at) {
            if r.parent == u32::MAX {
                break;
            }
            at = r.parent;
            path.push(at);
        }
        path.reverse();
        path
    }

    fn view(&self, i: u32, ply: u32) -> NodeView {
        let r = &self.recs[i as usize];
        NodeView {
            index: i,
            mv: code_move(r.mv),
            value: r.value,
            window: Window {
                alpha: r.alpha,
                beta: r.beta,
            },
            leaf: r.flags & LEAF != 0,
            chosen: r.flags & CHOSEN != 0,
            cutoff: r.flags & CUTOFF != 0,
            size: r.size,
            ply,
        }
    }

    fn position_along(&self, path: &[u32]) -> Position {
        let mut p = self.spec.root;
        for &i in &path[1..] {
            if let Some(mv) = code_move(self.recs[i as usize].mv) {
                p = self.rules.play(&p, mv);
            }
        }
        p
    }

    fn game_moves(&self, p: &Position) -> Vec<Move> {
        let stop = Cell::new(false);
        ExplorerGame::new(self.rules, self.spec.order, &stop).ordered_moves(p)
    }

    /// The chosen line: node numbers from the root along first best children.
    #[must_use]
    pub fn chosen_line(&self) -> Vec<u32> {
        let mut line = vec![0];
        let mut at = 0;
        while let Some(c) = self
            .children_of(at)
            .into_iter()
            .find(|&c| self.recs[c as usize].flags & CHOSEN != 0)
        {
            line.push(c);
            at = c;
        }
        line
    }

    /// Node `i` with its position, children and pruned moves; `None` if
    /// there is no such node.
    #[must_use]
    pub fn detail(&self, i: u32) -> Option<NodeDetail> {
        self.rec(i)?;
        let path = self.path_to(i);
        let ply = path.len() as u32 - 1;
        let position = self.position_along(&path);
        let children: Vec<NodeView> = self
            .children_of(i)
            .into_iter()
            .map(|c| self.view(c, ply + 1))
            .collect();
        let node = self.view(i, ply);
        let pruned = if node.cutoff {
            self.game_moves(&position)
                .into_iter()
                .skip(children.len())
                .collect()
        } else {
            Vec::new()
        };
        let on_chosen_line = path[1..]
            .iter()
            .all(|&n| self.recs[n as usize].flags & CHOSEN != 0);
        Some(NodeDetail {
            node,
            position,
            children,
            pruned,
            on_chosen_line,
        })
    }

    /// The replay of the search at the moment it entered node `step`;
    /// `None` past the last node.
    #[must_use]
    pub fn step(&self, step: u32) -> Option<Step> {
        self.rec(step)?;
        Some(self.replay(step, step, step))
    }

    /// The replay along the path to node `end`, where the subtrees ending
    /// before node `before` are finished and `entered` nodes were counted.
    fn replay(&self, end: u32, before: u32, entered: u32) -> Step {
        let step = before;
        let path = self.path_to(end);
        let mut frames = Vec::with_capacity(path.len());
        let mut p = self.spec.root;
        for (ply, &i) in path.iter().enumerate() {
            if let Some(mv) = code_move(self.recs[i as usize].mv) {
                p = self.rules.play(&p, mv);
            }
            let node = self.view(i, ply as u32);
            let side = self.rules.side(&p);
            let mut window = node.window;
            let mut so_far: Option<Value> = None;
            let searched = self.children_of(i);
            let moves = if node.leaf {
                Vec::new()
            } else {
                self.game_moves(&p)
            };
            let mut children = Vec::with_capacity(moves.len());
            let mut all_done = true;
            for (k, &mv) in moves.iter().enumerate() {
                match searched.get(k) {
                    Some(&c) if c + self.recs[c as usize].size <= step => {
                        let v = self.recs[c as usize].value;
                        so_far = Some(match (side, so_far) {
                            (_, None) => v,
                            (Side::Max, Some(b)) => b.max(v),
                            (Side::Min, Some(b)) => b.min(v),
                        });
                        if let Some(b) = so_far {
                            match side {
                                Side::Max => window.alpha = window.alpha.max(b),
                                Side::Min => window.beta = window.beta.min(b),
                            }
                        }
                        children.push((mv, Some(c), ChildState::Done(v)));
                    }
                    Some(&c) if c <= step => {
                        all_done = false;
                        children.push((mv, Some(c), ChildState::Current));
                    }
                    Some(&c) => {
                        all_done = false;
                        children.push((mv, Some(c), ChildState::Waiting));
                    }
                    None if all_done && node.cutoff => {
                        children.push((mv, None, ChildState::Pruned));
                    }
                    None => children.push((mv, None, ChildState::Waiting)),
                }
            }
            frames.push(StepFrame {
                node,
                value_so_far: so_far,
                window_now: window,
                max: side == Side::Max,
                children,
            });
        }
        Step {
            step: end,
            count: u64::from(entered) + 1,
            path: frames,
            position: p,
        }
    }
}

#[cfg(test)]
mod tests;
