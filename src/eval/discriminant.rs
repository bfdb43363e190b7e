//! A phase's model compiled, once at load, into one quadratic form in the centred raw features:
//! what the searches evaluate at every leaf. A logistic phase ([`LogisticPhase`]) is that form
//! already, up to the scales folded in; the discriminant is written out below.
//!
//! [`PhaseModel::log_likelihood_ratio`] is the reference: it standardises the features and
//! solves with each class's Cholesky factor: two triangular solves and 3n divisions a call.
//! Written out, the log-odds is a quadratic in z = S⁻¹(x − c) (S the scales):
//!
//!   LLR(z) = zᵀAz + bᵀz + k,   A = −½(Σ_win⁻¹ − Σ_loss⁻¹),   b = Σ_win⁻¹μ_win − Σ_loss⁻¹μ_loss,
//!   k = −½(μ_winᵀΣ_win⁻¹μ_win − μ_lossᵀΣ_loss⁻¹μ_loss + ln det Σ_win − ln det Σ_loss) + ln(π_win/π_loss)
//!
//! and with the scales folded into A and b, u = x − c alone is needed: one pass over a packed
//! lower triangle, n(n + 1)/2 multiply-adds and no division. The two agree to rounding (tests).

use super::logistic::LogisticPhase;
use super::phase::Phase;
use super::qda::{sigmoid, PhaseModel};

/// One phase's discriminant as `uᵀA'u + b'ᵀu + k` in u = x − center.
#[derive(Clone, Debug, PartialEq)]
pub struct CompiledPhase {
    center: Vec<f64>,
    /// Row i holds A'_ij for j < i doubled (each off-diagonal pair once), then A'_ii and b'_i:
    /// Σ_i u_i·(b'_i + A'_ii·u_i + Σ_{j<i} 2A'_ij·u_j) is the quadratic and linear part.
    rows: Vec<f64>,
    constant: f64,
    calibration: [f64; 2],
}

impl CompiledPhase {
    pub fn new(phase: &Phase) -> CompiledPhase {
        match phase {
            Phase::Discriminant(m) => CompiledPhase::discriminant(m),
            Phase::Logistic(m) => CompiledPhase::logistic(m),
        }
    }

    /// z = u / s, so the coefficient of u_i·u_j is A_ij / (s_i s_j) (each pair once already).
    fn logistic(phase: &LogisticPhase) -> CompiledPhase {
        let n = phase.dim();
        let s = &phase.scale;
        let mut rows = Vec::with_capacity(n * (n + 3) / 2);
        for i in 0..n {
            for j in 0..=i {
                rows.push(phase.pair(i, j) / (s[i] * s[j]));
            }
            rows.push(phase.linear(i) / s[i]);
        }
        CompiledPhase {
            center: phase.center.clone(),
            rows,
            constant: phase.constant(),
            calibration: [1.0, 0.0],
        }
    }

    fn discriminant(phase: &PhaseModel) -> CompiledPhase {
        let n = phase.dim();
        let (pw, pl) = (phase.win.precision(), phase.loss.precision());
        let (mw, ml) = (&phase.win.mean, &phase.loss.mean);
        let times = |p: &[f64], v: &[f64]| -> Vec<f64> {
            (0..n)
                .map(|i| (0..n).map(|j| p[i * n + j] * v[j]).sum())
                .collect()
        };
        let (pw_mw, pl_ml) = (times(&pw, mw), times(&pl, ml));
        let dot = |a: &[f64], b: &[f64]| -> f64 { a.iter().zip(b).map(|(x, y)| x * y).sum() };
        let constant = -0.5
            * (dot(mw, &pw_mw) - dot(ml, &pl_ml) + phase.win.log_det() - phase.loss.log_det())
            + crate::math::ln(phase.win.prior / phase.loss.prior);
        let inv_scale: Vec<f64> = phase.scale.iter().map(|s| 1.0 / s).collect();
        let mut rows = Vec::with_capacity(n * (n + 3) / 2);
        for i in 0..n {
            for j in 0..=i {
                let a = -0.5 * (pw[i * n + j] - pl[i * n + j]) * inv_scale[i] * inv_scale[j];
                rows.push(if j < i { 2.0 * a } else { a });
            }
            rows.push((pw_mw[i] - pl_ml[i]) * inv_scale[i]);
        }
        CompiledPhase {
            center: phase.center.clone(),
            rows,
            constant,
            calibration: phase.calibration,
        }
    }

    /// The log-odds of a win before calibration, as [`PhaseModel::log_likelihood_ratio`] (or
    /// [`LogisticPhase::logit`]).
    pub fn log_likelihood_ratio(&self, x: &[f64]) -> f64 {
        let n = self.center.len();
        let mut u = [0.0; super::qda::MAX_DIM];
        for k in 0..n {
            u[k] = x[k] - self.center[k];
        }
        let mut total = self.constant;
        let mut start = 0;
        for i in 0..n {
            // Row i: i off-diagonal terms, the diagonal, the linear term.
            let row = &self.rows[start..start + i + 2];
            start += i + 2;
            let off: f64 = dot4(&row[..i], &u[..i]);
            total += u[i] * (off + row[i] * u[i] + row[i + 1]);
        }
        total
    }

