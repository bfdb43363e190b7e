//! The evaluator's pattern net: a small NNUE-style network over the same per-cell pattern ids
//! as the pattern term ([`super::pattern_term`]), whose output is added to the phase's logit
//! as a residual.
//!
//! For a position of phase p, with `own` the side to move's id of a cell and `opp` the
//! opponent's: `acc_j = bias_j + Σ over the empty cells (own_embed[own][j] + opp_embed[opp][j])`
//! and `net = head_bias[p] + Σ_j head[p][j] · relu(acc_j)`. The accumulator is linear in the
//! cells, so it equals `Σ_id count · embed[id]` over a position's [`PatternCounts`]: the
//! trainer works on counts, the engine sums it in the features' pass over the cells
//! ([`NetSum`]). The embeddings are shared by the phases (a pattern means the same thing at
//! every stone count); only the head is per phase. Id 0 (nothing open) has a zero row, as it
//! weighs 0 in the term.

use super::features::LineShapes;
use super::pattern_term::{own_classes, PatternCounts, PATTERN_IDS};
use crate::patterns::shape::Combiner;

/// The largest hidden size a file may give: the accumulator lives on the stack.
pub const MAX_HIDDEN: usize = 256;

/// The net's weights. `own_embed` and `opp_embed` are [`PATTERN_IDS`] rows of `hidden`
/// values (row-major, row 0 zero); `head` is one row of `hidden` weights a phase, with its
/// `head_bias`.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternNet {
    pub hidden: usize,
    pub own_embed: Vec<f32>,
    pub opp_embed: Vec<f32>,
    pub bias: Vec<f32>,
    pub head: Vec<Vec<f32>>,
    pub head_bias: Vec<f32>,
}

impl PatternNet {
    /// All-zero weights for `phases` phases: a net of 0.
    pub fn zero(hidden: usize, phases: usize) -> PatternNet {
        PatternNet {
            hidden,
            own_embed: vec![0.0; PATTERN_IDS * hidden],
            opp_embed: vec![0.0; PATTERN_IDS * hidden],
            bias: vec![0.0; hidden],
            head: vec![vec![0.0; hidden]; phases],
            head_bias: vec![0.0; phases],
        }
    }

    pub fn phases(&self) -> usize {
        self.head.len()
    }

    /// Row `id` of the side to move's embedding.
    pub fn own_row(&self, id: usize) -> &[f32] {
        &self.own_embed[id * self.hidden..(id + 1) * self.hidden]
    }

    /// Row `id` of the opponent's embedding.
    pub fn opp_row(&self, id: usize) -> &[f32] {
        &self.opp_embed[id * self.hidden..(id + 1) * self.hidden]
    }

    /// The hidden size is in 1..=[`MAX_HIDDEN`], every length matches it, every weight is
    /// finite, row 0 is zero, there is a head a phase.
    pub fn validate(&self) -> Result<(), String> {
        let h = self.hidden;
        if !(1..=MAX_HIDDEN).contains(&h) {
            return Err(format!("hidden size {h} is not in 1..={MAX_HIDDEN}"));
        }
        for (name, embed) in [("own", &self.own_embed), ("opp", &self.opp_embed)] {
            if embed.len() != PATTERN_IDS * h {
                return Err(format!(
                    "the {name} embedding has {} weights, needs {PATTERN_IDS} × {h}",
                    embed.len()
                ));
            }
            if embed.iter().any(|w| !w.is_finite()) {
                return Err(format!("a weight of the {name} embedding is not finite"));
            }
            if embed[..h].iter().any(|&w| w != 0.0) {
                return Err(format!("the {name} embedding weighs id 0"));
            }
        }
        if self.bias.len() != h || self.bias.iter().any(|w| !w.is_finite()) {
            return Err(format!("the bias needs {h} finite values"));
        }
        if self.head.is_empty() || self.head.len() != self.head_bias.len() {
            return Err(format!(
                "{} heads and {} head biases",
                self.head.len(),
                self.head_bias.len()
            ));
        }
        for (p, head) in self.head.iter().enumerate() {
            if head.len() != h || head.iter().any(|w| !w.is_finite()) {
                return Err(format!("phase {p}'s head needs {h} finite values"));
            }
            if !self.head_bias[p].is_finite() {
                return Err(format!("phase {p}'s head bias is not finite"));
            }
        }
        Ok(())
    }

