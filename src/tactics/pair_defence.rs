//! The pair defence by proof zones: which first stones of ours, at the start of a turn, have a
//! second stone that breaks the opponent's VCDT.
//!
//! Every proof the solver finds with some of our stones placed refutes more than the pair it was
//! found for: a pair of ours with no new stone in the proof's zone ([`Solver::proof_cells`]) leaves
//! the proof standing, since our stones taken away only help the attacker and stones outside the
//! zone change no step of it. So each failed verification prunes every pair that misses its zone,
//! and a first stone is lost once no second stone is left that meets every zone found so far —
//! most candidate pairs are never solved. (The relevance zones of Wu & Lin's RZOP, kept for the
//! whole search rather than for one first stone; the one-stone-at-a-time search is
//! [`super::partner`].) Two stones of ours that together make a four with two more of ours are
//! a threat no single-stone zone sees, so such partners are never pruned by a zone found without
//! the first stone.
//!
//! Pairs whose verification hits its node limit are tried again with more nodes in later rounds,
//! as time allows: refuting a pair usually takes far fewer nodes than proving one holds.

use super::defence::proof_zone;
use super::solver::{Solver, Verdict, WinProof};
use super::threat_board::ThreatBoard;
use crate::patterns::CellSet;
use crate::rules::Color;
use std::time::Duration;
use web_time::Instant;

/// Each round's verifications get this many times the nodes of the round before.
const DEEPEN: u64 = 4;

/// Limits of one pair defence (the first solve, with no stone of ours placed, runs within the
/// solver's own limits).
#[derive(Clone, Debug, PartialEq)]
pub struct PairDefenceLimits {
    /// Node limit of each solve in the first round (a first stone alone, or a pair).
    pub verify_nodes: u64,
    /// Rounds over the stones left undecided, each with [`DEEPEN`] times the nodes.
    pub rounds: u8,
    /// Stones placed by the checks together (the first solve not counted).
    pub max_nodes: u64,
    pub max_time: Option<Duration>,
    /// Stop once this many first stones are known to have a partner.
    pub enough: usize,
}

impl Default for PairDefenceLimits {
    fn default() -> PairDefenceLimits {
        PairDefenceLimits {
            verify_nodes: 5_000,
            rounds: 3,
            max_nodes: u64::MAX,
            max_time: None,
            enough: 8,
        }
    }
}

/// The opponent's VCDT and our pairs against it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairDefence {
    /// The opponent's VCDT if we placed nothing this turn.
    pub threat: WinProof,
    /// Cells where one of our two stones must go: the proof's zone and the cells where our
    /// stones make threats of their own.
    pub zone: CellSet,
    /// First stones with a second one that leaves the opponent no VCDT (the same stone when it
    /// does so alone), in the order found. A defending pair gives both its stones.
    pub partners: Vec<(usize, usize)>,
    /// First stones with no second stone left that could save us: every candidate refuted.
    pub lost: CellSet,
    /// Pairs solved (first stones alone included).
    pub solves: u32,
}

