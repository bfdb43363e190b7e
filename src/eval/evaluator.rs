//! [`Evaluator`]: the trained win-probability model of every game phase, plus the threat rules
//! that decide a position outright.

use super::discriminant::CompiledPhase;
use super::features::{self, Features, LineShapes, FEATURE_COUNT};
use super::pattern_net::{NetSum, PatternNet};
use super::pattern_term::{PatternCounts, PatternTables, TermSum};
use super::phase::Phase;
use super::qda::sigmoid;
use crate::patterns::{stones_left, PatternBoard};
use crate::rules::{Board, GameResult};

/// What the rules give a position they decide (kept off 0 and 1 so that a log-loss stays finite
/// when a record's result disagrees, e.g. a player missed a win and then resigned).
pub const DECIDED: f64 = 0.999;

/// Win probability for the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluator {
    /// One model per phase, ordered by stone count, covering 0.. without gaps.
    phases: Vec<Phase>,
    /// The same phases compiled for evaluation (derived from `phases`).
    compiled: Vec<CompiledPhase>,
    /// The pattern term's tables, one pair a phase, when the model has the term.
    patterns: Option<Vec<PatternTables>>,
    /// The pattern net, one head a phase, when the model has it.
    net: Option<PatternNet>,
    source: String,
}

impl Evaluator {
    /// Phases must be ordered, start at 0 stones, leave no gap, end open, and have the
    /// feature dimension of this build.
    pub fn new(phases: Vec<Phase>, source: &str) -> Result<Evaluator, String> {
        let Some(last) = phases.last() else {
            return Err("no phases".into());
        };
        if last.end_stone().is_some() {
            return Err("the last phase must have no upper end".into());
        }
        let mut next = 0;
        for (i, phase) in phases.iter().enumerate() {
            phase.validate().map_err(|e| format!("phase {i}: {e}"))?;
            if phase.dim() != FEATURE_COUNT {
                return Err(format!(
                    "phase {i} has {} features, this build computes {FEATURE_COUNT}",
                    phase.dim()
                ));
            }
            if phase.first_stone() != next {
                return Err(format!(
                    "phase {i} starts at stone {} where {next} was expected",
                    phase.first_stone()
                ));
            }
            if i + 1 < phases.len() {
                next = phase
                    .end_stone()
                    .ok_or_else(|| format!("phase {i} has no upper end but is not the last"))?;
            }
        }
        Ok(Evaluator {
            compiled: phases.iter().map(CompiledPhase::new).collect(),
            phases,
            patterns: None,
            net: None,
            source: source.replace(['\n', '\r'], " "),
        })
    }

    /// [`Evaluator::new`] with the pattern term: `patterns` holds one pair of tables a phase.
    pub fn with_patterns(
        phases: Vec<Phase>,
        patterns: Vec<PatternTables>,
        source: &str,
    ) -> Result<Evaluator, String> {
        let mut evaluator = Evaluator::new(phases, source)?;
        if patterns.len() != evaluator.phases.len() {
            return Err(format!(
                "{} pattern tables for {} phases",
                patterns.len(),
                evaluator.phases.len()
            ));
        }
        for (i, tables) in patterns.iter().enumerate() {
            tables
                .validate()
                .map_err(|e| format!("phase {i}'s patterns: {e}"))?;
        }
        evaluator.patterns = Some(patterns);
        Ok(evaluator)
    }

    /// This evaluator with the pattern net added to its logit: `net` needs a head a phase.
    pub fn with_net(mut self, net: PatternNet) -> Result<Evaluator, String> {
        net.validate()
            .map_err(|e| format!("the pattern net: {e}"))?;
        if net.phases() != self.phases.len() {
            return Err(format!(
                "the pattern net has {} heads for {} phases",
                net.phases(),
                self.phases.len()
            ));
        }
        self.net = Some(net);
        Ok(self)
    }

    /// The pattern net, when the model has one.
    pub fn pattern_net(&self) -> Option<&PatternNet> {
        self.net.as_ref()
    }

    /// The pattern term's tables of every phase, when the model has the term.
    pub fn pattern_tables(&self) -> Option<&[PatternTables]> {
        self.patterns.as_deref()
    }

    pub fn phases(&self) -> &[Phase] {
        &self.phases
    }

    /// The data and command the model came from.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The phase model of positions with `stones` stones.
    pub fn phase(&self, stones: usize) -> &Phase {
        &self.phases[self.phase_index(stones)]
    }

