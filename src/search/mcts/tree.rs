//! The node arena: one preallocated slab of edges shared by all search threads.
//!
//! Edge 0 is the root. Children blocks are bump-allocated with one atomic add and never freed
//! during a search (Fuego's lock-free scheme, docs/search.md, threads). Between searches the tree
//! is re-rooted in place: the kept subtree slides to the front of the slab, the rest is dropped.
//! The slab is requested zeroed, so the operating system only commits the pages the tree touches,
//! however large the cap.

use super::node::{Children, Edge, Expansion};
use std::alloc::{alloc_zeroed, handle_alloc_error, Layout};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

pub(crate) const ROOT: u32 = 0;

pub(crate) struct Tree {
    edges: Box<[Edge]>,
    /// Next free slot (may run past the capacity after a failed allocation).
    used: AtomicUsize,
    /// Set when an allocation failed: the search stops expanding.
    full: AtomicBool,
}

/// The fewest edges [`zeroed_edges`] falls back to when a larger slab is refused.
const MIN_FALLBACK_EDGES: usize = 1 << 20;

/// A slab of `n` edges in zeroed memory; where the system refuses that much address space
/// (a strict overcommit policy, a memory limit), the largest half, quarter, ... of it it
/// grants, down to [`MIN_FALLBACK_EDGES`].
fn zeroed_edges(n: usize) -> Box<[Edge]> {
    let mut edges = n;
    loop {
        let layout = Layout::array::<Edge>(edges).expect("edge slab size fits in memory");
        // SAFETY: `Edge` holds only atomic integers, for which all-zero bytes are a valid value
        // (the same as `Edge::default()`); the pointer comes from the global allocator with
        // the layout of `[Edge; edges]`, which is what `Box<[Edge]>` frees it with.
        let ptr = unsafe { alloc_zeroed(layout) as *mut Edge };
        if !ptr.is_null() {
            if edges < n {
                tracing::warn!("MCTS tree: room for {edges} edges, not the {n} asked for");
            }
            // SAFETY: as above; `ptr` holds `edges` zeroed edges.
            return unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, edges)) };
        }
        if edges <= MIN_FALLBACK_EDGES {
            handle_alloc_error(layout);
        }
        edges = (edges / 2).max(MIN_FALLBACK_EDGES);
    }
}

impl Tree {
    /// A tree with room for `capacity` edges (the root included).
    pub fn new(capacity: usize) -> Tree {
        let tree = Tree {
            edges: zeroed_edges(capacity.max(2)),
            used: AtomicUsize::new(1),
            full: AtomicBool::new(false),
        };
        tree.clear();
        tree
    }

    pub fn capacity(&self) -> usize {
        self.edges.len()
    }

    /// Edges in use, the root included.
    pub fn len(&self) -> usize {
        self.used.load(Ordering::Relaxed).min(self.capacity())
    }

    pub fn is_full(&self) -> bool {
        self.full.load(Ordering::Relaxed)
    }

    /// Drops everything: a lone, unvisited, unexpanded root.
    pub fn clear(&self) {
        self.edges[ROOT as usize].init(u16::MAX, 1.0);
        self.used.store(1, Ordering::Relaxed);
        self.full.store(false, Ordering::Relaxed);
    }

    /// Drops the root's subtree but keeps the root's own statistics.
    pub fn prune_to_root(&mut self) {
        self.edges[ROOT as usize].clear_children();
        self.used.store(1, Ordering::Relaxed);
        self.full.store(false, Ordering::Relaxed);
    }

    #[inline]
    pub fn edge(&self, index: u32) -> &Edge {
        &self.edges[index as usize]
    }

    /// Reserves `count` consecutive edges; `None` (and the tree is marked full) when the cap
    /// would be passed.
    pub fn allocate(&self, count: u32) -> Option<u32> {
        if self.is_full() {
            return None;
        }
        let start = self.used.fetch_add(count as usize, Ordering::Relaxed);
        if start + count as usize > self.capacity() {
            self.full.store(true, Ordering::Relaxed);
            return None;
        }
        Some(start as u32)
    }

