//! How many points of the `strong` evaluation make a disc: the scale
//! `apps::analysis::EVAL_PER_DISC` divides by. Positions with 20-22 empty
//! squares from games of a depth-2 search (a fifth of the moves random);
//! each is searched to depth 4 and solved exactly; the least-squares scale
//! and the mean absolute error of a few scales are printed.
//!
//! `cargo run --release --example eval_scale [POSITIONS]` (default 120).

use reversi::board::Color;
use reversi::engine::iterative::{IterativeSearch, MoveOrder};
use reversi::engine::{EndgameSolver, RelativePosition, Scoring};
use reversi::eval::Heuristic;
use reversi::game::Game;
use reversi::reversi::{Move, Position, Reversi};
use reversi::rng::Rng;

fn main() {
    let count: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(120);
    let game = Reversi::DISC_DIFFERENCE;
    let search = IterativeSearch {
        order: MoveOrder::Best,
        prune: true,
        eval: Heuristic::Strong,
    };
    let mut rng = Rng::new(1);
    let mut solver = EndgameSolver::with_table_bits(Scoring::Standard, 22);
    let mut data: Vec<(f64, f64)> = Vec::new();
    while data.len() < count {
        let mut p = Position::start(8);
        let stop_at = 20 + rng.below(3) as u32;
        while p.board.empty().count_ones() > stop_at && !game.is_terminal(&p) {
            let moves: Vec<Move> = game.moves(&p).collect();
            let mv = match search.fixed(&p, 2).best {
                Some(best) if rng.below(10) >= 2 => best,
                _ => *rng.pick(&moves),
            };
            p = game.play(&p, mv);
        }
        if game.is_terminal(&p) || p.board.moves(p.to_move) == 0 {
            continue;
        }
        let v = f64::from(search.fixed(&p, 4).value);
        let estimate = if p.to_move == Color::Black { v } else { -v };
        let exact = solver
            .solve(&RelativePosition::from_board(&p.board, p.to_move))
            .score;
        data.push((estimate, exact.discs().0));
    }
    let sxy: f64 = data.iter().map(|(e, x)| e * x).sum();
    let sxx: f64 = data.iter().map(|(e, _)| e * e).sum();
    let fitted = sxx / sxy;
    for scale in [4.0, 6.0, fitted, 8.0, 10.0, 12.0] {
        let mae = data.iter().map(|(e, x)| (e / scale - x).abs()).sum::<f64>() / data.len() as f64;
        println!("{scale:5.2} points per disc: mean absolute error {mae:.2} discs");
    }
    println!(
        "{} positions; least squares: {fitted:.2} points per disc",
        data.len()
    );
}