impl PairDefence {
    /// The first stones with a partner.
    pub fn safe(&self) -> CellSet {
        let mut set = CellSet::new();
        self.partners.iter().for_each(|&(x, _)| set.insert(x));
        set
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairThreat {
    /// The opponent has no VCDT (within the solver's move model).
    None,
    /// The solver hit a limit before deciding.
    Unknown,
    Vcdt(Box<PairDefence>),
}

const NO_CELL: usize = usize::MAX;

/// A proof found with `placed` (our stones, `NO_CELL` when fewer) on the board.
struct Refutation {
    placed: [usize; 2],
    zone: CellSet,
}

impl Refutation {
    /// The second stones that the proof does not refute with `first`: `None` when `first` is a
    /// new stone in the zone (every partner escapes this proof).
    fn partners_left(&self, first: usize, joint: &CellSet) -> Option<CellSet> {
        let placed_first = first != NO_CELL && self.placed.contains(&first);
        if !placed_first && first != NO_CELL && self.zone.contains(first) {
            return None;
        }
        let mut left = self.zone;
        if !placed_first {
            left.union_with(joint);
        }
        self.placed
            .iter()
            .filter(|&&c| c != NO_CELL)
            .for_each(|&c| left.remove(c));
        Some(left)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    Open,
    Safe,
    Lost,
}

/// A first stone's search so far (`NO_CELL`: ours is on the board already).
struct First {
    cell: usize,
    status: Status,
    /// Its own solve (alone) decided a refutation.
    solved_alone: bool,
    /// Partners solved, whatever the answer.
    tried: CellSet,
    /// Partners whose solve hit its limit.
    undecided: CellSet,
    /// Cells that make a threat of ours together with this stone.
    joint: CellSet,
}

impl First {
    fn new(cell: usize, joint: CellSet) -> First {
        First {
            cell,
            status: Status::Open,
            solved_alone: false,
            tried: CellSet::new(),
            undecided: CellSet::new(),
            joint,
        }
    }
}

enum Solved {
    Holds,
    Refuted,
    Undecided,
    OutOfBudget,
}

struct PairSearch<'a> {
    solver: &'a mut Solver,
    defender: Color,
    refutations: Vec<Refutation>,
    deadline: Option<Instant>,
    first_nodes: u64,
    max_nodes: u64,
    solves: u32,
    /// The shortest VCDT's length with no stone of ours placed, and with each one alone (0:
    /// not known): with more of our stones it is no shorter, so a solve starts there.
    pass_depth: u8,
    alone_depth: Vec<u8>,
    /// The caller's order of our stones, best first.
    order: &'a [usize],
}

impl PairSearch<'_> {
    fn out_of_budget(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.solver.total_nodes() - self.first_nodes >= self.max_nodes
    }

    /// Solves the attacker's VCDT with `stones` of ours placed; a proof becomes a refutation.
    fn solve(&mut self, tb: &mut ThreatBoard, stones: [usize; 2], nodes: u64) -> Solved {
        if self.out_of_budget() {
            return Solved::OutOfBudget;
        }
        let spent = self.solver.total_nodes() - self.first_nodes;
        self.solver.limits.max_nodes = nodes.min(self.max_nodes - spent).max(1);
        self.solver.limits.max_time = self
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()));
        let placed: Vec<usize> = stones.iter().copied().filter(|&c| c != NO_CELL).collect();
        let min_depth = placed
            .iter()
            .map(|&c| self.alone_depth[c])
            .fold(self.pass_depth, u8::max);
        placed.iter().for_each(|&c| tb.place(c, self.defender));
        self.solves += 1;
        let attacker = self.defender.opponent();
        let answer = match self.solver.solve_from(tb, attacker, 2, min_depth) {
            Verdict::NoVcdt => Solved::Holds,
            Verdict::Unknown => Solved::Undecided,
            Verdict::Win(proof) => {
                if let [alone] = placed[..] {
                    self.alone_depth[alone] = proof.depth.min(u32::from(u8::MAX)) as u8;
                }
                let zone = proof_zone(self.solver, tb, &proof);
                self.refutations.push(Refutation {
                    placed: stones,
                    zone,
                });
                Solved::Refuted
            }
        };
        placed.iter().for_each(|_| tb.remove_last());
        answer
    }

    /// The second stones left for `first`: free, untried, and meeting every refutation.
    fn partners_left(&self, tb: &ThreatBoard, first: &First) -> CellSet {
        let mut left: Option<CellSet> = None;
        for r in &self.refutations {
            if let Some(set) = r.partners_left(first.cell, &first.joint) {
                match left.as_mut() {
                    Some(l) => l.intersect_with(&set),
                    None => left = Some(set),
                }
            }
        }
        let mut left = left.unwrap_or_default();
        if first.cell != NO_CELL {
            left.remove(first.cell);
        }
        for c in first.tried.iter() {
            left.remove(c);
        }
        let occupied: Vec<usize> = left.iter().filter(|&c| tb.get(c).is_some()).collect();
        occupied.into_iter().for_each(|c| left.remove(c));
        left
    }

    /// How many refutations a stone on `cell` would meet.
    fn needed(&self, cell: usize) -> usize {
        if cell == NO_CELL {
            return 0;
        }
        self.refutations
            .iter()
            .filter(|r| r.zone.contains(cell))
            .count()
    }

    /// The first cell of `left` in the caller's order.
    fn first_in_order(&self, left: &CellSet) -> Option<usize> {
        self.order.iter().copied().find(|&c| left.contains(c))
    }

    /// The partner most refutations depend on (ties: the lowest index).
    fn most_needed(&self, left: &CellSet) -> usize {
        let mut best = (0, NO_CELL);
        for c in left.iter() {
            let n = self.needed(c);
            if best.1 == NO_CELL || n > best.0 {
                best = (n, c);
            }
        }
        best.1
    }

    /// One round for `first` with `nodes` a solve: its solve alone if not yet decided, then its
    /// partners, most needed first, until one holds or none is left. Returns the partner that
    /// holds; false in the second place when the budget ran out.
    fn search_first(
        &mut self,
        tb: &mut ThreatBoard,
        first: &mut First,
        nodes: u64,
    ) -> (Option<usize>, bool) {
        if !first.solved_alone {
            match self.solve(tb, [first.cell, NO_CELL], nodes) {
                Solved::Holds => return (Some(first.cell), true),
                Solved::Refuted => first.solved_alone = true,
                Solved::Undecided => return (None, true),
                Solved::OutOfBudget => return (None, false),
            }
        }
        loop {
            let left = self.partners_left(tb, first);
            if left.is_empty() {
                if first.undecided.is_empty() {
                    first.status = Status::Lost;
                }
                return (None, true);
            }
            // Our last stone: the root's order first (the tree chooses among the breakers
            // found, so the likely ones should be among them); a partner: most needed.
            let partner = if first.cell == NO_CELL {
                self.first_in_order(&left)
                    .unwrap_or_else(|| self.most_needed(&left))
            } else {
                self.most_needed(&left)
            };
            first.tried.insert(partner);
            match self.solve(tb, [first.cell, partner], nodes) {
                Solved::Holds => return (Some(partner), true),
                Solved::Refuted => {}
                Solved::Undecided => first.undecided.insert(partner),
                Solved::OutOfBudget => {
                    first.tried.remove(partner);
                    return (None, false);
                }
            }
        }
    }
}

