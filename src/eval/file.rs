//! The evaluator file: versioned, self-describing text with a checksum, written atomically,
//! with the same guarantees as the weights file (`policy::Gammas`).
//!
//! ```text
//! liuzi-eval 3                            <- 2 without the net, 1 without net and term
//! spec liuzi-eval1:v2:own_threats,...      <- the feature definitions it was trained on
//! source <one line: the data and command it came from>
//! phases <count>
//! phase <first stone> <end stone or inf>   <- one block per phase:
//! center <one value per feature>           <- standardisation
//! scale <...>
//! calibration <a> <b>                      <- logit P(win) = a·LLR + b
//! class win <prior> <training positions>
//! mean <...>
//! cov                                      <- then the covariance's lower triangle:
//! ...                                         row i holds its first i + 1 entries
//! class loss <prior> <training positions>
//! mean <...>
//! cov
//! ...
//! phase <first stone> <end stone or inf> logistic   <- a quadratic logistic phase instead:
//! center <one value per feature>
//! scale <...>
//! constant <k>                             <- logit P(win) = k + bᵀz + Σ_{j≤i} A_ij z_i z_j,
//! linear <b: one value per feature>           z = (x − center) / scale
//! pairs                                    <- then A's lower triangle: row i holds A_i0..A_ii
//! ...
//! patterns own-class-pattern4:v1 <ids>    <- versions 2 and 3: the pattern term, [`PATTERN_SPEC`]
//! table <phase index> <rows>               <- then one block per phase, in order: `rows` lines
//! <id> <own weight> <opp weight>              of the ids weighed, increasing; the rest weigh 0
//! ...
//! net own-class-pattern4:v1 <ids> <H>      <- version 3 only: the pattern net, H hidden units
//! embed <rows>                             <- then `rows` lines of the ids with a nonzero
//! <id> <H own values> <H opp values>          embedding, increasing; the rest are zero
//! ...
//! bias <H values>
//! head <phase index> <head bias> <H values>   <- one a phase, in order
//! checksum <CRC-32 of every byte before this line, 8 hex digits>
//! ```
//! A file is written in the lowest version that holds its content (1 without term and net, 2
//! with the term alone), so that files from before the term or the net keep their bytes and
//! load as they did. Weights are `f32` written by their shortest round-tripping decimal.
//! Lines starting with `#` before the checksum are comments. Header, spec line, comments and
//! checksum are the checked-file layout of [`crate::artifact`].

use super::evaluator::Evaluator;
use super::features::{spec_id, FEATURE_COUNT};
use super::logistic::{coefficient_count, LogisticPhase};
use super::pattern_net::PatternNet;
use super::pattern_term::{PatternTables, PATTERN_IDS, PATTERN_SPEC};
use super::phase::Phase;
use super::qda::{GaussianClass, PhaseModel};
use crate::artifact::{ErrorKind, FileError, Format, Payload};
use std::fmt::Write as _;
use std::path::Path;

/// The version written for an evaluator with the pattern net; [`PATTERNS_VERSION`] and
/// [`NO_PATTERNS_VERSION`] files load too.
pub const EVAL_FORMAT_VERSION: u32 = 3;
/// The version of files with the pattern term and no net, still read and written.
pub const PATTERNS_VERSION: u32 = 2;
/// The version of files without the pattern term or the net, still read and written.
pub const NO_PATTERNS_VERSION: u32 = 1;

/// The evaluator file's place among the checked artifact files.
const EVAL_FORMAT: Format = Format {
    noun: "evaluator file",
    magic: "liuzi-eval",
    version: EVAL_FORMAT_VERSION,
};
const PATTERNS_FORMAT: Format = Format {
    version: PATTERNS_VERSION,
    ..EVAL_FORMAT
};
const NO_PATTERNS_FORMAT: Format = Format {
    version: NO_PATTERNS_VERSION,
    ..EVAL_FORMAT
};

/// Why an evaluator file could not be used. Its `Display` names the file and the problem.
pub type EvalFileError = FileError;
pub type EvalFileErrorKind = ErrorKind;

/// `key v1 v2 ...` (or just the values when `key` is empty) and a newline.
fn push_values(text: &mut String, key: &str, values: &[f64]) {
    text.push_str(key);
    for (i, v) in values.iter().enumerate() {
        if i > 0 || !key.is_empty() {
            text.push(' ');
        }
        let _ = write!(text, "{v:e}");
    }
    text.push('\n');
}

