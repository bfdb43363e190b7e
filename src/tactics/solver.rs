//! The VCDT solver (docs/tactics.md, VCDT): victory by continuous double threats.
//!
//! The attacker plays turns that each leave it at least two threats (so both defender stones are
//! forced) and the defender without a threat window, ending with a turn that leaves three or more
//! (or completing a six at once). The defender answers with every pair of stones that blocks both
//! threats; a reply that leaves the defender a threat window of its own must be answered by the
//! attacker's next turn, and one that leaves it an immediate six refutes. Turns are generated stone
//! by stone (see [`super::movegen`]); the search is an iterative-deepening AND/OR depth-first search
//! over attacker turns with a transposition table and node and time limits.
//!
//! Results are exact within the move model: `Win` is a proof (every defender reply was tried);
//! `NoVcdt` means no turn sequence of the model wins at any depth (free second stones are drawn
//! only from windows already holding 2 and from cells within [`SolverLimits::free_reach`] of the
//! attacker's stones, so a VCDT needing a free stone farther away is not seen);
//! `Unknown` means a limit was hit first.

use super::movegen::{blocking_pairs, first_stones, ordered, second_stones};
use super::threat_board::ThreatBoard;
use crate::patterns::{stones_left, CellSet};
use crate::rules::{Board, Color, Point};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;
use web_time::Instant;

/// Asked every few hundred stones during a solve whether to give up (an interrupted search):
/// a solve that gives up answers `Unknown`.
pub trait StopSignal: Send + Sync {
    fn stop_requested(&self) -> bool;
}

/// Limits of one solve.
#[derive(Clone, Debug, PartialEq)]
pub struct SolverLimits {
    /// Most double-threat turns before the final one (iterative deepening stops here).
    pub max_depth: u8,
    /// Most stones placed during the search.
    pub max_nodes: u64,
    pub max_time: Option<Duration>,
    /// A free second stone (after a first stone that alone made two threats) may also go up to
    /// this many cells along a line from one of the attacker's stones; 0: only into windows
    /// already holding 2 of its stones.
    pub free_reach: u8,
}

impl Default for SolverLimits {
    fn default() -> SolverLimits {
        SolverLimits {
            max_depth: 10,
            max_nodes: 200_000,
            max_time: None,
            free_reach: 1,
        }
    }
}

/// A proven VCDT.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WinProof {
    /// The rest of the attacker's current turn: two stones, or one at a turn's second stone.
    pub stones: Vec<Point>,
    /// A principal line from the current position: the attacker's stones, a defender reply (the
    /// one needing the longest proof), ... up to the attacker's last turn, which completes a six
    /// or leaves three or more threats.
    pub line: Vec<Point>,
    /// Turns with threats before the winning one: 0 for an immediate six, 1 when the current
    /// turn leaves three or more threats, ...
    pub depth: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Win(WinProof),
    /// No VCDT within the move model, at any depth.
    NoVcdt,
    /// A depth, node or time limit was hit before an answer.
    Unknown,
}

impl Verdict {
    pub fn is_win(&self) -> bool {
        matches!(self, Verdict::Win(_))
    }
}

/// Counters of the last solve (the node count also across solves, see [`Solver::total_nodes`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveStats {
    /// Stones placed.
    pub nodes: u64,
    pub tt_hits: u64,
    /// Deepest iteration started.
    pub depth: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Proven win needing `depth` threat turns; `a`, `b`: the winning turn (attacker node) or the
    /// reply with the longest proof (defender node).
    Win,
    /// No win within `depth`.
    Fail,
    /// No win at any depth.
    NoWin,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    kind: Kind,
    depth: u8,
    a: u16,
    b: u16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Win(u8),
    /// `limited`: the failure may be due to the depth limit.
    Fail {
        limited: bool,
    },
    Abort,
}

const NO_CELL: u16 = u16::MAX;
/// Key salts: who is to move at the node, and which colour attacks.
const DEFENDER_TO_MOVE: u64 = 0x9E6C_63D0_676A_9A99;
const WHITE_ATTACKS: u64 = 0x2545_F491_4F6C_DD1D;
/// The table is cleared at the start of a solve once it holds this many entries.
const TT_CAPACITY: usize = 1 << 21;

