//! Liuzi (六子): a Connect6 engine.
//!
//! Layers, each depending only on those before it:
//! `rules` -> `patterns` -> `policy` -> (`tactics`, `eval`) -> `search` -> `engine` -> `protocol`
//! -> `bench` (whole-program benchmarks through a front-end) -> `cli` (the programs' start-up).
//! `notation`, `records` and `config` sit beside them and depend only on `rules`; `artifact`
//! (the checked file format of the weights and the evaluator) depends on nothing.

pub mod artifact;
pub mod bench;
pub mod book;
#[cfg(feature = "cli")]
pub mod cli;
pub mod config;
pub mod engine;
pub mod eval;
pub mod math;
pub mod notation;
pub mod patterns;
pub mod policy;
pub mod protocol;
pub mod records;
pub mod rules;
pub mod search;
pub mod tactics;
