//! Sequential probability ratio test (SPRT) for "is the change at least elo1 better, or at most
//! elo0?", on the logistic Elo scale.
//!
//! The log-likelihood ratio uses the normal (GSPRT) approximation of Michel Van den Bergh, as in
//! fishtest: with s0, s1 the expected scores under elo0 and elo1, and the observed mean score s
//! and per-sample variance sigma^2 of N samples,
//!
//! ```text
//! LLR = N (s1 - s0) (2 s - s0 - s1) / (2 sigma^2)
//! ```
//!
//! Samples are either single games (trinomial: 0, 1/2, 1) or colour-swapped game pairs
//! (pentanomial: 0, 1/4, 1/2, 3/4, 1). Pairs with the same opening are correlated, so the
//! pentanomial form is the right one for paired schedules.
//!
//! The sample variance of a short run of identical results is (nearly) zero, which makes the
//! approximation declare victory after one or two games. We therefore add one pseudo-sample,
//! half a total loss and half a total win, to the counts used for the mean and variance (not to
//! N). Its weight fades as 1/N; a simulation test checks that the error rates stay near alpha
//! and beta.
//! The test stops when LLR leaves (ln(beta/(1-alpha)), ln((1-beta)/alpha)) (Wald's bounds).

use super::elo::{score_from_elo, Wdl};
use serde::{Deserialize, Serialize};

/// Weight of the pseudo-sample put on each extreme outcome class (see the module doc).
const PSEUDO_COUNT_AT_EXTREMES: f64 = 0.5;

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtConfig {
    /// Elo difference of the null hypothesis H0 (no gain).
    pub elo0: f64,
    /// Elo difference of the alternative H1 (the gain hoped for).
    pub elo1: f64,
    /// Probability of accepting H1 when H0 is true.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 is true.
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SprtDecision {
    /// The change is no better than elo0.
    AcceptH0,
    /// The change is at least elo1 better.
    AcceptH1,
    Continue,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStatus {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub decision: SprtDecision,
}

/// Results of colour-swapped game pairs, counted by the pair's total score in half points:
/// `counts[k]` = pairs that scored k/2 points out of 2 (0, 0.5, 1, 1.5, 2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial {
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Adds one pair given each game's score (0, 0.5 or 1) for the same side.
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let half_points = ((first + second) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[half_points] += 1;
    }

    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtConfigError {
    Hypotheses,
    Probability,
}

impl std::fmt::Display for SprtConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SprtConfigError::Hypotheses => f.write_str("SPRT needs elo0 < elo1"),
            SprtConfigError::Probability => {
                f.write_str("SPRT needs 0 < alpha < 1 and 0 < beta < 1, alpha + beta < 1")
            }
        }
    }
}

impl std::error::Error for SprtConfigError {}

impl SprtConfig {
    pub fn validate(&self) -> Result<(), SprtConfigError> {
        if !self.elo0.is_finite() || !self.elo1.is_finite() || self.elo0 >= self.elo1 {
            return Err(SprtConfigError::Hypotheses);
        }
        let ok = |p: f64| p > 0.0 && p < 1.0;
        if !ok(self.alpha) || !ok(self.beta) || self.alpha + self.beta >= 1.0 {
            return Err(SprtConfigError::Probability);
        }
        Ok(())
    }

    /// Wald's stopping bounds (lower, upper) on the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// LLR from single games.
    pub fn llr_trinomial(&self, wdl: &Wdl) -> f64 {
        let classes = [
            (0.0, wdl.losses as f64),
            (0.5, wdl.draws as f64),
            (1.0, wdl.wins as f64),
        ];
        self.llr(&classes)
    }

    /// LLR from colour-swapped pairs.
    pub fn llr_pentanomial(&self, penta: &Pentanomial) -> f64 {
        let classes: Vec<(f64, f64)> = penta
            .counts
            .iter()
            .enumerate()
            .map(|(k, &n)| (k as f64 / 4.0, n as f64))
            .collect();
        self.llr(&classes)
    }

