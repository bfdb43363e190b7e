//! A fixed-size set of board cells (flat indices on boards up to 25x25), `Copy` and allocation-free,
//! so playouts can ask for winning or blocking points without touching the heap.

use crate::rules::{Point, MAX_SIZE};

const WORDS: usize = (MAX_SIZE * MAX_SIZE).div_ceil(64);

/// A set of flat cell indices (`row * size + col`) of one board.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct CellSet {
    bits: [u64; WORDS],
}

impl CellSet {
    pub const fn new() -> CellSet {
        CellSet { bits: [0; WORDS] }
    }

    pub fn insert(&mut self, index: usize) {
        self.bits[index / 64] |= 1 << (index % 64);
    }

    /// Inserts `index` when `yes`, without a branch (for hot loops with unpredictable `yes`).
    #[inline]
    pub fn insert_if(&mut self, index: usize, yes: bool) {
        self.bits[index / 64] |= (yes as u64) << (index % 64);
    }

    pub fn remove(&mut self, index: usize) {
        self.bits[index / 64] &= !(1 << (index % 64));
    }

    pub fn contains(&self, index: usize) -> bool {
        self.bits[index / 64] >> (index % 64) & 1 == 1
    }

    pub fn is_empty(&self) -> bool {
        self.bits.iter().all(|&w| w == 0)
    }

    pub fn len(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn union_with(&mut self, other: &CellSet) {
        for (a, b) in self.bits.iter_mut().zip(other.bits.iter()) {
            *a |= b;
        }
    }

    pub fn intersect_with(&mut self, other: &CellSet) {
        for (a, b) in self.bits.iter_mut().zip(other.bits.iter()) {
            *a &= b;
        }
    }

    /// Flat indices in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.bits.iter().enumerate().flat_map(|(w, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                if rest == 0 {
                    return None;
                }
                let bit = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Some(w * 64 + bit)
            })
        })
    }

    /// The cells as points of a board of `size`, in index order.
    pub fn points(&self, size: usize) -> impl Iterator<Item = Point> + '_ {
        self.iter().map(move |i| Point::from_index(i, size))
    }

    pub fn to_points(&self, size: usize) -> Vec<Point> {
        self.points(size).collect()
    }
}

impl std::fmt::Debug for CellSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<usize> for CellSet {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> CellSet {
        let mut set = CellSet::new();
        for i in iter {
            set.insert(i);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_remove_iterate() {
        let mut s = CellSet::new();
        for i in [0, 63, 64, 200, 624] {
            s.insert(i);
        }
        s.insert(63);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![0, 63, 64, 200, 624]);
        assert_eq!(s.len(), 5);
        s.remove(64);
        assert!(!s.contains(64) && s.contains(624));
        assert_eq!(s.len(), 4);
    }

    #[test]
    fn union_and_intersection() {
        let (mut a, mut b) = (CellSet::new(), CellSet::new());
        [1, 70, 300].iter().for_each(|&i| a.insert(i));
        [70, 300, 500].iter().for_each(|&i| b.insert(i));
        let mut both = a;
        both.intersect_with(&b);
        assert_eq!(both.iter().collect::<Vec<_>>(), vec![70, 300]);
        a.union_with(&b);
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![1, 70, 300, 500]);
    }
}
