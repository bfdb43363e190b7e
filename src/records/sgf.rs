//! SGF records of Connect6 games.
//!
//! Reading: any FF and any GM (none, 1, 511, ...), `SZ[n]` (default 19), `PB`/`PW`, `RE`, `DT`,
//! `EV`, `PC`; one stone per node as every tool writes (`;B[jj];W[ki];W[ik]`), but nodes holding
//! two stones (`;W[ki][ik]` or `;W[ki]W[ik]`) are accepted too; points in either case; the main
//! line of variations is followed; a file may hold several games. The stone colours must follow
//! Connect6 order (B, WW, BB, ...). Setup stones (AB/AW) and passes have no place in Connect6 and
//! are refused.
//!
//! Writing: `(;FF[4]CA[UTF-8]AP[Liuzi:x]SZ[n]...RE[B+];B[jj];W[ki];...)`, GM[511] on request.

use super::error::line_of;
use super::{GameRecord, RecordError, RecordResult};
use crate::notation;
use crate::rules::{Board, Color, MAX_SIZE};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SgfOptions {
    /// Write `GM[511]` (NCTU's Connect6 game number). Off by default: GoGui expects no GM.
    pub write_gm511: bool,
}

struct Property {
    ident: String,
    values: Vec<String>,
    /// Line of the property's first value.
    line: usize,
}

type Node = Vec<Property>;

/// A small SGF tokenizer/parser: game trees of nodes of properties, main line only.
struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn error(&self, problem: impl Into<String>) -> RecordError {
        RecordError::new(problem).at_line(line_of(self.text, self.pos))
    }

    fn skip_space(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_space();
        self.text[self.pos..].chars().next()
    }

    fn expect(&mut self, c: char) -> Result<(), RecordError> {
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(format!("expected `{c}`")))
        }
    }

    /// `( sequence subtrees* )` → the nodes of its main line.
    fn game_tree(&mut self, depth: usize) -> Result<Vec<Node>, RecordError> {
        if depth > 1000 {
            return Err(self.error("variations nested too deeply"));
        }
        self.expect('(')?;
        let mut nodes = Vec::new();
        while self.peek() == Some(';') {
            self.pos += 1;
            nodes.push(self.node()?);
        }
        if nodes.is_empty() {
            return Err(self.error("a game tree needs at least one node `;`"));
        }
        let mut first_variation = true;
        while self.peek() == Some('(') {
            let variation = self.game_tree(depth + 1)?;
            if first_variation {
                nodes.extend(variation);
                first_variation = false;
            }
        }
        self.expect(')')?;
        Ok(nodes)
    }

    fn node(&mut self) -> Result<Node, RecordError> {
        let mut props = Vec::new();
        while let Some(c) = self.peek() {
            if !c.is_ascii_alphabetic() {
                break;
            }
            // FF[3] allowed lower-case letters inside identifiers (`GaMe`); only capitals count.
            let start = self.pos;
            while self.text[self.pos..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic())
            {
                self.pos += 1;
            }
            let ident: String = self.text[start..self.pos]
                .chars()
                .filter(|c| c.is_ascii_uppercase())
                .collect();
            let line = line_of(self.text, self.pos);
            let mut values = Vec::new();
            while self.peek() == Some('[') {
                values.push(self.value()?);
            }
            if values.is_empty() {
                return Err(self.error(format!("property `{ident}` has no value")));
            }
            props.push(Property {
                ident,
                values,
                line,
            });
        }
        Ok(props)
    }

    /// `[ text ]` with `\` escapes; returns the unescaped text.
    fn value(&mut self) -> Result<String, RecordError> {
        let start_line = line_of(self.text, self.pos);
        self.pos += 1; // '['
        let mut out = String::new();
        let mut chars = self.text[self.pos..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                ']' => {
                    self.pos += i + 1;
                    return Ok(out);
                }
                '\\' => match chars.next() {
                    Some((_, '\n')) => {} // soft line break
                    Some((_, '\r')) => {}
                    Some((_, escaped)) => out.push(escaped),
                    None => break,
                },
                _ => out.push(c),
            }
        }
        Err(RecordError::new("a property value `[` is never closed").at_line(start_line))
    }
}

/// Reads every game of an SGF text.
pub fn read_str(text: &str) -> Result<Vec<GameRecord>, RecordError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut parser = Parser { text, pos: 0 };
    let mut games = Vec::new();
    while let Some(c) = parser.peek() {
        if c != '(' {
            return Err(parser.error(format!("unexpected `{c}` outside a game tree")));
        }
        let nodes = parser.game_tree(0)?;
        games.push(interpret(&nodes)?);
    }
    if games.is_empty() {
        return Err(RecordError::new("no game in the SGF file"));
    }
    Ok(games)
}

