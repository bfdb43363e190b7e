//! Fitting one phase: the Bayesian classifier (QDA) with its regularisation (α towards the
//! pooled covariance, λ towards the diagonal) chosen on an inner split of the training games,
//! its Platt calibration, and the logistic-regression baseline on the same standardised
//! features; the quadratic logistic regression and the pattern term on top of it, their
//! penalties chosen on the same inner split; then scoring them on held-out positions.

use super::data::{Preference, Sample};
use super::logistic::{Logistic, LogisticOptions};
use super::metrics::{Scores, Tally};
use super::pattern_fit::{self, PatternFit, PatternRow};
use super::quadratic::{self, Comparisons, QuadraticFit};
use liuzi::eval::logistic::LogisticPhase;
use liuzi::eval::pattern_net::PatternNet;
use liuzi::eval::qda::{sigmoid, PhaseModel, Shrinkage};
use serde::Serialize;

/// Weights of the pooled covariance tried when the trainer chooses α itself.
pub const POOLED_GRID: [f64; 6] = [0.0, 0.25, 0.5, 0.75, 0.9, 1.0];
/// Weights of the diagonal target tried when the trainer chooses λ itself.
pub const DIAGONAL_GRID: [f64; 4] = [0.0, 0.03, 0.1, 0.3];
/// L2 penalties of the quadratic logistic regression tried when the trainer chooses one.
pub const QUADRATIC_L2_GRID: [f64; 4] = [1e-5, 1e-4, 1e-3, 1e-2];
/// L2 penalties of the pattern term's tables tried when the trainer chooses one.
pub const PATTERN_L2_GRID: [f64; 3] = [1e-3, 1e-2, 1e-1];

/// The phases `[0, b1), [b1, b2), ..., [bn, ∞)` of sorted, distinct, positive bounds.
pub fn phase_ranges(bounds: &[u32]) -> Result<Vec<(u32, Option<u32>)>, String> {
    if bounds.windows(2).any(|w| w[0] >= w[1]) || bounds.first() == Some(&0) {
        return Err("phase bounds must be increasing stone counts above 0".into());
    }
    let mut ranges = Vec::new();
    let mut first = 0;
    for &b in bounds {
        ranges.push((first, Some(b)));
        first = b;
    }
    ranges.push((first, None));
    Ok(ranges)
}

pub fn in_range(stones: u32, range: (u32, Option<u32>)) -> bool {
    stones >= range.0 && range.1.is_none_or(|e| stones < e)
}

/// The fitted models of one phase.
#[derive(Clone, Debug)]
pub struct PhaseFit {
    /// The Bayesian classifier, calibrated.
    pub model: PhaseModel,
    /// The baseline on the model's standardised features.
    pub logistic: Logistic,
    pub shrinkage: Shrinkage,
    /// Win frequency among the training positions.
    pub prior: f64,
    /// Inner-split log-loss of each (α, λ) tried (empty when both were given).
    pub grid_scores: Vec<(f64, f64, f64)>,
    /// The quadratic logistic regression, when asked for.
    pub quadratic: Option<QuadraticFit>,
    /// The inner-split log-loss of each L2 penalty it tried (empty when one was given).
    pub quadratic_grid_scores: Vec<(f64, f64)>,
    /// The pattern term on top of the quadratic logistic regression, when asked for.
    pub patterns: Option<PatternFit>,
    /// The inner-split log-loss of each pattern penalty tried (empty when one was given).
    pub pattern_grid_scores: Vec<(f64, f64)>,
}

#[derive(Clone, Debug)]
pub struct FitOptions {
    /// α; `None`: choose from [`POOLED_GRID`] on an inner split.
    pub pooled: Option<f64>,
    /// λ; `None`: choose from [`DIAGONAL_GRID`] on an inner split.
    pub lambda: Option<f64>,
    pub ridge: f64,
    pub logistic: LogisticOptions,
    /// The L2 penalties of the quadratic logistic regression to choose from on the inner
    /// split (one: that one); `None`: not fitted.
    pub quadratic_l2: Option<Vec<f64>>,
    /// The pattern term's L2 penalties to choose from on the inner split (one: that one);
    /// `None`: not fitted. Needs `quadratic_l2` (the term is fitted on its logit).
    pub pattern_l2: Option<Vec<f64>>,
    /// Threads for the quadratic fit's gradients.
    pub threads: usize,
    /// L of the soft label `(1 − L)·result + L·value` the quadratic and the pattern term
    /// train on (0: the result alone; see `Sample::target`). The discriminant and the linear
    /// baseline fit the result; every score is taken against it.
    pub value_label_mix: f64,
    /// Weight of the comparisons' mean log-loss in the quadratic's objective (0: they are not
    /// used; see `quadratic::Comparisons`).
    pub comparison_weight: f64,
}

