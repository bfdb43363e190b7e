//! The game a web page plays: the engine (built as the native programs build it, from the
//! embedded configuration and knowledge), its settings, and the board state and records as JSON
//! for the page. Plain Rust, so it is tested natively; `lib.rs` only binds it to JavaScript.

use liuzi::config::EngineConfig;
use liuzi::engine::{build_generator, load_book, Engine, TimeSettings};
use liuzi::notation::{format_gtp, parse_gtp};
use liuzi::records::{self, ccgc, games, sgf, GameRecord};
use liuzi::rules::{Board, Color, GameResult, Point, Stage, DIRECTIONS};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

pub use liuzi::engine::ThinkObserver;

/// Tree size of a browser tab's engine by default (docs/web.md, the tree size): 64 MiB.
pub const DEFAULT_TREE_MB: u32 = 64;

/// Bytes of one tree edge (`search.max_nodes` counts edges).
const EDGE_BYTES: u64 = liuzi::search::common::EDGE_BYTES;

/// What the page chooses: the seed (0 = a fresh one), the tree size, and how long a stone may
/// think: a playout count when above 0, else a time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub seed: u64,
    pub tree_mb: u32,
    pub playouts: u64,
    pub stone_time: Duration,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            seed: 0,
            tree_mb: DEFAULT_TREE_MB,
            playouts: 0,
            stone_time: Duration::from_secs(2),
        }
    }
}

/// The record formats by the names the page uses.
pub fn format_record(record: &GameRecord, format: &str) -> Result<String, String> {
    match format {
        "sgf" => Ok(sgf::format(record, sgf::SgfOptions::default())),
        "games" => Ok(games::format_line(record)),
        "ccgc" => Ok(ccgc::format(record)),
        other => Err(format!(
            "unknown record format {other:?} (sgf, games or ccgc)"
        )),
    }
}

pub struct WebGame {
    engine: Engine,
    settings: Settings,
}

impl WebGame {
    /// A new game on a `size` board with `settings`; a bad size or setting is an error naming it.
    pub fn new(size: usize, settings: Settings) -> Result<WebGame, String> {
        let board = Board::new(size).ok_or_else(|| {
            format!(
                "unacceptable board size {size} (supported {}..={})",
                liuzi::rules::MIN_SIZE,
                liuzi::rules::MAX_SIZE
            )
        })?;
        let engine = build_engine(&board, settings)?;
        Ok(WebGame { engine, settings })
    }

    pub fn board(&self) -> &Board {
        self.engine.board()
    }

    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// New settings for the stones to come; the game goes on. On error nothing changes.
    pub fn configure(&mut self, settings: Settings) -> Result<(), String> {
        if settings == self.settings {
            return Ok(());
        }
        self.engine = build_engine(self.engine.board(), settings)?;
        self.settings = settings;
        Ok(())
    }

    pub fn new_game(&mut self, size: usize) -> Result<(), String> {
        self.engine.new_game(size).map_err(|e| e.to_string())
    }

    /// Plays the side to move's stone at the GTP `vertex`. An illegal stone is an error and
    /// changes nothing.
    pub fn play(&mut self, vertex: &str) -> Result<(), String> {
        let size = self.board().size();
        let p = parse_gtp(vertex, size).ok_or_else(|| format!("not a point: {vertex:?}"))?;
        let color = self.board().to_move();
        if self.board().is_over() {
            return Err("game is over".to_string());
        }
        self.engine.play(color, p).map_err(|e| e.to_string())
    }

    /// Takes back the last stone; returns its vertex.
    pub fn undo(&mut self) -> Result<String, String> {
        self.engine
            .undo()
            .map(format_gtp)
            .map_err(|e| e.to_string())
    }

    /// The engine's stone for the side to move, played; `observer` sees the search's progress
    /// and may stop it (the stone is then the best found so far).
    pub fn think(&mut self, observer: Option<Arc<dyn ThinkObserver>>) -> Result<String, String> {
        let color = self.board().to_move();
        self.engine.set_observer(observer);
        let stone = self.engine.genmove(color);
        self.engine.set_observer(None);
        stone.map(format_gtp).map_err(|e| e.to_string())
    }

    /// Analysis on demand: searches the position for the side to move (the opening book and
    /// the centre rule do not answer here) for the settings' playouts or stone time, or until
    /// `observer` stops it, and plays nothing; then [`WebGame::analysis`] shows what it found.
    pub fn analyse(&mut self, observer: Option<Arc<dyn ThinkObserver>>) {
        let deadline = (self.settings.playouts == 0)
            .then(|| web_time::Instant::now() + self.settings.stone_time);
        self.engine
            .set_observer(Some(Arc::new(Bounded { observer, deadline })));
        self.engine.ponder();
        self.engine.set_observer(None);
    }