impl Evaluator {
    /// The file's text, checksum included.
    pub fn to_text(&self) -> String {
        let mut text = format!("source {}\nphases {}\n", self.source(), self.phases().len());
        for phase in self.phases() {
            let end = phase
                .end_stone()
                .map_or_else(|| "inf".to_string(), |e| e.to_string());
            let first = phase.first_stone();
            match phase {
                Phase::Logistic(m) => {
                    let _ = writeln!(text, "phase {first} {end} logistic");
                    write_logistic(&mut text, m);
                }
                Phase::Discriminant(m) => {
                    let _ = writeln!(text, "phase {first} {end}");
                    write_discriminant(&mut text, m);
                }
            }
        }
        if let Some(patterns) = self.pattern_tables() {
            write_patterns(&mut text, patterns);
        }
        let format = match (self.pattern_tables(), self.pattern_net()) {
            (_, Some(net)) => {
                write_net(&mut text, net);
                EVAL_FORMAT
            }
            (Some(_), None) => PATTERNS_FORMAT,
            (None, None) => NO_PATTERNS_FORMAT,
        };
        format.compose(&spec_id(), &text)
    }

    /// Writes the file atomically: a temporary file in the same directory, then a rename.
    pub fn save(&self, path: &Path) -> Result<(), EvalFileError> {
        EVAL_FORMAT.save(path, &self.to_text())
    }

    /// Reads and checks an evaluator file.
    pub fn load(path: &Path) -> Result<Evaluator, EvalFileError> {
        EVAL_FORMAT.load(path, Evaluator::parse)
    }

    /// Parses the bytes of an evaluator file (version 3, 2 without the net, or 1 without the
    /// net and the pattern term).
    pub fn parse(bytes: &[u8]) -> Result<Evaluator, EvalFileErrorKind> {
        let check = |spec: &str| {
            if spec == spec_id() {
                Ok(())
            } else {
                Err(format!("`{spec}`, but this build computes `{}`", spec_id()))
            }
        };
        let mut wrong = None;
        for format in [EVAL_FORMAT, PATTERNS_FORMAT, NO_PATTERNS_FORMAT] {
            match format.open(bytes, check) {
                Ok(((), payload)) => {
                    return parse_body(&mut Reader::new(payload), format.version)
                        .map_err(ErrorKind::Corrupt)
                }
                Err(ErrorKind::WrongVersion(why)) => {
                    wrong.get_or_insert(why);
                }
                Err(e) => return Err(e),
            }
        }
        let why = wrong.unwrap_or_default();
        Err(ErrorKind::WrongVersion(format!(
            "{why}, {PATTERNS_VERSION} or {NO_PATTERNS_VERSION}"
        )))
    }
}

/// A discriminant phase's lines after its `phase` line.
fn write_discriminant(text: &mut String, phase: &PhaseModel) {
    push_values(text, "center", &phase.center);
    push_values(text, "scale", &phase.scale);
    push_values(text, "calibration", &phase.calibration);
    for (name, class) in [("win", &phase.win), ("loss", &phase.loss)] {
        let _ = writeln!(text, "class {name} {:e} {}", class.prior, class.samples);
        push_values(text, "mean", &class.mean);
        text.push_str("cov\n");
        for (i, row) in class.cov.chunks(class.dim()).enumerate() {
            push_values(text, "", &row[..=i]);
        }
    }
}

/// A logistic phase's lines after its `phase` line.
fn write_logistic(text: &mut String, phase: &LogisticPhase) {
    let n = phase.dim();
    push_values(text, "center", &phase.center);
    push_values(text, "scale", &phase.scale);
    push_values(text, "constant", &phase.theta[..1]);
    push_values(text, "linear", &phase.theta[1..=n]);
    text.push_str("pairs\n");
    let mut start = n + 1;
    for i in 0..n {
        push_values(text, "", &phase.theta[start..=start + i]);
        start += i + 1;
    }
}

/// The pattern section: its header, then each phase's weighed ids.
fn write_patterns(text: &mut String, patterns: &[PatternTables]) {
    let _ = writeln!(text, "patterns {PATTERN_SPEC} {PATTERN_IDS}");
    for (i, tables) in patterns.iter().enumerate() {
        let weighed: Vec<usize> = (0..PATTERN_IDS)
            .filter(|&id| tables.own[id] != 0.0 || tables.opp[id] != 0.0)
            .collect();
        let _ = writeln!(text, "table {i} {}", weighed.len());
        for id in weighed {
            let _ = writeln!(text, "{id} {:e} {:e}", tables.own[id], tables.opp[id]);
        }
    }
}

