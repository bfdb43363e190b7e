//! The Bradley-Terry move model's gammas (docs/patterns.md, gammas): [`Gammas`], one gamma per
//! feature value of a [`FeatureSpec`] (the playouts' fast model), and [`TreeModel`], the tree
//! prior's slower model (feature groups plus four raw line patterns, [`super::lines`]) fitted
//! jointly by MM. A weights file holds the first and, as its second section, the second; the file
//! format is [`super::weights_file`]'s. The two types live together because each holds the other:
//! the playout gammas carry the tree model, whose groups are gammas of their own.
//!
//! Tree prior: strength of an empty cell = Π γ(group value) over the groups × Π γ(line pattern
//! code) over the four directions. Computed from scratch per cell at each expansion (no
//! incremental tables): the cost is `liuzi bench search`'s playouts per second.

use super::features::{FeatureBoard, TurnContext};
use super::lines::{line_values, LineCodes};
use super::spec::{FeatureSpec, Group};
use crate::rules::Point;
use std::sync::Arc;

/// The trained gammas of every group of a [`FeatureSpec`].
#[derive(Clone, Debug, PartialEq)]
pub struct Gammas {
    spec: FeatureSpec,
    /// Per group of [`Group::ALL`]: its gammas, or empty when the spec lacks the group.
    tables: [Vec<f64>; Group::ALL.len()],
    source: String,
    /// The tree-prior section, when the file has one.
    tree: Option<Arc<TreeModel>>,
}

impl Gammas {
    /// Gammas for `spec`, one vector per group in spec order. Each must have the group's size and
    /// hold finite positive values.
    pub fn new(spec: FeatureSpec, values: Vec<Vec<f64>>, source: &str) -> Result<Gammas, String> {
        if values.len() != spec.groups().len() {
            return Err(format!(
                "{} groups of gammas for a spec of {}",
                values.len(),
                spec.groups().len()
            ));
        }
        let mut tables: [Vec<f64>; Group::ALL.len()] = Default::default();
        for (&group, v) in spec.groups().iter().zip(values) {
            if v.len() != group.size() {
                return Err(format!(
                    "group {} has {} gammas, needs {}",
                    group.name(),
                    v.len(),
                    group.size()
                ));
            }
            if let Some(bad) = v.iter().position(|&x| !(x.is_finite() && x > 0.0)) {
                return Err(format!(
                    "group {} value {bad} is {} (gammas must be finite and > 0)",
                    group.name(),
                    v[bad]
                ));
            }
            tables[group.index()] = v;
        }
        Ok(Gammas {
            spec,
            tables,
            source: source.replace(['\n', '\r'], " "),
            tree: None,
        })
    }

    /// These playout gammas with a tree-prior section.
    pub fn with_tree(mut self, tree: TreeModel) -> Gammas {
        self.tree = Some(Arc::new(tree));
        self
    }

    /// The tree-prior model of a two-section file (`None`: the tree priors are these gammas).
    pub fn tree(&self) -> Option<&TreeModel> {
        self.tree.as_deref()
    }

    /// Every gamma 1 for the full spec: all legal stones equally likely (tests, ablation baseline).
    pub fn uniform() -> Gammas {
        Gammas::uniform_for(FeatureSpec::full())
    }

    pub fn uniform_for(spec: FeatureSpec) -> Gammas {
        let values = spec.groups().iter().map(|g| vec![1.0; g.size()]).collect();
        Gammas::new(spec, values, "uniform").expect("uniform gammas are valid")
    }

    pub fn spec(&self) -> &FeatureSpec {
        &self.spec
    }

    /// Where the gammas came from (data and command), as written by the trainer.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Gamma of `value` of `group`; 1 for a group the spec lacks.
    #[inline]
    pub fn gamma(&self, group: Group, value: u16) -> f64 {
        match self.tables[group.index()].get(value as usize) {
            Some(&g) => g,
            None => 1.0,
        }
    }

    /// The gammas of `group` (empty if the spec lacks it).
    pub fn group(&self, group: Group) -> &[f64] {
        &self.tables[group.index()]
    }
}

/// Versioned name of the line-pattern part of a tree model: bumped when the codes change.
pub const LINES_VERSION: u32 = 1;

