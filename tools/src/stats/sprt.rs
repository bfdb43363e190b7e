//! Sequential probability ratio test (SPRT) for "is the change at least elo1 better, or at most
//! elo0?", computed as fastchess and fishtest compute it (docs/match-statistics.md).
//!
//! The log-likelihood ratio is the generalised one (GSPRT) of Michel Van den Bergh ("Comments on
//! Normalized Elo"): the observed outcome frequencies p̂ are compared with the two distributions
//! closest to them (maximum likelihood) that satisfy H0 and H1,
//!
//! ```text
//! LLR = N · Σ_i p̂_i · ln(p1_i / p0_i)
//! ```
//!
//! with N the number of samples. Samples are colour-swapped game pairs (pentanomial: the pair
//! scores 0, 1/2, 1, 3/2 or 2 points, mapped to 0, 1/4, ..., 1) or single games (trinomial). An
//! outcome class never seen counts 0.001 times, as in both programs, so that no class has
//! probability zero; there is no other prior.
//!
//! Two Elo models, as both programs offer:
//! * logistic: H_j says the expected score is 1 / (1 + 10^(-elo_j / 400));
//! * normalized: H_j says (mean − 1/2) / σ = elo_j · ln 10 / 800, σ being the standard
//!   deviation of one game's score (of one pair's score over √2 for pairs).
//!
//! The test stops when LLR leaves (ln(beta/(1-alpha)), ln((1-beta)/alpha)) (Wald's bounds).

use super::elo::{score_from_elo, Wdl};
use serde::{Deserialize, Serialize};

/// What an outcome class never observed counts for (fishtest's and fastchess's value).
const UNSEEN_CLASS_COUNT: f64 = 1e-3;

/// One normalized Elo point in units of t = (mean − 1/2) / σ: 800 / ln 10 nElo make one.
const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// How an Elo difference becomes a statement about the outcome distribution.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EloModel {
    /// Logistic (classic) Elo: a fixed expected score.
    #[default]
    Logistic,
    /// Normalized Elo: a fixed ratio of the score's excess over 1/2 to its spread.
    Normalized,
}