/// The net section: its header, the ids with a nonzero embedding, the bias, the heads.
fn write_net(text: &mut String, net: &PatternNet) {
    let h = net.hidden;
    let _ = writeln!(text, "net {PATTERN_SPEC} {PATTERN_IDS} {h}");
    let weighed: Vec<usize> = (0..PATTERN_IDS)
        .filter(|&id| {
            let nonzero = |row: &[f32]| row.iter().any(|&w| w != 0.0);
            nonzero(net.own_row(id)) || nonzero(net.opp_row(id))
        })
        .collect();
    let _ = writeln!(text, "embed {}", weighed.len());
    let push_f32 = |text: &mut String, values: &[f32]| {
        for v in values {
            let _ = write!(text, " {v:e}");
        }
    };
    for id in weighed {
        let _ = write!(text, "{id}");
        push_f32(text, net.own_row(id));
        push_f32(text, net.opp_row(id));
        text.push('\n');
    }
    text.push_str("bias");
    push_f32(text, &net.bias);
    text.push('\n');
    for (p, (head, bias)) in net.head.iter().zip(&net.head_bias).enumerate() {
        let _ = write!(text, "head {p} {bias:e}");
        push_f32(text, head);
        text.push('\n');
    }
}

/// `words` as `f32` weights, each finite.
fn parse_f32s(words: &[&str], at: &str) -> Result<Vec<f32>, String> {
    words
        .iter()
        .map(|w| match w.parse::<f32>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(format!("{at}: `{w}` is not a finite number")),
        })
        .collect()
}

/// The net section of a version-3 file, with one head a phase.
fn parse_net(r: &mut Reader, phases: usize) -> Result<PatternNet, String> {
    let words = r.words("net")?;
    let at = r.at();
    let hidden = match words[..] {
        [spec, ids, hidden] if spec == PATTERN_SPEC && ids == PATTERN_IDS.to_string() => hidden
            .parse::<usize>()
            .ok()
            .filter(|h| (1..=super::pattern_net::MAX_HIDDEN).contains(h))
            .ok_or_else(|| format!("{at}: bad hidden size `{hidden}`"))?,
        _ => {
            return Err(format!(
            "{at}: pattern net `{}`, but this build computes `{PATTERN_SPEC} {PATTERN_IDS} <H>`",
            words.join(" ")
        ))
        }
    };
    let mut net = PatternNet::zero(hidden, phases);
    let words = r.words("embed")?;
    let at = r.at();
    let rows: usize = match words[..] {
        [rows] => rows
            .parse()
            .ok()
            .filter(|&n| n < PATTERN_IDS)
            .ok_or_else(|| format!("{at}: bad row count `{rows}`"))?,
        _ => return Err(format!("{at}: expected `embed <rows>`")),
    };
    let mut last = 0;
    for _ in 0..rows {
        let words = r.words("")?;
        let at = r.at();
        if words.len() != 1 + 2 * hidden {
            return Err(format!(
                "{at}: expected `<id>` and {} weights, found {} words",
                2 * hidden,
                words.len()
            ));
        }
        let id: usize = words[0]
            .parse()
            .ok()
            .filter(|&id| id > last && id < PATTERN_IDS)
            .ok_or_else(|| {
                format!(
                    "{at}: pattern id `{}` is not above {last} and below {PATTERN_IDS}",
                    words[0]
                )
            })?;
        last = id;
        let weights = parse_f32s(&words[1..], &at)?;
        net.own_embed[id * hidden..(id + 1) * hidden].copy_from_slice(&weights[..hidden]);
        net.opp_embed[id * hidden..(id + 1) * hidden].copy_from_slice(&weights[hidden..]);
    }
    let words = r.words("bias")?;
    let at = r.at();
    if words.len() != hidden {
        return Err(format!(
            "{at}: bias has {} values, needs {hidden}",
            words.len()
        ));
    }
    net.bias = parse_f32s(&words, &at)?;
    for phase in 0..phases {
        let words = r.words("head")?;
        let at = r.at();
        if words.len() != 2 + hidden || words[0] != phase.to_string() {
            return Err(format!(
                "{at}: expected `head {phase} <bias> <{hidden} weights>`"
            ));
        }
        let values = parse_f32s(&words[1..], &at)?;
        net.head_bias[phase] = values[0];
        net.head[phase] = values[1..].to_vec();
    }
    net.validate()
        .map_err(|e| format!("{}: the pattern net: {e}", r.at()))?;
    Ok(net)
}

