//! L-BFGS (Nocedal & Wright, algorithm 7.5) with a backtracking Armijo line search: minimises a
//! smooth function of a few hundred variables from its value and gradient alone, where
//! Newton's method would need the Hessian (its cost grows with the square of the variables).

#[derive(Clone, Copy, Debug)]
pub struct LbfgsOptions {
    /// Pairs of steps and gradient changes remembered.
    pub memory: usize,
    pub max_iterations: usize,
    /// Converged when the largest gradient coordinate is below this.
    pub gradient_tolerance: f64,
    /// ... or when an iteration lowers the value by less than this fraction of it.
    pub value_tolerance: f64,
}

impl Default for LbfgsOptions {
    fn default() -> Self {
        LbfgsOptions {
            memory: 10,
            max_iterations: 400,
            gradient_tolerance: 1e-6,
            value_tolerance: 1e-10,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Minimum {
    pub x: Vec<f64>,
    pub value: f64,
    pub iterations: usize,
    pub converged: bool,
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn largest(v: &[f64]) -> f64 {
    v.iter().fold(0.0f64, |m, x| m.max(x.abs()))
}

/// Minimises `f` (which writes its gradient into the second argument and returns its value)
/// from `start`.
pub fn minimise<F>(mut f: F, start: &[f64], options: LbfgsOptions) -> Minimum
where
    F: FnMut(&[f64], &mut [f64]) -> f64,
{
    let n = start.len();
    let mut x = start.to_vec();
    let mut grad = vec![0.0; n];
    let mut value = f(&x, &mut grad);
    // (s, y, 1 / yᵀs) of the latest steps, oldest first.
    let mut history: Vec<(Vec<f64>, Vec<f64>, f64)> = Vec::new();
    let (mut next_x, mut next_grad) = (vec![0.0; n], vec![0.0; n]);
    for iteration in 1..=options.max_iterations {
        if largest(&grad) < options.gradient_tolerance {
            return Minimum {
                x,
                value,
                iterations: iteration - 1,
                converged: true,
            };
        }
        // Two-loop recursion: direction = −H·grad.
        let mut q = grad.clone();
        let mut alphas = vec![0.0; history.len()];
        for (k, (s, y, rho)) in history.iter().enumerate().rev() {
            alphas[k] = rho * dot(s, &q);
            q.iter_mut()
                .zip(y)
                .for_each(|(qi, yi)| *qi -= alphas[k] * yi);
        }
        let gamma = history
            .last()
            .map_or(1.0 / largest(&grad).max(1e-300), |(s, y, _)| {
                dot(s, y) / dot(y, y)
            });
        q.iter_mut().for_each(|qi| *qi *= gamma);
        for (k, (s, y, rho)) in history.iter().enumerate() {
            let beta = rho * dot(y, &q);
            q.iter_mut()
                .zip(s)
                .for_each(|(qi, si)| *qi += (alphas[k] - beta) * si);
        }
        let mut direction: Vec<f64> = q.iter().map(|v| -v).collect();
        let mut slope = dot(&grad, &direction);
        if slope >= 0.0 {
            // Not a descent direction (curvature lost to rounding): restart from the gradient.
            history.clear();
            let scale = 1.0 / largest(&grad).max(1e-300);
            direction = grad.iter().map(|g| -g * scale).collect();
            slope = dot(&grad, &direction);
        }
        // Backtracking until the Armijo condition holds.
        let mut step = 1.0;
        let mut next_value = f64::INFINITY;
        for _ in 0..60 {
            for k in 0..n {
                next_x[k] = x[k] + step * direction[k];
            }
            next_value = f(&next_x, &mut next_grad);
            if next_value.is_finite() && next_value <= value + 1e-4 * step * slope {
                break;
            }
            step *= 0.5;
        }
        if !(next_value.is_finite() && next_value <= value) {
            // No step lowers the value: as close as rounding allows.
            return Minimum {
                x,
                value,
                iterations: iteration,
                converged: true,
            };
        }
        let s: Vec<f64> = next_x.iter().zip(&x).map(|(a, b)| a - b).collect();
        let y: Vec<f64> = next_grad.iter().zip(&grad).map(|(a, b)| a - b).collect();
        let sy = dot(&s, &y);
        if sy > 1e-12 * dot(&y, &y).sqrt() * dot(&s, &s).sqrt() {
            if history.len() == options.memory {
                history.remove(0);
            }
            history.push((s, y, 1.0 / sy));
        }
        let drop = value - next_value;
        std::mem::swap(&mut x, &mut next_x);
        std::mem::swap(&mut grad, &mut next_grad);
        value = next_value;
        if drop <= options.value_tolerance * value.abs().max(1e-12) {
            return Minimum {
                x,
                value,
                iterations: iteration,
                converged: true,
            };
        }
    }
    Minimum {
        x,
        value,
        iterations: options.max_iterations,
        converged: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_minimum_of_the_rosenbrock_valley() {
        let rosenbrock = |x: &[f64], g: &mut [f64]| {
            let (a, b) = (x[0], x[1]);
            g[0] = -2.0 * (1.0 - a) - 400.0 * a * (b - a * a);
            g[1] = 200.0 * (b - a * a);
            (1.0 - a).powi(2) + 100.0 * (b - a * a).powi(2)
        };
        let options = LbfgsOptions {
            max_iterations: 1000,
            gradient_tolerance: 1e-9,
            value_tolerance: 0.0,
            ..LbfgsOptions::default()
        };
        let m = minimise(rosenbrock, &[-1.2, 1.0], options);
        assert!(m.converged, "{m:?}");
        assert!(
            (m.x[0] - 1.0).abs() < 1e-5 && (m.x[1] - 1.0).abs() < 1e-5,
            "{m:?}"
        );
    }

    #[test]
    fn solves_an_ill_conditioned_quadratic() {
        // f = ½ Σ c_k (x_k − k)², curvatures from 1 to 10⁴.
        let c: Vec<f64> = (0..30).map(|k| 10f64.powf(k as f64 / 29.0 * 4.0)).collect();
        let f = |x: &[f64], g: &mut [f64]| {
            let mut v = 0.0;
            for k in 0..x.len() {
                let d = x[k] - k as f64;
                g[k] = c[k] * d;
                v += 0.5 * c[k] * d * d;
            }
            v
        };
        let options = LbfgsOptions {
            gradient_tolerance: 1e-8,
            value_tolerance: 0.0,
            max_iterations: 2000,
            ..LbfgsOptions::default()
        };
        let m = minimise(f, &[0.0; 30], options);
        assert!(m.converged && m.value < 1e-10, "{m:?}");
    }
}
