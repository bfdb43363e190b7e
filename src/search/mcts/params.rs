//! Tunable search parameters. Every field is meant to become a key of the `[search]` config
//! section; the defaults are the documented starting point (docs/README-search.md).

use crate::search::common::{PlayoutPolicy, SolverParams};

/// How the search treats the two orders {a,b} / {b,a} of one turn's stones (design.md A2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairOrder {
    /// Both orders are searched: every pair sits twice in the tree.
    Both,
    /// A second stone must rank after the first among the first stone's siblings (children are
    /// sorted by prior, so "the first stone is the one with the higher prior"). Only applied when
    /// neither stone is forced, where the other order is guaranteed to exist in the tree.
    Canonical,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SearchParams {
    /// UCB exploration constant C in w/n + C·sqrt(ln N / n).
    pub c_uct: f32,
    /// Weight C_BT of the Bradley-Terry bias term C_BT·P(m)·sqrt(K/(N+K)) (Ikeda & Viennot 2013).
    pub c_bt: f32,
    /// K of the bias term: the parent visit count around which the bias has halved its weight.
    pub bt_k: f32,
    /// First-play urgency: an unvisited child is valued at the parent's mean minus this
    /// (plus its bias term). Negative = optimistic: a visited child must have had its
    /// exploration term shrink below the difference before the next child is tried.
    pub fpu_reduction: f32,
    /// Virtual visits (counted as losses) a thread adds to every edge it descends through.
    pub virtual_loss: u32,
    /// A leaf is expanded when its visit count (including this descent) reaches this.
    pub expand_visits: u32,
    /// At most this many children per node, the highest priors first; 0 = no limit.
    /// Forced sets (winning or blocking stones) are never cut, nor are the root and its
    /// children (the turn being chosen keeps every candidate).
    pub max_children: u32,
    /// Progressive widening: a node with N visits considers its first
    /// `widen_min + widen_factor·N^widen_exponent` children (by prior); `widen_min == 0` = off.
    pub widen_min: u32,
    pub widen_factor: f32,
    pub widen_exponent: f32,
    pub pair_order: PairOrder,
    /// Worker threads (tree-parallel).
    pub threads: usize,
    /// Tree node (edge) cap; each costs 24 bytes. At the cap the search stops expanding and
    /// keeps running playouts from the leaves.
    pub max_nodes: usize,
    /// Base seed of the per-thread random generators.
    pub seed: u64,
    /// Fixed playouts per stone (deterministic mode with 1 thread); `None` = time decides.
    pub playouts_per_stone: Option<u64>,
    /// Stop as soon as the most visited root child cannot be overtaken in the remaining budget.
    pub early_stop: bool,
    /// Early stop waits until this share of the stone's time budget has passed (0 = at once).
    pub early_stop_min_share: f32,
    /// Keep the subtree of the stones actually played between searches.
    pub reuse_tree: bool,
    /// The threat-space solver in the search (root pre-pass, proofs in the tree).
    pub solver: SolverParams,
    /// Stones after which a playout stops and is scored by the evaluator (when the search has
    /// one, see `Search::set_evaluator`); 0 = full playouts.
    pub playout_cutoff: u32,
    /// How playouts draw their free stones; the position factory applies it
    /// ([`PolicyFactory::with_playout_policy`](super::PolicyFactory::with_playout_policy)).
    pub playout_policy: PlayoutPolicy,
    /// λ of the leaf value (AlphaGo's mixing): a playout's reward is (1 − λ)·result + λ·v, with
    /// v the evaluator's win probability at the leaf the playout starts from (when the search
    /// has an evaluator and pattern-board positions); 0 = playouts alone.
    pub value_mix: f32,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            c_uct: 0.4,
            c_bt: 2.0,
            bt_k: 5000.0,
            fpu_reduction: -0.2,
            virtual_loss: 3,
            expand_visits: 2,
            max_children: 48,
            widen_min: 0,
            widen_factor: 2.0,
            widen_exponent: 0.5,
            pair_order: PairOrder::Canonical,
            threads: 1,
            max_nodes: 8 << 20,
            seed: 0x6C69_757A_6936,
            playouts_per_stone: None,
            early_stop: true,
            early_stop_min_share: 0.0,
            reuse_tree: true,
            solver: SolverParams::default(),
            playout_cutoff: 0,
            playout_policy: PlayoutPolicy::Gammas,
            value_mix: 0.5,
        }
    }
}

