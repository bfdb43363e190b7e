//! A search thread's memory of the evaluator's leaf values, by tree edge.
//!
//! A leaf is played out from `search.expand_visits` − 1 times before it gets children, and each
//! time the descent replays the same stones to the same position, which the evaluator values
//! the same. Remembering the value by the leaf's edge spares the repeats (the evaluator's
//! features pass over the board was a tenth of a 1 s search). Edges are bump-allocated and never
//! reused while the workers run, and each run of the workers starts with an empty memory, so an
//! edge always names the same position; the value read back is the one computed, bit for bit.

/// Slots of the direct-mapped memory (a power of two): 32,768 entries of 16 bytes, half a
/// megabyte a thread, about the playouts of a 1 s turn's stone; a leaf whose slot another leaf
/// took since is valued afresh, which costs time, never a value.
const SLOTS: usize = 1 << 15;

/// An empty slot's edge: no tree has this many edges.
const NO_EDGE: u32 = u32::MAX;

pub(super) struct LeafValues {
    slots: Vec<(u32, f64)>,
    /// Values asked for, and of those computed (not remembered), for the search's debug log.
    pub asked: u64,
    pub computed: u64,
}

impl Default for LeafValues {
    fn default() -> Self {
        LeafValues {
            slots: vec![(NO_EDGE, 0.0); SLOTS],
            asked: 0,
            computed: 0,
        }
    }
}

impl LeafValues {
    /// The value of the leaf `edge`: remembered, or computed by `value` and remembered (a
    /// collision overwrites the slot's older edge).
    #[inline]
    pub(super) fn get_or_compute(&mut self, edge: u32, value: impl FnOnce() -> f64) -> f64 {
        let slot = &mut self.slots[slot_of(edge)];
        self.asked += 1;
        if slot.0 != edge {
            *slot = (edge, value());
            self.computed += 1;
        }
        slot.1
    }
}

/// Edges of one children block are consecutive, and so are the blocks allocated one after
/// another: the low bits spread them over the slots.
#[inline]
fn slot_of(edge: u32) -> usize {
    edge as usize & (SLOTS - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_computed_once_per_edge_and_a_collision_recomputes() {
        let mut memory = LeafValues::default();
        let mut computed = 0;
        let mut value_of = |memory: &mut LeafValues, edge: u32, v: f64| {
            memory.get_or_compute(edge, || {
                computed += 1;
                v
            })
        };
        assert_eq!(value_of(&mut memory, 7, 0.25), 0.25);
        // The same edge again: the remembered value, not the new closure's.
        assert_eq!(value_of(&mut memory, 7, 0.9), 0.25);
        // An edge in the same slot replaces it; the first edge is then computed afresh.
        let twin = 7 + SLOTS as u32;
        assert_eq!(value_of(&mut memory, twin, 0.5), 0.5);
        assert_eq!(value_of(&mut memory, 7, 0.75), 0.75);
        assert_eq!(computed, 3);
        assert_eq!((memory.asked, memory.computed), (4, 3));
    }

    #[test]
    fn edge_zero_is_not_mistaken_for_an_empty_slot() {
        let mut memory = LeafValues::default();
        assert_eq!(memory.get_or_compute(0, || 0.6), 0.6);
        assert_eq!(memory.get_or_compute(0, || 0.1), 0.6);
    }
}