    /// The output of phase `phase`'s head on the accumulator `acc`.
    pub fn head_value(&self, phase: usize, acc: &[f64]) -> f64 {
        let hidden: f64 = self.head[phase]
            .iter()
            .zip(acc)
            .map(|(&w, &a)| f64::from(w) * a.max(0.0))
            .sum();
        f64::from(self.head_bias[phase]) + hidden
    }

    /// The accumulator of a position's counts ([`pattern_term::counts`]
    /// (super::pattern_term::counts)), in `f64`.
    pub fn accumulator_of_counts(&self, counts: &PatternCounts) -> Vec<f64> {
        let mut acc: Vec<f64> = self.bias.iter().map(|&b| f64::from(b)).collect();
        for (embed, pairs) in [
            (&self.own_embed, &counts.own),
            (&self.opp_embed, &counts.opp),
        ] {
            for &(id, n) in pairs {
                let row = &embed[id as usize * self.hidden..(id as usize + 1) * self.hidden];
                for (a, &w) in acc.iter_mut().zip(row) {
                    *a += f64::from(n) * f64::from(w);
                }
            }
        }
        acc
    }

    /// The net's value for phase `phase` from a position's counts: what [`PatternNet::value`]
    /// gives, up to the order and precision of the sums.
    pub fn value_of_counts(&self, phase: usize, counts: &PatternCounts) -> f64 {
        self.head_value(phase, &self.accumulator_of_counts(counts))
    }

    /// The net's value for phase `phase` of `shapes`' position, by a pass of its own over the
    /// cells (the evaluator sums it in the features' pass instead, with a [`NetSum`]).
    pub fn value<S: LineShapes + ?Sized>(&self, phase: usize, shapes: &S) -> f64 {
        let pb = shapes.patterns();
        let mut sum = NetSum::new(self, shapes);
        for cell in 0..pb.geometry().area() {
            sum.add_cell(shapes.packed_line_shapes(cell), !pb.is_occupied(cell));
        }
        sum.total(phase)
    }
}

/// The accumulator of one position summed cell by cell, as a pass over the cells hands them
/// over.
pub struct NetSum<'a> {
    net: &'a PatternNet,
    combiner: &'static Combiner,
    /// Where the side to move's bytes sit in a cell's packed shapes (0 Black, 8 White), and
    /// the opponent's.
    own_shift: u32,
    opp_shift: u32,
    acc: [f32; MAX_HIDDEN],
}

