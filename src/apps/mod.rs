//! Applications built on the searches and the engine: the web server of
//! `reversi serve` ([`serve`]).

#[cfg(feature = "serve")]
pub mod serve;
