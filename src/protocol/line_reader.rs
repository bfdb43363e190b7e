//! Reads protocol input line by line without trusting it: a line longer than
//! [`MAX_LINE_BYTES`] is skipped (never stored whole) and bytes that are not UTF-8 are reported,
//! so the front-ends can answer with an error instead of dying or growing without bound.

use std::io::{self, BufRead, BufReader, Read};

/// Longest accepted line in bytes, newline excluded. GTP and the Connect6 protocols need far
/// less (the SAU platform allows 256 bytes); a longer line is an error.
pub const MAX_LINE_BYTES: usize = 4096;

/// How much of a refused line is kept, enough to find a GTP id.
const PREFIX_BYTES: usize = 64;

#[derive(Debug, PartialEq, Eq)]
pub enum InputLine<'a> {
    /// A complete line without its `\n` (a `\r` before it is kept; the front-ends drop it).
    Text(&'a str),
    /// The line is not valid UTF-8; `prefix` is its start, decoded lossily.
    NotUtf8 { prefix: String },
    /// The line is longer than [`MAX_LINE_BYTES`]; `prefix` is its start, decoded lossily.
    TooLong { prefix: String },
}

pub struct LineReader<R> {
    inner: BufReader<R>,
    line: Vec<u8>,
}

impl<R: Read> LineReader<R> {
    pub fn new(input: R) -> LineReader<R> {
        LineReader {
            inner: BufReader::with_capacity(64 * 1024, input),
            line: Vec::with_capacity(256),
        }
    }

    /// Whether more input is already buffered: when not, the caller should flush its replies
    /// before the next read may block.
    pub fn has_buffered_input(&self) -> bool {
        !self.inner.buffer().is_empty()
    }

    /// The next line, or `None` at the end of the input. A last line without `\n` counts.
    pub fn next_line(&mut self) -> io::Result<Option<InputLine<'_>>> {
        self.line.clear();
        let mut too_long = false;
        let mut saw_any = false;
        loop {
            let available = match self.inner.fill_buf() {
                Ok(bytes) => bytes,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                if !saw_any {
                    return Ok(None);
                }
                break;
            }
            saw_any = true;
            let newline = available.iter().position(|&b| b == b'\n');
            let chunk = &available[..newline.unwrap_or(available.len())];
            let room = if too_long {
                PREFIX_BYTES
            } else {
                MAX_LINE_BYTES + 1
            };
            let take = chunk.len().min(room.saturating_sub(self.line.len()));
            self.line.extend_from_slice(&chunk[..take]);
            if self.line.len() > MAX_LINE_BYTES && !too_long {
                too_long = true;
                self.line.truncate(PREFIX_BYTES);
            }
            let used = newline.map_or(available.len(), |n| n + 1);
            self.inner.consume(used);
            if newline.is_some() {
                break;
            }
        }
        if too_long {
            let prefix = String::from_utf8_lossy(&self.line).into_owned();
            return Ok(Some(InputLine::TooLong { prefix }));
        }
        match std::str::from_utf8(&self.line) {
            Ok(_) => Ok(Some(InputLine::Text(
                std::str::from_utf8(&self.line).expect("checked just above"),
            ))),
            Err(_) => {
                let end = self.line.len().min(PREFIX_BYTES);
                let prefix = String::from_utf8_lossy(&self.line[..end]).into_owned();
                Ok(Some(InputLine::NotUtf8 { prefix }))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<String> {
        let mut reader = LineReader::new(input);
        let mut out = Vec::new();
        while let Some(line) = reader.next_line().unwrap() {
            out.push(match line {
                InputLine::Text(t) => format!("text:{t}"),
                InputLine::NotUtf8 { prefix } => format!("utf8:{prefix}"),
                InputLine::TooLong { prefix } => format!("long:{}", prefix.len()),
            });
        }
        out
    }

    #[test]
    fn splits_lines_and_keeps_a_last_line_without_newline() {
        assert_eq!(
            lines(b"a\nb\r\n\nc"),
            ["text:a", "text:b\r", "text:", "text:c"]
        );
        assert!(lines(b"").is_empty());
    }

    #[test]
    fn refuses_bad_bytes_and_long_lines_but_reads_on() {
        let mut input = b"1 play \xff\xfe\n".to_vec();
        input.extend(vec![b'x'; MAX_LINE_BYTES + 10]);
        input.extend(b"\nok\n");
        input.extend(vec![b'y'; MAX_LINE_BYTES]);
        assert_eq!(
            lines(&input),
            [
                "utf8:1 play \u{fffd}\u{fffd}".to_string(),
                format!("long:{PREFIX_BYTES}"),
                "text:ok".to_string(),
                format!("text:{}", "y".repeat(MAX_LINE_BYTES)),
            ]
        );
    }
}