fn rows<'a>(samples: &[&'a Sample]) -> Vec<&'a [f64]> {
    samples.iter().map(|s| &s.features[..]).collect()
}

/// QDA regularised by `shrinkage`, calibrated by Platt scaling on `train` itself.
fn qda(
    train: &[&Sample],
    range: (u32, Option<u32>),
    shrinkage: Shrinkage,
    options: &FitOptions,
) -> Result<PhaseModel, String> {
    let wins: Vec<&Sample> = train.iter().copied().filter(|s| s.win).collect();
    let losses: Vec<&Sample> = train.iter().copied().filter(|s| !s.win).collect();
    let mut model = PhaseModel::fit(&rows(&wins), &rows(&losses), range.0, range.1, shrinkage)?;
    let llr: Vec<[f64; 1]> = train
        .iter()
        .map(|s| [model.log_likelihood_ratio(&s.features)])
        .collect();
    let llr_rows: Vec<&[f64]> = llr.iter().map(|r| &r[..]).collect();
    let ys: Vec<bool> = train.iter().map(|s| s.win).collect();
    let platt = Logistic::fit(
        &llr_rows,
        &ys,
        LogisticOptions {
            l2: 0.0,
            ..options.logistic
        },
    );
    model.calibration = [platt.weights[0], platt.intercept];
    Ok(model)
}

/// The log-loss of P(win) = `p(features)` over `samples`.
fn log_loss(p: impl Fn(&[f64]) -> f64, samples: &[&Sample]) -> f64 {
    let mut t = Tally::default();
    for s in samples {
        t.add(p(&s.features), s.win);
    }
    t.scores().log_loss
}