fn parse_size(prop: &Property) -> Result<usize, RecordError> {
    let text = prop.values[0].trim();
    let (a, b) = text.split_once(':').unwrap_or((text, text));
    match (a.trim().parse::<usize>(), b.trim().parse::<usize>()) {
        (Ok(w), Ok(h)) if w == h => Ok(w),
        _ => Err(
            RecordError::new(format!("SZ[{text}] is not a square board size")).at_line(prop.line),
        ),
    }
}

fn parse_result(text: &str) -> RecordResult {
    let text = text.trim();
    let upper = text.to_ascii_uppercase();
    if upper.starts_with("B+") || upper == "B" {
        RecordResult::BlackWins
    } else if upper.starts_with("W+") || upper == "W" {
        RecordResult::WhiteWins
    } else if upper == "0" || upper == "DRAW" || upper == "D" || upper == "JIGO" {
        RecordResult::Draw
    } else {
        RecordResult::Unknown
    }
}

fn text_field(prop: &Property) -> Option<String> {
    let text = prop.values.join(", ");
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// Turns the main line's nodes into a checked record.
fn interpret(nodes: &[Node]) -> Result<GameRecord, RecordError> {
    let mut record = GameRecord::new(19);
    if let Some(prop) = nodes[0].iter().find(|p| p.ident == "SZ") {
        record.size = parse_size(prop)?;
        if Board::new(record.size).is_none() {
            return Err(RecordError::new(format!(
                "board size {} is not supported (6..={MAX_SIZE})",
                record.size
            ))
            .at_line(prop.line));
        }
    }
    let mut stone_lines = Vec::new();
    for node in nodes {
        for prop in node {
            match prop.ident.as_str() {
                "PB" => record.black = text_field(prop),
                "PW" => record.white = text_field(prop),
                "DT" => record.date = text_field(prop),
                "EV" => record.event = text_field(prop),
                "PC" => record.place = text_field(prop),
                "RE" => record.result = parse_result(&prop.values[0]),
                "AB" | "AW" | "AE" => {
                    return Err(RecordError::new(format!(
                        "setup property {} cannot be replayed as Connect6 stones",
                        prop.ident
                    ))
                    .at_line(prop.line))
                }
                "B" | "W" => {
                    let color = if prop.ident == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    for value in &prop.values {
                        let n = record.stones.len();
                        let err = |what: String| {
                            Err(RecordError::new(format!("stone {}: {what}", n + 1))
                                .at_line(prop.line))
                        };
                        let Some(p) = notation::parse_sgf(value.trim(), record.size) else {
                            return err(format!(
                                "{}[{value}] is a pass or not a point of the {1}x{1} board",
                                prop.ident, record.size
                            ));
                        };
                        let expected = Board::color_of_stone(n);
                        if color != expected {
                            return err(format!(
                                "{}[{value}] should be {expected} in Connect6 order (B, WW, BB, ...)",
                                prop.ident
                            ));
                        }
                        record.stones.push(p);
                        stone_lines.push(prop.line);
                    }
                }
                _ => {}
            }
        }
    }
    let (board, _) = record
        .replay_dropping_moot_stone()
        .map_err(|e| RecordError::new(e.problem).at_line(stone_lines[e.index]))?;
    let result_line = nodes[0]
        .iter()
        .find(|p| p.ident == "RE")
        .map_or(1, |p| p.line);
    record
        .check_result(&board)
        .map_err(|e| RecordError::new(e).at_line(result_line))?;
    Ok(record)
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// Writes one game as an SGF game tree (no newline at the end).
pub fn format(record: &GameRecord, options: SgfOptions) -> String {
    let mut out = String::from("(;FF[4]");
    if options.write_gm511 {
        out.push_str("GM[511]");
    }
    out.push_str(&format!(
        "CA[UTF-8]AP[Liuzi:{}]SZ[{}]",
        env!("CARGO_PKG_VERSION"),
        record.size
    ));
    let fields = [
        ("PB", &record.black),
        ("PW", &record.white),
        ("DT", &record.date),
        ("EV", &record.event),
        ("PC", &record.place),
    ];
    for (ident, value) in fields {
        if let Some(value) = value {
            out.push_str(&format!("{ident}[{}]", escape(value)));
        }
    }
    match record.result {
        RecordResult::BlackWins => out.push_str("RE[B+]"),
        RecordResult::WhiteWins => out.push_str("RE[W+]"),
        RecordResult::Draw => out.push_str("RE[0]"),
        RecordResult::Unknown => {}
    }
    for (color, p) in record.colored_stones() {
        out.push(';');
        out.push(color.letter());
        out.push('[');
        out.push_str(&notation::format_sgf(p, record.size));
        out.push(']');
    }
    out.push(')');
    out
}
