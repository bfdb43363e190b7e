//! Liuzi (六子): a Connect6 engine.
//!
//! The modules are layered, each importing only the layers below it, from `artifact` (checked
//! files) and `rules` up through the move model, the tactics and the searches to the engine,
//! the front-ends and `cli`. The order is written once, as the `LAYERS` table of
//! `tests/layout.rs`, which checks every import against it (and that no two files import each
//! other); docs/design.md, the layer table, explains it.

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
