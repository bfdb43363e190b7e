//! Engine-vs-engine matches: engine processes, protocol clients, the referee, schedules,
//! openings, results files, records and the final report.
//!
//! Data flow: `engine_spec` (what to start) -> `process` (a child with deadlines) -> `gtp_player` /
//! `c6_player` (protocols behind the `player::Player` trait, started by `launch`) -> `game` (the referee) ->
//! `runner` (parallel games, resume, SPRT stop) -> `results` / `records_out` / `report`.

pub mod c6_player;
pub mod engine_spec;
pub mod game;
pub mod gtp_player;
pub mod launch;
pub mod opening_args;
pub mod openings;
pub mod outcome;
pub mod player;
pub mod process;
pub mod records_out;
pub mod report;
pub mod results;
pub mod runner;
pub mod schedule;
pub mod time_control;
