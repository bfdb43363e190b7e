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
//!
//! Version 2 adds a second section after the playout groups, the tree-prior model
//! ([`TreeModel`]): feature groups and raw line patterns the playouts do not use.
//! ```text
//! liuzi-weights 2
//! spec <playout spec id>
//! source ...
//! group ... (the playout gammas, as in version 1)
//! tree liuzi-bt1:own4.1=3060,...,cross.1=210 + lines.1=6x4
//! group own4 3060
//! <gammas>
//! ...
//! line 0 1458
//! <gammas of direction 0's pattern codes>
//! ... (lines 1, 2, 3)
//! checksum ...
//! ```
//! A version-1 file (one section) still loads: its tree prior is then the playout gammas. A file
//! without a tree section is written as version 1.

use super::gammas::{Gammas, TreeModel, LINES_VERSION, TREE_LINE_LENGTHS};
use super::lines::line_values;
use super::spec::FeatureSpec;
use crate::artifact::{ErrorKind, FileError, Format};
use std::path::Path;

/// The version written for a file with a tree section; [`ONE_SECTION_VERSION`] files load too.
pub const FORMAT_VERSION: u32 = 2;
/// The version of one-section files (no tree prior), still read and written.
pub const ONE_SECTION_VERSION: u32 = 1;

/// The weights file's place among the checked artifact files.
const WEIGHTS_FORMAT: Format = Format {
    noun: "weights file",
    magic: "liuzi-weights",
    version: FORMAT_VERSION,
};
const ONE_SECTION_FORMAT: Format = Format {
    version: ONE_SECTION_VERSION,
    ..WEIGHTS_FORMAT
};

/// Why a weights file could not be used. Its `Display` names the file and the problem.
pub type WeightsError = FileError;
pub type WeightsErrorKind = ErrorKind;

impl Gammas {
    /// The file's text, checksum included: version 2 with a tree section, else version 1.
    pub fn to_text(&self) -> String {
        let mut payload = format!("source {}\n", self.source());
        push_groups(&mut payload, self);
        let Some(tree) = self.tree() else {
            return ONE_SECTION_FORMAT.compose(&self.spec().id(), &payload);
        };
        payload.push_str(&format!("tree {}\n", tree.id()));
        push_groups(&mut payload, tree.groups());
        for dir in 0..4 {
            payload.push_str(&format!("line {dir} {}\n", tree.line(dir).len()));
            push_values(&mut payload, tree.line(dir));
        }
        WEIGHTS_FORMAT.compose(&self.spec().id(), &payload)
    }

    /// Writes the file atomically: a temporary file in the same directory, then a rename.
    pub fn save(&self, path: &Path) -> Result<(), WeightsError> {
        WEIGHTS_FORMAT.save(path, &self.to_text())
    }

    /// Reads and checks a weights file.
    pub fn load(path: &Path) -> Result<Gammas, WeightsError> {
        WEIGHTS_FORMAT.load(path, Gammas::parse)
    }

    /// Parses the bytes of a weights file (version 2, or version 1 without a tree section).
    pub fn parse(bytes: &[u8]) -> Result<Gammas, WeightsErrorKind> {
        let check = |spec_id: &str| {
            FeatureSpec::from_id(spec_id).map_err(|why| {
                format!(
                    "`{spec_id}`: {why} (this build computes e.g. `{}`)",
                    FeatureSpec::full().id()
                )
            })
        };
        let (spec, payload, two_sections) = match WEIGHTS_FORMAT.open(bytes, check) {
            Ok((spec, payload)) => (spec, payload, true),
            Err(ErrorKind::WrongVersion(why)) => match ONE_SECTION_FORMAT.open(bytes, check) {
                Ok((spec, payload)) => (spec, payload, false),
                Err(ErrorKind::WrongVersion(_)) => {
                    return Err(ErrorKind::WrongVersion(format!(
                        "{why} or {ONE_SECTION_VERSION}"
                    )))
                }
                Err(e) => return Err(e),
            },
            Err(e) => return Err(e),
        };
        Sections::new(spec, two_sections).read(payload.lines())
    }
}

fn push_values(payload: &mut String, values: &[f64]) {
    for chunk in values.chunks(8) {
        let line: Vec<String> = chunk.iter().map(|g| format!("{g:e}")).collect();
        payload.push_str(&line.join(" "));
        payload.push('\n');
    }
}

fn push_groups(payload: &mut String, gammas: &Gammas) {
    for &group in gammas.spec().groups() {
        payload.push_str(&format!("group {} {}\n", group.name(), group.size()));
        push_values(payload, gammas.group(group));
    }
}

