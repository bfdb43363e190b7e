//! Typed engine configuration, read from commented TOML (`engine-config/default.toml`).
//!
//! The default file is embedded in the binary ([`BUILTIN_TOML`]) and is the base of every
//! configuration: a `--config FILE` only needs the keys it changes. Every key a file names must
//! exist in the default file, so a typo is an error naming the file and the key rather than a
//! silently ignored setting.
//!
//! The settings belong to the layers that use them (the MCTS's `[search]` to `search::mcts`,
//! the solver's `solver*` keys to `search::common`, `[alphabeta]` to `search::alphabeta`); this
//! module only merges the file over the default, checks the whole once ([`EngineConfig::validate`])
//! and hands the settings over.

mod settings;

pub use settings::{Setting, SettingKind, RUNTIME_SECTIONS};

use crate::artifact::BUILTIN_TOML;
use crate::notation::LetterOrder;
use crate::rules::{MAX_SIZE, MIN_SIZE};
use crate::search::alphabeta::AlphaBetaParams;
use crate::search::common::TimePolicy;
use crate::search::mcts::SearchParams;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Most search threads `engine.threads` may ask for.
pub const MAX_THREADS: usize = 256;

/// Where `liuzi` looks for its configuration when no `--config` is given, relative to the
/// working directory and to the ancestors of the executable (`target/release/liuzi`).
pub const DEFAULT_PATH: &str = "engine-config/default.toml";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineConfig {
    pub engine: EngineSection,
    pub time: TimeSection,
    pub c6: C6Section,
    pub search: SearchParams,
    pub alphabeta: AlphaBetaParams,
    pub protocol: ProtocolSection,
}

/// How the protocol front-ends behave beside the moves themselves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProtocolSection {
    /// Think on the opponent's time (GTP and the Connect6 protocol).
    pub ponder: bool,
    /// GTP: GoGui live graphics (`gogui-gfx:` blocks on stderr) during a search.
    pub live_gfx: bool,
    /// Connect6 protocol, Cloudict letters: `Searching i/n` progress lines on stdout.
    pub progress_lines: bool,
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
    /// The opening book (`liuzi-book`); `"none"` = none. Resolved like `weights`.
    pub book: PathBuf,
    /// A book turn is played only when played in at least this many games of its position.
    pub book_min_games: u32,
    /// A position up to this many lines off a book position (along each axis) plays its turns
    /// shifted, when no stone is near an edge; 0 = exact positions only.
    pub book_shift: u32,
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
    /// In main time, a stone still undecided at its planned time runs on for up to this
    /// multiple of that time.
    pub unsettled_extension: f64,
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

/// The longest line of a TOML error's echo of the file that is shown whole.
const MAX_ECHOED_CHARS: usize = 200;

/// `text` with each line cut to [`MAX_ECHOED_CHARS`] characters and an ellipsis: the parser's
/// message quotes the offending line, which may be a whole file of brackets.
fn shorten_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(4096));
    for (i, line) in text.lines().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        match line.char_indices().nth(MAX_ECHOED_CHARS) {
            Some((cut, _)) => {
                out.push_str(&line[..cut]);
                out.push('…');
            }
            None => out.push_str(line),
        }
    }
    out
}

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

/// The first key of `user` whose value its setting cannot take (a wrong type, an integer out of
/// the type's range, an unknown name), as `section.key: why`. Each key is tried alone over the
/// default, so the error names it even where the deserializer's message names only the section
/// (the solver's keys, flattened into `[search]`).
fn unreadable_key(user: &toml::Table) -> Option<String> {
    let sections = user
        .iter()
        .filter_map(|(section, table)| Some((section, table.as_table()?)));
    for (section, table) in sections {
        for (key, value) in table {
            let mut one = builtin_table();
            if let Some(slot) = one.get_mut(section).and_then(toml::Value::as_table_mut) {
                slot.insert(key.clone(), value.clone());
            }
            if let Err(e) = toml::Value::Table(one).try_into::<EngineConfig>() {
                return Some(format!("{section}.{key}: {}", e.message().trim_end()));
            }
        }
    }
    None
}

/// Largest configuration file read.
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// The `engine-config/` directory of the shipped files on disk: the first one holding
/// `default.toml` in the working directory or up to three levels above the executable.
pub fn shipped_dir() -> Option<PathBuf> {
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
    std::iter::once(PathBuf::from("."))
        .chain(exe_dirs)
        .map(|dir| dir.join(DEFAULT_PATH))
        .find(|path| path.is_file())
        .and_then(|path| path.parent().map(Path::to_path_buf))
}

