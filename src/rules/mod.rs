//! Connect6 rules: the board, stones, turn stages, win detection and the Zobrist hash.
//!
//! Knows nothing of patterns, search or protocols. Everything above builds on [`Board`].

mod board;
mod coord;
mod zobrist;

pub use board::{Board, GameResult, PlayError, Stage, DIRECTIONS, WIN_LENGTH};
pub use coord::{Color, Point, MAX_SIZE, MIN_SIZE};
pub use zobrist::stone_key;
