//! The canonical `.games` lines of the shared data (see ../shared/data/README.md):
//! `result<TAB>moves`, result `B`/`W`/`D`/`?`, stones like `j10` (a-s with i, row 1 at the
//! bottom), stones of a turn joined by `-`, turns separated by spaces. Always 19x19.
//!
//! Black's first turn has one stone, every later turn two; only a stone that completes a six
//! may stand alone in the last turn. A second stone after a first stone that made six is
//! dropped (LittleGolem records one; see [`super`]).

use super::{GameRecord, RecordError, RecordResult};
use crate::notation;

/// The board size of every `.games` line.
pub const SIZE: usize = 19;

/// Parses and checks one line (without its newline; a trailing `\r` is tolerated).
pub fn parse_line(line: &str) -> Result<GameRecord, String> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let (result, moves) = line.split_once('\t').ok_or("expected `result<TAB>moves`")?;
    let result = match result {
        "B" => RecordResult::BlackWins,
        "W" => RecordResult::WhiteWins,
        "D" => RecordResult::Draw,
        "?" => RecordResult::Unknown,
        other => return Err(format!("result `{other}` is not B, W, D or ?")),
    };
    let mut record = GameRecord {
        result,
        ..GameRecord::new(SIZE)
    };
    let turns: Vec<&str> = moves.split(' ').filter(|t| !t.is_empty()).collect();
    for (t, turn) in turns.iter().enumerate() {
        let stones: Vec<&str> = turn.split('-').collect();
        let expected = if t == 0 { 1 } else { 2 };
        let last = t + 1 == turns.len();
        if stones.len() != expected && !(last && stones.len() == 1) {
            return Err(format!(
                "turn {} `{turn}` has {} stones, expected {expected}",
                t + 1,
                stones.len()
            ));
        }
        for text in stones {
            let p = notation::parse_games(text, SIZE)
                .ok_or_else(|| format!("turn {} has a bad point `{text}`", t + 1))?;
            record.stones.push(p);
        }
    }
    let (board, _) = record.replay_dropping_moot_stone().map_err(|e| e.problem)?;
    record.check_result(&board)?;
    let ends_on_single = turns.len() > 1 && !turns[turns.len() - 1].contains('-');
    if ends_on_single && !board.is_over() {
        return Err("the last turn has one stone but it makes no six".to_string());
    }
    Ok(record)
}

/// Formats a record as one `.games` line (no newline).
pub fn format_line(record: &GameRecord) -> String {
    let mut line = String::with_capacity(8 + record.stones.len() * 4);
    line.push(match record.result {
        RecordResult::BlackWins => 'B',
        RecordResult::WhiteWins => 'W',
        RecordResult::Draw => 'D',
        RecordResult::Unknown => '?',
    });
    line.push('\t');
    for (t, turn) in record.turns().enumerate() {
        if t > 0 {
            line.push(' ');
        }
        for (i, &p) in turn.iter().enumerate() {
            if i > 0 {
                line.push('-');
            }
            line.push_str(&notation::format_games(p));
        }
    }
    line
}

/// Every line with its number (from 1) and what it parsed to; empty lines are skipped.
/// For tools that want to skip bad lines rather than stop.
pub fn parse_lines(text: &str) -> impl Iterator<Item = (usize, Result<GameRecord, String>)> + '_ {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| (i + 1, parse_line(line)))
}

/// Every game of a `.games` text; the first bad line is an error naming the line.
pub fn read_str(text: &str) -> Result<Vec<GameRecord>, RecordError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    parse_lines(text)
        .map(|(n, r)| r.map_err(|e| RecordError::new(e).at_line(n)))
        .collect()
}

/// Every game of a `.games` file.
pub fn read_file(path: &std::path::Path) -> Result<Vec<GameRecord>, RecordError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| RecordError::new(format!("cannot read: {e}")).in_file(path))?;
    read_str(&text).map_err(|e| e.in_file(path))
}
