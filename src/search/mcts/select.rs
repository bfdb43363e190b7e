//! Child selection by the biased UCB of Ikeda & Viennot (CG 2013), with explicit first-play
//! urgency and optional progressive widening (docs/search.md, selection and the bias term).
//!
//!   UCB_bias(i) = w_i/n_i + C·sqrt(ln N / n_i) + C_BT·P(m_i)·sqrt(K/(N+K))
//!
//! With RAVE (`rave_equivalence` k > 0, see `amaf.rs`) the mean is first blended with the
//! child's all-moves-as-first mean, by β = sqrt(k / (3·n_i + k)); with `rave_first_play` an
//! unvisited child that has AMAF visits is worth its AMAF mean (shrunk towards the parent's)
//! − fpu_reduction instead of FPU, so the stones that did well elsewhere below the node are
//! tried first, and the visited children need not form a prefix.
//!
//! With implicit minimax backups (`minimax_weight` α > 0, see `minimax.rs`) the mean w_i/n_i is
//! replaced by (1 − α)·w_i/n_i + α·m_i where the child has a minimax value m_i.
//!
//! An unvisited child is worth FPU = (parent mean for the chooser) − fpu_reduction, plus its
//! bias term (below the root, where the root's side chooses a turn's second stone,
//! own_second_stone_fpu_reduction in place of fpu_reduction). Children are sorted by prior, so
//! among unvisited children the first one is the best; every child a descent picks is therefore
//! either visited already or the first unvisited one, and the visited children always form a
//! prefix of the block. Below the root the scan
//! stops at the first unvisited child. The root may hold statistics grafted from the other
//! order of a pair (see `Search::reuse_tree`), so there the whole block is scanned.

use super::amaf::{blended_mean, first_play_mean};
use super::node::{Children, Proof, Stats};
use super::tree::Tree;
use super::SearchParams;

/// Per-node constants of one selection.
pub(crate) struct NodeView {
    /// Parent visits N (virtual ones included).
    pub visits: u32,
    /// The parent's mean reward from the chooser's point of view, if visited.
    pub mean_for_chooser: Option<f32>,
    pub is_root: bool,
    /// The node chooses a turn's second stone for the side to move at the root (its stone was
    /// that side's first).
    pub own_second_stone: bool,
}

