//! Integration tests of the binaries: one test binary, one module per
//! contract or subcommand, sharing the helpers of `harness`.

mod book;
mod engine;
mod games;
mod golden_search;
mod harness;
mod import;
mod lab_files;
mod layers;
mod output_files;
mod play;
mod protocols;
mod readme;
mod robust;
mod signals;
mod study;
mod tiny;
mod traced_game;
mod train;
mod treblecross;
