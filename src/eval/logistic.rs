//! A phase's quadratic logistic regression: P(win) = σ(k + bᵀz + Σ_{j≤i} A_ij z_i z_j) in the
//! standardised features z = (x − center) / scale.
//!
//! The discriminant of [`super::qda`] has the same quadratic form but gets it from two Gaussian
//! classes; on count features (mostly zeros, long tails) that fit spends its parameters on the
//! classes' shapes, and its chosen shrinkage makes it nearly linear. Fitted for the boundary
//! alone (by `liuzi-train-eval --model quadratic`), the same form predicts held-out games far
//! better (docs/evaluator.md, training).

use super::qda::sigmoid;

/// The coefficients of `n` features: the constant, the linear terms, the lower triangle.
pub fn coefficient_count(n: usize) -> usize {
    1 + n + n * (n + 1) / 2
}

/// The expanded features of `z`: 1, z, then z_i·z_j for j ≤ i, row by row (into `out`, of
/// [`coefficient_count`] entries).
pub fn expand(z: &[f64], out: &mut [f64]) {
    let n = z.len();
    out[0] = 1.0;
    out[1..=n].copy_from_slice(z);
    let mut k = n + 1;
    for i in 0..n {
        for j in 0..=i {
            out[k] = z[i] * z[j];
            k += 1;
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct LogisticPhase {
    pub first_stone: u32,
    /// `None`: no upper end.
    pub end_stone: Option<u32>,
    pub center: Vec<f64>,
    pub scale: Vec<f64>,
    /// `[k, b_0 .. b_{n−1}, A_00, A_10, A_11, A_20, ..]`: the lower triangle row by row.
    pub theta: Vec<f64>,
}

impl LogisticPhase {
    pub fn dim(&self) -> usize {
        self.center.len()
    }

    /// The constant term.
    pub fn constant(&self) -> f64 {
        self.theta[0]
    }

    /// The linear coefficient of z_i.
    pub fn linear(&self, i: usize) -> f64 {
        self.theta[1 + i]
    }

    /// The coefficient of z_i·z_j, j ≤ i.
    pub fn pair(&self, i: usize, j: usize) -> f64 {
        debug_assert!(j <= i);
        self.theta[1 + self.dim() + i * (i + 1) / 2 + j]
    }

    /// The log-odds of a win for raw features `x` (the reference the compiled form is tested
    /// against).
    pub fn logit(&self, x: &[f64]) -> f64 {
        let z: Vec<f64> = (0..self.dim())
            .map(|k| (x[k] - self.center[k]) / self.scale[k])
            .collect();
        let mut phi = vec![0.0; self.theta.len()];
        expand(&z, &mut phi);
        self.theta.iter().zip(&phi).map(|(t, p)| t * p).sum()
    }

    pub fn win_probability(&self, x: &[f64]) -> f64 {
        sigmoid(self.logit(x))
    }

    /// Lengths agree, every number is finite, every scale is positive, the range is not empty.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.dim();
        if self.scale.len() != n || self.theta.len() != coefficient_count(n) {
            return Err(format!(
                "{} centres, {} scales and {} coefficients do not fit together",
                n,
                self.scale.len(),
                self.theta.len()
            ));
        }
        if self
            .center
            .iter()
            .chain(&self.theta)
            .any(|v| !v.is_finite())
        {
            return Err("a centre or coefficient is not a finite number".into());
        }
        if self.scale.iter().any(|s| !(s.is_finite() && *s > 0.0)) {
            return Err("a scale is not a positive number".into());
        }
        if self.end_stone.is_some_and(|e| e <= self.first_stone) {
            return Err("the phase's stone range is empty".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_coefficients_are_read_where_the_expansion_puts_them() {
        let phase = LogisticPhase {
            first_stone: 0,
            end_stone: None,
            center: vec![1.0, 0.0, 0.0],
            scale: vec![2.0, 1.0, 1.0],
            theta: (0..coefficient_count(3)).map(|k| k as f64).collect(),
        };
        phase.validate().unwrap();
        assert_eq!((phase.constant(), phase.linear(2)), (0.0, 3.0));
        assert_eq!(
            (phase.pair(0, 0), phase.pair(2, 1), phase.pair(2, 2)),
            (4.0, 8.0, 9.0)
        );
        // z = (1, 2, −1): 0 + (1 + 4 − 3) + 4·1 + 5·2 + 6·4 + 7·(−1) + 8·(−2) + 9·1.
        let x = [3.0, 2.0, -1.0];
        assert_eq!(phase.logit(&x), 2.0 + 4.0 + 10.0 + 24.0 - 7.0 - 16.0 + 9.0);
    }

    #[test]
    fn bad_lengths_and_numbers_are_refused() {
        let good = LogisticPhase {
            first_stone: 0,
            end_stone: None,
            center: vec![0.0; 2],
            scale: vec![1.0; 2],
            theta: vec![0.0; coefficient_count(2)],
        };
        good.validate().unwrap();
        let mut short = good.clone();
        short.theta.pop();
        assert!(short.validate().is_err());
        let mut nan = good.clone();
        nan.theta[3] = f64::NAN;
        assert!(nan.validate().is_err());
        let mut zero = good.clone();
        zero.scale[1] = 0.0;
        assert!(zero.validate().is_err());
        let mut empty = good;
        (empty.first_stone, empty.end_stone) = (8, Some(8));
        assert!(empty.validate().is_err());
    }
}
