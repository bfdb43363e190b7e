//! Logistic regression by Newton's method (iteratively reweighted least squares) with an L2
//! penalty on the weights (not on the intercept): the baseline the Bayesian evaluator is
//! measured against, and the Platt calibration of its discriminant.
//!
//! Minimises  −Σ [y ln σ(b + w·x) + (1 − y) ln(1 − σ(b + w·x))] + (λ/2)|w|²  over (b, w).

use liuzi::eval::linalg::Cholesky;
use liuzi::eval::qda::sigmoid;

/// −ln P(y | logit t): ln(1 + e^−t) for a win, ln(1 + e^t) for a loss, computed stably.
pub fn neg_log_likelihood(t: f64, y: bool) -> f64 {
    let z = if y { -t } else { t };
    z.max(0.0) + (-z.abs()).exp().ln_1p()
}

/// The cross-entropy of logit `t` against a soft label `y` in [0, 1] (the probability that the
/// side to move wins): `y·nll(t, win) + (1 − y)·nll(t, loss)`. At y = 0 or 1 it is exactly
/// [`neg_log_likelihood`], so a fit on hard labels written as 0.0 and 1.0 is unchanged.
pub fn soft_neg_log_likelihood(t: f64, y: f64) -> f64 {
    if y == 1.0 {
        neg_log_likelihood(t, true)
    } else if y == 0.0 {
        neg_log_likelihood(t, false)
    } else {
        y * neg_log_likelihood(t, true) + (1.0 - y) * neg_log_likelihood(t, false)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Logistic {
    pub intercept: f64,
    pub weights: Vec<f64>,
    /// Newton steps taken.
    pub iterations: usize,
    /// Whether the step size fell below the tolerance (or the loss stopped improving).
    pub converged: bool,
}

#[derive(Clone, Copy, Debug)]
pub struct LogisticOptions {
    /// λ of the L2 penalty on the weights.
    pub l2: f64,
    pub max_iterations: usize,
    /// Stop when the largest coordinate of a Newton step is below this.
    pub tolerance: f64,
}

impl Default for LogisticOptions {
    fn default() -> Self {
        LogisticOptions {
            l2: 1e-3,
            max_iterations: 100,
            tolerance: 1e-9,
        }
    }
}

impl Logistic {
    /// P(y = 1 | x).
    pub fn probability(&self, x: &[f64]) -> f64 {
        sigmoid(self.logit(x))
    }

    pub fn logit(&self, x: &[f64]) -> f64 {
        self.intercept + self.weights.iter().zip(x).map(|(w, v)| w * v).sum::<f64>()
    }

    /// Fits `rows` (all of one length) to labels `ys`.
    pub fn fit(rows: &[&[f64]], ys: &[bool], options: LogisticOptions) -> Logistic {
        assert_eq!(rows.len(), ys.len(), "one label per row");
        let p = rows.first().map_or(0, |r| r.len());
        let dim = p + 1;
        // θ = (b, w); features with a leading 1.
        let mut theta = vec![0.0; dim];
        let objective = |theta: &[f64]| -> f64 {
            let model = Logistic::from_theta(theta, 0, false);
            let data: f64 = rows
                .iter()
                .zip(ys)
                .map(|(x, &y)| neg_log_likelihood(model.logit(x), y))
                .sum();
            data + 0.5 * options.l2 * theta[1..].iter().map(|w| w * w).sum::<f64>()
        };
        let mut loss = objective(&theta);
        let mut iterations = 0;
        let mut converged = false;
        let mut x1 = vec![0.0; dim];
        while iterations < options.max_iterations {
            iterations += 1;
            let model = Logistic::from_theta(&theta, 0, false);
            let mut grad = vec![0.0; dim];
            let mut hess = vec![0.0; dim * dim];
            for (x, &y) in rows.iter().zip(ys) {
                x1[0] = 1.0;
                x1[1..].copy_from_slice(x);
                let q = model.probability(x);
                let r = q - f64::from(u8::from(y));
                let w = q * (1.0 - q);
                for i in 0..dim {
                    grad[i] += r * x1[i];
                    let wi = w * x1[i];
                    for j in 0..=i {
                        hess[i * dim + j] += wi * x1[j];
                    }
                }
            }
            for i in 0..dim {
                for j in 0..i {
                    hess[j * dim + i] = hess[i * dim + j];
                }
            }
            for i in 1..dim {
                grad[i] += options.l2 * theta[i];
                hess[i * dim + i] += options.l2;
            }
            // A tiny floor keeps the Hessian invertible for constant or separable features.
            for i in 0..dim {
                hess[i * dim + i] += 1e-10;
            }
            let Some(chol) = Cholesky::new(&hess, dim) else {
                break;
            };
            let mut step = grad.clone();
            chol.solve(&mut step);
            // Damped Newton: halve the step until the objective does not rise.
            let mut scale = 1.0;
            let mut accepted = false;
            for _ in 0..40 {
                let candidate: Vec<f64> = theta
                    .iter()
                    .zip(&step)
                    .map(|(t, s)| t - scale * s)
                    .collect();
                let new_loss = objective(&candidate);
                if new_loss <= loss + 1e-12 * loss.abs().max(1.0) {
                    theta = candidate;
                    loss = new_loss;
                    accepted = true;
                    break;
                }
                scale *= 0.5;
            }
            let largest = step.iter().fold(0.0f64, |m, s| m.max(s.abs())) * scale;
            if !accepted || largest < options.tolerance {
                converged = true;
                break;
            }
        }
        Logistic::from_theta(&theta, iterations, converged)
    }

    fn from_theta(theta: &[f64], iterations: usize, converged: bool) -> Logistic {
        Logistic {
            intercept: theta[0],
            weights: theta[1..].to_vec(),
            iterations,
            converged,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn recovers_the_coefficients_of_a_logistic_model() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let (b, w) = (-0.5, [1.5, -2.0, 0.0]);
        let rows: Vec<[f64; 3]> = (0..20_000)
            .map(|_| std::array::from_fn(|_| rng.gen_range(-1.5..1.5)))
            .collect();
        let ys: Vec<bool> = rows
            .iter()
            .map(|x| {
                let t = b + w.iter().zip(x).map(|(a, v)| a * v).sum::<f64>();
                rng.gen::<f64>() < sigmoid(t)
            })
            .collect();
        let refs: Vec<&[f64]> = rows.iter().map(|r| &r[..]).collect();
        let options = LogisticOptions {
            l2: 1e-6,
            ..LogisticOptions::default()
        };
        let fit = Logistic::fit(&refs, &ys, options);
        assert!(fit.converged && fit.iterations < 20, "{fit:?}");
        assert!((fit.intercept - b).abs() < 0.1, "{fit:?}");
        for (got, want) in fit.weights.iter().zip(w) {
            assert!((got - want).abs() < 0.1, "{fit:?}");
        }
    }

    #[test]
    fn converges_on_separable_data_with_a_penalty() {
        // y = x0 > x1: perfectly separable, so without a penalty the weights would grow forever.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(2);
        let rows: Vec<[f64; 2]> = (0..500)
            .map(|_| [rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)])
            .collect();
        let ys: Vec<bool> = rows.iter().map(|x| x[0] > x[1]).collect();
        let refs: Vec<&[f64]> = rows.iter().map(|r| &r[..]).collect();
        let fit = Logistic::fit(&refs, &ys, LogisticOptions::default());
        assert!(fit.converged, "{fit:?}");
        assert!(fit.weights.iter().all(|w| w.is_finite()));
        assert!(fit.weights[0] > 0.0 && fit.weights[1] < 0.0);
        let right = refs
            .iter()
            .zip(&ys)
            .filter(|(x, &y)| (fit.probability(x) > 0.5) == y)
            .count();
        assert!(right >= 495, "{right}");
        // A stronger penalty gives smaller weights.
        let soft = Logistic::fit(
            &refs,
            &ys,
            LogisticOptions {
                l2: 10.0,
                ..LogisticOptions::default()
            },
        );
        assert!(soft.weights[0] < fit.weights[0]);
    }

    #[test]
    fn a_constant_label_gives_the_matching_intercept_only() {
        let rows: Vec<[f64; 1]> = (0..100).map(|i| [i as f64 / 100.0]).collect();
        let refs: Vec<&[f64]> = rows.iter().map(|r| &r[..]).collect();
        // 75% ones, independent of x.
        let ys: Vec<bool> = (0..100).map(|i| i % 4 != 0).collect();
        let fit = Logistic::fit(&refs, &ys, LogisticOptions::default());
        assert!((sigmoid(fit.intercept + 0.5 * fit.weights[0]) - 0.75).abs() < 0.02);
        assert!(fit.weights[0].abs() < 0.5);
    }
}
