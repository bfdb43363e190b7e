//! The pattern net's fit (`liuzi::eval::pattern_net`): Adam on minibatches of the positions'
//! pattern counts, with each position's fitted logit (its phase's quadratic plus the pattern
//! term) as a fixed offset, so the net learns only what they miss.
//!
//! The counts run from 1 to most of the board (the id of an open cell far from the stones),
//! so each id's embedding row is trained in units of its typical count (the root mean square
//! of its nonzero counts) and divided by it when written: every present id then moves the
//! accumulator by about the same amount a step, whatever its count, as the pattern term's fit
//! does with its preconditioner. Ids no training position has keep a zero row. Early stopping:
//! the log-loss on the positions of held-aside games is taken after every epoch, and the
//! best epoch's weights are kept, when one beats the offsets alone (else the net is zero).

use super::logistic::soft_neg_log_likelihood;
use super::metrics::Tally;
use liuzi::eval::pattern_net::PatternNet;
use liuzi::eval::pattern_term::{PatternCounts, PATTERN_IDS};
use liuzi::eval::qda::sigmoid;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::Serialize;

/// One position of the fit.
#[derive(Clone, Copy, Debug)]
pub struct NetRow<'a> {
    pub counts: &'a PatternCounts,
    /// Index of its phase: the head it goes through.
    pub phase: usize,
    /// The logit the net is added to.
    pub offset: f64,
    /// The label the fit trains on (the result as 0 or 1, or a soft label).
    pub target: f64,
    /// The side to move won: what the held-aside positions are scored against.
    pub win: bool,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct NetOptions {
    pub hidden: usize,
    pub epochs: usize,
    /// Adam's step size.
    pub learning_rate: f64,
    /// L2 penalty on the embeddings (in their trained units), added to the mean log-loss.
    pub l2: f64,
    pub batch: usize,
    pub seed: u64,
}

/// One epoch's scores.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct EpochScores {
    pub epoch: usize,
    /// Mean log-loss (against the training labels) of the epoch's minibatches, each taken
    /// before its step.
    pub train_log_loss: f64,
    /// Log-loss of the held-aside positions after the epoch.
    pub inner_log_loss: f64,
}

/// The fitted net and how the fit went.
#[derive(Clone, Debug)]
pub struct NetFit {
    pub net: PatternNet,
    /// Log-loss of the offsets alone: on the training rows (against their labels), on the
    /// held-aside ones.
    pub offset_train_log_loss: f64,
    pub offset_inner_log_loss: f64,
    pub epochs: Vec<EpochScores>,
    /// The epoch whose weights are kept (0: none beat the offsets alone, and the net is zero).
    pub best_epoch: usize,
}

/// Adam's state for a block of parameters.
struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    /// One step of `params` down `grad` (then zeroed), `t` steps taken before it.
    fn step(&mut self, params: &mut [f64], grad: &mut [f64], rate: f64, t: i32) {
        const BETA1: f64 = 0.9;
        const BETA2: f64 = 0.999;
        let rate = rate * (1.0 - BETA2.powi(t + 1)).sqrt() / (1.0 - BETA1.powi(t + 1));
        for (((p, g), m), v) in params
            .iter_mut()
            .zip(grad.iter_mut())
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            *m = BETA1 * *m + (1.0 - BETA1) * *g;
            *v = BETA2 * *v + (1.0 - BETA2) * *g * *g;
            *p -= rate * *m / (v.sqrt() + 1e-8);
            *g = 0.0;
        }
    }
}

/// The net's weights while training: embeddings in units of each id's typical count, the
/// side to move's ids first, then the opponent's (`PATTERN_IDS + id`).
#[derive(Clone)]
struct Weights {
    hidden: usize,
    embed: Vec<f64>,
    bias: Vec<f64>,
    /// Per phase: the head bias, then the head's `hidden` weights.
    heads: Vec<f64>,
}

/// Each row's input: its counts over the ids' typical counts.
struct Inputs<'a> {
    rows: &'a [NetRow<'a>],
    inverse_scale: Vec<f64>,
}

