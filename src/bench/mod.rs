//! Whole-program benchmarks: the engine driven through a protocol front-end the way a
//! controller drives it (`liuzi bench-ruler`). Benchmarks of one layer live in that layer
//! (`search::bench`, `tactics::bench`).
//!
//! The top of the layer stack: uses `protocol`, and nothing below uses it.

mod ruler;
pub mod ruler_storm;
pub mod search;

pub use ruler::{ruler_storm_input, run_ruler_bench, RulerReport, STORM_GAME_STONES};
