//! Dense symmetric positive-definite algebra for the evaluator's small matrices (a few dozen
//! features): Cholesky factorisation, triangular solves, log-determinant. Row-major `Vec<f64>`.

/// The lower-triangular Cholesky factor `L` of a symmetric positive-definite `A = L Lᵀ`.
#[derive(Clone, Debug, PartialEq)]
pub struct Cholesky {
    n: usize,
    /// Row-major `n x n`; entries above the diagonal are zero.
    l: Vec<f64>,
    /// ln det A, kept: the evaluator asks for it at every position (n logarithms).
    log_det: f64,
}

impl Cholesky {
    /// Factorises the `n x n` row-major `a` (only its lower triangle is read). `None` when `a`
    /// is not positive definite (a pivot is not finite and > 0) or has the wrong length.
    pub fn new(a: &[f64], n: usize) -> Option<Cholesky> {
        if a.len() != n * n {
            return None;
        }
        let mut l = vec![0.0; n * n];
        for i in 0..n {
            for j in 0..=i {
                let dot: f64 = (0..j).map(|k| l[i * n + k] * l[j * n + k]).sum();
                if i == j {
                    let pivot = a[i * n + i] - dot;
                    if !(pivot.is_finite() && pivot > 0.0) {
                        return None;
                    }
                    l[i * n + i] = pivot.sqrt();
                } else {
                    l[i * n + j] = (a[i * n + j] - dot) / l[j * n + j];
                }
            }
        }
        let log_det = (0..n).map(|i| crate::math::ln(l[i * n + i])).sum::<f64>() * 2.0;
        Some(Cholesky { n, l, log_det })
    }

    pub fn dim(&self) -> usize {
        self.n
    }

    /// ln det A = 2 Σ ln L_ii.
    pub fn log_det(&self) -> f64 {
        self.log_det
    }

    /// Solves `L y = b` in place.
    pub fn forward(&self, b: &mut [f64]) {
        let n = self.n;
        for i in 0..n {
            let row = &self.l[i * n..i * n + i];
            let dot: f64 = row.iter().zip(&b[..i]).map(|(a, x)| a * x).sum();
            b[i] = (b[i] - dot) / self.l[i * n + i];
        }
    }

    /// Solves `Lᵀ x = y` in place.
    pub fn backward(&self, y: &mut [f64]) {
        let n = self.n;
        for i in (0..n).rev() {
            let dot: f64 = (i + 1..n).map(|k| self.l[k * n + i] * y[k]).sum();
            y[i] = (y[i] - dot) / self.l[i * n + i];
        }
    }

    /// Solves `A x = b` in place.
    pub fn solve(&self, b: &mut [f64]) {
        self.forward(b);
        self.backward(b);
    }

    /// The quadratic form `dᵀ A⁻¹ d` = |L⁻¹ d|², using `scratch` (overwritten) of length n.
    pub fn inverse_quadratic(&self, d: &[f64], scratch: &mut [f64]) -> f64 {
        scratch.copy_from_slice(d);
        self.forward(scratch);
        scratch.iter().map(|y| y * y).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factorises_solves_and_takes_the_determinant() {
        // A = [[4, 2, 0.4], [2, 5, 1], [0.4, 1, 3]]
        let a = vec![4.0, 2.0, 0.4, 2.0, 5.0, 1.0, 0.4, 1.0, 3.0];
        let c = Cholesky::new(&a, 3).unwrap();
        let det = 4.0 * (5.0 * 3.0 - 1.0) - 2.0 * (2.0 * 3.0 - 0.4) + 0.4 * (2.0 - 5.0 * 0.4);
        assert!((c.log_det() - f64::ln(det)).abs() < 1e-12);
        let x = [1.0, -2.0, 0.5];
        let mut b: Vec<f64> = (0..3)
            .map(|i| (0..3).map(|j| a[i * 3 + j] * x[j]).sum())
            .collect();
        c.solve(&mut b);
        for (got, want) in b.iter().zip(x) {
            assert!((got - want).abs() < 1e-12);
        }
        // dᵀA⁻¹d with d = A x is xᵀ A x.
        let d: Vec<f64> = (0..3)
            .map(|i| (0..3).map(|j| a[i * 3 + j] * x[j]).sum())
            .collect();
        let xax: f64 = x.iter().zip(&d).map(|(p, q)| p * q).sum();
        let mut s = [0.0; 3];
        assert!((c.inverse_quadratic(&d, &mut s) - xax).abs() < 1e-10);
    }

    #[test]
    fn refuses_matrices_that_are_not_positive_definite() {
        assert!(Cholesky::new(&[1.0, 2.0, 2.0, 1.0], 2).is_none());
        assert!(Cholesky::new(&[0.0, 0.0, 0.0, 1.0], 2).is_none());
        assert!(Cholesky::new(&[f64::NAN, 0.0, 0.0, 1.0], 2).is_none());
        assert!(Cholesky::new(&[1.0, 0.0, 0.0], 2).is_none());
    }
}