/// Fits one phase on its training positions. `inner` marks the training positions of games
/// set aside for choosing the regularisation; `comparisons` are the phase's, each marked the
/// same way (the quadratic trains on them too, with `options.comparison_weight`).
pub fn fit_phase(
    train: &[&Sample],
    inner: &[bool],
    comparisons: &[(&Preference, bool)],
    range: (u32, Option<u32>),
    options: &FitOptions,
) -> Result<PhaseFit, String> {
    // The inner check part is scored against the games' results, which a position off the
    // game does not have: the inner games' siblings are in neither part.
    let part = |want: bool| -> Vec<&Sample> {
        train
            .iter()
            .zip(inner)
            .filter(|(s, &i)| i == want && !(i && s.sibling))
            .map(|(s, _)| *s)
            .collect()
    };
    let pooled_grid = options.pooled.map_or(POOLED_GRID.to_vec(), |a| vec![a]);
    let diagonal_grid = options.lambda.map_or(DIAGONAL_GRID.to_vec(), |l| vec![l]);
    let mut grid_scores = Vec::new();
    let mut shrinkage = Shrinkage {
        pooled: pooled_grid[0],
        lambda: diagonal_grid[0],
        ridge: options.ridge,
    };
    if pooled_grid.len() * diagonal_grid.len() > 1 {
        let (fit_part, check_part) = (part(false), part(true));
        let mut best = f64::INFINITY;
        for &pooled in &pooled_grid {
            for &lambda in &diagonal_grid {
                let candidate = Shrinkage {
                    pooled,
                    lambda,
                    ridge: options.ridge,
                };
                // A setting whose covariance cannot be factorised loses.
                let score = qda(&fit_part, range, candidate, options)
                    .map(|m| log_loss(|x| m.win_probability(x), &check_part))
                    .unwrap_or(f64::INFINITY);
                grid_scores.push((pooled, lambda, score));
                if score < best {
                    best = score;
                    shrinkage = candidate;
                }
            }
        }
    }
    let model = qda(train, range, shrinkage, options)?;
    let standardised: Vec<Vec<f64>> = train.iter().map(|s| standardise(&model, s)).collect();
    let refs: Vec<&[f64]> = standardised.iter().map(Vec::as_slice).collect();
    let ys: Vec<bool> = train.iter().map(|s| s.win).collect();
    let logistic = Logistic::fit(&refs, &ys, options.logistic);
    let prior = ys.iter().filter(|&&y| y).count() as f64 / ys.len().max(1) as f64;
    let standardisation = (&model.center[..], &model.scale[..]);
    let pairs_of = |only: Option<bool>| -> Vec<(&[f64], &[f64])> {
        comparisons
            .iter()
            .filter(|(_, i)| only.is_none_or(|want| *i == want))
            .map(|(c, _)| (&c.better[..], &c.worse[..]))
            .collect()
    };
    let (all_pairs, fit_part_pairs) = (pairs_of(None), pairs_of(Some(false)));
    let fit_quadratic = |samples: &[&Sample], pairs: &[(&[f64], &[f64])], l2: f64| {
        let ys: Vec<f64> = samples
            .iter()
            .map(|s| s.target(options.value_label_mix))
            .collect();
        let comparisons = Comparisons {
            pairs,
            weight: options.comparison_weight,
        };
        quadratic::fit(
            &rows(samples),
            &ys,
            comparisons,
            range,
            standardisation,
            l2,
            options.threads,
        )
    };
    let (mut quadratic, mut quadratic_grid_scores) = (None, Vec::new());
    if let Some(grid) = &options.quadratic_l2 {
        let mut quadratic_l2 = grid[0];
        if grid.len() > 1 {
            let (fit_part, check_part) = (part(false), part(true));
            let mut best = f64::INFINITY;
            for &l2 in grid {
                let candidate = fit_quadratic(&fit_part, &fit_part_pairs, l2).phase;
                let score = log_loss(|x| candidate.win_probability(x), &check_part);
                quadratic_grid_scores.push((l2, score));
                if score < best {
                    best = score;
                    quadratic_l2 = l2;
                }
            }
        }
        quadratic = Some(fit_quadratic(train, &all_pairs, quadratic_l2));
    }
    let (mut patterns, mut pattern_grid_scores) = (None, Vec::new());
    if let (Some(grid), Some(q)) = (&options.pattern_l2, &quadratic) {
        let mut pattern_l2 = grid[0];
        if grid.len() > 1 {
            // The offsets of the inner split come from a quadratic fitted without its games.
            let (fit_part, check_part) = (part(false), part(true));
            let inner_quadratic = fit_quadratic(&fit_part, &fit_part_pairs, q.l2).phase;
            let (fit_rows, check_rows) = (
                pattern_rows(&fit_part, &inner_quadratic, options),
                pattern_rows(&check_part, &inner_quadratic, options),
            );
            let mut best = f64::INFINITY;
            for &l2 in grid {
                let candidate = pattern_fit::fit(&fit_rows, l2, options.threads).tables;
                let mut tally = Tally::default();
                for row in &check_rows {
                    let term = candidate.term_of_counts(row.counts);
                    tally.add(sigmoid(row.offset + term), row.win);
                }
                let score = tally.scores().log_loss;
                pattern_grid_scores.push((l2, score));
                if score < best {
                    best = score;
                    pattern_l2 = l2;
                }
            }
        }
        let rows = pattern_rows(train, &q.phase, options);
        patterns = Some(pattern_fit::fit(&rows, pattern_l2, options.threads));
    }
    Ok(PhaseFit {
        model,
        logistic,
        shrinkage,
        prior,
        grid_scores,
        quadratic,
        quadratic_grid_scores,
        patterns,
        pattern_grid_scores,
    })
}

/// The pattern fit's rows of `samples`, offset by `quadratic`'s logit, labelled as `options`
/// say.
fn pattern_rows<'a>(
    samples: &[&'a Sample],
    quadratic: &LogisticPhase,
    options: &FitOptions,
) -> Vec<PatternRow<'a>> {
    samples
        .iter()
        .map(|s| PatternRow {
            counts: &s.patterns,
            offset: quadratic.logit(&s.features),
            win: s.win,
            target: s.target(options.value_label_mix),
        })
        .collect()
}

