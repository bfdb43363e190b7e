//! The MCTS's settings: the `[search]` section of the configuration, the solver's `solver*` keys
//! among them ([`SolverParams`], shared with alpha-beta).
//!
//! One path per setting: each field is the TOML key of the same name, its one default is the
//! value in `engine-config/default.toml` (embedded in the binary), and [`SearchParams::validate`]
//! checks its range with an error that names the key. `config` reads the file, calls
//! `validate` once and hands the settings over.

use crate::search::common::{
    auto_tree_edges, check_memory, shipped_section, PlayoutPolicy, SolverParams, EDGE_BYTES,
    MAX_TREE_EDGES,
};
use serde::{Deserialize, Serialize};

/// How the search treats the two orders {a,b} / {b,a} of one turn's stones (docs/search.md,
/// expansion: one stone per tree ply).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PairOrder {
    /// Both orders are searched: every pair sits twice in the tree.
    Both,
    /// A second stone must rank after the first among the first stone's siblings (children are
    /// sorted by prior, so "the first stone is the one with the higher prior"). Only applied when
    /// neither stone is forced, where the other order is guaranteed to exist in the tree.
    Canonical,
}

/// Which stones the opening's free choices must lie near (`opening_stones`, `opening_reach`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpeningNear {
    /// Any stone on the board.
    Stones,
    /// The side to move's own stones (this turn's first stone included); a side with none yet,
    /// or none near a candidate, falls back to any stone.
    Own,
    /// Black's choices near Black's own stones, White's near any stone: the side with the
    /// initiative builds on its shape, the other answers it. Tried because `own` raised
    /// Black's score against Cloudict and lowered White's; it did worse on both sides
    /// (docs/results.md, ablations).
    #[serde(rename = "black-own")]
    BlackOwn,
    /// Black's choices near Black's own stones, White's anywhere: only the side with the
    /// initiative is bound, in its own turns and in its opponent's trees alike. Over Black's
    /// first two free turns it measured level against Cloudict and no better in self-play
    /// (docs/results.md, ablations).
    Black,
}

