//! Engine-vs-engine matches: engine processes, protocol clients, the referee, schedules,
//! openings, results files and the final report.

pub mod c6_player;
pub mod engine_spec;
pub mod game;
pub mod gtp_player;
pub mod outcome;
pub mod player;
pub mod process;
pub mod time_control;
