//! The Bayesian pattern classifier of one game phase (Lee & Mahajan's BILL evaluation): a win
//! class and a loss class (for the side to move), each a multivariate normal density over the
//! standardised features with its own mean and full covariance. The quadratic discriminant
//!
//!   LLR(x) = ln N(x; μ_win, Σ_win) − ln N(x; μ_loss, Σ_loss) + ln(π_win / π_loss)
//!
//! is the log-odds of a win; a Platt calibration `a·LLR + b` (fitted by the trainer on its
//! training positions; 1 and 0 = the raw discriminant) gives the win probability σ(a·LLR + b).
//!
//! Covariances are regularised as in Friedman's regularised discriminant analysis: each class's
//! sample covariance S_k is pulled towards the pooled covariance S_p of both classes (α = 1 is
//! linear discriminant analysis), then towards its diagonal, then given a small ridge, so it
//! stays invertible even for features that never vary within a phase:
//!   Σ_k = (1 − λ)·T_k + λ·diag(T_k) + ε·I,   T_k = (1 − α)·S_k + α·S_p.

use super::linalg::Cholesky;

/// Largest feature dimension the allocation-free evaluation supports.
pub const MAX_DIM: usize = 64;
const LN_2PI: f64 = 1.837_877_066_409_345_5;

/// How sample covariances are regularised (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shrinkage {
    /// α: weight of the pooled covariance, in [0, 1].
    pub pooled: f64,
    /// λ: weight of the diagonal target, in [0, 1].
    pub lambda: f64,
    /// ε: added to the diagonal (the features are standardised, so in units of their variance).
    pub ridge: f64,
}

impl Shrinkage {
    /// No regularisation at all: the plain sample covariances.
    pub const NONE: Shrinkage = Shrinkage {
        pooled: 0.0,
        lambda: 0.0,
        ridge: 0.0,
    };
}

impl Default for Shrinkage {
    fn default() -> Self {
        Shrinkage {
            pooled: 0.5,
            lambda: 0.1,
            ridge: 1e-3,
        }
    }
}

/// Sample mean and covariance (divisor n − 1) of `rows`, all of one length.
pub fn moments(rows: &[&[f64]]) -> Result<(Vec<f64>, Vec<f64>), String> {
    let n = rows.first().ok_or("no samples for a class")?.len();
    let count = rows.len() as f64;
    let mut mean = vec![0.0; n];
    for r in rows {
        for (m, x) in mean.iter_mut().zip(r.iter()) {
            *m += x;
        }
    }
    mean.iter_mut().for_each(|m| *m /= count);
    let mut cov = vec![0.0; n * n];
    let mut d = vec![0.0; n];
    for r in rows {
        for (k, x) in r.iter().enumerate() {
            d[k] = x - mean[k];
        }
        for i in 0..n {
            let di = d[i];
            for j in 0..=i {
                cov[i * n + j] += di * d[j];
            }
        }
    }
    let denom = (count - 1.0).max(1.0);
    for i in 0..n {
        for j in 0..=i {
            let s = cov[i * n + j] / denom;
            cov[i * n + j] = s;
            cov[j * n + i] = s;
        }
    }
    Ok((mean, cov))
}

/// `(1 − λ)·T + λ·diag(T) + ε·I` with `T = (1 − α)·own + α·pooled`.
fn regularise(own: &[f64], pooled: &[f64], n: usize, s: Shrinkage) -> Vec<f64> {
    let mut out = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            let t = (1.0 - s.pooled) * own[i * n + j] + s.pooled * pooled[i * n + j];
            out[i * n + j] = if i == j {
                t + s.ridge
            } else {
                (1.0 - s.lambda) * t
            };
        }
    }
    out
}

/// One class: its prior within the phase and its normal density.
#[derive(Clone, Debug)]
pub struct GaussianClass {
    pub prior: f64,
    /// Training positions of the class (for the record).
    pub samples: u64,
    pub mean: Vec<f64>,
    /// The regularised covariance, row-major.
    pub cov: Vec<f64>,
    chol: Cholesky,
}

