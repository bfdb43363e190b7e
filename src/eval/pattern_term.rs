//! The evaluator's pattern term: a learned weight for what each empty cell offers either side,
//! added to the quadratic form's logit (Rapfi's classical evaluation idea).
//!
//! A cell's pattern for a side is the order-independent id ([`Combiner::own`], Rapfi's
//! `pattern4`) of the four classes the side's stone would make there, one a direction: the
//! own-class nibble of that colour's byte of the line table's both-colours entry
//! ([`LineShapes`]). The term sums, over the empty cells, the side to move's table at its id
//! plus the opponent's table at the opponent's id. The all-zero id (no open window in any
//! direction) has weight 0: how many cells have it is fixed by the others and the stone count.
//!
//! The tables are stored as `f32`: a phase's two fit in 24 KB, in cache beside the combiner's
//! ids, and the one pass over the cells costs two id lookups and two weight reads a cell.

use super::features::LineShapes;
use crate::patterns::shape::{multisets_of_four, Combiner, OWN_CLASSES};

/// Ids of a cell's pattern: multisets of four own classes.
pub const PATTERN_IDS: usize = multisets_of_four(OWN_CLASSES);

/// Names what the ids mean, written in the file beside the tables: a build whose classes or
/// numbering differ refuses them.
pub const PATTERN_SPEC: &str = "own-class-pattern4:v1";

/// One game phase's weights: `own` for the side to move's id of a cell, `opp` for the
/// opponent's, each [`PATTERN_IDS`] long with 0 at id 0.
#[derive(Clone, Debug, PartialEq)]
pub struct PatternTables {
    pub own: Vec<f32>,
    pub opp: Vec<f32>,
}

/// A position's pattern counts, per side (to move, then opponent): (id, empty cells with it),
/// ids increasing, id 0 left out. What the trainer fits the tables on.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PatternCounts {
    pub own: Vec<(u16, u16)>,
    pub opp: Vec<(u16, u16)>,
}

/// Black's and White's ids of a cell from its four directions' both-colours entries packed as
/// [`LineShapes::packed_line_shapes`] gives them.
#[inline]
pub fn cell_ids(packed: u64) -> [u16; 2] {
    ids_by(Combiner::own(), packed)
}

/// [`cell_ids`] with the combiner fetched once by the caller (a pass over the board's cells
/// would otherwise check its lazy initialisation at every cell).
#[inline]
fn ids_by(combiner: &Combiner, packed: u64) -> [u16; 2] {
    [0, 8].map(|shift| combiner.id(own_classes(packed >> shift)))
}

/// The four own-class nibbles of the colour whose bytes are the low ones of `lanes`' 16-bit
/// lanes (Black's; White's once shifted down by 8), packed as [`Combiner::id`] takes them.
#[inline]
pub(crate) fn own_classes(lanes: u64) -> u16 {
    // The nibbles sit at bits 0, 16, 32 and 48. One multiplication copies nibble k to bit
    // 48 + 4k as well; every other copy lands at or below bit 47 without overlapping another,
    // so nothing carries into the top 16 bits.
    const NIBBLES: u64 = 0x000F_000F_000F_000F;
    const GATHER: u64 = 1 << 12 | 1 << 24 | 1 << 36 | 1 << 48;
    ((lanes & NIBBLES).wrapping_mul(GATHER) >> 48) as u16
}

/// The colours' indices into [`cell_ids`]: the side to move's first.
fn sides<S: LineShapes + ?Sized>(shapes: &S) -> (usize, usize) {
    let own = shapes.patterns().board().to_move();
    (own.index(), own.opponent().index())
}

impl PatternTables {
    /// All-zero tables: a term of 0.
    pub fn zero() -> PatternTables {
        PatternTables {
            own: vec![0.0; PATTERN_IDS],
            opp: vec![0.0; PATTERN_IDS],
        }
    }

