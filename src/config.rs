//! Typed engine configuration, read from commented TOML (`engine-config/default.toml`).
//!
//! The default file is embedded in the binary (`include_str!`) and is the base of every
//! configuration: a `--config FILE` only needs the keys it changes. Every key a file names must
//! exist in the default file, so a typo is an error naming the file and the key rather than a
//! silently ignored setting.

use crate::notation::LetterOrder;
use crate::rules::{MAX_SIZE, MIN_SIZE};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The default configuration file, as shipped in `engine-config/default.toml`.
pub const BUILTIN_TOML: &str = include_str!("../engine-config/default.toml");

/// Where `liuzi` looks for its configuration when no `--config` is given, relative to the
/// working directory and to the ancestors of the executable (`target/release/liuzi`).
pub const DEFAULT_PATH: &str = "engine-config/default.toml";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineConfig {
    pub engine: EngineSection,
    pub time: TimeSection,
    pub c6: C6Section,
    pub search: SearchSection,
    pub alphabeta: AlphaBetaSection,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineSection {
    pub name: String,
    pub board_size: usize,
    /// 0 = one per available core (see [`EngineConfig::thread_count`]).
    pub threads: usize,
    /// 0 = a new seed every run.
    pub seed: u64,
    /// Resolved against the directory of the file that named it.
    pub weights: PathBuf,
    /// Which search chooses the stones.
    pub search: SearchKind,
    /// The learned evaluator (`liuzi-train-eval`); `"none"` = none. Resolved like `weights`.
    pub evaluator: PathBuf,
}

/// The engine's search: `"mcts"` or `"alphabeta"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchKind {
    Mcts,
    #[serde(rename = "alphabeta")]
    AlphaBeta,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeSection {
    /// Seconds per stone when the controller sends no clock.
    pub stone_seconds: f64,
    /// Seconds per turn in the Connect6 protocol until `depth` picks a level.
    pub turn_seconds: f64,
    /// `depth d` → entry d (from 1) seconds per turn.
    pub depth_turn_seconds: Vec<f64>,
    pub lag_margin_seconds: f64,
    /// Turns a game is assumed to last when spending a main-time clock.
    pub turn_horizon: u32,
    /// Never plan for fewer turns left than this.
    pub min_turns_left: u32,
    /// Part of a two-stone turn's budget the first stone gets.
    pub first_stone_share: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Letters {
    Cloudict,
    Sau,
}

impl From<Letters> for LetterOrder {
    fn from(letters: Letters) -> LetterOrder {
        match letters {
            Letters::Cloudict => LetterOrder::Cloudict,
            Letters::Sau => LetterOrder::Sau,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct C6Section {
    pub letters: Letters,
    /// Write Black's opening stone as `move JJ@@`.
    pub write_placeholder: bool,
}

/// Search parameters (design.md A3); the search owns their meaning.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchSection {
    /// C in the UCB term.
    pub exploration: f64,
    /// C_BT, the weight of the Bradley-Terry prior.
    pub prior_weight: f64,
    /// K, the visit scale over which the prior fades.
    pub prior_visits: f64,
    pub fpu_reduction: f64,
    /// Playouts per stone; 0 = by time only.
    pub playouts: u64,
    pub virtual_loss: u32,
    pub expand_visits: u32,
    /// 0 = no limit.
    pub max_children: u32,
    /// 0 = progressive widening off.
    pub widen_min: u32,
    pub widen_factor: f64,
    pub widen_exponent: f64,
    /// "canonical" or "both".
    pub pair_order: String,
    pub max_nodes: usize,
    pub early_stop: bool,
    /// Share of a stone's time budget spent before early stop may end the search.
    pub early_stop_min_share: f64,
    pub reuse_tree: bool,
    /// The threat-space solver (tactics) in the search.
    pub solver: bool,
    pub solver_root_nodes: u64,
    pub solver_verify_nodes: u64,
    pub solver_tree_nodes: u64,
    pub solver_tree_plies: u32,
    /// Pair defence at a turn's first stone (MCTS).
    pub solver_pair_defence: bool,
    /// Share of a stone's time for the pair defence.
    pub solver_pair_share: f64,
    /// Stones after which a playout stops and is scored by the evaluator; 0 = full playouts.
    pub playout_cutoff: u32,
    /// "gammas" (roulette wheel by the Bradley-Terry weights) or "uniform" (every empty cell
    /// alike, after the same hard rules): the playout half of the design's key ablation.
    pub playout_policy: String,
    /// λ: weight of the evaluator's leaf value in every playout's reward; 0 = playouts alone.
    pub value_mix: f64,
}

/// Alpha-beta parameters (`engine.search = "alphabeta"`); the search owns their meaning.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AlphaBetaSection {
    /// Deepest iteration, in stones.
    pub max_depth: u32,
    /// Candidates per node, by Bradley-Terry weight.
    pub width: u32,
    pub root_width: u32,
    pub hash_mb: usize,
    /// Nodes per stone; 0 = by time only.
    pub max_nodes: u64,
}

/// A configuration file that could not be used: which file, what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigError {
    pub file: String,
    pub problem: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.problem)
    }
}

