//! Turns game records into Bradley-Terry competitions: every stone of every game (both colours,
//! both stages) is a position whose candidates are all empty cells, each a team of one feature
//! value per group of the spec. Identical teams within a position collapse into one entry with a
//! multiplicity, which keeps ~330 candidates a position down to about a hundred entries.

use super::feature_set::{Combined, FeatureSet};
use super::mm::Problem;
use indicatif::ProgressBar;
use liuzi::policy::{FeatureBoard, FeatureSpec};
use liuzi::records::GameRecord;
use liuzi::rules::Board;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Global feature index of `value` of the spec's `k`-th group is `offsets[k] + value`.
pub fn offsets(spec: &FeatureSpec) -> Vec<u32> {
    let mut next = 0;
    spec.groups()
        .iter()
        .map(|g| {
            let o = next;
            next += g.size() as u32;
            o
        })
        .collect()
}

/// A game to learn from, and the index of its first stone a player chose: in a match's records
/// the opening stones were set by the match (liuzi-match's random openings), not chosen, and
/// teach the move model nothing. They are replayed, not trained on.
pub struct TrainGame {
    pub record: GameRecord,
    pub first_chosen: usize,
}

pub fn empty_problem(spec: &FeatureSpec) -> Problem {
    let sizes: Vec<usize> = spec.groups().iter().map(|g| g.size()).collect();
    Problem::new(&sizes)
}

/// Packs one value per group into a `u128` (sorting and hashing teams as integers is several
/// times faster than as slot arrays).
struct Packer {
    shifts: Vec<u32>,
    widths: Vec<u32>,
    offsets: Vec<u32>,
}

impl Packer {
    fn new(sizes: &[usize]) -> Packer {
        let mut shifts = Vec::new();
        let mut widths = Vec::new();
        let mut next = 0;
        for &size in sizes {
            let width = usize::BITS - (size.max(2) - 1).leading_zeros();
            shifts.push(next);
            widths.push(width);
            next += width;
        }
        assert!(
            next <= 128,
            "a team of this feature set does not fit in 128 bits"
        );
        let mut offsets = Vec::new();
        let mut at = 0;
        for &size in sizes {
            offsets.push(at);
            at += size as u32;
        }
        Packer {
            shifts,
            widths,
            offsets,
        }
    }

    #[inline]
    fn pack(&self, values: &[u32]) -> u128 {
        values
            .iter()
            .zip(&self.shifts)
            .fold(0, |key, (&v, &s)| key | (v as u128) << s)
    }

    fn slots(&self, key: u128) -> Vec<u32> {
        self.shifts
            .iter()
            .zip(&self.widths)
            .zip(&self.offsets)
            .map(|((&s, &w), &o)| o + (key >> s & ((1u128 << w) - 1)) as u32)
            .collect()
    }
}

/// Positions of `games` added to `problem`. Returns how many games were cut short as unplayable.
fn extract_into(
    problem: &mut Problem,
    features: &dyn FeatureSet,
    games: &[&TrainGame],
    progress: &ProgressBar,
) -> usize {
    let sizes = features.sizes();
    let packer = Packer::new(&sizes);
    let mut values = vec![0u32; sizes.len()];
    let mut ids: rustc_hash::FxHashMap<u128, u32> = Default::default();
    let mut keys: Vec<u128> = Vec::with_capacity(625);
    let mut parts: Vec<(u32, u32)> = Vec::with_capacity(625);
    let mut skipped = 0;
    for game in games {
        progress.inc(1);
        let Some(board) = Board::new(game.record.size) else {
            skipped += 1;
            continue;
        };
        let mut fb = FeatureBoard::new(&board);
        for (i, &stone) in game.record.stones.iter().enumerate() {
            if fb.board().is_over() || !fb.board().is_empty_at(stone) {
                skipped += 1;
                break;
            }
            if i < game.first_chosen {
                fb.play(stone).expect("checked empty and not over");
                continue;
            }
            let ctx = fb.context();
            let size = fb.board().size();
            keys.clear();
            for p in fb.board().legal_points() {
                features.team(&fb, &ctx, p.index(size), &mut values);
                keys.push(packer.pack(&values));
            }
            features.team(&fb, &ctx, stone.index(size), &mut values);
            let winner_key = packer.pack(&values);
            keys.sort_unstable();
            parts.clear();
            let mut winner = u32::MAX;
            for run in keys.chunk_by(|a, b| a == b) {
                let key = run[0];
                let id = *ids
                    .entry(key)
                    .or_insert_with(|| problem.push_team(&packer.slots(key)));
                if key == winner_key {
                    winner = id;
                }
                parts.push((id, run.len() as u32));
            }
            problem
                .add(winner, &parts, 1.0)
                .expect("the played stone is a legal candidate");
            fb.play(stone).expect("checked empty and not over");
        }
    }
    skipped
}

/// Competitions of every position of `games` where a player chose the stone, with the engine's
/// groups of `spec`.
pub fn extract(
    spec: &FeatureSpec,
    games: &[&TrainGame],
    threads: usize,
    progress: &ProgressBar,
) -> (Problem, usize) {
    extract_features(spec, games, threads, progress)
}