/// The pattern section of a version-2 or 3 file, one pair of tables a phase.
fn parse_patterns(r: &mut Reader, phases: usize) -> Result<Vec<PatternTables>, String> {
    let words = r.words("patterns")?;
    let at = r.at();
    match words[..] {
        [spec, ids] if spec == PATTERN_SPEC && ids == PATTERN_IDS.to_string() => {}
        _ => {
            return Err(format!(
                "{at}: pattern tables `{}`, but this build computes `{PATTERN_SPEC} {PATTERN_IDS}`",
                words.join(" ")
            ))
        }
    }
    let mut all = Vec::with_capacity(phases);
    for phase in 0..phases {
        let words = r.words("table")?;
        let at = r.at();
        let rows: usize = match words[..] {
            [index, rows] if index == phase.to_string() => rows
                .parse()
                .ok()
                .filter(|&n| n < PATTERN_IDS)
                .ok_or_else(|| format!("{at}: bad row count `{rows}`"))?,
            _ => return Err(format!("{at}: expected `table {phase} <rows>`")),
        };
        let mut tables = PatternTables::zero();
        let mut last = 0;
        for _ in 0..rows {
            let words = r.words("")?;
            let at = r.at();
            let [id, own, opp] = words[..] else {
                return Err(format!("{at}: expected `<id> <own weight> <opp weight>`"));
            };
            let id: usize = id
                .parse()
                .ok()
                .filter(|&id| id > last && id < PATTERN_IDS)
                .ok_or_else(|| {
                    format!("{at}: pattern id `{id}` is not above {last} and below {PATTERN_IDS}")
                })?;
            last = id;
            let weight = |w: &str| -> Result<f32, String> {
                w.parse()
                    .map_err(|_| format!("{at}: `{w}` is not a number"))
            };
            (tables.own[id], tables.opp[id]) = (weight(own)?, weight(opp)?);
        }
        tables
            .validate()
            .map_err(|e| format!("{at}: phase {phase}'s patterns: {e}"))?;
        all.push(tables);
    }
    Ok(all)
}

fn parse_body(r: &mut Reader, version: u32) -> Result<Evaluator, String> {
    let source = r.keyed("source")?.to_string();
    let count: usize = r.number_after("phases")?;
    if count == 0 || count > 1000 {
        return Err(format!("{}: {count} phases", r.at()));
    }
    let mut phases = Vec::with_capacity(count);
    for _ in 0..count {
        let words = r.words("phase")?;
        let (first, end, logistic) = match words[..] {
            [first, end] => (first, end, false),
            [first, end, "logistic"] => (first, end, true),
            _ => {
                return Err(format!(
                    "{}: expected `phase <first> <end|inf>` or `phase <first> <end|inf> logistic`",
                    r.at()
                ))
            }
        };
        let first_stone = first
            .parse()
            .map_err(|_| format!("{}: bad stone count `{first}`", r.at()))?;
        let end_stone = match end {
            "inf" => None,
            e => Some(
                e.parse()
                    .map_err(|_| format!("{}: bad stone count `{e}`", r.at()))?,
            ),
        };
        let center = r.vector("center", FEATURE_COUNT)?;
        let scale = r.vector("scale", FEATURE_COUNT)?;
        if logistic {
            let at = r.at();
            let mut theta = Vec::with_capacity(coefficient_count(FEATURE_COUNT));
            theta.extend(r.vector("constant", 1)?);
            theta.extend(r.vector("linear", FEATURE_COUNT)?);
            r.words("pairs")?;
            for i in 0..FEATURE_COUNT {
                theta.extend(r.vector("", i + 1)?);
            }
            let phase = LogisticPhase {
                first_stone,
                end_stone,
                center,
                scale,
                theta,
            };
            phase.validate().map_err(|e| format!("{at}: {e}"))?;
            phases.push(Phase::Logistic(phase));
            continue;
        }
        let calibration = r.vector("calibration", 2)?;
        let win = parse_class(r, "win")?;
        let loss = parse_class(r, "loss")?;
        phases.push(Phase::Discriminant(PhaseModel {
            first_stone,
            end_stone,
            center,
            scale,
            win,
            loss,
            calibration: [calibration[0], calibration[1]],
        }));
    }
    // Version 2 has the pattern term; version 3 the net, with or without the term.
    let with_patterns = match version {
        PATTERNS_VERSION => true,
        EVAL_FORMAT_VERSION => r.peek().is_some_and(|line| line.starts_with("patterns ")),
        _ => false,
    };
    let patterns = match with_patterns {
        true => Some(parse_patterns(r, phases.len())?),
        false => None,
    };
    let net = match version {
        EVAL_FORMAT_VERSION => Some(parse_net(r, phases.len())?),
        _ => None,
    };
    if let Some((n, line)) = r.next_line() {
        return Err(format!(
            "line {n}: unexpected `{line}` after the last section"
        ));
    }
    let evaluator = match patterns {
        Some(patterns) => Evaluator::with_patterns(phases, patterns, &source)?,
        None => Evaluator::new(phases, &source)?,
    };
    match net {
        Some(net) => evaluator.with_net(net),
        None => Ok(evaluator),
    }
}

