//! One tree edge (= the node reached by placing its stone), lock-free.
//!
//! Statistics live on the edge, from the point of view of the player who placed the edge's stone,
//! so a parent picks among its children without sign games; the reward is only turned around when
//! the player changes (docs/search.md, threads; Enzenberger & Müller 2009 for the scheme).
//! `(visits, wins)` share one `AtomicU64` so one `fetch_add` updates both (no torn means). Wins are
//! counted in units of 1/[`REWARD_UNIT`] of a win: a draw is half a win, and a reward mixed with
//! the evaluator's value (`search.value_mix`) keeps integer statistics.

use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicU8, Ordering};

/// `stats` word: visits in the high 32 bits, wins (in reward units) in the low 32 bits.
const VISIT: u64 = 1 << 32;

/// The reward of a win (a loss is 0, a draw half of this). Wins must fit 32 bits, so an edge
/// holds at most `u32::MAX / REWARD_UNIT` visits (the search stops at [`MAX_VISITS`]).
pub(crate) const REWARD_UNIT: u32 = 64;

/// Root visits at which a search stops, well below the overflow of the wins field.
pub(crate) const MAX_VISITS: u32 = u32::MAX / REWARD_UNIT - (1 << 20);

/// `children` word: 0 = leaf (not expanded); `EXPANDING` while one thread builds the children;
/// otherwise `first << 16 | count` plus flag bits.
const EXPANDING: u64 = 1 << 63;
/// The children are a forced set (winning or blocking stones), not the free candidates.
const RESTRICTED: u64 = 1 << 62;
/// Second stones that rank before the pending first stone were left out (canonical pair order).
const FILTERED: u64 = 1 << 61;
const COUNT_MASK: u64 = 0xFFFF;
/// `proof` byte: the [`Proof`] in the low bits, this flag once a deep solve claimed the edge,
const DEEP_SOLVED: u8 = 0x80;
/// and this one once the tree's pair defence did (`tactics::tree_pair`).
const PAIR_TRIED: u8 = 0x40;
const CLAIMS: u8 = DEEP_SOLVED | PAIR_TRIED;
const FIRST_MASK: u64 = 0xFFFF_FFFF;

#[derive(Default, Debug)]
pub(crate) struct Edge {
    stats: AtomicU64,
    children: AtomicU64,
    prior: AtomicU32,
    cell: AtomicU16,
    /// A [`Proof`] (with `prior`, `cell` and `minimax`, one 8-byte word; the edge is 32 bytes).
    proof: AtomicU8,
    /// The implicit minimax value for the edge's player, quantised: 0 = none yet, 1..=255 for
    /// 0..=1 (steps of 1/254, finer than the selection can tell apart).
    minimax: AtomicU8,
    /// All-moves-as-first statistics (`search.rave_equivalence`, `amaf.rs`), packed as `stats`:
    /// the descents through the parent in which the edge's player placed this stone anywhere
    /// later, and their rewards for that player.
    amaf: AtomicU64,
}

/// What is known for certain about an edge, for the player who placed its stone (MCTS-solver,
/// set by the threat solver hooks, `search::solver_hooks`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Proof {
    Unknown = 0,
    /// The edge's player wins (a six, or a proven threat sequence).
    Win = 1,
    /// The edge's player loses against best play.
    Loss = 2,
    /// Not a proof: left out of the root's choice by the solver's defence zone.
    Excluded = 3,
}

/// A published children block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Children {
    pub first: u32,
    pub count: u32,
    pub restricted: bool,
    pub filtered: bool,
}

/// What a children word says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Expansion {
    Leaf,
    Expanding,
    Expanded(Children),
}

impl Children {
    fn pack(self) -> u64 {
        debug_assert!(self.count > 0 && self.count as u64 <= COUNT_MASK);
        ((self.first as u64) << 16)
            | self.count as u64
            | if self.restricted { RESTRICTED } else { 0 }
            | if self.filtered { FILTERED } else { 0 }
    }

    pub fn range(self) -> std::ops::Range<u32> {
        self.first..self.first + self.count
    }
}

fn unpack_children(word: u64) -> Expansion {
    if word == 0 {
        Expansion::Leaf
    } else if word == EXPANDING {
        Expansion::Expanding
    } else {
        Expansion::Expanded(Children {
            first: ((word >> 16) & FIRST_MASK) as u32,
            count: (word & COUNT_MASK) as u32,
            restricted: word & RESTRICTED != 0,
            filtered: word & FILTERED != 0,
        })
    }
}

