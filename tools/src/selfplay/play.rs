//! One self-play game in-process: the engine of the configuration against itself from an
//! opening, every stone it places recorded with how it was chosen and, when searched, the
//! root's value for the mover. One search thread and a fixed playout count make the game a
//! function of its seed and opening.

use super::record::{ChildEntry, GameEntry, How, Mover, StoneEntry};
use crate::match_runner::outcome::Winner;
use crate::match_runner::results::format_moves;
use liuzi::config::EngineConfig;
use liuzi::engine::{build_generator, load_book, Analysis, Decision, Engine, NoAnalysis, NoSearch};
use liuzi::notation::format_games;
use liuzi::rules::{GameResult, Point};

/// What game to play.
#[derive(Clone, Debug, PartialEq)]
pub struct GameJob {
    pub index: usize,
    pub seed: u64,
    pub opening: Vec<Point>,
}

/// The seed of game `index` of a run seeded `run_seed`: a SplitMix64 step of their mix, never
/// 0 (which asks the engine for a fresh seed).
pub fn game_seed(run_seed: u64, index: usize) -> u64 {
    let mut z = run_seed.wrapping_add(
        (index as u64)
            .wrapping_add(1)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15),
    );
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)).max(1)
}

/// The root's value for the side that was to move: the visit-weighted mean of the children's
/// win rates (the search's estimate of the position, not only of the chosen stone).
pub fn root_value(analysis: &Analysis) -> Option<(f32, u32)> {
    let visits: u64 = analysis.children.iter().map(|c| u64::from(c.visits)).sum();
    if visits == 0 {
        return None;
    }
    let weighted: f64 = analysis
        .children
        .iter()
        .filter_map(|c| Some(f64::from(c.win_rate?) * f64::from(c.visits)))
        .sum();
    Some((
        (weighted / visits as f64) as f32,
        visits.min(u64::from(u32::MAX)) as u32,
    ))
}

/// Which root stones of a searched position a game records beside its value
/// (`liuzi-selfplay --children`, `--child-min-visits`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChildRecording {
    /// At most this many, the most visited first; 0 records none.
    pub count: usize,
    /// Only stones with at least this many visits: a value of a few playouts is noise.
    pub min_visits: u32,
}

/// The root stones `recording` asks for, most visited first (ties in the search's order).
pub fn recorded_children(analysis: &Analysis, recording: ChildRecording) -> Vec<ChildEntry> {
    let mut kept: Vec<_> = analysis
        .children
        .iter()
        .filter(|c| c.visits >= recording.min_visits.max(1))
        .filter_map(|c| Some((c.point, c.visits, c.win_rate?)))
        .collect();
    kept.sort_by_key(|&(_, visits, _)| std::cmp::Reverse(visits));
    kept.truncate(recording.count);
    kept.into_iter()
        .map(|(point, visits, value)| ChildEntry {
            stone: format_games(point),
            visits,
            value,
        })
        .collect()
}

/// How the engine chose the stone it just played, from what it kept of the choice.
fn entry_of(engine: &Engine, mover: Mover, recording: ChildRecording) -> StoneEntry {
    let searched = |value: Option<(f32, u32)>, children| StoneEntry {
        mover,
        how: How::Searched,
        value: value.map(|v| v.0),
        visits: value.map(|v| v.1),
        children,
    };
    if let Some(analysis) = engine.analysis() {
        return searched(root_value(analysis), recorded_children(analysis, recording));
    }
    let how = match engine.no_analysis() {
        NoAnalysis::Unsearched(_, NoSearch::Opening) => How::Centre,
        NoAnalysis::Unsearched(_, NoSearch::Book) => How::Book,
        NoAnalysis::Unsearched(_, NoSearch::Decided(Decision::Win)) => How::Win,
        NoAnalysis::Unsearched(_, NoSearch::Decided(Decision::ForcedBlock)) => How::Forced,
        NoAnalysis::Unsearched(_, NoSearch::Decided(Decision::Proven)) => How::Proven,
        // A search that left no statistics: searched, without a value.
        _ => return searched(None, Vec::new()),
    };
    StoneEntry {
        mover,
        how,
        value: None,
        visits: None,
        children: Vec::new(),
    }
}

/// Plays `job` with `config` (threads and playouts already set; the seed is the job's),
/// recording the root stones `recording` asks for. `Ok(None)` when `should_stop` said so
/// before the game ended: the game is dropped, and a resumed run plays it again from the start.
pub fn play_game(
    config: &EngineConfig,
    job: &GameJob,
    recording: ChildRecording,
    should_stop: &dyn Fn() -> bool,
) -> Result<Option<GameEntry>, String> {
    let mut config = config.clone();
    config.engine.seed = job.seed;
    let generator = build_generator(&config)?;
    let size = config.engine.board_size;
    let mut engine = Engine::new(size, generator).map_err(|e| e.to_string())?;
    engine.set_book(load_book(&config)?);
    for &p in &job.opening {
        let colour = engine.board().to_move();
        engine
            .play(colour, p)
            .map_err(|e| format!("game {}: opening stone: {e}", job.index))?;
    }
    let mut stones = Vec::new();
    while !engine.board().is_over() && engine.board().legal_points().next().is_some() {
        if should_stop() {
            return Ok(None);
        }
        let colour = engine.board().to_move();
        engine
            .genmove(colour)
            .map_err(|e| format!("game {}: {e}", job.index))?;
        stones.push(entry_of(&engine, colour.into(), recording));
    }
    let (result, reason) = match engine.board().result() {
        GameResult::Win(colour) => (Winner::of(colour), "six"),
        GameResult::Draw | GameResult::Ongoing => (Winner::Draw, "full_board"),
    };
    Ok(Some(GameEntry {
        game: job.index,
        seed: job.seed,
        size,
        opening_stones: job.opening.len(),
        moves: format_moves(engine.board().history(), size),
        result,
        reason: reason.to_string(),
        stones,
    }))
}
