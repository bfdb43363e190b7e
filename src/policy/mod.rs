//! The Bradley-Terry move model (Coulom 2007; docs/patterns.md): feature groups, the weights file,
//! and [`PolicyBoard`], which keeps every legal stone's weight current for priors and playouts.
//!
//! P(stone) = Π γ(features of the stone) / Σ over legal stones. Candidates are all empty cells,
//! the same set the trainer (`liuzi-train`) fits on.

mod board;
pub mod features;
mod gammas;
pub mod lines;
mod nearness;
mod spec;
mod weights_file;

pub use board::PolicyBoard;
pub use features::{FeatureBoard, Team, TurnContext};
pub use gammas::{Gammas, TreeModel, TREE_LINE_LENGTHS};
pub use spec::{FeatureSpec, Group};
pub use weights_file::{WeightsError, WeightsErrorKind, FORMAT_VERSION, ONE_SECTION_VERSION};