impl Inputs<'_> {
    /// Calls `f(k, x)` for each nonzero input of row `r`.
    #[inline]
    fn each(&self, r: usize, mut f: impl FnMut(usize, f64)) {
        let counts = self.rows[r].counts;
        for (base, pairs) in [(0, &counts.own), (PATTERN_IDS, &counts.opp)] {
            for &(id, n) in pairs {
                let k = base + id as usize;
                f(k, f64::from(n) * self.inverse_scale[k]);
            }
        }
    }
}

impl Weights {
    /// Fills `acc` with row `r`'s accumulator; returns the net's value.
    fn forward(&self, inputs: &Inputs, r: usize, acc: &mut [f64]) -> f64 {
        let h = self.hidden;
        acc.copy_from_slice(&self.bias);
        inputs.each(r, |k, x| {
            for (a, &w) in acc.iter_mut().zip(&self.embed[k * h..(k + 1) * h]) {
                *a += x * w;
            }
        });
        let head = &self.heads[inputs.rows[r].phase * (h + 1)..][..h + 1];
        head[0]
            + head[1..]
                .iter()
                .zip(acc.iter())
                .map(|(&w, &a)| w * a.max(0.0))
                .sum::<f64>()
    }

    /// The net of the trained weights, in the engine's units.
    fn to_net(&self, inputs: &Inputs, phases: usize) -> PatternNet {
        let h = self.hidden;
        let mut net = PatternNet::zero(h, phases);
        for k in 0..2 * PATTERN_IDS {
            let row = &self.embed[k * h..(k + 1) * h];
            let (embed, id) = match k < PATTERN_IDS {
                true => (&mut net.own_embed, k),
                false => (&mut net.opp_embed, k - PATTERN_IDS),
            };
            for (j, &w) in row.iter().enumerate() {
                embed[id * h + j] = (w * inputs.inverse_scale[k]) as f32;
            }
        }
        net.bias = self.bias.iter().map(|&b| b as f32).collect();
        for p in 0..phases {
            let head = &self.heads[p * (h + 1)..][..h + 1];
            net.head_bias[p] = head[0] as f32;
            net.head[p] = head[1..].iter().map(|&w| w as f32).collect();
        }
        net
    }
}

/// The log-loss (against the results) of `rows` with the net's value added to their offsets.
fn held_aside_log_loss(weights: Option<&Weights>, inputs: &Inputs) -> f64 {
    let mut acc = vec![0.0; weights.map_or(0, |w| w.hidden)];
    let mut tally = Tally::default();
    for (r, row) in inputs.rows.iter().enumerate() {
        let net = weights.map_or(0.0, |w| w.forward(inputs, r, &mut acc));
        tally.add(sigmoid(row.offset + net), row.win);
    }
    tally.scores().log_loss
}

/// The inverse of each input's typical count: the root mean square of its nonzero counts
/// over `rows` (0 for an id no row has).
fn inverse_scales(rows: &[NetRow]) -> Vec<f64> {
    let mut sums = vec![(0.0f64, 0u64); 2 * PATTERN_IDS];
    for row in rows {
        for (base, pairs) in [(0, &row.counts.own), (PATTERN_IDS, &row.counts.opp)] {
            for &(id, n) in pairs {
                let s = &mut sums[base + id as usize];
                s.0 += f64::from(n) * f64::from(n);
                s.1 += 1;
            }
        }
    }
    sums.iter()
        .map(|&(sq, n)| match n {
            0 => 0.0,
            n => 1.0 / (sq / n as f64).sqrt(),
        })
        .collect()
}

