//! Per-board-size neighbourhood tables, built once per size and shared by every board of that size:
//! which cells lie on the four lines through a cell (and where in their keys), the 6-cell windows,
//! the rings around a cell and the distance to the edge.

use crate::rules::{Point, DIRECTIONS, MAX_SIZE, MIN_SIZE, WIN_LENGTH};
use std::sync::OnceLock;

/// Cells on each side of the centre that a line key sees (Connect6: every 6-window through the
/// centre fits in 2 * 5 + 1 cells).
pub const HALF: i32 = 5;
/// Radius of the "stones nearby" rings kept per cell.
pub const RING_RADIUS: i32 = 3;

/// 2-bit codes of a key slot.
pub const EMPTY: u32 = 0b00;
pub const BLACK: u32 = 0b01;
pub const WHITE: u32 = 0b10;
pub const WALL: u32 = 0b11;

/// Slot (0..10) of the neighbour at `offset` (-5..=-1, 1..=5) in a key; the centre has no slot.
pub const fn slot_of(offset: i32) -> u32 {
    if offset < 0 {
        (offset + HALF) as u32
    } else {
        (offset + HALF - 1) as u32
    }
}

/// A cell on a line through another: `cell` sees the other at bit `shift` of its key for
/// direction `dir`, `distance` (1..=5) cells away.
#[derive(Clone, Copy, Debug)]
pub struct LineNeighbour {
    pub cell: u16,
    pub dir: u8,
    pub shift: u8,
    pub distance: u8,
}

#[derive(Clone, Copy, Debug)]
pub struct RingNeighbour {
    pub cell: u16,
    /// Chebyshev distance 1..=RING_RADIUS.
    pub distance: u8,
    /// On one of the four lines through the centre.
    pub on_line: bool,
}

pub struct Geometry {
    pub size: usize,
    /// Flat list; `line_start[c]..line_start[c + 1]` are the cells on the four lines through `c`
    /// within [`HALF`], each with where `c` sits in their key.
    line_start: Vec<u32>,
    lines: Vec<LineNeighbour>,
    /// `initial_keys[c * 4 + d]`: the key of an empty board, walls where the line leaves the board.
    pub initial_keys: Vec<u32>,
    ring_start: Vec<u32>,
    rings: Vec<RingNeighbour>,
    /// Every run of 6 cells in one direction.
    pub windows: Vec<[u16; WIN_LENGTH]>,
    window_start: Vec<u32>,
    cell_windows: Vec<u16>,
    /// Distance to the nearest edge (0 on the edge).
    pub edge_distance: Vec<u8>,
    /// (col, row) of every cell, sparing the hot paths a division.
    pub coords: Vec<(u8, u8)>,
}

