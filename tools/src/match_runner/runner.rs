//! Runs a scheduled match: worker threads play games in parallel, each keeping its own engine
//! processes between games; the calling thread records every finished game at once (results
//! file first, then SGF and `.games`), updates the totals and the progress line, and stops the
//! match when the SPRT decides or the user interrupts.
//!
//! A worker that finished a game waits until the collector has counted it before it takes the
//! next one, so once the SPRT decides no game starts; only the games already being played (at
//! most one per other worker) finish and are recorded.

use super::engine_spec::{EngineSpec, Protocol};
use super::game::{check_opening, play_game, GameOutcome, GameSetup};
use super::launch::{mark_stderr_log, start_player};
use super::outcome::{EndReason, Winner};
use super::player::{GameStart, Player, PlayerContext};
use super::records_out::{write_sgf, GamesOutput};
use super::report::Tally;
use super::results::{format_moves, GameLine, ResultsFile};
use super::schedule::ScheduledGame;
use super::time_control::TimeControl;
use crate::stats::{SprtConfig, SprtDecision};
use liuzi::rules::{Color, Point};
use std::collections::{HashMap, HashSet, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Everything that decides which games are played and how.
#[derive(Clone, Debug)]
pub struct MatchPlan {
    pub engines: Vec<EngineSpec>,
    pub pairings: Vec<(usize, usize)>,
    pub schedule: Vec<ScheduledGame>,
    /// Indexed by `ScheduledGame::opening`.
    pub openings: Vec<Vec<Point>>,
    pub size: usize,
    /// Time control of engines that have none of their own.
    pub default_time: Option<TimeControl>,
    pub margin: Duration,
    pub event: String,
    pub concurrency: usize,
    /// Start fresh engine processes for every game (default: only after a fault).
    pub restart_every_game: bool,
    pub sprt: Option<SprtConfig>,
    pub context: PlayerContext,
}

impl MatchPlan {
    pub fn names(&self) -> Vec<String> {
        self.engines.iter().map(|e| e.name.clone()).collect()
    }

    fn time_of(&self, engine: usize) -> Option<TimeControl> {
        self.engines[engine].time.or(self.default_time)
    }

    /// Checks what can be checked without starting anything.
    pub fn validate(&self) -> Result<(), String> {
        let mut names = HashSet::new();
        for e in &self.engines {
            if !names.insert(&e.name) {
                return Err(format!(
                    "two engines are called `{}`; names must be unique",
                    e.name
                ));
            }
        }
        if self.concurrency == 0 {
            return Err("--concurrency must be at least 1".into());
        }
        for opening in &self.openings {
            check_opening(self.size, opening)?;
        }
        let longest_opening = self.openings.iter().map(Vec::len).max().unwrap_or(0);
        for e in &self.engines {
            if e.protocol != Protocol::Gtp && !e.placements && longest_opening > 0 {
                return Err(format!(
                    "engine `{}` speaks {:?} without black/white placements, so it cannot start from an opening; \
                     play without openings, or set placements = true if the engine understands them",
                    e.name, e.protocol
                ));
            }
        }
        if let Some(sprt) = &self.sprt {
            sprt.validate().map_err(|e| e.to_string())?;
            if self.pairings.len() != 1 {
                return Err("SPRT needs a two-engine match".into());
            }
        }
        Ok(())
    }

    /// Starts every engine once, sets up a game on the match's board size, and stops it again,
    /// so that a wrong path or an unsupported size fails before the first game.
    pub fn probe_engines(&self) -> Result<(), String> {
        for (i, spec) in self.engines.iter().enumerate() {
            let mut player = start_player(spec, &self.context)?;
            let start = GameStart {
                size: self.size,
                color: Color::Black,
                opening: &[],
                time: self.time_of(i),
            };
            if let Err(stop) = player.new_game(&start) {
                return Err(match stop {
                    super::player::Stop::Fault(f) => format!(
                        "{}: cannot set up a {}x{} game: {}",
                        spec.name, self.size, self.size, f.detail
                    ),
                    super::player::Stop::Cancelled => "cancelled".to_string(),
                });
            }
            player.shut_down();
        }
        Ok(())
    }
}

/// Where finished games are written.
pub struct MatchOutputs {
    pub results: ResultsFile,
    pub sgf_dir: Option<PathBuf>,
    pub games: Option<GamesOutput>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchEnd {
    /// Every scheduled game has been played.
    Completed,
    /// The SPRT decided.
    Sprt(SprtDecision),
    /// Ctrl-C or SIGTERM: finished games are saved, the rest can be resumed.
    Interrupted,
}

pub struct MatchSummary {
    pub end: MatchEnd,
    pub tally: Tally,
}

enum WorkerEvent {
    /// A finished game, and where to say that it has been counted.
    Finished(Box<GameLine>, mpsc::Sender<()>),
    /// A game was abandoned because of an interrupt.
    Abandoned,
    /// The match cannot go on (neither engine of a game starts).
    Fatal(String),
}

/// Why a scheduled game produced no result.
enum Abort {
    Cancelled,
    Fatal(String),
}

fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(SystemTime::now()).to_string()
}

/// Plays the games of `plan` that `finished` does not hold yet. `progress` is called after
/// every finished game with the totals and the number of games in play.
pub fn run_match(
    plan: &MatchPlan,
    outputs: &mut MatchOutputs,
    finished: &[GameLine],
    progress: &mut dyn FnMut(&Tally, usize),
) -> Result<MatchSummary, String> {
    let mut tally = Tally::new(plan.names(), &plan.pairings);
    for line in finished {
        tally.add(line);
    }
    let sprt_decision = |tally: &Tally| {
        plan.sprt
            .as_ref()
            .and_then(|c| tally.sprt(c))
            .map(|s| s.decision)
            .filter(|d| *d != SprtDecision::Continue)
    };
    if let Some(decision) = sprt_decision(&tally) {
        return Ok(MatchSummary {
            end: MatchEnd::Sprt(decision),
            tally,
        });
    }
    let done: HashSet<usize> = finished.iter().map(|l| l.game).collect();
    let queue: Mutex<VecDeque<ScheduledGame>> = Mutex::new(
        plan.schedule
            .iter()
            .filter(|g| !done.contains(&g.id))
            .copied()
            .collect(),
    );
    let stop = AtomicBool::new(false);
    let running = AtomicUsize::new(0);
    let (sender, events) = mpsc::channel::<WorkerEvent>();
    let mut end = MatchEnd::Completed;
    let mut fatal: Option<String> = None;
    std::thread::scope(|scope| {
        for w in 0..plan.concurrency {
            let sender = sender.clone();
            let (queue, stop, running) = (&queue, &stop, &running);
            std::thread::Builder::new()
                .name(format!("match-worker-{w}"))
                .spawn_scoped(scope, move || worker(plan, w, queue, stop, running, sender))
                .expect("cannot start a worker thread");
        }
        drop(sender);
        progress(&tally, 0);
        for event in events {
            match event {
                WorkerEvent::Abandoned => end = MatchEnd::Interrupted,
                WorkerEvent::Fatal(e) => {
                    fatal.get_or_insert(e);
                    stop.store(true, Ordering::SeqCst);
                }
                WorkerEvent::Finished(line, counted) => {
                    if let Err(e) = record(outputs, &line) {
                        tracing::error!("{e}");
                        fatal.get_or_insert(e);
                        stop.store(true, Ordering::SeqCst);
                    }
                    tally.add(&line);
                    if let Some(decision) = sprt_decision(&tally) {
                        if !stop.swap(true, Ordering::SeqCst) {
                            end = MatchEnd::Sprt(decision);
                        }
                    }
                    // The stop flag is set before the worker may look for its next game.
                    let _ = counted.send(());
                    progress(&tally, running.load(Ordering::SeqCst));
                }
            }
        }
    });
    if let Some(e) = fatal {
        return Err(e);
    }
    if plan.context.cancel.is_cancelled() {
        end = MatchEnd::Interrupted;
    }
    Ok(MatchSummary { end, tally })
}

/// Writes a finished game: the results file first (the source of truth), then the records.
fn record(outputs: &mut MatchOutputs, line: &GameLine) -> Result<(), String> {
    outputs.results.append(line)?;
    if let Some(dir) = &outputs.sgf_dir {
        write_sgf(dir, line)?;
    }
    if let Some(games) = &mut outputs.games {
        games.append(line)?;
    }
    Ok(())
}

fn worker(
    plan: &MatchPlan,
    index: usize,
    queue: &Mutex<VecDeque<ScheduledGame>>,
    stop: &AtomicBool,
    running: &AtomicUsize,
    events: mpsc::Sender<WorkerEvent>,
) {
    let mut pool: HashMap<usize, Box<dyn Player>> = HashMap::new();
    let cancel = &plan.context.cancel;
    // Several workers at once: each keeps its engines' logs apart, one game at a time a file.
    let context = PlayerContext {
        stderr_worker: (plan.concurrency > 1).then_some(index),
        ..plan.context.clone()
    };
    let (counted_sender, counted) = mpsc::channel::<()>();
    loop {
        if stop.load(Ordering::SeqCst) || cancel.is_cancelled() {
            break;
        }
        let Some(game) = queue.lock().expect("queue lock").pop_front() else {
            break;
        };
        running.fetch_add(1, Ordering::SeqCst);
        let result = play_scheduled(plan, &context, &game, &mut pool);
        running.fetch_sub(1, Ordering::SeqCst);
        let finished = result.is_ok();
        let event = match result {
            Ok(line) => WorkerEvent::Finished(Box::new(line), counted_sender.clone()),
            Err(Abort::Cancelled) => WorkerEvent::Abandoned,
            Err(Abort::Fatal(e)) => WorkerEvent::Fatal(e),
        };
        if events.send(event).is_err() {
            break;
        }
        // Wait until the game is counted: its result may decide the SPRT.
        if finished && counted.recv().is_err() {
            break;
        }
    }
    for (_, player) in pool.drain() {
        if cancel.is_cancelled() {
            drop(player); // killed at once
        } else {
            player.shut_down();
        }
    }
}

/// Takes the engine's running process from the pool, or starts one.
fn take_player(
    plan: &MatchPlan,
    context: &PlayerContext,
    pool: &mut HashMap<usize, Box<dyn Player>>,
    engine: usize,
) -> Result<Box<dyn Player>, String> {
    match pool.remove(&engine) {
        Some(p) => Ok(p),
        None => start_player(&plan.engines[engine], context),
    }
}

/// Plays one scheduled game.
fn play_scheduled(
    plan: &MatchPlan,
    context: &PlayerContext,
    game: &ScheduledGame,
    pool: &mut HashMap<usize, Box<dyn Player>>,
) -> Result<GameLine, Abort> {
    let started = now_rfc3339();
    let opening = &plan.openings[game.opening];
    let setup = GameSetup {
        size: plan.size,
        opening: opening.clone(),
        time: [plan.time_of(game.black), plan.time_of(game.white)],
        margin: plan.margin,
        untimed_turn: plan.context.timeouts.untimed_turn,
    };
    let outcome = match (
        take_player(plan, context, pool, game.black),
        take_player(plan, context, pool, game.white),
    ) {
        (Ok(mut black), Ok(mut white)) => {
            // Which game the lines that follow in each engine's log belong to.
            let (b, w) = (&plan.engines[game.black], &plan.engines[game.white]);
            let mark = format!(
                "liuzi-match: game {} begins, {} black, {} white",
                game.id, b.name, w.name
            );
            mark_stderr_log(b, context, &mark);
            mark_stderr_log(w, context, &mark);
            let outcome = play_game(&setup, [black.as_mut(), white.as_mut()])
                .map_err(|_| Abort::Cancelled)?;
            for (engine, color, player) in [
                (game.black, Color::Black, black),
                (game.white, Color::White, white),
            ] {
                if outcome.at_fault == Some(color) {
                    drop(player); // its state is unknown: kill it, start afresh next game
                } else if plan.restart_every_game {
                    player.shut_down();
                } else {
                    pool.insert(engine, player);
                }
            }
            outcome
        }
        (black, white) => {
            if plan.context.cancel.is_cancelled() {
                return Err(Abort::Cancelled);
            }
            let (color, error) = match (black, white) {
                (Err(b), Err(w)) => {
                    return Err(Abort::Fatal(format!("neither engine starts: {b}; {w}")))
                }
                (Err(e), Ok(p)) => {
                    pool.insert(game.white, p);
                    (Color::Black, e)
                }
                (Ok(p), Err(e)) => {
                    pool.insert(game.black, p);
                    (Color::White, e)
                }
                (Ok(_), Ok(_)) => unreachable!("handled above"),
            };
            tracing::warn!("{error}");
            GameOutcome {
                winner: Winner::of(color.opponent()),
                reason: EndReason::Crash,
                detail: format!("failed to start: {error}"),
                stones: opening.clone(),
                time_used: [Duration::ZERO; 2],
                at_fault: Some(color),
            }
        }
    };
    let finished_at = SystemTime::now();
    Ok(GameLine {
        game: game.id,
        pair: game.pair,
        opening: game.opening,
        event: plan.event.clone(),
        black: plan.engines[game.black].name.clone(),
        white: plan.engines[game.white].name.clone(),
        result: outcome.winner,
        reason: outcome.reason,
        detail: outcome.detail,
        size: plan.size,
        opening_stones: opening.len(),
        moves: format_moves(&outcome.stones, plan.size),
        time_ms: outcome.time_used.map(|d| d.as_millis() as u64),
        started,
        finished: humantime::format_rfc3339_seconds(finished_at).to_string(),
        finished_unix: finished_at
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0),
        match_games: Some(plan.schedule.len()),
    })
}

/// Checks that the games of a results file belong to this match (same engines, colours and
/// openings for the same game ids), so that `--resume` never mixes two different matches.
pub fn check_finished(plan: &MatchPlan, finished: &[GameLine]) -> Result<(), String> {
    let names = plan.names();
    for line in finished {
        if line.size != plan.size {
            return Err(format!(
                "game {} was played on {}x{}, this match is {}x{}",
                line.game, line.size, line.size, plan.size, plan.size
            ));
        }
        match plan.schedule.get(line.game) {
            Some(scheduled) => {
                line.check_against(scheduled, &names, &plan.openings[scheduled.opening])?
            }
            None => {
                return Err(format!(
                    "game {} ({} vs {}) is not part of this match of {} games",
                    line.game,
                    line.black,
                    line.white,
                    plan.schedule.len()
                ))
            }
        }
    }
    Ok(())
}
