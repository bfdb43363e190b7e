//! All-moves-as-first (AMAF) statistics and their blend into a child's value: RAVE (Gelly &
//! Silver 2007), `search.rave_equivalence`.
//!
//! A Connect6 turn is a pair, and the tree holds each pair once (its canonical order), so a
//! stone's own visits say little about it while its partners have been tried once or twice.
//! AMAF credits a child with every descent through its parent in which its player placed the
//! child's stone at any later point (as the turn's other stone, in a later turn, or in the
//! playout): far more samples, biased by ignoring when the stone came. RAVE leans on them while
//! the child's own visits are few: value = (1 − β)·mean + β·amaf_mean with
//! β = sqrt(k / (3n + k)), n the child's visits and k the equivalence (β = ½ at n = k).

use super::node::{Stats, REWARD_UNIT};
use super::tree::Tree;
use crate::rules::{Board, Point};

/// Marks, per cell, where it was placed in the current descent.
#[derive(Default)]
pub(crate) struct AmafScratch {
    /// Index in the descent's stones (0 = the first stone below the root), `u32::MAX` if none.
    placed_at: Vec<u32>,
}

/// Credits every child of every node on `path` whose player placed its stone later in the
/// descent. `stones` are the descent's stones after the root's position (tree, then playout),
/// `root_len` the stones on the board at the root, `size` the board's size, and `rewards` the
/// descent's rewards for Black and White. Each child is credited at most once a descent, so
/// its AMAF visits never pass its parent's visits (and fit the packed word as `stats` do).
pub(crate) fn backup(
    tree: &Tree,
    path: &[u32],
    stones: &[Point],
    root_len: usize,
    size: usize,
    rewards: [u32; 2],
    scratch: &mut AmafScratch,
) {
    if scratch.placed_at.len() != size * size {
        scratch.placed_at = vec![u32::MAX; size * size];
    }
    for (k, p) in stones.iter().enumerate() {
        scratch.placed_at[p.index(size)] = k as u32;
    }
    // The node at depth d chooses the descent's stone d.
    for (depth, &node) in path.iter().enumerate() {
        let Some(children) = tree.children(node) else {
            continue;
        };
        let player = Board::color_of_stone(root_len + depth);
        let reward = rewards[player.index()];
        for index in children.range() {
            let edge = tree.edge(index);
            let at = scratch.placed_at[edge.cell() as usize];
            if at != u32::MAX
                && at as usize >= depth
                && Board::color_of_stone(root_len + at as usize) == player
            {
                edge.add_amaf(reward);
            }
        }
    }
    for p in stones {
        scratch.placed_at[p.index(size)] = u32::MAX;
    }
}

/// The mean a visited child with `stats` is selected by: its own, blended with its AMAF mean
/// by RAVE's β while its visits are few (`equivalence` 0 = its own).
pub(crate) fn blended_mean(stats: Stats, amaf: Stats, equivalence: f32) -> f32 {
    let n = stats.visits.max(1) as f32;
    let mean = stats.wins as f32 / (REWARD_UNIT as f32 * n);
    if equivalence <= 0.0 || amaf.visits == 0 {
        return mean;
    }
    let beta = (equivalence / (3.0 * n + equivalence)).sqrt();
    let amaf_mean = amaf.wins as f32 / (REWARD_UNIT as f32 * amaf.visits as f32);
    (1.0 - beta) * mean + beta * amaf_mean
}

/// AMAF visits worth as much as the parent's mean in [`first_play_mean`]: one or two
/// all-moves-as-first samples move an unvisited child's urgency only part of the way.
const FIRST_PLAY_SHRINK: f32 = 4.0;

/// The mean an unvisited child with AMAF statistics `amaf` is first tried by
/// (`search.rave_first_play`): its AMAF mean shrunk towards `parent_mean`, the parent's mean for
/// the child's player.
pub(crate) fn first_play_mean(amaf: Stats, parent_mean: f32) -> f32 {
    let wins = amaf.wins as f32 / REWARD_UNIT as f32;
    (wins + FIRST_PLAY_SHRINK * parent_mean) / (amaf.visits as f32 + FIRST_PLAY_SHRINK)
}

#[cfg(test)]
mod tests {
    use super::super::node::Children;
    use super::super::tree::ROOT;
    use super::*;

    fn p(i: usize) -> Point {
        Point::from_index(i, 7)
    }

