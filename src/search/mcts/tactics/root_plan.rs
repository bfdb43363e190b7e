//! The root plan in the tree: the plan of the shared layer (`common::root_plan`: a stone to play
//! at once, the stones allowed, or a lost position's zone), made with the root's solver, and its
//! marks on the root's children ([`mark_root`]).

use super::super::node::Proof;
use super::super::tree::{Tree, ROOT};
use super::super::SearchParams;
use crate::patterns::CellSet;
use crate::rules::{Board, Point};
use crate::search::common::{min_cap, root_plan, Limits, RootPlan, ThinkObserver};
use crate::tactics::{Solver, StopSignal};
use std::sync::Arc;

/// The root plan for `board` (`policy`: the root's candidates and their priors), when the
/// solver is on and the search was not stopped; the solver stops when `limits.observer` asks.
pub(super) fn plan(
    solver: &mut Solver,
    board: &Board,
    params: &SearchParams,
    limits: &Limits,
    policy: &[(Point, f32)],
) -> RootPlan {
    // An interrupted search skips the root's solves too: it answers at once; one interrupted
    // during them gives them up.
    solver.stop = limits
        .observer
        .clone()
        .map(|o| Arc::new(ObserverStop(o)) as _);
    if params.tactics.solver && !limits.stopped() {
        let playouts = min_cap(limits.playouts, params.playout_limit());
        let mut order = policy.to_vec();
        order.sort_by(|a, b| b.1.total_cmp(&a.1));
        let order: Vec<Point> = order.into_iter().map(|(p, _)| p).collect();
        root_plan(
            solver,
            board,
            &params.tactics,
            limits.time,
            playouts,
            Some(&order),
        )
    } else {
        RootPlan::Free
    }
}

/// Marks the root's children for `plan`, after clearing the exclusions of an earlier search:
/// the stones it allows, the lost ones proven so; with `resist` (a lost position searched
/// without proofs), the zone's stones alone.
pub(super) fn mark_root(tree: &Tree, plan: &RootPlan, resist: Option<CellSet>) {
    clear_exclusions(tree);
    match (plan, resist) {
        (RootPlan::Restrict { allowed, lost }, _) => restrict_root(tree, allowed, lost),
        (_, Some(zone)) if !zone.is_empty() => restrict_root(tree, &zone, &CellSet::new()),
        (RootPlan::Lost { zone, lost }, None) => restrict_root(tree, zone, lost),
        _ => {}
    }
}

/// Marks the root's children for a [`RootPlan::Restrict`]: cells in `lost` as proven losses,
/// other cells outside `allowed` as excluded. Marks nothing when no child would remain.
fn restrict_root(tree: &Tree, allowed: &CellSet, lost: &CellSet) {
    let Some(children) = tree.children(ROOT) else {
        return;
    };
    let open = children.range().any(|i| {
        let cell = tree.edge(i).cell() as usize;
        allowed.contains(cell) && !lost.contains(cell)
    });
    for i in children.range() {
        let edge = tree.edge(i);
        let cell = edge.cell() as usize;
        if lost.contains(cell) {
            edge.set_proof(Proof::Loss);
        } else if open && !allowed.contains(cell) && edge.proof() == Proof::Unknown {
            edge.set_proof(Proof::Excluded);
        }
    }
}

/// Clears exclusion marks left on the root's children by an earlier search.
fn clear_exclusions(tree: &Tree) {
    if let Some(children) = tree.children(ROOT) {
        for i in children.range() {
            if tree.edge(i).proof() == Proof::Excluded {
                tree.edge(i).set_proof(Proof::Unknown);
            }
        }
    }
}

/// The caller's observer as the solver's stop signal.
struct ObserverStop(Arc<dyn ThinkObserver>);

