//! The Bradley-Terry move-model trainer behind `liuzi-train` (docs/patterns.md, MM training):
//! game records to competitions ([`extract`]), the feature sets it fits ([`feature_set`]: the
//! engine's groups, the paper's raw line patterns in [`line_patterns`], trial groups in
//! [`candidates`]) and the generic MM fitter ([`mm`], which the engine ratings use too).

pub mod candidates;
pub mod extract;
pub mod feature_set;
pub mod line_patterns;
pub mod mm;
