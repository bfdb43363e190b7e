//! The defensive query: does the opponent have a VCDT if we do nothing, and which of our stones
//! can break it (a relevance zone, after Wu & Lin's RZOP, docs/tactics.md, defences).
//!
//! We let the opponent move at once (a pass: the solver's board gives stones explicit colours) and
//! solve its VCDT. If it has one, the zone is every cell its proof tree depends on (the stones of
//! every line and the empty cells of every threat window it makes, see [`Solver::proof_cells`])
//! plus the cells where our own stones make threats (a counter-threat forces its next turn). Then,
//! as far as the limits allow, each zone cell is verified: our stone there, the opponent to move,
//! solve again. Call this after checking our own immediate win and our own VCDT, which come first.

use super::solver::{Solver, Verdict, WinProof};
use super::threat_board::ThreatBoard;
use crate::patterns::{stones_left, CellSet};
use crate::rules::{Board, Color};
use std::time::Duration;
use web_time::Instant;

/// Limits of the verification solves (the first solve uses the solver's own limits).
#[derive(Clone, Debug, PartialEq)]
pub struct DefenceLimits {
    /// Node limit of each verification solve.
    pub verify_nodes: u64,
    /// Most zone cells verified (in order: the threat's main line first).
    pub max_verifications: usize,
    /// Time for all verifications together; cells left over stay unverified.
    pub max_time: Option<Duration>,
}

impl Default for DefenceLimits {
    fn default() -> DefenceLimits {
        DefenceLimits {
            verify_nodes: 20_000,
            max_verifications: 64,
            max_time: None,
        }
    }
}

/// The opponent's VCDT and where our stones can meet it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Defence {
    /// The opponent's VCDT if we placed nothing more this turn.
    pub threat: WinProof,
    /// Cells where a stone of ours can change the proof (or make a counter-threat). A stone
    /// elsewhere leaves the proof as it is, unless combined with another stone in the zone.
    pub zone: CellSet,
    /// Zone cells verified to break it: with our stone there the opponent has no VCDT.
    pub breakers: CellSet,
    /// Zone cells whose verification hit its limit.
    pub unresolved: CellSet,
    /// Zone cells verified not to break it on their own.
    pub losing: CellSet,
}

impl Defence {
    /// Zone cells not verified (past `max_verifications`).
    pub fn unverified(&self) -> CellSet {
        let mut rest = CellSet::new();
        for c in self.zone.iter() {
            if !self.breakers.contains(c)
                && !self.unresolved.contains(c)
                && !self.losing.contains(c)
            {
                rest.insert(c);
            }
        }
        rest
    }