/// The `[search]` keys of the MCTS. The comments of `engine-config/default.toml` say what each
/// does and what the matches behind its value showed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchParams {
    /// C of the UCB exploration term w/n + C·sqrt(ln N / n).
    pub exploration: f32,
    /// C_BT, weight of the Bradley-Terry bias C_BT·P(m)·sqrt(K/(N+K)) (Ikeda & Viennot 2013).
    pub prior_weight: f32,
    /// K of the bias term: the parent visit count around which the bias has halved its weight.
    pub prior_visits: f32,
    /// First-play urgency: an unvisited child is valued at the parent's mean minus this (plus
    /// its bias term). Negative = optimistic.
    pub fpu_reduction: f32,
    /// The first-play urgency below the root at a node where the side to move at the root
    /// chooses a turn's second stone: the partners of its own first stones. Equal to
    /// `fpu_reduction` by default; a larger one keeps a first stone's visits on its best partners
    /// so that its value is theirs rather than a mean over every partner tried once. The
    /// opponent's nodes keep `fpu_reduction`: there the search looks for refutations.
    pub own_second_stone_fpu_reduction: f32,
    /// Fixed playouts per stone (deterministic with one thread); 0 = time decides.
    pub playouts: u64,
    /// Virtual visits (counted as losses) a thread adds to every edge it descends through.
    pub virtual_loss: u32,
    /// A leaf is expanded when its visit count (including this descent) reaches this.
    pub expand_visits: u32,
    /// At most this many children per node, the highest priors first; 0 = no limit. Forced
    /// sets and the nodes within `full_width_plies` of the root are never cut.
    pub max_children: u32,
    /// Nodes fewer than this many stones below the root keep every candidate whatever
    /// `max_children` says: 2 = the whole turn being chosen (its first and second stones), 1 =
    /// its first stones only (each first stone's partners are cut to `max_children`, so its
    /// value comes from its best partners sooner).
    pub full_width_plies: u32,
    /// While fewer than `opening_stones` stones are on the board, a node's free choices (not
    /// forced or zone sets) are the cells within `opening_reach` (Chebyshev distance) of a
    /// stone: experts' stones there lie within 2 of one 99% of the time, and on a near-empty
    /// board playout values are too noisy to rule out a far cell. 0 = off.
    pub opening_stones: u32,
    pub opening_reach: u32,
    /// Near any stone, or near the mover's own. Re-asked first pairs of the 3-stone openings
    /// against Cloudict kept Black's win 85% of the time within 1 of Black's own stones, 16%
    /// from 3 away; yet keeping the choice near its own stones gained nothing at reach 2
    /// (docs/results.md, ablations), and at reach 1 gained against Cloudict what it lost in
    /// self-play, so the default is "stones".
    pub opening_near: OpeningNear,
    /// With a weights file that has a tree-prior section: its priors for the nodes fewer than
    /// this many stones below the search root, the playout gammas deeper (where most
    /// expansions are, and the sharper priors cost speed); 0 = at every depth.
    pub tree_prior_plies: u32,
    /// The evaluator's factor on the free priors of nodes fewer than this many stones below the
    /// root (`search::mcts::eval_prior`): each of the `eval_prior_candidates` highest-prior
    /// candidates is played and valued, and its weight multiplied by
    /// exp(`eval_prior_weight`·(logit v − the best logit v)); 0 = off.
    pub eval_prior_plies: u32,
    pub eval_prior_weight: f32,
    pub eval_prior_candidates: u32,
    /// Progressive widening: a node with N visits considers its first
    /// `widen_min + widen_factor·N^widen_exponent` children; `widen_min == 0` = off.
    pub widen_min: u32,
    pub widen_factor: f32,
    pub widen_exponent: f32,
    pub pair_order: PairOrder,
    /// Tree edge cap ([`EDGE_BYTES`] each); 0 = a quarter of the machine's memory
    /// ([`SearchParams::tree_edges`]). At the cap the tree is pruned (`prune_at_cap`) or stops
    /// growing.
    pub max_nodes: usize,
    /// At the cap, stop the workers and prune the tree (every subtree under an edge with few
    /// visits dropped), then search on in the room it frees; off, the search plays on from
    /// the full tree's leaves.
    pub prune_at_cap: bool,
    /// Stop as soon as the most visited root child cannot be overtaken in the remaining budget.
    pub early_stop: bool,
    /// Early stop waits until this share of the stone's budget has passed (0 = at once).
    pub early_stop_min_share: f32,
    /// Keep the subtree of the stones actually played between searches.
    pub reuse_tree: bool,
    /// Keep it also at a turn's first stone where the opponent has a VCDT (the root plan
    /// restricts the stones): that subtree grew a turn deeper, below the tree's solves, and its
    /// visits hide the threat.
    pub reuse_tree_under_threat: bool,
    /// A reused root that was expanded below the turn then being chosen had its children cut
    /// to `max_children`: give it every candidate again (keeping the statistics of those it
    /// had), so that a turn searched on a reused tree is as wide as one searched afresh.
    pub widen_reused_root: bool,
    /// When the root pre-pass proves every stone of the opponent's threat zone lost, search
    /// the zone without proofs (on a tree without them), so that the stone played is the loss
    /// hardest to find rather than any one of equally lost stones.
    pub resist_lost: bool,
    /// The stone played: the most visited (0), or with c > 0, among the stones with at least
    /// `choice_min_share` of the most visited one's visits, the highest mean − c/sqrt(visits)
    /// (`search::mcts::choice`).
    pub choice_lcb: f32,
    pub choice_min_share: f32,
    /// The threat-space solver's keys (`solver*`, in this section).
    #[serde(flatten)]
    pub tactics: SolverParams,
    /// Stones after which a playout stops and is scored by the evaluator; 0 = full playouts.
    pub playout_cutoff: u32,
    /// The cut-off counts only free stones (roulette draws): a playout whose next stone is a
    /// forced block, or a six, plays on past it, so the evaluator scores a position with no
    /// four left to answer; at most 4 × `playout_cutoff` stones in all.
    pub playout_cutoff_quiet: bool,
    /// How playouts draw their free stones.
    pub playout_policy: PlayoutPolicy,
    /// λ of the leaf value: a playout's reward is (1 − λ)·result + λ·v, v the evaluator's win
    /// probability at the leaf; 0 = playouts alone.
    pub value_mix: f32,
    /// α of implicit minimax backups (Lanctot et al. 2014): selection values a visited child at
    /// (1 − α)·w/n + α·m, m the minimax of the evaluator's leaf values below it; 0 = off.
    pub minimax_weight: f32,
    /// RAVE's equivalence k (Gelly & Silver 2007, `search::mcts::amaf`): a visited child's mean
    /// is blended with its all-moves-as-first mean by β = sqrt(k / (3n + k)); 0 = off.
    pub rave_equivalence: f32,
    /// With RAVE on: an unvisited child with AMAF visits is first tried by its AMAF mean
    /// (shrunk towards the parent's) − `fpu_reduction` instead of the parent's mean.
    pub rave_first_play: bool,
    /// Pair verification: after the search, the most visited turns (up to `verify_pairs`, each
    /// with a tenth of the best one's visits at least) are judged by an alpha-beta search of
    /// `verify_depth` stones from the opponent's side, and the best judged is played; 0 = off.
    pub verify_depth: u32,
    pub verify_pairs: u32,
    /// Share of the stone's time kept for the verification.
    pub verify_share: f32,
    /// Another turn replaces the search's choice only when judged better by more than this
    /// (win probability): a close call stays the search's, whose style the judge does not share.
    pub verify_margin: f32,
    /// The verification only while fewer than this many stones are on the board (the quiet
    /// opening, where the playouts' values are weakest); 0 = the whole game.
    pub verify_stones: u32,
    /// Worker threads: `engine.threads` (one per core for 0), not a key of this section.
    #[serde(skip, default = "one_thread")]
    pub threads: usize,
    /// Base seed of the per-thread generators: `engine.seed` (a fresh one for 0), not a key of
    /// this section.
    #[serde(skip)]
    pub seed: u64,
}