    /// The position for the page (see docs/web.md, the state).
    pub fn state(&self) -> Value {
        let board = self.board();
        let (result, winner) = match board.result() {
            GameResult::Ongoing => ("", None),
            GameResult::Draw => ("Draw", None),
            GameResult::Win(Color::Black) => ("B+", Some(Color::Black)),
            GameResult::Win(Color::White) => ("W+", Some(Color::White)),
        };
        json!({
            "size": board.size(),
            "stones": board.history().iter().map(|&p| format_gtp(p)).collect::<Vec<_>>(),
            "toMove": board.to_move().letter().to_string(),
            "stoneOfTurn": if board.stage() == Stage::First { 1 } else { 2 },
            "over": board.is_over(),
            "result": result,
            "winningSix": winner
                .map(|c| winning_line(board, c).iter().map(|&p| format_gtp(p)).collect())
                .unwrap_or_else(Vec::<String>::new),
        })
    }

    /// The last search's root (visits, win rates, priors) and best line, or `null` when the
    /// position changed since.
    pub fn analysis(&self) -> Value {
        let Some(a) = self.engine.analysis() else {
            return Value::Null;
        };
        json!({
            "stoneCount": a.stone_count,
            "children": children_json(&a.children),
            "pv": self.engine.principal_variation().iter().map(|&p| format_gtp(p)).collect::<Vec<_>>(),
        })
    }

    /// P(m) of the side to move, for the prior heat map.
    pub fn policy(&self) -> Value {
        let policy = self.engine.policy().unwrap_or_default();
        Value::Array(
            policy
                .into_iter()
                .map(|(p, share)| json!([format_gtp(p), share]))
                .collect(),
        )
    }

    /// The game as a record in `format` (`sgf`, `games`, `ccgc`).
    pub fn export(&self, format: &str) -> Result<String, String> {
        format_record(&GameRecord::from_board(self.board()), format)
    }

    /// Replaces the game by the first one in `text` (SGF, a `.games` line or CCGC, told by
    /// its content). On error nothing changes.
    pub fn import(&mut self, text: &str) -> Result<(), String> {
        let record = records::read_bytes(text.as_bytes(), None)
            .map_err(|e| e.to_string())?
            .into_iter()
            .next()
            .ok_or("the record holds no game")?;
        let board = record.replay().map_err(|e| e.to_string())?;
        self.engine.set_board(board);
        Ok(())
    }
}

/// The engine the native programs build from the embedded configuration, with one thread
/// (a browser tab's worker), `settings`' seed, tree and thinking limit, playing `board`'s game.
fn build_engine(board: &Board, settings: Settings) -> Result<Engine, String> {
    let mut config = EngineConfig::builtin();
    config.engine.threads = 1;
    config.engine.seed = settings.seed;
    config.search.max_nodes = (settings.tree_mb as u64 * (1 << 20) / EDGE_BYTES) as usize;
    config.search.playouts = settings.playouts;
    let generator = build_generator(&config)?;
    let mut engine = Engine::new(board.size(), generator).map_err(|e| e.to_string())?;
    engine.set_book(load_book(&config)?);
    engine.set_board(board.clone());
    if settings.playouts == 0 {
        // Japanese byo-yomi of one stone: every stone gets the same time.
        engine.clock_mut().set_settings(TimeSettings {
            main: Duration::ZERO,
            byo_yomi: settings.stone_time,
            byo_yomi_stones: 1,
        });
    }
    Ok(engine)
}

/// The page's observer with a deadline: a ponder search stops only when asked.
struct Bounded {
    observer: Option<Arc<dyn ThinkObserver>>,
    deadline: Option<web_time::Instant>,
}

impl ThinkObserver for Bounded {
    fn stop_requested(&self) -> bool {
        self.deadline.is_some_and(|d| web_time::Instant::now() >= d)
            || self.observer.as_ref().is_some_and(|o| o.stop_requested())
    }

    fn progress(
        &self,
        playouts: u64,
        elapsed: Duration,
        children: &[liuzi::engine::ChildAnalysis],
    ) {
        if let Some(o) = &self.observer {
            o.progress(playouts, elapsed, children);
        }
    }
}

/// The root's children as the page draws them: vertex, visits, win rate, prior.
pub fn children_json(children: &[liuzi::engine::ChildAnalysis]) -> Value {
    Value::Array(
        children
            .iter()
            .map(|c| {
                json!({
                    "stone": format_gtp(c.point),
                    "visits": c.visits,
                    "winRate": c.win_rate,
                    "prior": c.prior,
                })
            })
            .collect(),
    )
}