    fn phase_index(&self, stones: usize) -> usize {
        let stones = stones.min(u32::MAX as usize) as u32;
        self.phases
            .iter()
            .position(|p| p.contains(stones))
            .expect("phases cover every stone count")
    }

    /// The model's P(win) for the side to move from its features alone (no rules): the phase's
    /// compiled form, equal to [`Phase::win_probability`] up to rounding.
    /// The model's P(win) from its features alone: its pattern term, if it has one, left out.
    pub fn model_probability(&self, f: &Features, stones: usize) -> f64 {
        self.compiled[self.phase_index(stones)].win_probability(f)
    }

    /// The model's P(win) from its features and its pattern counts
    /// ([`pattern_term::counts`](super::pattern_term::counts)): what the trainer scores, equal to
    /// the model of [`Evaluator::win_probability`] up to the order and precision of the pattern
    /// term's and the net's sums.
    pub fn model_probability_of_counts(
        &self,
        f: &Features,
        stones: usize,
        counts: &PatternCounts,
    ) -> f64 {
        let index = self.phase_index(stones);
        let term = self
            .patterns
            .as_ref()
            .map_or(0.0, |tables| tables[index].term_of_counts(counts));
        let net = self
            .net
            .as_ref()
            .map_or(0.0, |net| net.value_of_counts(index, counts));
        self.probability_with_term(f, index, term + net)
    }

    /// Phase `index`'s P(win) with the pattern term's and the net's value `term` added to the
    /// logit (the compiled form alone, bit for bit, when the model has neither).
    fn probability_with_term(&self, f: &Features, index: usize, term: f64) -> f64 {
        let phase = &self.compiled[index];
        match (&self.patterns, &self.net) {
            (None, None) => phase.win_probability(f),
            _ => sigmoid(phase.logit(f) + term),
        }
    }

    /// P(win) for the side to move of `shapes`' position: a finished game by its result, a
    /// position the threat rules decide by [`DECIDED`], any other by the model of its phase.
    pub fn win_probability<S: LineShapes + ?Sized>(&self, shapes: &S) -> f64 {
        let pb = shapes.patterns();
        if let Some(p) = decided(pb) {
            return p;
        }
        let index = self.phase_index(pb.board().stone_count());
        if self.patterns.is_none() && self.net.is_none() {
            return self.probability_with_term(&features::extract(shapes), index, 0.0);
        }
        // Summed in the features' own pass over the cells (the branches go the same way at
        // every cell of a pass, so the processor predicts them).
        let mut term = self
            .patterns
            .as_ref()
            .map(|tables| TermSum::new(&tables[index], shapes));
        let mut net = self.net.as_ref().map(|net| NetSum::new(net, shapes));
        let f = features::extract_visiting(shapes, |packed, empty| {
            if let Some(term) = &mut term {
                term.add_cell(packed, empty);
            }
            if let Some(net) = &mut net {
                net.add_cell(packed, empty);
            }
        });
        let term = term.map_or(0.0, |t| t.total()) + net.map_or(0.0, |n| n.total(index));
        self.probability_with_term(&f, index, term)
    }

    /// [`Evaluator::win_probability`] of a bare board (builds its pattern state: slower).
    pub fn win_probability_of_board(&self, board: &Board) -> f64 {
        self.win_probability(&PatternBoard::new(board.clone()))
    }
}