/// The tree section's header: `<spec id> + lines.<version>=<length>x4`.
fn parse_tree_header(rest: &str) -> Result<(FeatureSpec, usize), String> {
    let (spec_id, lines) = rest.split_once(" + ").ok_or_else(|| {
        format!("`tree {rest}`: expected `tree <spec id> + lines.{LINES_VERSION}=<length>x4`")
    })?;
    let spec =
        FeatureSpec::from_id(spec_id).map_err(|why| format!("tree spec `{spec_id}`: {why}"))?;
    let length = lines
        .strip_prefix(&format!("lines.{LINES_VERSION}="))
        .and_then(|l| l.strip_suffix("x4"))
        .and_then(|l| l.parse::<usize>().ok())
        .filter(|l| TREE_LINE_LENGTHS.contains(l))
        .ok_or_else(|| {
            format!(
                "tree lines `{lines}`: this build reads `lines.{LINES_VERSION}=<length>x4`, length {}..={}",
                TREE_LINE_LENGTHS.start(),
                TREE_LINE_LENGTHS.end()
            )
        })?;
    Ok((spec, length))
}

/// A tree section being read.
struct TreeSection {
    spec: FeatureSpec,
    length: usize,
    groups: Vec<Vec<f64>>,
    lines: Vec<Vec<f64>>,
}

/// The payload reader: the playout section, then (version 2) the tree section.
struct Sections {
    spec: FeatureSpec,
    two_sections: bool,
    source: String,
    playout: Vec<Vec<f64>>,
    /// The tree section once its header is read.
    tree: Option<TreeSection>,
    /// Where numbers go: the last `group` or `line` block opened.
    in_lines: bool,
}

impl Sections {
    fn new(spec: FeatureSpec, two_sections: bool) -> Sections {
        Sections {
            spec,
            two_sections,
            source: String::new(),
            playout: Vec::new(),
            tree: None,
            in_lines: false,
        }
    }

    fn read<'a>(
        mut self,
        lines: impl Iterator<Item = (usize, &'a str)>,
    ) -> Result<Gammas, WeightsErrorKind> {
        use ErrorKind::{Corrupt, WrongSpec};
        for (line_no, line) in lines {
            let at = |m: String| Corrupt(format!("line {line_no}: {m}"));
            if let Some(s) = line.strip_prefix("source ") {
                self.source = s.to_string();
            } else if let Some(rest) = line.strip_prefix("tree ") {
                if !self.two_sections {
                    return Err(at(format!(
                        "a tree section in a version-{ONE_SECTION_VERSION} file"
                    )));
                }
                if self.tree.is_some() {
                    return Err(at("a second tree section".into()));
                }
                Sections::complete(&self.playout, &self.spec, "playout", line_no)?;
                let (spec, length) = parse_tree_header(rest.trim())
                    .map_err(|m| WrongSpec(format!("line {line_no}: {m}")))?;
                self.tree = Some(TreeSection {
                    spec,
                    length,
                    groups: Vec::new(),
                    lines: Vec::new(),
                });
                self.in_lines = false;
            } else if let Some(rest) = line.strip_prefix("group ") {
                let (spec, values) = match &mut self.tree {
                    Some(t) if t.lines.is_empty() => (&t.spec, &mut t.groups),
                    Some(_) => return Err(at("a group after the tree's lines".into())),
                    None => (&self.spec, &mut self.playout),
                };
                let expected = spec
                    .groups()
                    .get(values.len())
                    .ok_or_else(|| at("more groups than the spec".into()))?;
                let wanted = format!("{} {}", expected.name(), expected.size());
                if rest.trim() != wanted {
                    return Err(at(format!(
                        "`group {rest}` where the spec says `group {wanted}`"
                    )));
                }
                values.push(Vec::with_capacity(expected.size()));
                self.in_lines = false;
            } else if let Some(rest) = line.strip_prefix("line ") {
                let Some(t) = &mut self.tree else {
                    return Err(at("`line` outside a tree section".into()));
                };
                if t.groups.len() != t.spec.groups().len() {
                    return Err(at(format!(
                        "`line` after {} of the tree spec's {} groups",
                        t.groups.len(),
                        t.spec.groups().len()
                    )));
                }
                let wanted = format!("{} {}", t.lines.len(), line_values(t.length));
                if t.lines.len() == 4 || rest.trim() != wanted {
                    return Err(at(format!("`line {rest}` where `line {wanted}` was due")));
                }
                t.lines.push(Vec::with_capacity(line_values(t.length)));
                self.in_lines = true;
            } else {
                let current = match &mut self.tree {
                    Some(t) if self.in_lines => t.lines.last_mut(),
                    Some(t) => t.groups.last_mut(),
                    None => self.playout.last_mut(),
                }
                .ok_or_else(|| at("values before any group".into()))?;
                for word in line.split_whitespace() {
                    let g: f64 = word
                        .parse()
                        .map_err(|_| at(format!("`{word}` is not a number")))?;
                    current.push(g);
                }
            }
        }
        let Sections {
            spec,
            two_sections,
            source,
            playout,
            tree,
            ..
        } = self;
        let end = usize::MAX;
        Sections::complete(&playout, &spec, "playout", end)?;
        let gammas = Gammas::new(spec, playout, &source).map_err(Corrupt)?;
        match tree {
            None if two_sections => Err(Corrupt(format!(
                "a version-{FORMAT_VERSION} file without its tree section"
            ))),
            None => Ok(gammas),
            Some(TreeSection {
                spec: tspec,
                length,
                groups,
                lines,
            }) => {
                Sections::complete(&groups, &tspec, "tree", end)?;
                if lines.len() != 4 {
                    return Err(Corrupt(format!(
                        "{} of the tree's 4 line sections present",
                        lines.len()
                    )));
                }
                let tg = Gammas::new(tspec, groups, &source)
                    .map_err(|m| Corrupt(format!("tree: {m}")))?;
                let tree =
                    TreeModel::new(tg, length, lines).map_err(|m| Corrupt(format!("tree: {m}")))?;
                Ok(gammas.with_tree(tree))
            }
        }
    }

