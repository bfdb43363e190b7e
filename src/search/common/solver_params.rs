//! The threat-space solver's settings: the `solver*` keys of `[search]`, shared by both searches
//! (the MCTS uses all; alpha-beta all but the pair defence). As for every setting: each field is
//! the TOML key of the same name, its one default is the value in `engine-config/default.toml`,
//! and [`SolverParams::validate`] names the key of a value out of range.

use serde::{Deserialize, Serialize};

/// The threat-space solver's keys of `[search]` (the MCTS uses all; alpha-beta all but the pair
/// defence).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolverParams {
    /// Use the solver at all (off: the search without it, for comparison matches).
    pub solver: bool,
    /// Node limit of the root's VCDT solves (ours, and the opponent's after a pass).
    pub solver_root_nodes: u64,
    /// Node limit of each verification of a defence-zone cell at the root.
    pub solver_verify_nodes: u64,
    /// Node limit of the solve when a tree node is expanded; 0 = no solves in the tree.
    pub solver_tree_nodes: u64,
    /// Tree nodes at most this many stones below the root are solved at expansion.
    pub solver_tree_plies: u32,
    /// At a turn's first stone under an opponent VCDT, keep the root to first stones that have
    /// a defending second stone (MCTS only).
    pub solver_pair_defence: bool,
    /// Share of a stone's time for the pair defence's checks at a turn's first stone; the
    /// verifications at its second stone get half of it.
    pub solver_pair_share: f32,
    /// The pair defence by proof zones (`tactics::pair_defence`): every proof found refutes the
    /// pairs that miss its zone, and undecided pairs are tried again with more nodes; false: one
    /// first stone at a time, each partner verified once (`tactics::partner`).
    pub solver_pair_zones: bool,
    /// MCTS: at a tree node (within `solver_tree_plies`) where the opponent has a VCDT if the
    /// side to move passed, the children are the stones of the defence zone (and losses proven
    /// among them back up).
    pub solver_tree_defence: bool,
    /// MCTS: a turn-start node within `solver_tree_plies` is solved again, once, with this node
    /// limit when its visits reach `solver_deep_visits` (the expansion's solve is small; nodes
    /// the search keeps returning to earn a deeper look); with `solver_tree_defence`, a node
    /// with free children also has its defence zone looked for again, and its children narrowed
    /// to it; 0 = never.
    pub solver_deep_nodes: u64,
    pub solver_deep_visits: u32,
    /// MCTS: the pair defence in the tree. A turn-start node within `solver_tree_plies` whose
    /// children are a forced set (with `solver_tree_defence`, a defence zone: the player who
    /// just moved has a VCDT if the side to move passed) is asked once, when its visits reach
    /// `solver_tree_pair_visits`, whether any pair of the side to move breaks it (the pair
    /// defence by proof zones, `tactics::pair_defence`), within this many solver stones.
    /// When none does, the node is proven lost for the side to move, so a quiet turn that
    /// leaves no defence is proven rather than sampled (ours: a quiet win; the opponent's: the
    /// pair before it lost). 0 = never.
    pub solver_tree_pair_nodes: u64,
    pub solver_tree_pair_visits: u32,
    /// MCTS: solver stones that all the tree's pair defences of one run of the workers may
    /// spend together (each within `solver_tree_pair_nodes`; threads starting one at once may
    /// pass it by a budget each; a stone's search, its extension and its resumption after the
    /// pair check each count afresh); past it no more are started, so tactical positions with
    /// many hot defence nodes keep most of the stone's time for the search. 0 = no limit.
    pub solver_tree_pair_search_nodes: u64,
    /// MCTS: share of a stone's time kept, after the search, for checking the pair it would
    /// play against the opponent's wins that start with a single threat (and its VCDT, with a
    /// larger limit than the tree's); a pair proven lost is marked and the next best checked.
    /// Time left over goes back to the search. 0 = no check.
    pub solver_pair_check_share: f32,
    /// Both searches: share of a stone's time the root may spend, after finding no VCDT of its
    /// own, looking for its own win that starts with a single threat (then played at once).
    /// 0 = no look.
    pub solver_single_threat_share: f32,
    /// Both searches: share of a stone's time the root may spend, after that, looking in threat
    /// space for a quiet win of its own (a turn after which no pair of the opponent's stops the
    /// VCDT that follows; `tactics::find_quiet_turn`), played at once. 0 = no look.
    pub solver_quiet_turn_share: f32,
    /// MCTS: with the pair check on, this many of the most visited turns are checked for a
    /// quiet win (no threat, yet no pair of the opponent's breaks the VCDT that follows): ours at
    /// the root (one found is played), and the opponent's replies below each pair checked (one
    /// found proves the pair lost). 0 = none.
    pub solver_quiet_win_pairs: u32,
    /// MCTS, within the pair check's time: the pair to be played is also checked for a quiet
    /// win of the opponent's found in threat space (`tactics::find_quiet_turn`); one found
    /// proves the pair lost.
    pub solver_pair_check_quiet: bool,
    /// With `solver_pair_check_quiet`: only while the search's value of the pair to be played
    /// (its first stone's mean, for us) is below this: when the opponent has the initiative.
    /// 1 = always.
    pub solver_pair_check_quiet_below: f32,
    /// Every solve: a free stone of the attacker (its first stone alone made two threats) may go
    /// up to this many cells along a line from its stones, besides windows holding 2 of them
    /// (0: windows only, the narrower model).
    pub solver_free_reach: u8,
}