/// A VCDT solver. Its transposition table persists across solves (keys include the attacker and
/// the side to move, and entries hold only depth-qualified facts), so repeated queries on nearby
/// positions reuse work.
pub struct Solver {
    pub limits: SolverLimits,
    /// Polled with the clock; `None`: solves end only by their limits.
    pub stop: Option<Arc<dyn StopSignal>>,
    tt: HashMap<u64, Entry>,
    attacker: Color,
    stats: SolveStats,
    total_nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    aborted: bool,
}

impl Solver {
    pub fn new(limits: SolverLimits) -> Solver {
        Solver {
            limits,
            stop: None,
            tt: HashMap::new(),
            attacker: Color::Black,
            stats: SolveStats::default(),
            total_nodes: 0,
            node_limit: 0,
            deadline: None,
            aborted: false,
        }
    }

    pub fn stats(&self) -> SolveStats {
        self.stats
    }

    /// Stones placed by every solve since this solver was made.
    pub fn total_nodes(&self) -> u64 {
        self.total_nodes
    }

    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Whether the side to move on `board` has a VCDT (with the stones left in its turn).
    pub fn solve(&mut self, board: &Board) -> Verdict {
        if board.is_over() {
            return Verdict::NoVcdt;
        }
        let mut tb = ThreatBoard::from_board(board);
        self.solve_on(&mut tb, board.to_move(), stones_left(board))
    }

    /// Whether `attacker`, to place `stones` (1 or 2) stones now on `tb`, has a VCDT. `tb` is
    /// left as it was.
    pub fn solve_on(&mut self, tb: &mut ThreatBoard, attacker: Color, stones: u8) -> Verdict {
        self.solve_from(tb, attacker, stones, 1)
    }

    /// [`Solver::solve_on`] with iterative deepening started at `min_depth` threat turns, a
    /// bound known from elsewhere: a position with fewer of the defender's stones whose shortest
    /// VCDT is that long. (More defender stones never shorten a VCDT: within the move model the
    /// attacker loses candidates and the defender gains none, so the shallower iterations would
    /// all fail, and the proof found is still the shortest.)
    pub fn solve_from(
        &mut self,
        tb: &mut ThreatBoard,
        attacker: Color,
        stones: u8,
        min_depth: u8,
    ) -> Verdict {
        self.start(attacker);
        if let Some((a, b)) = tb.six_completion(attacker, stones) {
            let cells: &[u16] = if stones == 1 { &[a] } else { &[a, b] };
            let stones: Vec<Point> = cells.iter().map(|&c| tb.point(c as usize)).collect();
            return Verdict::Win(WinProof {
                line: stones.clone(),
                stones,
                depth: 0,
            });
        }
        for depth in min_depth.max(1)..=self.limits.max_depth {
            self.stats.depth = depth;
            let (outcome, turn) = if stones == 2 {
                let outcome = self.attack(tb, depth);
                let entry = self.tt.get(&self.key(tb, true)).copied();
                (outcome, entry.map_or([NO_CELL; 2], |e| [e.a, e.b]))
            } else {
                let (outcome, b) = self.second_stone(tb, depth);
                (outcome, [b, NO_CELL])
            };
            match outcome {
                Outcome::Win(found) => return Verdict::Win(self.proof(tb, turn, stones, found)),
                Outcome::Fail { limited: false } => return Verdict::NoVcdt,
                Outcome::Fail { limited: true } => {}
                Outcome::Abort => return Verdict::Unknown,
            }
        }
        Verdict::Unknown
    }

    /// Whether the attacker (the side to move on `board`) wins by VCDT after playing `turn`, the
    /// rest of its turn: `Win` with the proof continuing after `turn`, or not.
    pub fn check_turn(&mut self, board: &Board, turn: &[Point]) -> Verdict {
        let attacker = board.to_move();
        if board.is_over() || turn.len() != usize::from(stones_left(board)) {
            return Verdict::NoVcdt;
        }
        let mut tb = ThreatBoard::from_board(board);
        let mut placed = 0;
        for &p in turn {
            if !board.contains(p) || tb.get(p.index(board.size())).is_some() {
                break;
            }
            tb.place(p.index(board.size()), attacker);
            placed += 1;
        }
        let verdict = if placed < turn.len() {
            Verdict::NoVcdt
        } else {
            self.solve_after_turn(&mut tb, attacker)
        };
        for _ in 0..placed {
            tb.remove_last();
        }
        verdict
    }