/// The win probability the rules give the side to move, when they decide the position:
/// the game is over; the side to move completes a six this turn; or the opponent has more
/// threats than the side to move has stones left this turn, so it makes six next turn.
pub fn decided(pb: &PatternBoard) -> Option<f64> {
    let board = pb.board();
    match board.result() {
        GameResult::Win(c) => return Some(if c == board.to_move() { 1.0 } else { 0.0 }),
        GameResult::Draw => return Some(0.5),
        GameResult::Ongoing => {}
    }
    if !pb.winning_points().is_empty() {
        return Some(DECIDED);
    }
    let opponent = board.to_move().opponent();
    if pb.threat_count(opponent) > stones_left(board) as u32 {
        return Some(1.0 - DECIDED);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::pattern_term;
    use crate::policy::FeatureBoard;
    use crate::rules::Point;

    #[test]
    fn the_pattern_term_is_added_to_the_logit_of_the_phase() {
        let plain = crate::eval::testing::sample_evaluator();
        let phases = plain.phases().to_vec();
        let zero = vec![PatternTables::zero(); phases.len()];
        let with_zero = Evaluator::with_patterns(phases.clone(), zero, "zero").unwrap();
        // Every weight of the late phase's tables 0.01: the term is 0.01 a counted cell a side.
        let mut late = PatternTables::zero();
        late.own[1..].fill(0.01);
        late.opp[1..].fill(0.01);
        let tables = vec![PatternTables::zero(), late];
        let weighed = Evaluator::with_patterns(phases.clone(), tables, "late").unwrap();
        let mut fb = FeatureBoard::new(&Board::standard());
        // Stones on every other cell: no window of six holds four of a colour, so the rules
        // decide none of the positions and the model scores them all, in both phases.
        for (n, q) in (0..25u8)
            .map(|k| Point::new(2 * (k % 7) + 3, 2 * (k / 7) + 3))
            .enumerate()
        {
            assert!(decided(fb.patterns()).is_none(), "{n}");
            let p = plain.win_probability(&fb);
            assert!((with_zero.win_probability(&fb) - p).abs() < 1e-12, "{n}");
            let stones = fb.patterns().board().stone_count();
            let counts = pattern_term::counts(&fb);
            let cells: u32 = counts
                .own
                .iter()
                .chain(&counts.opp)
                .map(|&(_, n)| u32::from(n))
                .sum();
            let f = features::extract(&fb);
            let index = weighed.phase_index(stones);
            let term = weighed.pattern_tables().unwrap()[index].term(&fb);
            let want = if stones < 20 {
                0.0
            } else {
                0.01 * f64::from(cells)
            };
            assert!((term - want).abs() < 1e-3, "{n}: {term} vs {want}");
            let logit = weighed.compiled[index].logit(&f);
            assert_eq!(weighed.win_probability(&fb), sigmoid(logit + term));
            let scored = weighed.model_probability_of_counts(&f, stones, &counts);
            assert!((scored - weighed.win_probability(&fb)).abs() < 1e-4);
            fb.play(q).unwrap();
        }
        assert!(Evaluator::with_patterns(phases, vec![], "none").is_err());
    }

    /// Random games: with random small net weights (and with or without a pattern term), the
    /// engine's probability is the counts-based one the trainer scores.
    #[test]
    fn the_net_is_added_to_the_logit_and_the_counts_give_the_same_probability() {
        use crate::eval::pattern_net::tests::random_net;
        use rand::{Rng, SeedableRng};
        let plain = crate::eval::testing::sample_evaluator();
        let phases = plain.phases().to_vec();
        let mut late = PatternTables::zero();
        late.own[1..].fill(0.001);
        late.opp[7] = -0.3;
        let tables = vec![PatternTables::zero(), late];
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(8);
        let mut scored = 0;
        for seed in 0..12 {
            let net = random_net(seed, [4, 12, 16, 32][seed as usize % 4], 2);
            let netted = plain.clone().with_net(net.clone()).unwrap();
            let both = Evaluator::with_patterns(phases.clone(), tables.clone(), "both")
                .unwrap()
                .with_net(net.clone())
                .unwrap();
            let mut fb = FeatureBoard::new(&Board::standard());
            for _ in 0..rng.gen_range(1..70) {
                let (c, r) = (rng.gen_range(0..19), rng.gen_range(0..19));
                if fb.patterns().board().is_over() {
                    break;
                }
                let _ = fb.play(Point::new(c, r));
                if decided(fb.patterns()).is_some() {
                    continue;
                }
                let stones = fb.patterns().board().stone_count();
                let (f, counts) = (features::extract(&fb), pattern_term::counts(&fb));
                let index = netted.phase_index(stones);
                let value = net.value(index, &fb);
                let logit = netted.compiled[index].logit(&f);
                let p = netted.win_probability(&fb);
                assert!((p - sigmoid(logit + value)).abs() < 1e-9);
                for e in [&netted, &both] {
                    let (engine, trainer) = (
                        e.win_probability(&fb),
                        e.model_probability_of_counts(&f, stones, &counts),
                    );
                    assert!((engine - trainer).abs() < 1e-4, "{engine} vs {trainer}");
                }
                scored += 1;
            }
        }
        assert!(scored > 100, "{scored}");
        assert!(plain.clone().with_net(random_net(1, 4, 3)).is_err());
        let mut bad = random_net(1, 4, 2);
        bad.bias[0] = f32::INFINITY;
        assert!(plain.with_net(bad).is_err());
    }
}