    fn complete(
        values: &[Vec<f64>],
        spec: &FeatureSpec,
        what: &str,
        line_no: usize,
    ) -> Result<(), WeightsErrorKind> {
        if values.len() == spec.groups().len() {
            return Ok(());
        }
        let place = if line_no == usize::MAX {
            String::new()
        } else {
            format!("line {line_no}: ")
        };
        Err(ErrorKind::Corrupt(format!(
            "{place}{} of the {what} spec's {} groups present",
            values.len(),
            spec.groups().len()
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Group;

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
            kind(&text.replace("liuzi-weights 1", "liuzi-weights 3")).starts_with("WrongVersion")
        );
        assert!(kind(&text.replace("edge.1=5", "edge.9=5")).starts_with("WrongSpec"));
        assert!(kind("hello\n").starts_with("Corrupt"));
        assert!(kind("").starts_with("Truncated"));
    }

    fn two_sections() -> Gammas {
        let tree_spec = FeatureSpec::new(&[Group::Edge, Group::Tactic, Group::Cross]).unwrap();
        let groups: Vec<Vec<f64>> = tree_spec
            .groups()
            .iter()
            .map(|g| (0..g.size()).map(|i| 0.5 + i as f64 / 7.0).collect())
            .collect();
        let lines = (0..4)
            .map(|d| {
                (0..line_values(3))
                    .map(|i| 1.0 + (i * (d + 1)) as f64 / 9.0)
                    .collect()
            })
            .collect();
        let tree = TreeModel::new(Gammas::new(tree_spec, groups, "t").unwrap(), 3, lines).unwrap();
        sample().with_tree(tree)
    }

    #[test]
    fn two_sections_round_trip_and_one_section_files_still_load() {
        let g = two_sections();
        let text = g.to_text();
        assert!(text.starts_with("liuzi-weights 2\n"));
        let back = Gammas::parse(text.as_bytes()).unwrap();
        assert_eq!(back, g);
        assert_eq!(back.tree().unwrap().line_length(), 3);
        assert_eq!(back.tree().unwrap().line(2), g.tree().unwrap().line(2));
        // Without a tree the file is version 1, and reads back without one.
        let one = sample().to_text();
        assert!(one.starts_with("liuzi-weights 1\n"));
        assert!(Gammas::parse(one.as_bytes()).unwrap().tree().is_none());
    }

    #[test]
    fn bad_tree_sections_are_refused_naming_the_line() {
        let text = two_sections().to_text();
        // Re-checksummed, so that the payload's own checks answer.
        let resum = |t: &str| {
            let body = &t[..t.rfind("checksum ").unwrap()];
            format!("{body}checksum {:08x}\n", crc32fast::hash(body.as_bytes()))
        };
        let kind = |t: &str| format!("{:?}", Gammas::parse(resum(t).as_bytes()).unwrap_err());
        let why = kind(&text.replace("lines.1=3x4", "lines.1=9x4"));
        assert!(
            why.starts_with("WrongSpec") && why.contains("tree lines"),
            "{why}"
        );
        let why = kind(&text.replace("cross.1=210 +", "crosz.1=210 +"));
        assert!(
            why.starts_with("WrongSpec") && why.contains("tree spec"),
            "{why}"
        );
        let why = kind(&text.replace("line 3 54", "line 2 54"));
        assert!(
            why.starts_with("Corrupt") && why.contains("line 2 54"),
            "{why}"
        );
        let cut = &text[..text.find("line 3 54").unwrap()];
        let why = kind(&format!("{cut}checksum 0\n"));
        assert!(why.contains("3 of the tree's 4 line sections"), "{why}");
        let why = kind(&text.replace("liuzi-weights 2", "liuzi-weights 1"));
        assert!(why.contains("a tree section in a version-1 file"), "{why}");
        let no_tree = &text[..text.find("tree ").unwrap()];
        let why = kind(&format!("{no_tree}checksum 0\n"));
        assert!(why.contains("without its tree section"), "{why}");
        let why = kind(&text.replace("liuzi-weights 2", "liuzi-weights 3"));
        assert!(
            why.starts_with("WrongVersion") && why.contains("2 or 1"),
            "{why}"
        );
    }
}
