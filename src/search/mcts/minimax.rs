//! Implicit minimax backups (Lanctot, Winands, Pepels & Sturtevant, "Monte Carlo Tree Search
//! with Heuristic Evaluations using Implicit Minimax Backups", CIG 2014): beside its mean reward,
//! every edge keeps m, the minimax of the evaluator's values at the leaves below it, and
//! selection mixes the two (`select.rs`). A refutation found deep in the tree then counts at
//! once, where the mean needs many playouts to move. Values are for the edge's player, as the
//! statistics are; the chooser at a node is the player of its children's stones, so a node's
//! value is its children's best for that player, turned around when the player changes.

use super::node::Proof;
use super::tree::Tree;

/// A child's value for the player who placed it: a proof decides, else its minimax value.
/// `None`: excluded, or nothing below it valued yet.
fn child_value(tree: &Tree, index: u32) -> Option<f32> {
    let edge = tree.edge(index);
    match edge.proof() {
        Proof::Win => Some(1.0),
        Proof::Loss => Some(0.0),
        Proof::Excluded => None,
        Proof::Unknown => edge.minimax(),
    }
}

/// Backs the minimax value up `path` (edges from the root) after its last edge got
/// `leaf` (for that edge's player; `None` leaves it as it is). `same_player(d)`: whether the
/// edges at depths `d` and `d + 1` were placed by the same player. Stops where a value does not
/// change, since nothing above it can change then.
pub(crate) fn backup(
    tree: &Tree,
    path: &[u32],
    leaf: Option<f32>,
    same_player: impl Fn(usize) -> bool,
) {
    let Some(&last) = path.last() else { return };
    if let Some(v) = leaf {
        if !tree.edge(last).set_minimax(v) && path.len() > 1 {
            return;
        }
    }
    for d in (0..path.len().saturating_sub(1)).rev() {
        let Some(block) = tree.children(path[d]) else {
            return;
        };
        let Some(best) = block
            .range()
            .filter_map(|i| child_value(tree, i))
            .max_by(f32::total_cmp)
        else {
            return;
        };
        let value = if same_player(d) { best } else { 1.0 - best };
        if !tree.edge(path[d]).set_minimax(value) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::node::Children;
    use super::super::tree::ROOT;
    use super::*;

    fn block(tree: &Tree, parent: u32, count: u32) -> Children {
        assert!(tree.edge(parent).try_begin_expansion());
        let first = tree.allocate(count).unwrap();
        for k in 0..count {
            tree.edge(first + k).init(k as u16, 1.0 / count as f32);
        }
        let c = Children {
            first,
            count,
            restricted: false,
            filtered: false,
        };
        tree.edge(parent).publish(c);
        c
    }

    #[test]
    fn the_best_child_for_the_chooser_backs_up_turned_when_the_player_changes() {
        // ROOT -> a (player X) -> {b1, b2} (player Y): the player changes between a and b.
        let tree = Tree::new(16);
        let a = block(&tree, ROOT, 1);
        let b = block(&tree, a.first, 2);
        let changes = |_d: usize| false;
        backup(&tree, &[ROOT, a.first, b.first], Some(0.3), changes);
        // Y's best is 0.3, so X's value at a is 0.7.
        assert!((tree.edge(a.first).minimax().unwrap() - 0.7).abs() < 0.01);
        backup(&tree, &[ROOT, a.first, b.first + 1], Some(0.9), changes);
        assert!((tree.edge(a.first).minimax().unwrap() - 0.1).abs() < 0.01);
        // A proof outranks the value: b2 proven lost for Y (the descent that proved it ends
        // there with the exact result) leaves b1's 0.3 as Y's best.
        tree.edge(b.first + 1).set_proof(Proof::Loss);
        backup(&tree, &[ROOT, a.first, b.first + 1], Some(0.0), changes);
        assert!((tree.edge(a.first).minimax().unwrap() - 0.7).abs() < 0.01);
        // The same player twice (a turn's two stones): the value is not turned.
        let tree = Tree::new(16);
        let a = block(&tree, ROOT, 1);
        let b = block(&tree, a.first, 1);
        backup(&tree, &[ROOT, a.first, b.first], Some(0.3), |_| true);
        assert!((tree.edge(a.first).minimax().unwrap() - 0.3).abs() < 0.01);
    }
}