impl PartialEq for GaussianClass {
    fn eq(&self, other: &Self) -> bool {
        self.prior == other.prior
            && self.samples == other.samples
            && self.mean == other.mean
            && self.cov == other.cov
    }
}

impl GaussianClass {
    /// A class from its parameters; refuses a prior outside (0, 1), non-finite values, a
    /// non-symmetric or non-positive-definite covariance.
    pub fn new(prior: f64, samples: u64, mean: Vec<f64>, cov: Vec<f64>) -> Result<Self, String> {
        let n = mean.len();
        if n == 0 || n > MAX_DIM {
            return Err(format!("dimension {n} is outside 1..={MAX_DIM}"));
        }
        if !(prior.is_finite() && prior > 0.0 && prior < 1.0) {
            return Err(format!("class prior {prior} is not in (0, 1)"));
        }
        if mean.iter().chain(&cov).any(|v| !v.is_finite()) {
            return Err("a mean or covariance entry is not a finite number".into());
        }
        if cov.len() != n * n {
            return Err(format!(
                "covariance has {} entries, needs {}",
                cov.len(),
                n * n
            ));
        }
        for i in 0..n {
            for j in 0..i {
                let (a, b) = (cov[i * n + j], cov[j * n + i]);
                if (a - b).abs() > 1e-9 * (1.0 + a.abs().max(b.abs())) {
                    return Err(format!("covariance is not symmetric at ({i}, {j})"));
                }
            }
        }
        let chol =
            Cholesky::new(&cov, n).ok_or("covariance is not positive definite".to_string())?;
        Ok(GaussianClass {
            prior,
            samples,
            mean,
            cov,
            chol,
        })
    }

    /// Σ⁻¹, row-major (n solves with the Cholesky factor).
    pub fn precision(&self) -> Vec<f64> {
        let n = self.dim();
        let mut out = vec![0.0; n * n];
        let mut column = vec![0.0; n];
        for j in 0..n {
            column
                .iter_mut()
                .enumerate()
                .for_each(|(i, c)| *c = f64::from(u8::from(i == j)));
            self.chol.solve(&mut column);
            for i in 0..n {
                out[i * n + j] = column[i];
            }
        }
        out
    }

    /// ln det Σ.
    pub fn log_det(&self) -> f64 {
        self.chol.log_det()
    }

    /// Fits mean and covariance to `rows` alone (no pooled target), regularised by `shrinkage`.
    pub fn fit(rows: &[&[f64]], prior: f64, shrinkage: Shrinkage) -> Result<Self, String> {
        let (mean, cov) = moments(rows)?;
        let n = mean.len();
        let cov = regularise(&cov, &cov, n, shrinkage);
        GaussianClass::new(prior, rows.len() as u64, mean, cov)
    }

    pub fn dim(&self) -> usize {
        self.mean.len()
    }

    /// ln N(x; μ, Σ).
    pub fn log_density(&self, x: &[f64]) -> f64 {
        let n = self.dim();
        let mut d = [0.0; MAX_DIM];
        let mut scratch = [0.0; MAX_DIM];
        for k in 0..n {
            d[k] = x[k] - self.mean[k];
        }
        let quad = self.chol.inverse_quadratic(&d[..n], &mut scratch[..n]);
        -0.5 * (quad + self.chol.log_det() + n as f64 * LN_2PI)
    }
}

/// The classifier of the positions whose stone count lies in `first_stone..end_stone`.
#[derive(Clone, Debug, PartialEq)]
pub struct PhaseModel {
    pub first_stone: u32,
    /// `None`: no upper end.
    pub end_stone: Option<u32>,
    /// Features are standardised as (x − center) / scale before the densities.
    pub center: Vec<f64>,
    pub scale: Vec<f64>,
    pub win: GaussianClass,
    pub loss: GaussianClass,
    /// (a, b): logit P(win) = a·LLR + b.
    pub calibration: [f64; 2],
}