    /// Lengths are [`PATTERN_IDS`], every weight is finite, id 0 weighs 0.
    pub fn validate(&self) -> Result<(), String> {
        for (name, table) in [("own", &self.own), ("opp", &self.opp)] {
            if table.len() != PATTERN_IDS {
                return Err(format!(
                    "the {name} table has {} weights, needs {PATTERN_IDS}",
                    table.len()
                ));
            }
            if table.iter().any(|w| !w.is_finite()) {
                return Err(format!("a weight of the {name} table is not finite"));
            }
            if table[0] != 0.0 {
                return Err(format!("the {name} table weighs id 0"));
            }
        }
        Ok(())
    }

    /// The term for `shapes`' position, by a pass of its own over the cells (the evaluator
    /// sums it in the features' pass instead, with a [`TermSum`], to the same bits).
    pub fn term<S: LineShapes + ?Sized>(&self, shapes: &S) -> f64 {
        let pb = shapes.patterns();
        let mut sum = TermSum::new(self, shapes);
        for cell in 0..pb.geometry().area() {
            sum.add_cell(shapes.packed_line_shapes(cell), !pb.is_occupied(cell));
        }
        sum.total()
    }

    /// The term from a position's counts ([`counts`]): what [`PatternTables::term`] gives, up to
    /// the order of the additions.
    pub fn term_of_counts(&self, counts: &PatternCounts) -> f64 {
        let side = |table: &[f32], pairs: &[(u16, u16)]| -> f64 {
            pairs
                .iter()
                .map(|&(id, n)| f64::from(table[id as usize]) * f64::from(n))
                .sum()
        };
        side(&self.own, &counts.own) + side(&self.opp, &counts.opp)
    }
}

/// The term of one position summed cell by cell, as a pass over the cells hands them over
/// (in cell order, so that every pass gives the same bits).
pub struct TermSum<'a> {
    own: &'a [f32],
    opp: &'a [f32],
    combiner: &'static Combiner,
    /// Where the side to move's bytes sit in a cell's packed shapes (0 Black, 8 White), and
    /// the opponent's.
    own_shift: u32,
    opp_shift: u32,
    sum: f32,
}

