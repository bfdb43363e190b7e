//! The threat-space solver's root pre-pass, the same for both searches (docs/tactics.md, the
//! solver; "Threat-space search"): a proven VCDT of the side to move is played at once, and so is
//! its own win that starts with a single threat or with a quiet turn (each when its share of the
//! time is set); when the opponent has one (if we passed), the root is cut to the defence zone, at
//! a turn's first stone to the first stones that have a defending second one (pair defence), and at
//! its second stone the zone cells verified to lose are marked lost (by proof zones instead with
//! `solver_pair_zones`, `tactics::pair_defence`). The MCTS's proofs inside its tree are in
//! `mcts/proofs.rs`.

use super::SolverParams;
use crate::notation::format_gtp;
use crate::patterns::{stones_left, CellSet};
use crate::rules::{Board, Point};
use crate::tactics::{
    self, defend, find_quiet_turn, partner, single_threat_win, DefenceLimits, PairDefenceLimits,
    PairThreat, Partner, QuietTurn, QuietTurnLimits, QuietWinLimits, SingleThreat,
    SingleThreatLimits, Solver, SolverLimits, Threat, ThreatBoard, Verdict,
};
use std::time::Duration;
use web_time::Instant;

/// Most zone cells verified at the root.
const MAX_VERIFICATIONS: usize = 48;
/// The pair defence stops once this many first stones are known to have a defending second:
/// enough choice for the tree.
const PAIR_ENOUGH: usize = 8;
/// With a playout limit, the pair defence places at most this many stones per playout.
const PAIR_NODES_PER_PLAYOUT: u64 = 80;
/// Share of a stone's time the root pre-pass may spend on each solve.
const ROOT_TIME_SHARE: u32 = 8;
/// With a playout limit, the root pre-pass places at most this many stones per playout in each
/// of its solves and in its verifications together (a solver node costs about a microsecond, a
/// playout a few hundred), so small fixed budgets stay small.
const NODES_PER_PLAYOUT: u64 = 20;

/// What the root pre-pass decided.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum RootPlan {
    /// A proven VCDT starts with this stone.
    Play(Point),
    /// The opponent has a VCDT: the root's stones are cut to `allowed`; `lost` are proven to
    /// lose (our last stone of the turn, after which the opponent's VCDT stands).
    Restrict {
        allowed: CellSet,
        lost: CellSet,
    },
    /// The opponent has a VCDT and every stone of `zone` (the cells that can touch it) is
    /// proven not to break it: the position is lost against best play. `lost`: the cells
    /// the proofs name stone by stone (a [`RootPlan::Restrict`]'s, should the search take them).
    Lost {
        zone: CellSet,
        lost: CellSet,
    },
    Free,
}

