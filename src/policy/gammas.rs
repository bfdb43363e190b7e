//! The weights file: one gamma per feature value, versioned and self-describing.
//!
//! Text format (UTF-8, `\n` line ends):
//! ```text
//! liuzi-weights 1
//! spec liuzi-bt1:own4.1=3060,opp4.1=2380,...
//! source <one line: the data and command the gammas came from>
//! group own4 3060
//! <gammas, whitespace-separated, any number per line>
//! group opp4 2380
//! ...
//! checksum <CRC-32 of every byte before this line, 8 hex digits>
//! ```
//! Lines starting with `#` before the checksum are comments. Groups appear in spec order.
//! Header, spec line, comments and checksum are the checked-file layout of [`crate::artifact`].

use super::spec::{FeatureSpec, Group};
use crate::artifact::{ErrorKind, FileError, Format};
use std::path::Path;

pub const FORMAT_VERSION: u32 = 1;

/// The weights file's place among the checked artifact files.
const WEIGHTS_FORMAT: Format = Format {
    noun: "weights file",
    magic: "liuzi-weights",
    version: FORMAT_VERSION,
};

/// Why a weights file could not be used. Its `Display` names the file and the problem.
pub type WeightsError = FileError;
pub type WeightsErrorKind = ErrorKind;

/// The trained gammas of every group of a [`FeatureSpec`].
#[derive(Clone, Debug, PartialEq)]
pub struct Gammas {
    spec: FeatureSpec,
    /// Per group of [`Group::ALL`]: its gammas, or empty when the spec lacks the group.
    tables: [Vec<f64>; Group::ALL.len()],
    source: String,
}

impl Gammas {
    /// Gammas for `spec`, one vector per group in spec order. Each must have the group's size and
    /// hold finite positive values.
    pub fn new(spec: FeatureSpec, values: Vec<Vec<f64>>, source: &str) -> Result<Gammas, String> {
        if values.len() != spec.groups().len() {
            return Err(format!(
                "{} groups of gammas for a spec of {}",
                values.len(),
                spec.groups().len()
            ));
        }
        let mut tables: [Vec<f64>; Group::ALL.len()] = Default::default();
        for (&group, v) in spec.groups().iter().zip(values) {
            if v.len() != group.size() {
                return Err(format!(
                    "group {} has {} gammas, needs {}",
                    group.name(),
                    v.len(),
                    group.size()
                ));
            }
            if let Some(bad) = v.iter().position(|&x| !(x.is_finite() && x > 0.0)) {
                return Err(format!(
                    "group {} value {bad} is {} (gammas must be finite and > 0)",
                    group.name(),
                    v[bad]
                ));
            }
            tables[group.index()] = v;
        }
        Ok(Gammas {
            spec,
            tables,
            source: source.replace(['\n', '\r'], " "),
        })
    }

    /// Every gamma 1 for the full spec: all legal stones equally likely (tests, ablation baseline).
    pub fn uniform() -> Gammas {
        Gammas::uniform_for(FeatureSpec::full())
    }

    pub fn uniform_for(spec: FeatureSpec) -> Gammas {
        let values = spec.groups().iter().map(|g| vec![1.0; g.size()]).collect();
        Gammas::new(spec, values, "uniform").expect("uniform gammas are valid")
    }

    pub fn spec(&self) -> &FeatureSpec {
        &self.spec
    }

    /// Where the gammas came from (data and command), as written by the trainer.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Gamma of `value` of `group`; 1 for a group the spec lacks.
    #[inline]
    pub fn gamma(&self, group: Group, value: u16) -> f64 {
        match self.tables[group.index()].get(value as usize) {
            Some(&g) => g,
            None => 1.0,
        }
    }

    /// The gammas of `group` (empty if the spec lacks it).
    pub fn group(&self, group: Group) -> &[f64] {
        &self.tables[group.index()]
    }