/// Standardisation of a phase: the pooled mean and standard deviation of every feature; a
/// feature that never varies gets scale 1.
pub fn standardisation(rows: &[&[f64]]) -> (Vec<f64>, Vec<f64>) {
    let n = rows.first().map_or(0, |r| r.len());
    let count = rows.len().max(1) as f64;
    let mut center = vec![0.0; n];
    for r in rows {
        for (c, x) in center.iter_mut().zip(r.iter()) {
            *c += x;
        }
    }
    center.iter_mut().for_each(|c| *c /= count);
    let mut var = vec![0.0; n];
    for r in rows {
        for k in 0..n {
            var[k] += (r[k] - center[k]).powi(2);
        }
    }
    let scale = var
        .iter()
        .map(|v| {
            let sd = (v / count).sqrt();
            if sd > 1e-9 {
                sd
            } else {
                1.0
            }
        })
        .collect();
    (center, scale)
}

impl PhaseModel {
    /// Fits both classes on raw feature rows of the phase (standardised with the pooled
    /// statistics); the class priors are the class frequencies. Calibration starts as (1, 0).
    pub fn fit(
        wins: &[&[f64]],
        losses: &[&[f64]],
        first_stone: u32,
        end_stone: Option<u32>,
        shrinkage: Shrinkage,
    ) -> Result<PhaseModel, String> {
        if wins.len() < 2 || losses.len() < 2 {
            return Err(format!(
                "phase from stone {first_stone}: {} win and {} loss positions (need 2 of each)",
                wins.len(),
                losses.len()
            ));
        }
        let all: Vec<&[f64]> = wins.iter().chain(losses).copied().collect();
        let (center, scale) = standardisation(&all);
        let standardise = |rows: &[&[f64]]| -> Vec<Vec<f64>> {
            rows.iter()
                .map(|r| {
                    r.iter()
                        .zip(center.iter().zip(&scale))
                        .map(|(x, (c, s))| (x - c) / s)
                        .collect()
                })
                .collect()
        };
        let (w, l) = (standardise(wins), standardise(losses));
        let w_refs: Vec<&[f64]> = w.iter().map(Vec::as_slice).collect();
        let l_refs: Vec<&[f64]> = l.iter().map(Vec::as_slice).collect();
        let (w_mean, w_cov) = moments(&w_refs)?;
        let (l_mean, l_cov) = moments(&l_refs)?;
        let n = center.len();
        let (nw, nl) = (wins.len() as f64, losses.len() as f64);
        let pooled: Vec<f64> = w_cov
            .iter()
            .zip(&l_cov)
            .map(|(a, b)| ((nw - 1.0) * a + (nl - 1.0) * b) / (nw + nl - 2.0))
            .collect();
        let prior_win = nw / (nw + nl);
        let class = |prior: f64, count: usize, mean: Vec<f64>, cov: &[f64], name: &str| {
            GaussianClass::new(
                prior,
                count as u64,
                mean,
                regularise(cov, &pooled, n, shrinkage),
            )
            .map_err(|e| format!("phase from stone {first_stone}, class {name}: {e}"))
        };
        Ok(PhaseModel {
            first_stone,
            end_stone,
            win: class(prior_win, wins.len(), w_mean, &w_cov, "win")?,
            loss: class(1.0 - prior_win, losses.len(), l_mean, &l_cov, "loss")?,
            center,
            scale,
            calibration: [1.0, 0.0],
        })
    }

    pub fn dim(&self) -> usize {
        self.center.len()
    }

    pub fn contains(&self, stones: u32) -> bool {
        stones >= self.first_stone && self.end_stone.is_none_or(|e| stones < e)
    }

    /// The quadratic discriminant for raw features `x`: the log-odds of a win before calibration.
    pub fn log_likelihood_ratio(&self, x: &[f64]) -> f64 {
        let n = self.dim();
        let mut z = [0.0; MAX_DIM];
        for k in 0..n {
            z[k] = (x[k] - self.center[k]) / self.scale[k];
        }
        let z = &z[..n];
        self.win.log_density(z) - self.loss.log_density(z)
            + crate::math::ln(self.win.prior / self.loss.prior)
    }

    /// P(win) for the side to move: σ(a·LLR + b).
    pub fn win_probability(&self, x: &[f64]) -> f64 {
        let [a, b] = self.calibration;
        sigmoid(a * self.log_likelihood_ratio(x) + b)
    }

