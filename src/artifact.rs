//! Checked artifact files: the versioned, self-describing text files the engine loads (the
//! Bradley-Terry weights, the learned evaluator), with a checksum, written atomically.
//!
//! Every kind shares one layout; a [`Format`] names the kind's magic word, version and noun,
//! and the kind owns its spec id and its payload lines:
//! ```text
//! <magic> <version>
//! spec <id of the features the payload was computed for>
//! <payload: the kind's own lines; lines starting with `#` are comments>
//! checksum <CRC-32 of every byte before this line, 8 hex digits>
//! ```
//! Writing: [`Format::compose`] then [`Format::save`]. Reading: [`Format::load`] with a parser
//! that calls [`Format::open`] to check everything but the payload. Errors name the file and
//! the problem ([`FileError`]). Depends on nothing but std and `tracing`, so every layer may
//! use it.
//!
//! Every file the engine reads goes through [`read_limited`]: only regular files (a FIFO
//! would block for ever, `/dev/zero` would fill the memory), and no more than a size cap.
//! The shipped artifacts are embedded in the binary: a path in [`BUILT_IN_DIR`] (what the
//! configuration gives when no shipped file is on disk) reads the embedded copy.

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The directory name standing for the copies of `engine-config/` built into the binary.
pub const BUILT_IN_DIR: &str = "<built-in>";

/// The default configuration file, as shipped in `engine-config/default.toml`: the one place
/// every setting's default is written.
pub const BUILTIN_TOML: &str = include_str!("../engine-config/default.toml");

/// The shipped artifacts, as built into the binary.
const EMBEDDED: &[(&str, &[u8])] = &[
    (
        "default.weights",
        include_bytes!("../engine-config/default.weights"),
    ),
    (
        "default.eval",
        include_bytes!("../engine-config/default.eval"),
    ),
    (
        "default.book",
        include_bytes!("../engine-config/default.book"),
    ),
];

/// Largest artifact file read (the shipped ones are ~100 KB).
pub const MAX_ARTIFACT_BYTES: u64 = 64 << 20;

/// The embedded copy that `path` stands for, when it is in [`BUILT_IN_DIR`].
pub fn embedded(path: &Path) -> Option<&'static [u8]> {
    if path.parent()? != Path::new(BUILT_IN_DIR) {
        return None;
    }
    shipped(path.file_name()?.to_str()?)
}

/// The embedded copy of the shipped file `name` (`default.weights`, `default.eval`,
/// `default.book`): each is built into the binary once, here.
pub fn shipped(name: &str) -> Option<&'static [u8]> {
    EMBEDDED.iter().find(|(n, _)| *n == name).map(|(_, b)| *b)
}

/// Reads a whole file that must be a regular file of at most `max_bytes`; the checks come
/// before it is opened for reading, so a FIFO or a device is refused, never read.
pub fn read_limited(path: &Path, max_bytes: u64) -> io::Result<Vec<u8>> {
    use std::io::Read;
    let metadata = std::fs::metadata(path)?;
    if !metadata.is_file() {
        let what = if metadata.is_dir() {
            "a directory"
        } else {
            "not a regular file (a device, FIFO or socket)"
        };
        return Err(io::Error::new(io::ErrorKind::InvalidInput, what));
    }
    let too_big = || {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("larger than {} bytes", max_bytes),
        )
    };
    if metadata.len() > max_bytes {
        return Err(too_big());
    }
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    std::fs::File::open(path)?
        .take(max_bytes + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_big());
    }
    Ok(bytes)
}

/// What tells one kind of checked file from another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    /// What the file is called in messages, e.g. "weights file".
    pub noun: &'static str,
    /// The first word of the file, e.g. "liuzi-weights".
    pub magic: &'static str,
    /// The format version this build reads and writes.
    pub version: u32,
}

/// Why a checked file could not be used. Its `Display` names the file and the problem.
#[derive(Debug)]
pub struct FileError {
    pub path: PathBuf,
    /// What the file is called in messages ([`Format::noun`]).
    pub noun: &'static str,
    pub kind: ErrorKind,
}