    /// The children block of `index`, if published.
    pub fn children(&self, index: u32) -> Option<Children> {
        match self.edge(index).expansion() {
            Expansion::Expanded(c) => Some(c),
            _ => None,
        }
    }

    /// The child of `index` whose stone is `cell`.
    pub fn find_child(&self, index: u32, cell: u16) -> Option<u32> {
        let c = self.children(index)?;
        c.range().find(|&i| self.edge(i).cell() == cell)
    }

    /// Makes edge `new_root` the root, keeping its subtree and dropping everything else.
    /// Needs exclusive access: no search may run.
    pub fn reroot(&mut self, new_root: u32) {
        if new_root != ROOT {
            self.compact(new_root, |_| true);
        }
    }

    /// Frees room in a full tree (Fuego's pruning): every edge below the root with fewer than
    /// `min_visits` visits loses its subtree and becomes a leaf again, keeping its own
    /// statistics and proof; the root keeps all its children. Returns the edges in use after.
    /// Every block may move, the root's children's too: an edge index taken before is stale
    /// after. Needs exclusive access: no search may run (the workers are stopped; `&self`, as
    /// they share the tree).
    pub fn prune(&self, min_visits: u32) -> usize {
        self.compact(ROOT, |e| e.stats().visits >= min_visits);
        self.len()
    }

