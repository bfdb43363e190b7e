//! The knowledge both searches fall back on when asked to run without a weights file
//! (`engine.weights = "none"`): the policy board with hand-set gammas instead of trained ones.

use crate::policy::{FeatureSpec, Gammas, Group};

/// Ordering knowledge for when no weights file is found: the distance to the nearest stone
/// (nearer first) and to the edge (the centre first), plus the exact tactics (wins, blocks).
pub fn proximity_gammas() -> Gammas {
    let spec = FeatureSpec::full();
    let values = spec
        .groups()
        .iter()
        .map(|&g| match g {
            Group::Nearest => vec![8.0, 3.0, 1.0, 1e-3],
            Group::Edge => vec![0.01, 0.1, 0.3, 0.6, 1.0],
            Group::Tactic => vec![1.0, 100.0, 1e4],
            _ => vec![1.0; g.size()],
        })
        .collect();
    Gammas::new(
        spec,
        values,
        "built-in proximity ordering (no weights file)",
    )
    .expect("the proximity gammas are valid")
}
