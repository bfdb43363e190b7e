//! `quiet-win-scan`: at every turn start of the games of a `liuzi-match` results file, after the
//! opening, where the side to move has no VCDT (it may have to defend), asks two questions of
//! the side to move: is the turn it played a quiet win (`liuzi::tactics::defender_lost`: no
//! pair of the opponent's stops its VCDT), and does the threat-space search
//! (`liuzi::tactics::find_quiet_turn`) find one? One line per turn where either is so (turn N
//! is the game's N-th turn after Black's first stone); a summary per side at the end: quiet
//! wins played, found, and found but not played (missed). The scan behind
//! docs/tactics.md, the solver.
//!
//! Usage: `cargo run -p liuzi-tools --release --bin quiet-win-scan --
//! experiments/cloudict/liuzi-vs-cloudict-d5-own1-5.jsonl --engine liuzi --lost`

use clap::Parser;
use liuzi::notation::format_games;
use liuzi::rules::{Board, Color, Point};
use liuzi::tactics::{
    defender_lost, find_quiet_turn, QuietTurn, QuietTurnLimits, QuietWin, QuietWinLimits, Solver,
    SolverLimits, ThreatBoard,
};
use liuzi_tools::match_runner::results::GameLine;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Parser)]
struct Args {
    /// `liuzi-match` results (`.jsonl`, one game a line)
    results: PathBuf,
    /// The engine whose games are scanned (either colour)
    #[arg(long)]
    engine: String,
    /// Only the games `--engine` lost
    #[arg(long)]
    lost: bool,
    /// Only the first N games scanned
    #[arg(long)]
    games: Option<usize>,
    /// Cells paired into candidate turns
    #[arg(long, default_value_t = QuietTurnLimits::default().cells)]
    cells: usize,
    /// Candidate turns tried
    #[arg(long, default_value_t = QuietTurnLimits::default().turns)]
    turns: usize,
    /// Node limit of the candidates' screen (the attacker's VCDT if the defender passed)
    #[arg(long, default_value_t = QuietTurnLimits::default().screen_nodes)]
    screen_nodes: u64,
    /// Node limit of each VCDT solve, and of the proofs' solves
    #[arg(long, default_value_t = 100_000)]
    nodes: u64,
    /// Node limit of each verification of a defending second stone
    #[arg(long, default_value_t = 20_000)]
    verify_nodes: u64,
}

