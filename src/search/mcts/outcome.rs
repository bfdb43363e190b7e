//! The end of a search: the stone to play (a proven win, else the choice of
//! [`choice`](super::choice): the most visited child unless `choice_lcb` is on), the principal
//! variation, the root's children for the analysis, and the per-stone log line.

use super::choice::choose;
use super::node::Proof;
use super::proven;
use super::tree::{Tree, ROOT};
use super::SearchParams;
use crate::notation::format_gtp;
use crate::rules::{Board, Point};
use crate::search::common::{ChildAnalysis, Decision, SearchOutcome};
use std::time::Duration;

/// The outcome of a search that ran `playouts` over `tree` (root expanded); `preferred`: the
/// root child the pair verification chose over the search's own choice.
pub(super) fn outcome(
    tree: &Tree,
    params: &SearchParams,
    size: usize,
    preferred: Option<u32>,
    playouts: u64,
    reused_visits: u32,
    elapsed: Duration,
) -> SearchOutcome {
    let searched = params
        .tactics
        .solver
        .then(|| proven::root_choice(tree, params))
        .flatten();
    // A proven win outranks the verification's choice, and a proof found after it (the search
    // resumed) overrules it.
    let chosen = match (searched, preferred) {
        (Some(s), _) if tree.edge(s).proof() == Proof::Win => Some(s),
        (_, Some(p)) if tree.edge(p).proof() == Proof::Unknown => Some(p),
        (s, _) => s,
    };
    // Without a choice among open children (no solver, or every child proven lost or
    // excluded): the search's pick, outside the root plan's exclusions where it left any
    // stone (a reused root's excluded children may hold earlier visits).
    let best = chosen
        .or_else(|| {
            let children = tree.children(ROOT)?;
            let kept = children
                .range()
                .filter(|&i| tree.edge(i).proof() != Proof::Excluded);
            choose(tree, params, kept).or_else(|| choose(tree, params, children.range()))
        })
        .expect("the root is expanded");
    let pv = line_from(tree, best, size);
    // With the bound on, say when it overrode the most visited stone (experiments count these).
    if let Some(plain) = searched.filter(|_| params.choice_lcb > 0.0).and_then(|s| {
        let most_visited = SearchParams {
            choice_lcb: 0.0,
            ..params.clone()
        };
        proven::root_choice(tree, &most_visited).filter(|&m| m != s && s == best)
    }) {
        let (b, m) = (tree.edge(best).stats(), tree.edge(plain).stats());
        let name = |e: u32| format_gtp(Point::from_index(tree.edge(e).cell() as usize, size));
        tracing::info!(
            "choice: {} ({} visits, mean {:.3}) by the bound over the most visited {} ({}, {:.3})",
            name(best),
            b.visits,
            b.mean().unwrap_or(0.0),
            name(plain),
            m.visits,
            m.mean().unwrap_or(0.0),
        );
    }
    let best_edge = tree.edge(best);
    let point = Point::from_index(best_edge.cell() as usize, size);
    let decision = if best_edge.proof() == Proof::Win {
        Decision::Proven
    } else {
        Decision::Searched
    };
    SearchOutcome {
        playouts,
        reused_visits,
        root_visits: tree.edge(ROOT).stats().visits,
        win_rate: best_edge.stats().mean(),
        pv,
        nodes: tree.len() as u64,
        ..SearchOutcome::unsearched(point, decision, elapsed)
    }
}

/// The most visited line from `edge` on (`edge` first), up to 16 stones of visited edges.
fn line_from(tree: &Tree, edge: u32, size: usize) -> Vec<Point> {
    let mut pv = Vec::new();
    let mut node = Some(edge);
    while let Some(e) = node {
        if pv.len() >= 16 || tree.edge(e).stats().visits == 0 {
            break;
        }
        pv.push(Point::from_index(tree.edge(e).cell() as usize, size));
        node = best_child(tree, e);
    }
    pv
}

/// The root's children with their priors, visits, win rates and lines.
pub(super) fn root_children(tree: &Tree, size: usize) -> Vec<ChildAnalysis> {
    let Some(c) = tree.children(ROOT) else {
        return Vec::new();
    };
    c.range()
        .map(|i| {
            let e = tree.edge(i);
            ChildAnalysis {
                point: Point::from_index(e.cell() as usize, size),
                prior: e.prior(),
                visits: e.stats().visits,
                win_rate: e.stats().mean(),
                pv: line_from(tree, i, size),
            }
        })
        .collect()
}

/// Reports `children` as proven lost (a root searched without proofs, `params.resist_lost`):
/// win rate 0 wherever one was known; the visits keep the search's ranking.
pub(super) fn report_lost(children: &mut [ChildAnalysis]) {
    for child in children {
        child.win_rate = child.win_rate.map(|_| 0.0);
    }
}

/// The most visited child of `edge` (ties: higher mean, then prior order).
fn best_child(tree: &Tree, edge: u32) -> Option<u32> {
    let c = tree.children(edge)?;
    let key = |i: u32| {
        let s = tree.edge(i).stats();
        (s.visits, s.mean_key())
    };
    let mut best = c.first;
    for i in c.range() {
        if key(i) > key(best) {
            best = i;
        }
    }
    Some(best)
}

pub(super) fn log_summary(board: &Board, o: &SearchOutcome, budget: Option<Duration>) {
    let pv: Vec<String> = o.pv.iter().map(|&p| format_gtp(p)).collect();
    tracing::info!(
        "stone {} {} {}: {:?}, {:.3} s of {}, {} playouts ({:.0}/s, {} reused), win {}, \
         nodes {}, pv {}",
        board.stone_count() + 1,
        board.to_move(),
        format_gtp(o.best),
        o.decision,
        o.elapsed.as_secs_f64(),
        budget.map_or("-".to_string(), |b| format!("{:.3} s", b.as_secs_f64())),
        o.playouts,
        o.playouts_per_second(),
        o.reused_visits,
        o.win_rate
            .map_or("-".to_string(), |w| format!("{:.1}%", 100.0 * w)),
        o.nodes,
        pv.join(" ")
    );
}

#[cfg(test)]
mod tests {
    use super::super::select::tests::tree_with;
    use super::*;

    #[test]
    fn without_an_open_choice_the_stone_is_taken_outside_the_exclusions() {
        // A reused root: the most visited child lies outside the root plan's zone.
        let (tree, c) = tree_with(&[(0.5, 900, 900), (0.3, 40, 40), (0.2, 60, 60)]);
        tree.edge(c.first).set_proof(Proof::Excluded);
        let no_solver = SearchParams {
            tactics: crate::search::common::SolverParams {
                solver: false,
                ..Default::default()
            },
            ..SearchParams::default()
        };
        let o = outcome(&tree, &no_solver, 19, None, 0, 0, Duration::ZERO);
        assert_eq!(o.best, Point::from_index(2, 19));
        // Every child proven lost or excluded: the most visited of the lost ones.
        tree.edge(c.first + 1).set_proof(Proof::Loss);
        tree.edge(c.first + 2).set_proof(Proof::Loss);
        let o = outcome(
            &tree,
            &SearchParams::default(),
            19,
            None,
            0,
            0,
            Duration::ZERO,
        );
        assert_eq!(o.best, Point::from_index(2, 19));
        // Everything excluded: the most visited still.
        for k in 1..3 {
            tree.edge(c.first + k).set_proof(Proof::Excluded);
        }
        let o = outcome(&tree, &no_solver, 19, None, 0, 0, Duration::ZERO);
        assert_eq!(o.best, Point::from_index(0, 19));
    }
}