    /// P(win) for the side to move: σ(a·LLR + b), as [`Phase::win_probability`].
    pub fn win_probability(&self, x: &[f64]) -> f64 {
        sigmoid(self.logit(x))
    }

    /// The calibrated log-odds a·LLR + b: what the pattern term is added to.
    pub fn logit(&self, x: &[f64]) -> f64 {
        let [a, b] = self.calibration;
        a * self.log_likelihood_ratio(x) + b
    }
}

/// A dot product in four running sums (the compiler keeps a single sum in order, one
/// dependent add at a time).
#[inline]
fn dot4(a: &[f64], b: &[f64]) -> f64 {
    let mut sums = [0.0; 4];
    let (a4, a_rest) = a.split_at(a.len() / 4 * 4);
    let (b4, b_rest) = b.split_at(a4.len());
    for (x, y) in a4.chunks_exact(4).zip(b4.chunks_exact(4)) {
        for k in 0..4 {
            sums[k] += x[k] * y[k];
        }
    }
    let rest: f64 = a_rest.iter().zip(b_rest).map(|(x, y)| x * y).sum();
    (sums[0] + sums[1]) + (sums[2] + sums[3]) + rest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::testing::sample_evaluator;
    use crate::eval::FEATURE_COUNT;
    use rand::{Rng, SeedableRng};

    #[test]
    fn the_compiled_form_agrees_with_the_two_solves() {
        let evaluator = sample_evaluator();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        for phase in evaluator.phases() {
            let Phase::Discriminant(phase) = phase else {
                panic!("the sample evaluator is a discriminant");
            };
            let compiled = CompiledPhase::discriminant(phase);
            for _ in 0..500 {
                // Inside the training range and far outside it (a leaf's counts can be).
                let spread = if rng.gen_bool(0.5) { 1.0 } else { 20.0 };
                let x: Vec<f64> = (0..FEATURE_COUNT)
                    .map(|_| rng.gen_range(-spread..spread))
                    .collect();
                let (fast, reference) = (
                    compiled.log_likelihood_ratio(&x),
                    phase.log_likelihood_ratio(&x),
                );
                assert!(
                    (fast - reference).abs() <= 1e-8 * (1.0 + reference.abs()),
                    "{fast} vs {reference}"
                );
                let p = compiled.win_probability(&x);
                assert!((p - phase.win_probability(&x)).abs() <= 1e-9, "{p}");
            }
        }
    }

    #[test]
    fn the_compiled_form_agrees_with_the_logistic_expansion() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(12);
        let n = FEATURE_COUNT;
        let phase = LogisticPhase {
            first_stone: 0,
            end_stone: None,
            center: (0..n).map(|_| rng.gen_range(-1.0..3.0)).collect(),
            scale: (0..n).map(|_| rng.gen_range(0.1..4.0)).collect(),
            theta: (0..crate::eval::logistic::coefficient_count(n))
                .map(|_| rng.gen_range(-0.3..0.3))
                .collect(),
        };
        let compiled = CompiledPhase::new(&Phase::Logistic(phase.clone()));
        for _ in 0..500 {
            let spread = if rng.gen_bool(0.5) { 1.0 } else { 20.0 };
            let x: Vec<f64> = (0..n).map(|_| rng.gen_range(-spread..spread)).collect();
            let (fast, reference) = (compiled.log_likelihood_ratio(&x), phase.logit(&x));
            assert!(
                (fast - reference).abs() <= 1e-9 * (1.0 + reference.abs()),
                "{fast} vs {reference}"
            );
            let p = compiled.win_probability(&x);
            assert!((p - phase.win_probability(&x)).abs() <= 1e-12, "{p}");
        }
    }

    #[test]
    fn the_shipped_evaluator_gives_the_reference_values_along_random_games() {
        // Real covariances (shrunk, some features nearly constant in a phase) and real
        // feature vectors, every phase from the empty board to a crowded one.
        let bytes = crate::artifact::embedded(std::path::Path::new("<built-in>/default.eval"))
            .expect("the evaluator is built in");
        let evaluator = crate::eval::Evaluator::parse(bytes).unwrap();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(5);
        let mut worst: f64 = 0.0;
        for _ in 0..6 {
            let mut board = crate::rules::Board::standard();
            // Stones in the centre's 11 x 11 square: crowded lines, threats, every phase.
            while !board.is_over() && board.stone_count() < 110 {
                let f = crate::eval::features::extract_board(&board);
                let stones = board.stone_count();
                let fast = evaluator.model_probability(&f, stones);
                let reference = evaluator.phase(stones).win_probability(&f);
                worst = worst.max((fast - reference).abs());
                let empty: Vec<_> = board
                    .legal_points()
                    .filter(|p| p.col.abs_diff(9) <= 5 && p.row.abs_diff(9) <= 5)
                    .collect();
                board.play(empty[rng.gen_range(0..empty.len())]).unwrap();
            }
        }
        assert!(worst <= 1e-9, "largest difference {worst}");
    }

    #[test]
    fn the_dot_product_sums_every_term() {
        for n in 0..11 {
            let a: Vec<f64> = (0..n).map(|k| k as f64 + 1.0).collect();
            let b: Vec<f64> = (0..n).map(|k| 2.0 - k as f64).collect();
            let plain: f64 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
            assert_eq!(dot4(&a, &b), plain, "n = {n}");
        }
    }
}
