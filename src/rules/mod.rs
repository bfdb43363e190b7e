//! Connect6 rules: the board, stones, turn stages, win detection and the Zobrist hash.
//!
//! Knows nothing of patterns, search or protocols. Everything above builds on [`Board`].

mod board;
mod coord;
mod zobrist;

pub use board::{Board, GameResult, PlayError, Stage, DIRECTIONS, MAX_SIZE, MIN_SIZE, WIN_LENGTH};
pub use coord::{Color, Point};
pub use zobrist::stone_key;