    /// A root with children on cells 10, 11, 12, and under child 11 two children on 20 and 10.
    fn small_tree() -> (Tree, u32, u32) {
        let tree = Tree::new(16);
        let first = tree.allocate(3).unwrap();
        for k in 0..3 {
            tree.edge(first + k).init(10 + k as u16, 0.3);
        }
        tree.edge(ROOT).publish(Children {
            first,
            count: 3,
            restricted: false,
            filtered: false,
        });
        let mid = first + 1;
        let second = tree.allocate(2).unwrap();
        tree.edge(second).init(20, 0.5);
        tree.edge(second + 1).init(10, 0.5);
        tree.edge(mid).publish(Children {
            first: second,
            count: 2,
            restricted: false,
            filtered: false,
        });
        (tree, first, second)
    }

    #[test]
    fn a_stone_placed_later_by_the_same_player_is_credited_to_its_earlier_sibling() {
        let (tree, first, second) = small_tree();
        let mut scratch = AmafScratch::default();
        // An empty root: Black places stone 0 (cell 11), White stones 1 and 2 (20, then 30),
        // Black stones 3 and 4 (12, then 40). Black won.
        let stones = [p(11), p(20), p(30), p(12), p(40)];
        let rewards = [REWARD_UNIT, 0];
        backup(
            &tree,
            &[ROOT, first + 1, second],
            &stones,
            0,
            7,
            rewards,
            &mut scratch,
        );
        // At the root (Black): 11 was played and 12 placed later by Black; 10 never.
        assert_eq!(tree.edge(first).amaf().visits, 0);
        assert_eq!(tree.edge(first + 1).amaf().visits, 1);
        assert_eq!(tree.edge(first + 1).amaf().wins, REWARD_UNIT);
        assert_eq!(tree.edge(first + 2).amaf().visits, 1);
        // Under 11 (White's stone 1): 20 was White's, with White's reward (a loss); cell 10
        // was never placed.
        assert_eq!(tree.edge(second).amaf().visits, 1);
        assert_eq!(tree.edge(second).amaf().wins, 0);
        assert_eq!(tree.edge(second + 1).amaf().visits, 0);
        // The scratch is left clean for the next descent.
        assert!(scratch.placed_at.iter().all(|&a| a == u32::MAX));
    }

    #[test]
    fn the_opponents_stones_are_not_credited() {
        let (tree, first, _) = small_tree();
        let mut scratch = AmafScratch::default();
        // Black 11, then White's playout stones 12 and 10: the root's children on 12 and 10
        // are Black's choices, and Black placed neither.
        let stones = [p(11), p(12), p(10)];
        let rewards = [0, REWARD_UNIT];
        backup(
            &tree,
            &[ROOT, first + 1],
            &stones,
            0,
            7,
            rewards,
            &mut scratch,
        );
        assert_eq!(tree.edge(first).amaf().visits, 0);
        assert_eq!(tree.edge(first + 2).amaf().visits, 0);
        // Under 11, White's child on cell 10 is credited with White's win.
        let under = tree.children(first + 1).unwrap().first;
        assert_eq!(tree.edge(under + 1).amaf().visits, 1);
        assert_eq!(tree.edge(under + 1).amaf().wins, REWARD_UNIT);
        assert_eq!(tree.edge(under).amaf().visits, 0);
    }

    #[test]
    fn the_blend_leans_on_amaf_while_visits_are_few_and_fades() {
        let stats = |visits, mean: f32| Stats {
            visits,
            wins: (mean * (REWARD_UNIT * visits) as f32) as u32,
        };
        let amaf = stats(1000, 0.8);
        assert_eq!(blended_mean(stats(4, 0.25), amaf, 0.0), 0.25);
        assert_eq!(blended_mean(stats(4, 0.25), Stats::default(), 100.0), 0.25);
        let few = blended_mean(stats(4, 0.25), amaf, 100.0);
        let many = blended_mean(stats(4000, 0.25), amaf, 100.0);
        assert!(few > 0.7, "β = sqrt(100/112) leans on AMAF: {few}");
        assert!(
            many < 0.31,
            "β = sqrt(100/12100) = 0.09 hardly does: {many}"
        );
        // At n = k, β = sqrt(k / 4k) = 1/2.
        let half = blended_mean(stats(100, 0.25), stats(100, 0.75), 100.0);
        assert!((half - 0.5).abs() < 1e-6, "{half}");
    }

    #[test]
    fn first_play_shrinks_few_amaf_samples_towards_the_parent() {
        let one_win = Stats {
            visits: 1,
            wins: REWARD_UNIT,
        };
        // (1 + 4 · 0.5) / 5.
        assert!((first_play_mean(one_win, 0.5) - 0.6).abs() < 1e-6);
        let many_losses = Stats {
            visits: 400,
            wins: 0,
        };
        assert!(first_play_mean(many_losses, 0.5) < 0.01);
    }
}
