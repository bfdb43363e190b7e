//! Board text: GTP vertices, `gogui-rules_board` for GoGui (rows top first, `X` `O` `.`) and a
//! labelled `showboard` for people.

use crate::rules::{Board, Color, Point, Stage};
use std::fmt::Write as _;

const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// Appends a GTP vertex without allocating.
pub(super) fn push_vertex(out: &mut String, p: Point) {
    out.push(COLUMNS[p.col as usize] as char);
    let row = p.row as u32 + 1;
    if row >= 10 {
        out.push(char::from(b'0' + (row / 10) as u8));
    }
    out.push(char::from(b'0' + (row % 10) as u8));
}

fn cell(board: &Board, col: usize, row: usize) -> char {
    match board.get(Point::new(col as u8, row as u8)) {
        Some(Color::Black) => 'X',
        Some(Color::White) => 'O',
        None => '.',
    }
}

/// GoGui's format: one line per row from the top, cells separated by spaces.
pub(super) fn rules_board(board: &Board, out: &mut String) {
    let size = board.size();
    for row in (0..size).rev() {
        for col in 0..size {
            if col > 0 {
                out.push(' ');
            }
            out.push(cell(board, col, row));
        }
        if row > 0 {
            out.push('\n');
        }
    }
}

/// Column letters and row numbers around the board, the last stone in parentheses, and a
/// status line (side to move, stage, stones, result, hash).
pub(super) fn showboard(board: &Board, out: &mut String) {
    let size = board.size();
    let letters: String = COLUMNS[..size]
        .iter()
        .map(|&c| format!(" {}", c as char))
        .collect();
    let last = board.last_stone();
    out.push('\n');
    let _ = writeln!(out, "   {letters}");
    for row in (0..size).rev() {
        let _ = write!(out, "{:>2} ", row + 1);
        for col in 0..size {
            let here = Some(Point::new(col as u8, row as u8)) == last;
            let before_last =
                last.is_some_and(|p| p.row as usize == row && p.col as usize + 1 == col);
            out.push(if here {
                '('
            } else if before_last {
                ')'
            } else {
                ' '
            });
            out.push(cell(board, col, row));
        }
        let after = last.is_some_and(|p| p.row as usize == row && p.col as usize + 1 == size);
        out.push(if after { ')' } else { ' ' });
        let _ = writeln!(out, "{:<2}", row + 1);
    }
    let _ = writeln!(out, "   {letters}");
    let stage = match board.stage() {
        Stage::First => "first",
        Stage::Second => "second",
    };
    let state = match board.result() {
        crate::rules::GameResult::Ongoing => {
            format!("{} to play ({stage} stone)", board.to_move())
        }
        crate::rules::GameResult::Win(c) => format!("{c} wins"),
        crate::rules::GameResult::Draw => "draw".to_string(),
    };
    let _ = write!(
        out,
        "{state}; {} stones; hash {:016x}",
        board.stone_count(),
        board.hash()
    );
}
