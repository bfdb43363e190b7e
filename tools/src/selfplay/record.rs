//! The self-play file's lines (JSON Lines): a header naming the settings the games were played
//! with, then one line a finished game with every stone the engine placed, its mover and how it
//! was chosen, and for searched stones the search's value of the position for the mover.

use crate::match_runner::outcome::Winner;
use liuzi::rules::Color;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Version of the line format, in the header.
pub const FORMAT: u32 = 1;

/// The first line of a file: the settings every game of the file was played with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// Always [`FORMAT`]; the key also tells a header from a game.
    pub selfplay_format: u32,
    /// Setting name to value (see `selfplay::settings`).
    pub settings: BTreeMap<String, String>,
}

/// The side that placed a stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mover {
    #[serde(rename = "B")]
    Black,
    #[serde(rename = "W")]
    White,
}

impl From<Color> for Mover {
    fn from(color: Color) -> Mover {
        match color {
            Color::Black => Mover::Black,
            Color::White => Mover::White,
        }
    }
}

/// How the engine chose a stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum How {
    /// By the search: the entry carries its value and visits.
    Searched,
    /// Black's opening stone on an empty board: the centre.
    Centre,
    /// From the opening book.
    Book,
    /// It completes a six (or a sure one this turn).
    Win,
    /// The only stone that meets the opponent's six-threat.
    Forced,
    /// It starts a proven threat sequence.
    Proven,
}

/// One stone the engine placed (opening stones have none).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoneEntry {
    pub mover: Mover,
    pub how: How,
    /// Searched stones: the root's value for the mover, the visit-weighted mean of its
    /// children's win rates (draws count half).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f32>,
    /// Searched stones: the root's visits (playouts, with those a reused tree brought).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visits: Option<u32>,
    /// Searched stones, with `liuzi-selfplay --children`: the root's most visited stones,
    /// played or not, each with its own visits and value for the mover (positions one stone off
    /// the game that the search compared, for the evaluator's trainer).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<ChildEntry>,
}

/// One of a searched position's root stones.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChildEntry {
    /// The stone, in `.games` notation (as in the game's moves).
    pub stone: String,
    pub visits: u32,
    /// Its win rate for the mover, the side to move at the root.
    pub value: f32,
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameEntry {
    /// The game's index in the run: with the run's seed it fixes the game.
    pub game: usize,
    /// The engine's seed in this game (from the run's seed and the index).
    pub seed: u64,
    pub size: usize,
    /// How many of the stones were the opening.
    pub opening_stones: usize,
    /// Every stone in `.games` notation: turns separated by spaces, a turn's stones by `-`.
    pub moves: String,
    pub result: Winner,
    /// `six` or `full_board`.
    pub reason: String,
    /// The engine's stones, in order: entry k is stone `opening_stones + k`.
    pub stones: Vec<StoneEntry>,
}

/// A line of the file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Line {
    Header(Header),
    Game(GameEntry),
}

/// A file's lines read: its headers (a file made by joining files has several) and games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Contents {
    pub headers: Vec<Header>,
    pub games: Vec<GameEntry>,
}

/// Parses a file's complete lines; an unreadable line is an error naming the file and line.
pub fn parse_contents(text: &str, path: &Path) -> Result<Contents, String> {
    let mut contents = Contents::default();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Line>(line) {
            Ok(Line::Header(h)) => contents.headers.push(h),
            Ok(Line::Game(g)) => contents.games.push(g),
            Err(e) => {
                return Err(format!(
                    "{}:{}: not a self-play line: {e}",
                    path.display(),
                    n + 1
                ))
            }
        }
    }
    Ok(contents)
}