/// Visits and wins (in units of 1/[`REWARD_UNIT`] of a win) of one edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Stats {
    pub visits: u32,
    pub wins: u32,
}

impl Stats {
    /// Mean reward in [0, 1] for the edge's player; `None` without visits.
    pub fn mean(self) -> Option<f32> {
        (self.visits > 0).then(|| self.wins as f32 / (REWARD_UNIT as f32 * self.visits as f32))
    }

    /// The mean reward in millionths (0 without visits), an exact integer key for ordering.
    pub fn mean_key(self) -> u64 {
        u64::from(self.wins) * 1_000_000 / (u64::from(REWARD_UNIT) * u64::from(self.visits.max(1)))
    }
}

impl Edge {
    /// Fills a fresh edge. Only the expanding thread calls this, before publishing the block.
    pub fn init(&self, cell: u16, prior: f32) {
        self.stats.store(0, Ordering::Relaxed);
        self.children.store(0, Ordering::Relaxed);
        self.prior.store(prior.to_bits(), Ordering::Relaxed);
        self.cell.store(cell, Ordering::Relaxed);
        self.proof.store(Proof::Unknown as u8, Ordering::Relaxed);
        self.minimax.store(0, Ordering::Relaxed);
        self.amaf.store(0, Ordering::Relaxed);
    }

    /// Copies every field (single-threaded tree maintenance only).
    pub fn copy_from(&self, other: &Edge) {
        let o = Ordering::Relaxed;
        self.stats.store(other.stats.load(o), o);
        self.children.store(other.children.load(o), o);
        self.prior.store(other.prior.load(o), o);
        self.cell.store(other.cell.load(o), o);
        self.proof.store(other.proof.load(o), o);
        self.minimax.store(other.minimax.load(o), o);
        self.amaf.store(other.amaf.load(o), o);
    }

    /// Takes over the statistics and subtree of `other`, keeping this edge's stone and prior
    /// (single-threaded tree maintenance only).
    pub fn graft_from(&self, other: &Edge) {
        let o = Ordering::Relaxed;
        self.stats.store(other.stats.load(o), o);
        self.children.store(other.children.load(o), o);
        self.proof.store(other.proof.load(o), o);
        self.minimax.store(other.minimax.load(o), o);
        self.amaf.store(other.amaf.load(o), o);
    }

    /// The implicit minimax value for the edge's player, once a leaf below it was valued.
    pub fn minimax(&self) -> Option<f32> {
        match self.minimax.load(Ordering::Relaxed) {
            0 => None,
            q => Some(f32::from(q - 1) / 254.0),
        }
    }

    /// Sets the minimax value (clamped to 0..=1); true when the stored value changed.
    pub fn set_minimax(&self, value: f32) -> bool {
        let q = (value.clamp(0.0, 1.0) * 254.0).round() as u8 + 1;
        self.minimax.swap(q, Ordering::Relaxed) != q
    }

    pub fn proof(&self) -> Proof {
        match self.proof.load(Ordering::Relaxed) & !CLAIMS {
            1 => Proof::Win,
            2 => Proof::Loss,
            3 => Proof::Excluded,
            _ => Proof::Unknown,
        }
    }