/// The logit the pattern net is fitted on: the phase's quadratic plus its pattern term (when
/// fitted); `None` without a quadratic.
pub fn fitted_logit(fit: &PhaseFit, s: &Sample) -> Option<f64> {
    let q = fit.quadratic.as_ref()?;
    let term = fit
        .patterns
        .as_ref()
        .map_or(0.0, |p| p.tables.term_of_counts(&s.patterns));
    Some(q.phase.logit(&s.features) + term)
}

pub fn standardise(model: &PhaseModel, s: &Sample) -> Vec<f64> {
    s.features
        .iter()
        .zip(model.center.iter().zip(&model.scale))
        .map(|(x, (c, d))| (x - c) / d)
        .collect()
}

/// Validation scores of every predictor, for one phase or all together.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Comparison {
    /// The training win frequency of the phase, for every position.
    pub prior: Scores,
    /// σ(LLR): the discriminant without calibration.
    pub qda_raw: Scores,
    /// σ(a·LLR + b): the calibrated discriminant (what the file stores).
    pub qda: Scores,
    pub logistic: Scores,
    /// The engine's evaluator: the threat rules where they decide, else the calibrated QDA.
    pub qda_with_rules: Scores,
    /// The same rules in front of the logistic regression.
    pub logistic_with_rules: Scores,
    /// The quadratic logistic regression behind the rules (when fitted).
    pub quadratic_with_rules: Option<Scores>,
    /// The same with the pattern term added to its logit (when fitted).
    pub patterns_with_rules: Option<Scores>,
    /// The same with the pattern net added too (when fitted).
    pub net_with_rules: Option<Scores>,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct ComparisonTally {
    pub prior: Tally,
    pub qda_raw: Tally,
    pub qda: Tally,
    pub logistic: Tally,
    pub qda_with_rules: Tally,
    pub logistic_with_rules: Tally,
    pub quadratic_with_rules: Tally,
    pub patterns_with_rules: Tally,
    pub net_with_rules: Tally,
}

impl ComparisonTally {
    /// Scores `s` by every model of its phase's `fit`; `net`, when fitted, is the pattern net
    /// with the phase's index.
    pub fn add(&mut self, fit: &PhaseFit, net: Option<(&PatternNet, usize)>, s: &Sample) {
        let llr = fit.model.log_likelihood_ratio(&s.features);
        let qda = fit.model.win_probability(&s.features);
        let logistic = fit.logistic.probability(&standardise(&fit.model, s));
        self.prior.add(fit.prior, s.win);
        self.qda_raw.add(sigmoid(llr), s.win);
        self.qda.add(qda, s.win);
        self.logistic.add(logistic, s.win);
        self.qda_with_rules.add(s.decided.unwrap_or(qda), s.win);
        self.logistic_with_rules
            .add(s.decided.unwrap_or(logistic), s.win);
        if let Some(q) = &fit.quadratic {
            let p = s
                .decided
                .unwrap_or_else(|| q.phase.win_probability(&s.features));
            self.quadratic_with_rules.add(p, s.win);
            if let Some(patterns) = &fit.patterns {
                let p = s.decided.unwrap_or_else(|| {
                    let term = patterns.tables.term_of_counts(&s.patterns);
                    sigmoid(q.phase.logit(&s.features) + term)
                });
                self.patterns_with_rules.add(p, s.win);
            }
            if let (Some((net, phase)), Some(logit)) = (net, fitted_logit(fit, s)) {
                let p = s
                    .decided
                    .unwrap_or_else(|| sigmoid(logit + net.value_of_counts(phase, &s.patterns)));
                self.net_with_rules.add(p, s.win);
            }
        }
    }

    pub fn merge(&mut self, o: &ComparisonTally) {
        self.prior.merge(&o.prior);
        self.qda_raw.merge(&o.qda_raw);
        self.qda.merge(&o.qda);
        self.logistic.merge(&o.logistic);
        self.qda_with_rules.merge(&o.qda_with_rules);
        self.logistic_with_rules.merge(&o.logistic_with_rules);
        self.quadratic_with_rules.merge(&o.quadratic_with_rules);
        self.patterns_with_rules.merge(&o.patterns_with_rules);
        self.net_with_rules.merge(&o.net_with_rules);
    }