/// `value` as a path: a relative one is taken from `dir`; "none" and "" are values, not paths.
fn resolve(value: &Path, dir: &Path) -> PathBuf {
    if value.is_relative() && value != Path::new("none") && value != Path::new("") {
        dir.join(value)
    } else {
        value.to_path_buf()
    }
}

impl EngineConfig {
    /// The embedded default; its files are the copies built into the binary
    /// ([`crate::artifact::BUILT_IN_DIR`]).
    pub fn builtin() -> EngineConfig {
        let built_in = Path::new(crate::artifact::BUILT_IN_DIR);
        EngineConfig::from_toml_over(BUILTIN_TOML, "built-in default.toml", built_in, built_in)
            .expect("the embedded default.toml is a valid configuration (checked by a unit test)")
    }

    /// Parses `text` over the built-in default. `origin` names it in errors; relative paths
    /// in it are resolved against `base_dir`, and the paths it does not set are the
    /// built-in copies.
    pub fn from_toml(
        text: &str,
        origin: &str,
        base_dir: &Path,
    ) -> Result<EngineConfig, ConfigError> {
        let built_in = Path::new(crate::artifact::BUILT_IN_DIR);
        EngineConfig::from_toml_over(text, origin, base_dir, built_in)
    }

    /// Like [`EngineConfig::from_toml`], with the paths `text` does not set (inherited from
    /// the default) resolved against `defaults_dir`, the shipped `engine-config/`.
    pub fn from_toml_over(
        text: &str,
        origin: &str,
        base_dir: &Path,
        defaults_dir: &Path,
    ) -> Result<EngineConfig, ConfigError> {
        let error = |problem: String| ConfigError {
            file: origin.to_string(),
            problem,
        };
        let user: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| error(shorten_lines(e.to_string().trim_end())))?;
        let sets = |key: &str| {
            user.get("engine")
                .and_then(toml::Value::as_table)
                .is_some_and(|t| t.contains_key(key))
        };
        let (sets_weights, sets_evaluator, sets_book) =
            (sets("weights"), sets("evaluator"), sets("book"));
        let mut merged = builtin_table();
        merge_checked(&mut merged, user.clone(), "").map_err(error)?;
        let mut config: EngineConfig =
            toml::Value::Table(merged)
                .try_into()
                .map_err(|e: toml::de::Error| {
                    error(shorten_lines(
                        &unreadable_key(&user)
                            .unwrap_or_else(|| e.to_string().trim_end().to_string()),
                    ))
                })?;
        // Each path is taken from the directory of the file that set it.
        let dir_of = |set: bool| if set { base_dir } else { defaults_dir };
        config.engine.weights = resolve(&config.engine.weights, dir_of(sets_weights));
        config.engine.evaluator = resolve(&config.engine.evaluator, dir_of(sets_evaluator));
        config.engine.book = resolve(&config.engine.book, dir_of(sets_book));
        config.validate().map_err(error)?;
        Ok(config)
    }

    /// Reads a configuration file (a regular file of at most [`MAX_CONFIG_BYTES`]); the paths
    /// it does not set are the shipped files (on disk when found, else the built-in copies).
    pub fn from_file(path: &Path) -> Result<EngineConfig, ConfigError> {
        let shown = path.display().to_string();
        let bytes =
            crate::artifact::read_limited(path, MAX_CONFIG_BYTES).map_err(|e| ConfigError {
                file: shown.clone(),
                problem: format!("cannot read: {e}"),
            })?;
        let text = String::from_utf8(bytes).map_err(|_| ConfigError {
            file: shown.clone(),
            problem: "cannot read: not UTF-8 text".to_string(),
        })?;
        let base_dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let defaults_dir =
            shipped_dir().unwrap_or_else(|| PathBuf::from(crate::artifact::BUILT_IN_DIR));
        EngineConfig::from_toml_over(&text, &shown, base_dir, &defaults_dir)
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
        if let Some(dir) = shipped_dir() {
            let path = dir.join("default.toml");
            return Ok((EngineConfig::from_file(&path)?, ConfigSource::File(path)));
        }
        Ok((EngineConfig::builtin(), ConfigSource::Builtin))
    }

    /// Checks every value's range; the error names the key (`section.key`). Run when a file is
    /// read, and again only when command-line options changed values.
    pub fn validate(&self) -> Result<(), String> {
        let size = self.engine.board_size;
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(format!(
                "engine.board_size = {size} is outside {MIN_SIZE}..={MAX_SIZE}"
            ));
        }
        if self.engine.book_min_games == 0 {
            return Err("engine.book_min_games must be at least 1".to_string());
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
        if !(t.unsettled_extension.is_finite() && (0.0..=4.0).contains(&t.unsettled_extension)) {
            return Err(format!(
                "time.unsettled_extension must be in 0..=4, not {}",
                t.unsettled_extension
            ));
        }
        if !(t.lag_margin_seconds.is_finite() && (0.0..1e4).contains(&t.lag_margin_seconds)) {
            return Err(format!(
                "time.lag_margin_seconds must be >= 0, not {}",
                t.lag_margin_seconds
            ));
        }
        if self.engine.threads > MAX_THREADS {
            return Err(format!(
                "engine.threads must be in 0..={MAX_THREADS} (0 = one per core), not {}",
                self.engine.threads
            ));
        }
        self.search.validate()?;
        self.alphabeta.validate()
    }

    /// The MCTS's settings: `[search]` with the engine-wide threads and seed (seed 0: a fresh
    /// one every run).
    pub fn search_params(&self) -> SearchParams {
        let seed = match self.engine.seed {
            // web_time: std's clock natively; the browser's in WebAssembly, where std's panics.
            0 => web_time::SystemTime::now()
                .duration_since(web_time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64),
            n => n,
        };
        SearchParams {
            threads: self.thread_count(),
            seed,
            ..self.search.clone()
        }
    }

    /// The time policy: the `[time]` keys the clock plans with.
    pub fn time_policy(&self) -> TimePolicy {
        let t = &self.time;
        TimePolicy {
            lag: Duration::from_secs_f64(t.lag_margin_seconds),
            turn_horizon: t.turn_horizon,
            min_turns_left: t.min_turns_left,
            first_stone_share: t.first_stone_share,
            unsettled_extension: t.unsettled_extension,
            ..TimePolicy::default()
        }
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
    fn a_long_offending_line_is_cut_in_the_message() {
        let line = format!("a = {}", "[".repeat(100_000));
        let err = EngineConfig::from_toml(&line, "deep.toml", Path::new(".")).unwrap_err();
        let text = err.to_string();
        assert!(text.starts_with("deep.toml: "), "{text}");
        assert!(text.len() < 2000, "{} bytes", text.len());
        assert!(text.contains('…'), "{text}");
        assert_eq!(shorten_lines("ab\ncd"), "ab\ncd");
        assert_eq!(
            shorten_lines(&"é".repeat(201)),
            format!("{}…", "é".repeat(200))
        );
    }

    /// One path per setting: every key of the shipped TOML is read into a field, and every
    /// field (but the runtime `threads` and `seed`, filled from `[engine]`) has a key.
    #[test]
    fn builtin_default_is_valid_and_complete() {
        let c = EngineConfig::builtin();
        assert_eq!(c.engine.board_size, 19);
        assert_eq!(c.engine.name, "Liuzi");
        assert_eq!(c.engine.weights, Path::new("<built-in>/default.weights"));
        assert_eq!(c.engine.evaluator, Path::new("<built-in>/default.eval"));
        assert_eq!(c.engine.search, SearchKind::Mcts);
        assert_eq!(c.search.playout_cutoff, 4);
        assert_eq!(c.search.value_mix, 0.9);
        assert_eq!(c.c6.letters, Letters::Cloudict);
        assert_eq!(c.search.exploration, 0.25);
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
        // Not set by the file: the shipped default, never `/etc/liuzi/default.eval`.
        assert_eq!(c.engine.evaluator, Path::new("<built-in>/default.eval"));
        let over = EngineConfig::from_toml_over(
            "[engine]\nthreads = 1\n",
            "my.toml",
            Path::new("/etc/liuzi"),
            Path::new("/opt/liuzi/engine-config"),
        )
        .unwrap();
        assert_eq!(
            over.engine.weights,
            Path::new("/opt/liuzi/engine-config/default.weights")
        );
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
            (
                "[time]\nunsettled_extension = 5.0\n",
                "time.unsettled_extension must be in 0..=4, not 5",
            ),
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
    fn time_policy_from_the_built_in_config_is_the_default() {
        assert_eq!(EngineConfig::builtin().time_policy(), TimePolicy::default());
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

    /// Every key of the default given a value of another type is refused, naming the file and
    /// the key (the solver's keys, flattened into `[search]`, once said only "in search").
    #[test]
    fn a_value_of_the_wrong_type_names_the_file_and_the_key() {
        for (section, table) in builtin_table() {
            for (key, value) in table.as_table().unwrap() {
                let wrong = match value {
                    toml::Value::String(_) => "7".to_string(),
                    toml::Value::Array(_) => "\"7\"".to_string(),
                    _ => "\"7\"".to_string(),
                };
                let text = format!("[{section}]\n{key} = {wrong}\n");
                let err = parse(&text).unwrap_err();
                assert!(
                    err.starts_with("my.toml: ") && err.contains(&format!("{section}.{key}")),
                    "{text:?}: {err}"
                );
            }
        }
        // Integers out of the type's range, and unknown names, name the key too.
        for (text, key) in [
            (
                "[search]\nsolver_root_nodes = -1\n",
                "search.solver_root_nodes",
            ),
            (
                "[search]\nsolver_free_reach = 300\n",
                "search.solver_free_reach",
            ),
            ("[search]\npair_order = \"sideways\"\n", "search.pair_order"),
            ("[c6]\nletters = \"xyz\"\n", "c6.letters"),
        ] {
            let err = parse(text).unwrap_err();
            assert!(
                err.starts_with("my.toml: ") && err.contains(key),
                "{text:?}: {err}"
            );
        }
    }

    fn parse(text: &str) -> Result<EngineConfig, String> {
        EngineConfig::from_toml(text, "my.toml", Path::new(".")).map_err(|e| e.to_string())
    }

    #[test]
    fn engine_threads_and_seed_fill_the_runtime_fields() {
        let mut config = EngineConfig::builtin();
        config.engine.threads = 3;
        config.engine.seed = 42;
        let p = config.search_params();
        assert_eq!((p.threads, p.seed), (3, 42));
        assert_eq!(
            SearchParams {
                threads: 1,
                seed: 0,
                ..p
            },
            SearchParams::default()
        );
    }

    #[test]
    fn search_errors_name_the_file_and_the_key() {
        let cases = [
            ("[search]\nexploration = -1.0\n", "search.exploration"),
            ("[search]\nprior_weight = nan\n", "search.prior_weight"),
            ("[search]\nprior_visits = 0\n", "search.prior_visits"),
            ("[search]\nvalue_mix = 1.5\n", "search.value_mix"),
            ("[search]\nverify_margin = -0.1\n", "search.verify_margin"),
            (
                "[search]\nsolver_pair_share = 2.0\n",
                "search.solver_pair_share",
            ),
            (
                "[search]\nsolver_free_reach = 6\n",
                "search.solver_free_reach",
            ),
            ("[search]\nexpand_visits = 0\n", "search.expand_visits"),
            (
                "[search]\neval_prior_weight = -1.0\n",
                "search.eval_prior_weight",
            ),
            (
                "[search]\neval_prior_plies = 65\n",
                "search.eval_prior_plies",
            ),
            (
                "[search]\neval_prior_plies = 2\neval_prior_candidates = 0\n",
                "search.eval_prior_candidates",
            ),
            ("[search]\nmax_nodes = 10\n", "search.max_nodes"),
            ("[search]\npair_order = \"sideways\"\n", "pair_order"),
            ("[search]\nplayout_policy = \"random\"\n", "playout_policy"),
            ("[engine]\nthreads = 300\n", "engine.threads"),
            ("[alphabeta]\nwidth = 0\n", "alphabeta.width"),
            ("[alphabeta]\nmax_depth = 99\n", "alphabeta.max_depth"),
        ];
        for (text, key) in cases {
            let err = parse(text).unwrap_err();
            assert!(
                err.starts_with("my.toml: ") && err.contains(key),
                "{text:?}: {err}"
            );
        }
        let ok = parse("[search]\npair_order = \"both\"\nplayout_policy = \"uniform\"\n").unwrap();
        assert_eq!(ok.search.pair_order, crate::search::mcts::PairOrder::Both);
        assert_eq!(
            ok.search.playout_policy,
            crate::search::common::PlayoutPolicy::Uniform
        );
    }

    #[test]
    fn sizes_beyond_the_machine_memory_name_the_key() {
        // The values that aborted the process (a 48 GiB tree, a 64 GiB table).
        let total = crate::search::common::physical_memory().unwrap_or(128 << 30);
        if total >= 128 << 30 {
            eprintln!("skipped: this machine has room for 64 GiB");
            return;
        }
        let err = parse("[search]\nmax_nodes = 2147483647\n").unwrap_err();
        assert!(err.contains("search.max_nodes = 2147483647"), "{err}");
        assert!(err.contains("memory"), "{err}");
        let err = parse("[alphabeta]\nhash_mb = 65536\n").unwrap_err();
        assert!(err.contains("alphabeta.hash_mb = 65536"), "{err}");
    }
}