/// Competitions of every position of `games` where a player chose the stone, built on `threads` threads. The games are cut
/// into pieces (several per thread) extracted independently and joined in order, so the result
/// does not depend on the thread count's timing and the join holds one piece extra at most.
pub fn extract_features(
    features: &dyn FeatureSet,
    games: &[&TrainGame],
    threads: usize,
    progress: &ProgressBar,
) -> (Problem, usize) {
    let threads = threads.max(1);
    let per = games.len().div_ceil(threads * PIECES_PER_THREAD).max(1);
    let pieces: Vec<&[&TrainGame]> = games.chunks(per).collect();
    let done: Vec<std::sync::Mutex<Option<Problem>>> =
        pieces.iter().map(|_| Default::default()).collect();
    let next = AtomicUsize::new(0);
    let skipped = AtomicUsize::new(0);
    let sizes = features.sizes();
    std::thread::scope(|s| {
        for _ in 0..threads.min(pieces.len()) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(piece) = pieces.get(i) else { break };
                let mut p = Problem::new(&sizes);
                skipped.fetch_add(
                    extract_into(&mut p, features, piece, progress),
                    Ordering::Relaxed,
                );
                *done[i].lock().expect("extraction worker panicked") = Some(p);
            });
        }
    });
    let parts = done
        .into_iter()
        .map(|m| {
            m.into_inner()
                .expect("extraction worker panicked")
                .expect("every piece extracted")
        })
        .collect();
    let mut all = Problem::concat(&sizes, parts);
    all.seal();
    (all, skipped.into_inner())
}

/// Pieces of games per extraction thread: more pieces, a smaller peak when they are joined.
const PIECES_PER_THREAD: usize = 8;

/// Gammas of the spec's groups from a flat vector indexed like the problem's features.
pub fn split_gammas(spec: &FeatureSpec, flat: &[f64]) -> Vec<Vec<f64>> {
    let offsets = offsets(spec);
    spec.groups()
        .iter()
        .zip(offsets)
        .map(|(g, o)| flat[o as usize..o as usize + g.size()].to_vec())
        .collect()
}

/// The flat vector of a weights file's gammas, indexed like [`extract`]'s features.
pub fn flat_gammas(gammas: &liuzi::policy::Gammas) -> Vec<f64> {
    gammas
        .spec()
        .groups()
        .iter()
        .flat_map(|&g| gammas.group(g).iter().copied())
        .collect()
}

/// The trainer's view of a tree-prior section (docs/patterns.md, gammas): its groups, then its four
/// line patterns, each computed as the engine's [`liuzi::policy::TreeModel`] does.
pub fn tree_features(tree: &liuzi::policy::TreeModel) -> Combined {
    Combined(vec![
        Box::new(tree.spec().clone()),
        Box::new(super::line_patterns::LinePatterns {
            lengths: [tree.line_length(); 4],
        }),
    ])
}

/// A tree section's gammas indexed like [`tree_features`]' problems.
pub fn flat_tree_gammas(tree: &liuzi::policy::TreeModel) -> Vec<f64> {
    let mut flat = flat_gammas(tree.groups());
    for dir in 0..4 {
        flat.extend_from_slice(tree.line(dir));
    }
    flat
}

#[cfg(test)]
mod tests {
    use super::*;
    use liuzi::policy::{FeatureSpec, Gammas, TreeModel};
    use liuzi::rules::Point;
    use rand::{Rng, SeedableRng};

    /// A short game in the centre: the boards the tests walk through.
    const STONES: [(u8, u8); 7] = [
        (9, 9),
        (10, 10),
        (10, 8),
        (8, 8),
        (11, 11),
        (12, 9),
        (9, 12),
    ];

    /// The engine's tree strengths are the products of the gammas of the trainer's teams.
    #[test]
    fn engine_tree_strength_is_the_trainers_team_product() {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(3);
        let spec = FeatureSpec::full();
        let mut random =
            |n: usize| -> Vec<f64> { (0..n).map(|_| rng.gen_range(0.2..5.0)).collect() };
        let groups: Vec<Vec<f64>> = spec.groups().iter().map(|g| random(g.size())).collect();
        let lines: Vec<Vec<f64>> = (0..4)
            .map(|_| random(liuzi::policy::lines::line_values(6)))
            .collect();
        let tree = TreeModel::new(Gammas::new(spec, groups, "t").unwrap(), 6, lines).unwrap();
        let features = tree_features(&tree);
        let flat = flat_tree_gammas(&tree);
        let offsets: Vec<usize> = features
            .sizes()
            .iter()
            .scan(0, |at, &s| {
                let o = *at;
                *at += s;
                Some(o)
            })
            .collect();
        let mut board = Board::standard();
        let mut values = vec![0u32; offsets.len()];
        for (i, &(c, r)) in STONES.iter().enumerate() {
            let fb = FeatureBoard::new(&board);
            let ctx = fb.context();
            for p in board.legal_points() {
                let cell = p.index(19);
                features.team(&fb, &ctx, cell, &mut values);
                let product: f64 = values
                    .iter()
                    .zip(&offsets)
                    .map(|(&v, &o)| flat[o + v as usize])
                    .product();
                let engine = tree.strength(&fb, &ctx, cell);
                assert!((engine / product - 1.0).abs() < 1e-12, "stone {i} {p:?}");
            }
            board.play(Point::new(c, r)).unwrap();
        }
    }

    /// A match's set opening stones are replayed, not trained on: the same game yields one
    /// position fewer for each stone set.
    #[test]
    fn set_opening_stones_are_replayed_not_trained_on() {
        let mut board = Board::standard();
        for (c, r) in STONES {
            board.play(Point::new(c, r)).unwrap();
        }
        let record = GameRecord::from_board(&board);
        let spec = FeatureSpec::full();
        let count = |first_chosen: usize| {
            let game = TrainGame {
                record: record.clone(),
                first_chosen,
            };
            let (problem, skipped) = extract(&spec, &[&game], 1, &ProgressBar::hidden());
            assert_eq!(skipped, 0);
            problem.n_competitions()
        };
        assert_eq!(count(0), 7);
        assert_eq!(count(3), 4);
        assert_eq!(count(7), 0);
    }
}
