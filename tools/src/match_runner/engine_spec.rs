//! Engine descriptions: command line, working directory, protocol, start-up commands, time
//! control. Read from a TOML file (`[[engine]]` tables) or from `--engine "key=value ..."` flags.

use super::time_control::TimeControl;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// GTP with one stone per `genmove`/`play`, colours in the order B, WW, BB.
    Gtp,
    /// Connect6 protocol, Cloudict dialect: letters column then row from the bottom.
    Cloudict,
    /// Connect6 protocol, SAU platform dialect: `name?`, rows from the top, `JJ@@`, `end`.
    Sau,
}

impl std::str::FromStr for Protocol {
    type Err = String;
    fn from_str(text: &str) -> Result<Protocol, String> {
        match text.to_ascii_lowercase().as_str() {
            "gtp" => Ok(Protocol::Gtp),
            "cloudict" | "c6" | "connect6" => Ok(Protocol::Cloudict),
            "sau" => Ok(Protocol::Sau),
            _ => Err(format!(
                "unknown protocol `{text}` (expected gtp, cloudict or sau)"
            )),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// Name in results, records and tables; unique within a match.
    pub name: String,
    /// Program and arguments (no shell involved).
    pub command: Vec<String>,
    pub dir: Option<PathBuf>,
    pub protocol: Protocol,
    /// Sent once after start-up (GTP commands must succeed; Connect6 lines get no reply).
    pub init: Vec<String>,
    /// `None`: the match-wide default applies.
    pub time: Option<TimeControl>,
    pub env: Vec<(String, String)>,
    /// Connect6 protocol only: the engine understands `black XXXX` / `white XXXX` / `next`,
    /// which is how an opening position is set up. Default: true for Cloudict, false for SAU.
    pub placements: bool,
}

impl EngineSpec {
    fn validate(&self) -> Result<(), String> {
        if self.name.is_empty() || self.name.chars().any(|c| c.is_control() || c == '\t') {
            return Err(format!(
                "engine name `{}` must be non-empty, without tabs or control characters",
                self.name
            ));
        }
        if self.command.is_empty() || self.command[0].is_empty() {
            return Err(format!("engine `{}` has no command", self.name));
        }
        if self.protocol == Protocol::Gtp && !self.placements {
            return Err(format!(
                "engine `{}`: `placements` applies to the Connect6 protocols only",
                self.name
            ));
        }
        Ok(())
    }

    /// Makes a relative program path (one with a `/`) absolute: against the engine's directory,
    /// or `base` without one. Bare names are looked up on PATH as usual.
    fn resolve_program(&mut self, base: &Path) {
        let program = Path::new(&self.command[0]);
        if program.is_relative() && self.command[0].contains('/') {
            let root = self.dir.clone().unwrap_or_else(|| base.to_path_buf());
            self.command[0] = root.join(program).to_string_lossy().into_owned();
        }
    }
}

/// A command line, written as one string (split like a shell would, but without a shell) or as
/// an array of words.
#[derive(Deserialize)]
#[serde(untagged)]
enum CommandLine {
    Line(String),
    Words(Vec<String>),
}

impl CommandLine {
    fn into_words(self) -> Result<Vec<String>, String> {
        match self {
            CommandLine::Line(s) => {
                shell_words::split(&s).map_err(|e| format!("command `{s}`: {e}"))
            }
            CommandLine::Words(w) => Ok(w),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEngine {
    name: String,
    command: CommandLine,
    dir: Option<PathBuf>,
    protocol: Option<String>,
    #[serde(default)]
    init: Vec<String>,
    tc: Option<String>,
    st: Option<f64>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    placements: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(rename = "engine", default)]
    engines: Vec<RawEngine>,
}

fn time_from(tc: Option<&str>, st: Option<f64>) -> Result<Option<TimeControl>, String> {
    match (tc, st) {
        (Some(_), Some(_)) => Err("give either tc (clock) or st (per turn), not both".into()),
        (Some(tc), None) => TimeControl::parse_clock(tc).map(Some),
        (None, Some(st)) => TimeControl::parse_per_turn(&st.to_string()).map(Some),
        (None, None) => Ok(None),
    }
}

fn default_placements(protocol: Protocol) -> bool {
    protocol != Protocol::Sau
}

/// Reads every `[[engine]]` of a TOML file. Relative paths are taken from the file's directory.
pub fn load_engine_file(path: &Path) -> Result<Vec<EngineSpec>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let raw: RawFile = toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let base = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    raw.engines
        .into_iter()
        .map(|r| {
            let name = r.name.clone();
            engine_from_raw(r, &base)
                .map_err(|e| format!("{}: engine `{name}`: {e}", path.display()))
        })
        .collect()
}

fn engine_from_raw(raw: RawEngine, base: &Path) -> Result<EngineSpec, String> {
    let protocol: Protocol = raw.protocol.as_deref().unwrap_or("gtp").parse()?;
    let mut spec = EngineSpec {
        name: raw.name,
        command: raw.command.into_words()?,
        dir: raw.dir.map(|d| base.join(d)),
        protocol,
        init: raw.init,
        time: time_from(raw.tc.as_deref(), raw.st)?,
        env: raw.env.into_iter().collect(),
        placements: raw.placements.unwrap_or(default_placements(protocol)),
    };
    spec.validate()?;
    spec.resolve_program(base);
    Ok(spec)
}

/// Parses `--engine "name=a cmd='./liuzi gtp' proto=gtp dir=. tc=60+1 init='depth 3'"`.
/// Keys: name, cmd, dir, proto, tc, st, init (repeatable), env (repeatable, `K=V`), placements.
pub fn parse_engine_flag(text: &str) -> Result<EngineSpec, String> {
    let words = shell_words::split(text).map_err(|e| format!("--engine `{text}`: {e}"))?;
    let mut raw = RawEngine {
        name: String::new(),
        command: CommandLine::Words(vec![]),
        dir: None,
        protocol: None,
        init: vec![],
        tc: None,
        st: None,
        env: BTreeMap::new(),
        placements: None,
    };
    let mut has_cmd = false;
    for word in &words {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| format!("--engine: `{word}` is not key=value"))?;
        match key {
            "name" => raw.name = value.to_string(),
            "cmd" => {
                raw.command = CommandLine::Line(value.to_string());
                has_cmd = true;
            }
            "dir" => raw.dir = Some(PathBuf::from(value)),
            "proto" | "protocol" => raw.protocol = Some(value.to_string()),
            "tc" => raw.tc = Some(value.to_string()),
            "st" => {
                raw.st = Some(
                    value
                        .parse()
                        .map_err(|_| format!("--engine: st=`{value}` is not a number"))?,
                )
            }
            "init" => raw.init.push(value.to_string()),
            "env" => {
                let (k, v) = value
                    .split_once('=')
                    .ok_or_else(|| format!("--engine: env=`{value}` is not NAME=VALUE"))?;
                raw.env.insert(k.to_string(), v.to_string());
            }
            "placements" => {
                raw.placements = Some(
                    value
                        .parse()
                        .map_err(|_| format!("--engine: placements=`{value}` is not true/false"))?,
                )
            }
            _ => return Err(format!("--engine: unknown key `{key}`")),
        }
    }
    if !has_cmd {
        return Err(format!("--engine `{text}`: cmd=... is required"));
    }
    if raw.name.is_empty() {
        return Err(format!("--engine `{text}`: name=... is required"));
    }
    let name = raw.name.clone();
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    engine_from_raw(raw, &cwd).map_err(|e| format!("--engine `{name}`: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn flag_with_every_key() {
        let spec = parse_engine_flag(
            "name=cd cmd='/opt/cloudict/cloudict \"Cloud Dict\"' proto=cloudict dir=/tmp st=2.5 init='depth 3' init=vcf env=A=1",
        )
        .unwrap();
        assert_eq!(spec.name, "cd");
        assert_eq!(spec.command, vec!["/opt/cloudict/cloudict", "Cloud Dict"]);
        assert_eq!(spec.protocol, Protocol::Cloudict);
        assert_eq!(spec.dir, Some(PathBuf::from("/tmp")));
        assert_eq!(spec.init, vec!["depth 3", "vcf"]);
        assert_eq!(
            spec.time,
            Some(TimeControl::PerTurn(Duration::from_secs_f64(2.5)))
        );
        assert_eq!(spec.env, vec![("A".to_string(), "1".to_string())]);
        assert!(spec.placements);
    }

    #[test]
    fn flag_errors_are_specific() {
        let err = |s: &str| parse_engine_flag(s).unwrap_err();
        assert!(err("name=a").contains("cmd=... is required"));
        assert!(err("cmd=x").contains("name=... is required"));
        assert!(err("name=a cmd=x proto=uci").contains("unknown protocol `uci`"));
        assert!(err("name=a cmd=x color=red").contains("unknown key `color`"));
        assert!(err("name=a cmd=x tc=10 st=1").contains("not both"));
        assert!(err("name=a cmd=x proto=gtp placements=false").contains("Connect6 protocols only"));
        assert!(err("name=a cmd='x").contains("--engine"));
    }

    #[test]
    fn toml_file_resolves_paths_against_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("engines.toml");
        std::fs::write(
            &path,
            r#"
[[engine]]
name = "liuzi"
command = ["./target/release/liuzi", "gtp"]
tc = "60+0.5"

[[engine]]
name = "sau-bot"
command = "bin/sau-bot --quiet"
dir = "bots"
protocol = "sau"
init = ["depth 4"]
env = { RUST_LOG = "warn" }
"#,
        )
        .unwrap();
        let engines = load_engine_file(&path).unwrap();
        assert_eq!(engines.len(), 2);
        assert_eq!(
            engines[0].command[0],
            dir.path().join("./target/release/liuzi").to_string_lossy()
        );
        assert_eq!(engines[0].protocol, Protocol::Gtp);
        assert_eq!(
            engines[0].time,
            Some(TimeControl::Clock {
                main: Duration::from_secs(60),
                increment: Duration::from_millis(500)
            })
        );
        assert_eq!(engines[1].dir, Some(dir.path().join("bots")));
        assert_eq!(
            engines[1].command[0],
            dir.path().join("bots/bin/sau-bot").to_string_lossy()
        );
        assert_eq!(engines[1].command[1], "--quiet");
        assert!(!engines[1].placements);
        assert_eq!(
            engines[1].env,
            vec![("RUST_LOG".to_string(), "warn".to_string())]
        );
    }

    #[test]
    fn toml_errors_name_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.toml");
        std::fs::write(
            &path,
            "[[engine]]\nname = \"x\"\ncommand = \"a\"\ncolour = 1\n",
        )
        .unwrap();
        let err = load_engine_file(&path).unwrap_err();
        assert!(err.contains("bad.toml") && err.contains("colour"), "{err}");
        let err = load_engine_file(&dir.path().join("missing.toml")).unwrap_err();
        assert!(err.contains("missing.toml"), "{err}");
    }
}