/// Feature groups and line-pattern gammas of the tree prior.
#[derive(Clone, Debug)]
pub struct TreeModel {
    groups: Gammas,
    codes: LineCodes,
    /// Per direction (`rules::DIRECTIONS` order): one gamma per pattern code.
    lines: [Vec<f64>; 4],
    /// The groups' gammas in spec order (the hot loop's copy of `groups`).
    tables: Vec<Vec<f64>>,
}

impl PartialEq for TreeModel {
    fn eq(&self, other: &Self) -> bool {
        // The groups' `source` is the file's, not part of the model.
        self.spec() == other.spec()
            && Group::ALL
                .iter()
                .all(|&g| self.groups.group(g) == other.groups.group(g))
            && self.codes.length() == other.codes.length()
            && self.lines == other.lines
    }
}

/// Pattern lengths a tree model may use (the code tables stay small).
pub const TREE_LINE_LENGTHS: std::ops::RangeInclusive<usize> = 2..=7;

impl TreeModel {
    /// `groups`: gammas of the feature groups; `lines`: four vectors of
    /// [`line_values`]`(length)` finite positive gammas.
    pub fn new(groups: Gammas, length: usize, lines: Vec<Vec<f64>>) -> Result<TreeModel, String> {
        if !TREE_LINE_LENGTHS.contains(&length) {
            return Err(format!(
                "line pattern length {length} (a tree model takes {}..={})",
                TREE_LINE_LENGTHS.start(),
                TREE_LINE_LENGTHS.end()
            ));
        }
        let lines: [Vec<f64>; 4] = lines
            .try_into()
            .map_err(|v: Vec<Vec<f64>>| format!("{} line directions, needs 4", v.len()))?;
        for (dir, v) in lines.iter().enumerate() {
            if v.len() != line_values(length) {
                return Err(format!(
                    "line {dir} has {} gammas, needs {}",
                    v.len(),
                    line_values(length)
                ));
            }
            if let Some(bad) = v.iter().position(|&x| !(x.is_finite() && x > 0.0)) {
                return Err(format!(
                    "line {dir} value {bad} is {} (gammas must be finite and > 0)",
                    v[bad]
                ));
            }
        }
        let tables = groups
            .spec()
            .groups()
            .iter()
            .map(|&g| groups.group(g).to_vec())
            .collect();
        Ok(TreeModel {
            groups,
            codes: LineCodes::new(length),
            lines,
            tables,
        })
    }

    /// Every gamma 1: with [`TreeModel::spec`] `spec` and patterns of `length`.
    pub fn uniform(spec: FeatureSpec, length: usize) -> TreeModel {
        let lines = vec![vec![1.0; line_values(length)]; 4];
        TreeModel::new(Gammas::uniform_for(spec), length, lines).expect("uniform is valid")
    }

    pub fn groups(&self) -> &Gammas {
        &self.groups
    }

    pub fn spec(&self) -> &FeatureSpec {
        self.groups.spec()
    }

    pub fn line_length(&self) -> usize {
        self.codes.length()
    }

    /// The gammas of direction `dir`'s pattern.
    pub fn line(&self, dir: usize) -> &[f64] {
        &self.lines[dir]
    }

    /// `<groups spec id> + lines.<version>=<length>x4`: what the section's header states.
    pub fn id(&self) -> String {
        format!(
            "{} + lines.{LINES_VERSION}={}x4",
            self.spec().id(),
            self.line_length()
        )
    }

    /// Strength of the empty `cell` (exact product of its gammas), as the trainer computes it.
    #[inline]
    pub fn strength(&self, fb: &FeatureBoard, ctx: &TurnContext, cell: usize) -> f64 {
        let team = fb.team(cell, ctx);
        let mut s = 1.0;
        for (&g, table) in self.spec().groups().iter().zip(&self.tables) {
            s *= table[team[g.index()] as usize];
        }
        let pb = fb.patterns();
        for (dir, gammas) in self.lines.iter().enumerate() {
            s *= gammas[self.codes.code(pb.key(cell, dir), ctx.to_move) as usize];
        }
        s
    }

    /// Strength of every empty point of `fb`'s position (none when the game is over).
    pub fn strengths(&self, fb: &FeatureBoard, ctx: &TurnContext, out: &mut Vec<(Point, f64)>) {
        out.clear();
        let board = fb.board();
        if board.is_over() {
            return;
        }
        let size = board.size();
        for p in board.legal_points() {
            out.push((p, self.strength(fb, ctx, p.index(size))));
        }
    }
}
