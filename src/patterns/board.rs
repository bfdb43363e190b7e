//! [`PatternBoard`]: a [`Board`] with its line keys and threat windows kept current on play and undo.

use super::cellset::CellSet;
use super::geometry::{Geometry, BLACK, WHITE};
use super::shape;
use super::threats::ThreatWindows;
use crate::rules::{Board, Color, PlayError, Point};

/// The 2-bit code of a stone in a line key.
pub fn stone_code(colour: Color) -> u32 {
    match colour {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

/// A board plus incremental pattern state: for every cell and direction the 20-bit key of the
/// 5 cells on each side (2 bits a cell: empty, black, white, wall), and the 6-cell windows.
///
/// Each key is kept per cell (not per line, as Rapfi does) because the cells whose keys change
/// are exactly the ones whose features must be recomputed: a stone XORs its code into the keys of
/// the at most 40 cells within 5 on its four lines, and undo XORs it back.
pub struct PatternBoard {
    board: Board,
    geometry: &'static Geometry,
    /// `keys[cell * 4 + dir]`.
    keys: Vec<u32>,
    /// Stone code per cell (0 empty), to answer "occupied?" by flat index.
    stones: Vec<u8>,
    windows: ThreatWindows,
}

impl Clone for PatternBoard {
    fn clone(&self) -> Self {
        PatternBoard {
            board: self.board.clone(),
            geometry: self.geometry,
            keys: self.keys.clone(),
            stones: self.stones.clone(),
            windows: self.windows.clone(),
        }
    }

    /// Reuses every buffer: searches restore positions by copying.
    fn clone_from(&mut self, source: &Self) {
        let PatternBoard {
            board,
            geometry,
            keys,
            stones,
            windows,
        } = self;
        board.clone_from(&source.board);
        *geometry = source.geometry;
        keys.clone_from(&source.keys);
        stones.clone_from(&source.stones);
        windows.clone_from(&source.windows);
    }
}

impl PatternBoard {
    pub fn new(board: Board) -> PatternBoard {
        let geometry = Geometry::for_size(board.size());
        let mut pb = PatternBoard {
            geometry,
            keys: geometry.initial_keys.clone(),
            stones: vec![0; geometry.area()],
            windows: ThreatWindows::threats_only(board.size()),
            board: Board::new(board.size()).expect("size of an existing board"),
        };
        for &p in board.history() {
            pb.play(p).expect("replaying a legal history");
        }
        pb
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn geometry(&self) -> &'static Geometry {
        self.geometry
    }

    pub fn windows(&self) -> &ThreatWindows {
        &self.windows
    }

    /// Whether the cell with flat index `cell` holds a stone.
    #[inline]
    pub fn is_occupied(&self, cell: usize) -> bool {
        self.stones[cell] != 0
    }

    /// The line key of `cell` in direction `dir` (index into `rules::DIRECTIONS`).
    #[inline]
    pub fn key(&self, cell: usize, dir: usize) -> u32 {
        self.keys[cell * 4 + dir]
    }

    /// Own and opponent line classes of `cell` in direction `dir` for `to_move`.
    pub fn shape(&self, cell: usize, dir: usize, to_move: Color) -> (u8, u8) {
        shape::shape_for(self.key(cell, dir), to_move.index())
    }

    fn toggle(&mut self, cell: usize, colour: Color) {
        let code = stone_code(colour);
        for n in self.geometry.line_neighbours(cell) {
            self.keys[n.cell as usize * 4 + n.dir as usize] ^= code << n.shift;
        }
    }

    /// Places the next stone; on error nothing changes.
    pub fn play(&mut self, p: Point) -> Result<(), PlayError> {
        let colour = self.board.to_move();
        self.board.check(p)?;
        let cell = p.index(self.board.size());
        // The window counts tell whether the stone makes six, sparing the board its line scan.
        let six = self.windows.place(cell, colour);
        self.board
            .play_knowing_six(p, six)
            .expect("checked just before");
        self.stones[cell] = stone_code(colour) as u8;
        self.toggle(cell, colour);
        Ok(())
    }

    /// Takes back the last stone, returning it.
    pub fn undo(&mut self) -> Option<Point> {
        let p = self.board.undo()?;
        let colour = self.board.to_move();
        let cell = p.index(self.board.size());
        self.stones[cell] = 0;
        self.toggle(cell, colour);
        self.windows.remove(cell, colour);
        Some(p)
    }

    /// Empty points where the side to move completes a six this turn.
    pub fn winning_points(&self) -> CellSet {
        self.windows.winning_points(&self.board)
    }

    /// Empty points the side to move must take to stop the opponent's six next turn.
    pub fn blocking_points(&self) -> CellSet {
        self.windows.blocking_points(&self.board)
    }

    /// [`PatternBoard::blocking_points`] and the opponent's threat count, found together.
    pub fn blocking_points_and_threats(&self) -> (CellSet, u32) {
        self.windows.blocking_points_and_threats(&self.board)
    }

    /// `attacker`'s threat count (stones the other side needs to stop its six next turn).
    pub fn threat_count(&self, attacker: Color) -> u32 {
        self.windows.threat_count(&self.board, attacker)
    }

    /// The keys as a from-scratch computation would give them, for tests.
    pub fn keys_from_scratch(board: &Board) -> Vec<u32> {
        let geometry = Geometry::for_size(board.size());
        let mut keys = geometry.initial_keys.clone();
        for (cell, slot) in board
            .points()
            .map(|p| (p.index(board.size()), board.get(p)))
        {
            if let Some(colour) = slot {
                for n in geometry.line_neighbours(cell) {
                    keys[n.cell as usize * 4 + n.dir as usize] |= stone_code(colour) << n.shift;
                }
            }
        }
        keys
    }

    pub fn keys(&self) -> &[u32] {
        &self.keys
    }
}