    /// The normal-approximation LLR over outcome classes (score in [0, 1], count).
    fn llr(&self, classes: &[(f64, f64)]) -> f64 {
        let observed: f64 = classes.iter().map(|&(_, n)| n).sum();
        if observed == 0.0 {
            return 0.0;
        }
        let last = classes.len() - 1;
        let regularised: Vec<(f64, f64)> = classes
            .iter()
            .enumerate()
            .map(|(i, &(x, n))| {
                let prior = if i == 0 || i == last {
                    PSEUDO_COUNT_AT_EXTREMES
                } else {
                    0.0
                };
                (x, n + prior)
            })
            .collect();
        let total: f64 = regularised.iter().map(|&(_, n)| n).sum();
        let mean = regularised.iter().map(|&(x, n)| x * n).sum::<f64>() / total;
        let variance = regularised
            .iter()
            .map(|&(x, n)| n * (x - mean).powi(2))
            .sum::<f64>()
            / total;
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        observed * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// Where the test stands after `llr`.
    pub fn status(&self, llr: f64) -> SprtStatus {
        let (lower, upper) = self.bounds();
        let decision = if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        };
        SprtStatus {
            llr,
            lower,
            upper,
            decision,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    const CONFIG: SprtConfig = SprtConfig {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
    };

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn bounds_are_walds() {
        let (lower, upper) = CONFIG.bounds();
        assert!(close(lower, -2.944_438_979_166_440_5, 1e-12));
        assert!(close(upper, 2.944_438_979_166_440_5, 1e-12));
        assert!(CONFIG.validate().is_ok());
        let mut bad = CONFIG;
        bad.elo1 = -1.0;
        assert_eq!(bad.validate(), Err(SprtConfigError::Hypotheses));
        bad = CONFIG;
        bad.alpha = 0.0;
        assert_eq!(bad.validate(), Err(SprtConfigError::Probability));
    }

    #[test]
    fn llr_matches_independent_computation() {
        // Reference values: an independent Python computation of the formula in the module doc.
        let wdl = Wdl {
            wins: 1200,
            losses: 1000,
            draws: 800,
        };
        assert!(close(
            CONFIG.llr_trinomial(&wdl),
            6.188_105_590_974_047,
            1e-9
        ));
        let penta = Pentanomial {
            counts: [50, 200, 500, 260, 60],
        };
        assert!(close(
            CONFIG.llr_pentanomial(&penta),
            3.372_433_799_910_880_7,
            1e-9
        ));
        // The pseudo-sample keeps the variance positive for a run of identical results.
        let all_even = Pentanomial {
            counts: [0, 0, 40, 0, 0],
        };
        let llr = CONFIG.llr_pentanomial(&all_even);
        assert!(close(llr, -0.678_930_703_782_474, 1e-9));
        assert_eq!(CONFIG.llr_trinomial(&Wdl::default()), 0.0);
    }

    #[test]
    fn pairs_are_counted_by_half_points() {
        let mut p = Pentanomial::default();
        p.add_pair(1.0, 0.0);
        p.add_pair(1.0, 1.0);
        p.add_pair(0.5, 0.0);
        assert_eq!(p.counts, [0, 1, 1, 0, 1]);
        assert_eq!(p.pairs(), 3);
    }

    /// Runs one simulated SPRT on games between sides `true_elo` apart; returns the decision.
    fn simulate(config: &SprtConfig, true_elo: f64, rng: &mut Xoshiro256PlusPlus) -> SprtDecision {
        let p_win = score_from_elo(true_elo);
        let mut wdl = Wdl::default();
        for _ in 0..200_000 {
            if rng.gen::<f64>() < p_win {
                wdl.wins += 1;
            } else {
                wdl.losses += 1;
            }
            let status = config.status(config.llr_trinomial(&wdl));
            if status.decision != SprtDecision::Continue {
                return status.decision;
            }
        }
        SprtDecision::Continue
    }

    #[test]
    fn error_rates_are_near_alpha_and_beta() {
        let config = SprtConfig {
            elo0: 0.0,
            elo1: 60.0,
            alpha: 0.1,
            beta: 0.1,
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let runs = 300;
        let false_h1 = (0..runs)
            .filter(|_| simulate(&config, 0.0, &mut rng) == SprtDecision::AcceptH1)
            .count();
        let false_h0 = (0..runs)
            .filter(|_| simulate(&config, 60.0, &mut rng) == SprtDecision::AcceptH0)
            .count();
        // Expected about 30 of 300 each; allow for sampling noise and Wald's approximation.
        assert!(false_h1 <= 50, "false H1 acceptances: {false_h1}");
        assert!(false_h0 <= 50, "false H0 acceptances: {false_h0}");
        // A clearly stronger side is accepted nearly always.
        let strong_h1 = (0..100)
            .filter(|_| simulate(&config, 150.0, &mut rng) == SprtDecision::AcceptH1)
            .count();
        assert!(strong_h1 >= 97, "H1 accepted for +150 Elo: {strong_h1}/100");
    }
}