impl SearchParams {
    /// The `[search]` section and the engine-wide threads and seed of `config`, checked.
    /// Seed 0 means a fresh seed every run.
    pub fn from_config(config: &crate::config::EngineConfig) -> Result<SearchParams, String> {
        let s = &config.search;
        let pair_order = match s.pair_order.as_str() {
            "canonical" => PairOrder::Canonical,
            "both" => PairOrder::Both,
            other => {
                return Err(format!(
                    "search.pair_order must be \"canonical\" or \"both\", not {other:?}"
                ))
            }
        };
        let playout_policy = match s.playout_policy.as_str() {
            "gammas" => PlayoutPolicy::Gammas,
            "uniform" => PlayoutPolicy::Uniform,
            other => {
                return Err(format!(
                    "search.playout_policy must be \"gammas\" or \"uniform\", not {other:?}"
                ))
            }
        };
        let seed = match config.engine.seed {
            0 => std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64),
            n => n,
        };
        let params = SearchParams {
            c_uct: s.exploration as f32,
            c_bt: s.prior_weight as f32,
            bt_k: s.prior_visits as f32,
            fpu_reduction: s.fpu_reduction as f32,
            virtual_loss: s.virtual_loss,
            expand_visits: s.expand_visits,
            max_children: s.max_children,
            widen_min: s.widen_min,
            widen_factor: s.widen_factor as f32,
            widen_exponent: s.widen_exponent as f32,
            pair_order,
            threads: config.thread_count(),
            max_nodes: s.max_nodes,
            seed,
            playouts_per_stone: (s.playouts > 0).then_some(s.playouts),
            early_stop: s.early_stop,
            early_stop_min_share: s.early_stop_min_share as f32,
            reuse_tree: s.reuse_tree,
            solver: SolverParams::from_config(config)?,
            playout_cutoff: s.playout_cutoff,
            playout_policy,
            value_mix: s.value_mix as f32,
        };
        params.validate()?;
        Ok(params)
    }

    /// How many children (by prior order) a node with `visits` visits may consider.
    pub(crate) fn widened_children(&self, visits: u32, count: usize) -> usize {
        if self.widen_min == 0 {
            return count;
        }
        let extra = self.widen_factor * (visits as f32).powf(self.widen_exponent);
        (self.widen_min as usize + extra as usize).min(count)
    }

    /// Checks ranges; the error names the offending parameter.
    pub fn validate(&self) -> Result<(), String> {
        let finite_nonneg = [
            ("c_uct", self.c_uct),
            ("c_bt", self.c_bt),
            ("widen_factor", self.widen_factor),
            ("widen_exponent", self.widen_exponent),
        ];
        for (name, v) in finite_nonneg {
            if !v.is_finite() || v < 0.0 {
                return Err(format!(
                    "search.{name} must be a finite number >= 0, got {v}"
                ));
            }
        }
        let shares = [
            ("early_stop_min_share", self.early_stop_min_share),
            ("value_mix", self.value_mix),
            ("solver_pair_share", self.solver.pair_share),
        ];
        for (name, v) in shares {
            if !(0.0..=1.0).contains(&v) {
                return Err(format!("search.{name} must be in 0..=1, got {v}"));
            }
        }
        if !self.fpu_reduction.is_finite() {
            return Err(format!(
                "search.fpu_reduction must be a finite number, got {}",
                self.fpu_reduction
            ));
        }
        if !self.bt_k.is_finite() || self.bt_k <= 0.0 {
            return Err(format!("search.bt_k must be > 0, got {}", self.bt_k));
        }
        if self.threads == 0 || self.threads > 256 {
            return Err(format!(
                "search.threads must be in 1..=256, got {}",
                self.threads
            ));
        }
        if self.expand_visits == 0 {
            return Err("search.expand_visits must be >= 1".into());
        }
        if self.virtual_loss > 1000 {
            return Err("search.virtual_loss must be <= 1000".into());
        }
        if self.max_nodes < 1024 || self.max_nodes > (u32::MAX as usize) / 2 {
            return Err(format!(
                "search.max_nodes must be in 1024..={}, got {}",
                u32::MAX / 2,
                self.max_nodes
            ));
        }
        if self.playouts_per_stone == Some(0) {
            return Err("search.playouts_per_stone must be >= 1".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_and_documented_values() {
        let p = SearchParams::default();
        p.validate().unwrap();
        assert_eq!((p.c_uct, p.c_bt, p.bt_k), (0.4, 2.0, 5000.0));
    }

    #[test]
    fn built_in_config_gives_the_defaults() {
        let config = crate::config::EngineConfig::builtin();
        let p = SearchParams::from_config(&config).unwrap();
        let d = SearchParams::default();
        assert_eq!(
            SearchParams {
                threads: d.threads,
                seed: d.seed,
                ..p
            },
            d
        );
        let mut bad = config.clone();
        bad.search.pair_order = "sideways".into();
        assert!(SearchParams::from_config(&bad)
            .unwrap_err()
            .contains("pair_order"));
        bad.search.pair_order = "both".into();
        bad.search.playout_policy = "random".into();
        assert!(SearchParams::from_config(&bad)
            .unwrap_err()
            .contains("playout_policy"));
        bad.search.playout_policy = "uniform".into();
        assert_eq!(
            SearchParams::from_config(&bad).unwrap().playout_policy,
            PlayoutPolicy::Uniform
        );
        bad.search.expand_visits = 0;
        assert!(SearchParams::from_config(&bad)
            .unwrap_err()
            .contains("expand_visits"));
    }

    #[test]
    fn validation_names_the_bad_key() {
        let p = SearchParams {
            c_bt: f32::NAN,
            ..SearchParams::default()
        };
        assert!(p.validate().unwrap_err().contains("c_bt"));
        let p = SearchParams {
            threads: 0,
            ..SearchParams::default()
        };
        assert!(p.validate().unwrap_err().contains("threads"));
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