/// The problem, without the file: what a parser of bytes returns.
#[derive(Debug)]
pub enum ErrorKind {
    Missing,
    Io(io::Error),
    /// The file ends early: a prefix of a good file, or one without its checksum line.
    Truncated(String),
    /// The bytes are not what the kind writes: wrong magic, checksum mismatch, bad payload.
    Corrupt(String),
    WrongVersion(String),
    /// The file was computed for other features than this build computes.
    WrongSpec(String),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (noun, path) = (self.noun, self.path.display());
        match &self.kind {
            ErrorKind::Missing => write!(f, "{noun} {path}: missing (no such file)"),
            ErrorKind::Io(e) => write!(f, "{noun} {path}: cannot read or write: {e}"),
            ErrorKind::Truncated(m) => write!(f, "{noun} {path}: truncated: {m}"),
            ErrorKind::Corrupt(m) => write!(f, "{noun} {path}: corrupt: {m}"),
            ErrorKind::WrongVersion(m) => write!(f, "{noun} {path}: wrong format version: {m}"),
            ErrorKind::WrongSpec(m) => write!(f, "{noun} {path}: wrong feature-spec id: {m}"),
        }
    }
}

impl std::error::Error for FileError {}

/// The kind's own lines of a checked file, between the spec line and the checksum line.
#[derive(Clone, Copy, Debug)]
pub struct Payload<'a> {
    text: &'a str,
    /// The file's line number of the payload's first line.
    first_line: usize,
}

impl<'a> Payload<'a> {
    /// The payload's lines with their line numbers in the file (from 1), comments skipped.
    pub fn lines(&self) -> impl Iterator<Item = (usize, &'a str)> + 'a {
        let first = self.first_line;
        self.text
            .lines()
            .enumerate()
            .map(move |(i, line)| (first + i, line))
            .filter(|(_, line)| !line.starts_with('#'))
    }
}

const SPEC_KEY: &str = "spec ";
const CHECKSUM_KEY: &str = "checksum ";

impl Format {
    /// The whole file: header, spec line, `payload` (whole lines, each ending in `\n`) and the
    /// checksum line.
    pub fn compose(&self, spec_id: &str, payload: &str) -> String {
        let mut text = format!(
            "{} {}\n{SPEC_KEY}{spec_id}\n{payload}",
            self.magic, self.version
        );
        let crc = crc32fast::hash(text.as_bytes());
        text.push_str(&format!("{CHECKSUM_KEY}{crc:08x}\n"));
        text
    }

    /// Writes `text` (from [`Format::compose`]) atomically: see [`write_atomically`].
    pub fn save(&self, path: &Path, text: &str) -> Result<(), FileError> {
        write_atomically(path, |file| file.write_all(text.as_bytes()))
            .map_err(|e| self.error(path, ErrorKind::Io(e)))
    }

    /// Reads the file at `path` and hands its bytes to `parse` (which starts with
    /// [`Format::open`]); a missing or unreadable file is an error naming it. A path in
    /// [`BUILT_IN_DIR`] reads the embedded copy (saying so once in the log).
    pub fn load<T>(
        &self,
        path: &Path,
        parse: impl FnOnce(&[u8]) -> Result<T, ErrorKind>,
    ) -> Result<T, FileError> {
        if let Some(bytes) = embedded(path) {
            // One line per run says so, whichever file is read first.
            static SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
            if !SAID.swap(true, std::sync::atomic::Ordering::Relaxed) {
                tracing::warn!(
                    "no engine-config/ found beside the program or in the working directory: \
                     using the configuration, weights and evaluator built into the binary"
                );
            }
            tracing::debug!("{} {}: the built-in copy", self.noun, path.display());
            return parse(bytes).map_err(|kind| self.error(path, kind));
        }
        let bytes = read_limited(path, MAX_ARTIFACT_BYTES).map_err(|e| {
            let kind = if e.kind() == io::ErrorKind::NotFound {
                ErrorKind::Missing
            } else {
                ErrorKind::Io(e)
            };
            self.error(path, kind)
        })?;
        parse(&bytes).map_err(|kind| self.error(path, kind))
    }

    /// Checks the header, the version, the spec id (by `check_spec`, whose `Err` is the
    /// message of a [`ErrorKind::WrongSpec`]) and the checksum, in that order; returns what
    /// `check_spec` made of the spec id and the payload.
    pub fn open<'a, S>(
        &self,
        bytes: &'a [u8],
        check_spec: impl FnOnce(&str) -> Result<S, String>,
    ) -> Result<(S, Payload<'a>), ErrorKind> {
        let text = std::str::from_utf8(bytes).map_err(|e| match e.error_len() {
            None => ErrorKind::Truncated("ends inside a character".into()),
            Some(_) => ErrorKind::Corrupt("not UTF-8 text".into()),
        })?;
        let (spec_id, header_len) = self.header(text)?;
        let spec = check_spec(spec_id).map_err(ErrorKind::WrongSpec)?;
        let body = checked_body(text, header_len)?;
        let payload = Payload {
            text: &body[header_len..],
            first_line: 3,
        };
        Ok((spec, payload))
    }