fn parse_class(r: &mut Reader, name: &str) -> Result<GaussianClass, String> {
    let words = r.words("class")?;
    let at = r.at();
    let [got, prior, samples] = words[..] else {
        return Err(format!("{at}: expected `class {name} <prior> <positions>`"));
    };
    if got != name {
        return Err(format!("{at}: class `{got}` where `{name}` was expected"));
    }
    let prior = parse_number(prior, &at)?;
    let samples = samples
        .parse()
        .map_err(|_| format!("{at}: bad position count `{samples}`"))?;
    let mean = r.vector("mean", FEATURE_COUNT)?;
    r.words("cov")?;
    let n = FEATURE_COUNT;
    let mut cov = vec![0.0; n * n];
    for i in 0..n {
        for (j, v) in r.vector("", i + 1)?.into_iter().enumerate() {
            cov[i * n + j] = v;
            cov[j * n + i] = v;
        }
    }
    GaussianClass::new(prior, samples, mean, cov).map_err(|e| format!("{at}: class {name}: {e}"))
}

fn parse_number(word: &str, at: &str) -> Result<f64, String> {
    word.parse()
        .map_err(|_| format!("{at}: `{word}` is not a number"))
}

/// The payload's lines with their numbers in the file, comments skipped.
struct Reader<'a> {
    lines: Vec<(usize, &'a str)>,
    next: usize,
}

impl<'a> Reader<'a> {
    fn new(payload: Payload<'a>) -> Reader<'a> {
        Reader {
            lines: payload.lines().collect(),
            next: 0,
        }
    }

    /// The next line, left to be read.
    fn peek(&self) -> Option<&'a str> {
        self.lines.get(self.next).map(|&(_, line)| line)
    }

    fn next_line(&mut self) -> Option<(usize, &'a str)> {
        let line = self.lines.get(self.next).copied();
        self.next += 1;
        line
    }

    /// Where the reader stands, for messages.
    fn at(&self) -> String {
        match self.lines.get(self.next.saturating_sub(1)) {
            Some((n, _)) => format!("line {n}"),
            None => "at the end".to_string(),
        }
    }