impl std::error::Error for ConfigError {}

/// Where a configuration came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigSource {
    File(PathBuf),
    /// The embedded copy of `engine-config/default.toml` (no file found).
    Builtin,
}

impl fmt::Display for ConfigSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigSource::File(p) => write!(f, "{}", p.display()),
            ConfigSource::Builtin => f.write_str("built-in default.toml"),
        }
    }
}

fn builtin_table() -> toml::Table {
    BUILTIN_TOML
        .parse()
        .expect("the embedded default.toml is valid TOML (checked by a unit test)")
}

/// Every key of `user` must exist in `base` with the same shape; then `user` overrides `base`.
fn merge_checked(base: &mut toml::Table, user: toml::Table, prefix: &str) -> Result<(), String> {
    for (key, value) in user {
        let path = format!("{prefix}{key}");
        let Some(slot) = base.get_mut(&key) else {
            let known: Vec<&str> = base.keys().map(String::as_str).collect();
            return Err(format!(
                "unknown key `{path}` (known here: {})",
                known.join(", ")
            ));
        };
        match (slot, value) {
            (toml::Value::Table(base_sub), toml::Value::Table(user_sub)) => {
                merge_checked(base_sub, user_sub, &format!("{path}."))?
            }
            (toml::Value::Table(_), _) => return Err(format!("`{path}` must be a table [{path}]")),
            (_, toml::Value::Table(_)) => {
                return Err(format!("`{path}` must be a value, not a table"))
            }
            (slot, value) => *slot = value,
        }
    }
    Ok(())
}

impl EngineConfig {
    /// The embedded default, with the weights path taken relative to `engine-config/`.
    pub fn builtin() -> EngineConfig {
        EngineConfig::from_toml(
            BUILTIN_TOML,
            "built-in default.toml",
            Path::new("engine-config"),
        )
        .expect("the embedded default.toml is a valid configuration (checked by a unit test)")
    }

