//! `tactics-audit`: replays the games of a `liuzi-match` results file and asks the VCDT solver,
//! at every turn start after the opening, what each side missed:
//!
//! * `missed-win`: the side to move had a VCDT and its turn did not keep one (no six, no proven
//!   continuation);
//! * `failed-defence`: the opponent had a VCDT if the side to move passed, the side to move's turn
//!   did not break it, and some pair of stones would have (found by trying every zone cell as the
//!   first stone and verifying the second-stone zone; with `--defence-single-threats`, only a
//!   pair after which the opponent has no win that starts with a single threat either);
//! * `lost-already`: the same, but no defending pair was found (the position was lost earlier);
//! * `defended`: the opponent's VCDT was broken.
//!
//! For each game lost by `--engine`, the first of these events on its side is its decisive
//! mistake; a loss with none is counted as `no-vcdt` (the winner won outside the solver's model
//! until the end). With `-v` every event is printed.
//!
//! Usage: `tactics-audit experiments/tuning/strength/vmix50-fast-vs-alphabeta.jsonl --engine vmix50`
//!
//! With `--position STONES` it solves one position instead; adding `--pairs` times the two pair
//! defences there, by proof zones and one first stone at a time (experiments/pair-defence), and
//! `--single-threat` looks for a win that starts with a single threat where there is no VCDT.

use clap::Parser;
use liuzi::notation::{format_games, format_gtp};
use liuzi::rules::{Board, Color, Point};
use liuzi::tactics::suite::replay;
use liuzi::tactics::{
    defend_on, pair_defence, partner, single_threat_win, DefenceLimits, PairDefenceLimits,
    PairThreat, Partner, SingleThreat, SingleThreatLimits, Solver, SolverLimits, Threat,
    ThreatBoard, Verdict,
};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Parser)]
struct Args {
    /// `liuzi-match` results (`.jsonl`, one game a line)
    #[arg(required_unless_present = "position")]
    results: Option<PathBuf>,
    /// The engine whose losses are classified
    #[arg(long, required_unless_present = "position", default_value = "")]
    engine: String,
    /// Node limit of every solve
    #[arg(long, default_value_t = 300_000)]
    nodes: u64,
    /// Node limit of each verification in the search for a defending pair
    #[arg(long, default_value_t = 20_000)]
    verify_nodes: u64,
    /// The solver's free-stone reach (`search.solver_free_reach`; 0: the narrower model)
    #[arg(long, default_value_t = SolverLimits::default().free_reach)]
    free_reach: u8,
    /// Only the first N games
    #[arg(long)]
    games: Option<usize>,
    /// Print every event
    #[arg(short, long)]
    verbose: bool,
    /// Instead of auditing: `.games`-style stones of one position, whose side to move is solved
    /// (e.g. after a defending turn: does the opponent still have a VCDT?)
    #[arg(long)]
    position: Option<String>,
    /// With `--position`: solve for the opponent of the side to move, as if it passed
    #[arg(long, requires = "position")]
    pass: bool,
    /// With `--position` (two stones to place): a pair that breaks the opponent's VCDT, found by
    /// proof zones (`tactics::pair_defence`, verifications from `--verify-nodes` up in three
    /// rounds) and one first stone at a time (`tactics::partner`), each timed
    #[arg(long, requires = "position", conflicts_with = "pass")]
    pairs: bool,
    /// With `--pairs`: seconds each search may take
    #[arg(long, requires = "pairs")]
    pair_time: Option<f64>,
    /// With `--position`, the side to move at the start of its turn: where it has no VCDT, a win
    /// that starts with a single threat (`tactics::single_threat_win`: a four and a building
    /// stone, after which no block-and-free-stone pair stops its VCDT)
    #[arg(long, requires = "position", conflicts_with_all = ["pass", "pairs"])]
    single_threat: bool,
    /// Auditing games: a defending pair counts only when the opponent, after it, has no win
    /// that starts with a single threat either (the pair check's test); pairs that lose to one
    /// are passed over for the next. Without it a `failed-defence` may name a pair that only
    /// delays the loss (docs/tactics.md, defences)
    #[arg(long, conflicts_with = "position")]
    defence_single_threats: bool,
    /// With `--defence-single-threats`: solver stones each pair's single-threat search may place
    #[arg(long, requires = "defence_single_threats", default_value_t = SingleThreatLimits::default().max_nodes)]
    single_threat_nodes: u64,
}

