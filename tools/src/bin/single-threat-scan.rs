//! `single-threat-scan`: after each of an engine's pairs as White in the games it lost, does the
//! opponent have a VCDT (within the solver's default limits) or a win that starts with a single
//! threat (`liuzi::tactics::single_threat_win`, default limits)? One line per pair, up to the
//! first such win: the scan behind docs/tactics.md, the solver.
//!
//! Usage: `cargo run -p liuzi-tools --release --bin single-threat-scan --
//! experiments/cloudict/liuzi-vs-cloudict-d4-deepzone.jsonl --engine liuzi --games 13`

use clap::Parser;
use liuzi::notation::format_games;
use liuzi::rules::Color;
use liuzi::tactics::suite::replay;
use liuzi::tactics::{
    single_threat_win, SingleThreat, SingleThreatLimits, Solver, SolverLimits, ThreatBoard,
};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Parser)]
struct Args {
    /// liuzi-match results (`.jsonl`)
    results: PathBuf,
    /// The engine whose White losses are scanned
    #[arg(long, default_value = "liuzi")]
    engine: String,
    /// Lost games to scan
    #[arg(long, default_value_t = 13)]
    games: usize,
    /// White turns scanned per game (from its first)
    #[arg(long, default_value_t = 6)]
    turns: usize,
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    let path = args.results.display();
    let text = std::fs::read_to_string(&args.results).map_err(|e| format!("{path}: {e}"))?;
    let mut scanned = 0;
    for (n, line) in text.lines().enumerate() {
        let game: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("{path}:{}: {e}", n + 1))?;
        if game["white"] != args.engine.as_str() || game["result"] != "B" {
            continue;
        }
        scanned += 1;
        if scanned > args.games {
            break;
        }
        let moves: Vec<&str> = game["moves"].as_str().unwrap_or("").split(' ').collect();
        let mut solver = Solver::new(SolverLimits::default());
        // moves[0] is Black's lone stone; White's turns are the odd entries.
        for k in (1..moves.len()).step_by(2).take(args.turns) {
            let board =
                replay(&moves[..=k].join(" ")).map_err(|e| format!("{path}:{}: {e}", n + 1))?;
            let start = Instant::now();
            let first = solver.total_nodes();
            let found = if solver.solve(&board).is_win() {
                "VCDT".to_string()
            } else {
                let mut tb = ThreatBoard::from_board(&board);
                let limits = SingleThreatLimits::default();
                match single_threat_win(&mut solver, &mut tb, Color::Black, 2, &limits) {
                    SingleThreat::Win([a, b]) => {
                        format!("single threat {}-{}", format_games(a), format_games(b))
                    }
                    other => format!("{other:?}"),
                }
            };
            println!(
                "game {} white turn {} ({}): {found}, {:.3} s, {} nodes",
                game["game"],
                k.div_ceil(2),
                moves[k],
                start.elapsed().as_secs_f64(),
                solver.total_nodes() - first
            );
            if found == "VCDT" || found.starts_with("single threat") {
                break;
            }
        }
    }
    Ok(())
}