fn one_thread() -> usize {
    1
}

impl Default for SearchParams {
    /// The shipped defaults (`engine-config/default.toml`), one thread, seed 0.
    fn default() -> Self {
        shipped_section("search")
    }
}

impl SearchParams {
    /// The playout limit per stone, `None` when time decides.
    pub fn playout_limit(&self) -> Option<u64> {
        (self.playouts > 0).then_some(self.playouts)
    }

    /// How many children (by prior order) a node with `visits` visits may consider.
    pub fn widened_children(&self, visits: u32, count: usize) -> usize {
        if self.widen_min == 0 {
            return count;
        }
        let extra = self.widen_factor * crate::math::powf(visits as f32, self.widen_exponent);
        (self.widen_min as usize + extra as usize).min(count)
    }

    /// The tree's edge cap: `max_nodes`, or with 0 a quarter of the machine's memory.
    pub fn tree_edges(&self) -> usize {
        match self.max_nodes {
            0 => auto_tree_edges(),
            n => n,
        }
    }

    /// Checks ranges, and the tree against the machine's memory; the error names the key.
    pub fn validate(&self) -> Result<(), String> {
        let finite_nonneg = [
            ("exploration", self.exploration),
            ("prior_weight", self.prior_weight),
            ("widen_factor", self.widen_factor),
            ("choice_lcb", self.choice_lcb),
            ("rave_equivalence", self.rave_equivalence),
            ("widen_exponent", self.widen_exponent),
            ("eval_prior_weight", self.eval_prior_weight),
        ];
        for (key, v) in finite_nonneg {
            if !v.is_finite() || v < 0.0 {
                return Err(format!(
                    "search.{key} must be a finite number >= 0, not {v}"
                ));
            }
        }
        let shares = [
            ("early_stop_min_share", self.early_stop_min_share),
            ("value_mix", self.value_mix),
            ("minimax_weight", self.minimax_weight),
            ("verify_share", self.verify_share),
            ("verify_margin", self.verify_margin),
            ("choice_min_share", self.choice_min_share),
        ];
        for (key, v) in shares {
            if !(0.0..=1.0).contains(&v) {
                return Err(format!("search.{key} must be in 0..=1, not {v}"));
            }
        }
        for (key, v) in [
            ("fpu_reduction", self.fpu_reduction),
            (
                "own_second_stone_fpu_reduction",
                self.own_second_stone_fpu_reduction,
            ),
        ] {
            if !v.is_finite() {
                return Err(format!("search.{key} must be a finite number, not {v}"));
            }
        }
        if !self.prior_visits.is_finite() || self.prior_visits <= 0.0 {
            return Err(format!(
                "search.prior_visits must be > 0, not {}",
                self.prior_visits
            ));
        }
        if self.verify_depth > 12 {
            return Err(format!(
                "search.verify_depth must be in 0..=12 (stones), not {}",
                self.verify_depth
            ));
        }
        if !(1..=16).contains(&self.verify_pairs) {
            return Err(format!(
                "search.verify_pairs must be in 1..=16, not {}",
                self.verify_pairs
            ));
        }
        if self.eval_prior_plies > 64 {
            return Err(format!(
                "search.eval_prior_plies must be in 0..=64, not {}",
                self.eval_prior_plies
            ));
        }
        if self.eval_prior_plies > 0 && self.eval_prior_candidates == 0 {
            return Err(
                "search.eval_prior_candidates must be >= 1 when eval_prior_plies is set, not 0"
                    .into(),
            );
        }
        if self.expand_visits == 0 {
            return Err("search.expand_visits must be >= 1, not 0".into());
        }
        if self.virtual_loss > 1000 {
            return Err(format!(
                "search.virtual_loss must be <= 1000, not {}",
                self.virtual_loss
            ));
        }
        if self.max_nodes != 0 && !(1024..=MAX_TREE_EDGES).contains(&self.max_nodes) {
            return Err(format!(
                "search.max_nodes must be 0 (sized by the machine's memory) or in 1024..={}, \
                 not {}",
                MAX_TREE_EDGES, self.max_nodes
            ));
        }
        check_memory(
            "search.max_nodes",
            self.max_nodes,
            (self.max_nodes as u64).saturating_mul(EDGE_BYTES),
        )?;
        self.tactics.validate()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::common::physical_memory;

    #[test]
    fn defaults_come_from_the_shipped_file_and_are_valid() {
        let p = SearchParams::default();
        p.validate().unwrap();
        assert_eq!(
            (p.exploration, p.prior_weight, p.prior_visits),
            (0.25, 0.3, 5000.0)
        );
        assert_eq!((p.threads, p.seed), (1, 0));
        assert_eq!(p.pair_order, PairOrder::Canonical);
        assert_eq!(p.playout_policy, PlayoutPolicy::Gammas);
        assert!(p.tactics.solver);
        assert_eq!(p.tactics, SolverParams::default());
        assert_eq!(p.playout_limit(), None);
    }

    #[test]
    fn a_tree_sized_by_memory_takes_a_quarter_of_it() {
        // The default: a long think keeps growing its tree past the old fixed 8 M edges.
        let p = SearchParams::default();
        assert_eq!(p.max_nodes, 0);
        let edges = p.tree_edges() as u64;
        assert!((1024..=MAX_TREE_EDGES as u64).contains(&edges), "{edges}");
        match physical_memory() {
            Some(total) if total / 4 / EDGE_BYTES <= MAX_TREE_EDGES as u64 => {
                assert_eq!(edges, total / 4 / EDGE_BYTES)
            }
            Some(_) => assert_eq!(edges, MAX_TREE_EDGES as u64),
            None => assert_eq!(edges, 1 << 23),
        }
        let fixed = SearchParams {
            max_nodes: 4096,
            ..SearchParams::default()
        };
        assert_eq!(fixed.tree_edges(), 4096);
    }

    #[test]
    fn widening_grows_with_visits_and_is_off_by_default() {
        let p = SearchParams::default();
        assert_eq!(p.widened_children(0, 50), 50);
        let p = SearchParams {
            widen_min: 4,
            widen_factor: 1.0,
            widen_exponent: 0.5,
            ..SearchParams::default()
        };
        assert_eq!(p.widened_children(0, 50), 4);
        assert_eq!(p.widened_children(100, 50), 14);
        assert_eq!(p.widened_children(1_000_000, 50), 50);
    }
}
