//! The tree-prior model: the prior P(m) of MCTS nodes (and alpha-beta's move order) from a
//! Bradley-Terry team model too slow for playouts (issue #15): feature groups plus four raw line
//! patterns ([`super::lines`]), fitted jointly by MM. Playouts keep the fast gammas of the
//! weights file's first section; this is its second section ([`super::Gammas::tree`]).
//!
//! Strength of an empty cell = Π γ(group value) over the groups × Π γ(line pattern code) over
//! the four directions. Computed from scratch per cell at each expansion (no incremental
//! tables): the cost is `liuzi bench search`'s playouts per second.

use super::features::{FeatureBoard, TurnContext};
use super::gammas::Gammas;
use super::lines::{line_values, LineCodes};
use super::spec::{FeatureSpec, Group};
use crate::rules::Point;

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
