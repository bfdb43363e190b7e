//! The tuning spec: which engine settings are tuned, in what range, with what steps.
//!
//! ```toml
//! [spsa]
//! iterations = 2000        # planned iterations: the gains decay over them
//! alpha = 0.602            # a_k = a / (A + k + 1)^alpha (optional; these are the defaults)
//! gamma = 0.101            # c_k = c / (k + 1)^gamma
//! a_share = 0.1            # A = a_share * iterations
//!
//! [[param]]
//! key = "search.exploration"   # the engine configuration key, section.name
//! start = 0.4
//! min = 0.1
//! max = 1.0
//! c_end = 0.05                 # perturbation at the last iteration
//! r_end = 0.002                # learning rate at the last iteration: a_end = r_end * c_end^2
//! integer = false              # round when writing (counts, stone numbers)
//! ```
//!
//! Every key is checked against the engine's configuration when the spec is read: an unknown
//! key, or a range the engine would refuse, is an error naming the spec file and the key.

use liuzi::config::EngineConfig;
use serde::Deserialize;
use std::path::Path;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpec {
    spsa: RawSpsa,
    #[serde(rename = "param", default)]
    params: Vec<RawParam>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpsa {
    iterations: u32,
    alpha: Option<f64>,
    gamma: Option<f64>,
    a_share: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawParam {
    key: String,
    start: f64,
    min: f64,
    max: f64,
    c_end: f64,
    r_end: f64,
    #[serde(default)]
    integer: bool,
}

/// One tuned setting.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// `section.name` of the engine configuration.
    pub key: String,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    pub c_end: f64,
    pub r_end: f64,
    pub integer: bool,
}

impl Param {
    pub fn clamp(&self, value: f64) -> f64 {
        value.clamp(self.min, self.max)
    }

    /// The value as the engine reads it: rounded for integer settings.
    pub fn toml_value(&self, value: f64) -> toml::Value {
        if self.integer {
            toml::Value::Integer(self.clamp(value).round() as i64)
        } else {
            toml::Value::Float(self.clamp(value))
        }
    }
}

/// The whole spec.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneSpec {
    pub params: Vec<Param>,
    pub iterations: u32,
    pub alpha: f64,
    pub gamma: f64,
    pub a_share: f64,
}