    /// The attacker's turn is on `tb`; the defender is to move.
    fn solve_after_turn(&mut self, tb: &mut ThreatBoard, attacker: Color) -> Verdict {
        self.start(attacker);
        let defender = attacker.opponent();
        let won = WinProof {
            stones: Vec::new(),
            line: Vec::new(),
            depth: 0,
        };
        if tb.has_six(attacker) {
            return Verdict::Win(won);
        }
        if tb.has_threat_window(defender) {
            return Verdict::NoVcdt;
        }
        let threats = tb.threats(attacker);
        if threats >= 3 {
            return Verdict::Win(WinProof { depth: 1, ..won });
        }
        if threats < 2 {
            return Verdict::NoVcdt;
        }
        for depth in 0..self.limits.max_depth {
            self.stats.depth = depth + 1;
            match self.defend(tb, depth) {
                Outcome::Win(found) => {
                    let mut line = Vec::new();
                    self.extend_line_from_defence(tb, &mut line);
                    return Verdict::Win(WinProof {
                        stones: Vec::new(),
                        line,
                        depth: u32::from(found),
                    });
                }
                Outcome::Fail { limited: false } => return Verdict::NoVcdt,
                Outcome::Fail { limited: true } => {}
                Outcome::Abort => return Verdict::Unknown,
            }
        }
        Verdict::Unknown
    }

    fn start(&mut self, attacker: Color) {
        if self.tt.len() > TT_CAPACITY {
            self.tt.clear();
        }
        self.attacker = attacker;
        self.stats = SolveStats::default();
        self.node_limit = self.limits.max_nodes;
        self.deadline = self.limits.max_time.map(|t| Instant::now() + t);
        self.aborted = false;
    }

    fn key(&self, tb: &ThreatBoard, attacker_to_move: bool) -> u64 {
        let mut key = tb.hash();
        if !attacker_to_move {
            key ^= DEFENDER_TO_MOVE;
        }
        if self.attacker == Color::White {
            key ^= WHITE_ATTACKS;
        }
        key
    }

    /// Places a stone, counting it; false when a limit is hit (the stone is then not placed).
    fn place(&mut self, tb: &mut ThreatBoard, cell: u16, colour: Color) -> bool {
        if self.aborted {
            return false;
        }
        self.stats.nodes += 1;
        self.total_nodes += 1;
        if self.stats.nodes > self.node_limit
            || (self.stats.nodes.is_multiple_of(256)
                && (self.deadline.is_some_and(|d| Instant::now() >= d)
                    || self.stop.as_ref().is_some_and(|s| s.stop_requested())))
        {
            self.aborted = true;
            return false;
        }
        tb.place(cell as usize, colour);
        true
    }

    fn probe(&mut self, key: u64, depth: u8) -> Option<Outcome> {
        let entry = self.tt.get(&key)?;
        let outcome = match entry.kind {
            Kind::Win => Outcome::Win(entry.depth),
            Kind::NoWin => Outcome::Fail { limited: false },
            Kind::Fail if entry.depth >= depth => Outcome::Fail { limited: true },
            Kind::Fail => return None,
        };
        self.stats.tt_hits += 1;
        Some(outcome)
    }

    fn store(&mut self, key: u64, depth: u8, outcome: Outcome, a: u16, b: u16) {
        let (kind, depth) = match outcome {
            Outcome::Win(d) => (Kind::Win, d),
            Outcome::Fail { limited: true } => (Kind::Fail, depth),
            Outcome::Fail { limited: false } => (Kind::NoWin, 0),
            Outcome::Abort => return,
        };
        self.tt.insert(key, Entry { kind, depth, a, b });
    }

