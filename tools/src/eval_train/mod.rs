//! The evaluator's trainer (`liuzi-train-eval`): labelled positions from game records, the
//! per-phase Bayesian classifier, and the logistic-regression baseline it is measured against.

pub mod data;
pub mod fit;
pub mod lbfgs;
pub mod logistic;
pub mod metrics;
pub mod quadratic;