impl<'a> TermSum<'a> {
    pub fn new<S: LineShapes + ?Sized>(tables: &'a PatternTables, shapes: &S) -> TermSum<'a> {
        let (own, opp) = sides(shapes);
        TermSum {
            own: &tables.own,
            opp: &tables.opp,
            combiner: Combiner::own(),
            own_shift: 8 * own as u32,
            opp_shift: 8 * opp as u32,
            sum: 0.0,
        }
    }

    /// Adds a cell's weights, from its packed line shapes. An occupied cell's are multiplied
    /// by 0: cheaper than a branch the processor cannot predict.
    #[inline]
    pub fn add_cell(&mut self, packed: u64, empty: bool) {
        let own = self.combiner.id(own_classes(packed >> self.own_shift));
        let opp = self.combiner.id(own_classes(packed >> self.opp_shift));
        let weights = self.own[own as usize] + self.opp[opp as usize];
        self.sum += weights * f32::from(u8::from(empty));
    }

    pub fn total(&self) -> f64 {
        f64::from(self.sum)
    }
}

/// How many empty cells of `shapes`' position have each id, per side.
pub fn counts<S: LineShapes + ?Sized>(shapes: &S) -> PatternCounts {
    let pb = shapes.patterns();
    let (own, opp) = sides(shapes);
    let mut dense = vec![[0u16; 2]; PATTERN_IDS];
    for cell in (0..pb.geometry().area()).filter(|&c| !pb.is_occupied(c)) {
        let ids = cell_ids(shapes.packed_line_shapes(cell));
        dense[ids[own] as usize][0] += 1;
        dense[ids[opp] as usize][1] += 1;
    }
    let side = |k: usize| -> Vec<(u16, u16)> {
        (1..PATTERN_IDS)
            .filter(|&id| dense[id][k] > 0)
            .map(|id| (id as u16, dense[id][k]))
            .collect()
    };
    PatternCounts {
        own: side(0),
        opp: side(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::patterns::{shape, PatternBoard};
    use crate::policy::FeatureBoard;
    use crate::rules::{Board, Point};
    use rand::{Rng, SeedableRng};

    /// Tables of small random weights (id 0 kept at 0).
    fn random_tables(seed: u64) -> PatternTables {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let mut table = || -> Vec<f32> {
            (0..PATTERN_IDS)
                .map(|id| {
                    if id == 0 {
                        0.0
                    } else {
                        rng.gen_range(-0.1..0.1)
                    }
                })
                .collect()
        };
        PatternTables {
            own: table(),
            opp: table(),
        }
    }

    #[test]
    fn a_cells_ids_are_the_combined_own_classes_of_each_colour() {
        let mut pb = PatternBoard::new(Board::standard());
        for q in [(9, 9), (10, 10), (11, 9), (9, 10), (0, 0), (0, 1)] {
            pb.play(Point::new(q.0, q.1)).unwrap();
        }
        for cell in 0..pb.geometry().area() {
            let ids = cell_ids(pb.packed_line_shapes(cell));
            for (colour, &id) in ids.iter().enumerate() {
                let classes: [u8; 4] =
                    std::array::from_fn(|dir| shape::shape_for(pb.key(cell, dir), colour).0);
                assert_eq!(id, Combiner::own().id_of(classes), "{cell}");
            }
        }
    }

    #[test]
    fn the_gathered_nibbles_are_each_colours_own_classes_of_any_word() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..100_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let want = [0, 8].map(|shift| {
                let classes: [u8; 4] =
                    std::array::from_fn(|dir| (x >> (16 * dir + shift)) as u8 & 15);
                Combiner::own().id_of(classes)
            });
            assert_eq!(cell_ids(x), want, "{x:#018x}");
        }
    }

    #[test]
    fn the_term_of_the_counts_is_the_term_of_the_board() {
        let tables = random_tables(1);
        let mut pb = PatternBoard::new(Board::standard());
        for q in [(9, 9), (10, 10), (11, 9), (9, 10), (12, 9)] {
            pb.play(Point::new(q.0, q.1)).unwrap();
            let (a, b) = (tables.term(&pb), tables.term_of_counts(&counts(&pb)));
            assert!((a - b).abs() < 1e-4, "{a} vs {b}");
        }
        // The counts cover every empty cell: id 0 only where nothing is open.
        let c = counts(&pb);
        let cells: u32 = c.own.iter().map(|&(_, n)| u32::from(n)).sum();
        assert!(cells <= 361 - 5 && cells > 300, "{cells}");
        assert!(c.own.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn bad_tables_are_refused() {
        random_tables(2).validate().unwrap();
        let mut short = PatternTables::zero();
        short.opp.pop();
        assert!(short.validate().unwrap_err().contains("opp table"));
        let mut nan = PatternTables::zero();
        nan.own[5] = f32::NAN;
        assert!(nan.validate().is_err());
        let mut zero_id = PatternTables::zero();
        zero_id.own[0] = 1.0;
        assert!(zero_id.validate().unwrap_err().contains("id 0"));
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(64))]
        /// Random games packed in a 9x9 corner (crowded lines, fours and sixes included): the
        /// search's feature board, with its cached line shapes, gives exactly the term of a
        /// pattern board built afresh for the same position, after every stone and every undo.
        #[test]
        fn a_feature_boards_term_is_a_fresh_pattern_boards(
            cells in proptest::collection::vec((0u8..9, 0u8..9), 1..60),
            seed in 0u64..1000,
        ) {
            let tables = random_tables(seed);
            let mut fb = FeatureBoard::new(&Board::standard());
            let check = |fb: &FeatureBoard| {
                let fresh = PatternBoard::new(fb.patterns().board().clone());
                (tables.term(fb), tables.term(&fresh))
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