impl Default for SolverParams {
    /// The shipped defaults (`engine-config/default.toml`).
    fn default() -> Self {
        super::shipped::shipped_section("search")
    }
}

impl SolverParams {
    /// Checks ranges; the error names the key.
    pub fn validate(&self) -> Result<(), String> {
        if !(0.0..=1.0).contains(&self.solver_pair_share) {
            return Err(format!(
                "search.solver_pair_share must be in 0..=1, not {}",
                self.solver_pair_share
            ));
        }
        if !(0.0..=0.9).contains(&self.solver_pair_check_share) {
            return Err(format!(
                "search.solver_pair_check_share must be in 0..=0.9, not {}",
                self.solver_pair_check_share
            ));
        }
        if !(0.0..=1.0).contains(&self.solver_pair_check_quiet_below) {
            return Err(format!(
                "search.solver_pair_check_quiet_below must be in 0..=1, not {}",
                self.solver_pair_check_quiet_below
            ));
        }
        if !(0.0..=0.9).contains(&self.solver_single_threat_share) {
            return Err(format!(
                "search.solver_single_threat_share must be in 0..=0.9, not {}",
                self.solver_single_threat_share
            ));
        }
        if !(0.0..=0.9).contains(&self.solver_quiet_turn_share) {
            return Err(format!(
                "search.solver_quiet_turn_share must be in 0..=0.9, not {}",
                self.solver_quiet_turn_share
            ));
        }
        if self.solver_quiet_win_pairs > 1000 {
            return Err(format!(
                "search.solver_quiet_win_pairs must be <= 1000, not {}",
                self.solver_quiet_win_pairs
            ));
        }
        if self.solver_tree_pair_visits == 0 {
            return Err("search.solver_tree_pair_visits must be >= 1, not 0".into());
        }
        if self.solver_deep_visits == 0 {
            return Err("search.solver_deep_visits must be >= 1, not 0".into());
        }
        if self.solver_free_reach > 5 {
            return Err(format!(
                "search.solver_free_reach must be <= 5 (a window's reach), not {}",
                self.solver_free_reach
            ));
        }
        if self.solver_tree_plies > 64 {
            return Err(format!(
                "search.solver_tree_plies must be <= 64, not {}",
                self.solver_tree_plies
            ));
        }
        Ok(())
    }
}
