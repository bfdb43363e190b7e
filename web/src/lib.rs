//! Liuzi in the browser: the engine's public API for JavaScript (docs/web.md). The page's Web
//! Worker (`worker.js`) owns one [`Liuzi`]; values cross as JSON strings, errors as thrown
//! `Error`s whose message says what was wrong (the game is then unchanged).

mod game;

pub use game::{format_record, Settings, WebGame, DEFAULT_TREE_MB};

use liuzi::engine::{ChildAnalysis, ThinkObserver};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;
use wasm_bindgen::prelude::*;

/// The bench (`liuzi bench --threads 1`) in this build: its text, ending with the JSON line
/// whose signature the native build prints.
#[wasm_bindgen]
pub fn bench() -> String {
    liuzi::bench::search::run_bench(1).text
}

#[wasm_bindgen]
pub struct Liuzi {
    game: WebGame,
}

fn settings(seed: f64, tree_mb: u32, playouts: f64, stone_ms: f64) -> Settings {
    Settings {
        seed: seed.max(0.0) as u64,
        tree_mb: if tree_mb == 0 {
            DEFAULT_TREE_MB
        } else {
            tree_mb
        },
        playouts: playouts.max(0.0) as u64,
        stone_time: Duration::from_secs_f64(stone_ms.max(1.0) / 1000.0),
    }
}

#[wasm_bindgen]
impl Liuzi {
    /// A new game; `seed` 0 = a fresh seed, `tree_mb` 0 = the default (64 MiB), `playouts` > 0
    /// fixes the playouts of a stone, else `stone_ms` its time.
    #[wasm_bindgen(constructor)]
    pub fn new(
        size: usize,
        seed: f64,
        tree_mb: u32,
        playouts: f64,
        stone_ms: f64,
    ) -> Result<Liuzi, JsError> {
        let game = WebGame::new(size, settings(seed, tree_mb, playouts, stone_ms))
            .map_err(|e| JsError::new(&e))?;
        Ok(Liuzi { game })
    }

    /// New thinking limits (and seed, tree) for the stones to come.
    pub fn configure(
        &mut self,
        seed: f64,
        tree_mb: u32,
        playouts: f64,
        stone_ms: f64,
    ) -> Result<(), JsError> {
        self.game
            .configure(settings(seed, tree_mb, playouts, stone_ms))
            .map_err(|e| JsError::new(&e))
    }

    #[wasm_bindgen(js_name = newGame)]
    pub fn new_game(&mut self, size: usize) -> Result<(), JsError> {
        self.game.new_game(size).map_err(|e| JsError::new(&e))
    }

    /// The side to move's stone at a GTP vertex (`K10`).
    pub fn play(&mut self, vertex: &str) -> Result<(), JsError> {
        self.game.play(vertex).map_err(|e| JsError::new(&e))
    }

    pub fn undo(&mut self) -> Result<String, JsError> {
        self.game.undo().map_err(|e| JsError::new(&e))
    }

    /// Searches, plays and returns the engine's stone. `progress(json)` is called about every
    /// quarter second with the root's children; `stop()` returning true ends the search with
    /// the best stone so far.
    pub fn think(
        &mut self,
        progress: js_sys::Function,
        stop: js_sys::Function,
    ) -> Result<String, JsError> {
        let observer = JsObserver {
            progress,
            stop,
            polls: AtomicU32::new(0),
        };
        self.game
            .think(Some(Arc::new(observer)))
            .map_err(|e| JsError::new(&e))
    }

    /// Analysis on demand: searches the side to move's position for the stone time (or the
    /// playouts) and plays nothing; `progress` and `stop` as for `think`.
    pub fn analyse(&mut self, progress: js_sys::Function, stop: js_sys::Function) {
        let observer = JsObserver {
            progress,
            stop,
            polls: AtomicU32::new(0),
        };
        self.game.analyse(Some(Arc::new(observer)));
    }

    /// The position as JSON (docs/web.md, the state).
    pub fn state(&self) -> String {
        self.game.state().to_string()
    }

    /// The last search's root and best line as JSON, `null` after the position changed.
    pub fn analysis(&self) -> String {
        self.game.analysis().to_string()
    }

    /// P(m) of the side to move as JSON `[[vertex, share], ...]`.
    pub fn policy(&self) -> String {
        self.game.policy().to_string()
    }

    /// The game as `sgf`, `games` or `ccgc` text.
    pub fn export(&self, format: &str) -> Result<String, JsError> {
        self.game.export(format).map_err(|e| JsError::new(&e))
    }

    /// Replaces the game by the record in `text` (SGF, `.games` line or CCGC).
    pub fn import(&mut self, text: &str) -> Result<(), JsError> {
        self.game.import(text).map_err(|e| JsError::new(&e))
    }
}

/// The worker's callbacks as the search's observer.
struct JsObserver {
    progress: js_sys::Function,
    stop: js_sys::Function,
    polls: AtomicU32,
}

// SAFETY: WebAssembly without the atomics feature has one thread: the observer never crosses
// threads (the engine runs one search thread, which `thread::scope` runs on the caller's).
unsafe impl Send for JsObserver {}
unsafe impl Sync for JsObserver {}

/// Polls between two calls of the page's stop function (a call into JavaScript costs more
/// than a playout's share of the search's own polling).
const POLLS_PER_STOP_CALL: u32 = 64;

impl ThinkObserver for JsObserver {
    fn stop_requested(&self) -> bool {
        if !self
            .polls
            .fetch_add(1, Ordering::Relaxed)
            .is_multiple_of(POLLS_PER_STOP_CALL)
        {
            return false;
        }
        self.stop.call0(&JsValue::NULL).is_ok_and(|v| v.is_truthy())
    }

    fn progress(&self, playouts: u64, elapsed: Duration, children: &[ChildAnalysis]) {
        let report = serde_json::json!({
            "playouts": playouts,
            "ms": elapsed.as_millis() as u64,
            "children": game::children_json(children),
        });
        let _ = self
            .progress
            .call1(&JsValue::NULL, &JsValue::from_str(&report.to_string()));
    }
}