    /// Slides the blocks reachable from `new_root` to the front of the slab, in address order,
    /// and makes `new_root` the root. An edge below the root for which `keep_subtree` is false
    /// is made a leaf, and its subtree is dropped.
    fn compact(&self, new_root: u32, keep_subtree: impl Fn(&Edge) -> bool) {
        // Every block kept: (old first, count, old parent edge).
        let mut blocks: Vec<(u32, u32, u32)> = Vec::new();
        let mut stack = vec![new_root];
        while let Some(e) = stack.pop() {
            let edge = self.edge(e);
            let Some(c) = self.children(e) else { continue };
            if e != new_root && !keep_subtree(edge) {
                edge.drop_children();
                continue;
            }
            blocks.push((c.first, c.count, e));
            stack.extend(c.range());
        }
        // Children blocks are allocated after the edge that owns them, so sliding the blocks
        // down in address order never overwrites a block not yet moved.
        blocks.sort_unstable_by_key(|b| b.0);
        if new_root != ROOT {
            self.edges[ROOT as usize].copy_from(&self.edges[new_root as usize]);
        }
        let mut starts = Vec::with_capacity(blocks.len());
        let mut cursor = 1u32;
        for &(first, count, _) in &blocks {
            debug_assert!(cursor <= first);
            if cursor != first {
                for k in 0..count {
                    self.edges[(cursor + k) as usize].copy_from(&self.edges[(first + k) as usize]);
                }
            }
            starts.push(cursor);
            cursor += count;
        }
        // Re-link each block to its parent edge's new place.
        for (k, &(_, count, parent_old)) in blocks.iter().enumerate() {
            let parent_new = if parent_old == new_root {
                ROOT
            } else {
                // The parent edge sits inside some moved block: the one starting at or before it.
                let j = blocks.partition_point(|b| b.0 <= parent_old) - 1;
                starts[j] + (parent_old - blocks[j].0)
            };
            let parent = &self.edges[parent_new as usize];
            let Expansion::Expanded(old) = parent.expansion() else {
                unreachable!("parents of kept blocks are expanded")
            };
            parent.publish(Children {
                first: starts[k],
                count,
                ..old
            });
        }
        self.used.store(cursor as usize, Ordering::Relaxed);
        self.full.store(false, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::super::node::Stats;
    use super::*;

    /// Builds a small tree: root -> 3 children; child 1 -> 2 children; its child 0 -> 2.
    fn build(tree: &Tree) -> (u32, u32) {
        let root = tree.edge(ROOT);
        assert!(root.try_begin_expansion());
        let a = tree.allocate(3).unwrap();
        for k in 0..3 {
            tree.edge(a + k).init(10 + k as u16, 0.3);
        }
        root.publish(Children {
            first: a,
            count: 3,
            restricted: false,
            filtered: false,
        });
        let mid = a + 1;
        let b = tree.allocate(2).unwrap();
        for k in 0..2 {
            tree.edge(b + k).init(20 + k as u16, 0.5);
            tree.edge(b + k).set_stats(Stats {
                visits: 5 + k,
                wins: 3,
            });
        }
        tree.edge(mid).publish(Children {
            first: b,
            count: 2,
            restricted: true,
            filtered: false,
        });
        // A sibling subtree that must disappear.
        let junk = tree.allocate(4).unwrap();
        for k in 0..4 {
            tree.edge(junk + k).init(99, 0.1);
        }
        tree.edge(a).publish(Children {
            first: junk,
            count: 4,
            restricted: false,
            filtered: false,
        });
        let c = tree.allocate(2).unwrap();
        for k in 0..2 {
            tree.edge(c + k).init(30 + k as u16, 0.5);
        }
        tree.edge(b).publish(Children {
            first: c,
            count: 2,
            restricted: false,
            filtered: true,
        });
        tree.edge(mid).set_stats(Stats {
            visits: 42,
            wins: 40,
        });
        (mid, b)
    }

    #[test]
    fn pruning_drops_the_subtrees_of_little_visited_edges_and_keeps_the_rest() {
        let tree = Tree::new(64);
        let (mid, _) = build(&tree);
        let root_children = tree.children(ROOT).unwrap();
        // The first child (0 visits) has a subtree of 4, and claimed a deep solve.
        assert!(tree.edge(root_children.first).claim_deep_solve());
        assert_eq!(tree.len(), 12);
        // `mid` (42 visits) keeps its block; its first child `b` (5 visits) loses its own.
        assert_eq!(tree.prune(10), 1 + 3 + 2);
        assert_eq!(
            tree.children(ROOT),
            Some(root_children),
            "the root's block, allocated first, has nothing to slide below it"
        );
        let first = root_children.first;
        assert!(tree.children(first).is_none());
        assert!(
            tree.edge(first).claim_deep_solve(),
            "a dropped subtree's deep solve may run again"
        );
        let kept = tree.children(mid).unwrap();
        assert!(kept.restricted);
        let visits: Vec<u32> = kept.range().map(|i| tree.edge(i).stats().visits).collect();
        assert_eq!(visits, vec![5, 6]);
        assert_eq!(tree.edge(mid).stats().visits, 42);
        assert!(tree.children(kept.first).is_none());
        // Every subtree under 50 visits goes: the root's children remain.
        assert_eq!(tree.prune(50), 1 + 3);
        assert!(tree.children(mid).is_none());
        // The freed room is reusable, and a pruned edge can be expanded again.
        assert!(tree.edge(mid).try_begin_expansion());
        assert!(tree.allocate(60).is_some());
        assert!(tree.allocate(1).is_none());
    }

    #[test]
    fn reroot_keeps_the_subtree_and_frees_the_rest() {
        let mut tree = Tree::new(64);
        let (mid, _) = build(&tree);
        assert_eq!(tree.len(), 12);
        tree.reroot(mid);
        assert_eq!(tree.len(), 1 + 2 + 2);
        let root = tree.edge(ROOT);
        assert_eq!(root.cell(), 11);
        assert_eq!(root.stats().visits, 42);
        let c = tree.children(ROOT).unwrap();
        assert!(c.restricted);
        let cells: Vec<u16> = c.range().map(|i| tree.edge(i).cell()).collect();
        assert_eq!(cells, vec![20, 21]);
        assert_eq!(tree.edge(c.first + 1).stats().visits, 6);
        let g = tree.children(c.first).unwrap();
        assert!(g.filtered);
        let cells: Vec<u16> = g.range().map(|i| tree.edge(i).cell()).collect();
        assert_eq!(cells, vec![30, 31]);
        assert_eq!(tree.find_child(c.first, 31), Some(g.first + 1));
        // The freed room is reusable.
        assert!(tree.allocate(59).is_some());
        assert!(tree.allocate(1).is_none());
        assert!(tree.is_full());
    }
}
