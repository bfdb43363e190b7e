//! Self-play games as the evaluator's trainer reads them: each game as a record (stones and
//! result) with, for every position, the search's value for the side to move where the stone
//! played from it was searched, and the root stones recorded beside it (`--children`).

use super::record::parse_contents;
use crate::line_file::read_line_file_text;
use crate::match_runner::outcome::Winner;
use crate::match_runner::results::parse_moves;
use liuzi::notation::parse_games;
use liuzi::records::{GameRecord, RecordResult};
use liuzi::rules::Point;
use std::path::Path;

/// A game and its searched values: `values[n]` is the value for the side to move of the
/// position before stone n (the stone's mover), `None` for opening and unsearched stones.
#[derive(Clone, Debug, PartialEq)]
pub struct ValuedGame {
    pub record: GameRecord,
    pub values: Vec<Option<f32>>,
    /// The recorded root stones, in stone order.
    pub siblings: Vec<Sibling>,
}

/// A recorded root stone of the position before stone `before`, and the search's value of it
/// for its mover (the side to move before it). Unless `played`, the position after it is one
/// stone off the game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sibling {
    pub before: usize,
    pub stone: Point,
    pub value: f32,
    /// The game's own stone.
    pub played: bool,
}

/// Reads the games of a `liuzi-selfplay` file (a torn last line, left by a run still writing
/// or killed, is skipped), in the order of their game index, not of the lines: a run appends
/// games as they end, so two files of the same games may hold them in different orders, and a
/// training on either must see the same list. With `below`, only the games whose index is
/// below it: the first N games of a run, whatever else the file has grown since (an error if
/// some of them are not in the file yet).
pub fn read_selfplay(path: &Path, below: Option<usize>) -> Result<Vec<ValuedGame>, String> {
    let mut text = read_line_file_text(path)?;
    if !text.ends_with('\n') {
        let complete = text.rfind('\n').map_or(0, |i| i + 1);
        text.truncate(complete);
    }
    let mut games = parse_contents(&text, path)?.games;
    games.retain(|game| below.is_none_or(|n| game.game < n));
    if let Some(n) = below.filter(|&n| games.len() < n) {
        return Err(format!(
            "{}: --selfplay-games {n} asks for games 0..{n}, but the file holds {} of them; \
             resume the run that writes it to play the rest",
            path.display(),
            games.len()
        ));
    }
    games.sort_by_key(|game| game.game);
    games
        .into_iter()
        .map(|game| {
            let stones = parse_moves(&game.moves, game.size)
                .map_err(|e| format!("{}: game {}: {e}", path.display(), game.game))?;
            if game.opening_stones + game.stones.len() != stones.len() {
                return Err(format!(
                    "{}: game {}: {} stones but {} opening stones and {} entries",
                    path.display(),
                    game.game,
                    stones.len(),
                    game.opening_stones,
                    game.stones.len()
                ));
            }
            let mut values = vec![None; game.opening_stones];
            values.extend(game.stones.iter().map(|s| s.value));
            let mut siblings = Vec::new();
            for (k, entry) in game.stones.iter().enumerate() {
                let before = game.opening_stones + k;
                for child in &entry.children {
                    let stone = parse_games(&child.stone, game.size).ok_or_else(|| {
                        format!(
                            "{}: game {}: bad child stone `{}`",
                            path.display(),
                            game.game,
                            child.stone
                        )
                    })?;
                    siblings.push(Sibling {
                        before,
                        stone,
                        value: child.value,
                        played: stone == stones[before],
                    });
                }
            }
            let result = match game.result {
                Winner::Black => RecordResult::BlackWins,
                Winner::White => RecordResult::WhiteWins,
                Winner::Draw => RecordResult::Draw,
            };
            let record = GameRecord {
                stones,
                result,
                event: Some(format!("selfplay game {}", game.game)),
                ..GameRecord::new(game.size)
            };
            Ok(ValuedGame {
                record,
                values,
                siblings,
            })
        })
        .collect()
}
