//! The openings' command-line options, shared by `liuzi-match` and `liuzi-selfplay`: a record
//! file's first turns, random stones near the centre, or the empty board.

use super::openings::OpeningSource;
use std::path::PathBuf;

#[derive(clap::Args, Clone, Debug, PartialEq)]
pub struct OpeningArgs {
    /// Openings from a record file (.games, SGF or CCGC); without it or --random-openings games
    /// start on the empty board.
    #[arg(long, value_name = "FILE", conflicts_with = "random_openings")]
    pub openings: Option<PathBuf>,
    /// Generate random openings near the centre (seeded by --seed).
    #[arg(long)]
    pub random_openings: bool,
    /// Turns of each opening (B, WW, BB, ...); file default: the whole game, random default: 3.
    #[arg(long, value_name = "N")]
    pub opening_turns: Option<usize>,
    /// Random openings: stones within this Chebyshev distance of the centre.
    #[arg(long, default_value_t = 3, value_name = "R")]
    pub opening_radius: usize,
    /// Shuffle file openings (with --seed) instead of using them in file order.
    #[arg(long)]
    pub shuffle_openings: bool,
}

/// Turns of a random opening unless --opening-turns says otherwise.
const RANDOM_TURNS: usize = 3;

impl OpeningArgs {
    /// Where the openings come from; `seed` shuffles a file's or draws the random ones.
    pub fn source(&self, seed: u64) -> OpeningSource {
        if let Some(path) = &self.openings {
            OpeningSource::File {
                path: path.clone(),
                turns: self.opening_turns,
                shuffle_seed: self.shuffle_openings.then_some(seed),
            }
        } else if self.random_openings {
            OpeningSource::Random {
                turns: self.opening_turns.unwrap_or(RANDOM_TURNS),
                radius: self.opening_radius,
                seed,
            }
        } else {
            OpeningSource::Empty
        }
    }

    /// The openings in words, the file by its name (a run resumed from another folder names
    /// the same file alike): `file x.games, 2 turns, shuffled`.
    pub fn describe(&self) -> String {
        match self.source(0) {
            OpeningSource::File { path, turns, .. } => {
                let name = path.file_name().map_or_else(
                    || path.display().to_string(),
                    |n| n.to_string_lossy().into(),
                );
                let turns = turns.map_or("whole games".to_string(), |t| format!("{t} turns"));
                let order = match self.shuffle_openings {
                    true => "shuffled",
                    false => "in file order",
                };
                format!("file {name}, {turns}, {order}")
            }
            OpeningSource::Random { turns, radius, .. } => {
                format!("random, {turns} turns, radius {radius}")
            }
            OpeningSource::Empty => "empty board".to_string(),
        }
    }
}