    /// Parses `text` over the built-in default. `origin` names it in errors; relative paths
    /// in it are resolved against `base_dir`.
    pub fn from_toml(
        text: &str,
        origin: &str,
        base_dir: &Path,
    ) -> Result<EngineConfig, ConfigError> {
        let error = |problem: String| ConfigError {
            file: origin.to_string(),
            problem,
        };
        let user: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| error(e.to_string().trim_end().to_string()))?;
        let mut merged = builtin_table();
        merge_checked(&mut merged, user, "").map_err(error)?;
        let mut config: EngineConfig = toml::Value::Table(merged)
            .try_into()
            .map_err(|e: toml::de::Error| error(e.to_string().trim_end().to_string()))?;
        // "none" (no weights: the search's fallback knowledge) is a value, not a path.
        if config.engine.weights.is_relative() && config.engine.weights != Path::new("none") {
            config.engine.weights = base_dir.join(&config.engine.weights);
        }
        // So is "none" for the evaluator.
        let evaluator = &config.engine.evaluator;
        if evaluator.is_relative() && evaluator != Path::new("none") && evaluator != Path::new("") {
            config.engine.evaluator = base_dir.join(evaluator);
        }
        config.validate().map_err(error)?;
        Ok(config)
    }

    /// Reads a configuration file.
    pub fn from_file(path: &Path) -> Result<EngineConfig, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError {
            file: path.display().to_string(),
            problem: format!("cannot read: {e}"),
        })?;
        let base_dir = path.parent().unwrap_or(Path::new("."));
        EngineConfig::from_toml(&text, &path.display().to_string(), base_dir)
    }

    /// `--config FILE` if given; else the first `engine-config/default.toml` found in the working
    /// directory or above the executable; else the embedded default.
    pub fn load(explicit: Option<&Path>) -> Result<(EngineConfig, ConfigSource), ConfigError> {
        if let Some(path) = explicit {
            return Ok((
                EngineConfig::from_file(path)?,
                ConfigSource::File(path.to_path_buf()),
            ));
        }
        let exe_dirs = std::env::current_exe()
            .ok()
            .and_then(|exe| exe.parent().map(Path::to_path_buf))
            .into_iter()
            .flat_map(|dir| {
                dir.ancestors()
                    .take(4)
                    .map(Path::to_path_buf)
                    .collect::<Vec<_>>()
            });
        let candidates = std::iter::once(PathBuf::from(".")).chain(exe_dirs);
        for dir in candidates {
            let path = dir.join(DEFAULT_PATH);
            if path.is_file() {
                return Ok((EngineConfig::from_file(&path)?, ConfigSource::File(path)));
            }
        }
        Ok((EngineConfig::builtin(), ConfigSource::Builtin))
    }

    fn validate(&self) -> Result<(), String> {
        let size = self.engine.board_size;
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(format!(
                "engine.board_size = {size} is outside {MIN_SIZE}..={MAX_SIZE}"
            ));
        }
        if self.engine.name.trim().is_empty() || self.engine.name.contains(char::is_whitespace) {
            return Err("engine.name must be one word (protocols send it as a token)".to_string());
        }
        let t = &self.time;
        let seconds = [
            ("time.stone_seconds", t.stone_seconds),
            ("time.turn_seconds", t.turn_seconds),
        ];
        for (key, value) in seconds.into_iter().chain(
            t.depth_turn_seconds
                .iter()
                .map(|&v| ("time.depth_turn_seconds", v)),
        ) {
            if !(value.is_finite() && value > 0.0 && value < 1e7) {
                return Err(format!(
                    "{key} must be a positive number of seconds, not {value}"
                ));
            }
        }
        if t.depth_turn_seconds.is_empty() {
            return Err("time.depth_turn_seconds needs at least one level".to_string());
        }
        if !(t.first_stone_share.is_finite() && (0.05..=0.95).contains(&t.first_stone_share)) {
            return Err(format!(
                "time.first_stone_share must be in 0.05..=0.95, not {}",
                t.first_stone_share
            ));
        }
        if !(t.lag_margin_seconds.is_finite() && (0.0..1e4).contains(&t.lag_margin_seconds)) {
            return Err(format!(
                "time.lag_margin_seconds must be >= 0, not {}",
                t.lag_margin_seconds
            ));
        }
        Ok(())
    }

    /// Search threads to start: `engine.threads`, or one per available core when 0.
    pub fn thread_count(&self) -> usize {
        match self.engine.threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
    }

    fn minus_lag(&self, seconds: f64) -> Duration {
        // The margin is never more than a tenth of the budget: a 0.3 s stone keeps 0.27 s.
        let left = seconds - self.time.lag_margin_seconds.min(seconds / 10.0);
        Duration::from_secs_f64(left)
    }

    /// Thinking time per stone when no clock is known (GTP), lag margin taken off.
    pub fn stone_time(&self) -> Duration {
        self.minus_lag(self.time.stone_seconds)
    }

    /// Thinking time for a Connect6-protocol turn of `turn_seconds` (both stones come in one
    /// reply, so the lag margin is kept back once); the clock splits it between the stones by
    /// `time.first_stone_share`.
    pub fn c6_turn_time(&self, turn_seconds: f64) -> Duration {
        self.minus_lag(turn_seconds)
    }

    /// Seconds per turn for Connect6-protocol `depth d`: entry d (from 1), clamped to the list.
    pub fn depth_turn_seconds(&self, depth: u32) -> f64 {
        let levels = &self.time.depth_turn_seconds;
        let i = (depth.max(1) as usize - 1).min(levels.len() - 1);
        levels[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_default_is_valid_and_complete() {
        let c = EngineConfig::builtin();
        assert_eq!(c.engine.board_size, 19);
        assert_eq!(c.engine.name, "Liuzi");
        assert_eq!(c.engine.weights, Path::new("engine-config/default.weights"));
        assert_eq!(c.engine.evaluator, Path::new("engine-config/default.eval"));
        assert_eq!(c.engine.search, SearchKind::Mcts);
        assert_eq!(c.search.playout_cutoff, 0);
        assert_eq!(c.c6.letters, Letters::Cloudict);
        assert_eq!(c.search.exploration, 0.4);
        assert_eq!(c.search.prior_visits, 5000.0);
        // Every field is in the file: serialising the parsed default gives the same keys.
        let again: toml::Table = toml::to_string(&c).unwrap().parse().unwrap();
        let keys = |t: &toml::Table| -> Vec<String> {
            t.iter()
                .flat_map(|(k, v)| {
                    v.as_table()
                        .unwrap()
                        .keys()
                        .map(move |s| format!("{k}.{s}"))
                })
                .collect()
        };
        assert_eq!(keys(&again), keys(&builtin_table()));
    }

    #[test]
    fn a_file_overrides_only_what_it_names() {
        let c = EngineConfig::from_toml(
            "[engine]\nthreads = 3\nweights = \"w.bin\"\n[c6]\nletters = \"sau\"\n",
            "my.toml",
            Path::new("/etc/liuzi"),
        )
        .unwrap();
        assert_eq!(c.engine.threads, 3);
        assert_eq!(c.thread_count(), 3);
        assert_eq!(c.engine.weights, Path::new("/etc/liuzi/w.bin"));
        assert_eq!(c.engine.evaluator, Path::new("/etc/liuzi/default.eval"));
        let none = EngineConfig::from_toml(
            "[engine]\nevaluator = \"none\"\n",
            "my.toml",
            Path::new("/etc/liuzi"),
        )
        .unwrap();
        assert_eq!(none.engine.evaluator, Path::new("none"));
        assert_eq!(c.c6.letters, Letters::Sau);
        assert_eq!(c.engine.board_size, 19);
        assert_eq!(c.time, EngineConfig::builtin().time);
    }

    #[test]
    fn errors_name_the_file_and_the_problem() {
        let cases = [
            (
                "[engine]\nthreds = 2\n",
                "my.toml: unknown key `engine.threds` (known here: ",
            ),
            ("[serch]\n", "my.toml: unknown key `serch`"),
            ("engine = 3\n", "my.toml: `engine` must be a table"),
            ("[engine]\nthreads = \"two\"\n", "my.toml: "),
            (
                "[engine]\nboard_size = 30\n",
                "my.toml: engine.board_size = 30 is outside 6..=25",
            ),
            (
                "[engine]\nname = \"two words\"\n",
                "engine.name must be one word",
            ),
            (
                "[time]\nstone_seconds = -1.0\n",
                "time.stone_seconds must be a positive",
            ),
            ("[time]\ndepth_turn_seconds = []\n", "at least one level"),
            ("[c6]\nletters = \"xyz\"\n", "my.toml: "),
            ("[engine]\nsearch = \"minimax\"\n", "my.toml: "),
            ("[alphabeta]\nwdth = 3\n", "unknown key `alphabeta.wdth`"),
            ("[engine\n", "my.toml: "),
        ];
        for (text, expected) in cases {
            let err = EngineConfig::from_toml(text, "my.toml", Path::new(".")).unwrap_err();
            let shown = err.to_string();
            assert!(shown.starts_with("my.toml: "), "{text:?}: {shown}");
            assert!(
                shown.contains(expected.trim_start_matches("my.toml: ")),
                "{text:?}: {shown}"
            );
        }
        let err = EngineConfig::from_file(Path::new("/nonexistent/liuzi.toml")).unwrap_err();
        assert!(err
            .to_string()
            .starts_with("/nonexistent/liuzi.toml: cannot read"));
    }

    #[test]
    fn depth_levels_and_lag_margin() {
        let c = EngineConfig::builtin();
        assert_eq!(c.depth_turn_seconds(1), 0.5);
        assert_eq!(c.depth_turn_seconds(0), 0.5);
        assert_eq!(c.depth_turn_seconds(4), 4.0);
        assert_eq!(c.depth_turn_seconds(99), 60.0);
        assert_eq!(c.stone_time(), Duration::from_secs_f64(5.0 - 0.3));
        assert_eq!(c.c6_turn_time(10.0), Duration::from_secs_f64(9.7));
        // The margin is never more than a tenth of the budget.
        assert_eq!(c.c6_turn_time(0.2), Duration::from_secs_f64(0.2 - 0.02));
    }
}
