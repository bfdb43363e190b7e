//! The SPSA arithmetic, Fishtest's parametrization: per setting, the perturbation c_k and the
//! learning rate r_k = a_k / c_k² are given by their values at the last planned iteration
//! (`c_end`, `r_end`), from which
//!
//!   c_k = c / (k + 1)^γ        with c = c_end · N^γ
//!   a_k = a / (A + k + 1)^α    with a = r_end · c_end² · (A + N)^α, A = a_share · N
//!
//! An iteration draws Δ ∈ {−1, +1}^n, plays θ + c_k·Δ against θ − c_k·Δ, and with `result`
//! the score difference of the plus side (wins − losses over the iteration's games, draws 0)
//! moves θ_i by r_k · c_k,i · result · Δ_i = a_k · result / (c_k · Δ_i) — a step along the
//! estimated gradient of the score, larger while k is small.

use super::spec::TuneSpec;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// One iteration's perturbation.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// ±1 per setting.
    pub delta: Vec<i8>,
    /// c_k per setting.
    pub c: Vec<f64>,
    /// The plus and minus settings, clamped to their ranges.
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
}

/// c_k and r_k of setting `i` at iteration `k` (from 0).
fn gains(spec: &TuneSpec, i: usize, k: u32) -> (f64, f64) {
    let p = &spec.params[i];
    let n = f64::from(spec.iterations);
    let big_a = spec.a_share * n;
    let c = p.c_end * n.powf(spec.gamma);
    let a_end = p.r_end * p.c_end * p.c_end;
    let a = a_end * (big_a + n).powf(spec.alpha);
    let k = f64::from(k);
    let c_k = c / (k + 1.0).powf(spec.gamma);
    let a_k = a / (big_a + k + 1.0).powf(spec.alpha);
    (c_k, a_k / (c_k * c_k))
}

/// The perturbation of iteration `k` around `theta`; Δ comes from `seed` and `k` alone, so a
/// resumed run draws what an uninterrupted one would.
pub fn perturb(spec: &TuneSpec, theta: &[f64], k: u32, seed: u64) -> Perturbation {
    let mut rng =
        Xoshiro256PlusPlus::seed_from_u64(seed ^ u64::from(k).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut out = Perturbation {
        delta: Vec::new(),
        c: Vec::new(),
        plus: Vec::new(),
        minus: Vec::new(),
    };
    for (i, p) in spec.params.iter().enumerate() {
        let d: i8 = if rng.gen::<bool>() { 1 } else { -1 };
        let (c_k, _) = gains(spec, i, k);
        out.delta.push(d);
        out.c.push(c_k);
        out.plus.push(p.clamp(theta[i] + c_k * f64::from(d)));
        out.minus.push(p.clamp(theta[i] - c_k * f64::from(d)));
    }
    out
}

/// θ after iteration `k`, whose plus side scored `result` more than its minus side.
pub fn update(
    spec: &TuneSpec,
    theta: &[f64],
    k: u32,
    pert: &Perturbation,
    result: f64,
) -> Vec<f64> {
    spec.params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let (c_k, r_k) = gains(spec, i, k);
            p.clamp(theta[i] + r_k * c_k * result * f64::from(pert.delta[i]))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::spec::{Param, TuneSpec};
    use super::*;

    fn spec(iterations: u32, params: Vec<Param>) -> TuneSpec {
        TuneSpec {
            params,
            iterations,
            alpha: 0.602,
            gamma: 0.101,
            a_share: 0.1,
        }
    }

    fn param(key: &str, start: f64, c_end: f64, r_end: f64) -> Param {
        Param {
            key: key.into(),
            start,
            min: -10.0,
            max: 10.0,
            c_end,
            r_end,
            integer: false,
        }
    }

    #[test]
    fn the_gains_end_at_the_given_values_and_decay() {
        let s = spec(1000, vec![param("x", 0.0, 0.05, 0.002)]);
        let (c_last, r_last) = gains(&s, 0, 999);
        assert!((c_last - 0.05).abs() < 1e-12);
        assert!((r_last - 0.002).abs() < 1e-12);
        let (c_first, _) = gains(&s, 0, 0);
        assert!(c_first > c_last);
        // The step a_k = r_k c_k^2 decays too.
        let step = |k| {
            let (c, r) = gains(&s, 0, k);
            r * c * c
        };
        assert!(step(0) > step(500) && step(500) > step(999));
    }

    #[test]
    fn perturbations_are_reproducible_and_symmetric() {
        let s = spec(
            100,
            vec![param("x", 0.0, 0.1, 0.01), param("y", 1.0, 0.2, 0.01)],
        );
        let theta = [0.0, 1.0];
        let a = perturb(&s, &theta, 7, 42);
        assert_eq!(a, perturb(&s, &theta, 7, 42));
        for (i, t) in theta.iter().enumerate() {
            assert!((a.plus[i] + a.minus[i] - 2.0 * t).abs() < 1e-12);
            assert!((a.plus[i] - t - a.c[i] * f64::from(a.delta[i])).abs() < 1e-12);
        }
        // Over many iterations both signs come up for each setting.
        let signs: Vec<i8> = (0..64)
            .map(|k| perturb(&s, &theta, k, 42).delta[0])
            .collect();
        assert!(signs.contains(&1) && signs.contains(&-1));
    }

    /// A noisy game whose plus side wins with a probability that grows as it gets nearer the
    /// optimum: SPSA must walk both settings there from far away.
    #[test]
    fn spsa_finds_the_optimum_of_a_noisy_game() {
        let optimum = [0.7, -0.3];
        let s = spec(
            3000,
            vec![param("x", -1.0, 0.05, 0.02), param("y", 1.0, 0.05, 0.02)],
        );
        let strength = |t: &[f64]| -> f64 {
            -t.iter()
                .zip(optimum)
                .map(|(a, b)| (a - b) * (a - b))
                .sum::<f64>()
        };
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let mut theta = s.start();
        for k in 0..s.iterations {
            let pert = perturb(&s, &theta, k, 1);
            // Logistic win chance of plus against minus in one game pair (two games).
            let gap = strength(&pert.plus) - strength(&pert.minus);
            let p = 1.0 / (1.0 + (-4.0 * gap).exp());
            let result: f64 = (0..2)
                .map(|_| if rng.gen::<f64>() < p { 1.0 } else { -1.0 })
                .sum();
            theta = update(&s, &theta, k, &pert, result);
        }
        for (t, o) in theta.iter().zip(optimum) {
            assert!((t - o).abs() < 0.25, "{theta:?} vs {optimum:?}");
        }
    }

    #[test]
    fn updates_stay_in_range() {
        let mut p = param("x", 0.95, 0.5, 10.0);
        p.min = 0.0;
        p.max = 1.0;
        let s = spec(10, vec![p]);
        let pert = perturb(&s, &[0.95], 0, 3);
        assert!(pert.plus[0] <= 1.0 && pert.minus[0] >= 0.0);
        let up = update(&s, &[0.95], 0, &pert, 2.0 * f64::from(pert.delta[0]));
        assert_eq!(up, vec![1.0]);
    }
}