/// The root pre-pass for the side to move on `board` (not over, no immediate win or forced
/// single block: those come first).
/// `time` and `playouts` are the stone's limits. `order`: the root's candidate stones, best
/// first, for the pair defence (`None`: no pair defence, whatever `params` say).
pub(crate) fn root_plan(
    solver: &mut Solver,
    board: &Board,
    params: &SolverParams,
    time: Option<Duration>,
    playouts: Option<u64>,
    order: Option<&[Point]>,
) -> RootPlan {
    let start = Instant::now();
    let pair = params.solver_pair_defence && order.is_some();
    let budget = playouts.map_or(u64::MAX, |n| n.saturating_mul(NODES_PER_PLAYOUT).max(1));
    solver.limits = SolverLimits {
        max_nodes: params.solver_root_nodes.min(budget),
        max_time: time.map(|t| t / ROOT_TIME_SHARE),
        free_reach: params.solver_free_reach,
        ..SolverLimits::default()
    };
    if let Verdict::Win(proof) = solver.solve(board) {
        let line: Vec<String> = proof.line.iter().map(|&p| format_gtp(p)).collect();
        tracing::info!(depth = proof.depth, "solver: VCDT {}", line.join(" "));
        return RootPlan::Play(proof.stones[0]);
    }
    if params.solver_single_threat_share > 0.0 {
        let limits = SingleThreatLimits {
            max_nodes: playouts.map_or(SingleThreatLimits::default().max_nodes, |n| {
                n.saturating_mul(NODES_PER_PLAYOUT).max(1)
            }),
            max_time: time.map(|t| t.mul_f32(params.solver_single_threat_share)),
            free_reach: params.solver_free_reach,
            ..SingleThreatLimits::default()
        };
        let stones = stones_left(board);
        let mut tb = ThreatBoard::from_board(board);
        if let SingleThreat::Win(turn) =
            single_threat_win(solver, &mut tb, board.to_move(), stones, &limits)
        {
            tracing::info!(
                "solver: single-threat win {} {}",
                format_gtp(turn[0]),
                format_gtp(turn[1])
            );
            return RootPlan::Play(turn[2 - usize::from(stones)]);
        }
    }
    if params.solver_quiet_turn_share > 0.0 {
        if let Some(stone) = quiet_turn(solver, board, params, time, playouts) {
            return RootPlan::Play(stone);
        }
    }
    let verify_nodes = params
        .solver_verify_nodes
        .min(budget / MAX_VERIFICATIONS as u64)
        .max(1);
    let two_stones = stones_left(board) == 2;
    if pair && params.solver_pair_zones {
        let order = order.unwrap_or(&[]);
        return zone_pair_defence(solver, board, params, order, time, playouts, start);
    }
    let limits = DefenceLimits {
        verify_nodes,
        // With the pair defence, single stones are checked by the pair checks at the first
        // stone, and the second stone's verifications get their own share.
        max_verifications: if pair && two_stones {
            0
        } else {
            MAX_VERIFICATIONS
        },
        max_time: time.map(|t| {
            if pair {
                t.mul_f32(params.solver_pair_share / 2.0)
            } else {
                t / ROOT_TIME_SHARE
            }
        }),
    };
    let Threat::Vcdt(defence) = defend(solver, board, &limits) else {
        return RootPlan::Free;
    };
    let size = board.size();
    let names = |set: &CellSet| {
        let v: Vec<String> = set.points(size).map(format_gtp).collect();
        v.join(" ")
    };
    tracing::info!(
        "solver: opponent VCDT, zone {} (breakers: {})",
        names(&defence.zone),
        names(&defence.breakers)
    );
    if !two_stones {
        // Our last stone: a zone cell verified to lose does lose, one verified to break the
        // threat is safe.
        let allowed = if pair && !defence.breakers.is_empty() {
            defence.breakers
        } else {
            defence.candidates()
        };
        if allowed.is_empty() {
            // Every zone cell was verified to lose.
            return RootPlan::Lost {
                zone: defence.zone,
                lost: CellSet::new(),
            };
        }
        RootPlan::Restrict {
            allowed,
            lost: defence.losing,
        }
    } else if let Some(order) = order.filter(|_| pair) {
        let deadline = time.map(|t| start + t.mul_f32(params.solver_pair_share));
        let nodes = playouts.map(|n| n.saturating_mul(PAIR_NODES_PER_PLAYOUT).max(1));
        pair_defence(solver, board, params, &defence.zone, order, deadline, nodes)
    } else {
        // Two stones: any defending pair has a stone in the zone, which can go first.
        RootPlan::Restrict {
            allowed: defence.zone,
            lost: CellSet::new(),
        }
    }
}

