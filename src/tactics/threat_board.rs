//! [`ThreatBoard`]: the solver's own board. Stones carry an explicit colour, so a side may pass
//! (the defensive query asks what the opponent could do if we did nothing), and only the threat
//! windows are kept current: no line keys, no six detection beyond the windows.

use crate::patterns::{CellSet, CellView, Geometry, ThreatWindows};
use crate::rules::{stone_key, Board, Color, Point, WIN_LENGTH};

/// Stones by cell, the threat windows, and a Zobrist hash of the stones that equals
/// [`Board::hash`] for the same stones at the start of a turn.
#[derive(Clone)]
pub struct ThreatBoard {
    size: usize,
    cells: Vec<Option<Color>>,
    windows: ThreatWindows,
    hash: u64,
    stones: Vec<u16>,
}

impl CellView for ThreatBoard {
    #[inline]
    fn is_empty_cell(&self, cell: usize) -> bool {
        self.cells[cell].is_none()
    }
}

impl ThreatBoard {
    /// An empty board of `size` (a size the rules accept).
    pub fn new(size: usize) -> ThreatBoard {
        ThreatBoard {
            size,
            cells: vec![None; size * size],
            windows: ThreatWindows::new(size),
            hash: 0,
            stones: Vec::new(),
        }
    }

    /// The stones of `board`.
    pub fn from_board(board: &Board) -> ThreatBoard {
        let mut tb = ThreatBoard::new(board.size());
        for (n, &p) in board.history().iter().enumerate() {
            tb.place(p.index(board.size()), Board::color_of_stone(n));
        }
        tb
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn windows(&self) -> &ThreatWindows {
        &self.windows
    }

    /// XOR of the stone keys: `Board::hash` of the same stones at the start of a turn.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    pub fn get(&self, cell: usize) -> Option<Color> {
        self.cells[cell]
    }

    pub fn stone_count(&self) -> usize {
        self.stones.len()
    }

    pub fn point(&self, cell: usize) -> Point {
        Point::from_index(cell, self.size)
    }

    /// Puts a `colour` stone on the empty `cell`.
    pub fn place(&mut self, cell: usize, colour: Color) {
        debug_assert!(self.cells[cell].is_none(), "cell {cell} is occupied");
        self.cells[cell] = Some(colour);
        self.windows.place(cell, colour);
        self.hash ^= stone_key(colour, self.point(cell));
        self.stones.push(cell as u16);
    }

    /// The cell of the last stone placed.
    pub fn last_stone(&self) -> Option<usize> {
        self.stones.last().map(|&c| c as usize)
    }

    /// Takes back the last stone placed.
    pub fn remove_last(&mut self) {
        let cell = self.stones.pop().expect("a stone to take back") as usize;
        let colour = self.cells[cell].take().expect("the stone is on the board");
        self.windows.remove(cell, colour);
        self.hash ^= stone_key(colour, self.point(cell));
    }

    /// `attacker`'s exact threat count: stones the other side needs to stop its six next turn.
    pub fn threats(&self, attacker: Color) -> u32 {
        self.windows.threat_count(self, attacker)
    }

    /// Whether `colour` has a window it completes to six with the two stones of a turn.
    pub fn has_threat_window(&self, colour: Color) -> bool {
        self.windows.live_window_count(colour, 4) > 0
    }

    /// Whether `colour` has six (or more) in a row.
    pub fn has_six(&self, colour: Color) -> bool {
        self.windows
            .threat_windows(colour)
            .any(|w| usize::from(self.windows.count(w, colour)) >= WIN_LENGTH)
    }

    /// A six `colour` completes with `stones` stones (1 or 2): the empty cells of the first window
    /// holding at least `6 - stones` of its stones and none of the other's. With two stones and a
    /// window lacking one, the second is the first other empty cell (it does not matter).
    pub fn six_completion(&self, colour: Color, stones: u8) -> Option<(u16, u16)> {
        let need = 6u8.saturating_sub(stones);
        let (a, b) = self
            .windows
            .threat_windows(colour)
            .find(|&w| self.windows.count(w, colour) >= need)
            .and_then(|w| self.windows.window_empties(self, w))?;
        if a != b || stones < 2 {
            return Some((a, b));
        }
        let other = (0..self.cells.len()).find(|&c| c != a as usize && self.cells[c].is_none());
        Some((a, other.map_or(a, |c| c as u16)))
    }

    /// Cells that lower `attacker`'s threat count by one when the other side takes them.
    pub fn blocking_cells(&self, attacker: Color) -> CellSet {
        self.windows.blocking_cells(self, attacker)
    }

    /// Empty cells of `colour`'s live windows holding at least `min_count` of its stones.
    pub fn potential_cells(&self, colour: Color, min_count: u8) -> CellSet {
        self.windows.potential_cells(self, colour, min_count)
    }

    /// Whether the stone on `cell` lies in one of `colour`'s threat windows.
    pub fn stone_in_threat_window(&self, cell: usize, colour: Color) -> bool {
        let geometry = Geometry::for_size(self.size);
        geometry.windows_of(cell).iter().any(|&w| {
            let w = w as usize;
            self.windows.count(w, colour) >= 4 && self.windows.count(w, colour.opponent()) == 0
        })
    }

    /// Empty cells up to `reach` cells along a line from one of `colour`'s stones, in a window
    /// through both that holds none of the other colour's stones.
    pub fn cells_near_stones(&self, colour: Color, reach: u8) -> CellSet {
        let geometry = Geometry::for_size(self.size);
        let mut set = CellSet::new();
        for &s in &self.stones {
            let s = s as usize;
            if self.cells[s] != Some(colour) {
                continue;
            }
            for n in geometry.line_neighbours(s) {
                let c = n.cell as usize;
                if n.distance > reach || self.cells[c].is_some() || set.contains(c) {
                    continue;
                }
                let live = geometry.windows_of(c).iter().any(|&w| {
                    let w = w as usize;
                    self.windows.count(w, colour.opponent()) == 0
                        && geometry.windows[w].contains(&(s as u16))
                });
                if live {
                    set.insert(c);
                }
            }
        }
        set
    }

    /// Empty cells of `colour`'s live windows through `cell` holding at least `min_count` of its
    /// stones.
    pub fn live_cells_through(&self, cell: usize, colour: Color, min_count: u8) -> CellSet {
        let geometry = Geometry::for_size(self.size);
        let mut set = CellSet::new();
        for &w in geometry.windows_of(cell) {
            let w = w as usize;
            if self.windows.count(w, colour) >= min_count
                && self.windows.count(w, colour.opponent()) == 0
            {
                for &c in &geometry.windows[w] {
                    if self.cells[c as usize].is_none() {
                        set.insert(c as usize);
                    }
                }
            }
        }
        set
    }

    /// Empty cells of every threat window of `colour`.
    pub fn threat_window_cells(&self, colour: Color) -> CellSet {
        self.potential_cells(colour, 4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_games;

    #[test]
    fn hash_matches_board_at_turn_start_and_undo_restores() {
        let mut b = Board::standard();
        for s in ["j10", "k10", "k11", "l12", "m13", "a1", "a2"] {
            b.play(parse_games(s, 19).unwrap()).unwrap();
        }
        let mut tb = ThreatBoard::from_board(&b);
        assert_eq!(tb.hash(), b.hash());
        let before = tb.hash();
        tb.place(100, Color::White);
        tb.place(105, Color::White); // a pass for Black: White places twice in a row
        assert_ne!(tb.hash(), before);
        tb.remove_last();
        tb.remove_last();
        assert_eq!(tb.hash(), before);
        assert_eq!(tb.stone_count(), 7);
    }
}
