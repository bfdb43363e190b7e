//! `vcdt-extract`: finds VCDT regression positions in real game endings and prints them as lines
//! of the suite format (src/tactics/suite.rs) for src/tactics/vcdt.txt.
//!
//! For a game that ends with a six, the winner's last turns are walked back while each left it at
//! least two threats and the loser no threat window: the chain of double threats. Three positions
//! around its start are checked with the solver and kept when the answer is clean:
//! * `win`: the winner to move before the chain; the solver must prove a win, and the stones are
//!   the winner's actual turn when the solver proves that turn wins too (else the solver's turn).
//! * `defend`, `defend2`: the loser to move one turn earlier (at its first stone, and at its
//!   second after the stone it played), when the `win` position is proven; the winner must have a
//!   VCDT after a pass, and the stones are the verified single-stone breakers (none of the stones
//!   the loser played may be one: with them on the board the winner's VCDT is proven).
//! * `none`: the winner to move one more turn earlier, when the solver proves it has no VCDT.
//!
//! Usage: `cargo run -p liuzi-tools --release --bin vcdt-extract -- ../shared/data/nebula-human.games`

use clap::Parser;
use liuzi::records::{read_file, GameRecord};
use liuzi::rules::{Board, Color, GameResult, Point};
use liuzi::tactics::suite::{format_case, Expect};
use liuzi::tactics::{defend, DefenceLimits, Solver, SolverLimits, Threat, ThreatBoard, Verdict};
use std::path::PathBuf;

#[derive(Parser)]
struct Args {
    /// `.games` file to read
    games: PathBuf,
    /// Wins to collect
    #[arg(long, default_value_t = 24)]
    wins: usize,
    /// Defences to collect
    #[arg(long, default_value_t = 12)]
    defences: usize,
    /// Positions without a VCDT to collect
    #[arg(long, default_value_t = 8)]
    nones: usize,
    /// Node limit of every solve (keeps the suite fast)
    #[arg(long, default_value_t = 30_000)]
    nodes: u64,
    /// Only chains of at least this many double-threat turns before the winning one
    #[arg(long, default_value_t = 1)]
    min_chain: usize,
    /// Prefix of the case ids
    #[arg(long, default_value = "game")]
    prefix: String,
}

fn main() -> Result<(), String> {
    let args = Args::parse();
    let games = read_file(&args.games).map_err(|e| e.to_string())?;
    let limits = SolverLimits {
        max_depth: 10,
        max_nodes: args.nodes,
        ..SolverLimits::default()
    };
    let defence_limits = DefenceLimits {
        verify_nodes: args.nodes,
        max_verifications: usize::MAX,
        max_time: None,
    };
    let (mut wins, mut defences, mut nones) = (0, 0, 0);
    for (n, game) in games.iter().enumerate() {
        if wins >= args.wins && defences >= args.defences && nones >= args.nones {
            break;
        }
        let Some((start, chain)) = chain_start(game) else {
            continue;
        };
        if chain < args.min_chain {
            continue;
        }
        let id = |kind: &str| format!("{}-{}-{kind}", args.prefix, n + 1);
        let turns: Vec<&[Point]> = game.turns().collect();
        let before = |turn: usize| board_before(&turns, turn);

        let board = before(start);
        let win = Solver::new(limits.clone()).solve(&board);
        if wins < args.wins {
            if let Verdict::Win(proof) = win.clone() {
                let played = turns[start].to_vec();
                let stones = if Solver::new(limits.clone())
                    .check_turn(&board, &played)
                    .is_win()
                {
                    played
                } else {
                    proof.stones
                };
                println!("{}", format_case(&id("win"), &board, Expect::Win, &stones));
                wins += 1;
            }
        }
        // Defences only where the winner's VCDT after the loser's actual turn is proven, so that
        // none of the loser's stones may break it alone.
        if defences < args.defences && start >= 2 && win.is_win() {
            // The loser's turn before the chain, at its first and at its second stone.
            let mut board = before(start - 1);
            let played = turns[start - 1];
            for (k, kind) in ["defend", "defend2"].into_iter().enumerate() {
                if k == 1 {
                    board.play(played[0]).expect("a replayed record is legal");
                }
                let mut solver = Solver::new(limits.clone());
                let Threat::Vcdt(d) = defend(&mut solver, &board, &defence_limits) else {
                    continue;
                };
                let size = board.size();
                if played[k..]
                    .iter()
                    .any(|p| d.breakers.contains(p.index(size)))
                {
                    eprintln!(
                        "{}: a stone the loser played breaks the VCDT alone",
                        id(kind)
                    );
                } else if d.unresolved.is_empty() && defences < args.defences {
                    let breakers: Vec<Point> = d.breakers.points(size).collect();
                    println!(
                        "{}",
                        format_case(&id(kind), &board, Expect::Defend, &breakers)
                    );
                    defences += 1;
                }
            }
        }
        if nones < args.nones && start >= 3 {
            let board = before(start - 2);
            if Solver::new(limits.clone()).solve(&board) == Verdict::NoVcdt {
                println!("{}", format_case(&id("none"), &board, Expect::None, &[]));
                nones += 1;
            }
        }
    }
    eprintln!("{wins} wins, {defences} defences, {nones} without a VCDT");
    Ok(())
}

/// The board after the first `turn` turns.
fn board_before(turns: &[&[Point]], turn: usize) -> Board {
    let mut board = Board::standard();
    for t in &turns[..turn] {
        for &p in t.iter() {
            board.play(p).expect("a replayed record is legal");
        }
    }
    board
}

/// For a game won by a six: the index of the winner's first turn of its final chain of double
/// threats (or of the six itself) and the chain's length in double-threat turns.
fn chain_start(game: &GameRecord) -> Option<(usize, usize)> {
    let board = game.replay().ok()?;
    let GameResult::Win(winner) = board.result() else {
        return None;
    };
    let turns: Vec<&[Point]> = game.turns().collect();
    let last = turns.len() - 1;
    let mut start = last;
    while start >= 2 && leaves_double_threat(&turns, start - 2, winner) {
        start -= 2;
    }
    Some((start, (last - start) / 2))
}

/// Whether turn `turn` (by `winner`) left it two or more threats and the loser no threat window.
fn leaves_double_threat(turns: &[&[Point]], turn: usize, winner: Color) -> bool {
    let board = board_before(turns, turn + 1);
    if board.to_move() == winner || board.is_over() {
        return false;
    }
    let tb = ThreatBoard::from_board(&board);
    tb.threats(winner) >= 2 && !tb.has_threat_window(winner.opponent())
}
