//! Which cells have a stone within distance 1, 2, 3 (Chebyshev): the `nearest` feature, kept as
//! one bitboard per distance (a row per `u32`) instead of per-cell counts. A stone ORs a square
//! into at most 3 + 5 + 7 rows, and the cells it newly covers are exactly those whose `nearest`
//! changed; removing one recomputes the rows around it from the stones. Each cell's value is
//! also kept in a byte, set when it changes: the weights read it for every changed cell.

use crate::patterns::geometry::RING_RADIUS;
use crate::rules::MAX_SIZE;

/// Value of `nearest` / `lastopp` meaning "farther than 3, or none".
pub const FAR_DISTANCE: u16 = 3;

const LEVELS: usize = RING_RADIUS as usize;
// `value` counts covering levels down from FAR_DISTANCE.
const _: () = assert!(FAR_DISTANCE as usize == LEVELS);

#[derive(Clone, Copy)]
pub(crate) struct Nearness {
    size: usize,
    /// Bits of the cells in each row.
    full_row: u32,
    /// `cover[d - 1][row]` bit `col`: a stone within distance `d` of (col, row), itself included.
    cover: [[u32; MAX_SIZE]; LEVELS],
    /// Stones per row.
    stones: [u32; MAX_SIZE],
    /// `values[cell]`: [`Nearness::value`] of each cell, by flat index.
    values: [u8; MAX_SIZE * MAX_SIZE],
}

/// Bits `lo..=hi` of a row, clipped to `full`.
#[inline]
fn span(lo: i32, hi: i32, full: u32) -> u32 {
    let lo = lo.max(0) as u32;
    let hi = hi.min(31) as u32;
    ((u32::MAX >> (31 - hi)) & (u32::MAX << lo)) & full
}

impl Nearness {
    pub fn new(size: usize) -> Nearness {
        Nearness {
            size,
            full_row: span(0, size as i32 - 1, u32::MAX),
            cover: [[0; MAX_SIZE]; LEVELS],
            stones: [0; MAX_SIZE],
            values: [FAR_DISTANCE as u8; MAX_SIZE * MAX_SIZE],
        }
    }

    /// The rows `row - d ..= row + d` on the board.
    fn rows(&self, row: usize, d: usize) -> std::ops::RangeInclusive<usize> {
        row.saturating_sub(d)..=(row + d).min(self.size - 1)
    }

    /// A stone arrives at (`col`, `row`); `changed` gets every cell whose `nearest` it lowers.
    pub fn place(&mut self, col: usize, row: usize, mut changed: impl FnMut(usize)) {
        self.stones[row] |= 1 << col;
        let spans: [u32; LEVELS] = std::array::from_fn(|level| {
            let d = level as i32 + 1;
            span(col as i32 - d, col as i32 + d, self.full_row)
        });
        // Row by row, every level at once (a level farther than the row adds nothing), then one
        // report of the row's newly covered cells: fewer loops of unpredictable length.
        for r in row.saturating_sub(LEVELS)..(row + LEVELS + 1).min(self.size) {
            let dist = r.abs_diff(row);
            let mut fresh = 0;
            for (level, &span) in spans.iter().enumerate() {
                let mask = if dist <= level + 1 { span } else { 0 };
                let old = self.cover[level][r];
                self.cover[level][r] = old | mask;
                fresh |= mask & !old;
            }
            self.report(r, fresh, &mut changed);
        }
    }

    /// The stone at (`col`, `row`) leaves; `changed` gets every cell whose `nearest` it raises.
    pub fn remove(&mut self, col: usize, row: usize, mut changed: impl FnMut(usize)) {
        self.stones[row] &= !(1 << col);
        for d in 1..=LEVELS {
            for r in self.rows(row, d) {
                let mut new = 0;
                for s in self.rows(r, d) {
                    new |= self.spread(self.stones[s], d);
                }
                let old = std::mem::replace(&mut self.cover[d - 1][r], new);
                self.report(r, old & !new, &mut changed);
            }
        }
    }

    /// `bits` widened by `d` cells each way.
    fn spread(&self, bits: u32, d: usize) -> u32 {
        let mut out = bits;
        for k in 1..=d {
            out |= bits << k | bits >> k;
        }
        out & self.full_row
    }

    /// Stores the value of the cells of `row` in `bits`, whose cover changed, and reports them.
    fn report(&mut self, row: usize, mut bits: u32, changed: &mut impl FnMut(usize)) {
        while bits != 0 {
            let col = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let cell = row * self.size + col;
            self.values[cell] = self.value(col, row) as u8;
            changed(cell);
        }
    }

    /// [`Nearness::value`] of the cell `row * size + col`, as stored.
    #[inline]
    pub fn value_at(&self, cell: usize) -> u16 {
        u16::from(self.values[cell])
    }

    /// `nearest` of the empty cell (`col`, `row`): 0, 1, 2 for a stone at distance 1, 2, 3,
    /// [`FAR_DISTANCE`] for none.
    #[inline]
    fn value(&self, col: usize, row: usize) -> u16 {
        // The levels nest (a stone within 1 is within 2 and 3), so the distance is 3 minus the
        // levels that cover the cell: a sum, where an if-chain would mispredict on most cells.
        let covered: u32 = (0..LEVELS).map(|d| self.cover[d][row] >> col & 1).sum();
        FAR_DISTANCE - covered as u16
    }
}
