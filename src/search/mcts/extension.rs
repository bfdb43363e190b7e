//! When a stone's search may run past its planned time (`Limits::extension`, from a game
//! clock's main time): while the choice at the root is still close. Pachi and Fuego extend the
//! same way; the time comes from later turns, which the early stop refills on settled ones.

use super::node::{Proof, Stats};
use super::tree::{Tree, ROOT};

/// The runner-up keeps the search going while it has at least this share of the leader's
/// visits: a few more seconds may still turn the choice.
const CLOSE_VISITS: f64 = 0.6;

/// ...or while it has at least this share and a better mean than the leader (the visits have
/// not caught up with the values yet).
const CONTENDER_VISITS: f64 = 0.25;

/// Whether the root's choice is still open: no proven win, and the most visited child not proven
/// lost has a runner-up close in visits or better in value.
pub(super) fn unsettled(tree: &Tree) -> bool {
    let Some(children) = tree.children(ROOT) else {
        return false;
    };
    // The two most visited open children (ties: the better mean leads).
    let key = |s: Stats| (s.visits, s.mean_key());
    let (mut leader, mut runner_up): (Option<Stats>, Option<Stats>) = (None, None);
    for i in children.range() {
        let edge = tree.edge(i);
        match edge.proof() {
            Proof::Win => return false,
            Proof::Unknown => {}
            _ => continue,
        }
        let s = edge.stats();
        if leader.is_none_or(|l| key(s) > key(l)) {
            runner_up = leader;
            leader = Some(s);
        } else if runner_up.is_none_or(|r| key(s) > key(r)) {
            runner_up = Some(s);
        }
    }
    let (Some(leader), Some(runner_up)) = (leader, runner_up) else {
        return false;
    };
    if leader.visits == 0 {
        return false;
    }
    let share = f64::from(runner_up.visits) / f64::from(leader.visits);
    share >= CLOSE_VISITS || (share >= CONTENDER_VISITS && runner_up.mean() > leader.mean())
}

#[cfg(test)]
mod tests {
    use super::super::node::REWARD_UNIT;
    use super::super::proven::tests::block;
    use super::*;

    /// A root with three children of the given (visits, mean reward).
    fn root(children: [(u32, f64); 3]) -> Tree {
        let tree = Tree::new(16);
        let c = block(&tree, ROOT, &[1, 2, 3], false);
        for (k, (visits, mean)) in children.into_iter().enumerate() {
            let wins = (mean * f64::from(REWARD_UNIT) * f64::from(visits)).round() as u32;
            tree.edge(c.first + k as u32)
                .set_stats(Stats { visits, wins });
        }
        tree
    }

    #[test]
    fn a_clear_leader_is_settled() {
        assert!(!unsettled(&root([(1000, 0.6), (200, 0.55), (100, 0.5)])));
        // A runner-up with a better mean but few visits is no contender.
        assert!(!unsettled(&root([(1000, 0.6), (200, 0.7), (100, 0.5)])));
    }

    #[test]
    fn a_close_runner_up_keeps_it_open() {
        assert!(unsettled(&root([(1000, 0.6), (700, 0.58), (100, 0.5)])));
        // Fewer visits but a better mean: the visits have not caught up yet.
        assert!(unsettled(&root([(1000, 0.6), (300, 0.65), (100, 0.5)])));
    }

    #[test]
    fn proofs_settle_or_remove_children() {
        let tree = root([(1000, 0.6), (900, 0.6), (100, 0.5)]);
        let first = tree.children(ROOT).unwrap().first;
        // The close runner-up proven lost: the leader stands alone among the open ones.
        tree.edge(first + 1).set_proof(Proof::Loss);
        assert!(!unsettled(&tree));
        tree.edge(first + 1).set_proof(Proof::Unknown);
        assert!(unsettled(&tree));
        // A proven win anywhere ends the question.
        tree.edge(first + 2).set_proof(Proof::Win);
        assert!(!unsettled(&tree));
    }

    #[test]
    fn an_unexpanded_or_unvisited_root_is_not_extended() {
        assert!(!unsettled(&Tree::new(16)));
        assert!(!unsettled(&root([(0, 0.0), (0, 0.0), (0, 0.0)])));
    }
}