#[derive(serde::Deserialize)]
struct GameLine {
    game: usize,
    black: String,
    white: String,
    result: String,
    moves: String,
    opening_stones: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Event {
    MissedWin,
    FailedDefence,
    LostAlready,
    Defended,
    /// The solver could not decide (a limit).
    Unknown,
}

impl Event {
    fn name(self) -> &'static str {
        match self {
            Event::MissedWin => "missed-win",
            Event::FailedDefence => "failed-defence",
            Event::LostAlready => "lost-already",
            Event::Defended => "defended",
            Event::Unknown => "unknown",
        }
    }
}

struct Audit {
    solver: Solver,
    verify_nodes: u64,
    /// `--defence-single-threats`: the single-threat search's limits.
    single_threats: Option<SingleThreatLimits>,
}

impl Audit {
    /// The opponent's VCDT if the side to move on `board` passed: `Some(true)` yes, `Some(false)`
    /// no, `None` unknown.
    fn threatened(&mut self, board: &Board) -> Option<bool> {
        let mut tb = ThreatBoard::from_board(board);
        match self.solver.solve_on(&mut tb, board.to_move().opponent(), 2) {
            Verdict::Win(_) => Some(true),
            Verdict::NoVcdt => Some(false),
            Verdict::Unknown => None,
        }
    }

    /// A pair of stones for the side to move on `board` (two stones left) after which the
    /// opponent has no VCDT: `Some(Some(pair))`, `Some(None)` when none was found with every
    /// verification decided, `None` when some verification hit its limit.
    fn defending_pair(&mut self, board: &Board) -> Option<Option<(Point, Point)>> {
        let me = board.to_move();
        let mut tb = ThreatBoard::from_board(board);
        let limits = DefenceLimits {
            verify_nodes: self.verify_nodes,
            max_verifications: usize::MAX,
            max_time: None,
        };
        let Threat::Vcdt(first) = defend_on(&mut self.solver, &mut tb, me, 2, &limits) else {
            return None;
        };
        let mut undecided = false;
        for a in first.zone.iter() {
            if tb.get(a).is_some() {
                continue;
            }
            tb.place(a, me);
            let second = defend_on(&mut self.solver, &mut tb, me, 1, &limits);
            tb.remove_last();
            let partners: Vec<usize> = match second {
                // Alone it breaks the VCDT; any second stone goes with it (the audit names `a`
                // twice). The single-threat check is made with `a` alone on the board: no win
                // there is none with any partner, a win may be one a partner stops.
                Threat::None => vec![a],
                Threat::Unknown => {
                    undecided = true;
                    Vec::new()
                }
                Threat::Vcdt(d) => {
                    undecided |= !d.unresolved.is_empty() || !d.unverified().is_empty();
                    d.breakers.iter().collect()
                }
            };
            for b in partners {
                match self.survives_single_threats(&mut tb, me, a, b) {
                    Some(true) => return Some(Some((tb.point(a), tb.point(b)))),
                    Some(false) => {}
                    None => undecided = true,
                }
            }
        }
        if undecided {
            None
        } else {
            Some(None)
        }
    }

    /// Whether `me`'s pair `a`, `b` (`a` twice: the stone alone) leaves the opponent no win
    /// that starts with a single threat: always, without `--defence-single-threats`; `None`
    /// when that search hit its limit, or found a win against `a` alone.
    fn survives_single_threats(
        &mut self,
        tb: &mut ThreatBoard,
        me: Color,
        a: usize,
        b: usize,
    ) -> Option<bool> {
        let Some(limits) = self.single_threats.clone() else {
            return Some(true);
        };
        tb.place(a, me);
        if b != a {
            tb.place(b, me);
        }
        let verdict = single_threat_win(&mut self.solver, tb, me.opponent(), 2, &limits);
        tb.remove_last();
        if b != a {
            tb.remove_last();
        }
        match verdict {
            SingleThreat::Win(_) if b == a => None,
            SingleThreat::Win(_) => Some(false),
            SingleThreat::None => Some(true),
            SingleThreat::Unknown => None,
        }
    }
}