/// The six (or more) in a row through the last stone when `winner` made it, else empty.
fn winning_line(board: &Board, winner: Color) -> Vec<Point> {
    let Some(last) = board.last_stone() else {
        return Vec::new();
    };
    let size = board.size();
    for (dc, dr) in DIRECTIONS {
        let mut line = vec![last];
        for sign in [1, -1] {
            let mut step = 1;
            while let Some(p) = last.offset(dc * sign, dr * sign, step, size) {
                if board.get(p) != Some(winner) {
                    break;
                }
                line.push(p);
                step += 1;
            }
        }
        if line.len() >= 6 {
            line.sort();
            return line;
        }
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quick() -> Settings {
        Settings {
            seed: 7,
            tree_mb: 8,
            playouts: 60,
            ..Settings::default()
        }
    }

    #[test]
    fn turn_order_and_illegal_stones_leave_the_game_unchanged() {
        let mut g = WebGame::new(19, quick()).unwrap();
        assert_eq!(g.state()["toMove"], "B");
        g.play("K10").unwrap();
        assert_eq!(g.state()["toMove"], "W");
        assert_eq!(g.state()["stoneOfTurn"], 1);
        g.play("J10").unwrap();
        assert_eq!(g.state()["stoneOfTurn"], 2);
        let before = g.state();
        assert!(g.play("K10").is_err(), "occupied");
        assert!(g.play("Z99").is_err(), "off the board");
        assert_eq!(g.state(), before);
        assert_eq!(g.undo().unwrap(), "J10");
        assert!(WebGame::new(5, quick()).err().unwrap().contains("size 5"));
    }

    #[test]
    fn a_six_ends_the_game_and_is_marked() {
        let mut g = WebGame::new(19, quick()).unwrap();
        // Black: K10, then K11 K12, K13 K14, K15; White elsewhere.
        for v in [
            "K10", "A1", "A2", "K11", "K12", "A3", "A4", "K13", "K14", "B1", "B2", "K15",
        ] {
            g.play(v).unwrap();
        }
        let s = g.state();
        assert_eq!(s["over"], true);
        assert_eq!(s["result"], "B+");
        let six: Vec<&str> = s["winningSix"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(six, ["K10", "K11", "K12", "K13", "K14", "K15"]);
        assert!(g.play("C1").is_err());
    }

    #[test]
    fn the_engine_answers_with_analysis_and_a_best_line() {
        // 15x15: out of the opening book (of 19x19), so the stone is searched.
        let mut g = WebGame::new(15, quick()).unwrap();
        g.play("H8").unwrap();
        let stone = g.think(None).unwrap();
        assert_eq!(g.board().history()[1], parse_gtp(&stone, 15).unwrap());
        let a = g.analysis();
        assert!(!a["children"].as_array().unwrap().is_empty(), "{a}");
        assert_eq!(a["pv"][0], stone.as_str(), "{a}");
        assert!(!g.policy().as_array().unwrap().is_empty());
    }

    #[test]
    fn analysis_on_demand_searches_any_position_and_plays_nothing() {
        // The empty 19x19 board: genmove would answer from the centre rule without a search.
        let mut g = WebGame::new(19, quick()).unwrap();
        g.analyse(None);
        assert!(g.board().history().is_empty());
        let a = g.analysis();
        assert!(!a["children"].as_array().unwrap().is_empty(), "{a}");
        assert!(!a["pv"].as_array().unwrap().is_empty(), "{a}");
        // A time limit ends it when no playout limit does.
        g.configure(Settings {
            playouts: 0,
            stone_time: Duration::from_millis(200),
            ..quick()
        })
        .unwrap();
        let start = web_time::Instant::now();
        g.analyse(None);
        assert!(start.elapsed() < Duration::from_secs(5));
        assert!(!g.analysis()["children"].as_array().unwrap().is_empty());
    }

    #[test]
    fn records_round_trip_in_every_format() {
        let mut g = WebGame::new(19, quick()).unwrap();
        for v in ["K10", "J11", "L9", "K9", "J8"] {
            g.play(v).unwrap();
        }
        for format in ["sgf", "games", "ccgc"] {
            let text = g.export(format).unwrap();
            let mut other = WebGame::new(19, quick()).unwrap();
            other.import(&text).unwrap();
            assert_eq!(other.state(), g.state(), "{format}: {text}");
        }
        let before = g.state();
        assert!(g.import("not a record").is_err());
        assert!(g.export("pdf").is_err());
        assert_eq!(g.state(), before);
    }
}