impl<'a> NetSum<'a> {
    pub fn new<S: LineShapes + ?Sized>(net: &'a PatternNet, shapes: &S) -> NetSum<'a> {
        let own = shapes.patterns().board().to_move();
        let mut acc = [0.0; MAX_HIDDEN];
        acc[..net.hidden].copy_from_slice(&net.bias);
        NetSum {
            net,
            combiner: Combiner::own(),
            own_shift: 8 * own.index() as u32,
            opp_shift: 8 * own.opponent().index() as u32,
            acc,
        }
    }

    /// Adds an empty cell's two embedding rows, from its packed line shapes. An occupied
    /// cell's ids are multiplied by 0, which selects the zero rows of id 0: no branch the
    /// processor cannot predict, as in the pattern term.
    #[inline]
    pub fn add_cell(&mut self, packed: u64, empty: bool) {
        let empty = usize::from(empty);
        let own = usize::from(self.combiner.id(own_classes(packed >> self.own_shift))) * empty;
        let opp = usize::from(self.combiner.id(own_classes(packed >> self.opp_shift))) * empty;
        let h = self.net.hidden;
        let (own, opp) = (self.net.own_row(own), self.net.opp_row(opp));
        for ((a, &o), &p) in self.acc[..h].iter_mut().zip(own).zip(opp) {
            *a += o + p;
        }
    }

    /// The net's value with phase `phase`'s head.
    pub fn total(&self, phase: usize) -> f64 {
        let hidden: f64 = self.net.head[phase]
            .iter()
            .zip(&self.acc[..self.net.hidden])
            .map(|(&w, &a)| f64::from(w) * f64::from(a.max(0.0)))
            .sum();
        f64::from(self.net.head_bias[phase]) + hidden
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::eval::pattern_term::counts;
    use crate::patterns::PatternBoard;
    use crate::policy::FeatureBoard;
    use crate::rules::{Board, Point};
    use rand::{Rng, SeedableRng};

    /// A net of small random weights (row 0 kept at zero), `phases` heads.
    pub(crate) fn random_net(seed: u64, hidden: usize, phases: usize) -> PatternNet {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut net = PatternNet::zero(hidden, phases);
        for embed in [&mut net.own_embed, &mut net.opp_embed] {
            for w in &mut embed[hidden..] {
                *w = rng.gen_range(-0.02..0.02);
            }
        }
        for w in &mut net.bias {
            *w = rng.gen_range(-0.5..0.5);
        }
        for (head, b) in net.head.iter_mut().zip(&mut net.head_bias) {
            head.iter_mut().for_each(|w| *w = rng.gen_range(-0.5..0.5));
            *b = rng.gen_range(-0.2..0.2);
        }
        net
    }

    #[test]
    fn the_value_of_the_counts_is_the_value_of_the_board() {
        let net = random_net(1, 16, 2);
        net.validate().unwrap();
        let mut pb = PatternBoard::new(Board::standard());
        for q in [(9, 9), (10, 10), (11, 9), (9, 10), (12, 9), (3, 3)] {
            pb.play(Point::new(q.0, q.1)).unwrap();
            for phase in 0..2 {
                let (a, b) = (
                    net.value(phase, &pb),
                    net.value_of_counts(phase, &counts(&pb)),
                );
                assert!((a - b).abs() < 1e-4, "{a} vs {b}");
            }
        }
        // A zero net's value is its head bias whatever the position.
        let mut zero = PatternNet::zero(8, 3);
        zero.head_bias[2] = 0.25;
        assert_eq!(zero.value(2, &pb), 0.25);
    }

    #[test]
    fn the_value_is_a_relu_layer_under_a_linear_head() {
        // One hidden unit: acc = bias + Σ counted cells' weights; only positive acc counts.
        let mut net = PatternNet::zero(1, 1);
        net.head[0][0] = 2.0;
        net.bias[0] = -1.0;
        net.own_embed[1] = 0.5;
        let c = |n: u16| PatternCounts {
            own: vec![(1, n)],
            opp: vec![],
        };
        assert_eq!(net.value_of_counts(0, &c(1)), 0.0);
        assert_eq!(net.value_of_counts(0, &c(2)), 0.0);
        assert!((net.value_of_counts(0, &c(6)) - 4.0).abs() < 1e-12);
    }

    #[test]
    fn bad_nets_are_refused() {
        random_net(2, 4, 2).validate().unwrap();
        let mut short = PatternNet::zero(4, 2);
        short.opp_embed.pop();
        assert!(short.validate().unwrap_err().contains("opp embedding"));
        let mut nan = PatternNet::zero(4, 2);
        nan.own_embed[9] = f32::NAN;
        assert!(nan.validate().unwrap_err().contains("not finite"));
        let mut zero_id = PatternNet::zero(4, 2);
        zero_id.own_embed[3] = 1.0;
        assert!(zero_id.validate().unwrap_err().contains("id 0"));
        let mut heads = PatternNet::zero(4, 2);
        heads.head_bias.pop();
        assert!(heads.validate().is_err());
        assert!(PatternNet::zero(0, 2).validate().is_err());
        assert!(PatternNet::zero(MAX_HIDDEN + 1, 1).validate().is_err());
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(32))]
        /// Random games in a 9x9 corner: the feature board's incremental shapes give the value
        /// of a pattern board built afresh, to the bit, after every stone and undo.
        #[test]
        fn a_feature_boards_value_is_a_fresh_pattern_boards(
            cells in proptest::collection::vec((0u8..9, 0u8..9), 1..60),
            seed in 0u64..1000,
        ) {
            let net = random_net(seed, 8, 1);
            let mut fb = FeatureBoard::new(&Board::standard());
            let check = |fb: &FeatureBoard| {
                let fresh = PatternBoard::new(fb.patterns().board().clone());
                (net.value(0, fb), net.value(0, &fresh))
            };
            for (c, r) in cells {
                if fb.patterns().board().is_over() || fb.play(Point::new(c, r)).is_err() {
                    continue;
                }
                let (incremental, fresh) = check(&fb);
                proptest::prop_assert_eq!(incremental.to_bits(), fresh.to_bits());
            }
            while fb.undo().is_some() {
                let (incremental, fresh) = check(&fb);
                proptest::prop_assert_eq!(incremental.to_bits(), fresh.to_bits());
            }
        }
    }
}