impl Geometry {
    /// The shared tables for `size`. Panics only for a size the rules refuse.
    pub fn for_size(size: usize) -> &'static Geometry {
        static TABLES: [OnceLock<Geometry>; MAX_SIZE + 1] =
            [const { OnceLock::new() }; MAX_SIZE + 1];
        assert!(
            (MIN_SIZE..=MAX_SIZE).contains(&size),
            "board size {size} out of range"
        );
        TABLES[size].get_or_init(|| Geometry::build(size))
    }

    fn build(size: usize) -> Geometry {
        let area = size * size;
        let at = |p: Point| p.index(size) as u16;
        let mut line_start = Vec::with_capacity(area + 1);
        let mut lines = Vec::new();
        let mut initial_keys = vec![0u32; area * 4];
        let mut ring_start = Vec::with_capacity(area + 1);
        let mut rings = Vec::new();
        let mut edge_distance = Vec::with_capacity(area);
        let mut coords = Vec::with_capacity(area);
        for c in 0..area {
            let p = Point::from_index(c, size);
            line_start.push(lines.len() as u32);
            for (d, &(dc, dr)) in DIRECTIONS.iter().enumerate() {
                for k in (-HALF..=HALF).filter(|&k| k != 0) {
                    match p.offset(dc, dr, k, size) {
                        Some(q) => lines.push(LineNeighbour {
                            cell: at(q),
                            dir: d as u8,
                            shift: (2 * slot_of(-k)) as u8,
                            distance: k.unsigned_abs() as u8,
                        }),
                        None => initial_keys[c * 4 + d] |= WALL << (2 * slot_of(k)),
                    }
                }
            }
            ring_start.push(rings.len() as u32);
            for dr in -RING_RADIUS..=RING_RADIUS {
                for dc in -RING_RADIUS..=RING_RADIUS {
                    if (dc, dr) == (0, 0) {
                        continue;
                    }
                    if let Some(q) = p.offset(dc, dr, 1, size) {
                        rings.push(RingNeighbour {
                            cell: at(q),
                            distance: dc.abs().max(dr.abs()) as u8,
                            on_line: dc == 0 || dr == 0 || dc.abs() == dr.abs(),
                        });
                    }
                }
            }
            let (col, row) = (p.col as usize, p.row as usize);
            edge_distance.push(col.min(row).min(size - 1 - col).min(size - 1 - row) as u8);
            coords.push((col as u8, row as u8));
        }
        line_start.push(lines.len() as u32);
        ring_start.push(rings.len() as u32);

        let mut windows = Vec::new();
        for &(dc, dr) in DIRECTIONS.iter() {
            for c in 0..area {
                let p = Point::from_index(c, size);
                let cells: Option<Vec<u16>> = (0..WIN_LENGTH as i32)
                    .map(|k| p.offset(dc, dr, k, size).map(at))
                    .collect();
                if let Some(cells) = cells {
                    windows.push(<[u16; WIN_LENGTH]>::try_from(cells).expect("six cells"));
                }
            }
        }
        let mut per_cell: Vec<Vec<u16>> = vec![Vec::new(); area];
        for (w, cells) in windows.iter().enumerate() {
            for &c in cells {
                per_cell[c as usize].push(w as u16);
            }
        }
        let mut window_start = Vec::with_capacity(area + 1);
        let mut cell_windows = Vec::new();
        for list in per_cell {
            window_start.push(cell_windows.len() as u32);
            cell_windows.extend(list);
        }
        window_start.push(cell_windows.len() as u32);

        Geometry {
            size,
            line_start,
            lines,
            initial_keys,
            ring_start,
            rings,
            windows,
            window_start,
            cell_windows,
            edge_distance,
            coords,
        }
    }

    pub fn area(&self) -> usize {
        self.size * self.size
    }

    /// Cells on the four lines through `cell`, within [`HALF`] of it.
    pub fn line_neighbours(&self, cell: usize) -> &[LineNeighbour] {
        &self.lines[self.line_start[cell] as usize..self.line_start[cell + 1] as usize]
    }

    /// Cells within Chebyshev distance [`RING_RADIUS`] of `cell`, itself excluded.
    pub fn ring_neighbours(&self, cell: usize) -> &[RingNeighbour] {
        &self.rings[self.ring_start[cell] as usize..self.ring_start[cell + 1] as usize]
    }

    /// Ids of the windows that contain `cell`.
    pub fn windows_of(&self, cell: usize) -> &[u16] {
        &self.cell_windows[self.window_start[cell] as usize..self.window_start[cell + 1] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_on_standard_board() {
        let g = Geometry::for_size(19);
        // 14 starts per line: rows and columns 19 * 14 each, diagonals 14 * 14 each.
        assert_eq!(g.windows.len(), 2 * 19 * 14 + 2 * 14 * 14);
        let centre = Point::new(9, 9).index(19);
        assert_eq!(g.line_neighbours(centre).len(), 40);
        assert_eq!(g.windows_of(centre).len(), 24);
        assert_eq!(g.ring_neighbours(centre).len(), 48);
        assert_eq!(g.ring_neighbours(0).len(), 15);
        // Corner: the horizontal key sees walls on its left five slots only.
        assert_eq!(g.initial_keys[0], 0b11_1111_1111);
        assert_eq!(g.edge_distance[centre], 9);
    }
}
