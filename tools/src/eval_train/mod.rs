//! The evaluator's trainer (`liuzi-train-eval`): labelled positions from game records, the
//! per-phase Bayesian classifier, and the logistic-regression baseline it is measured against;
//! the quadratic logistic regression, the pattern term and the pattern net fitted on top of it;
//! how an evaluator orders the root stones a self-play search compared.

pub mod data;
pub mod fit;
pub mod lbfgs;
pub mod logistic;
pub mod metrics;
pub mod net_fit;
pub mod parallel_sum;
pub mod pattern_fit;
pub mod quadratic;
pub mod sibling_order;