/// A quiet win of the side to move found in threat space ([`find_quiet_turn`]), within
/// `solver_quiet_turn_share` of the stone's time: the stone to play now. At a turn's second
/// stone the partner is found again among the single candidates ([`quiet_turn_limits`]).
fn quiet_turn(
    solver: &mut Solver,
    board: &Board,
    params: &SolverParams,
    time: Option<Duration>,
    playouts: Option<u64>,
) -> Option<Point> {
    let budget = playouts.map_or(u64::MAX, |n| n.saturating_mul(NODES_PER_PLAYOUT).max(1));
    let stones = stones_left(board);
    let max_time = time.map(|t| t.mul_f32(params.solver_quiet_turn_share));
    let limits = quiet_turn_limits(params, stones, budget, max_time);
    let mut tb = ThreatBoard::from_board(board);
    let QuietTurn::Win(cells) = find_quiet_turn(solver, &mut tb, board.to_move(), stones, &limits)
    else {
        return None;
    };
    let turn: Vec<Point> = cells.iter().map(|&c| tb.point(c as usize)).collect();
    let names: Vec<String> = turn.iter().map(|&p| format_gtp(p)).collect();
    tracing::info!("solver: quiet win {}", names.join(" "));
    Some(turn[0])
}

/// Limits of a search for a quiet turn of `stones` stones ([`find_quiet_turn`]) within `nodes`
/// solver stones and `max_time`. At a turn's second stone the single candidates come from a pool
/// as wide as the pairs' second stones, so that a pair's partner is among them.
pub(crate) fn quiet_turn_limits(
    params: &SolverParams,
    stones: u8,
    nodes: u64,
    max_time: Option<Duration>,
) -> QuietTurnLimits {
    let defaults = QuietTurnLimits::default();
    QuietTurnLimits {
        cells: if stones == 2 {
            defaults.cells
        } else {
            3 * defaults.cells
        },
        screen_nodes: defaults.screen_nodes.min(nodes),
        proof: QuietWinLimits {
            vcdt_nodes: params.solver_root_nodes.min(nodes),
            // As the tree's quiet-win checks (mcts/quiet_wins.rs): 5,000-node verifications
            // leave Cloudict's quiet wins undecided, 20,000 prove them.
            verify_nodes: params.solver_verify_nodes.saturating_mul(4).min(nodes),
            max_nodes: nodes,
            max_time,
            free_reach: params.solver_free_reach,
        },
        ..defaults
    }
}

/// The pair defence at a turn's first stone: zone cells, in `order` (then the rest of the zone),
/// are checked for a second stone that completes a defence ([`partner`]) until [`PAIR_ENOUGH`]
/// have one or the deadline or node budget is reached. The root keeps the cells with a partner;
/// cells where no second stone helps are proven losses. Without any cell with a partner, the
/// root keeps the zone.
fn pair_defence(
    solver: &mut Solver,
    board: &Board,
    params: &SolverParams,
    zone: &CellSet,
    order: &[Point],
    deadline: Option<Instant>,
    nodes: Option<u64>,
) -> RootPlan {
    let size = board.size();
    let me = board.to_move();
    let mut cells: Vec<usize> = order
        .iter()
        .map(|p| p.index(size))
        .filter(|&c| zone.contains(c))
        .collect();
    let mut listed = CellSet::new();
    cells.iter().for_each(|&c| listed.insert(c));
    cells.extend(zone.iter().filter(|&c| !listed.contains(c)));
    let mut tb = ThreatBoard::from_board(board);
    let first_nodes = solver.total_nodes();
    let (mut safe, mut lost) = (CellSet::new(), CellSet::new());
    let mut checked = 0;
    for cell in cells {
        let spent = solver.total_nodes() - first_nodes;
        if safe.len() >= PAIR_ENOUGH
            || deadline.is_some_and(|d| Instant::now() >= d)
            || nodes.is_some_and(|n| spent >= n)
        {
            break;
        }
        if tb.get(cell).is_some() {
            continue;
        }
        let left = |n: u64| nodes.map_or(n, |limit| n.min(limit.saturating_sub(spent)).max(1));
        let remaining = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        solver.limits = SolverLimits {
            max_nodes: left(params.solver_verify_nodes.saturating_mul(4)),
            max_time: remaining,
            free_reach: params.solver_free_reach,
            ..SolverLimits::default()
        };
        let limits = DefenceLimits {
            verify_nodes: left(params.solver_verify_nodes),
            max_verifications: MAX_VERIFICATIONS,
            max_time: remaining,
        };
        checked += 1;
        match partner(solver, &mut tb, me, cell, &limits) {
            Partner::Alone | Partner::With(_) => safe.insert(cell),
            Partner::Lost => lost.insert(cell),
            Partner::Unknown => {}
        }
    }
    let names = |set: &CellSet| {
        let v: Vec<String> = set.points(size).map(format_gtp).collect();
        v.join(" ")
    };
    tracing::info!(
        "solver: pair defence, {checked} first stones checked; with a partner: {}; lost: {}",
        names(&safe),
        names(&lost)
    );
    if safe.is_empty() {
        let mut rest = *zone;
        lost.iter().for_each(|c| rest.remove(c));
        if rest.is_empty() {
            return RootPlan::Lost { zone: *zone, lost };
        }
        return RootPlan::Restrict {
            allowed: rest,
            lost,
        };
    }
    RootPlan::Restrict {
        allowed: safe,
        lost,
    }
}