    /// The file's text, checksum included.
    pub fn to_text(&self) -> String {
        let mut payload = format!("source {}\n", self.source);
        for &group in self.spec.groups() {
            payload.push_str(&format!("group {} {}\n", group.name(), group.size()));
            for chunk in self.group(group).chunks(8) {
                let line: Vec<String> = chunk.iter().map(|g| format!("{g:e}")).collect();
                payload.push_str(&line.join(" "));
                payload.push('\n');
            }
        }
        WEIGHTS_FORMAT.compose(&self.spec.id(), &payload)
    }

    /// Writes the file atomically: a temporary file in the same directory, then a rename.
    pub fn save(&self, path: &Path) -> Result<(), WeightsError> {
        WEIGHTS_FORMAT.save(path, &self.to_text())
    }

    /// Reads and checks a weights file.
    pub fn load(path: &Path) -> Result<Gammas, WeightsError> {
        WEIGHTS_FORMAT.load(path, Gammas::parse)
    }

    /// Parses the bytes of a weights file.
    pub fn parse(bytes: &[u8]) -> Result<Gammas, WeightsErrorKind> {
        use ErrorKind::Corrupt;
        let (spec, payload) = WEIGHTS_FORMAT.open(bytes, |spec_id| {
            FeatureSpec::from_id(spec_id).map_err(|why| {
                format!(
                    "`{spec_id}`: {why} (this build computes e.g. `{}`)",
                    FeatureSpec::full().id()
                )
            })
        })?;

        let mut source = String::new();
        let mut values: Vec<Vec<f64>> = Vec::new();
        let mut groups = spec.groups().iter();
        for (line_no, line) in payload.lines() {
            if let Some(s) = line.strip_prefix("source ") {
                source = s.to_string();
            } else if let Some(rest) = line.strip_prefix("group ") {
                let expected = groups
                    .next()
                    .ok_or_else(|| Corrupt(format!("line {line_no}: more groups than the spec")))?;
                let wanted = format!("{} {}", expected.name(), expected.size());
                if rest.trim() != wanted {
                    return Err(Corrupt(format!(
                        "line {line_no}: `group {rest}` where the spec says `group {wanted}`"
                    )));
                }
                values.push(Vec::with_capacity(expected.size()));
            } else {
                let current = values
                    .last_mut()
                    .ok_or_else(|| Corrupt(format!("line {line_no}: values before any group")))?;
                for word in line.split_whitespace() {
                    let g: f64 = word.parse().map_err(|_| {
                        Corrupt(format!("line {line_no}: `{word}` is not a number"))
                    })?;
                    current.push(g);
                }
            }
        }
        if values.len() != spec.groups().len() {
            return Err(Corrupt(format!(
                "{} of the spec's {} groups present",
                values.len(),
                spec.groups().len()
            )));
        }
        Gammas::new(spec, values, &source).map_err(Corrupt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Gammas {
        let spec = FeatureSpec::new(&[Group::Edge, Group::Tactic]).unwrap();
        Gammas::new(
            spec,
            vec![vec![0.5, 1.0, 2.0, 3.0, 1e-7], vec![1.0, 40.0, 1234.5678]],
            "test data",
        )
        .unwrap()
    }

    #[test]
    fn text_round_trips_exactly() {
        let g = sample();
        let back = Gammas::parse(g.to_text().as_bytes()).unwrap();
        assert_eq!(back, g);
        assert_eq!(back.gamma(Group::Tactic, 2), 1234.5678);
        assert_eq!(back.gamma(Group::Own4, 17), 1.0);
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let text = sample().to_text();
        let kind = |t: &str| format!("{:?}", Gammas::parse(t.as_bytes()).unwrap_err());
        assert!(kind(&text[..text.len() / 2]).starts_with("Truncated"));
        assert!(kind(&text[..text.len() - 3]).starts_with("Truncated"));
        assert!(kind(&text.replace("1.2345678e3", "1.2345679e3")).starts_with("Corrupt"));
        assert!(
            kind(&text.replace("liuzi-weights 1", "liuzi-weights 2")).starts_with("WrongVersion")
        );
        assert!(kind(&text.replace("edge.1=5", "edge.9=5")).starts_with("WrongSpec"));
        assert!(kind("hello\n").starts_with("Corrupt"));
        assert!(kind("").starts_with("Truncated"));
    }
}
