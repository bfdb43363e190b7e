//! The regression suite's text format (src/tactics/vcdt.txt): one position a line,
//!
//! ```text
//! id | to-move | expect | stones | moves
//! ```
//!
//! * `to-move`: `b` or `w`, checked against the moves.
//! * `expect`: `win` (the side to move has a VCDT; `stones` is a winning turn, e.g. `k10-l11`),
//!   `none` (it has none; `stones` is `-`), or `defend` (the opponent has a VCDT if the side to
//!   move passes; `stones` lists, space-separated, every cell whose stone alone breaks it, or `-`).
//! * `moves`: `.games`-style stones from the empty 19x19 board, turns separated by spaces and the
//!   stones of a turn by `-`.
//!
//! Blank lines and lines starting with `#` are ignored.

use crate::notation::{format_games, parse_games};
use crate::rules::{Board, Color, Point};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    Win,
    None,
    Defend,
}

impl Expect {
    pub fn name(self) -> &'static str {
        match self {
            Expect::Win => "win",
            Expect::None => "none",
            Expect::Defend => "defend",
        }
    }
}

#[derive(Clone, Debug)]
pub struct SuiteCase {
    pub id: String,
    pub expect: Expect,
    pub stones: Vec<Point>,
    pub board: Board,
    /// Line number in the file (from 1).
    pub line: usize,
}

/// Board size of every suite position.
pub const SUITE_SIZE: usize = 19;

/// Parses a whole suite; the error names the line and the problem.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteCase>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(n, l)| parse_case(l, n + 1).map_err(|e| format!("line {}: {e}", n + 1)))
        .collect()
}

fn parse_case(text: &str, line: usize) -> Result<SuiteCase, String> {
    let fields: Vec<&str> = text.split('|').map(str::trim).collect();
    let [id, to_move, expect, stones, moves] = fields[..] else {
        return Err(format!(
            "expected 5 fields separated by '|', found {}",
            fields.len()
        ));
    };
    let to_move = Color::parse(to_move).ok_or_else(|| format!("bad side to move {to_move:?}"))?;
    let expect = match expect {
        "win" => Expect::Win,
        "none" => Expect::None,
        "defend" => Expect::Defend,
        other => return Err(format!("unknown expectation {other:?} (win, none, defend)")),
    };
    let board = replay(moves)?;
    if board.to_move() != to_move {
        return Err(format!(
            "the moves leave {} to move, the line says {to_move}",
            board.to_move()
        ));
    }
    let stones = if stones == "-" {
        Vec::new()
    } else {
        stones
            .split([' ', '-'])
            .filter(|s| !s.is_empty())
            .map(|s| parse_games(s, SUITE_SIZE).ok_or_else(|| format!("bad stone {s:?}")))
            .collect::<Result<_, _>>()?
    };
    Ok(SuiteCase {
        id: id.to_string(),
        expect,
        stones,
        board,
        line,
    })
}

/// The board after `.games`-style `moves`.
pub fn replay(moves: &str) -> Result<Board, String> {
    let mut board = Board::standard();
    for s in moves.split([' ', '-']).filter(|s| !s.is_empty()) {
        let p = parse_games(s, SUITE_SIZE).ok_or_else(|| format!("bad stone {s:?}"))?;
        board
            .play(p)
            .map_err(|e| format!("stone {s} (number {}): {e}", board.stone_count() + 1))?;
    }
    Ok(board)
}

/// The `.games`-style moves of `board`'s stones.
pub fn format_moves(board: &Board) -> String {
    let mut out = String::new();
    for (n, &p) in board.history().iter().enumerate() {
        if n > 0 {
            out.push(if n % 2 == 0 { '-' } else { ' ' });
        }
        out.push_str(&format_games(p));
    }
    out
}

/// One suite line.
pub fn format_case(id: &str, board: &Board, expect: Expect, stones: &[Point]) -> String {
    let stones = if stones.is_empty() {
        "-".to_string()
    } else {
        let names: Vec<String> = stones.iter().map(|&p| format_games(p)).collect();
        names.join(if expect == Expect::Win { "-" } else { " " })
    };
    format!(
        "{id} | {} | {} | {stones} | {}",
        board.to_move().letter().to_ascii_lowercase(),
        expect.name(),
        format_moves(board)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_errors_name_the_line() {
        let board = replay("j10 k10-k11 l12-m13").unwrap();
        let p = |s| parse_games(s, 19).unwrap();
        let line = format_case("x1", &board, Expect::Win, &[p("a1"), p("b2")]);
        assert_eq!(line, "x1 | w | win | a1-b2 | j10 k10-k11 l12-m13");
        let cases = parse_suite(&format!("# comment\n\n{line}\n")).unwrap();
        assert_eq!(cases.len(), 1);
        assert_eq!(cases[0].line, 3);
        assert_eq!(cases[0].board, board);
        assert_eq!(cases[0].stones, vec![p("a1"), p("b2")]);
        let err = parse_suite("x | b | win | - | j10 k10-k11 l12-m13").unwrap_err();
        assert!(
            err.starts_with("line 1:") && err.contains("white to move"),
            "{err}"
        );
        let err = parse_suite("\nx | w | maybe | - | j10").unwrap_err();
        assert!(err.starts_with("line 2:") && err.contains("maybe"), "{err}");
        assert!(parse_suite("x | w | win | - | j10 j10-k1")
            .unwrap_err()
            .contains("occupied"));
    }
}
