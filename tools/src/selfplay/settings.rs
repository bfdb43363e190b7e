//! The settings a self-play file's games were played with, written in its header and compared
//! on resume, so that games of other settings are never appended to a file silently: the
//! engine's version, the playouts, the knowledge files by content, every search setting, the
//! openings and the run's seed.

use liuzi::config::EngineConfig;
use std::collections::BTreeMap;
use std::path::Path;

/// The `[engine]` keys that say nothing of how a game is played (the seed and threads are set
/// per game; the files are named by content instead of by path).
const ENGINE_KEYS_LEFT_OUT: &[&str] = &["name", "seed", "threads", "weights", "evaluator", "book"];

/// The configuration sections that decide the games (the clock does not: searches stop at a
/// playout count; the protocols are not used).
const SECTIONS: &[&str] = &["engine", "search", "alphabeta"];

/// The settings of a run of `config` (one thread, the playouts set) with `openings` described
/// and `seed` the run's seed. Knowledge files are read to name their content; a file that
/// cannot be read is an error naming it.
pub fn run_settings(
    config: &EngineConfig,
    openings: &str,
    seed: u64,
) -> Result<BTreeMap<String, String>, String> {
    let mut settings = BTreeMap::new();
    // The tools and the engine are one workspace, versioned together.
    settings.insert("liuzi_version".into(), env!("CARGO_PKG_VERSION").into());
    settings.insert("playouts".into(), config.search.playouts.to_string());
    settings.insert("openings".into(), openings.to_string());
    settings.insert("seed".into(), seed.to_string());
    let files = [
        ("weights", &config.engine.weights),
        ("evaluator", &config.engine.evaluator),
        ("book", &config.engine.book),
    ];
    for (key, path) in files {
        settings.insert(key.into(), content_name(path)?);
    }
    let table = match toml::Value::try_from(config) {
        Ok(toml::Value::Table(table)) => table,
        _ => return Err("the configuration does not serialise to a table".into()),
    };
    for section in SECTIONS {
        let Some(toml::Value::Table(keys)) = table.get(*section) else {
            continue;
        };
        for (key, value) in keys {
            if *section == "engine" && ENGINE_KEYS_LEFT_OUT.contains(&key.as_str()) {
                continue;
            }
            if *section == "search" && key == "playouts" {
                continue; // the run's own key above
            }
            settings.insert(format!("{section}.{key}"), setting_text(value));
        }
    }
    Ok(settings)
}

/// A setting's value as the file shows it; an `f32` setting as the shortest decimal that reads
/// back the same (0.1, not 0.10000000149011612).
fn setting_text(value: &toml::Value) -> String {
    match value {
        toml::Value::Float(f) if f64::from(*f as f32) == *f => (*f as f32).to_string(),
        other => other.to_string(),
    }
}

/// A file by content: its name and a 64-bit FNV-1a hash of its bytes (the built-in copy of a
/// shipped file and the file on disk are the same file; a file moved keeps its name); `none`
/// for none.
pub fn content_name(path: &Path) -> Result<String, String> {
    if path.as_os_str().is_empty() || path.as_os_str() == "none" {
        return Ok("none".into());
    }
    let bytes = match liuzi::artifact::embedded(path) {
        Some(bytes) => bytes.to_vec(),
        None => liuzi::artifact::read_limited(path, liuzi::artifact::MAX_ARTIFACT_BYTES)
            .map_err(|e| format!("{}: {e}", path.display()))?,
    };
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    );
    Ok(format!("{name} fnv1a:{hash:016x}"))
}

/// Checks that `file`'s header settings are `ours`; else an error naming the file, the first
/// setting that differs and both values.
pub fn check_same(
    file: &BTreeMap<String, String>,
    ours: &BTreeMap<String, String>,
    path: &Path,
) -> Result<(), String> {
    let keys = file.keys().chain(ours.keys());
    for key in keys {
        let (theirs, mine) = (file.get(key), ours.get(key));
        if theirs != mine {
            let shown = |v: Option<&String>| v.map_or("(not set)".to_string(), Clone::clone);
            return Err(format!(
                "{} holds games played with {key} = {}, but this run has {key} = {}; resume it \
                 with the same settings, or write to another --out file",
                path.display(),
                shown(theirs),
                shown(mine)
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_name_the_files_by_content_and_a_change_by_its_key() {
        let config = EngineConfig::builtin();
        let ours = run_settings(&config, "empty", 1).unwrap();
        assert!(ours["evaluator"].starts_with("default.eval fnv1a:"));
        assert!(ours.contains_key("search.exploration"));
        assert!(!ours.contains_key("engine.seed"));
        check_same(&ours, &ours, Path::new("a.jsonl")).unwrap();
        let mut other = config.clone();
        other.search.exploration += 0.1;
        let theirs = run_settings(&other, "empty", 1).unwrap();
        let err = check_same(&theirs, &ours, Path::new("a.jsonl")).unwrap_err();
        assert!(
            err.contains("a.jsonl") && err.contains("search.exploration"),
            "{err}"
        );
    }
}
