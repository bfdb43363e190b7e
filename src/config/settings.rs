//! Settings changed while the engine runs (GTP `liuzi-set-param`, GoGui's parameter dialog):
//! the same keys, values, ranges and errors as the configuration file, because a change goes
//! through the file's own path: merged like a file's key (`merge_checked`), read by serde, then
//! checked by [`EngineConfig::validate`].

use super::EngineConfig;

/// The sections whose keys may change at run time: the search's and the clock's.
pub const RUNTIME_SECTIONS: &[&str] = &["search", "time", "alphabeta"];

/// A setting as the protocols show it: `section.key`, its value as TOML text and its kind.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    pub key: String,
    pub value: String,
    pub kind: SettingKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingKind {
    Bool,
    Number,
    /// A word from a fixed list (`pair_order = "canonical"`); shown without quotes.
    Word,
    /// A list of numbers (`depth_turn_seconds`).
    List,
}

impl EngineConfig {
    fn as_table(&self) -> toml::Table {
        match toml::Value::try_from(self) {
            Ok(toml::Value::Table(table)) => table,
            _ => unreachable!("a configuration serializes to a TOML table"),
        }
    }

    /// Every run-time setting of `section` (all of [`RUNTIME_SECTIONS`] when `None`), in key
    /// order. An unknown section is an error that lists the known ones.
    pub fn settings(&self, section: Option<&str>) -> Result<Vec<Setting>, String> {
        if let Some(s) = section.filter(|s| !RUNTIME_SECTIONS.contains(s)) {
            return Err(format!(
                "unknown section `{s}` (run-time sections: {})",
                RUNTIME_SECTIONS.join(", ")
            ));
        }
        let table = self.as_table();
        let mut out = Vec::new();
        for name in RUNTIME_SECTIONS
            .iter()
            .filter(|&&s| section.is_none_or(|x| x == s))
        {
            let Some(toml::Value::Table(keys)) = table.get(*name) else {
                continue;
            };
            for (key, value) in keys {
                out.push(Setting {
                    key: format!("{name}.{key}"),
                    value: value_text(value),
                    kind: kind_of(value),
                });
            }
        }
        Ok(out)
    }

    /// The run-time setting `key` (`section.name`).
    pub fn setting(&self, key: &str) -> Result<Setting, String> {
        let (section, _) = split_key(key)?;
        self.settings(Some(section))?
            .into_iter()
            .find(|s| s.key == key)
            .ok_or_else(|| self.unknown_key(key))
    }

    fn unknown_key(&self, key: &str) -> String {
        // The file's message, naming the known keys of the section.
        let (section, name) = key.split_once('.').unwrap_or((key, ""));
        let mut user = toml::Table::new();
        let mut keys = toml::Table::new();
        keys.insert(name.to_string(), toml::Value::Boolean(false));
        user.insert(section.to_string(), toml::Value::Table(keys));
        match super::merge_checked(&mut self.as_table(), user, "") {
            Err(message) => message,
            Ok(()) => format!("unknown key `{key}`"),
        }
    }

    /// A copy with `key` (`section.name`, a run-time section) set to `value`, written as in the
    /// file (`0.3`, `true`, `[1.0, 2.0]`; a bare word is a string: `canonical`). Errors are the
    /// file's: an unknown key, a wrong type, a value out of range, each naming the key.
    pub fn with_setting(&self, key: &str, value: &str) -> Result<EngineConfig, String> {
        let (section, name) = split_key(key)?;
        if !RUNTIME_SECTIONS.contains(&section) {
            return Err(format!(
                "`{key}` cannot change while the engine runs (run-time sections: {})",
                RUNTIME_SECTIONS.join(", ")
            ));
        }
        let parsed = match format!("v = {value}").parse::<toml::Table>() {
            Ok(mut t) => t.remove("v").expect("the key just written"),
            Err(_) => toml::Value::String(value.to_string()),
        };
        let mut keys = toml::Table::new();
        keys.insert(name.to_string(), parsed);
        let mut user = toml::Table::new();
        user.insert(section.to_string(), toml::Value::Table(keys));
        let mut table = self.as_table();
        super::merge_checked(&mut table, user, "")?;
        let mut config: EngineConfig =
            toml::Value::Table(table)
                .try_into()
                .map_err(|e: toml::de::Error| {
                    let text = e.to_string().replace('\n', " ");
                    format!("{key} = {value}: {}", text.trim())
                })?;
        // Not part of the file (set from [engine] when the search is built).
        config.search.threads = self.search.threads;
        config.search.seed = self.search.seed;
        config.validate()?;
        Ok(config)
    }
}

