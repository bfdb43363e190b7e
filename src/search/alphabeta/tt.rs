//! The transposition table: positions by `Board::hash` (stones and the stage of the turn, so a
//! first-stone and a second-stone position never share an entry), one slot per hash bucket.
//!
//! Replacement: a slot is overwritten by the same position, by a search of this stone (the
//! generation changes with every `think`) at equal or greater depth, or by anything when the
//! slot's entry is from an older search.

use super::score::Score;
use std::collections::TryReserveError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The true score is at least this (a beta cut-off).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    score: Score,
    /// Cell of the best stone + 1; 0 = none.
    best: u16,
    depth: u8,
    /// Bound in the low 2 bits (0 = empty), generation in the high 6.
    flags: u8,
}

/// What the table knows about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub score: Score,
    pub best: Option<u16>,
    pub depth: u32,
    pub bound: Bound,
}

pub struct TranspositionTable {
    slots: Vec<Slot>,
    mask: usize,
    generation: u8,
}

impl TranspositionTable {
    /// A table of the largest power-of-two number of slots that fits in `mib` MiB; an error
    /// (not an abort) when the memory cannot be had.
    pub fn new(mib: usize) -> Result<TranspositionTable, TryReserveError> {
        let bytes = mib.max(1).saturating_mul(1 << 20);
        let count = (bytes / std::mem::size_of::<Slot>()).next_power_of_two() / 2;
        let count = count.max(1024);
        let mut slots = Vec::new();
        slots.try_reserve_exact(count)?;
        slots.resize(count, Slot::default());
        Ok(TranspositionTable {
            slots,
            mask: count - 1,
            generation: 1,
        })
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = Slot::default());
        self.generation = 1;
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn next_generation(&mut self) {
        self.generation = if self.generation >= 63 {
            1
        } else {
            self.generation + 1
        };
    }

    fn index(&self, key: u64) -> usize {
        // The low bits feed the bucket; Zobrist keys are uniform.
        (key as usize) & self.mask
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = &self.slots[self.index(key)];
        if slot.flags & 3 == 0 || slot.key != key {
            return None;
        }
        let bound = match slot.flags & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Entry {
            score: slot.score,
            best: slot.best.checked_sub(1),
            depth: slot.depth as u32,
            bound,
        })
    }

    pub fn store(&mut self, key: u64, entry: Entry) {
        let generation = self.generation;
        let i = self.index(key);
        let slot = &mut self.slots[i];
        let occupied = slot.flags & 3 != 0;
        let same_search = slot.flags >> 2 == generation;
        if occupied && slot.key != key && same_search && (slot.depth as u32) > entry.depth {
            return;
        }
        // Keep the best stone of a shallower search of the same position when this one has none.
        let best = match entry.best {
            Some(b) => b + 1,
            None if slot.key == key => slot.best,
            None => 0,
        };
        let bound = match entry.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        *slot = Slot {
            key,
            score: entry.score,
            best,
            depth: entry.depth.min(255) as u8,
            flags: bound | generation << 2,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(score: Score, best: Option<u16>, depth: u32, bound: Bound) -> Entry {
        Entry {
            score,
            best,
            depth,
            bound,
        }
    }

    #[test]
    fn stores_probes_and_replaces_by_depth_and_generation() {
        let mut tt = TranspositionTable::new(1).unwrap();
        assert_eq!(std::mem::size_of::<Slot>(), 16);
        assert!(tt.len().is_power_of_two());
        let k = 0xABCD_0000_0000_0005u64;
        assert_eq!(tt.probe(k), None);
        tt.store(k, entry(42, Some(7), 4, Bound::Lower));
        assert_eq!(tt.probe(k), Some(entry(42, Some(7), 4, Bound::Lower)));
        // Another key in the same bucket does not evict a deeper entry of this search...
        let other = k ^ (1 << 60);
        tt.store(other, entry(1, None, 2, Bound::Exact));
        assert_eq!(tt.probe(other), None);
        assert!(tt.probe(k).is_some());
        // ...but does in the next search.
        tt.next_generation();
        tt.store(other, entry(1, None, 2, Bound::Exact));
        assert_eq!(tt.probe(other), Some(entry(1, None, 2, Bound::Exact)));
        assert_eq!(tt.probe(k), None);
        // The same position keeps its best stone when a new result has none.
        tt.store(other, entry(-3, None, 3, Bound::Upper));
        assert_eq!(tt.probe(other).unwrap().best, None);
        tt.store(other, entry(-3, Some(0), 3, Bound::Upper));
        tt.store(other, entry(-5, None, 4, Bound::Upper));
        assert_eq!(tt.probe(other).unwrap().best, Some(0));
        tt.clear();
        assert_eq!(tt.probe(other), None);
    }
}