    /// Attacker to move with two stones, `depth` threat turns allowed.
    fn attack(&mut self, tb: &mut ThreatBoard, depth: u8) -> Outcome {
        let attacker = self.attacker;
        if tb.has_threat_window(attacker) {
            return Outcome::Win(0);
        }
        if depth == 0 {
            return Outcome::Fail { limited: true };
        }
        let key = self.key(tb, true);
        if let Some(known) = self.probe(key, depth) {
            return known;
        }
        let defender_threats = if tb.has_threat_window(attacker.opponent()) {
            tb.threats(attacker.opponent())
        } else {
            0
        };
        let Some(firsts) = first_stones(tb, attacker, defender_threats) else {
            self.store(key, depth, Outcome::Fail { limited: false }, 0, 0);
            return Outcome::Fail { limited: false };
        };
        let mut limited = false;
        for a in ordered(tb, attacker, &firsts) {
            if !self.place(tb, a, attacker) {
                return Outcome::Abort;
            }
            let (outcome, b) = self.second_stone(tb, depth);
            tb.remove_last();
            match outcome {
                Outcome::Win(_) => {
                    self.store(key, depth, outcome, a, b);
                    return outcome;
                }
                Outcome::Abort => return Outcome::Abort,
                Outcome::Fail { limited: l } => limited |= l,
            }
        }
        let outcome = Outcome::Fail { limited };
        self.store(key, depth, outcome, 0, 0);
        outcome
    }

    /// The attacker's first stone is on the board; tries its second. Returns the outcome and,
    /// on a win, the second stone.
    fn second_stone(&mut self, tb: &mut ThreatBoard, depth: u8) -> (Outcome, u16) {
        let attacker = self.attacker;
        let Some(seconds) = second_stones(tb, attacker, self.limits.free_reach) else {
            return (Outcome::Fail { limited: false }, NO_CELL);
        };
        let mut limited = false;
        for b in ordered(tb, attacker, &seconds) {
            if !self.place(tb, b, attacker) {
                return (Outcome::Abort, NO_CELL);
            }
            let outcome = if tb.has_threat_window(attacker.opponent()) {
                Outcome::Fail { limited: false }
            } else {
                match tb.threats(attacker) {
                    t if t >= 3 => Outcome::Win(1),
                    2 if depth > 1 => match self.defend(tb, depth - 1) {
                        Outcome::Win(d) => Outcome::Win(d + 1),
                        other => other,
                    },
                    2 => Outcome::Fail { limited: true },
                    _ => Outcome::Fail { limited: false },
                }
            };
            tb.remove_last();
            match outcome {
                Outcome::Win(_) | Outcome::Abort => return (outcome, b),
                Outcome::Fail { limited: l } => limited |= l,
            }
        }
        (Outcome::Fail { limited }, NO_CELL)
    }

    /// Defender to move with two stones against exactly two threats; the attacker then has
    /// `depth` threat turns.
    fn defend(&mut self, tb: &mut ThreatBoard, depth: u8) -> Outcome {
        let key = self.key(tb, false);
        if let Some(known) = self.probe(key, depth) {
            return known;
        }
        let attacker = self.attacker;
        let defender = attacker.opponent();
        let mut longest = (0u8, NO_CELL, NO_CELL);
        for (x, y) in blocking_pairs(tb, attacker) {
            if !self.place(tb, x, defender) {
                return Outcome::Abort;
            }
            if !self.place(tb, y, defender) {
                tb.remove_last();
                return Outcome::Abort;
            }
            let outcome = self.attack(tb, depth);
            tb.remove_last();
            tb.remove_last();
            match outcome {
                Outcome::Win(d) => {
                    if longest.1 == NO_CELL || d > longest.0 {
                        longest = (d, x, y);
                    }
                }
                Outcome::Abort => return Outcome::Abort,
                Outcome::Fail { .. } => {
                    self.store(key, depth, outcome, x, y);
                    return outcome;
                }
            }
        }
        let outcome = Outcome::Win(longest.0);
        self.store(key, depth, outcome, longest.1, longest.2);
        outcome
    }

