//! Proven edges in the tree (MCTS-solver, Winands et al. 2008): an edge is marked won or lost
//! for the player who placed it (a six, or a proof of the in-tree tactics), and [`propagate`]
//! backs the marks up: a node is won when one child wins for the player to choose, lost when
//! every child of a complete set loses. Descents stop at proven edges and back up the proven
//! result ([`proven_winner`]); selection takes a proven win and skips proven losses, and the
//! final choice does the same ([`root_choice`]).

use super::choice::choose;
use super::node::{Children, Proof};
use super::tree::{Tree, ROOT};
use super::SearchParams;
use crate::rules::{Board, Color};

/// The winner when the descent reaches a proven edge placed by `mover`.
pub(crate) fn proven_winner(proof: Proof, mover: Color) -> Option<Color> {
    match proof {
        Proof::Win => Some(mover),
        Proof::Loss => Some(mover.opponent()),
        _ => None,
    }
}

/// Backs proofs up `path` (edges from the root; the last one may just have been proven).
/// `root_len`: stones on the board at the root; `area`: cells of the board. The root itself is
/// never marked.
pub(crate) fn propagate(tree: &Tree, path: &[u32], root_len: usize, area: usize) {
    // Edge at depth d holds stone number root_len + d - 1 (from 0).
    let mover = |d: usize| Board::color_of_stone(root_len + d - 1);
    for d in (2..path.len()).rev() {
        let child = tree.edge(path[d]);
        let parent = tree.edge(path[d - 1]);
        let chooser = mover(d);
        let same = chooser == mover(d - 1);
        let for_chooser = match child.proof() {
            Proof::Win => true,
            Proof::Loss => {
                let Some(block) = tree.children(path[d - 1]) else {
                    return;
                };
                let all_lost = block.range().all(|i| tree.edge(i).proof() == Proof::Loss);
                if !all_lost || !complete(tree, path, d - 1, block, root_len, area) {
                    return;
                }
                false
            }
            _ => return,
        };
        let proof = if for_chooser == same {
            Proof::Win
        } else {
            Proof::Loss
        };
        if parent.proof() == proof {
            return;
        }
        parent.set_proof(proof);
    }
}

/// Whether the children `block` of the node at `path[d]` stand for every stone there: a forced
/// set, or every empty cell (a canonical-order block: with its earlier siblings, below a parent
/// whose block has every empty cell, so every pair is covered under one order or the other).
fn complete(
    tree: &Tree,
    path: &[u32],
    d: usize,
    block: Children,
    root_len: usize,
    area: usize,
) -> bool {
    let empties = |depth: usize| area.saturating_sub(root_len + depth);
    if block.restricted || block.count as usize >= empties(d) {
        return true;
    }
    if !block.filtered || d == 0 {
        return false;
    }
    let Some(parent) = tree.children(path[d - 1]) else {
        return false;
    };
    let earlier = (path[d] - parent.first) as usize;
    parent.count as usize >= empties(d - 1) && block.count as usize + earlier >= empties(d)
}

/// The root child to play: a proven win, else the choice ([`choose`]) among those not proven lost
/// or excluded; `None` when every child is lost or excluded.
pub(crate) fn root_choice(tree: &Tree, params: &SearchParams) -> Option<u32> {
    let children = tree.children(ROOT)?;
    if let Some(win) = children
        .range()
        .find(|&i| tree.edge(i).proof() == Proof::Win)
    {
        return Some(win);
    }
    choose(
        tree,
        params,
        children
            .range()
            .filter(|&i| matches!(tree.edge(i).proof(), Proof::Unknown)),
    )
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::node::Stats;
    use super::*;

    /// Gives `parent` the children `cells` (prior 0.5, no visits), published.
    pub(in super::super) fn block(
        tree: &Tree,
        parent: u32,
        cells: &[u16],
        restricted: bool,
    ) -> Children {
        assert!(tree.edge(parent).try_begin_expansion());
        let first = tree.allocate(cells.len() as u32).unwrap();
        for (k, &c) in cells.iter().enumerate() {
            tree.edge(first + k as u32).init(c, 0.5);
        }
        let children = Children {
            first,
            count: cells.len() as u32,
            restricted,
            filtered: false,
        };
        tree.edge(parent).publish(children);
        children
    }

    #[test]
    fn proofs_back_up_as_wins_at_once_and_losses_when_every_child_loses() {
        // Root after 3 stones (Black to move, first stone). Depth 1: Black's first stones;
        // depth 2: Black's second stones (same player); depth 3: White's first stones.
        let tree = Tree::new(64);
        let root_len = 3;
        let area = 361;
        let a = block(&tree, ROOT, &[10, 11], false);
        let b = block(&tree, a.first, &[20, 21], true);
        let c = block(&tree, b.first, &[30, 31], true);
        // White's first stone 30 wins for White: the node after Black's pair is won by White,
        // so Black's second stone 20 (its edge) loses for Black; its sibling 21 is open.
        tree.edge(c.first).set_proof(Proof::Win);
        let path = [ROOT, a.first, b.first, c.first];
        propagate(&tree, &path, root_len, area);
        assert_eq!(tree.edge(b.first).proof(), Proof::Loss);
        assert_eq!(tree.edge(a.first).proof(), Proof::Unknown);
        // Once 21 loses too, the forced set is all lost: Black's first stone 10 loses.
        tree.edge(b.first + 1).set_proof(Proof::Loss);
        propagate(&tree, &[ROOT, a.first, b.first + 1], root_len, area);
        assert_eq!(tree.edge(a.first).proof(), Proof::Loss);
        // A free (incomplete) set of first stones never proves a loss, and the root is never
        // marked.
        tree.edge(a.first + 1).set_proof(Proof::Loss);
        propagate(&tree, &[ROOT, a.first + 1], root_len, area);
        assert_eq!(tree.edge(ROOT).proof(), Proof::Unknown);
        assert_eq!(root_choice(&tree, &SearchParams::default()), None);
        tree.edge(a.first + 1).set_proof(Proof::Unknown);
        tree.edge(a.first + 1)
            .set_stats(Stats { visits: 1, wins: 0 });
        assert_eq!(
            root_choice(&tree, &SearchParams::default()),
            Some(a.first + 1)
        );
    }
}