    /// Checks that the parts fit together (dimensions, finite scales, calibration).
    pub fn validate(&self) -> Result<(), String> {
        let n = self.dim();
        if self.scale.len() != n || self.win.dim() != n || self.loss.dim() != n {
            return Err("dimensions of the phase's parts differ".into());
        }
        if self
            .center
            .iter()
            .chain(&self.scale)
            .any(|v| !v.is_finite())
            || self.scale.iter().any(|&s| s <= 0.0)
        {
            return Err("standardisation values must be finite, scales > 0".into());
        }
        if self.calibration.iter().any(|v| !v.is_finite()) {
            return Err("calibration values must be finite".into());
        }
        if self.end_stone.is_some_and(|e| e <= self.first_stone) {
            return Err("the phase's stone range is empty".into());
        }
        Ok(())
    }
}

/// The logistic function, safe for large |t|.
pub fn sigmoid(t: f64) -> f64 {
    if t >= 0.0 {
        1.0 / (1.0 + crate::math::exp(-t))
    } else {
        let e = crate::math::exp(t);
        e / (1.0 + e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Standard normal by Box-Muller.
    fn normal(rng: &mut Xoshiro256PlusPlus) -> f64 {
        let u: f64 = rng.gen_range(f64::EPSILON..1.0);
        let v: f64 = rng.gen();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    /// Samples of N(mean, L Lᵀ) for a lower-triangular 2x2 `l`.
    fn sample(
        rng: &mut Xoshiro256PlusPlus,
        n: usize,
        mean: [f64; 2],
        l: [f64; 3],
    ) -> Vec<[f64; 2]> {
        (0..n)
            .map(|_| {
                let (a, b) = (normal(rng), normal(rng));
                [mean[0] + l[0] * a, mean[1] + l[1] * a + l[2] * b]
            })
            .collect()
    }

    #[test]
    fn recovers_known_gaussian_classes() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(42);
        // Win: mean (1, 0), cov [[1, 0.6], [0.6, 1]]; loss: mean (-1, 0.5), cov diag(4, 0.25).
        let wins = sample(&mut rng, 30_000, [1.0, 0.0], [1.0, 0.6, 0.8]);
        let losses = sample(&mut rng, 10_000, [-1.0, 0.5], [2.0, 0.0, 0.5]);
        let w: Vec<&[f64]> = wins.iter().map(|r| &r[..]).collect();
        let l: Vec<&[f64]> = losses.iter().map(|r| &r[..]).collect();
        let model = PhaseModel::fit(&w, &l, 0, None, Shrinkage::NONE).unwrap();
        assert!((model.win.prior - 0.75).abs() < 1e-12);
        // Back in raw units: mean = center + scale * standardised mean, cov likewise.
        let raw_mean = |c: &GaussianClass, k: usize| model.center[k] + model.scale[k] * c.mean[k];
        let raw_cov = |c: &GaussianClass, i: usize, j: usize| {
            c.cov[i * 2 + j] * model.scale[i] * model.scale[j]
        };
        let close = |got: f64, want: f64| (got - want).abs() < 0.05;
        assert!(close(raw_mean(&model.win, 0), 1.0) && close(raw_mean(&model.win, 1), 0.0));
        assert!(close(raw_mean(&model.loss, 0), -1.0) && close(raw_mean(&model.loss, 1), 0.5));
        assert!(close(raw_cov(&model.win, 0, 0), 1.0) && close(raw_cov(&model.win, 0, 1), 0.6));
        assert!(close(raw_cov(&model.loss, 0, 0), 4.0) && close(raw_cov(&model.loss, 1, 1), 0.25));
        assert!(close(raw_cov(&model.loss, 0, 1), 0.0));

        // The discriminant agrees with the true posterior.
        let true_log_density = |x: [f64; 2], mean: [f64; 2], cov: [f64; 3]| {
            let (a, b, d) = (cov[0], cov[1], cov[2]);
            let det = a * d - b * b;
            let (u, v) = (x[0] - mean[0], x[1] - mean[1]);
            let quad = (d * u * u - 2.0 * b * u * v + a * v * v) / det;
            -0.5 * (quad + det.ln() + 2.0 * LN_2PI)
        };
        for x in [[0.0, 0.0], [1.5, 1.0], [-2.0, 0.4], [0.3, -1.2]] {
            let llr = true_log_density(x, [1.0, 0.0], [1.0, 0.6, 1.0])
                - true_log_density(x, [-1.0, 0.5], [4.0, 0.0, 0.25])
                + (0.75f64 / 0.25).ln();
            let p = model.win_probability(&x);
            assert!(
                (p - sigmoid(llr)).abs() < 0.03,
                "{x:?}: {p} vs {}",
                sigmoid(llr)
            );
        }
        // And classifies fresh samples about as well as the Bayes rule can.
        let test_w = sample(&mut rng, 2000, [1.0, 0.0], [1.0, 0.6, 0.8]);
        let test_l = sample(&mut rng, 2000, [-1.0, 0.5], [2.0, 0.0, 0.5]);
        let right = test_w
            .iter()
            .filter(|x| model.win_probability(&x[..]) > 0.5)
            .count()
            + test_l
                .iter()
                .filter(|x| model.win_probability(&x[..]) <= 0.5)
                .count();
        assert!(right as f64 / 4000.0 > 0.8, "{right}");
    }

    #[test]
    fn shrinkage_keeps_degenerate_covariances_invertible() {
        // The second feature never varies and the third copies the first.
        let rows: Vec<[f64; 3]> = (0..50).map(|i| [i as f64, 2.0, i as f64]).collect();
        let refs: Vec<&[f64]> = rows.iter().map(|r| &r[..]).collect();
        assert!(GaussianClass::fit(&refs, 0.5, Shrinkage::NONE).is_err());
        let c = GaussianClass::fit(&refs, 0.5, Shrinkage::default()).unwrap();
        assert!(c.log_density(&[3.0, 2.0, 3.0]).is_finite());
        let model =
            PhaseModel::fit(&refs[..25], &refs[25..], 10, Some(20), Shrinkage::default()).unwrap();
        assert_eq!(model.scale[1], 1.0);
        // Wins are the small values, losses the large ones.
        assert!(model.win_probability(&[3.0, 2.0, 3.0]) > 0.5);
        assert!(model.win_probability(&[40.0, 2.0, 40.0]) < 0.5);
        assert!(model.contains(10) && model.contains(19) && !model.contains(20));
    }

    #[test]
    fn full_pooling_gives_both_classes_one_covariance() {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(8);
        let wins = sample(&mut rng, 500, [1.0, 0.0], [1.0, 0.6, 0.8]);
        let losses = sample(&mut rng, 300, [-1.0, 0.5], [2.0, 0.0, 0.5]);
        let w: Vec<&[f64]> = wins.iter().map(|r| &r[..]).collect();
        let l: Vec<&[f64]> = losses.iter().map(|r| &r[..]).collect();
        let lda = Shrinkage {
            pooled: 1.0,
            ..Shrinkage::NONE
        };
        let model = PhaseModel::fit(&w, &l, 0, None, lda).unwrap();
        for (a, b) in model.win.cov.iter().zip(&model.loss.cov) {
            assert!((a - b).abs() < 1e-12);
        }
        // With one covariance the discriminant is linear: equal steps give equal changes.
        let at = |t: f64| model.log_likelihood_ratio(&[t, 0.3 * t]);
        assert!((at(1.0) - at(0.0) - (at(2.0) - at(1.0))).abs() < 1e-9);
    }

    #[test]
    fn classes_refuse_bad_parameters() {
        let ok = GaussianClass::new(0.5, 1, vec![0.0, 0.0], vec![1.0, 0.0, 0.0, 1.0]);
        assert!(ok.is_ok());
        for (prior, cov) in [
            (1.0, vec![1.0, 0.0, 0.0, 1.0]),
            (0.5, vec![1.0, 0.5, 0.0, 1.0]),
            (0.5, vec![1.0, 2.0, 2.0, 1.0]),
            (0.5, vec![1.0, 0.0, 0.0]),
            (0.5, vec![f64::INFINITY, 0.0, 0.0, 1.0]),
        ] {
            assert!(GaussianClass::new(prior, 1, vec![0.0, 0.0], cov).is_err());
        }
    }
}