    /// The spec id and the length of the two header lines. A file cut short inside them is
    /// truncated, not corrupt.
    fn header<'a>(&self, text: &'a str) -> Result<(&'a str, usize), ErrorKind> {
        use ErrorKind::*;
        if text.is_empty() {
            return Err(Truncated("the file is empty".into()));
        }
        let mut lines = text.split_inclusive('\n');
        let first = lines.next().unwrap_or_default();
        let ended = |line: &str| line.ends_with('\n');
        let Some(version) = first.trim_end().strip_prefix(self.magic) else {
            if !ended(first) && self.magic.starts_with(first) {
                return Err(Truncated("ends in the header".into()));
            }
            return Err(Corrupt(format!(
                "not a Liuzi {} (no `{}` header)",
                self.noun, self.magic
            )));
        };
        if !ended(first) {
            return Err(Truncated("ends in the header".into()));
        }
        let version = version.trim();
        if version != self.version.to_string() {
            return Err(WrongVersion(format!(
                "version {version}, this build reads version {}",
                self.version
            )));
        }
        let spec_line = lines
            .next()
            .ok_or_else(|| Truncated("ends after the header".into()))?;
        let Some(spec_id) = spec_line.trim_end().strip_prefix(SPEC_KEY) else {
            if !ended(spec_line) && SPEC_KEY.starts_with(spec_line) {
                return Err(Truncated("ends in the spec line".into()));
            }
            return Err(Corrupt("second line is not `spec <id>`".into()));
        };
        if !ended(spec_line) {
            return Err(Truncated("ends in the spec line".into()));
        }
        Ok((spec_id, first.len() + spec_line.len()))
    }

    fn error(&self, path: &Path, kind: ErrorKind) -> FileError {
        FileError {
            path: path.to_path_buf(),
            noun: self.noun,
            kind,
        }
    }
}

/// Everything before the checksum line (header included), once the checksum matches. The
/// checksum line is the last `checksum ` line after the header's `header_len` bytes.
fn checked_body(text: &str, header_len: usize) -> Result<&str, ErrorKind> {
    use ErrorKind::*;
    let after_header = &text[header_len..];
    let checksum_at = match after_header.rfind(&format!("\n{CHECKSUM_KEY}")) {
        Some(i) => i + 1,
        None if after_header.starts_with(CHECKSUM_KEY) => 0,
        None => return Err(Truncated("no checksum line at the end".into())),
    };
    let (body, tail) = text.split_at(header_len + checksum_at);
    if !tail.ends_with('\n') {
        return Err(Truncated("the checksum line is incomplete".into()));
    }
    let stated = tail
        .trim_end()
        .strip_prefix(CHECKSUM_KEY)
        .filter(|hex| hex.len() == 8)
        .and_then(|hex| u32::from_str_radix(hex, 16).ok())
        .ok_or_else(|| Corrupt("the checksum line is not `checksum <8 hex digits>`".into()))?;
    if crc32fast::hash(body.as_bytes()) != stated {
        return Err(Corrupt(
            "checksum mismatch (the file was altered or damaged)".into(),
        ));
    }
    Ok(body)
}

