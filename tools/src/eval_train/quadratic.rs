//! The quadratic logistic regression: the same form as the calibrated discriminant (a quadratic
//! in the standardised features, `logit = k + bᵀz + Σ_{j≤i} A_ij z_i z_j`), its coefficients
//! fitted by maximum likelihood instead of through two Gaussian classes.
//!
//! The QDA fits each class's density, so it spends its parameters on the shape of wins and losses
//! wherever they are alike; the logistic form spends the same parameters on the boundary alone.
//! The objective (mean log-loss plus an L2 penalty on every coefficient but `k`) is convex, so
//! L-BFGS from zero finds its one minimum.
//!
//! Comparisons (docs/evaluator.md, comparison training) add a second mean log-loss, weighted:
//! for each pair of positions the side to move should prefer, −ln σ(logit(better) −
//! logit(worse)), Tesauro's comparison training. It is linear in the coefficients too (`k`
//! cancels), so the objective stays convex.

use super::lbfgs::{minimise, LbfgsOptions};
use super::logistic::soft_neg_log_likelihood;
use super::parallel_sum::loss_and_gradient;
use liuzi::eval::logistic::{coefficient_count, expand, LogisticPhase};
use liuzi::eval::qda::sigmoid;

/// A fitted phase and how the minimiser ended.
#[derive(Clone, Debug, PartialEq)]
pub struct QuadraticFit {
    pub phase: LogisticPhase,
    /// The L2 penalty it was fitted with.
    pub l2: f64,
    pub iterations: usize,
    pub converged: bool,
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Comparisons a fit trains on beside its labelled rows: pairs of raw feature rows (better,
/// worse) and the weight of their mean log-loss against the rows'.
#[derive(Clone, Copy, Default)]
pub struct Comparisons<'a> {
    pub pairs: &'a [(&'a [f64], &'a [f64])],
    pub weight: f64,
}

/// Fits the phase `range`'s `rows` (raw features, all of `center`'s length) to the labels
/// `ys` (the probability that the side to move wins: 0 or 1 for a game's result, between for
/// a soft label), and to `comparisons` where given, standardised by `center` and `scale` (the
/// discriminant's), on `threads` threads.
pub fn fit(
    rows: &[&[f64]],
    ys: &[f64],
    comparisons: Comparisons,
    range: (u32, Option<u32>),
    standardisation: (&[f64], &[f64]),
    l2: f64,
    threads: usize,
) -> QuadraticFit {
    assert_eq!(rows.len(), ys.len(), "one label per row");
    let (center, scale) = standardisation;
    let n = center.len();
    let dim = coefficient_count(n);
    let mut phase = LogisticPhase {
        first_stone: range.0,
        end_stone: range.1,
        center: center.to_vec(),
        scale: scale
            .iter()
            .map(|&s| if s > 0.0 { s } else { 1.0 })
            .collect(),
        theta: vec![0.0; dim],
    };
    // Expanded once: the minimiser reads them hundreds of times.
    let mut z = vec![0.0; n];
    let mut expand_row = |row: &[f64], out: &mut [f64]| {
        for k in 0..n {
            z[k] = (row[k] - phase.center[k]) / phase.scale[k];
        }
        expand(&z, out);
    };
    let mut phis = vec![0.0f64; rows.len() * dim];
    for (row, phi) in rows.iter().zip(phis.chunks_exact_mut(dim)) {
        expand_row(row, phi);
    }
    // A comparison's row is the difference of its two expanded rows.
    let pairs = if comparisons.weight > 0.0 {
        comparisons.pairs
    } else {
        &[]
    };
    let mut diffs = vec![0.0f64; pairs.len() * dim];
    let mut worse = vec![0.0; dim];
    for (&(b, w), diff) in pairs.iter().zip(diffs.chunks_exact_mut(dim)) {
        expand_row(b, diff);
        expand_row(w, &mut worse);
        diff.iter_mut().zip(&worse).for_each(|(d, w)| *d -= w);
    }
    let count = rows.len().max(1) as f64;
    let pair_scale = comparisons.weight / pairs.len().max(1) as f64;
    let objective = |theta: &[f64], grad: &mut [f64]| -> f64 {
        let loss = loss_and_gradient(rows.len(), threads, grad, |run, g| {
            let mut loss = 0.0;
            let (phis, ys) = (&phis[run.start * dim..run.end * dim], &ys[run]);
            for (phi, &y) in phis.chunks_exact(dim).zip(ys) {
                let t = dot(theta, phi);
                loss += soft_neg_log_likelihood(t, y);
                let r = sigmoid(t) - y;
                for (gk, pk) in g.iter_mut().zip(phi) {
                    *gk += r * pk;
                }
            }
            loss
        });
        grad.iter_mut().for_each(|g| *g /= count);
        let mut loss = loss / count;
        if !pairs.is_empty() {
            let mut pair_grad = vec![0.0; dim];
            let pair_loss = loss_and_gradient(pairs.len(), threads, &mut pair_grad, |run, g| {
                let mut loss = 0.0;
                for diff in diffs[run.start * dim..run.end * dim].chunks_exact(dim) {
                    let t = dot(theta, diff);
                    loss += soft_neg_log_likelihood(t, 1.0);
                    let r = sigmoid(t) - 1.0;
                    for (gk, dk) in g.iter_mut().zip(diff) {
                        *gk += r * dk;
                    }
                }
                loss
            });
            loss += pair_scale * pair_loss;
            for (g, p) in grad.iter_mut().zip(&pair_grad) {
                *g += pair_scale * p;
            }
        }
        let mut penalty = 0.0;
        for k in 1..dim {
            penalty += theta[k] * theta[k];
            grad[k] += l2 * theta[k];
        }
        loss + 0.5 * l2 * penalty
    };
    let result = minimise(objective, &phase.theta, LbfgsOptions::default());
    phase.theta = result.x;
    QuadraticFit {
        phase,
        l2,
        iterations: result.iterations,
        converged: result.converged,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use liuzi::eval::qda::sigmoid;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn recovers_a_quadratic_boundary_a_linear_model_cannot_draw() {
        // Wins inside a circle: logit = 2 − 3(z0² + z1²) + 0·z2.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        let rows: Vec<[f64; 3]> = (0..20_000)
            .map(|_| std::array::from_fn(|_| rng.gen_range(-1.5..1.5)))
            .collect();
        let truth = |x: &[f64]| 2.0 - 3.0 * (x[0] * x[0] + x[1] * x[1]);
        let ys: Vec<bool> = rows
            .iter()
            .map(|x| rng.gen::<f64>() < sigmoid(truth(x)))
            .collect();
        let refs: Vec<&[f64]> = rows.iter().map(|r| &r[..]).collect();
        let ys: Vec<f64> = ys.iter().map(|&y| f64::from(u8::from(y))).collect();
        let fit = fit(
            &refs,
            &ys,
            Comparisons::default(),
            (0, None),
            (&[0.0; 3], &[1.0; 3]),
            1e-7,
            2,
        );
        assert!(fit.converged, "{fit:?}");
        let fit = fit.phase;
        // θ = [k, b0, b1, b2, A00, A10, A11, A20, A21, A22].
        let want = [2.0, 0.0, 0.0, 0.0, -3.0, 0.0, -3.0, 0.0, 0.0, 0.0];
        for (k, (got, want)) in fit.theta.iter().zip(want).enumerate() {
            assert!((got - want).abs() < 0.25, "θ[{k}] = {got}, want {want}");
        }
        let x = [0.3, -0.2, 1.0];
        assert!((fit.logit(&x) - truth(&x)).abs() < 0.3);
    }

    #[test]
    fn comparisons_teach_what_the_labels_do_not_say() {
        // The labels say every position is even (0.5); the comparisons say that more of
        // feature 0 is better and feature 1 does not matter. The fit weighs the two.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let rows: Vec<[f64; 2]> = (0..2000)
            .map(|_| std::array::from_fn(|_| rng.gen_range(-1.0..1.0)))
            .collect();
        let refs: Vec<&[f64]> = rows.iter().map(|r| &r[..]).collect();
        let ys = vec![0.5; rows.len()];
        let pair_rows: Vec<([f64; 2], [f64; 2])> = (0..2000)
            .map(|_| {
                let a: [f64; 2] = std::array::from_fn(|_| rng.gen_range(-1.0..1.0));
                let b: [f64; 2] = std::array::from_fn(|_| rng.gen_range(-1.0..1.0));
                // The better one by the true logit 3·x0, drawn with its odds.
                let p = sigmoid(3.0 * (a[0] - b[0]));
                if rng.gen::<f64>() < p {
                    (a, b)
                } else {
                    (b, a)
                }
            })
            .collect();
        let pairs: Vec<(&[f64], &[f64])> =
            pair_rows.iter().map(|(a, b)| (&a[..], &b[..])).collect();
        let standard = (&[0.0; 2][..], &[1.0; 2][..]);
        let with = |weight: f64| {
            let comparisons = Comparisons {
                pairs: &pairs,
                weight,
            };
            fit(&refs, &ys, comparisons, (0, None), standard, 1e-6, 2).phase
        };
        let taught = with(1.0);
        // θ = [k, b0, b1, A00, A10, A11]: a slope for x0 (short of the comparisons' own 3,
        // which the even labels pull down), none for x1, and a larger weight pulls further.
        assert!(taught.theta[1] > 0.8, "{:?}", taught.theta);
        assert!(taught.theta[2].abs() < 0.3, "{:?}", taught.theta);
        let heavier = with(8.0);
        assert!(
            heavier.theta[1] > taught.theta[1] + 0.5,
            "{:?}",
            heavier.theta
        );
        assert!(heavier.theta[1] < 3.5, "{:?}", heavier.theta);
        assert!(taught.logit(&[0.5, 0.0]) > taught.logit(&[-0.5, 0.0]));
        // Weight 0 is the labels' fit exactly: flat.
        let plain = fit(
            &refs,
            &ys,
            Comparisons::default(),
            (0, None),
            standard,
            1e-6,
            2,
        )
        .phase;
        assert_eq!(with(0.0).theta, plain.theta);
        assert!(plain.theta[1].abs() < 0.1, "{:?}", plain.theta);
    }

    #[test]
    fn soft_labels_are_fitted_as_probabilities() {
        // Every position labelled 0.7: the fit is the constant 0.7, which no hard labels give.
        let rows: Vec<[f64; 2]> = (0..500).map(|i| [i as f64 / 500.0, 0.5]).collect();
        let refs: Vec<&[f64]> = rows.iter().map(|r| &r[..]).collect();
        let ys = vec![0.7; rows.len()];
        let fit = fit(
            &refs,
            &ys,
            Comparisons::default(),
            (0, None),
            (&[0.5, 0.5], &[0.3, 1.0]),
            1e-4,
            2,
        )
        .phase;
        for x in [[0.1, 0.5], [0.9, 0.5]] {
            let p = fit.win_probability(&x);
            assert!((p - 0.7).abs() < 1e-3, "{p} at {x:?}");
        }
    }

    #[test]
    fn standardisation_does_not_change_the_fitted_probabilities() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
        let rows: Vec<[f64; 2]> = (0..4000)
            .map(|_| [rng.gen_range(0.0..4.0), rng.gen_range(-10.0..10.0)])
            .collect();
        let ys: Vec<bool> = rows
            .iter()
            .map(|x| rng.gen::<f64>() < sigmoid(x[0] - 2.0 + 0.1 * x[0] * x[1]))
            .collect();
        let refs: Vec<&[f64]> = rows.iter().map(|r| &r[..]).collect();
        let ys: Vec<f64> = ys.iter().map(|&y| f64::from(u8::from(y))).collect();
        let plain = fit(
            &refs,
            &ys,
            Comparisons::default(),
            (0, None),
            (&[0.0; 2], &[1.0; 2]),
            0.0,
            1,
        )
        .phase;
        let scaled = fit(
            &refs,
            &ys,
            Comparisons::default(),
            (0, None),
            (&[2.0, 0.0], &[1.2, 5.8]),
            0.0,
            3,
        )
        .phase;
        for x in [[1.0, 3.0], [3.5, -8.0], [0.2, 0.0]] {
            let (a, b) = (plain.win_probability(&x), scaled.win_probability(&x));
            assert!((a - b).abs() < 1e-3, "{a} vs {b} at {x:?}");
        }
    }
}