/// `--pairs`: the proof-zone pair defence ([`pair_defence`]) against the search one first stone
/// at a time ([`partner`], as `root_plan` did before), each stopping at the first defending pair
/// or after `time`, on `board` (two stones to place).
fn compare_pair_searches(
    solver: &mut Solver,
    board: &Board,
    verify_nodes: u64,
    time: Option<Duration>,
) {
    let me = board.to_move();
    let name = |c: usize| format_games(Point::from_index(c, board.size()));
    let pair = |p: Option<(usize, usize)>| {
        p.map_or("none".to_string(), |(x, y)| {
            format!("{}-{}", name(x), name(y))
        })
    };
    let base = solver.limits.clone();

    solver.clear();
    let limits = PairDefenceLimits {
        verify_nodes,
        max_time: time,
        enough: 1,
        ..PairDefenceLimits::default()
    };
    let mut tb = ThreatBoard::from_board(board);
    let (start, nodes) = (Instant::now(), solver.total_nodes());
    let found = match pair_defence(solver, &mut tb, me, 2, &[], &limits) {
        PairThreat::Vcdt(d) => {
            let found = d.partners.first().copied();
            format!(
                "{} ({} solves, {} first stones lost)",
                pair(found),
                d.solves,
                d.lost.len()
            )
        }
        PairThreat::None => "no threat".to_string(),
        PairThreat::Unknown => "unknown".to_string(),
    };
    println!(
        "proof zones: {found}, {} nodes, {:.3} s",
        solver.total_nodes() - nodes,
        start.elapsed().as_secs_f64()
    );

    solver.clear();
    solver.limits = base.clone();
    let (start, nodes) = (Instant::now(), solver.total_nodes());
    let deadline = time.map(|t| start + t);
    let pass = DefenceLimits {
        max_verifications: 0,
        ..DefenceLimits::default()
    };
    let found = match defend_on(solver, &mut tb, me, 2, &pass) {
        Threat::Vcdt(d) => {
            let mut found = None;
            for x in d.zone.iter() {
                let remaining = deadline.map(|d| d.saturating_duration_since(Instant::now()));
                if remaining.is_some_and(|r| r.is_zero()) {
                    break;
                }
                solver.limits = SolverLimits {
                    max_nodes: verify_nodes * 4,
                    max_time: remaining,
                    ..base.clone()
                };
                let limits = DefenceLimits {
                    verify_nodes,
                    max_verifications: 48,
                    max_time: remaining,
                };
                found = match partner(solver, &mut tb, me, x, &limits) {
                    Partner::Alone => Some((x, x)),
                    Partner::With(y) => Some((x, y)),
                    _ => None,
                };
                if found.is_some() {
                    break;
                }
            }
            pair(found)
        }
        Threat::None => "no threat".to_string(),
        Threat::Unknown => "unknown".to_string(),
    };
    solver.limits = base;
    println!(
        "one first stone at a time: {found}, {} nodes, {:.3} s",
        solver.total_nodes() - nodes,
        start.elapsed().as_secs_f64()
    );
}