/// Fits a net with a head for each of `phases` phases on `train`, keeping the epoch whose
/// log-loss on `check` (positions of other games) is lowest. `progress` is told each epoch.
pub fn fit(
    train: &[NetRow],
    check: &[NetRow],
    phases: usize,
    options: &NetOptions,
    mut progress: impl FnMut(&EpochScores),
) -> NetFit {
    let h = options.hidden;
    let scales = inverse_scales(train);
    let train_inputs = Inputs {
        rows: train,
        inverse_scale: scales.clone(),
    };
    let check_inputs = Inputs {
        rows: check,
        inverse_scale: scales.clone(),
    };
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(options.seed ^ 0x4E45_5446_4954);
    // Embeddings of about 1/√(inputs a row) each, so that the accumulator starts of order 1
    // and about half the units are active; a small head, so that the net starts near 0 and
    // the model near its offsets.
    let inputs_a_row = train
        .iter()
        .map(|r| r.counts.own.len() + r.counts.opp.len())
        .sum::<usize>() as f64
        / train.len().max(1) as f64;
    let spread = 1.0 / inputs_a_row.max(1.0).sqrt();
    let mut weights = Weights {
        hidden: h,
        embed: (0..2 * PATTERN_IDS * h)
            .map(|i| match scales[i / h] > 0.0 {
                true => rng.gen_range(-spread..spread),
                false => 0.0,
            })
            .collect(),
        bias: vec![0.0; h],
        heads: (0..phases * (h + 1))
            .map(|i| match i % (h + 1) {
                0 => 0.0,
                _ => rng.gen_range(-0.01..0.01),
            })
            .collect(),
    };
    let offset_train_log_loss = train
        .iter()
        .map(|r| soft_neg_log_likelihood(r.offset, r.target))
        .sum::<f64>()
        / train.len().max(1) as f64;
    let offset_inner_log_loss = held_aside_log_loss(None, &check_inputs);
    // A net must beat the offsets alone to be kept; else the net is zero.
    let mut best = (offset_inner_log_loss, 0);
    let mut best_weights = Weights {
        embed: vec![0.0; weights.embed.len()],
        bias: vec![0.0; h],
        heads: vec![0.0; weights.heads.len()],
        ..weights.clone()
    };

    let (mut embed_adam, mut bias_adam, mut head_adam) = (
        Adam::new(weights.embed.len()),
        Adam::new(h),
        Adam::new(weights.heads.len()),
    );
    let mut embed_grad = vec![0.0; weights.embed.len()];
    let mut bias_grad = vec![0.0; h];
    let mut head_grad = vec![0.0; weights.heads.len()];
    let (mut acc, mut d_acc) = (vec![0.0; h], vec![0.0; h]);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut steps = 0;
    let mut epochs = Vec::new();
    for epoch in 1..=options.epochs {
        order.shuffle(&mut rng);
        let mut train_loss = 0.0;
        for batch in order.chunks(options.batch.max(1)) {
            let scale = 1.0 / batch.len() as f64;
            for &r in batch {
                let row = &train[r];
                let net = weights.forward(&train_inputs, r, &mut acc);
                let t = row.offset + net;
                train_loss += soft_neg_log_likelihood(t, row.target);
                let residual = (sigmoid(t) - row.target) * scale;
                let head_at = row.phase * (h + 1);
                head_grad[head_at] += residual;
                for j in 0..h {
                    let w = weights.heads[head_at + 1 + j];
                    head_grad[head_at + 1 + j] += residual * acc[j].max(0.0);
                    d_acc[j] = if acc[j] > 0.0 { residual * w } else { 0.0 };
                    bias_grad[j] += d_acc[j];
                }
                train_inputs.each(r, |k, x| {
                    for (g, &d) in embed_grad[k * h..(k + 1) * h].iter_mut().zip(&d_acc) {
                        *g += x * d;
                    }
                });
            }
            if options.l2 > 0.0 {
                for (g, &w) in embed_grad.iter_mut().zip(&weights.embed) {
                    *g += options.l2 * w;
                }
            }
            let rate = options.learning_rate;
            embed_adam.step(&mut weights.embed, &mut embed_grad, rate, steps);
            bias_adam.step(&mut weights.bias, &mut bias_grad, rate, steps);
            head_adam.step(&mut weights.heads, &mut head_grad, rate, steps);
            steps += 1;
        }
        let scores = EpochScores {
            epoch,
            train_log_loss: train_loss / train.len().max(1) as f64,
            inner_log_loss: held_aside_log_loss(Some(&weights), &check_inputs),
        };
        progress(&scores);
        epochs.push(scores);
        if scores.inner_log_loss < best.0 {
            best = (scores.inner_log_loss, epoch);
            best_weights = weights.clone();
        }
    }
    NetFit {
        net: best_weights.to_net(&train_inputs, phases),
        offset_train_log_loss,
        offset_inner_log_loss,
        epochs,
        best_epoch: best.1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions whose odds depend on their counts through an interaction no linear term
    /// can express: the side to move wins more often when it has a "four" id and the
    /// opponent has none, and the opponent's "four" alone helps it; either way, the common
    /// open-cell id (counts in the hundreds) carries nothing.
    fn planted_rows(n: usize, seed: u64) -> Vec<(PatternCounts, usize, f64, bool)> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let (own_four, opp_four) = (rng.gen_bool(0.5), rng.gen_bool(0.5));
                let mut own = vec![(1u16, rng.gen_range(100..300))];
                let mut opp = vec![(1u16, rng.gen_range(100..300))];
                if own_four {
                    own.push((50, rng.gen_range(1..3)));
                }
                if opp_four {
                    opp.push((50, rng.gen_range(1..3)));
                }
                for _ in 0..rng.gen_range(0..4) {
                    own.push((rng.gen_range(60..70), 1));
                }
                own.sort_unstable();
                own.dedup_by_key(|p| p.0);
                let phase = rng.gen_range(0..2);
                let offset = rng.gen_range(-0.5..0.5);
                // Phase 1 reads the fours more strongly.
                let strength = [2.0, 3.0][phase];
                let logit = offset
                    + strength
                        * match (own_four, opp_four) {
                            (true, false) => 1.0,
                            (false, true) => -1.0,
                            _ => 0.0,
                        };
                let win = rng.gen::<f64>() < sigmoid(logit);
                (PatternCounts { own, opp }, phase, offset, win)
            })
            .collect()
    }

    fn rows(data: &[(PatternCounts, usize, f64, bool)]) -> Vec<NetRow<'_>> {
        data.iter()
            .map(|(counts, phase, offset, win)| NetRow {
                counts,
                phase: *phase,
                offset: *offset,
                target: f64::from(u8::from(*win)),
                win: *win,
            })
            .collect()
    }

    #[test]
    fn a_planted_interaction_is_learnt_well_below_the_offsets_loss() {
        let (train, check) = (planted_rows(20_000, 1), planted_rows(4_000, 2));
        let options = NetOptions {
            hidden: 8,
            epochs: 6,
            learning_rate: 3e-3,
            l2: 1e-6,
            batch: 128,
            seed: 3,
        };
        let mut told = 0;
        let fit = fit(&rows(&train), &rows(&check), 2, &options, |_| told += 1);
        assert_eq!(told, 6);
        let first = fit.epochs[0].train_log_loss;
        let last = fit.epochs.last().unwrap().train_log_loss;
        assert!(last < first, "{first} -> {last}");
        let best = fit.epochs[fit.best_epoch - 1].inner_log_loss;
        // The offsets alone are near 0.69; the planted odds give about 0.50.
        assert!(
            best < fit.offset_inner_log_loss - 0.1,
            "{best} vs {}",
            fit.offset_inner_log_loss
        );
        // The written net, scored as the engine scores it, gives the same loss.
        fit.net.validate().unwrap();
        let mut tally = Tally::default();
        for (counts, phase, offset, win) in &check {
            let net = fit.net.value_of_counts(*phase, counts);
            tally.add(sigmoid(offset + net), *win);
        }
        assert!((tally.scores().log_loss - best).abs() < 1e-4);
        // Ids no position has keep zero rows.
        assert!(fit.net.own_row(2).iter().all(|&w| w == 0.0));
        assert!(fit.net.own_row(0).iter().all(|&w| w == 0.0));
    }

    #[test]
    fn a_net_that_beats_nothing_is_zero() {
        // Labels drawn from the offsets alone, a tiny training set: nothing to learn, and an
        // epoch's weights only fit the noise.
        let mut data = planted_rows(300, 4);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        for row in &mut data {
            row.3 = rng.gen::<f64>() < sigmoid(row.2);
        }
        let options = NetOptions {
            hidden: 4,
            epochs: 3,
            learning_rate: 3e-2,
            l2: 0.0,
            batch: 16,
            seed: 1,
        };
        let (train, check) = data.split_at(150);
        let untrained = NetOptions {
            epochs: 0,
            ..options
        };
        let none = fit(&rows(train), &rows(check), 2, &untrained, |_| {});
        assert_eq!((none.best_epoch, &none.net), (0, &PatternNet::zero(4, 2)));
        let fit = fit(&rows(train), &rows(check), 2, &options, |_| {});
        if fit.best_epoch == 0 {
            assert_eq!(fit.net, PatternNet::zero(4, 2));
        } else {
            let kept = fit.epochs[fit.best_epoch - 1].inner_log_loss;
            assert!(kept < fit.offset_inner_log_loss);
        }
    }
}
