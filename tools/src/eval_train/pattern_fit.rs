//! The pattern term's fit: a sparse logistic regression of the positions' pattern counts, with
//! the phase's quadratic logit as a fixed offset (fitted first, so the tables learn only what
//! the hand features miss).
//!
//! Minimises the mean log-loss of σ(offset + Σ own[id]·count + Σ opp[id]·count) plus
//! (λ/2)·|weights|² by L-BFGS. The counts run from 1 to most of the board (the id of an open
//! cell far from the stones), so the raw weights' curvatures differ by orders of magnitude; the
//! minimiser works on weights scaled by the root of each one's curvature at zero (a diagonal
//! preconditioner), which leaves the objective as it is and its minimum where it was.

use super::lbfgs::{minimise, LbfgsOptions};
use super::logistic::soft_neg_log_likelihood;
use super::parallel_sum::loss_and_gradient;
use liuzi::eval::pattern_term::{PatternCounts, PatternTables, PATTERN_IDS};
use liuzi::eval::qda::sigmoid;

/// One position of the fit.
#[derive(Clone, Copy, Debug)]
pub struct PatternRow<'a> {
    pub counts: &'a PatternCounts,
    /// The logit the term is added to.
    pub offset: f64,
    /// The side to move won the game: what the fit is scored against.
    pub win: bool,
    /// The label the fit trains on: the probability that the side to move wins (the result
    /// as 0 or 1, or a soft label).
    pub target: f64,
}

/// Fitted tables and how the minimiser ended.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternFit {
    pub tables: PatternTables,
    pub l2: f64,
    pub iterations: usize,
    pub converged: bool,
}

/// The rows' counts in one flat list: weight index (the opponent's ids after the side to
/// move's) and count, with each row's end.
struct Sparse {
    index: Vec<u16>,
    count: Vec<f32>,
    ends: Vec<usize>,
}

const WEIGHTS: usize = 2 * PATTERN_IDS;
const _: () = assert!(WEIGHTS <= u16::MAX as usize);

impl Sparse {
    fn new(rows: &[PatternRow]) -> Sparse {
        let mut sparse = Sparse {
            index: Vec::new(),
            count: Vec::new(),
            ends: Vec::with_capacity(rows.len()),
        };
        for row in rows {
            let sides = [(0, &row.counts.own), (PATTERN_IDS, &row.counts.opp)];
            for (base, pairs) in sides {
                for &(id, n) in pairs {
                    sparse.index.push((base + id as usize) as u16);
                    sparse.count.push(f32::from(n));
                }
            }
            sparse.ends.push(sparse.index.len());
        }
        sparse
    }

    /// Row `r`'s entries.
    fn row(&self, r: usize) -> (&[u16], &[f32]) {
        let start = if r == 0 { 0 } else { self.ends[r - 1] };
        let end = self.ends[r];
        (&self.index[start..end], &self.count[start..end])
    }
}

