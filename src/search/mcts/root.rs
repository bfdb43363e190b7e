//! Root preparation between searches: tree reuse by re-rooting at the stones actually played,
//! and a full set of children for a reused root whose children were cut: a second stone's by the
//! pair order or by `max_children`, and with `widen_reused_root` a first stone's.

use super::eval_prior::prior_evaluator;
use super::expand::{child_list, ExpandScratch};
use super::node::Children;
use super::tree::ROOT;
use super::Search;
use crate::rules::{Board, Point, Stage};
use crate::search::common::{PositionFactory, SearchPosition};

impl<F: PositionFactory> Search<F> {
    /// Re-roots the tree at `board` when it extends the previous root by stones that are in
    /// the tree; otherwise empties it. Returns the root visits kept.
    pub(super) fn prepare_root(
        &mut self,
        board: &Board,
        root_pos: &F::Position,
        scratch: &mut ExpandScratch,
    ) -> u32 {
        let Some(found) = self.find_reusable_root(board) else {
            self.tree.clear();
            return 0;
        };
        let (node, parent_block) = found;
        if let Some(Children {
            filtered,
            restricted,
            ..
        }) = self.tree.children(node)
        {
            // A second stone (its siblings the same side's first stones) must offer every
            // second stone: its children may have been cut by the pair order (`filtered`) or, if
            // it was expanded below the turn then being chosen, by `max_children`. With
            // `widen_reused_root` a first-stone root, expanded three stones down, is widened too.
            let second_stone = parent_block.is_some() && board.stage() == Stage::Second;
            let must = second_stone && (filtered || !restricted);
            let widen = self.params.widen_reused_root && !restricted;
            // The other order of a pair exists only for a second stone.
            let mirror = parent_block.filter(|_| second_stone);
            let grafted =
                (must || widen) && self.regraft_root(node, mirror, root_pos, !filtered, scratch);
            if must && !grafted {
                // No room to graft: keep the root's statistics, regrow its subtree. (A widening
                // without room keeps the reused children as they are.)
                self.tree.reroot(node);
                self.tree.prune_to_root();
                return self.tree.edge(ROOT).stats().visits;
            }
        }
        self.tree.reroot(node);
        self.tree.edge(ROOT).stats().visits
    }

    /// The edge of the tree that stands for `board`, and the children block it sits in.
    fn find_reusable_root(&self, board: &Board) -> Option<(u32, Option<Children>)> {
        if !self.params.reuse_tree {
            return None;
        }
        let (size, history) = self.root_history.as_ref()?;
        if *size != board.size() || !board.history().starts_with(history) {
            return None;
        }
        let new = &board.history()[history.len()..];
        let mut node = ROOT;
        let mut parent_block = None;
        let mut i = 0;
        while i < new.len() {
            let n = history.len() + i;
            let cell = |p: Point| p.index(*size) as u16;
            let pair_ahead = i + 1 < new.len() && Board::stage_of_stone(n + 1) == Stage::Second;
            if pair_ahead {
                // Either order of a whole turn leads to the same position.
                let (a, b) = (cell(new[i]), cell(new[i + 1]));
                let via = |x: u16, y: u16| {
                    let mid = self.tree.find_child(node, x)?;
                    let end = self.tree.find_child(mid, y)?;
                    Some((end, self.tree.children(mid)))
                };
                let (end, block) = via(a, b).or_else(|| via(b, a))?;
                node = end;
                parent_block = block;
                i += 2;
            } else {
                parent_block = self.tree.children(node);
                node = self.tree.find_child(node, cell(new[i]))?;
                i += 1;
            }
        }
        Some((node, parent_block))
    }

    /// Debug check: every edge's stone is empty where it would be played.
    #[cfg(debug_assertions)]
    pub(super) fn check_tree(&self, root_pos: &F::Position) {
        fn walk<P: SearchPosition>(tree: &super::tree::Tree, edge: u32, pos: &mut P, depth: usize) {
            let Some(c) = tree.children(edge) else { return };
            for i in c.range() {
                let p = Point::from_index(tree.edge(i).cell() as usize, pos.board().size());
                assert!(
                    pos.board().is_empty_at(p),
                    "edge {i} at depth {depth} plays occupied {p:?} after {:?}",
                    pos.board().history()
                );
                if depth < 6 && tree.children(i).is_some() {
                    let mut next = pos.clone();
                    next.play(p);
                    walk(tree, i, &mut next, depth + 1);
                }
            }
        }
        walk(&self.tree, ROOT, &mut root_pos.clone(), 0);
    }

    /// Gives `node`, the new root, its full set of children, keeping the statistics and
    /// subtrees of those it had; for a second stone (child of the block `parent`) also those of
    /// the other order where that was searched. With `only_if_wider`, a node that already has
    /// every child is left as it is. False when the tree has no room.
    fn regraft_root(
        &mut self,
        node: u32,
        parent: Option<Children>,
        root_pos: &F::Position,
        only_if_wider: bool,
        scratch: &mut ExpandScratch,
    ) -> bool {
        let size = root_pos.board().size();
        let first_stone = self.tree.edge(node).cell();
        let evaluator = self.evaluator.clone();
        child_list(
            root_pos,
            &self.params,
            &[],
            true,
            None,
            prior_evaluator(&self.params, evaluator.as_deref()),
            scratch,
        );
        let count = scratch.list.len() as u32;
        let had = self.tree.children(node).map_or(0, |c| c.count);
        if only_if_wider && count <= had {
            return true;
        }
        let Some(first) = self.tree.allocate(count) else {
            return false;
        };
        let set_restricted = self
            .tree
            .children(node)
            .map(|c| c.restricted)
            .unwrap_or(false);
        for (k, &(p, prior)) in scratch.list.iter().enumerate() {
            let cell = p.index(size) as u16;
            let target = self.tree.edge(first + k as u32);
            target.init(cell, prior);
            let same = self.tree.find_child(node, cell);
            let mirrored = || {
                let sibling = parent?
                    .range()
                    .find(|&i| self.tree.edge(i).cell() == cell)?;
                self.tree.find_child(sibling, first_stone)
            };
            if let Some(source) = same.or_else(mirrored) {
                target.graft_from(self.tree.edge(source));
            }
        }
        self.tree.edge(node).publish(Children {
            first,
            count,
            restricted: set_restricted,
            filtered: false,
        });
        true
    }
}