    /// The rest of the next line after `key ` (a line that is exactly `key` gives "").
    fn keyed(&mut self, key: &str) -> Result<&'a str, String> {
        let (n, line) = self
            .next_line()
            .ok_or_else(|| format!("the file ends where `{key}` was expected"))?;
        if key.is_empty() {
            return Ok(line);
        }
        if line == key {
            return Ok("");
        }
        line.strip_prefix(key)
            .and_then(|rest| rest.strip_prefix(' '))
            .ok_or_else(|| format!("line {n}: expected `{key} ...`"))
    }

    fn words(&mut self, key: &str) -> Result<Vec<&'a str>, String> {
        Ok(self.keyed(key)?.split_whitespace().collect())
    }

    fn number_after<T: std::str::FromStr>(&mut self, key: &str) -> Result<T, String> {
        let rest = self.keyed(key)?;
        rest.trim()
            .parse()
            .map_err(|_| format!("{}: `{key} {rest}` needs a whole number", self.at()))
    }

    fn vector(&mut self, key: &str, len: usize) -> Result<Vec<f64>, String> {
        let words = self.words(key)?;
        let at = self.at();
        if words.len() != len {
            let what = if key.is_empty() { "matrix row" } else { key };
            return Err(format!(
                "{at}: {what} has {} values, needs {len}",
                words.len()
            ));
        }
        words.iter().map(|w| parse_number(w, &at)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Evaluator {
        crate::eval::testing::sample_evaluator()
    }

    #[test]
    fn text_round_trips_exactly() {
        let e = sample();
        let back = Evaluator::parse(e.to_text().as_bytes()).unwrap();
        assert_eq!(back, e);
        assert_eq!(back.source(), "test data");
        let x = [0.7; FEATURE_COUNT];
        assert_eq!(back.model_probability(&x, 25), e.model_probability(&x, 25));
        assert_ne!(
            back.model_probability(&x, 5),
            back.model_probability(&x, 25)
        );
    }

    /// The sample's early phase replaced by a logistic one.
    fn mixed() -> Evaluator {
        let mut phases = sample().phases().to_vec();
        let n = FEATURE_COUNT;
        phases[0] = Phase::Logistic(LogisticPhase {
            first_stone: 0,
            end_stone: Some(20),
            center: (0..n).map(|k| k as f64 * 0.25).collect(),
            scale: (0..n).map(|k| 1.0 + k as f64 / 7.0).collect(),
            theta: (0..coefficient_count(n))
                .map(|k| ((k * 37 % 101) as f64 - 50.0) / 3e3)
                .collect(),
        });
        Evaluator::new(phases, "mixed").unwrap()
    }

    #[test]
    fn a_logistic_phase_round_trips_exactly() {
        let e = mixed();
        let text = e.to_text();
        assert!(text.contains("phase 0 20 logistic\n"), "{text}");
        let back = Evaluator::parse(text.as_bytes()).unwrap();
        assert_eq!(back, e);
        let x = [0.7; FEATURE_COUNT];
        assert_eq!(back.model_probability(&x, 5), e.model_probability(&x, 5));
        let Phase::Logistic(m) = back.phase(5) else {
            panic!("phase 0 is logistic");
        };
        assert!((e.model_probability(&x, 5) - m.win_probability(&x)).abs() < 1e-12);
    }

    #[test]
    fn a_damaged_logistic_phase_is_refused_with_its_line() {
        let text = mixed().to_text();
        let body = &text[..text.rfind("checksum").unwrap()];
        let reseal = |b: &str| EVAL_FORMAT.compose(&spec_id(), &b[b.find("source").unwrap()..]);
        for (from, to, want) in [
            ("phase 0 20 logistic", "phase 0 20 logit", "expected `phase"),
            ("\npairs\n", "\npair\n", "expected `pairs"),
            ("\nlinear ", "\nlinear 1 ", "linear has"),
        ] {
            let damaged = reseal(&body.replacen(from, to, 1));
            let err = format!("{:?}", Evaluator::parse(damaged.as_bytes()).unwrap_err());
            assert!(err.contains(want), "{from} -> {to}: {err}");
        }
        let mut scale = body.to_string();
        let at = scale.find("\nscale ").unwrap() + 7;
        scale.insert(at, '-');
        let err = format!(
            "{:?}",
            Evaluator::parse(reseal(&scale).as_bytes()).unwrap_err()
        );
        assert!(err.contains("scale is not a positive"), "{err}");
    }

    /// The mixed evaluator with a pattern term: a few weighed ids a phase, both signs.
    fn with_patterns() -> Evaluator {
        let e = mixed();
        let tables = (0..e.phases().len())
            .map(|i| {
                let mut t = PatternTables::zero();
                for id in [1, 7 + i, 500, PATTERN_IDS - 1] {
                    t.own[id] = 0.01 * id as f32 / 3.0;
                }
                t.opp[7] = -0.123_456_79;
                t
            })
            .collect();
        Evaluator::with_patterns(e.phases().to_vec(), tables, "patterns").unwrap()
    }

    #[test]
    fn a_pattern_section_round_trips_exactly_and_only_it_makes_version_2() {
        let e = with_patterns();
        let text = e.to_text();
        assert!(text.starts_with("liuzi-eval 2\n"), "{text}");
        assert!(text.contains(&format!(
            "\npatterns {PATTERN_SPEC} {PATTERN_IDS}\ntable 0 4\n"
        )));
        let back = Evaluator::parse(text.as_bytes()).unwrap();
        assert_eq!(back, e);
        assert_eq!(back.to_text(), text);
        // Without the term: version 1, as files from before it.
        assert!(mixed().to_text().starts_with("liuzi-eval 1\n"));
        assert!(!mixed().to_text().contains("patterns"));
    }

    #[test]
    fn a_damaged_pattern_section_is_refused_with_its_line() {
        let text = with_patterns().to_text();
        let kind = |t: &str| match Evaluator::parse(t.as_bytes()) {
            Ok(_) => "loaded".to_string(),
            Err(e) => format!("{e:?}"),
        };
        // Cut inside the section: the checksum line is gone.
        let cut = &text[..text.find("table 1").unwrap()];
        assert!(kind(cut).starts_with("Truncated"), "{}", kind(cut));
        let cases: [(&str, Edit); 7] = [
            (
                "this build computes",
                Box::new(|b| b.replace(PATTERN_SPEC, "own-class-pattern4:v0")),
            ),
            // Phase 1 weighs ids 1, 8, 500 and the last for the side to move, 7 for the other.
            (
                "`table 1",
                Box::new(|b| b.replace("table 1 5", "table 2 5")),
            ),
            (
                "ends where",
                Box::new(|b| b.replace("table 1 5", "table 1 6")),
            ),
            ("not above", Box::new(|b| b.replacen("\n1 ", "\n0 ", 1))),
            ("not above", Box::new(|b| b.replacen("\n500 ", "\n3 ", 1))),
            ("not a number", Box::new(|b| b.replacen("\n1 ", "\n1 x", 1))),
            (
                "expected `<id>",
                Box::new(|b| b.replacen("\n1 ", "\n1 0 ", 1)),
            ),
        ];
        for (expected, edit) in cases {
            let err = kind(&resealed(&text, edit));
            assert!(
                err.starts_with("Corrupt") && err.contains(expected),
                "{expected}: {err}"
            );
        }
    }

    /// An evaluator with a net of H = 3 (a few rows, both signs, values that need all of an
    /// `f32`'s digits), with or without the pattern term.
    fn with_net(patterns: bool) -> Evaluator {
        let e = if patterns { with_patterns() } else { mixed() };
        let mut net = PatternNet::zero(3, e.phases().len());
        for (k, id) in [1, 9, 500, PATTERN_IDS - 1].into_iter().enumerate() {
            net.own_embed[3 * id + k % 3] = 0.1 / (k as f32 + 3.0);
            net.opp_embed[3 * id + 2] = -(k as f32) / 7.0;
        }
        net.bias = vec![0.5, -1.0 / 3.0, 0.0];
        net.head = vec![vec![1.0, -2.0 / 7.0, 1e-9], vec![0.0, 0.25, -3.5]];
        net.head_bias = vec![-0.125, 1.0 / 9.0];
        e.with_net(net).unwrap()
    }

    #[test]
    fn a_net_section_round_trips_exactly_and_only_it_makes_version_3() {
        for patterns in [false, true] {
            let e = with_net(patterns);
            let text = e.to_text();
            assert!(text.starts_with("liuzi-eval 3\n"), "{text}");
            assert!(text.contains(&format!("\nnet {PATTERN_SPEC} {PATTERN_IDS} 3\nembed 4\n")));
            assert_eq!(text.contains("\npatterns "), patterns);
            let back = Evaluator::parse(text.as_bytes()).unwrap();
            assert_eq!(back, e);
            assert_eq!(back.to_text(), text);
            assert_eq!(back.pattern_tables().is_some(), patterns);
        }
        // The term alone stays version 2.
        assert!(with_patterns().to_text().starts_with("liuzi-eval 2\n"));
    }

    #[test]
    fn a_damaged_net_section_is_refused_with_its_line() {
        let text = with_net(false).to_text();
        let kind = |t: &str| match Evaluator::parse(t.as_bytes()) {
            Ok(_) => "loaded".to_string(),
            Err(e) => format!("{e:?}"),
        };
        let cut = &text[..text.find("bias ").unwrap()];
        assert!(kind(cut).starts_with("Truncated"), "{}", kind(cut));
        let net_line = text.lines().position(|l| l.starts_with("net ")).unwrap() + 1;
        let cases: [(&str, Edit); 9] = [
            (
                "this build computes",
                Box::new(|b| b.replace(&format!("net {PATTERN_SPEC}"), "net own-class:v0")),
            ),
            (
                "bad hidden size",
                Box::new(|b| {
                    b.replace(&format!("{PATTERN_IDS} 3\n"), &format!("{PATTERN_IDS} 0\n"))
                }),
            ),
            (
                "expected `<id>` and 6 weights",
                Box::new(|b| b.replace("embed 4\n1 ", "embed 4\n1 0 ")),
            ),
            (
                "expected `bias",
                Box::new(|b| b.replace("embed 4", "embed 3")),
            ),
            (
                "ends where `head`",
                Box::new(|b| b[..b.rfind("head 1").unwrap()].to_string()),
            ),
            ("not above", Box::new(|b| b.replace("\n9 ", "\n1 "))),
            (
                "not a finite",
                Box::new(|b| b.replace("bias 5e-1", "bias inf")),
            ),
            ("bias has", Box::new(|b| b.replace("bias 5e-1 ", "bias "))),
            (
                "expected `head 1",
                Box::new(|b| b.replace("head 1 ", "head 2 ")),
            ),
        ];
        for (expected, edit) in cases {
            let err = kind(&resealed(&text, edit));
            assert!(
                err.starts_with("Corrupt") && err.contains(expected),
                "{expected}: {err}"
            );
            // Every message names a line of the section.
            let line: usize = err
                .split("line ")
                .nth(1)
                .and_then(|rest| rest.split(':').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or(usize::MAX);
            assert!(
                line >= net_line || expected.starts_with("ends where"),
                "{expected}: {err}"
            );
        }
    }

    #[test]
    fn save_and_load_round_trip_and_errors_name_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("model.eval");
        let e = sample();
        e.save(&path).unwrap();
        assert_eq!(Evaluator::load(&path).unwrap(), e);
        let err = Evaluator::load(&dir.path().join("none.eval")).unwrap_err();
        assert!(matches!(err.kind, EvalFileErrorKind::Missing));
        assert!(err.to_string().contains("none.eval"), "{err}");
        std::fs::write(&path, "garbage\n").unwrap();
        let err = Evaluator::load(&path).unwrap_err().to_string();
        assert!(
            err.contains("model.eval") && err.contains("corrupt"),
            "{err}"
        );
    }

    #[test]
    fn damaged_files_are_refused_with_the_reason() {
        let text = sample().to_text();
        let kind = |t: &str| format!("{:?}", Evaluator::parse(t.as_bytes()).unwrap_err());
        assert!(kind("").starts_with("Truncated"));
        assert!(kind(&text[..text.len() / 2]).starts_with("Truncated"));
        assert!(kind(&text[..text.len() - 3]).starts_with("Truncated"));
        assert!(kind("hello\n").starts_with("Corrupt"));
        let wrong = kind(&text.replace("liuzi-eval 1", "liuzi-eval 4"));
        assert!(
            wrong.starts_with("WrongVersion") && wrong.contains("3, 2 or 1"),
            "{wrong}"
        );
        assert!(kind(&text.replace("liuzi-eval1:v2:", "liuzi-eval1:v9:")).starts_with("WrongSpec"));
        assert!(kind(&text.replace("own_threats", "own_threat")).starts_with("WrongSpec"));
        // A changed digit breaks the checksum.
        let i = text.find("calibration 8e-1").unwrap();
        let altered = format!("{}calibration 9e-1{}", &text[..i], &text[i + 16..]);
        assert!(kind(&altered).starts_with("Corrupt"));
    }

    /// Rewrites the body and fixes the checksum, to reach the structural checks.
    fn resealed(text: &str, edit: impl Fn(&str) -> String) -> String {
        let body = &text[..text.rfind("checksum ").unwrap()];
        let body = edit(body);
        format!("{body}checksum {:08x}\n", crc32fast::hash(body.as_bytes()))
    }

    type Edit = Box<dyn Fn(&str) -> String>;

    #[test]
    fn structural_errors_are_corrupt_with_a_line_number() {
        let text = sample().to_text();
        let cases: [(&str, Edit); 5] = [
            (
                "ends where",
                Box::new(|b| b.replace("phases 2", "phases 3")),
            ),
            (
                "stone 30",
                Box::new(|b| b.replace("phase 20 inf", "phase 30 inf")),
            ),
            (
                "upper end",
                Box::new(|b| b.replace("phase 20 inf", "phase 20 99")),
            ),
            (
                "class",
                Box::new(|b| b.replacen("class loss", "class lost", 1)),
            ),
            (
                "not a number",
                Box::new(|b| b.replacen("scale ", "scale x", 1)),
            ),
        ];
        for (expected, edit) in cases {
            let err = format!(
                "{:?}",
                Evaluator::parse(resealed(&text, edit).as_bytes()).unwrap_err()
            );
            assert!(
                err.starts_with("Corrupt") && err.contains(expected),
                "{expected}: {err}"
            );
        }
        // A covariance that is not positive definite.
        let bad = resealed(&text, |b| {
            let i = b.find("cov\n").unwrap() + 4;
            let end = i + b[i..].find('\n').unwrap();
            format!("{}-1e0{}", &b[..i], &b[end..])
        });
        let err = format!("{:?}", Evaluator::parse(bad.as_bytes()).unwrap_err());
        assert!(err.contains("positive definite"), "{err}");
    }
}