/// Turns of a game: the stones of each, from the first.
fn turns(moves: &str) -> Vec<Vec<&str>> {
    moves
        .split_whitespace()
        .map(|t| t.split('-').collect())
        .collect()
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    if let Some(moves) = &args.position {
        let board = replay(moves)?;
        let mut solver = Solver::new(SolverLimits {
            max_depth: 10,
            max_nodes: args.nodes,
            max_time: None,
            free_reach: args.free_reach,
        });
        if args.pairs {
            compare_pair_searches(
                &mut solver,
                &board,
                args.verify_nodes,
                args.pair_time.map(Duration::from_secs_f64),
            );
            return Ok(());
        }
        let verdict = if args.pass {
            let mut tb = ThreatBoard::from_board(&board);
            solver.solve_on(&mut tb, board.to_move().opponent(), 2)
        } else {
            solver.solve(&board)
        };
        let (nodes, depth) = (solver.stats().nodes, solver.stats().depth);
        let verdict = match verdict {
            Verdict::Win(p) => {
                let line: Vec<String> = p.line.iter().map(|&q| format_games(q)).collect();
                format!("VCDT, depth {}: {}", p.depth, line.join(" "))
            }
            Verdict::NoVcdt => "no VCDT".to_string(),
            Verdict::Unknown => "unknown".to_string(),
        };
        let who = if args.pass {
            board.to_move().opponent()
        } else {
            board.to_move()
        };
        println!("{who:?} attacking: {verdict} ({nodes} nodes, iteration {depth})");
        if args.single_threat && verdict == "no VCDT" {
            let limits = SingleThreatLimits {
                max_nodes: args.nodes,
                free_reach: args.free_reach,
                ..SingleThreatLimits::default()
            };
            let mut tb = ThreatBoard::from_board(&board);
            let first = solver.total_nodes();
            let answer = match single_threat_win(&mut solver, &mut tb, who, 2, &limits) {
                SingleThreat::Win(turn) => format!(
                    "wins with the single threat {} {}",
                    format_games(turn[0]),
                    format_games(turn[1])
                ),
                SingleThreat::None => "no single-threat win".to_string(),
                SingleThreat::Unknown => "single threat unknown".to_string(),
            };
            let nodes = solver.total_nodes() - first;
            println!("{who:?} attacking: {answer} ({nodes} nodes)");
        }
        return Ok(());
    }
    let path = args.results.clone().unwrap_or_default();
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut audit = Audit {
        solver: Solver::new(SolverLimits {
            max_depth: 10,
            max_nodes: args.nodes,
            max_time: None,
            free_reach: args.free_reach,
        }),
        verify_nodes: args.verify_nodes,
        single_threats: args.defence_single_threats.then(|| SingleThreatLimits {
            max_nodes: args.single_threat_nodes,
            free_reach: args.free_reach,
            ..SingleThreatLimits::default()
        }),
    };
    // Per engine: event counts; for the audited engine's losses: the first event.
    let mut counts: BTreeMap<(String, &'static str), usize> = BTreeMap::new();
    let mut decisive: BTreeMap<String, usize> = BTreeMap::new();
    let mut decisive_turns: Vec<usize> = Vec::new();
    let mut lost = 0;
    for (n, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        if args.games.is_some_and(|g| n >= g) {
            break;
        }
        let g: GameLine = serde_json::from_str(line).map_err(|e| format!("line {}: {e}", n + 1))?;
        let name_of = |c: Color| {
            if c == Color::Black {
                &g.black
            } else {
                &g.white
            }
        };
        let turns = turns(&g.moves);
        let mut played = 0;
        let mut first_mistake: Option<(usize, Event)> = None;
        let mut stones_so_far: Vec<&str> = Vec::new();
        for (t, turn) in turns.iter().enumerate() {
            let board = replay(&stones_so_far.join(" "))?;
            stones_so_far.extend(turn.iter().copied());
            played += turn.len();
            if played <= g.opening_stones || turn.len() < 2 || board.is_over() {
                continue;
            }
            let mover = board.to_move();
            let name = name_of(mover).clone();
            let mut events = Vec::new();
            let own = audit.solver.solve(&board);
            let after = replay(&stones_so_far.join(" "))?;
            if own.is_win() && !after.is_over() {
                let pts: Vec<Point> = turn
                    .iter()
                    .map(|s| liuzi::notation::parse_games(s, 19).unwrap())
                    .collect();
                if !audit.solver.check_turn(&board, &pts).is_win() {
                    events.push(Event::MissedWin);
                }
            }
            if !own.is_win() {
                match audit.threatened(&board) {
                    Some(true) => {
                        let still = if after.is_over() {
                            Some(false)
                        } else {
                            match audit.solver.solve(&after) {
                                Verdict::Win(_) => Some(true),
                                Verdict::NoVcdt => Some(false),
                                Verdict::Unknown => None,
                            }
                        };
                        events.push(match still {
                            Some(false) => Event::Defended,
                            None => Event::Unknown,
                            Some(true) => match audit.defending_pair(&board) {
                                Some(Some((a, b))) => {
                                    if args.verbose {
                                        eprintln!(
                                            "  game {} turn {t}: {name} could defend with {} {}",
                                            g.game,
                                            format_gtp(a),
                                            format_gtp(b)
                                        );
                                    }
                                    Event::FailedDefence
                                }
                                Some(None) => Event::LostAlready,
                                None => Event::Unknown,
                            },
                        });
                    }
                    Some(false) => {}
                    None => events.push(Event::Unknown),
                }
            }
            for e in events {
                *counts.entry((name.clone(), e.name())).or_default() += 1;
                if args.verbose {
                    eprintln!(
                        "game {} turn {t} ({name}, {}): {}",
                        g.game,
                        turn.join("-"),
                        e.name()
                    );
                }
                if name == args.engine
                    && first_mistake.is_none()
                    && matches!(
                        e,
                        Event::MissedWin | Event::FailedDefence | Event::LostAlready
                    )
                {
                    first_mistake = Some((t, e));
                }
            }
        }
        let engine_colour = if g.black == args.engine {
            "B"
        } else if g.white == args.engine {
            "W"
        } else {
            continue;
        };
        let engine_lost = (g.result == "B" || g.result == "W") && g.result != engine_colour;
        if engine_lost {
            lost += 1;
            let key = match first_mistake {
                Some((t, e)) => {
                    decisive_turns.push(turns.len() - t);
                    e.name()
                }
                None => "no-vcdt",
            };
            *decisive
                .entry(format!("{key} (as {engine_colour})"))
                .or_default() += 1;
            if args.verbose {
                eprintln!(
                    "game {}: {} lost, first mistake {first_mistake:?}",
                    g.game, args.engine
                );
            }
        }
    }
    println!("events per engine (turn starts after the opening):");
    for ((name, event), n) in &counts {
        println!("  {name:12} {event:15} {n}");
    }
    println!("{} lost {lost} games; its first mistake:", args.engine);
    for (k, n) in &decisive {
        println!("  {k:28} {n}");
    }
    if !decisive_turns.is_empty() {
        decisive_turns.sort_unstable();
        println!(
            "  turns from the first mistake to the game's end: median {}, range {}..{}",
            decisive_turns[decisive_turns.len() / 2],
            decisive_turns[0],
            decisive_turns[decisive_turns.len() - 1]
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn audit(single_threats: bool) -> Audit {
        Audit {
            solver: Solver::new(SolverLimits {
                max_depth: 10,
                max_nodes: 100_000,
                max_time: None,
                free_reach: SolverLimits::default().free_reach,
            }),
            verify_nodes: 5_000,
            single_threats: single_threats.then(SingleThreatLimits::default),
        }
    }

    #[test]
    fn a_pair_that_loses_to_a_single_threat_is_no_defence_with_the_flag() {
        // Game 4 of experiments/cloudict/liuzi-vs-cloudict-d4-depthstart.jsonl, Black to move:
        // e9 j9 breaks White's VCDT, and White then wins with the single threat i7 i10 (the
        // pair check's test in src/search/mcts/pair_check.rs).
        let board = replay("h13 i9-j7 i12-h11 h9-g10 f11-g12 f9-i8 k6-i14 d9-j15").unwrap();
        let mut tb = ThreatBoard::from_board(&board);
        let cell = |s: &str| liuzi::notation::parse_games(s, 19).unwrap().index(19);
        let (e9, j9) = (cell("e9"), cell("j9"));
        let black = board.to_move();
        assert_eq!(
            audit(true).survives_single_threats(&mut tb, black, e9, j9),
            Some(false)
        );
        assert_eq!(
            audit(false).survives_single_threats(&mut tb, black, e9, j9),
            Some(true)
        );
        // The board is given back as it was.
        assert_eq!(tb.get(e9), None);
        assert_eq!(tb.get(j9), None);
    }
}