    /// Sets the proof, keeping the claims.
    pub fn set_proof(&self, proof: Proof) {
        let _ = self
            .proof
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| {
                Some((b & CLAIMS) | proof as u8)
            });
    }

    /// Claims the edge's one deep solve: true for the first caller only.
    pub fn claim_deep_solve(&self) -> bool {
        self.proof.fetch_or(DEEP_SOLVED, Ordering::Relaxed) & DEEP_SOLVED == 0
    }

    /// Claims the edge's one pair-defence proof: true for the first caller only.
    pub fn claim_pair_proof(&self) -> bool {
        self.proof.fetch_or(PAIR_TRIED, Ordering::Relaxed) & PAIR_TRIED == 0
    }

    pub fn cell(&self) -> u16 {
        self.cell.load(Ordering::Relaxed)
    }

    pub fn prior(&self) -> f32 {
        f32::from_bits(self.prior.load(Ordering::Relaxed))
    }

    pub fn stats(&self) -> Stats {
        let word = self.stats.load(Ordering::Relaxed);
        Stats {
            visits: (word >> 32) as u32,
            wins: word as u32,
        }
    }

    /// Adds `n` virtual visits (losses until backed up); returns the visits before.
    pub fn add_virtual_loss(&self, n: u32) -> u32 {
        (self.stats.fetch_add(n as u64 * VISIT, Ordering::Relaxed) >> 32) as u32
    }

    /// Turns the `virtual_loss` virtual visits of one descent into one real visit with
    /// `reward` (0 = loss ..= [`REWARD_UNIT`] = win) for this edge's player.
    pub fn backup(&self, virtual_loss: u32, reward: u32) {
        debug_assert!(reward <= REWARD_UNIT);
        let delta = VISIT
            .wrapping_sub(virtual_loss as u64 * VISIT)
            .wrapping_add(reward as u64);
        self.stats.fetch_add(delta, Ordering::Relaxed);
    }

    /// The all-moves-as-first visits and wins (`amaf.rs`).
    pub fn amaf(&self) -> Stats {
        let word = self.amaf.load(Ordering::Relaxed);
        Stats {
            visits: (word >> 32) as u32,
            wins: word as u32,
        }
    }

    /// Counts one all-moves-as-first visit with `reward` for this edge's player.
    pub fn add_amaf(&self, reward: u32) {
        debug_assert!(reward <= REWARD_UNIT);
        self.amaf
            .fetch_add(VISIT + u64::from(reward), Ordering::Relaxed);
    }

    /// Sets statistics outright (tests).
    #[cfg(test)]
    pub fn set_stats(&self, s: Stats) {
        self.stats
            .store(((s.visits as u64) << 32) | s.wins as u64, Ordering::Relaxed);
    }

    pub fn expansion(&self) -> Expansion {
        unpack_children(self.children.load(Ordering::Acquire))
    }

    /// Claims the right to expand this leaf; false if it is expanded or being expanded.
    pub fn try_begin_expansion(&self) -> bool {
        self.children
            .compare_exchange(0, EXPANDING, Ordering::Acquire, Ordering::Relaxed)
            .is_ok()
    }

    /// Gives the claim back (no memory left).
    pub fn abort_expansion(&self) {
        self.children.store(0, Ordering::Release);
    }

    /// Publishes the children; the block's edges are visible to any thread that sees this.
    pub fn publish(&self, children: Children) {
        self.children.store(children.pack(), Ordering::Release);
    }

    /// Swaps the published block `old` for `new` (a narrowed re-expansion); false when another
    /// thread changed the block first.
    pub fn replace_children(&self, old: Children, new: Children) -> bool {
        self.children
            .compare_exchange(old.pack(), new.pack(), Ordering::AcqRel, Ordering::Relaxed)
            .is_ok()
    }

    /// Fills a fresh edge with `other`'s stone, statistics, proof and subtree under a new
    /// prior, for a re-expansion while the search runs. A subtree another thread is still
    /// expanding, or one built under the old sibling order (filtered: its second stones left
    /// out siblings that may be gone), is left behind: the edge becomes a leaf again and is
    /// expanded afresh. With several threads, virtual losses in flight on `other` are copied
    /// and never taken back: a few phantom lost visits, as a price for not locking.
    pub fn take_over(&self, other: &Edge, prior: f32) {
        let o = Ordering::Relaxed;
        let children = match unpack_children(other.children.load(Ordering::Acquire)) {
            Expansion::Expanded(c) if !c.filtered => c.pack(),
            _ => 0,
        };
        self.stats.store(other.stats.load(o), o);
        self.prior.store(prior.to_bits(), o);
        self.cell.store(other.cell.load(o), o);
        self.proof.store(other.proof.load(o), o);
        self.minimax.store(other.minimax.load(o), o);
        self.amaf.store(other.amaf.load(o), o);
        self.children.store(children, Ordering::Release);
    }

    /// Makes the edge a leaf again (tree maintenance only).
    pub fn clear_children(&self) {
        self.children.store(0, Ordering::Relaxed);
    }

    /// Makes the edge a leaf again for a pruned tree (tree maintenance only): its subtree is
    /// gone, and with it the zone its deep solve narrowed the children to, so the claims to
    /// that solve and to the pair defence's are given back too; the proof stays.
    pub fn drop_children(&self) {
        self.clear_children();
        self.proof.fetch_and(!CLAIMS, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn virtual_loss_then_backup_leaves_one_visit_with_the_reward() {
        let e = Edge::default();
        e.init(7, 0.25);
        assert_eq!(e.add_virtual_loss(3), 0);
        assert_eq!(e.stats(), Stats { visits: 3, wins: 0 });
        e.backup(3, REWARD_UNIT);
        e.add_virtual_loss(3);
        e.backup(3, REWARD_UNIT / 2);
        assert_eq!(
            e.stats(),
            Stats {
                visits: 2,
                wins: 3 * REWARD_UNIT / 2
            }
        );
        assert_eq!(e.stats().mean(), Some(0.75));
        assert_eq!(e.stats().mean_key(), 750_000);
        let z = Edge::default();
        z.add_virtual_loss(0);
        z.backup(0, REWARD_UNIT);
        assert_eq!(z.stats().visits, 1);
        assert_eq!((e.cell(), e.prior()), (7, 0.25));
        assert_eq!(
            std::mem::size_of::<Edge>() as u64,
            crate::search::common::EDGE_BYTES
        );
        assert!(e.claim_deep_solve() && !e.claim_deep_solve());
        assert!(e.claim_pair_proof() && !e.claim_pair_proof());
        assert_eq!(e.minimax(), None);
        assert!(e.set_minimax(0.25) && !e.set_minimax(0.25));
        assert!((e.minimax().unwrap() - 0.25).abs() < 0.003);
        assert!(e.set_minimax(1.5) && e.minimax() == Some(1.0));
        e.set_proof(Proof::Loss);
        assert_eq!(e.proof(), Proof::Loss);
        assert!(!e.claim_deep_solve() && !e.claim_pair_proof());
        e.drop_children();
        assert_eq!(e.proof(), Proof::Loss);
        assert!(e.claim_deep_solve() && e.claim_pair_proof());
        let f = Edge::default();
        f.copy_from(&e);
        assert_eq!(f.proof(), Proof::Loss);
        f.init(1, 0.5);
        assert_eq!(f.proof(), Proof::Unknown);
    }

    #[test]
    fn children_word_round_trips_and_claims_are_exclusive() {
        let e = Edge::default();
        assert_eq!(e.expansion(), Expansion::Leaf);
        assert!(e.try_begin_expansion());
        assert!(!e.try_begin_expansion());
        assert_eq!(e.expansion(), Expansion::Expanding);
        let c = Children {
            first: 123_456_789,
            count: 625,
            restricted: true,
            filtered: false,
        };
        e.publish(c);
        assert_eq!(e.expansion(), Expansion::Expanded(c));
        let c2 = Children {
            filtered: true,
            restricted: false,
            ..c
        };
        e.publish(c2);
        assert_eq!(e.expansion(), Expansion::Expanded(c2));
        // A replacement only succeeds against the block still published.
        assert!(!e.replace_children(c, c2));
        assert!(e.replace_children(c2, c));
        assert_eq!(e.expansion(), Expansion::Expanded(c));
    }

    #[test]
    fn take_over_keeps_the_statistics_and_drops_a_stale_subtree() {
        let old = Edge::default();
        old.init(42, 0.1);
        old.set_stats(Stats {
            visits: 9,
            wins: 3 * REWARD_UNIT,
        });
        old.set_proof(Proof::Loss);
        let filtered = Children {
            first: 7,
            count: 3,
            restricted: false,
            filtered: true,
        };
        let plain = Children {
            filtered: false,
            ..filtered
        };
        old.publish(plain);
        let new = Edge::default();
        new.take_over(&old, 0.5);
        assert_eq!(
            (new.cell(), new.prior(), new.proof()),
            (42, 0.5, Proof::Loss)
        );
        assert_eq!(new.stats(), old.stats());
        assert_eq!(new.expansion(), Expansion::Expanded(plain));
        old.publish(filtered);
        new.take_over(&old, 0.5);
        assert_eq!(new.expansion(), Expansion::Leaf);
        old.abort_expansion();
        assert!(old.try_begin_expansion());
        new.take_over(&old, 0.5);
        assert_eq!(new.expansion(), Expansion::Leaf);
    }
}
