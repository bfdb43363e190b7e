//! The learned position evaluation (design.md; Lee & Mahajan's BILL): per game phase, a Bayesian
//! win / loss classifier or the same quadratic form fitted as a logistic regression, over
//! features from the pattern layer, trained offline by `liuzi-train-eval` and stored in a
//! versioned, checked file.
//!
//! Sits above `patterns` and `policy`, below `search`: the alpha-beta search scores its leaves
//! with it, and the MCTS can cut its playouts short and score them by it.
//!
//! * [`features`]: what is measured in a position (threats, roads, line shapes, stage).
//! * [`qda`]: the per-phase quadratic discriminant and its fit; [`logistic`]: the same quadratic
//!   form fitted as a logistic regression; `discriminant`: either compiled to one quadratic form,
//!   what the searches evaluate.
//! * [`pattern_term`]: the optional learned weight of each empty cell's pattern for either side,
//!   added to the quadratic form's logit; [`pattern_net`]: a small network over the same ids,
//!   added as a residual.
//! * [`Evaluator`]: the phases together, the rules that decide a position outright, the file.

mod discriminant;
mod evaluator;
pub mod features;
mod file;
pub mod linalg;
pub mod logistic;
pub mod pattern_net;
pub mod pattern_term;
mod phase;
pub mod qda;

pub use evaluator::{decided, Evaluator, DECIDED};
pub use features::{Features, FEATURE_COUNT};
pub use file::{
    EvalFileError, EvalFileErrorKind, EVAL_FORMAT_VERSION, NO_PATTERNS_VERSION, PATTERNS_VERSION,
};
pub use pattern_net::PatternNet;
pub use pattern_term::{PatternCounts, PatternTables};
pub use phase::Phase;

#[cfg(test)]
pub(crate) mod testing {
    use super::qda::{PhaseModel, Shrinkage};
    use super::{Evaluator, Phase, FEATURE_COUNT};
    use rand::{Rng, SeedableRng};

    /// A small evaluator fitted to random features, two phases (0..20 and 20.. stones).
    pub(crate) fn sample_evaluator() -> Evaluator {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let mut rows = |shift: f64| -> Vec<Vec<f64>> {
            (0..200)
                .map(|_| {
                    (0..FEATURE_COUNT)
                        .map(|k| rng.gen_range(0.0..1.0) + if k < 3 { shift } else { 0.0 })
                        .collect()
                })
                .collect()
        };
        let (w, l) = (rows(0.5), rows(0.0));
        let w: Vec<&[f64]> = w.iter().map(Vec::as_slice).collect();
        let l: Vec<&[f64]> = l.iter().map(Vec::as_slice).collect();
        let mut early = PhaseModel::fit(&w, &l, 0, Some(20), Shrinkage::default()).unwrap();
        early.calibration = [0.8, -0.1];
        let late = PhaseModel::fit(&l, &w, 20, None, Shrinkage::default()).unwrap();
        Evaluator::new(
            vec![Phase::Discriminant(early), Phase::Discriminant(late)],
            "test data",
        )
        .unwrap()
    }
}