impl TuneSpec {
    /// Reads and checks `path`.
    pub fn load(path: &Path) -> Result<TuneSpec, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
        TuneSpec::parse(&text, &path.display().to_string())
    }

    /// Parses and checks `text`; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<TuneSpec, String> {
        let raw: RawSpec =
            toml::from_str(text).map_err(|e| format!("{origin}: {}", e.to_string().trim_end()))?;
        let spsa = raw.spsa;
        let spec = TuneSpec {
            params: raw
                .params
                .into_iter()
                .map(|p| Param {
                    key: p.key,
                    start: p.start,
                    min: p.min,
                    max: p.max,
                    c_end: p.c_end,
                    r_end: p.r_end,
                    integer: p.integer,
                })
                .collect(),
            iterations: spsa.iterations,
            alpha: spsa.alpha.unwrap_or(0.602),
            gamma: spsa.gamma.unwrap_or(0.101),
            a_share: spsa.a_share.unwrap_or(0.1),
        };
        spec.check().map_err(|e| format!("{origin}: {e}"))?;
        Ok(spec)
    }

    fn check(&self) -> Result<(), String> {
        if self.iterations == 0 {
            return Err("spsa.iterations must be at least 1".into());
        }
        for (name, v, ok) in [
            ("alpha", self.alpha, self.alpha > 0.0 && self.alpha <= 1.0),
            ("gamma", self.gamma, self.gamma >= 0.0 && self.gamma <= 1.0),
            ("a_share", self.a_share, self.a_share >= 0.0),
        ] {
            if !v.is_finite() || !ok {
                return Err(format!("spsa.{name} = {v} is out of range"));
            }
        }
        if self.params.is_empty() {
            return Err("no [[param]] to tune".into());
        }
        let mut seen = std::collections::HashSet::new();
        for p in &self.params {
            let at = format!("param `{}`", p.key);
            if !seen.insert(p.key.as_str()) {
                return Err(format!("{at} is given twice"));
            }
            let parts: Vec<&str> = p.key.split('.').collect();
            if parts.len() != 2 || parts.iter().any(|part| part.is_empty()) {
                return Err(format!(
                    "{at}: a key is `section.name`, e.g. `search.exploration`"
                ));
            }
            let numbers = [p.start, p.min, p.max, p.c_end, p.r_end];
            if numbers.iter().any(|v| !v.is_finite()) {
                return Err(format!("{at}: every number must be finite"));
            }
            if p.min >= p.max {
                return Err(format!("{at}: min {} must be below max {}", p.min, p.max));
            }
            if !(p.min..=p.max).contains(&p.start) {
                return Err(format!(
                    "{at}: start {} is outside [{}, {}]",
                    p.start, p.min, p.max
                ));
            }
            if p.c_end <= 0.0 || p.r_end <= 0.0 {
                return Err(format!("{at}: c_end and r_end must be positive"));
            }
            if p.integer && p.c_end < 0.5 {
                // c_k never falls below c_end; below ½ both sides would round to one value.
                return Err(format!(
                    "{at}: an integer setting needs c_end of at least 0.5"
                ));
            }
        }
        // The engine must accept every key at both ends of its range.
        for ends in [
            self.params.iter().map(|p| p.min).collect::<Vec<_>>(),
            self.params.iter().map(|p| p.max).collect(),
        ] {
            let text = self.overrides(&ends);
            EngineConfig::from_toml(&text, "the tuned settings", Path::new("."))
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// The start values.
    pub fn start(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.start).collect()
    }

    /// An engine configuration file (TOML) that sets every tuned key to `values`, clamped to
    /// its range and rounded for integer settings; the engine's defaults give the rest.
    pub fn overrides(&self, values: &[f64]) -> String {
        let mut root = toml::Table::new();
        for (p, &v) in self.params.iter().zip(values) {
            // Keys are `section.name` (checked when the spec is read), so every entry at the
            // top is a section's table.
            let (section, name) = p.key.split_once('.').unwrap_or(("", &p.key));
            if let Some(table) = root
                .entry(section)
                .or_insert_with(|| toml::Value::Table(toml::Table::new()))
                .as_table_mut()
            {
                table.insert(name.to_string(), p.toml_value(v));
            }
        }
        toml::to_string(&root).expect("a table of numbers serializes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: &str = include_str!("../../tests/data/tune-spec.toml");

    #[test]
    fn a_spec_reads_and_writes_overrides_the_engine_accepts() {
        let spec = TuneSpec::parse(SPEC, "spec.toml").unwrap();
        assert_eq!(spec.params.len(), 2);
        assert_eq!(spec.alpha, 0.602);
        let text = spec.overrides(&[0.45, 50.6]);
        let config = EngineConfig::from_toml(&text, "o", Path::new(".")).unwrap();
        assert_eq!(config.search.exploration, 0.45);
        assert_eq!(config.search.max_children, 51);
        // Out of range values are clamped.
        let text = spec.overrides(&[5.0, 1.0]);
        let config = EngineConfig::from_toml(&text, "o", Path::new(".")).unwrap();
        assert_eq!(config.search.exploration, 1.0);
        assert_eq!(config.search.max_children, 8);
    }

    #[test]
    fn bad_specs_are_errors_naming_the_file_and_the_key() {
        let bad = |from: &str, to: &str| {
            let text = SPEC.replacen(from, to, 1);
            TuneSpec::parse(&text, "spec.toml").unwrap_err()
        };
        let e = bad("search.exploration", "search.explortion");
        assert!(
            e.starts_with("spec.toml") && e.contains("explortion"),
            "{e}"
        );
        let e = bad("start = 0.4", "start = 1.5");
        assert!(e.contains("param `search.exploration`: start 1.5"), "{e}");
        let e = bad("min = 0.1", "min = 2.0");
        assert!(e.contains("min 2 must be below max 1"), "{e}");
        let e = bad("c_end = 0.05", "c_end = 0");
        assert!(e.contains("c_end and r_end must be positive"), "{e}");
        let e = bad("c_end = 4", "c_end = 0.3");
        assert!(
            e.contains("param `search.max_children`: an integer setting"),
            "{e}"
        );
        let e = bad("key = \"search.exploration\"", "key = \"exploration\"");
        assert!(
            e.contains("param `exploration`: a key is `section.name`"),
            "{e}"
        );
        let e = bad("iterations = 100", "iterations = 0");
        assert!(e.contains("spsa.iterations"), "{e}");
        let e = bad(
            "key = \"search.max_children\"",
            "key = \"search.exploration\"",
        );
        assert!(e.contains("given twice"), "{e}");
        // A range the engine refuses (a negative exploration).
        let e = bad("min = 0.1", "min = -1.0");
        assert!(e.contains("exploration"), "{e}");
        let e = bad("r_end = 0.002\n", "r_end = 0.002\nstep = 3\n");
        assert!(e.contains("step"), "{e}");
    }
}
