//! What the Bradley-Terry trainer fits: a set of feature groups and every candidate's value in
//! each ([`FeatureSet`]), the engine's [`FeatureSpec`] among them, and several sets side by side
//! ([`Combined`]).

use liuzi::policy::{FeatureBoard, FeatureSpec, TurnContext};

/// What the trainer fits: feature groups (sizes) and every candidate's value in each.
/// The engine's groups ([`FeatureSpec`]) are one such set; the paper's raw line patterns
/// ([`super::line_patterns`]) and combinations of both are others, for experiments.
pub trait FeatureSet: Sync {
    /// A one-line description for reports, e.g. the spec id.
    fn id(&self) -> String;
    /// Size of each group, in order.
    fn sizes(&self) -> Vec<usize>;
    /// Writes the value of each group for the empty `cell` into `out` (one slot per group).
    fn team(&self, fb: &FeatureBoard, ctx: &TurnContext, cell: usize, out: &mut [u32]);
}

impl FeatureSet for FeatureSpec {
    fn id(&self) -> String {
        FeatureSpec::id(self)
    }

    fn sizes(&self) -> Vec<usize> {
        self.groups().iter().map(|g| g.size()).collect()
    }

    fn team(&self, fb: &FeatureBoard, ctx: &TurnContext, cell: usize, out: &mut [u32]) {
        let team = fb.team(cell, ctx);
        for (slot, g) in out.iter_mut().zip(self.groups()) {
            *slot = team[g.index()] as u32;
        }
    }
}

/// Several feature sets side by side: their groups concatenated.
pub struct Combined(pub Vec<Box<dyn FeatureSet>>);

impl FeatureSet for Combined {
    fn id(&self) -> String {
        self.0
            .iter()
            .map(|f| f.id())
            .collect::<Vec<_>>()
            .join(" + ")
    }

    fn sizes(&self) -> Vec<usize> {
        self.0.iter().flat_map(|f| f.sizes()).collect()
    }

    fn team(&self, fb: &FeatureBoard, ctx: &TurnContext, cell: usize, out: &mut [u32]) {
        let mut at = 0;
        for f in &self.0 {
            let n = f.sizes().len();
            f.team(fb, ctx, cell, &mut out[at..at + n]);
            at += n;
        }
    }
}
