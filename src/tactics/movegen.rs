//! Candidate stones of the threat-space search, generated from the live windows.
//!
//! A window becomes a threat window when it reaches 4 of the attacker's stones and holds none of
//! the defender's, so every stone of a threat-making turn that helps make a threat lies in a
//! window already holding 2 (both stones go there) or 3 (one stone does). The first stone is drawn
//! from those cells; the second from the cells that complete a new threat window after the first
//! (3 stones and up), or, when the first stone alone already made a double threat, from the cells
//! of windows with 2 and up and the cells up to `free_reach` along a line from the attacker's
//! stones (a free stone that prepares the next turn: the defender's whole turn is forced, so the
//! attacker may build anywhere, and a VCDT often starts with a stone next to its own that no
//! window of 2 names yet). When the defender has
//! threats of its own, stones that block them are added and, where the count demands, required.

use super::threat_board::ThreatBoard;
use crate::patterns::{CellSet, Geometry};
use crate::rules::Color;

/// Window weights by own-stone count for move ordering: a window with more stones matters more.
const WINDOW_WEIGHT: [u32; 7] = [0, 1, 6, 32, 200, 200, 200];

/// `cells` sorted by how much they add to `colour`'s live windows (best first, then by index).
pub fn ordered(tb: &ThreatBoard, colour: Color, cells: &CellSet) -> Vec<u16> {
    let geometry = Geometry::for_size(tb.size());
    let windows = tb.windows();
    let mut scored: Vec<(u32, u16)> = cells
        .iter()
        .map(|c| {
            let score: u32 = geometry
                .windows_of(c)
                .iter()
                .map(|&w| w as usize)
                .filter(|&w| windows.count(w, colour.opponent()) == 0)
                .map(|w| WINDOW_WEIGHT[windows.count(w, colour) as usize])
                .sum();
            (score, c as u16)
        })
        .collect();
    scored.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().map(|(_, c)| c).collect()
}

/// First stones of an attacker turn that can make at least two threats while leaving the
/// defender no threat window. `None` when no turn can: the defender has 3 or more threats.
/// `defender_threats` is the defender's current threat count.
pub fn first_stones(tb: &ThreatBoard, attacker: Color, defender_threats: u32) -> Option<CellSet> {
    let defender = attacker.opponent();
    match defender_threats {
        0 => Some(tb.potential_cells(attacker, 2)),
        1 => {
            let mut cells = tb.potential_cells(attacker, 2);
            cells.union_with(&tb.blocking_cells(defender));
            Some(cells)
        }
        2 => Some(tb.blocking_cells(defender)),
        _ => None,
    }
}

/// Second stones, the first being on the board. `None` when no second stone can leave the
/// defender without a threat window. `free_reach`: see the module comment (0: windows only).
pub fn second_stones(tb: &ThreatBoard, attacker: Color, free_reach: u8) -> Option<CellSet> {
    let defender = attacker.opponent();
    if tb.has_threat_window(defender) {
        return match tb.threats(defender) {
            1 => Some(tb.blocking_cells(defender)),
            _ => None,
        };
    }
    if tb.threats(attacker) < 2 {
        return Some(tb.potential_cells(attacker, 3));
    }
    let mut cells = tb.potential_cells(attacker, 2);
    if free_reach > 0 {
        cells.union_with(&tb.cells_near_stones(attacker, free_reach));
    }
    Some(cells)
}

/// Every unordered pair of defender stones that leaves `attacker` without a threat, as
/// `(first, second)` with each pair once. Assumes `attacker` has exactly 2 threats (with more
/// there is no such pair; with fewer the defender is not forced).
pub fn blocking_pairs(tb: &mut ThreatBoard, attacker: Color) -> Vec<(u16, u16)> {
    let defender = attacker.opponent();
    let firsts = tb.blocking_cells(attacker);
    let mut pairs = Vec::new();
    for x in ordered(tb, defender, &firsts) {
        tb.place(x as usize, defender);
        for y in tb.blocking_cells(attacker).iter() {
            // {x, y} is a smallest hitting set, so y is a first too, and x is among y's seconds.
            if firsts.contains(y) && y < x as usize {
                continue;
            }
            pairs.push((x, y as u16));
        }
        tb.remove_last();
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{format_games, parse_games};
    use crate::rules::Board;

    fn tb(moves: &str) -> ThreatBoard {
        let mut b = Board::standard();
        for s in moves.split([' ', '-']).filter(|s| !s.is_empty()) {
            b.play(parse_games(s, 19).unwrap()).unwrap();
        }
        ThreatBoard::from_board(&b)
    }

    fn name(tb: &ThreatBoard, c: u16) -> String {
        format_games(tb.point(c as usize))
    }

    #[test]
    fn open_four_has_three_blocking_pairs() {
        // Black k10 l10 m10 n10, open on both sides: blocks {j,o}, {i,o}, {j,p} on row 10.
        let mut t = tb("k10 a1-a3 l10-m10 a5-a7 n10-s19");
        assert_eq!(t.threats(Color::Black), 2);
        let mut pairs: Vec<String> = blocking_pairs(&mut t, Color::Black)
            .into_iter()
            .map(|(x, y)| {
                let mut v = [name(&t, x), name(&t, y)];
                v.sort();
                v.join("-")
            })
            .collect();
        pairs.sort();
        assert_eq!(pairs, ["i10-o10", "j10-o10", "j10-p10"]);
    }

    #[test]
    fn defender_with_two_threats_forces_both_attacker_stones() {
        // White has an open four c3..f3, Black to move.
        let t = tb("j10 c3-d3 k10-l10 e3-f3");
        assert_eq!(t.threats(Color::White), 2);
        let firsts = first_stones(&t, Color::Black, 2).unwrap();
        assert_eq!(firsts, t.blocking_cells(Color::White));
        assert!(first_stones(&t, Color::Black, 3).is_none());
    }
}
