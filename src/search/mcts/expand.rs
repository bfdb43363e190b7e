//! Which children a node gets (docs/search.md, expansion): the winning stones when the side to move
//! can complete a six this turn; otherwise the blocking stones when the opponent threatens one;
//! otherwise, given a defence zone (the opponent has a VCDT if we passed; the in-tree tactics
//! find it), its stones; otherwise the position's candidates. Forced sets lose nothing: a winning pair can
//! always be played in the order "winning stone first", and every turn that stops a threat contains
//! a blocking stone that can go first.
//!
//! Canonical pair order: at a second-stone node whose parent offered free candidates, a second
//! stone that the parent ranked before the first stone is left out, since the same pair is
//! searched in the other order under that sibling.

use super::eval_prior::reweight;
use super::node::{Children, Edge};
use super::tree::Tree;
use super::{OpeningNear, PairOrder, SearchParams};
use crate::eval::Evaluator;
use crate::patterns::CellSet;
use crate::policy::FeatureBoard;
use crate::rules::{Board, Color, Point, Stage};
use crate::search::common::SearchPosition;

/// Per-thread buffers.
#[derive(Default)]
pub(crate) struct ExpandScratch {
    candidates: Vec<(Point, f32)>,
    points: Vec<Point>,
    /// `excluded[cell]`: left out by the pair order (reset after every use).
    excluded: Vec<bool>,
    pub list: Vec<(Point, f32)>,
    /// The evaluator's prior values candidates on this copy of the position's features.
    probe: Option<FeatureBoard>,
}

/// The children of a node, sorted by prior (highest first), priors summing to 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ChildSet {
    pub restricted: bool,
    pub filtered: bool,
}

/// Fills `scratch.list` with the children of the position `pos`. `earlier_siblings` are the
/// stones ranked before the pending first stone by an unrestricted parent (canonical order).
/// `full_width`: keep every candidate even with `max_children` (`search.full_width_plies`).
/// `zone`: the empty cells of a defence zone, the children when no six is won or blocked.
/// `evaluator`: its factor on the free choices' priors (`eval_prior.rs`).
pub(crate) fn child_list<P: SearchPosition>(
    pos: &P,
    params: &SearchParams,
    earlier_siblings: &[Point],
    full_width: bool,
    zone: Option<&CellSet>,
    evaluator: Option<&Evaluator>,
    scratch: &mut ExpandScratch,
) -> ChildSet {
    let size = pos.board().size();
    pos.candidates(&mut scratch.candidates);
    pos.winning_points(&mut scratch.points);
    if scratch.points.is_empty() {
        pos.blocking_points(&mut scratch.points);
    }
    if let Some(zone) = zone.filter(|_| scratch.points.is_empty()) {
        scratch.points.extend(zone.points(size));
    }
    let list = &mut scratch.list;
    list.clear();
    let mut set = ChildSet {
        restricted: false,
        filtered: false,
    };
    if !scratch.points.is_empty() {
        set.restricted = true;
        let floor = scratch
            .candidates
            .iter()
            .map(|c| c.1)
            .fold(f32::INFINITY, f32::min);
        let floor = if floor.is_finite() { floor } else { 1.0 };
        for &p in &scratch.points {
            let w = scratch
                .candidates
                .iter()
                .find(|c| c.0 == p)
                .map_or(floor, |c| c.1);
            list.push((p, w));
        }
    } else {
        if scratch.excluded.len() < size * size {
            scratch.excluded.resize(size * size, false);
        }
        for &q in earlier_siblings {
            scratch.excluded[q.index(size)] = true;
        }
        for &(p, w) in &scratch.candidates {
            if scratch.excluded[p.index(size)] {
                set.filtered = true;
            } else {
                list.push((p, w));
            }
        }
        for &q in earlier_siblings {
            scratch.excluded[q.index(size)] = false;
        }
        if list.is_empty() {
            // Everything was a duplicate (tiny boards): keep them all rather than none.
            list.extend_from_slice(&scratch.candidates);
            set.filtered = false;
        }
        keep_near_stones(pos.board(), params, list);
    }
    list.retain(|c| c.1 > 0.0 && c.1.is_finite());
    if list.is_empty() {
        list.extend(pos.board().legal_points().map(|p| (p, 1.0)));
    }
    if let Some(evaluator) = evaluator.filter(|_| !set.restricted) {
        reweight(
            pos,
            evaluator,
            &mut scratch.probe,
            params.eval_prior_weight,
            params.eval_prior_candidates as usize,
            list,
        );
    }
    // A total order (points are distinct), so the faster unstable sort gives the same list, and
    // a cut list needs only its kept part sorted.
    let order = |a: &(Point, f32), b: &(Point, f32)| {
        b.1.total_cmp(&a.1)
            .then_with(|| a.0.index(size).cmp(&b.0.index(size)))
    };
    let keep = params.max_children as usize;
    if !set.restricted && !full_width && keep > 0 && list.len() > keep {
        list.select_nth_unstable_by(keep - 1, order);
        list.truncate(keep);
    }
    list.sort_unstable_by(order);
    let total: f32 = list.iter().map(|c| c.1).sum();
    for c in list.iter_mut() {
        c.1 /= total;
    }
    set
}

