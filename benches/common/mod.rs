//! What the benches share.

/// The levels named on the command line (`cargo bench --bench NAME --
/// LEVEL ...`; other arguments, such as cargo's `--bench`, are skipped),
/// or `default` when none is.
pub fn levels_from_args(default: &[u32]) -> Vec<u32> {
    let levels: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    if levels.is_empty() {
        default.to_vec()
    } else {
        levels
    }
}