impl StopSignal for ObserverStop {
    fn stop_requested(&self) -> bool {
        self.0.stop_requested()
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::rules::Color;
    use crate::search::common::test_support::SimpleFactory;
    use crate::search::common::SolverParams;
    use crate::search::{Decision, Search};
    use crate::tactics::suite::replay;
    use crate::tactics::{SolverLimits, ThreatBoard};

    /// Settings of 300 playouts, the solver on or off.
    pub(in super::super) fn params(solver: bool) -> SearchParams {
        SearchParams {
            playouts: 300,
            max_nodes: 1 << 18,
            tactics: SolverParams {
                solver,
                ..SolverParams::default()
            },
            ..SearchParams::default()
        }
    }

    #[test]
    fn root_plays_a_proven_threat_sequence() {
        // Black's open three on row 10 and two on column o: n10 n12 then a column four wins
        // (src/tactics/vcdt.txt, hand-row-then-column), though no six is possible this turn.
        let b = replay("k10 a19-h19 l10-m10 o19-a12 n13-o13 s12-s5").unwrap();
        let o = Search::new(params(true), SimpleFactory)
            .think(&b, &Limits::default())
            .unwrap();
        assert_eq!(o.decision, Decision::Proven);
        assert_eq!(o.playouts, 0);
        let plain = Search::new(params(false), SimpleFactory)
            .think(&b, &Limits::default())
            .unwrap();
        assert_eq!(plain.decision, Decision::Searched);
    }

    #[test]
    fn last_stone_of_a_turn_takes_the_only_defence() {
        // Black's threes on row 10 and on the diagonal f6-h8 cross at j10, the one stone that
        // stops Black's threat sequence (hand-crossing-threes); White already placed s19.
        let b = replay("k10 a19-h19 l10-m10 o19-a12 f6-g7 s12-s5 h8-s1 s19").unwrap();
        let j10 = Point::new(9, 9);
        let mut s = Search::new(params(true), SimpleFactory);
        let o = s.think(&b, &Limits::default()).unwrap();
        assert_eq!(o.best, j10, "{o:?}");
        // The plan: j10 allowed, the zone's other cells proven lost.
        let mut solver = Solver::new(SolverLimits::default());
        let RootPlan::Restrict { allowed, lost } =
            root_plan(&mut solver, &b, &SolverParams::default(), None, None, None)
        else {
            panic!("White faces a threat sequence");
        };
        assert!(allowed.contains(j10.index(19)) && !lost.is_empty());
        assert!(!lost.contains(j10.index(19)));
    }

    /// `board` after the whole turn the root plays at once, stone by stone (the second stone
    /// found again by the root's pre-pass); panics when either stone is left to the search.
    fn root_turn(solver: &mut Solver, board: &Board, params: &SolverParams) -> Board {
        let mut after = board.clone();
        for stone in ["first", "second"] {
            let RootPlan::Play(p) = root_plan(solver, &after, params, None, None, None) else {
                panic!("the turn's {stone} stone is not played at once");
            };
            after.play(p).unwrap();
        }
        after
    }

    #[test]
    fn root_plays_its_own_single_threat_win_stone_by_stone() {
        // Game 9 of experiments/cloudict/liuzi-vs-cloudict-d4-deepzone.jsonl, Black to move:
        // no VCDT, but a four plus a building stone wins (tactics/single_threat.rs).
        let b = replay("l10 h10-j11 k11-j12 i13-h13").unwrap();
        let params = SolverParams {
            solver_single_threat_share: 0.5,
            ..SolverParams::default()
        };
        let mut solver = Solver::new(SolverLimits::default());
        let after = root_turn(&mut solver, &b, &params);
        // The turn makes exactly one threat.
        assert_eq!(ThreatBoard::from_board(&after).threats(Color::Black), 1);
        // Off, the root leaves the choice to the search.
        let mut solver = Solver::new(SolverLimits::default());
        let off = SolverParams {
            solver_single_threat_share: 0.0,
            ..params
        };
        assert!(!matches!(
            root_plan(&mut solver, &b, &off, None, None, None),
            RootPlan::Play(_)
        ));
    }

    #[test]
    fn root_plays_its_own_quiet_win_stone_by_stone() {
        // Game 9 of experiments/cloudict/liuzi-vs-cloudict-d4-paircheck40.jsonl before Cloudict's
        // quiet m9 k9 (mcts/quiet_wins.rs): Black to move has no VCDT, but a quiet turn wins.
        let b = replay("l10 h10-j11 k11-j12 i13-h12").unwrap();
        let off = SolverParams {
            solver_quiet_turn_share: 0.0,
            ..SolverParams::default()
        };
        let mut solver = Solver::new(SolverLimits::default());
        assert!(!matches!(
            root_plan(&mut solver, &b, &off, None, None, None),
            RootPlan::Play(_)
        ));
        let params = SolverParams {
            solver_quiet_turn_share: 0.5,
            ..off
        };
        let after = root_turn(&mut solver, &b, &params);
        // White, to move, has no pair that stops Black's VCDT.
        let mut tb = ThreatBoard::from_board(&after);
        let limits = crate::tactics::QuietWinLimits {
            verify_nodes: 20_000,
            ..Default::default()
        };
        let answer = crate::tactics::defender_lost(&mut solver, &mut tb, Color::White, &limits);
        assert_eq!(answer, crate::tactics::QuietWin::Win);
    }

    #[test]
    fn pair_defence_finds_a_defending_pair() {
        // Positions from MCTS losses against alpha-beta
        // (experiments/tuning/strength/vmix50-fast-vs-alphabeta.jsonl, games 14, 21 and 45): the
        // opponent has a VCDT if we pass, no single stone breaks it, and the search must find a
        // pair that does. Without the pair defence this search (SimpleFactory, 300 playouts)
        // played a losing pair in all three (R8-Q11, J11-K14, G8-K10).
        let positions = [
            "g10 l9-i13 m9-h8 n10-n11 m10-m11 m12-o10 l13-n12 p9-n7",
            "k8 k10-g7 i12-m8 l8-l7 l9-m10 m9-j7 l11-k7 k12-k11 k14-j13 l15-l13 m14-l14 \
             n14-j10 h11-i9 g10-h10 i10-i14",
            "i8 m11-l8 k8-m8 l7-l9 l11-j8 l10-k9 l6-h8",
        ];
        // Both pair defences: by proof zones and one first stone at a time.
        for (moves, zones) in positions.iter().flat_map(|m| [(m, false), (m, true)]) {
            let mut b = replay(moves).unwrap();
            let mut solver = Solver::new(SolverLimits::default());
            assert!(!solver.solve(&b).is_win());
            let mut passed = tactics_board(&b);
            assert!(solver
                .solve_on(&mut passed, b.to_move().opponent(), 2)
                .is_win());
            let mut s = Search::new(
                SearchParams {
                    tactics: SolverParams {
                        solver_pair_defence: true,
                        solver_pair_zones: zones,
                        ..SolverParams::default()
                    },
                    ..params(true)
                },
                SimpleFactory,
            );
            for _ in 0..2 {
                let o = s.think(&b, &Limits::default()).unwrap();
                b.play(o.best).unwrap();
            }
            assert!(
                !Solver::new(SolverLimits::default()).solve(&b).is_win(),
                "{moves} (zones {zones}): the opponent still has a VCDT after the turn"
            );
        }
    }

    fn tactics_board(b: &Board) -> ThreatBoard {
        ThreatBoard::from_board(b)
    }

    #[test]
    fn a_lost_root_is_searched_without_proofs_for_the_hardest_loss() {
        // Game 0 of experiments/cloudict/liuzi-vs-cloudict-d4-eng21k-s2.jsonl before Liuzi's
        // (Black's) turn 20: Cloudict's White has a VCDT and no pair of Black's breaks it.
        let b = replay(
            "k10 j11-g9 l11-l12 j9-i10 l13-l10 l15-l9 k9-k8 j8-j10 j12-j7 k12-k11 k7-m11 \
             k5-k13 n12-n13 o13-h9 g8-f9 h8-i7 j6-m12 p15-f10 e11-q12 o12-k14",
        )
        .unwrap();
        let mut solver = Solver::new(SolverLimits::default());
        let search = Search::new(params(true), SimpleFactory);
        let order: Vec<Point> = search.policy(&b).into_iter().map(|(p, _)| p).collect();
        let RootPlan::Lost { zone, .. } = root_plan(
            &mut solver,
            &b,
            &SolverParams::default(),
            None,
            None,
            Some(&order),
        ) else {
            panic!("every first stone of Black's loses");
        };
        let run = |resist_lost| {
            let mut s = Search::new(
                SearchParams {
                    playouts: 2000,
                    resist_lost,
                    ..params(true)
                },
                SimpleFactory,
            );
            let o = s.think(&b, &Limits::default()).unwrap();
            assert!(zone.contains(o.best.index(19)), "{o:?}");
            let visited: Vec<(u32, f32)> = s
                .analysis()
                .children
                .iter()
                .filter(|c| c.visits > 0)
                .map(|c| (c.visits, c.win_rate.unwrap()))
                .collect();
            (o, visited)
        };
        // Resisting: the search spreads over the zone and grows a tree below it; what it
        // reports stays the proof's: every stone loses.
        let (o, visited) = run(true);
        assert!(visited.len() >= 2, "{visited:?}");
        assert!(o.nodes > 1000, "{o:?}");
        assert_eq!(o.win_rate, Some(0.0));
        assert!(visited.iter().all(|&(_, w)| w == 0.0), "{visited:?}");
        // Not resisting: proofs make every stone the same loss, and the tree stays a stub.
        let (o, visited) = run(false);
        assert!(visited.iter().all(|&(_, w)| w == 0.0), "{visited:?}");
        assert!(o.nodes < 1000, "{o:?}");
    }
}
