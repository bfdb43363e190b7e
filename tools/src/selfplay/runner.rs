//! A self-play run: opens (or resumes) the games file, checks that it was written with the same
//! settings, plays the games it lacks on worker threads, and appends each finished game as one
//! synced line. A raised stop flag (SIGINT/SIGTERM) lets the line being written finish and
//! drops the games in progress; a resumed run plays them again, the same way.

use super::play::{game_seed, play_game, ChildRecording, GameJob};
use super::record::{parse_contents, Header, Line, FORMAT};
use super::settings::check_same;
use crate::line_file::{LineFile, Opener};
use liuzi::config::EngineConfig;
use liuzi::rules::Point;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// What to play.
pub struct RunPlan<'a> {
    /// The engine's configuration: one thread, the playouts set.
    pub config: &'a EngineConfig,
    /// The settings the file's header must hold (see `selfplay::settings`).
    pub settings: BTreeMap<String, String>,
    /// Game i's opening is `openings[i]`; there are as many games as openings.
    pub openings: Vec<Vec<Point>>,
    pub seed: u64,
    /// Games played at once, each on its own thread.
    pub concurrency: usize,
    /// The root stones recorded beside each searched stone's value.
    pub children: ChildRecording,
}

/// How a run went.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunSummary {
    /// Games the file held already.
    pub already: usize,
    /// Games played and written by this run.
    pub played: usize,
    /// Stones placed by the engine in those games, and how many of them were searched.
    pub stones: usize,
    pub searched: usize,
    pub seconds: f64,
    /// The stop flag ended the run before every game was played.
    pub stopped: bool,
}

/// Opens `out` (creating it with its header), refuses it when its header's settings are not
/// `settings`, and returns it with the indices of the games it holds.
fn open_games_file(
    out: &Path,
    settings: &BTreeMap<String, String>,
) -> Result<(LineFile, HashSet<usize>), String> {
    let opener = Opener {
        program: "liuzi-selfplay",
        file_option: "--out",
        refuse_existing: None,
    };
    let (mut file, text) = LineFile::open(out, opener, |last| {
        serde_json::from_slice::<Line>(last).is_ok()
    })?;
    let contents = parse_contents(&text, out)?;
    if contents.headers.is_empty() && !contents.games.is_empty() {
        return Err(format!(
            "{}: games without a settings header; not a liuzi-selfplay file",
            out.display()
        ));
    }
    for header in &contents.headers {
        check_same(&header.settings, settings, out)?;
    }
    if contents.headers.is_empty() {
        let header = Header {
            selfplay_format: FORMAT,
            settings: settings.clone(),
        };
        file.append(&serde_json::to_string(&header).map_err(|e| e.to_string())?)?;
    }
    let mut done = HashSet::new();
    for game in &contents.games {
        if !done.insert(game.game) {
            return Err(format!(
                "{}: game {} is recorded twice",
                out.display(),
                game.game
            ));
        }
    }
    Ok((file, done))
}

/// Plays the games of `plan` that `out` lacks and appends them. Stops early when `stop` is
/// raised; an error of one game stops the others and is returned.
pub fn run_selfplay(plan: &RunPlan, out: &Path, stop: &AtomicBool) -> Result<RunSummary, String> {
    let start = Instant::now();
    let (file, done) = open_games_file(out, &plan.settings)?;
    let jobs: Vec<GameJob> = (0..plan.openings.len())
        .filter(|i| !done.contains(i))
        .map(|index| GameJob {
            index,
            seed: game_seed(plan.seed, index),
            opening: plan.openings[index].clone(),
        })
        .collect();
    let already = plan.openings.len() - jobs.len();
    tracing::info!(
        file = %out.display(),
        already,
        to_play = jobs.len(),
        "self-play games"
    );
    let progress = crate::progress::bar(jobs.len() as u64, "games");
    let next = AtomicUsize::new(0);
    let file = Mutex::new(file);
    let summary = Mutex::new(RunSummary {
        already,
        ..RunSummary::default()
    });
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let failed = AtomicBool::new(false);
    let worker = || loop {
        if stop.load(Ordering::SeqCst) || failed.load(Ordering::SeqCst) {
            return;
        }
        let Some(job) = jobs.get(next.fetch_add(1, Ordering::SeqCst)) else {
            return;
        };
        let game_start = Instant::now();
        let should_stop = || stop.load(Ordering::SeqCst) || failed.load(Ordering::SeqCst);
        let played = play_game(plan.config, job, plan.children, &should_stop);
        let entry = match played {
            Ok(Some(entry)) => entry,
            Ok(None) => return,
            Err(e) => {
                failure.lock().unwrap().get_or_insert(e);
                failed.store(true, Ordering::SeqCst);
                return;
            }
        };
        let line = serde_json::to_string(&entry).expect("a game serialises");
        // The lock is held through the write: a stop raised meanwhile waits for the line.
        if let Err(e) = file.lock().unwrap().append(&line) {
            failure.lock().unwrap().get_or_insert(e);
            failed.store(true, Ordering::SeqCst);
            return;
        }
        let searched = entry.stones.iter().filter(|s| s.value.is_some()).count();
        {
            let mut s = summary.lock().unwrap();
            s.played += 1;
            s.stones += entry.stones.len();
            s.searched += searched;
        }
        progress.inc(1);
        crate::progress::line(
            &progress,
            &format!(
                "game {} ({:?} by {}): {} stones, {} searched, {:.1} s",
                entry.game,
                entry.result,
                entry.reason,
                entry.opening_stones + entry.stones.len(),
                searched,
                game_start.elapsed().as_secs_f64()
            ),
        );
    };
    std::thread::scope(|s| {
        for _ in 0..plan.concurrency.max(1) {
            s.spawn(worker);
        }
    });
    progress.finish_and_clear();
    if let Some(e) = failure.into_inner().unwrap() {
        return Err(e);
    }
    let mut summary = summary.into_inner().unwrap();
    summary.seconds = start.elapsed().as_secs_f64();
    summary.stopped = summary.already + summary.played < plan.openings.len();
    Ok(summary)
}