impl EloModel {
    pub fn name(self) -> &'static str {
        match self {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        }
    }

    pub fn parse(text: &str) -> Option<EloModel> {
        match text {
            "logistic" => Some(EloModel::Logistic),
            "normalized" | "normalised" => Some(EloModel::Normalized),
            _ => None,
        }
    }
}

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
    /// The scale of elo0 and elo1.
    #[serde(default)]
    pub model: EloModel,
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

    /// LLR from single games (losses, draws, wins).
    pub fn llr_trinomial(&self, wdl: &Wdl) -> f64 {
        self.llr(&[wdl.losses, wdl.draws, wdl.wins], 1.0)
    }

    /// LLR from colour-swapped pairs.
    pub fn llr_pentanomial(&self, penta: &Pentanomial) -> f64 {
        // A pair's score spreads √2 times as far as one game's in units of t (its mean is of
        // two games): normalized Elo is per game, so the pair's t is √2 times the game's.
        self.llr(&penta.counts, std::f64::consts::SQRT_2)
    }

    /// The GSPRT LLR over outcome classes with scores 0, 1/(k-1), ..., 1; `t_per_game` scales a
    /// normalized Elo hypothesis to the sample's t. NaN where no distribution satisfies a
    /// hypothesis (the test then goes on).
    fn llr(&self, counts: &[u64], t_per_game: f64) -> f64 {
        if counts.iter().all(|&n| n == 0) {
            return 0.0;
        }
        let classes = counts.len();
        let scores: Vec<f64> = (0..classes)
            .map(|i| i as f64 / (classes - 1) as f64)
            .collect();
        let regularised: Vec<f64> = counts
            .iter()
            .map(|&n| if n == 0 { UNSEEN_CLASS_COUNT } else { n as f64 })
            .collect();
        let total: f64 = regularised.iter().sum();
        let observed: Vec<f64> = regularised.iter().map(|n| n / total).collect();
        let fit = |elo: f64| match self.model {
            EloModel::Logistic => closest_with_mean(&scores, &observed, score_from_elo(elo)),
            EloModel::Normalized => {
                closest_with_t(&scores, &observed, t_per_game * elo / NELO_PER_T)
            }
        };
        let (Some(p0), Some(p1)) = (fit(self.elo0), fit(self.elo1)) else {
            return f64::NAN;
        };
        total
            * observed
                .iter()
                .zip(p0.iter().zip(&p1))
                .map(|(o, (a, b))| o * (b.ln() - a.ln()))
                .sum::<f64>()
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

/// The root θ of Σ p_i d_i / (1 + θ d_i) = 0 (the "secular equation"), which lies between
/// −1/max d and −1/min d where the sum falls from +∞ to −∞; `None` unless d takes both signs.
fn secular_root(observed: &[f64], d: &[f64]) -> Option<f64> {
    let lowest = d.iter().copied().fold(f64::INFINITY, f64::min);
    let highest = d.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(lowest < 0.0 && highest > 0.0) {
        return None;
    }
    let sum = |theta: f64| -> f64 {
        observed
            .iter()
            .zip(d)
            .map(|(p, di)| p * di / (1.0 + theta * di))
            .sum()
    };
    // Bisection: the sum is strictly decreasing in θ; stop when the interval cannot shrink.
    let (mut low, mut high) = (-1.0 / highest, -1.0 / lowest);
    loop {
        let middle = 0.5 * (low + high);
        if middle <= low || middle >= high {
            return Some(middle);
        }
        if sum(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
}

/// The distribution on `scores` with mean `mean` that makes `observed` most likely:
/// p_i = p̂_i / (1 + θ (a_i − mean)) (Van den Bergh's proposition 1.1).
fn closest_with_mean(scores: &[f64], observed: &[f64], mean: f64) -> Option<Vec<f64>> {
    let d: Vec<f64> = scores.iter().map(|a| a - mean).collect();
    let theta = secular_root(observed, &d)?;
    Some(
        observed
            .iter()
            .zip(&d)
            .map(|(p, di)| p / (1.0 + theta * di))
            .collect(),
    )
}

/// The distribution on `scores` with (mean − 1/2) / σ = `t` that makes `observed` most likely,
/// by the fixed-point iteration of Van den Bergh's paper (its part 4.1), started from the uniform
/// distribution.
fn closest_with_t(scores: &[f64], observed: &[f64], t: f64) -> Option<Vec<f64>> {
    const ITERATIONS: usize = 1000;
    const CONVERGED: f64 = 1e-13;
    let mut p = vec![1.0 / scores.len() as f64; scores.len()];
    for _ in 0..ITERATIONS {
        let mean: f64 = scores.iter().zip(&p).map(|(a, q)| a * q).sum();
        let variance: f64 = scores
            .iter()
            .zip(&p)
            .map(|(a, q)| q * (a - mean).powi(2))
            .sum();
        let sigma = variance.sqrt();
        let phi: Vec<f64> = scores
            .iter()
            .map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mean) / sigma).powi(2)))
            .collect();
        let theta = secular_root(observed, &phi)?;
        let next: Vec<f64> = observed
            .iter()
            .zip(&phi)
            .map(|(o, f)| o / (1.0 + theta * f))
            .collect();
        let change = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        if change < CONVERGED {
            break;
        }
    }
    Some(p)
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
        model: EloModel::Logistic,
    };

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    fn config(elo0: f64, elo1: f64, model: EloModel) -> SprtConfig {
        SprtConfig {
            elo0,
            elo1,
            model,
            ..CONFIG
        }
    }

    /// fastchess's pentanomial counts are (LL, LD, WL, DD, WD, WW); ours are by points.
    fn penta(ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64) -> Pentanomial {
        Pentanomial {
            counts: [ll, ld, wl + dd, wd, ww],
        }
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

    /// Counts and LLRs published in fastchess's test suite (app/tests/sprt_test.cpp, given there
    /// to two decimals). The longer figures are an independent Python computation of the same
    /// published formulas (Van den Bergh's maximum-likelihood distributions, bisection to
    /// machine precision), which these must match closely.
    #[test]
    fn llr_reproduces_fastchess_published_values() {
        use EloModel::{Logistic, Normalized};
        let cases = [
            (
                config(0.5, 2.5, Logistic),
                penta(223, 9863, 20279, 1000, 10037, 246),
                -3.07,
                -3.074_126_439_586_767,
            ),
            (
                config(0.0, 2.0, Logistic),
                penta(871, 26175, 55003, 980, 26678, 821),
                -4.98,
                -4.978_672_863_451_179,
            ),
            (
                config(0.0, 2.0, Normalized),
                penta(365, 16618, 36029, 200, 16974, 390),
                2.25,
                2.250_367_703_551_081,
            ),
            (
                config(-1.75, 0.25, Normalized),
                penta(127, 4883, 10311, 401, 5150, 104),
                3.01,
                3.010_154_196_604_921,
            ),
        ];
        for (config, counts, published, independent) in cases {
            let llr = config.llr_pentanomial(&counts);
            assert!(close(llr, published, 0.005), "{config:?} {counts:?}: {llr}");
            assert!(
                close(llr, independent, 1e-6),
                "{config:?} {counts:?}: {llr}"
            );
        }
        // Trinomial (single games): wins 21404, losses 21184, draws 40708; and 36433/36027/68692.
        let wdl = |wins, losses, draws| Wdl {
            wins,
            losses,
            draws,
        };
        let llr = config(0.5, 2.5, Logistic).llr_trinomial(&wdl(21404, 21184, 40708));
        assert!(close(llr, -1.57, 0.005) && close(llr, -1.571_888_792_699_034, 1e-6));
        let llr = config(0.0, 2.0, Normalized).llr_trinomial(&wdl(36433, 36027, 68692));
        assert!(close(llr, 0.92, 0.005) && close(llr, 0.923_293_450_953_998, 1e-6));
    }

    #[test]
    fn no_prior_beyond_unseen_classes() {
        // 40 even pairs, nothing else: the old pseudo-sample gave -0.679; the GSPRT with only
        // the 0.001 counts for unseen classes gives -1.1603 (independent Python computation).
        let even = Pentanomial {
            counts: [0, 0, 40, 0, 0],
        };
        assert!(close(
            CONFIG.llr_pentanomial(&even),
            -1.160_303_433_700_064,
            1e-6
        ));
        // Three pairs won twice: +0.401 at elo1 = 50, far from a decision.
        let won = Pentanomial {
            counts: [0, 0, 0, 0, 3],
        };
        let llr = config(0.0, 50.0, EloModel::Logistic).llr_pentanomial(&won);
        assert!(close(llr, 0.401_021_601_388_135_5, 1e-6), "{llr}");
        assert_eq!(CONFIG.llr_trinomial(&Wdl::default()), 0.0);
        assert_eq!(CONFIG.llr_pentanomial(&Pentanomial::default()), 0.0);
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

    #[test]
    fn models_parse_by_name() {
        assert_eq!(EloModel::parse("logistic"), Some(EloModel::Logistic));
        assert_eq!(EloModel::parse("normalized"), Some(EloModel::Normalized));
        assert_eq!(EloModel::parse("bayesian"), None);
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
            model: EloModel::Logistic,
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
