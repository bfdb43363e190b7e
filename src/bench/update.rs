//! `liuzi bench update`: the cost of keeping a [`PolicyBoard`] current, apart from choosing
//! stones: each stone is played and the static weights brought up to date
//! ([`PolicyBoard::settle`]; the board itself defers that to the next query). Playouts from the
//! search bench's positions are drawn once with the shipped weights, then replayed stone by
//! stone (restore, play, play, ...) and timed.
//!
//! With `--stones FILE`, the first run writes the drawn stones there and later runs replay
//! them, so two builds (even ones whose weights differ) compare on the same stones. With
//! `--games FILE` (any record format), the first 2,000 games of FILE are played and undone
//! instead, stone by stone: the cost per stone on expert games.

use super::search::{bench_positions, default_knowledge};
use crate::policy::PolicyBoard;
use crate::rules::{GameResult, Point};
use crate::search::SearchRng;
use rand::SeedableRng;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;
use web_time::Instant;

/// Bench positions with the stones of each playout drawn from them.
type Playouts = Vec<(PolicyBoard, Vec<Vec<Point>>)>;

/// Draws `per_position` playouts from each bench position, replays them `rounds` times and
/// returns the report's lines, the last one JSON. `stones`: the file that shares the drawn
/// stones between runs.
pub fn run_update_bench(
    per_position: usize,
    rounds: usize,
    stones: Option<&Path>,
) -> Result<String, String> {
    let gammas = Arc::clone(default_knowledge().gammas());
    let mut rng = SearchRng::seed_from_u64(1);
    let mut games: Playouts = Vec::new();
    for board in bench_positions() {
        let root = PolicyBoard::new(&board, Arc::clone(&gammas));
        let mut pb = root.clone();
        let mut lines = Vec::with_capacity(per_position);
        for _ in 0..per_position {
            pb.clone_from(&root);
            let mut drawn = Vec::new();
            while pb.board().result() == GameResult::Ongoing {
                let wins = pb.winning_points();
                let blocks = pb.blocking_points();
                let p = match wins.iter().next().or_else(|| blocks.iter().next()) {
                    Some(cell) => Point::from_index(cell, pb.board().size()),
                    None => match pb.sample(&mut rng) {
                        Some(p) => p,
                        None => break,
                    },
                };
                pb.play(p).expect("wins, blocks and draws are empty points");
                drawn.push(p);
            }
            lines.push(drawn);
        }
        games.push((root, lines));
    }
    if let Some(path) = stones {
        share_stones(path, &mut games)?;
    }
    let total: usize = games.iter().flat_map(|(_, l)| l).map(Vec::len).sum();
    let mut text = String::new();
    let mut best = f64::INFINITY;
    for round in 0..rounds.max(1) {
        let start = Instant::now();
        for (root, lines) in &games {
            let mut pb = root.clone();
            for line in lines {
                pb.clone_from(root);
                for &p in line {
                    pb.play(p).map_err(|e| format!("a replayed stone: {e}"))?;
                    pb.settle();
                }
            }
        }
        let ns = start.elapsed().as_nanos() as f64 / total.max(1) as f64;
        best = best.min(ns);
        let _ = writeln!(text, "round {round}: {total} stones, {ns:.1} ns/stone");
    }
    let json = serde_json::json!({
        "bench": "update",
        "stones": total,
        "rounds": rounds.max(1),
        "best_ns_per_stone": best,
    });
    let _ = writeln!(text, "{json}");
    Ok(text)
}

/// Plays every stone of the first 2,000 19x19 games of `path`, then undoes them, `rounds` times; returns
/// the report's lines, the last one JSON.
pub fn run_game_update_bench(path: &Path, rounds: usize) -> Result<String, String> {
    let gammas = Arc::clone(default_knowledge().gammas());
    let games = crate::records::read_file(path).map_err(|e| e.to_string())?;
    let games: Vec<_> = games
        .into_iter()
        .filter(|g| g.size == 19)
        .take(2000)
        .map(|g| g.stones)
        .collect();
    let stones: usize = games.iter().map(Vec::len).sum();
    let mut pb = PolicyBoard::new(&crate::rules::Board::standard(), gammas);
    let mut text = String::new();
    let mut best = f64::INFINITY;
    for round in 0..rounds.max(1) {
        let start = Instant::now();
        for (n, game) in games.iter().enumerate() {
            for &p in game {
                if pb.play(p).is_err() {
                    return Err(format!(
                        "{}: game {}: not a legal 19x19 game",
                        path.display(),
                        n + 1
                    ));
                }
                pb.settle();
            }
            for _ in game {
                pb.undo();
                pb.settle();
            }
        }
        let ns = start.elapsed().as_nanos() as f64 / stones.max(1) as f64;
        best = best.min(ns);
        let _ = writeln!(
            text,
            "round {round}: {} games, {stones} stones played and undone, {ns:.1} ns/stone",
            games.len()
        );
    }
    let json = serde_json::json!({
        "bench": "update",
        "games": games.len(),
        "stones": stones,
        "rounds": rounds.max(1),
        "best_ns_per_stone": best,
    });
    let _ = writeln!(text, "{json}");
    Ok(text)
}

/// Replays the stones in `path` (one playout a line, cell indices) if it exists, else writes the
/// drawn ones there.
fn share_stones(path: &Path, games: &mut Playouts) -> Result<(), String> {
    let size = 19;
    let name = path.display();
    if path.exists() {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
        let mut lines = text.lines();
        for (n, stones) in games.iter_mut().flat_map(|(_, l)| l.iter_mut()).enumerate() {
            let line = lines.next().ok_or_else(|| {
                format!("{name}: {n} playouts, fewer than this run draws (--per-position)")
            })?;
            *stones = line
                .split_whitespace()
                .map(|c| match c.parse::<usize>() {
                    Ok(cell) if cell < size * size => Ok(Point::from_index(cell, size)),
                    _ => Err(format!("{name}: line {}: {c:?} is not a cell index", n + 1)),
                })
                .collect::<Result<_, _>>()?;
        }
        return Ok(());
    }
    let text: String = games
        .iter()
        .flat_map(|(_, l)| l)
        .map(|stones| {
            let cells: Vec<String> = stones.iter().map(|p| p.index(size).to_string()).collect();
            cells.join(" ") + "\n"
        })
        .collect();
    std::fs::write(path, text).map_err(|e| format!("{name}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_stones_replay_the_same_work() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stones.txt");
        let first = run_update_bench(2, 1, Some(&path)).unwrap();
        let again = run_update_bench(2, 1, Some(&path)).unwrap();
        let stones = |t: &str| {
            t.split(':')
                .nth(1)
                .unwrap()
                .split(',')
                .next()
                .unwrap()
                .to_string()
        };
        assert_eq!(stones(&first), stones(&again));
        assert!(first.trim_end().lines().last().unwrap().starts_with('{'));
        std::fs::write(&path, "1 2 x\n").unwrap();
        let err = run_update_bench(2, 1, Some(&path)).unwrap_err();
        assert!(err.contains("stones.txt") && err.contains("\"x\""), "{err}");
    }
}