/// Writes a file so that readers see either the old file or the whole new one: `write` fills a
/// temporary file in the same directory, which is synced and then renamed over `path`. If
/// anything fails, `path` is left as it was and the temporary file is removed.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut std::fs::File) -> io::Result<()>,
) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    // Temporary files are created private (0600); artifacts are for every user of the engine.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    write(tmp.as_file_mut())?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const FORMAT: Format = Format {
        noun: "test file",
        magic: "liuzi-test",
        version: 3,
    };
    const SPEC: &str = "test-spec:a=1";

    fn sample() -> String {
        FORMAT.compose(
            SPEC,
            "source unit test\n# a comment\nvalues 1 2 3\nmore é\n",
        )
    }

    /// Opens `bytes`, the spec must be [`SPEC`]; the payload's numbered lines.
    fn open(bytes: &[u8]) -> Result<Vec<(usize, String)>, ErrorKind> {
        let check = |id: &str| {
            (id == SPEC)
                .then_some(())
                .ok_or(format!("`{id}`, wanted `{SPEC}`"))
        };
        let ((), payload) = FORMAT.open(bytes, check)?;
        Ok(payload.lines().map(|(n, l)| (n, l.to_string())).collect())
    }

    fn kind(bytes: &[u8]) -> String {
        format!("{:?}", open(bytes).unwrap_err())
    }

    #[test]
    fn compose_then_open_round_trips() {
        let text = sample();
        assert!(text.starts_with("liuzi-test 3\nspec test-spec:a=1\nsource unit test\n"));
        let lines = open(text.as_bytes()).unwrap();
        let expected = [(3, "source unit test"), (5, "values 1 2 3"), (6, "more é")];
        let expected: Vec<_> = expected.iter().map(|&(n, l)| (n, l.to_string())).collect();
        assert_eq!(lines, expected);
        // An empty payload is allowed.
        assert_eq!(open(FORMAT.compose(SPEC, "").as_bytes()).unwrap(), vec![]);
    }

    #[test]
    fn every_proper_prefix_is_truncated() {
        let text = sample();
        let bytes = text.as_bytes();
        for cut in 0..bytes.len() {
            let why = kind(&bytes[..cut]);
            assert!(why.starts_with("Truncated"), "cut at {cut}: {why}");
        }
    }

    #[test]
    fn every_flipped_byte_is_refused_and_payload_damage_is_a_checksum_mismatch() {
        let text = sample();
        let payload_start = text.find("source").unwrap();
        // The newline before `checksum` frames the checksum line: damaged, it is "no checksum".
        let checksum_start = text.find("\nchecksum").unwrap();
        for i in 0..text.len() {
            let mut bytes = text.clone().into_bytes();
            bytes[i] ^= 0x01;
            let why = kind(&bytes);
            if (payload_start..checksum_start).contains(&i) {
                assert!(why.contains("checksum mismatch"), "byte {i}: {why}");
            }
        }
        // Junk after the checksum line, and a damaged checksum line.
        assert!(kind(format!("{text}x\n").as_bytes()).starts_with("Corrupt"));
        let bad_hex = text.replace("checksum ", "checksum z");
        assert!(kind(bad_hex.as_bytes()).starts_with("Corrupt"));
        assert!(kind(&[b'l', 0xff, b'\n']).starts_with("Corrupt"));
    }

    #[test]
    fn wrong_magic_version_and_spec_are_told_apart() {
        let text = sample();
        let other = text.replacen("liuzi-test", "liuzi-other", 1);
        let why = kind(other.as_bytes());
        assert!(
            why.starts_with("Corrupt") && why.contains("no `liuzi-test` header"),
            "{why}"
        );
        assert!(kind(b"hello\n").starts_with("Corrupt"));
        let why = kind(text.replacen("liuzi-test 3", "liuzi-test 4", 1).as_bytes());
        assert!(
            why.starts_with("WrongVersion") && why.contains("version 4"),
            "{why}"
        );
        let why = kind(text.replacen("a=1", "a=2", 1).as_bytes());
        assert!(why.starts_with("WrongSpec") && why.contains("a=2"), "{why}");
        let why = kind(text.replacen("spec ", "spek ", 1).as_bytes());
        assert!(why.starts_with("Corrupt"), "{why}");
    }

    #[test]
    fn save_then_load_round_trips_and_errors_name_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.test");
        FORMAT.save(&path, &sample()).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), sample());
        let lines = FORMAT.load(&path, open).unwrap();
        assert_eq!(lines.len(), 3);
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("a.test")]);

        let err = FORMAT
            .load(&dir.path().join("none.test"), open)
            .unwrap_err();
        assert!(matches!(err.kind, ErrorKind::Missing));
        assert_eq!(
            err.to_string(),
            format!("test file {}: missing (no such file)", err.path.display())
        );
        std::fs::write(&path, "garbage\n").unwrap();
        let err = FORMAT.load(&path, open).unwrap_err().to_string();
        assert!(
            err.starts_with("test file ") && err.contains("a.test: corrupt: "),
            "{err}"
        );
    }

    #[test]
    fn a_failed_save_leaves_the_old_file_and_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.test");
        let old = sample();
        FORMAT.save(&path, &old).unwrap();
        // The writer fails half-way (as a full disk would).
        let failed = write_atomically(&path, |file| {
            file.write_all(b"liuzi-test 3\nspec half")?;
            Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"))
        });
        assert_eq!(failed.unwrap_err().kind(), io::ErrorKind::StorageFull);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), old);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);

        // The rename fails: the target is a directory.
        let blocked = dir.path().join("blocked");
        std::fs::create_dir(&blocked).unwrap();
        std::fs::write(blocked.join("inside"), "kept").unwrap();
        let err = FORMAT.save(&blocked, &old).unwrap_err();
        assert!(matches!(err.kind, ErrorKind::Io(_)), "{err}");
        assert!(
            err.to_string().contains("blocked: cannot read or write"),
            "{err}"
        );
        assert_eq!(
            std::fs::read_to_string(blocked.join("inside")).unwrap(),
            "kept"
        );
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);

        // The directory does not exist: nothing is created.
        let nowhere = dir.path().join("no-such-dir").join("a.test");
        assert!(FORMAT.save(&nowhere, &old).is_err());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }
}