/// The pair defence by proof zones (`solver_pair_zones`, [`tactics::pair_defence`]): at a
/// turn's first stone, the zone's first stones (in `order`, then the rest) are checked for a
/// second stone that completes a defence until [`PAIR_ENOUGH`] have one; at its second stone,
/// the zone's cells for one that breaks the threat alone. The root keeps the stones found;
/// cells proven to lose are marked lost; with none found, the root keeps the zone without them.
/// The pass solve has the solver's limits, the checks `solver_pair_share` of the stone's time
/// from `start` (half of it at the second stone) and, with a playout limit,
/// [`PAIR_NODES_PER_PLAYOUT`] stones a playout.
fn zone_pair_defence(
    solver: &mut Solver,
    board: &Board,
    params: &SolverParams,
    order: &[Point],
    time: Option<Duration>,
    playouts: Option<u64>,
    start: Instant,
) -> RootPlan {
    let size = board.size();
    let names = |set: &CellSet| {
        let v: Vec<String> = set.points(size).map(format_gtp).collect();
        v.join(" ")
    };
    let stones = stones_left(board);
    let share = if stones == 2 {
        params.solver_pair_share
    } else {
        params.solver_pair_share / 2.0
    };
    let max_nodes = playouts.map_or(u64::MAX, |n| {
        n.saturating_mul(PAIR_NODES_PER_PLAYOUT).max(1)
    });
    let limits = PairDefenceLimits {
        verify_nodes: params.solver_verify_nodes.min(max_nodes).max(1),
        max_nodes,
        max_time: time.map(|t| t.mul_f32(share).saturating_sub(start.elapsed())),
        // At the last stone, every breaker the time allows: the tree chooses among them.
        enough: if stones == 2 { PAIR_ENOUGH } else { usize::MAX },
        ..PairDefenceLimits::default()
    };
    let order: Vec<usize> = order.iter().map(|p| p.index(size)).collect();
    let mut tb = ThreatBoard::from_board(board);
    let PairThreat::Vcdt(defence) =
        tactics::pair_defence(solver, &mut tb, board.to_move(), stones, &order, &limits)
    else {
        return RootPlan::Free;
    };
    let safe = defence.safe();
    tracing::info!(
        "solver: opponent VCDT, zone {}; pair defence, {} solves; {}: {}; lost: {}",
        names(&defence.zone),
        defence.solves,
        if stones == 2 {
            "with a partner"
        } else {
            "breakers"
        },
        names(&safe),
        names(&defence.lost)
    );
    if !safe.is_empty() {
        return RootPlan::Restrict {
            allowed: safe,
            lost: defence.lost,
        };
    }
    let mut rest = defence.zone;
    defence.lost.iter().for_each(|c| rest.remove(c));
    if rest.is_empty() {
        return RootPlan::Lost {
            zone: defence.zone,
            lost: defence.lost,
        };
    }
    RootPlan::Restrict {
        allowed: rest,
        lost: defence.lost,
    }
}
