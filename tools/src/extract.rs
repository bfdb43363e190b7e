//! Turns game records into Bradley-Terry competitions: every stone of every game (both colours,
//! both stages) is a position whose candidates are all empty cells, each a team of one feature
//! value per group of the spec. Identical teams within a position collapse into one entry with a
//! multiplicity, which keeps ~330 candidates a position down to about a hundred entries.

use crate::mm::Problem;
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

pub fn empty_problem(spec: &FeatureSpec) -> Problem {
    let sizes: Vec<usize> = spec.groups().iter().map(|g| g.size()).collect();
    Problem::new(&sizes)
}

/// Packs one value per group into a `u64` (sorting and hashing teams as integers is several times
/// faster than as slot arrays).
struct Packer {
    shifts: Vec<u32>,
    offsets: Vec<u32>,
    groups: Vec<liuzi::policy::Group>,
}

impl Packer {
    fn new(spec: &FeatureSpec) -> Packer {
        let mut shifts = Vec::new();
        let mut next = 0;
        for g in spec.groups() {
            shifts.push(next);
            next += usize::BITS - (g.size() - 1).leading_zeros();
        }
        assert!(next <= 64, "a team of this spec does not fit in 64 bits");
        Packer {
            shifts,
            offsets: offsets(spec),
            groups: spec.groups().to_vec(),
        }
    }

    #[inline]
    fn pack(&self, team: &liuzi::policy::Team) -> u64 {
        self.groups
            .iter()
            .zip(&self.shifts)
            .fold(0, |key, (g, &s)| key | (team[g.index()] as u64) << s)
    }

    fn slots(&self, key: u64) -> Vec<u32> {
        let mut slots = Vec::with_capacity(self.groups.len());
        for (k, &s) in self.shifts.iter().enumerate() {
            let next = self.shifts.get(k + 1).copied().unwrap_or(64);
            let mask = if next - s == 64 {
                u64::MAX
            } else {
                (1u64 << (next - s)) - 1
            };
            slots.push(self.offsets[k] + (key >> s & mask) as u32);
        }
        slots
    }
}

/// Positions of `games` added to `problem`. Returns how many games were cut short as unplayable.
fn extract_into(
    problem: &mut Problem,
    spec: &FeatureSpec,
    games: &[&GameRecord],
    progress: &ProgressBar,
) -> usize {
    let packer = Packer::new(spec);
    let mut ids: rustc_hash::FxHashMap<u64, u32> = Default::default();
    let mut keys: Vec<u64> = Vec::with_capacity(625);
    let mut parts: Vec<(u32, u32)> = Vec::with_capacity(625);
    let mut skipped = 0;
    for game in games {
        progress.inc(1);
        let Some(board) = Board::new(game.size) else {
            skipped += 1;
            continue;
        };
        let mut fb = FeatureBoard::new(&board);
        for &stone in &game.stones {
            if fb.board().is_over() || !fb.board().is_empty_at(stone) {
                skipped += 1;
                break;
            }
            let ctx = fb.context();
            let size = fb.board().size();
            keys.clear();
            keys.extend(
                fb.board()
                    .legal_points()
                    .map(|p| packer.pack(&fb.team(p.index(size), &ctx))),
            );
            let winner_key = packer.pack(&fb.team(stone.index(size), &ctx));
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

/// Competitions of every position of `games`, built on `threads` threads.
pub fn extract(
    spec: &FeatureSpec,
    games: &[&GameRecord],
    threads: usize,
    progress: &ProgressBar,
) -> (Problem, usize) {
    let threads = threads.max(1);
    let per = games.len().div_ceil(threads).max(1);
    let skipped = AtomicUsize::new(0);
    let parts: Vec<Problem> = std::thread::scope(|s| {
        let handles: Vec<_> = games
            .chunks(per)
            .map(|chunk| {
                let skipped = &skipped;
                s.spawn(move || {
                    let mut p = empty_problem(spec);
                    skipped.fetch_add(
                        extract_into(&mut p, spec, chunk, progress),
                        Ordering::Relaxed,
                    );
                    p
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("extraction worker panicked"))
            .collect()
    });
    let mut all = empty_problem(spec);
    for p in parts {
        all.append(p);
    }
    all.seal();
    (all, skipped.into_inner())
}

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