    /// The zone without the cells verified to lose: where our next stone should go.
    pub fn candidates(&self) -> CellSet {
        let mut rest = self.zone;
        for c in self.losing.iter() {
            rest.remove(c);
        }
        rest
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Threat {
    /// The opponent has no VCDT (within the solver's move model).
    None,
    /// The solver hit a limit before deciding.
    Unknown,
    Vcdt(Box<Defence>),
}

/// The defensive query for the side to move on `board`.
pub fn defend(solver: &mut Solver, board: &Board, limits: &DefenceLimits) -> Threat {
    if board.is_over() {
        return Threat::None;
    }
    let mut tb = ThreatBoard::from_board(board);
    defend_on(solver, &mut tb, board.to_move(), stones_left(board), limits)
}

/// The defensive query on `tb` for `defender`, who has `stones` (1 or 2) stones left this turn.
/// `tb` is left as it was.
pub fn defend_on(
    solver: &mut Solver,
    tb: &mut ThreatBoard,
    defender: Color,
    stones: u8,
    limits: &DefenceLimits,
) -> Threat {
    query(solver, tb, defender, stones, limits, None)
}

/// Whether a first stone of ours can be completed into a defence (see [`partner`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Partner {
    /// The stone alone breaks the opponent's VCDT.
    Alone,
    /// With our second stone on this cell too, the opponent has no VCDT.
    With(usize),
    /// Every cell of the zone left after the stone was verified to lose as our second stone:
    /// no second stone saves us.
    Lost,
    /// A limit was hit first.
    Unknown,
}

/// The pair defence, one first stone at a time: we (`defender`, two stones to place) put a stone
/// on `cell`; can some second stone leave the opponent without a VCDT? The first solve runs
/// within the solver's own limits, the verifications within `limits`, and the search stops at the
/// first breaker. `tb` is left as it was.
pub fn partner(
    solver: &mut Solver,
    tb: &mut ThreatBoard,
    defender: Color,
    cell: usize,
    limits: &DefenceLimits,
) -> Partner {
    partner_besides(solver, tb, defender, cell, limits, &mut CellSet::new())
}

/// [`partner`], where the second stones in `losing` are already known to lose with `cell` (a
/// proof the caller found some other way, e.g. a single-threat win after the pair): they count as
/// verified to lose and are not solved again. The cells this call verifies to lose are added to
/// `losing`, so a caller that rejects the partner found can ask again for the next one without
/// repeating any solve.
pub fn partner_besides(
    solver: &mut Solver,
    tb: &mut ThreatBoard,
    defender: Color,
    cell: usize,
    limits: &DefenceLimits,
    losing: &mut CellSet,
) -> Partner {
    if tb.get(cell).is_some() {
        return Partner::Unknown;
    }
    tb.place(cell, defender);
    let answer = match query(solver, tb, defender, 1, limits, Some(losing)) {
        Threat::None => Partner::Alone,
        Threat::Unknown => Partner::Unknown,
        Threat::Vcdt(d) => match d.breakers.iter().next() {
            Some(b) => Partner::With(b),
            None if d.unresolved.is_empty()
                && d.unverified().iter().all(|c| tb.get(c).is_some()) =>
            {
                Partner::Lost
            }
            None => Partner::Unknown,
        },
    };
    tb.remove_last();
    answer
}

/// The cells the last solve's proof `proof` (from `tb`, the attacker to move) depends on:
/// [`Solver::proof_cells`] and the stones of its principal line.
pub(super) fn proof_zone(solver: &Solver, tb: &mut ThreatBoard, proof: &WinProof) -> CellSet {
    let mut zone = solver.proof_cells(tb);
    for p in &proof.line {
        zone.insert(p.index(tb.size()));
    }
    zone
}

/// [`defend_on`]; with `known_losing`, the verifications stop at the first breaker, skip the
/// cells known to lose (counted as losing) and add the cells they find losing to the set.
fn query(
    solver: &mut Solver,
    tb: &mut ThreatBoard,
    defender: Color,
    stones: u8,
    limits: &DefenceLimits,
    mut known_losing: Option<&mut CellSet>,
) -> Threat {
    let stop_at_breaker = known_losing.is_some();
    let attacker = defender.opponent();
    let threat = match solver.solve_on(tb, attacker, 2) {
        Verdict::Win(proof) => proof,
        Verdict::NoVcdt => return Threat::None,
        Verdict::Unknown => return Threat::Unknown,
    };
    let mut zone = proof_zone(solver, tb, &threat);
    let counter_min = if stones >= 2 { 2 } else { 3 };
    zone.union_with(&tb.potential_cells(defender, counter_min));

    // Verify the main line's cells first, then the rest in index order.
    let mut order: Vec<usize> = threat.line.iter().map(|p| p.index(tb.size())).collect();
    order.extend(zone.iter());
    let mut seen = CellSet::new();
    let (mut breakers, mut unresolved, mut losing) =
        (CellSet::new(), CellSet::new(), CellSet::new());
    if let Some(known) = known_losing.as_deref() {
        for c in known.iter().filter(|&c| zone.contains(c)) {
            seen.insert(c);
            losing.insert(c);
        }
    }
    let min_depth = threat.depth.min(u32::from(u8::MAX)) as u8;
    let saved = solver.limits.clone();
    solver.limits.max_nodes = limits.verify_nodes;
    let deadline = limits.max_time.map(|t| Instant::now() + t);
    let mut verified = 0;
    for cell in order {
        if seen.contains(cell) || tb.get(cell).is_some() {
            continue;
        }
        if verified == limits.max_verifications
            || deadline.is_some_and(|d| Instant::now() >= d)
            || (stop_at_breaker && !breakers.is_empty())
        {
            break;
        }
        seen.insert(cell);
        verified += 1;
        tb.place(cell, defender);
        // One more stone of ours never shortens the VCDT: start at the pass proof's length.
        let verdict = solver.solve_from(tb, attacker, 2, min_depth);
        tb.remove_last();
        match verdict {
            Verdict::Win(_) => {
                losing.insert(cell);
                if let Some(known) = known_losing.as_deref_mut() {
                    known.insert(cell);
                }
            }
            Verdict::NoVcdt => breakers.insert(cell),
            Verdict::Unknown => unresolved.insert(cell),
        }
    }
    solver.limits = saved;
    Threat::Vcdt(Box::new(Defence {
        threat,
        zone,
        breakers,
        unresolved,
        losing,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_games;
    use crate::tactics::suite::replay;
    use crate::tactics::SolverLimits;

    fn cell(name: &str) -> usize {
        parse_games(name, 19).unwrap().index(19)
    }

    #[test]
    fn partner_tells_alone_with_and_lost() {
        let limits = DefenceLimits::default();
        let mut solver = Solver::new(SolverLimits::default());
        // Black's threes on row 10 and on the diagonal f6-h8 cross at j10, the one stone that
        // stops Black's VCDT (src/tactics/vcdt.txt, hand-crossing-threes); White to move.
        let b = replay("k10 a19-h19 l10-m10 o19-a12 f6-g7 s12-s5 h8-s1").unwrap();
        let mut tb = ThreatBoard::from_board(&b);
        let before = tb.hash();
        let white = Color::White;
        assert_eq!(
            partner(&mut solver, &mut tb, white, cell("j10"), &limits),
            Partner::Alone
        );
        // A stone far away leaves j10 as the second stone that saves White.
        assert_eq!(
            partner(&mut solver, &mut tb, white, cell("a1"), &limits),
            Partner::With(cell("j10"))
        );
        assert_eq!(tb.hash(), before);
        // Two open fours (row 10 and column c): no pair of White stones can block four threats.
        let b = replay("k10 a19-c19 l10-m10 e19-g19 n10-c3 i19-k19 c4-c5 m19-o19 c6-s1").unwrap();
        let mut tb = ThreatBoard::from_board(&b);
        assert_eq!(
            partner(&mut solver, &mut tb, white, cell("j10"), &limits),
            Partner::Lost
        );
        // An occupied cell is no answer.
        assert_eq!(
            partner(&mut solver, &mut tb, white, cell("k10"), &limits),
            Partner::Unknown
        );
    }

    #[test]
    fn partner_besides_skips_the_second_stones_known_to_lose() {
        let limits = DefenceLimits::default();
        let mut solver = Solver::new(SolverLimits::default());
        let b = replay("k10 a19-h19 l10-m10 o19-a12 f6-g7 s12-s5 h8-s1").unwrap();
        let mut tb = ThreatBoard::from_board(&b);
        let before = tb.hash();
        let (white, a1, j10) = (Color::White, cell("a1"), cell("j10"));
        // Told nothing, it finds j10 and records the cells it verified to lose on the way.
        let mut losing = CellSet::new();
        let answer = partner_besides(&mut solver, &mut tb, white, a1, &limits, &mut losing);
        assert_eq!(answer, Partner::With(j10));
        assert!(!losing.contains(j10));
        // Told that j10 loses too (as a single-threat win would show), no partner is left: each
        // other cell of the zone is verified to lose (or was, by the first call).
        let recorded = losing.len();
        losing.insert(j10);
        let answer = partner_besides(&mut solver, &mut tb, white, a1, &limits, &mut losing);
        assert_eq!(answer, Partner::Lost);
        assert!(losing.len() > recorded + 1);
        assert_eq!(tb.hash(), before);
        // Every cell it now calls losing does lose: with a1 and it, Black still has a VCDT.
        let called: Vec<usize> = losing
            .iter()
            .filter(|&c| c != a1 && tb.get(c).is_none())
            .collect();
        for c in called {
            tb.place(a1, white);
            tb.place(c, white);
            let verdict = solver.solve_on(&mut tb, Color::Black, 2);
            tb.remove_last();
            tb.remove_last();
            assert!(
                matches!(verdict, Verdict::Win(_)) || c == j10,
                "cell {c} breaks it"
            );
        }
    }
}
