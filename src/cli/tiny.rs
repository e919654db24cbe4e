//! The Reversi Tiny contract: `reversi FLAG PLAYER BOARD`; the computation is
//! [`reversi::apps::tiny`].

use anyhow::Result;
use reversi::apps::tiny::Request;
use reversi::kit::{usage, write_stdout};

/// Parses `FLAG PLAYER BOARD` and prints what FLAG asks for.
pub fn run(args: &[String]) -> Result<()> {
    let [flag, player, board] = args else {
        return usage(format!(
            "expected 3 arguments FLAG PLAYER BOARD, got {}: {} (see `reversi --help`)",
            args.len(),
            args.iter()
                .map(|a| format!("{a:?}"))
                .collect::<Vec<_>>()
                .join(" ")
        ));
    };
    let request =
        Request::parse(flag, player, board).map_err(|e| reversi::kit::UsageError(e.to_string()))?;
    if let Some(warning) = request.slow_search_warning() {
        eprintln!("warning: {warning}");
    }
    write_stdout(&request.answer())
}
