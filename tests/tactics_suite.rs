//! The VCDT regression suite (src/tactics/vcdt.txt; format in src/tactics/suite.rs): positions from
//! real game endings (made by `vcdt-extract`) and built by hand, each solved within node limits.

use liuzi::notation::format_games;
use liuzi::rules::{Board, Point};
use liuzi::tactics::suite::{parse_suite, Expect, SuiteCase};
use liuzi::tactics::{
    defend, DefenceLimits, Solver, SolverLimits, Threat, ThreatBoard, Verdict, WinProof,
};

/// The limits the suite's answers were recorded with.
fn limits() -> SolverLimits {
    SolverLimits {
        max_depth: 10,
        max_nodes: 100_000,
        ..SolverLimits::default()
    }
}

fn defence_limits() -> DefenceLimits {
    DefenceLimits {
        verify_nodes: 30_000,
        max_verifications: usize::MAX,
        max_time: None,
    }
}

fn names(points: impl IntoIterator<Item = Point>) -> String {
    let mut v: Vec<String> = points.into_iter().map(format_games).collect();
    v.sort();
    v.join(" ")
}

/// Replays the proof's line: every attacker turn but the last leaves it at least two threats and
/// the defender no threat window, every defender reply takes both threats away, and the last
/// attacker turn makes six or leaves three or more threats.
fn check_line(board: &Board, proof: &WinProof) -> Result<(), String> {
    let attacker = board.to_move();
    let mut tb = ThreatBoard::from_board(board);
    let size = board.size();
    let mut colour = attacker;
    let first = proof.stones.len();
    let mut chunks = vec![&proof.line[..first.min(proof.line.len())]];
    chunks.extend(proof.line[first.min(proof.line.len())..].chunks(2));
    let turns = chunks.len();
    for (t, chunk) in chunks.into_iter().enumerate() {
        for p in chunk {
            if tb.get(p.index(size)).is_some() {
                return Err(format!("line stone {} is occupied", format_games(*p)));
            }
            tb.place(p.index(size), colour);
        }
        let last = t + 1 == turns;
        if colour == attacker {
            if tb.has_six(attacker) || (last && tb.threats(attacker) >= 3) {
                return if last {
                    Ok(())
                } else {
                    Err("a six before the line's end".into())
                };
            }
            if tb.threats(attacker) < 2 || tb.has_threat_window(attacker.opponent()) {
                return Err(format!("attacker turn {} makes no double threat", t + 1));
            }
        } else if tb.threats(attacker) != 0 {
            return Err(format!("defender reply {} leaves a threat", t + 1));
        }
        colour = colour.opponent();
    }
    Err("the line does not end in a win".into())
}

fn run(case: &SuiteCase, nodes: &mut u64) -> Result<(), String> {
    let board = &case.board;
    match case.expect {
        Expect::Win => {
            let mut solver = Solver::new(limits());
            let verdict = solver.solve(board);
            *nodes += solver.total_nodes();
            let Verdict::Win(proof) = verdict else {
                return Err(format!("expected a win, got {verdict:?}"));
            };
            check_line(board, &proof)?;
            if !solver.check_turn(board, &proof.stones).is_win() {
                return Err("the solver's own turn does not check".into());
            }
            let mut fresh = Solver::new(limits());
            let checked = fresh.check_turn(board, &case.stones);
            *nodes += fresh.total_nodes();
            if !checked.is_win() {
                return Err(format!(
                    "expected turn {} not proven: {checked:?}",
                    names(case.stones.iter().copied())
                ));
            }
        }
        Expect::None => {
            let mut solver = Solver::new(limits());
            let verdict = solver.solve(board);
            *nodes += solver.total_nodes();
            if verdict != Verdict::NoVcdt {
                return Err(format!("expected no VCDT, got {verdict:?}"));
            }
        }
        Expect::Defend => {
            let mut solver = Solver::new(limits());
            let threat = defend(&mut solver, board, &defence_limits());
            *nodes += solver.total_nodes();
            let Threat::Vcdt(d) = threat else {
                return Err(format!(
                    "expected the opponent to have a VCDT, got {threat:?}"
                ));
            };
            let size = board.size();
            let got = names(d.breakers.points(size));
            let expected = names(case.stones.iter().copied());
            if got != expected {
                return Err(format!("breakers {got:?}, expected {expected:?}"));
            }
            if !d.unresolved.is_empty() || !d.unverified().is_empty() {
                return Err("some zone cells are not decided".into());
            }
            for p in &case.stones {
                if !d.zone.contains(p.index(size)) {
                    return Err(format!("breaker {} outside the zone", format_games(*p)));
                }
            }
        }
    }
    Ok(())
}

#[test]
fn vcdt_suite() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/tactics/vcdt.txt");
    let text = std::fs::read_to_string(path).expect("read src/tactics/vcdt.txt");
    let cases = parse_suite(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut failures = Vec::new();
    let mut nodes = 0;
    let mut counts = [0usize; 3];
    for case in &cases {
        counts[case.expect as usize] += 1;
        if let Err(e) = run(case, &mut nodes) {
            failures.push(format!("line {} {}: {e}", case.line, case.id));
        }
    }
    eprintln!(
        "{} cases ({} win, {} none, {} defend), {nodes} solver nodes",
        cases.len(),
        counts[0],
        counts[1],
        counts[2]
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The suite must cover every kind, from games and by hand.
    assert!(counts.iter().all(|&n| n >= 5), "{counts:?}");
    assert!(cases.iter().any(|c| c.id.starts_with("hand")));
    assert!(
        cases
            .iter()
            .filter(|c| c.id.starts_with("nebula") || c.id.starts_with("lg"))
            .count()
            >= 24
    );
}