/// Index of the child to descend into.
pub(crate) fn select_child(
    tree: &Tree,
    params: &SearchParams,
    children: Children,
    node: &NodeView,
) -> u32 {
    let n_parent = node.visits.max(1) as f32;
    let ln_n = crate::math::ln_f32(n_parent);
    let bias_scale =
        params.prior_weight * (params.prior_visits / (n_parent + params.prior_visits)).sqrt();
    let parent_mean = node.mean_for_chooser.unwrap_or(0.5);
    let reduction = if node.own_second_stone && !node.is_root {
        params.own_second_stone_fpu_reduction
    } else {
        params.fpu_reduction
    };
    let fpu = parent_mean - reduction;
    // Unvisited children ranked by their AMAF means: any of them may be next, so the scan
    // cannot stop at the first unvisited one.
    let rave = params.rave_equivalence > 0.0;
    let amaf_first_play = params.rave_first_play && rave;
    let considered = params.widened_children(node.visits, children.count as usize) as u32;

    let mut best = children.first;
    let mut best_value = f32::NEG_INFINITY;
    let mut seen_unvisited = false;
    for index in children.first..children.first + considered.max(1) {
        let edge = tree.edge(index);
        match edge.proof() {
            Proof::Win => return index,
            Proof::Loss | Proof::Excluded => continue,
            Proof::Unknown => {}
        }
        let stats = edge.stats();
        let value = if stats.visits == 0 {
            // The AMAF word is read only when RAVE uses it (selection is on the hot path).
            let amaf = if amaf_first_play {
                edge.amaf()
            } else {
                Stats::default()
            };
            if amaf.visits > 0 {
                first_play_mean(amaf, parent_mean) - reduction + bias_scale * edge.prior()
            } else {
                if seen_unvisited {
                    continue;
                }
                seen_unvisited = true;
                let v = fpu + bias_scale * edge.prior();
                if !node.is_root && !amaf_first_play {
                    if v > best_value {
                        best = index;
                    }
                    break;
                }
                v
            }
        } else {
            let n = stats.visits as f32;
            let amaf = if rave { edge.amaf() } else { Stats::default() };
            let mean = blended_mean(stats, amaf, params.rave_equivalence);
            let value = match edge.minimax() {
                Some(m) if params.minimax_weight > 0.0 => {
                    (1.0 - params.minimax_weight) * mean + params.minimax_weight * m
                }
                _ => mean,
            };
            value + params.exploration * (ln_n / n).sqrt() + bias_scale * edge.prior()
        };
        if value > best_value {
            best_value = value;
            best = index;
        }
    }
    best
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::node::REWARD_UNIT;
    use super::super::tree::ROOT;
    use super::*;

    /// A root whose children have the given (prior, visits, wins in halves).
    pub(in crate::search::mcts) fn tree_with(children: &[(f32, u32, u32)]) -> (Tree, Children) {
        let tree = Tree::new(64);
        let first = tree.allocate(children.len() as u32).unwrap();
        // Wins given in halves (a draw = 1), as the reward was once counted.
        for (k, &(prior, visits, wins2)) in children.iter().enumerate() {
            let e = tree.edge(first + k as u32);
            e.init(k as u16, prior);
            e.set_stats(Stats {
                visits,
                wins: wins2 * REWARD_UNIT / 2,
            });
        }
        let c = Children {
            first,
            count: children.len() as u32,
            restricted: false,
            filtered: false,
        };
        tree.edge(ROOT).publish(c);
        (tree, c)
    }

    fn view(visits: u32, mean: f32, is_root: bool) -> NodeView {
        NodeView {
            visits,
            mean_for_chooser: Some(mean),
            is_root,
            own_second_stone: false,
        }
    }

    #[test]
    fn unvisited_children_are_taken_in_prior_order_by_fpu() {
        let p = SearchParams::default();
        let (tree, c) = tree_with(&[(0.5, 0, 0), (0.3, 0, 0), (0.2, 0, 0)]);
        assert_eq!(select_child(&tree, &p, c, &view(0, 0.5, false)), c.first);
    }

    #[test]
    fn a_strong_visited_child_beats_fpu_and_a_weak_one_does_not() {
        let p = SearchParams {
            exploration: 0.1,
            ..SearchParams::default()
        };
        // Visited child wins 90% over 100 visits: better than FPU 0.5 - 0.1.
        let (tree, c) = tree_with(&[(0.5, 100, 180), (0.3, 0, 0)]);
        assert_eq!(select_child(&tree, &p, c, &view(100, 0.5, false)), c.first);
        // Visited child wins 10%: the unvisited one is tried.
        let (tree, c) = tree_with(&[(0.5, 100, 20), (0.3, 0, 0)]);
        assert_eq!(
            select_child(&tree, &p, c, &view(100, 0.5, false)),
            c.first + 1
        );
    }

    #[test]
    fn bias_term_prefers_the_higher_prior_between_equal_children_and_fades() {
        let p = SearchParams::default();
        let (tree, c) = tree_with(&[(0.1, 10, 10), (0.8, 10, 10)]);
        assert_eq!(
            select_child(&tree, &p, c, &view(20, 0.5, false)),
            c.first + 1
        );
        // With C_BT = 0 it is a tie, resolved by order.
        let p0 = SearchParams {
            prior_weight: 0.0,
            ..p.clone()
        };
        assert_eq!(select_child(&tree, &p0, c, &view(20, 0.5, false)), c.first);
    }

    #[test]
    fn root_scans_past_unvisited_children_for_grafted_statistics() {
        // A small prior weight, so that the grafted child's 95% outweighs the unvisited child's
        // larger prior (with C_BT = 2 the prior difference alone would decide).
        let p = SearchParams {
            exploration: 0.1,
            prior_weight: 0.5,
            ..SearchParams::default()
        };
        let (tree, c) = tree_with(&[(0.5, 0, 0), (0.3, 50, 95)]);
        assert_eq!(
            select_child(&tree, &p, c, &view(50, 0.5, true)),
            c.first + 1
        );
        assert_eq!(select_child(&tree, &p, c, &view(50, 0.5, false)), c.first);
    }

    #[test]
    fn the_minimax_value_can_outweigh_the_mean() {
        let p = SearchParams {
            exploration: 0.0,
            prior_weight: 0.0,
            minimax_weight: 0.5,
            ..SearchParams::default()
        };
        // The first child's mean is higher, but a refutation below it left its minimax at 0.
        let (tree, c) = tree_with(&[(0.5, 100, 140), (0.5, 100, 100)]);
        tree.edge(c.first).set_minimax(0.0);
        tree.edge(c.first + 1).set_minimax(0.5);
        assert_eq!(
            select_child(&tree, &p, c, &view(200, 0.5, false)),
            c.first + 1
        );
        // With α = 0 the mean alone decides.
        let p0 = SearchParams {
            minimax_weight: 0.0,
            ..p
        };
        assert_eq!(select_child(&tree, &p0, c, &view(200, 0.5, false)), c.first);
    }

    #[test]
    fn rave_blends_the_amaf_mean_and_ranks_unvisited_children_by_it() {
        let p = SearchParams {
            exploration: 0.0,
            prior_weight: 0.0,
            rave_equivalence: 100.0,
            ..SearchParams::default()
        };
        // Two children at 50% over 10 visits; the second's stone won 90% wherever it was
        // placed later, the first's 10%.
        let (tree, c) = tree_with(&[(0.5, 10, 10), (0.5, 10, 10)]);
        let amaf = |e: u32, visits: u32, wins: u32| {
            for k in 0..visits {
                tree.edge(e)
                    .add_amaf(if k < wins { REWARD_UNIT } else { 0 });
            }
        };
        amaf(c.first, 100, 10);
        amaf(c.first + 1, 100, 90);
        assert_eq!(
            select_child(&tree, &p, c, &view(20, 0.5, false)),
            c.first + 1
        );
        let off = SearchParams {
            rave_equivalence: 0.0,
            ..p.clone()
        };
        assert_eq!(select_child(&tree, &off, c, &view(20, 0.5, false)), c.first);
        // Unvisited: the first plain child would be next by prior; with first play by AMAF the
        // third, whose stone won elsewhere, goes first, and one that lost elsewhere goes last.
        let (tree, c) = tree_with(&[(0.5, 0, 0), (0.3, 0, 0), (0.2, 0, 0)]);
        for k in 0..40 {
            tree.edge(c.first + 2).add_amaf(REWARD_UNIT);
            tree.edge(c.first)
                .add_amaf(if k < 4 { REWARD_UNIT } else { 0 });
        }
        let first_play = SearchParams {
            rave_first_play: true,
            ..p.clone()
        };
        assert_eq!(
            select_child(&tree, &first_play, c, &view(5, 0.5, false)),
            c.first + 2
        );
        assert_eq!(select_child(&tree, &p, c, &view(5, 0.5, false)), c.first);
        // The first child's stone lost elsewhere (4 of 40): the plain one (FPU) goes before it.
        let (tree, c) = tree_with(&[(0.5, 0, 0), (0.3, 0, 0)]);
        for k in 0..40 {
            tree.edge(c.first)
                .add_amaf(if k < 4 { REWARD_UNIT } else { 0 });
        }
        assert_eq!(
            select_child(&tree, &first_play, c, &view(5, 0.5, false)),
            c.first + 1
        );
    }

    #[test]
    fn the_roots_sides_second_stone_nodes_below_the_root_have_their_own_first_play_urgency() {
        // A partner won 55% over 200 visits, the parent's mean is 50%, equal priors: the
        // optimistic urgency (-0.2) tries the unvisited partner, a neutral one (0) stays.
        let p = SearchParams {
            fpu_reduction: -0.2,
            own_second_stone_fpu_reduction: 0.0,
            ..SearchParams::default()
        };
        let (tree, c) = tree_with(&[(0.3, 200, 220), (0.3, 0, 0)]);
        let mut second = view(200, 0.5, false);
        second.own_second_stone = true;
        assert_eq!(select_child(&tree, &p, c, &second), c.first);
        assert_eq!(
            select_child(&tree, &p, c, &view(200, 0.5, false)),
            c.first + 1
        );
        // At the root (a second-stone search) the ordinary urgency holds.
        let mut root = view(200, 0.5, true);
        root.own_second_stone = true;
        assert_eq!(select_child(&tree, &p, c, &root), c.first + 1);
        // Equal to fpu_reduction (the default), the flag changes nothing.
        let same = SearchParams {
            own_second_stone_fpu_reduction: -0.2,
            ..p.clone()
        };
        assert_eq!(select_child(&tree, &same, c, &second), c.first + 1);
    }

    #[test]
    fn widening_hides_low_prior_children() {
        let p = SearchParams {
            widen_min: 1,
            widen_factor: 0.0,
            exploration: 0.1,
            ..SearchParams::default()
        };
        let (tree, c) = tree_with(&[(0.5, 100, 0), (0.3, 0, 0)]);
        assert_eq!(select_child(&tree, &p, c, &view(100, 0.5, false)), c.first);
    }
}
