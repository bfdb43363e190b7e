//! One game phase's model: the Bayesian discriminant ([`PhaseModel`]) or the quadratic logistic
//! regression ([`LogisticPhase`]), both a quadratic form in the features once compiled.

use super::logistic::LogisticPhase;
use super::qda::PhaseModel;

#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    Discriminant(PhaseModel),
    Logistic(LogisticPhase),
}

impl Phase {
    pub fn first_stone(&self) -> u32 {
        match self {
            Phase::Discriminant(m) => m.first_stone,
            Phase::Logistic(m) => m.first_stone,
        }
    }

    /// `None`: no upper end.
    pub fn end_stone(&self) -> Option<u32> {
        match self {
            Phase::Discriminant(m) => m.end_stone,
            Phase::Logistic(m) => m.end_stone,
        }
    }

    pub fn contains(&self, stones: u32) -> bool {
        stones >= self.first_stone() && self.end_stone().is_none_or(|e| stones < e)
    }

    pub fn dim(&self) -> usize {
        match self {
            Phase::Discriminant(m) => m.dim(),
            Phase::Logistic(m) => m.dim(),
        }
    }

    pub fn validate(&self) -> Result<(), String> {
        match self {
            Phase::Discriminant(m) => m.validate(),
            Phase::Logistic(m) => m.validate(),
        }
    }

    /// P(win) for the side to move from raw features, by the model's own (slower) arithmetic:
    /// the reference of the compiled form.
    pub fn win_probability(&self, x: &[f64]) -> f64 {
        match self {
            Phase::Discriminant(m) => m.win_probability(x),
            Phase::Logistic(m) => m.win_probability(x),
        }
    }
}