    pub fn scores(&self) -> Comparison {
        Comparison {
            prior: self.prior.scores(),
            qda_raw: self.qda_raw.scores(),
            qda: self.qda.scores(),
            logistic: self.logistic.scores(),
            qda_with_rules: self.qda_with_rules.scores(),
            logistic_with_rules: self.logistic_with_rules.scores(),
            quadratic_with_rules: Some(self.quadratic_with_rules.scores())
                .filter(|s| s.positions > 0),
            patterns_with_rules: Some(self.patterns_with_rules.scores())
                .filter(|s| s.positions > 0),
            net_with_rules: Some(self.net_with_rules.scores()).filter(|s| s.positions > 0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use liuzi::eval::features::FEATURE_COUNT;
    use liuzi::eval::PatternCounts;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Positions whose first feature decides the odds, each with a search value that leans
    /// the same way, and a few pattern counts.
    fn samples_with_values() -> Vec<Sample> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(12);
        (0..600)
            .map(|i| {
                let features: [f64; FEATURE_COUNT] =
                    std::array::from_fn(|_| rng.gen_range(-1.0..1.0));
                let p = sigmoid(2.0 * features[0]);
                Sample {
                    game: i / 6,
                    stones: 10,
                    features,
                    patterns: PatternCounts {
                        own: vec![(1 + (i % 5) as u16, 3)],
                        opp: vec![(7, 1 + (i % 3) as u16)],
                    },
                    win: rng.gen::<f64>() < p,
                    value: Some(p),
                    decided: None,
                    comparisons: Vec::new(),
                    sibling: false,
                }
            })
            .collect()
    }

    fn fit_with(samples: &[Sample], mix: f64) -> PhaseFit {
        let train: Vec<&Sample> = samples.iter().collect();
        let inner: Vec<bool> = samples.iter().map(|s| s.game % 5 == 0).collect();
        let options = FitOptions {
            pooled: Some(0.5),
            lambda: Some(0.1),
            ridge: 1e-3,
            logistic: LogisticOptions::default(),
            quadratic_l2: Some(vec![1e-2]),
            pattern_l2: Some(vec![1e-2]),
            threads: 2,
            value_label_mix: mix,
            comparison_weight: 0.0,
        };
        fit_phase(&train, &inner, &[], (0, None), &options).unwrap()
    }

    #[test]
    fn soft_labels_at_mix_zero_are_the_hard_label_fit_exactly() {
        let with_values = samples_with_values();
        let without: Vec<Sample> = with_values
            .iter()
            .cloned()
            .map(|s| Sample { value: None, ..s })
            .collect();
        let (hard, soft) = (fit_with(&without, 0.0), fit_with(&with_values, 0.0));
        let theta = |f: &PhaseFit| f.quadratic.as_ref().unwrap().phase.theta.clone();
        let tables = |f: &PhaseFit| f.patterns.as_ref().unwrap().tables.clone();
        assert_eq!(theta(&hard), theta(&soft));
        assert_eq!(tables(&hard), tables(&soft));
        // A mix moves the fit, towards the values' own (less extreme) odds.
        let mixed = fit_with(&with_values, 0.8);
        assert_ne!(theta(&hard), theta(&mixed));
        assert_ne!(tables(&hard), tables(&mixed));
        // Labels without a value keep the result at any mix.
        assert_eq!(without[0].target(0.8), f64::from(u8::from(without[0].win)));
        let s = &with_values[0];
        let want = 0.2 * f64::from(u8::from(s.win)) + 0.8 * s.value.unwrap();
        assert!((s.target(0.8) - want).abs() < 1e-12);
    }

    #[test]
    fn phase_ranges_cover_everything() {
        assert_eq!(
            phase_ranges(&[10, 20]).unwrap(),
            vec![(0, Some(10)), (10, Some(20)), (20, None)]
        );
        assert_eq!(phase_ranges(&[]).unwrap(), vec![(0, None)]);
        assert!(phase_ranges(&[20, 10]).is_err());
        assert!(phase_ranges(&[0, 10]).is_err());
        assert!(in_range(10, (10, Some(20))) && !in_range(20, (10, Some(20))));
        assert!(in_range(500, (20, None)));
    }
}
