//! The CCGC competition record (Chinese computer-game championships):
//! `{[C6][black B][white W][先手胜][2017.07.29 14:00 重庆][2017 CCGC];B(J,10);W(I,11);W(I,12)...}`.
//!
//! Header fields: game (`C6`), Black team (with ` B`), White team (with ` W`), result
//! (`先手胜` Black wins, `后手胜` White wins, `平局` draw), `date time place`, event. Each stone is
//! its own item `B(col,row)`: column A..S with I, row 1..19 from the bottom; an item may carry a
//! `MARK[n]` evaluation, which is ignored. Files are GB2312/GBK/GB18030 or UTF-8.

use super::error::line_of;
use super::{GameRecord, RecordError, RecordResult};
use crate::notation;
use crate::rules::{Board, Color};

const BLACK_WINS: &str = "先手胜";
const WHITE_WINS: &str = "后手胜";
const DRAW: &str = "平局";

/// The text of a record file: UTF-8 (a BOM is dropped) or else GB18030 (a superset of GB2312/GBK).
pub fn decode(bytes: &[u8]) -> Result<String, RecordError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Ok(text.to_string());
    }
    let (text, had_errors) = encoding_rs::GB18030.decode_without_bom_handling(bytes);
    if had_errors {
        return Err(RecordError::new("the text is neither UTF-8 nor GB18030"));
    }
    Ok(text.into_owned())
}

/// How to store a CCGC record on disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CcgcEncoding {
    Utf8,
    /// What the competitions use (GB18030 includes GB2312 and GBK).
    Gb18030,
}

pub fn encode(text: &str, encoding: CcgcEncoding) -> Vec<u8> {
    match encoding {
        CcgcEncoding::Utf8 => text.as_bytes().to_vec(),
        CcgcEncoding::Gb18030 => encoding_rs::GB18030.encode(text).0.into_owned(),
    }
}

/// Reads every `{...}` record of a text.
pub fn read_str(text: &str) -> Result<Vec<GameRecord>, RecordError> {
    let mut games = Vec::new();
    let mut pos = 0;
    while let Some(open) = text[pos..].find('{') {
        let start = pos + open;
        let end = text[start..].find('}').map(|e| start + e).ok_or_else(|| {
            RecordError::new("a record `{` is never closed").at_line(line_of(text, start))
        })?;
        games.push(parse_record(text, start + 1, end)?);
        pos = end + 1;
    }
    if games.is_empty() {
        return Err(RecordError::new("no CCGC record `{[C6]...}` in the text"));
    }
    Ok(games)
}

