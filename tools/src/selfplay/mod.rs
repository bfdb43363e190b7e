//! The self-play generator (`liuzi-selfplay`): the engine against itself in-process at a fixed
//! playout count a stone, both colours, one search thread a game, each game reproducible from
//! the run's seed and its index; every searched stone's value recorded, for the evaluator's
//! trainer to learn from (`liuzi-train-eval --selfplay`). Resumable: the games file is the
//! run's state.
//!
//! Data flow: `settings` (what the games depend on) -> `runner` (the file, resume, threads) ->
//! `play` (one game) -> `record` (the lines) -> `training` (the trainer's reading of them).

pub mod play;
pub mod record;
pub mod runner;
pub mod settings;
pub mod training;

#[cfg(test)]
mod tests;
