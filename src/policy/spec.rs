//! The feature groups of the Bradley-Terry model and the feature-spec identifier that ties a
//! weights file to the code computing its features.
//!
//! A candidate stone activates exactly one value of every group in the spec (Coulom 2007: a team
//! with at most one member per group). Changing how a group's values are computed means bumping
//! its version, so weights trained for the old definition are refused.

use crate::patterns::shape::{multisets_of_four, OPP_CLASSES, OWN_CLASSES};
use std::fmt;

/// One feature group. The values of each are documented at [`super::features`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Group {
    /// The four directions' own line classes after placing, as an order-free multiset.
    Own4,
    /// The four directions' opponent line classes this stone spoils, as a multiset.
    Opp4,
    /// Chebyshev distance to the nearest stone: 1, 2, 3, farther (or empty board).
    Nearest,
    /// Distance to the nearest edge: 0, 1, 2, 3, 4+.
    Edge,
    /// First stone of a turn, or the second stone's relation to the first.
    Stage,
    /// Chebyshev distance to the opponent's stones of its last turn: 1, 2, 3, farther.
    LastOpp,
    /// Completes a six this turn (exact), must block the opponent's six (exact), or neither.
    Tactic,
    /// The highest own class of the four directions times the highest opponent class the
    /// stone spoils: attack and defence in one stone, which the independent `own4` and `opp4`
    /// gammas cannot price together.
    Cross,
}

impl Group {
    pub const ALL: [Group; 8] = [
        Group::Own4,
        Group::Opp4,
        Group::Nearest,
        Group::Edge,
        Group::Stage,
        Group::LastOpp,
        Group::Tactic,
        Group::Cross,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Group::Own4 => "own4",
            Group::Opp4 => "opp4",
            Group::Nearest => "nearest",
            Group::Edge => "edge",
            Group::Stage => "stage",
            Group::LastOpp => "lastopp",
            Group::Tactic => "tactic",
            Group::Cross => "cross",
        }
    }

    /// Number of values.
    pub fn size(self) -> usize {
        match self {
            Group::Own4 => multisets_of_four(OWN_CLASSES),
            Group::Opp4 => multisets_of_four(OPP_CLASSES),
            Group::Nearest => 4,
            Group::Edge => 5,
            Group::Stage => 8,
            Group::LastOpp => 4,
            Group::Tactic => 3,
            Group::Cross => OWN_CLASSES * OPP_CLASSES,
        }
    }

    /// Bumped whenever the meaning of the values changes.
    pub fn version(self) -> u32 {
        1
    }

    /// Position in [`Group::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn from_name(name: &str) -> Option<Group> {
        Group::ALL.into_iter().find(|g| g.name() == name)
    }
}

/// An ordered set of groups: which features a weights file holds gammas for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FeatureSpec {
    groups: Vec<Group>,
}

/// Prefix of every spec id: the model family and the layout of the id itself.
const SPEC_FAMILY: &str = "liuzi-bt1";

impl FeatureSpec {
    /// All groups (the tree-prior section of the shipped weights; `tests/data/cross.weights`).
    pub fn full() -> FeatureSpec {
        FeatureSpec {
            groups: Group::ALL.to_vec(),
        }
    }

    /// Every group but `cross`: the spec of the shipped `engine-config/default.weights` (`cross`
    /// predicts better but plays no better and slows the playouts; docs/patterns.md, BT features).
    pub fn shipped() -> FeatureSpec {
        FeatureSpec {
            groups: Group::ALL
                .into_iter()
                .filter(|&g| g != Group::Cross)
                .collect(),
        }
    }

    /// The given groups in canonical order; `None` if empty or repeated.
    pub fn new(groups: &[Group]) -> Option<FeatureSpec> {
        let mut g = groups.to_vec();
        g.sort();
        g.dedup();
        (!g.is_empty() && g.len() == groups.len()).then_some(FeatureSpec { groups: g })
    }

    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    pub fn contains(&self, group: Group) -> bool {
        self.groups.contains(&group)
    }

    /// E.g. `liuzi-bt1:own4.1=3060,opp4.1=2380,...`: names, versions and sizes.
    pub fn id(&self) -> String {
        let parts: Vec<String> = self
            .groups
            .iter()
            .map(|g| format!("{}.{}={}", g.name(), g.version(), g.size()))
            .collect();
        format!("{SPEC_FAMILY}:{}", parts.join(","))
    }

    /// Parses an id, accepting it only if this build computes exactly those groups.
    pub fn from_id(id: &str) -> Result<FeatureSpec, String> {
        let rest = id
            .strip_prefix(SPEC_FAMILY)
            .and_then(|r| r.strip_prefix(':'))
            .ok_or_else(|| format!("unknown model family (expected {SPEC_FAMILY})"))?;
        let mut groups = Vec::new();
        for part in rest.split(',') {
            let (name, tail) = part
                .split_once('.')
                .ok_or_else(|| format!("malformed group `{part}`"))?;
            let group = Group::from_name(name).ok_or_else(|| format!("unknown group `{name}`"))?;
            let expected = format!("{}={}", group.version(), group.size());
            if tail != expected {
                return Err(format!(
                    "group `{name}` is `{tail}` there but `{expected}` in this build"
                ));
            }
            groups.push(group);
        }
        let spec = FeatureSpec::new(&groups).ok_or("groups repeated or out of order")?;
        if spec.groups != groups {
            return Err("groups repeated or out of order".into());
        }
        Ok(spec)
    }
}

impl fmt::Display for FeatureSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_round_trips_and_refuses_other_specs() {
        let spec = FeatureSpec::full();
        assert_eq!(FeatureSpec::from_id(&spec.id()).unwrap(), spec);
        let small = FeatureSpec::new(&[Group::Edge, Group::Own4]).unwrap();
        assert_eq!(small.groups(), &[Group::Own4, Group::Edge]);
        assert_eq!(FeatureSpec::from_id(&small.id()).unwrap(), small);
        // Weights from before `cross` (seven groups) still load: a spec without it.
        let seven = "liuzi-bt1:own4.1=3060,opp4.1=2380,nearest.1=4,edge.1=5,stage.1=8,\
                     lastopp.1=4,tactic.1=3";
        assert!(!FeatureSpec::from_id(seven).unwrap().contains(Group::Cross));
        assert!(FeatureSpec::from_id("liuzi-bt1:own4.2=3060").is_err());
        assert!(FeatureSpec::from_id("liuzi-bt1:own4.1=99").is_err());
        assert!(FeatureSpec::from_id("liuzi-bt1:wings.1=4").is_err());
        assert!(FeatureSpec::from_id("liuzi-bt0:own4.1=3060").is_err());
        assert!(FeatureSpec::from_id("liuzi-bt1:edge.1=5,own4.1=3060").is_err());
    }
}