/// Parses one record body, `text[start..end]`, the part between `{` and `}`.
fn parse_record(text: &str, start: usize, end: usize) -> Result<GameRecord, RecordError> {
    let at =
        |offset: usize, problem: String| RecordError::new(problem).at_line(line_of(text, offset));
    let body = &text[start..end];
    // Header: six bracketed fields, then the `;`-separated stones.
    let mut fields = Vec::new();
    let mut rest = body;
    while let Some(inner) = rest.trim_start().strip_prefix('[') {
        let close = inner
            .find(']')
            .ok_or_else(|| at(start, "a header field `[` is never closed".to_string()))?;
        fields.push(inner[..close].trim());
        rest = &inner[close + 1..];
    }
    let header_end = body.len() - rest.len();
    if !rest.trim().is_empty() && !rest.trim_start().starts_with(';') {
        return Err(at(
            start,
            format!("expected `;` after the header, found `{}`", rest.trim()),
        ));
    }
    if fields.len() != 6 {
        return Err(at(
            start,
            format!("the header has {} fields, expected 6 `[C6][black][white][result][date place][event]`", fields.len()),
        ));
    }
    if !fields[0].eq_ignore_ascii_case("C6") {
        return Err(at(start, format!("game `{}` is not C6", fields[0])));
    }
    let mut record = GameRecord::new(19);
    record.black = team(fields[1], " B");
    record.white = team(fields[2], " W");
    record.result = match fields[3] {
        BLACK_WINS | "黑胜" => RecordResult::BlackWins,
        WHITE_WINS | "白胜" => RecordResult::WhiteWins,
        DRAW | "和棋" => RecordResult::Draw,
        _ => RecordResult::Unknown,
    };
    (record.date, record.place) = split_date_place(fields[4]);
    record.event = non_empty(fields[5]);

    let mut stone_offsets = Vec::new();
    let mut offset = start + header_end;
    for item in body[header_end..].split(';') {
        let item_start = offset;
        offset += item.len() + 1;
        let trimmed = item.trim();
        if trimmed.is_empty() {
            continue;
        }
        let n = record.stones.len();
        let bad = |what: &str| at(item_start, format!("stone {} `{trimmed}`: {what}", n + 1));
        let color = match trimmed.chars().next() {
            Some('B' | 'b') => Color::Black,
            Some('W' | 'w') => Color::White,
            _ => return Err(bad("expected B(col,row) or W(col,row)")),
        };
        let inner = trimmed[1..]
            .trim_start()
            .strip_prefix('(')
            .and_then(|s| s.split_once(')'))
            .ok_or_else(|| bad("expected B(col,row) or W(col,row)"))?;
        let tail = inner.1.trim();
        if !(tail.is_empty() || tail.starts_with("MARK[") && tail.ends_with(']')) {
            return Err(bad("unexpected text after the point"));
        }
        let p = notation::parse_ccgc(inner.0, record.size)
            .ok_or_else(|| bad("not a point of the 19x19 board"))?;
        if color != Board::color_of_stone(n) {
            return Err(bad(&format!(
                "should be {} in Connect6 order (B, WW, BB, ...)",
                Board::color_of_stone(n)
            )));
        }
        record.stones.push(p);
        stone_offsets.push(item_start);
    }
    let (board, _) = record
        .replay_dropping_moot_stone()
        .map_err(|e| at(stone_offsets[e.index], e.problem))?;
    record.check_result(&board).map_err(|e| at(start, e))?;
    Ok(record)
}

fn non_empty(text: &str) -> Option<String> {
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

fn team(field: &str, suffix: &str) -> Option<String> {
    non_empty(field.strip_suffix(suffix).unwrap_or(field))
}

/// `2017.07.29 14:00 重庆` → date `2017.07.29 14:00`, place `重庆`: the leading words that
/// start with a digit are the date and time, the rest is the place.
fn split_date_place(field: &str) -> (Option<String>, Option<String>) {
    let words: Vec<&str> = field.split_whitespace().collect();
    let date_words = words
        .iter()
        .take_while(|w| w.starts_with(|c: char| c.is_ascii_digit()))
        .count();
    let join = |ws: &[&str]| non_empty(&ws.join(" "));
    (join(&words[..date_words]), join(&words[date_words..]))
}

/// CCGC has no escapes: a header field cannot hold `]`, and the record cannot hold `}`.
/// Brackets and braces in names are written as parentheses.
fn field(text: &str) -> String {
    text.replace(['[', '{'], "(").replace([']', '}'], ")")
}

/// Writes one record (no newline at the end).
pub fn format(record: &GameRecord) -> String {
    let result = match record.result {
        RecordResult::BlackWins => BLACK_WINS,
        RecordResult::WhiteWins => WHITE_WINS,
        RecordResult::Draw => DRAW,
        RecordResult::Unknown => "",
    };
    let with_suffix = |name: &Option<String>, suffix: &str| match name {
        Some(n) => format!("{}{suffix}", field(n)),
        None => String::new(),
    };
    let date_place = [&record.date, &record.place]
        .iter()
        .filter_map(|f| f.as_deref())
        .collect::<Vec<_>>()
        .join(" ");
    let date_place = field(&date_place);
    let mut out = format!(
        "{{[C6][{}][{}][{result}][{date_place}][{}]",
        with_suffix(&record.black, " B"),
        with_suffix(&record.white, " W"),
        field(record.event.as_deref().unwrap_or(""))
    );
    for (color, p) in record.colored_stones() {
        out.push(';');
        out.push(color.letter());
        out.push('(');
        out.push_str(&notation::format_ccgc(p));
        out.push(')');
    }
    out.push('}');
    out
}