    /// The proof of a root win: `turn` (two cells, or one at a second stone) and the line.
    fn proof(&mut self, tb: &mut ThreatBoard, turn: [u16; 2], stones: u8, depth: u8) -> WinProof {
        let turn: Vec<u16> = turn[..usize::from(stones)].to_vec();
        let mut line = Vec::new();
        for &c in &turn {
            line.push(tb.point(c as usize));
            tb.place(c as usize, self.attacker);
        }
        if tb.threats(self.attacker) < 3 {
            self.extend_line_from_defence(tb, &mut line);
        }
        for _ in &turn {
            tb.remove_last();
        }
        WinProof {
            stones: turn.iter().map(|&c| tb.point(c as usize)).collect(),
            line,
            depth: u32::from(depth),
        }
    }

    /// Follows the table from a defender node: the longest reply, the attacker's winning turn,
    /// and so on, appending the stones to `line`. Leaves `tb` as it was.
    fn extend_line_from_defence(&self, tb: &mut ThreatBoard, line: &mut Vec<Point>) {
        let attacker = self.attacker;
        let mut placed = 0;
        let mut seen = HashSet::new();
        while let Some(reply) = self.tt.get(&self.key(tb, false)).copied() {
            if reply.kind != Kind::Win || reply.a == NO_CELL || !seen.insert(self.key(tb, false)) {
                break;
            }
            for c in [reply.a, reply.b] {
                line.push(tb.point(c as usize));
                tb.place(c as usize, attacker.opponent());
                placed += 1;
            }
            let turn = match tb.six_completion(attacker, 2) {
                Some(six) => Some((six, true)),
                None => self
                    .tt
                    .get(&self.key(tb, true))
                    .filter(|e| e.kind == Kind::Win)
                    .map(|e| ((e.a, e.b), false)),
            };
            let Some(((a, b), six)) = turn else { break };
            for c in [a, b] {
                line.push(tb.point(c as usize));
                tb.place(c as usize, attacker);
                placed += 1;
            }
            if six || tb.threats(attacker) >= 3 {
                break;
            }
        }
        for _ in 0..placed {
            tb.remove_last();
        }
    }

    /// Every cell where one more defender stone could change the last solve's proof from `tb`
    /// (its attacker to move with two stones, proven a win): the stones of every line of the
    /// proof tree; the empty cells of the attacker's threat windows after each of its turns; the
    /// live windows (2 and up) that made a free attacker stone a candidate; and the defender's
    /// windows holding 3 at each attacker node, where one more stone would make it a threat the
    /// attacker must answer. A defender stone elsewhere leaves every step of the proof as it is.
    /// Leaves `tb` as it was.
    pub fn proof_cells(&self, tb: &mut ThreatBoard) -> CellSet {
        let mut cells = CellSet::new();
        let mut seen = HashSet::new();
        self.collect_attack(tb, &mut cells, &mut seen);
        cells
    }

    fn collect_attack(&self, tb: &mut ThreatBoard, cells: &mut CellSet, seen: &mut HashSet<u64>) {
        let attacker = self.attacker;
        let defender = attacker.opponent();
        if tb.has_threat_window(attacker) {
            cells.union_with(&tb.threat_window_cells(attacker));
            return;
        }
        cells.union_with(&tb.potential_cells(defender, 3));
        let Some(entry) = self.tt.get(&self.key(tb, true)).copied() else {
            return;
        };
        if entry.kind != Kind::Win || entry.a == NO_CELL || entry.b == NO_CELL {
            return;
        }
        for c in [entry.a, entry.b] {
            cells.insert(c as usize);
            tb.place(c as usize, attacker);
        }
        let threat_cells = tb.threat_window_cells(attacker);
        cells.union_with(&threat_cells);
        for c in [entry.a, entry.b] {
            if !tb.stone_in_threat_window(c as usize, attacker) {
                cells.union_with(&tb.live_cells_through(c as usize, attacker, 3));
            }
        }
        if tb.threats(attacker) < 3 && seen.insert(self.key(tb, false)) {
            for (x, y) in blocking_pairs(tb, attacker) {
                for c in [x, y] {
                    cells.insert(c as usize);
                    tb.place(c as usize, defender);
                }
                self.collect_attack(tb, cells, seen);
                tb.remove_last();
                tb.remove_last();
            }
        }
        tb.remove_last();
        tb.remove_last();
    }
}