/// Counts for one side.
#[derive(Default)]
struct Tally {
    /// Turn starts looked at.
    scanned: usize,
    /// Of those, turns where the side to move had no VCDT.
    turns: usize,
    played: usize,
    found: usize,
    missed: usize,
    /// Turns whose played quiet win the search found a quiet win for too (any turn).
    played_and_found: usize,
    /// Turns whose search hit a limit.
    unknown: usize,
    seconds: f64,
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    let path = args.results.display();
    let text = std::fs::read_to_string(&args.results).map_err(|e| format!("{path}: {e}"))?;
    let proof = QuietWinLimits {
        vcdt_nodes: args.nodes,
        verify_nodes: args.verify_nodes,
        max_nodes: 50_000_000,
        max_time: None,
        free_reach: SolverLimits::default().free_reach,
    };
    let search_limits = QuietTurnLimits {
        cells: args.cells,
        turns: args.turns,
        screen_nodes: args.screen_nodes,
        proof: proof.clone(),
    };
    let mut solver = Solver::new(SolverLimits {
        max_nodes: args.nodes,
        ..SolverLimits::default()
    });
    let mut tallies: BTreeMap<&'static str, Tally> = BTreeMap::new();
    let mut scanned = 0;
    for (n, line) in text.lines().enumerate() {
        let game: GameLine =
            serde_json::from_str(line).map_err(|e| format!("{path}:{}: {e}", n + 1))?;
        let engine_is_black = game.black == args.engine;
        if !engine_is_black && game.white != args.engine {
            continue;
        }
        let engine = if engine_is_black {
            Color::Black
        } else {
            Color::White
        };
        if args.lost && game.result.score_for(engine) > 0.0 {
            continue;
        }
        scanned += 1;
        if args.games.is_some_and(|g| scanned > g) {
            break;
        }
        let at_line = |e: String| format!("{path}:{}: {e}", n + 1);
        let stones = game.stones().map_err(at_line)?;
        let mut board = Board::new(game.size).ok_or_else(|| at_line("bad size".into()))?;
        for (k, &stone) in stones.iter().enumerate() {
            let at_turn_start = k >= game.opening_stones && board.stone_count() % 2 == 1;
            if at_turn_start && k + 1 < stones.len() {
                let mover_is_engine = board.to_move() == engine;
                let side = if mover_is_engine {
                    "engine"
                } else {
                    "opponent"
                };
                let turn = [stones[k], stones[k + 1]];
                let start = Instant::now();
                let line = scan_turn(&mut solver, &board, turn, &proof, &search_limits)
                    .map_err(at_line)?;
                let tally = tallies.entry(side).or_default();
                tally.seconds += start.elapsed().as_secs_f64();
                tally.scanned += 1;
                if let Some((played, found)) = line {
                    tally.turns += 1;
                    tally.played += usize::from(played);
                    let unknown = found.as_deref().is_some_and(|f| f.starts_with("unknown"));
                    let won = found.is_some() && !unknown;
                    tally.unknown += usize::from(unknown);
                    tally.found += usize::from(won);
                    tally.missed += usize::from(!played && won);
                    tally.played_and_found += usize::from(played && won);
                    if played || found.is_some() {
                        println!(
                            "game {} ({:?}) turn {} {side}: played {}-{}{}, search {}",
                            game.game,
                            game.result,
                            board.stone_count().div_ceil(2),
                            format_games(turn[0]),
                            format_games(turn[1]),
                            if played { " (a quiet win)" } else { "" },
                            found.unwrap_or_else(|| "none".into())
                        );
                    }
                }
            }
            board.play(stone).map_err(|e| at_line(e.to_string()))?;
        }
    }
    println!("side      scanned  no VCDT  quiet wins played  found  played & found  found, not played  unknown  seconds");
    for (side, t) in &tallies {
        println!(
            "{side:<8} {:>8} {:>8} {:>18} {:>6} {:>15} {:>18} {:>8} {:>8.1}",
            t.scanned,
            t.turns,
            t.played,
            t.found,
            t.played_and_found,
            t.missed,
            t.unknown,
            t.seconds
        );
    }
    Ok(())
}

/// At a turn start with `turn` played next: `None` when the side to move has a VCDT (its turn
/// is that attack, not a quiet one), else whether `turn` was a quiet win and what the
/// search found.
fn scan_turn(
    solver: &mut Solver,
    board: &Board,
    turn: [Point; 2],
    proof: &QuietWinLimits,
    search: &QuietTurnLimits,
) -> Result<Option<(bool, Option<String>)>, String> {
    let me = board.to_move();
    let mut tb = ThreatBoard::from_board(board);
    solver.limits.max_nodes = proof.vcdt_nodes;
    if solver.solve_on(&mut tb, me, 2).is_win() {
        return Ok(None);
    }
    let mut after = tb.clone();
    for p in turn {
        let cell = p.index(board.size());
        if after.get(cell).is_some() {
            return Err(format!("{} is occupied", format_games(p)));
        }
        after.place(cell, me);
    }
    let played = !after.has_six(me)
        && defender_lost(solver, &mut after, me.opponent(), proof) == QuietWin::Win;
    let found = match find_quiet_turn(solver, &mut tb, me, 2, search) {
        QuietTurn::Win(cells) => Some(
            cells
                .iter()
                .map(|&c| format_games(tb.point(c as usize)))
                .collect::<Vec<_>>()
                .join("-"),
        ),
        QuietTurn::Unknown => Some("unknown (a limit)".into()),
        QuietTurn::None => None,
    };
    Ok(Some((played, found)))
}