/// The pair defence for `defender`, `stones` (1 or 2) to place on `tb`: the opponent's VCDT if
/// we passed, and which of the zone's cells (in `order`'s order, then the rest by index) have a
/// partner that breaks it; partners are tried most needed first (the cells in the most proof
/// zones found so far), our last stone's in `order` first. With one stone to place, each stone
/// that breaks it alone is given as `(cell, cell)` and `lost` holds the zone's cells refuted.
/// Stops at `limits.enough` stones with a partner or at the limits. `tb` is left as it was.
pub fn pair_defence(
    solver: &mut Solver,
    tb: &mut ThreatBoard,
    defender: Color,
    stones: u8,
    order: &[usize],
    limits: &PairDefenceLimits,
) -> PairThreat {
    let attacker = defender.opponent();
    let start = Instant::now();
    let threat = match solver.solve_on(tb, attacker, 2) {
        Verdict::Win(proof) => proof,
        Verdict::NoVcdt => return PairThreat::None,
        Verdict::Unknown => return PairThreat::Unknown,
    };
    let threat_zone = proof_zone(solver, tb, &threat);
    // Our stones make a threat of ours in a window holding four of them: two stones need
    // windows holding two, one stone windows holding three (already in the proof's zone).
    let mut zone = threat_zone;
    if stones >= 2 {
        zone.union_with(&tb.potential_cells(defender, 2));
    }

    let mut firsts: Vec<First> = if stones >= 2 {
        let mut cells: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&c| zone.contains(c))
            .collect();
        let mut listed = CellSet::new();
        cells.iter().for_each(|&c| listed.insert(c));
        cells.extend(zone.iter().filter(|&c| !listed.contains(c)));
        cells.retain(|&c| tb.get(c).is_none());
        cells
            .into_iter()
            .map(|cell| {
                tb.place(cell, defender);
                let joint = tb.live_cells_through(cell, defender, 3);
                tb.remove_last();
                First::new(cell, joint)
            })
            .collect()
    } else {
        // Our first stone is on the board already: one search over the second.
        vec![First {
            solved_alone: true,
            ..First::new(NO_CELL, CellSet::new())
        }]
    };

    let saved = solver.limits.clone();
    let first_nodes = solver.total_nodes();
    let mut search = PairSearch {
        solver,
        defender,
        refutations: vec![Refutation {
            placed: [NO_CELL; 2],
            zone: threat_zone,
        }],
        deadline: limits.max_time.map(|t| start + t),
        first_nodes,
        max_nodes: limits.max_nodes,
        solves: 0,
        pass_depth: threat.depth.min(u32::from(u8::MAX)) as u8,
        alone_depth: vec![0; tb.size() * tb.size()],
        order,
    };
    let mut partners: Vec<(usize, usize)> = Vec::new();
    let mut safe = CellSet::new();
    let mut nodes = limits.verify_nodes;
    'rounds: for round in 0..limits.rounds.max(1) {
        let mut i = 0;
        while i < firsts.len() {
            let f = &firsts[i];
            let eligible = f.status == Status::Open
                && (f.cell == NO_CELL || !safe.contains(f.cell))
                && (round == 0 || !f.solved_alone || !f.undecided.is_empty());
            if !eligible {
                i += 1;
                continue;
            }
            let first = &mut firsts[i];
            if round > 0 {
                for c in first.undecided.iter() {
                    first.tried.remove(c);
                }
                first.undecided = CellSet::new();
            }
            let (holds, in_budget) = search.search_first(tb, first, nodes);
            // With one stone to place, the same search goes on for more breakers.
            let again = first.cell == NO_CELL && holds.is_some();
            if let Some(partner) = holds {
                if first.cell == NO_CELL {
                    safe.insert(partner);
                    partners.push((partner, partner));
                } else {
                    first.status = Status::Safe;
                    for (x, y) in [(first.cell, partner), (partner, first.cell)] {
                        if !safe.contains(x) {
                            safe.insert(x);
                            partners.push((x, y));
                        }
                    }
                }
            }
            if !in_budget || safe.len() >= limits.enough {
                break 'rounds;
            }
            if !again {
                i += 1;
            }
        }
        nodes = nodes.saturating_mul(DEEPEN);
    }
    let solves = search.solves;
    let mut lost = CellSet::new();
    if stones >= 2 {
        firsts
            .iter()
            .filter(|f| f.status == Status::Lost && !safe.contains(f.cell))
            .for_each(|f| lost.insert(f.cell));
    } else {
        for c in zone
            .iter()
            .filter(|&c| tb.get(c).is_none() && !safe.contains(c))
        {
            let refuted = search
                .refutations
                .iter()
                .any(|r| r.placed.contains(&c) || !r.zone.contains(c));
            if refuted {
                lost.insert(c);
            }
        }
    }
    solver.limits = saved;
    PairThreat::Vcdt(Box::new(PairDefence {
        threat,
        zone,
        partners,
        lost,
        solves,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_games;
    use crate::rules::Board;
    use crate::tactics::suite::replay;
    use crate::tactics::{partner, DefenceLimits, Partner, SolverLimits};

    fn cell(name: &str) -> usize {
        parse_games(name, 19).unwrap().index(19)
    }

    /// Every first stone of the zone searched (no time limit, no early stop).
    fn search_all(board: &Board, stones: u8) -> (ThreatBoard, PairDefence) {
        let mut solver = Solver::new(SolverLimits::default());
        let mut tb = ThreatBoard::from_board(board);
        let before = tb.hash();
        let limits = PairDefenceLimits {
            enough: usize::MAX,
            ..PairDefenceLimits::default()
        };
        let answer = pair_defence(&mut solver, &mut tb, board.to_move(), stones, &[], &limits);
        assert_eq!(tb.hash(), before, "the board is left as it was");
        assert_eq!(
            solver.limits,
            SolverLimits::default(),
            "the limits are restored"
        );
        let PairThreat::Vcdt(defence) = answer else {
            panic!("the opponent has a VCDT here: {answer:?}");
        };
        (tb, *defence)
    }

    /// The opponent's VCDT with `stones` of ours placed, by a solver of its own.
    fn solve_with(tb: &mut ThreatBoard, me: Color, stones: &[usize]) -> Verdict {
        stones.iter().for_each(|&c| tb.place(c, me));
        let verdict = Solver::new(SolverLimits {
            max_nodes: 2_000_000,
            ..SolverLimits::default()
        })
        .solve_on(tb, me.opponent(), 2);
        stones.iter().for_each(|_| tb.remove_last());
        verdict
    }

    /// Checks a whole-zone pair defence against recomputation: each pair given holds when solved
    /// afresh, and each first stone called lost has no partner by the one-stone-at-a-time search
    /// ([`partner`]) with every cell of its own zone verified.
    fn check_pairs(moves: &str) -> PairDefence {
        let board = replay(moves).unwrap();
        let me = board.to_move();
        let (mut tb, defence) = search_all(&board, 2);
        for &(x, y) in &defence.partners {
            let stones: &[usize] = if x == y { &[x] } else { &[x, y] };
            assert_eq!(
                solve_with(&mut tb, me, stones),
                Verdict::NoVcdt,
                "{moves}: {x} {y}"
            );
        }
        let mut solver = Solver::new(SolverLimits {
            max_nodes: 2_000_000,
            ..SolverLimits::default()
        });
        let every_cell = DefenceLimits {
            verify_nodes: 2_000_000,
            max_verifications: usize::MAX,
            max_time: None,
        };
        for x in defence.lost.iter() {
            let answer = partner(&mut solver, &mut tb, me, x, &every_cell);
            assert_eq!(answer, Partner::Lost, "{moves}: first stone {x}");
        }
        defence
    }

    #[test]
    fn a_stone_that_breaks_it_alone_and_a_position_with_no_defence() {
        // Black's threes on row 10 and on the diagonal f6-h8 cross at j10, the one stone that
        // stops Black's VCDT (vcdt.txt, hand-crossing-threes); White to move.
        let d = check_pairs("k10 a19-h19 l10-m10 o19-a12 f6-g7 s12-s5 h8-s1");
        assert!(d.safe().contains(cell("j10")), "{:?}", d.partners);
        // Two open fours: no pair of White's blocks four threats.
        let d = check_pairs("k10 a19-c19 l10-m10 e19-g19 n10-c3 i19-k19 c4-c5 m19-o19 c6-s1");
        assert!(d.partners.is_empty());
        assert!(d.lost.contains(cell("j10")));
    }

    #[test]
    fn pairs_found_and_first_stones_refuted_in_games_against_cloudict() {
        // White's turns from Liuzi's games against Cloudict depth 4 (experiments/cloudict,
        // `d4-expand4`, games 15, 29 and 125), where tactics-audit found a defending pair that
        // the engine missed: G11-D12 and N8-O11 in GTP letters.
        let positions = [
            ("h8 h10-m12 g9-f10 i7-j8 e11-e9", ["g11", "d12"]),
            ("l9 g13-l7 k8-j7 i6-j5 m10-k10", ["m8", "n11"]),
        ];
        for (moves, [x, y]) in positions {
            let d = check_pairs(moves);
            assert!(!d.partners.is_empty(), "{moves}: a defending pair exists");
            assert!(
                !d.lost.contains(cell(x)) && !d.lost.contains(cell(y)),
                "{moves}"
            );
        }
    }

    #[test]
    fn the_last_stone_of_a_turn_breakers_and_refuted_cells_recomputed() {
        // As above, White's first stone far away on a1: j10 must be the second.
        let board = replay("k10 a19-h19 l10-m10 o19-a12 f6-g7 s12-s5 h8-s1 a1").unwrap();
        let me = board.to_move();
        let (mut tb, d) = search_all(&board, 1);
        assert!(d.partners.contains(&(cell("j10"), cell("j10"))));
        for &(y, _) in &d.partners {
            assert_eq!(
                solve_with(&mut tb, me, &[y]),
                Verdict::NoVcdt,
                "breaker {y}"
            );
        }
        assert!(!d.lost.is_empty());
        for y in d.lost.iter() {
            assert!(solve_with(&mut tb, me, &[y]).is_win(), "refuted {y}");
        }
    }

    #[test]
    fn the_node_budget_ends_the_checks() {
        let board = replay("h8 h10-m12 g9-f10 i7-j8 e11-e9").unwrap();
        let mut tb = ThreatBoard::from_board(&board);
        let me = board.to_move();
        // The pass solve alone, on a solver of its own (the same solve as the search's first).
        let mut pass = Solver::new(SolverLimits::default());
        assert!(pass.solve_on(&mut tb, me.opponent(), 2).is_win());
        let mut solver = Solver::new(SolverLimits::default());
        let limits = PairDefenceLimits {
            max_nodes: 3_000,
            enough: usize::MAX,
            ..PairDefenceLimits::default()
        };
        let PairThreat::Vcdt(d) = pair_defence(&mut solver, &mut tb, me, 2, &[], &limits) else {
            panic!("a VCDT");
        };
        // Each solve may place one stone past its limit before it stops.
        let checks = solver.total_nodes() - pass.total_nodes();
        assert!(checks <= 3_000 + u64::from(d.solves), "{checks} stones");
        assert!(d.solves < search_all(&board, 2).1.solves);
    }
}