/// In the opening (`opening_stones`), keeps the free candidates within `opening_reach` of a
/// stone, unless none is.
fn keep_near_stones(board: &Board, params: &SearchParams, list: &mut Vec<(Point, f32)>) {
    let stones = board.history();
    if stones.is_empty() || stones.len() >= params.opening_stones as usize {
        return;
    }
    let mover = board.to_move();
    let near = |p: Point, own_only: bool| {
        stones.iter().any(|&q| {
            (!own_only || board.get(q) == Some(mover)) && p.distance(q) <= params.opening_reach
        })
    };
    let own_only = match params.opening_near {
        OpeningNear::Stones => false,
        OpeningNear::Own => true,
        OpeningNear::BlackOwn => mover == Color::Black,
        OpeningNear::Black if mover == Color::White => return,
        OpeningNear::Black => true,
    };
    if own_only && list.iter().any(|c| near(c.0, true)) {
        list.retain(|c| near(c.0, true));
    } else if list.iter().any(|c| near(c.0, false)) {
        list.retain(|c| near(c.0, false));
    }
}

/// The stones a canonical pair order leaves out below `edge`: its siblings ranked before it,
/// when the position is at a second stone and the parent block was a free choice.
pub(crate) fn earlier_siblings(
    tree: &Tree,
    params: &SearchParams,
    stage: Stage,
    edge: u32,
    parent_block: Option<Children>,
    size: usize,
    out: &mut Vec<Point>,
) {
    out.clear();
    let Some(block) = parent_block else { return };
    if params.pair_order != PairOrder::Canonical || stage != Stage::Second || block.restricted {
        return;
    }
    for index in block.first..edge {
        out.push(Point::from_index(tree.edge(index).cell() as usize, size));
    }
}

/// What shapes a node's children besides the position: the stones a canonical pair order
/// leaves out ([`earlier_siblings`]), a defence zone (see [`child_list`]), and the evaluator
/// whose factor the priors take within `eval_prior_plies` of the root (`eval_prior.rs`).
#[derive(Clone, Copy, Default)]
pub(crate) struct Narrowing<'a> {
    pub earlier: &'a [Point],
    pub zone: Option<&'a CellSet>,
    pub prior_evaluator: Option<&'a Evaluator>,
}

/// Expands leaf `edge`, `depth` stones below the root, at position `pos`. False when another
/// thread holds the claim or the tree is full (the caller then runs a playout from the leaf).
pub(crate) fn expand<P: SearchPosition>(
    tree: &Tree,
    params: &SearchParams,
    edge: u32,
    depth: usize,
    pos: &P,
    narrowing: Narrowing,
    scratch: &mut ExpandScratch,
) -> bool {
    let node = tree.edge(edge);
    if !node.try_begin_expansion() {
        return false;
    }
    // Within `full_width_plies` of the root (by default the turn being chosen) every candidate
    // is kept, so that the stones actually played can be any the knowledge allows; deeper
    // nodes, where nearly all the edges are, are cut.
    let full_width = depth < params.full_width_plies as usize;
    let evaluator = narrowing
        .prior_evaluator
        .filter(|_| depth < params.eval_prior_plies as usize);
    let set = child_list(
        pos,
        params,
        narrowing.earlier,
        full_width,
        narrowing.zone,
        evaluator,
        scratch,
    );
    let count = scratch.list.len() as u32;
    let Some(first) = tree.allocate(count) else {
        node.abort_expansion();
        return false;
    };
    let size = pos.board().size();
    for (k, &(p, prior)) in scratch.list.iter().enumerate() {
        tree.edge(first + k as u32)
            .init(p.index(size) as u16, prior);
    }
    node.publish(Children {
        first,
        count,
        restricted: set.restricted,
        filtered: set.filtered,
    });
    true
}

/// Narrows the free children of the expanded edge `edge` to a defence zone found after its
/// expansion (the in-tree tactics' deep solve): a new restricted block of the zone's stones,
/// which takes over the statistics of the children it keeps; the old block stays in the slab,
/// unused. A kept child's subtree is dropped when it was built under the old pair order (its
/// second stones left out siblings that may now be gone). Visited children go first, so the
/// visited ones stay a prefix of the block (`select.rs`). False when the children were
/// restricted already, the tree is full or another thread replaced the block first.
pub(crate) fn narrow_to_zone<P: SearchPosition>(
    tree: &Tree,
    params: &SearchParams,
    edge: u32,
    pos: &P,
    zone: &CellSet,
    scratch: &mut ExpandScratch,
) -> bool {
    let Some(old) = tree.children(edge) else {
        return false;
    };
    if old.restricted {
        return false;
    }
    let set = child_list(pos, params, &[], false, Some(zone), None, scratch);
    if !set.restricted {
        return false;
    }
    let size = pos.board().size();
    let old_child = |p: Point| -> Option<&Edge> {
        let cell = p.index(size) as u16;
        old.range().map(|i| tree.edge(i)).find(|e| e.cell() == cell)
    };
    let visited = |p: Point| old_child(p).is_some_and(|e| e.stats().visits > 0);
    // A stable sort keeps the prior order within each part.
    scratch.list.sort_by_key(|c| !visited(c.0));
    let count = scratch.list.len() as u32;
    let Some(first) = tree.allocate(count) else {
        return false;
    };
    for (k, &(p, prior)) in scratch.list.iter().enumerate() {
        let new = tree.edge(first + k as u32);
        match old_child(p) {
            Some(o) => new.take_over(o, prior),
            None => new.init(p.index(size) as u16, prior),
        }
    }
    tree.edge(edge).replace_children(
        old,
        Children {
            first,
            count,
            restricted: true,
            filtered: false,
        },
    )
}
