//! The learned position evaluation (design.md; Lee & Mahajan's BILL): a Bayesian win / loss
//! classifier per game phase over features from the pattern layer, trained offline by
//! `liuzi-train-eval` and stored in a versioned, checked file.
//!
//! Sits above `patterns` and `policy`, below `search`: the alpha-beta search scores its leaves
//! with it, and the MCTS can cut its playouts short and score them by it.
//!
//! * [`features`]: what is measured in a position (threats, roads, line shapes, stage).
//! * [`qda`]: the per-phase quadratic discriminant and its fit.
//! * [`Evaluator`]: the phases together, the rules that decide a position outright, the file.

mod evaluator;
pub mod features;
mod file;
pub mod linalg;
pub mod qda;

pub use evaluator::{decided, Evaluator, DECIDED};
pub use features::{Features, FEATURE_COUNT};
pub use file::{EvalFileError, EvalFileErrorKind, EVAL_FORMAT_VERSION};