fn split_key(key: &str) -> Result<(&str, &str), String> {
    match key.split_once('.') {
        Some((section, name)) if !section.is_empty() && !name.is_empty() => Ok((section, name)),
        _ => Err(format!(
            "`{key}` is not a setting: write section.key (e.g. search.exploration)"
        )),
    }
}

fn kind_of(value: &toml::Value) -> SettingKind {
    match value {
        toml::Value::Boolean(_) => SettingKind::Bool,
        toml::Value::String(_) => SettingKind::Word,
        toml::Value::Array(_) => SettingKind::List,
        _ => SettingKind::Number,
    }
}

/// A value as one word: strings without quotes, lists without spaces, and `f32` settings
/// written as the shortest decimal that reads back the same (0.1, not 0.10000000149011612).
fn value_text(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => s.clone(),
        toml::Value::Float(f) => float_text(*f),
        toml::Value::Array(items) => {
            let items: Vec<String> = items.iter().map(value_text).collect();
            format!("[{}]", items.join(","))
        }
        other => other.to_string(),
    }
}

fn float_text(f: f64) -> String {
    let narrow = f as f32;
    let text = if f64::from(narrow) == f {
        narrow.to_string()
    } else {
        f.to_string()
    };
    // TOML needs a float to look like one when it is read back.
    if text.contains(['.', 'e', 'E', 'i', 'n']) {
        text
    } else {
        format!("{text}.0")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setting_round_trips_and_keeps_everything_else() {
        let base = EngineConfig::builtin();
        let changed = base.with_setting("search.exploration", "0.4").unwrap();
        assert_eq!(changed.search.exploration, 0.4);
        assert_eq!(changed.setting("search.exploration").unwrap().value, "0.4");
        let back = changed
            .with_setting(
                "search.exploration",
                &base.setting("search.exploration").unwrap().value,
            )
            .unwrap();
        assert_eq!(back, base);
        let words = base.with_setting("search.pair_order", "both").unwrap();
        assert_eq!(
            words.search.pair_order,
            crate::search::mcts::PairOrder::Both
        );
        let list = base
            .with_setting("time.depth_turn_seconds", "[1, 2.5]")
            .unwrap();
        assert_eq!(list.time.depth_turn_seconds, [1.0, 2.5]);
        assert_eq!(
            list.setting("time.depth_turn_seconds").unwrap().value,
            "[1.0,2.5]"
        );
        // Every shown value reads back as itself.
        for s in base.settings(None).unwrap() {
            assert_eq!(
                base.with_setting(&s.key, &s.value).unwrap(),
                base,
                "{}",
                s.key
            );
        }
    }

    #[test]
    fn refusals_are_the_files_and_change_nothing() {
        let base = EngineConfig::builtin();
        let error = |key: &str, value: &str| base.with_setting(key, value).unwrap_err();
        // The range check is the file's own (EngineConfig::validate).
        let mut file_config = base.clone();
        file_config.search.exploration = -1.0;
        assert_eq!(
            error("search.exploration", "-1"),
            file_config.validate().unwrap_err()
        );
        assert!(error("search.explorashun", "1").contains("unknown key `search.explorashun`"));
        assert!(error("search.exploration", "abc").contains("search.exploration"));
        assert!(error("search.pair_order", "sideways").contains("sideways"));
        assert!(error("time.first_stone_share", "0.99").contains("time.first_stone_share"));
        assert!(error("engine.threads", "2").contains("cannot change"));
        assert!(error("exploration", "2").contains("section.key"));
        assert!(base.settings(Some("engine")).is_err());
    }
}