/// Fits the tables to `rows` with the L2 penalty `l2`, on `threads` threads.
pub fn fit(rows: &[PatternRow], l2: f64, threads: usize) -> PatternFit {
    let sparse = Sparse::new(rows);
    let n = rows.len().max(1) as f64;
    // Curvature of each weight at zero (p(1 − p) ≤ 1/4): a quarter of its mean squared count,
    // plus the penalty's.
    let mut curvature = vec![0.0f64; WEIGHTS];
    for (&k, &c) in sparse.index.iter().zip(&sparse.count) {
        curvature[k as usize] += 0.25 * f64::from(c) * f64::from(c) / n;
    }
    let unscale: Vec<f64> = curvature
        .iter()
        .map(|&h| 1.0 / (h + l2).max(1e-12).sqrt())
        .collect();
    let objective = |scaled: &[f64], grad: &mut [f64]| -> f64 {
        let weights: Vec<f64> = scaled.iter().zip(&unscale).map(|(s, u)| s * u).collect();
        let loss = loss_and_gradient(rows.len(), threads, grad, |run, g| {
            let mut loss = 0.0;
            for r in run {
                let (index, count) = sparse.row(r);
                let term: f64 = index
                    .iter()
                    .zip(count)
                    .map(|(&k, &c)| weights[k as usize] * f64::from(c))
                    .sum();
                let t = rows[r].offset + term;
                loss += soft_neg_log_likelihood(t, rows[r].target);
                let residual = sigmoid(t) - rows[r].target;
                for (&k, &c) in index.iter().zip(count) {
                    g[k as usize] += residual * f64::from(c);
                }
            }
            loss
        });
        let mut penalty = 0.0;
        for k in 0..WEIGHTS {
            penalty += weights[k] * weights[k];
            // d/d(scaled) = d/d(weight) · unscale.
            grad[k] = (grad[k] / n + l2 * weights[k]) * unscale[k];
        }
        loss / n + 0.5 * l2 * penalty
    };
    let options = LbfgsOptions {
        max_iterations: 300,
        value_tolerance: 1e-9,
        ..LbfgsOptions::default()
    };
    let result = minimise(objective, &vec![0.0; WEIGHTS], options);
    let weight = |k: usize| (result.x[k] * unscale[k]) as f32;
    let mut tables = PatternTables {
        own: (0..PATTERN_IDS).map(weight).collect(),
        opp: (PATTERN_IDS..WEIGHTS).map(weight).collect(),
    };
    // Id 0 is never counted, so its weights stay at their start; the file requires 0.
    (tables.own[0], tables.opp[0]) = (0.0, 0.0);
    PatternFit {
        tables,
        l2,
        iterations: result.iterations,
        converged: result.converged,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    #[test]
    fn recovers_a_planted_table_beside_a_fixed_offset() {
        // Twelve ids a side with planted weights, a few of them common with large counts (as
        // an open cell's id is), the rest rare; the offset carries signal of its own.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(6);
        let planted_ids: Vec<u16> = (0..12).map(|k| 3 + 41 * k).collect();
        let planted = |side: usize, k: usize| 0.3 * ((k * 7 + side * 5) % 9) as f64 / 8.0 - 0.15;
        let mut truth = PatternTables::zero();
        for (k, &id) in planted_ids.iter().enumerate() {
            truth.own[id as usize] = planted(0, k) as f32;
            truth.opp[id as usize] = planted(1, k) as f32;
        }
        let positions: Vec<(PatternCounts, f64, bool)> = (0..40_000)
            .map(|_| {
                let mut side = || -> Vec<(u16, u16)> {
                    planted_ids
                        .iter()
                        .enumerate()
                        .filter_map(|(k, &id)| {
                            let n = if k < 3 {
                                rng.gen_range(0..12)
                            } else {
                                u16::from(rng.gen_bool(0.3)) * rng.gen_range(1..4)
                            };
                            (n > 0).then_some((id, n))
                        })
                        .collect()
                };
                let counts = PatternCounts {
                    own: side(),
                    opp: side(),
                };
                let offset = rng.gen_range(-1.0..1.0);
                let t = offset + truth.term_of_counts(&counts);
                let win = rng.gen::<f64>() < sigmoid(t);
                (counts, offset, win)
            })
            .collect();
        let rows: Vec<PatternRow> = positions
            .iter()
            .map(|(counts, offset, win)| PatternRow {
                counts,
                offset: *offset,
                win: *win,
                target: f64::from(u8::from(*win)),
            })
            .collect();
        let fitted = fit(&rows, 1e-6, 2);
        assert!(fitted.converged, "{} iterations", fitted.iterations);
        for (k, &id) in planted_ids.iter().enumerate() {
            let id = id as usize;
            for (got, want) in [
                (fitted.tables.own[id], truth.own[id]),
                (fitted.tables.opp[id], truth.opp[id]),
            ] {
                let tolerance = if k < 3 { 0.02 } else { 0.06 };
                assert!((got - want).abs() < tolerance, "id {id}: {got} vs {want}");
            }
        }
        // Ids no position has keep weight 0; the table is a valid one.
        assert_eq!(fitted.tables.own[4], 0.0);
        fitted.tables.validate().unwrap();
        // A penalty far above the data's curvature (a common id's is about 10) shrinks the
        // weights towards 0.
        let shrunk = fit(&rows, 30.0, 1);
        let size = |t: &PatternTables| t.own.iter().map(|w| w.abs()).sum::<f32>();
        assert!(size(&shrunk.tables) < 0.5 * size(&fitted.tables));
    }
}
