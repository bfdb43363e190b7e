//! Settings at run time: `liuzi-set-param KEY VALUE` and `liuzi-get-param [KEY]` (also under
//! KataGo's names `kata-set-param` / `kata-get-param`) for the `[search]`, `[time]` and
//! `[alphabeta]` keys of the configuration file, and GoGui's parameter dialogs
//! (`liuzi-param SECTION`, analyze type `param`). Names, values, ranges and errors are the
//! file's (`EngineConfig::with_setting`). A change holds for the rest of the session, new games
//! included, until the next change; a search change starts a fresh search (its tree is dropped).

use super::Gtp;
use crate::config::{SettingKind, RUNTIME_SECTIONS};
use crate::engine::build_generator;
use std::fmt::Write as _;

/// GoGui's parameter dialogs, one per section, as `gogui-analyze_commands` lines.
pub const PARAM_COMMANDS: &[&str] = &[
    "param/Search settings/liuzi-param search",
    "param/Time settings/liuzi-param time",
    "param/Alpha-beta settings/liuzi-param alphabeta",
];

impl Gtp {
    /// Sets `key` to `value` (TOML text, as in the file) and applies it: the clock for `time.`
    /// keys, a new search for the others. On error nothing changes.
    pub(super) fn set_param(&mut self, key: &str, value: &str) -> Result<(), String> {
        let config = self.config.with_setting(key, value)?;
        if key.starts_with("time.") {
            let clock = self.engine.clock_mut();
            clock.default_stone_time = Some(config.stone_time());
            clock.policy = config.time_policy();
        } else {
            let generator = build_generator(&config)?;
            self.engine.set_generator(generator);
        }
        self.ponder_bounded = config.search.playouts > 0;
        tracing::info!(%key, %value, "setting changed");
        self.config = config;
        Ok(())
    }

    /// The value of `key`, or every run-time setting as `key value` lines.
    pub(super) fn get_param(&mut self, key: Option<&str>) -> Result<(), String> {
        match key {
            Some(key) => {
                let setting = self.config.setting(key)?;
                self.reply.push_str(&setting.value);
            }
            None => {
                for (i, s) in self.config.settings(None)?.iter().enumerate() {
                    if i > 0 {
                        self.reply.push('\n');
                    }
                    let _ = write!(self.reply, "{} {}", s.key, s.value);
                }
            }
        }
        Ok(())
    }

    /// GoGui's `param` protocol for one section: without a key, `[type] key value` lines; with
    /// one, sets it (`[bool]` values come as 1 / 0).
    pub(super) fn gogui_param(&mut self, section: &str, rest: &[&str]) -> Result<(), String> {
        if !RUNTIME_SECTIONS.contains(&section) {
            return Err(format!(
                "unknown section `{section}` (run-time sections: {})",
                RUNTIME_SECTIONS.join(", ")
            ));
        }
        let Some((name, value)) = rest.split_first() else {
            for (i, s) in self.config.settings(Some(section))?.iter().enumerate() {
                if i > 0 {
                    self.reply.push('\n');
                }
                let short = s.key.split_once('.').map_or(s.key.as_str(), |(_, k)| k);
                let _ = match s.kind {
                    SettingKind::Bool => {
                        let on = if s.value == "true" { 1 } else { 0 };
                        write!(self.reply, "[bool] {short} {on}")
                    }
                    _ => write!(self.reply, "[string] {short} {}", s.value),
                };
            }
            return Ok(());
        };
        let key = format!("{section}.{name}");
        if value.is_empty() {
            return Err(format!("syntax error: missing the value of {name}"));
        }
        let value = value.join(" ");
        let value = match (self.config.setting(&key)?.kind, value.as_str()) {
            (SettingKind::Bool, "1") => "true".to_string(),
            (SettingKind::Bool, "0") => "false".to_string(),
            _ => value,
        };
        self.set_param(&key, &value)
    }
}
