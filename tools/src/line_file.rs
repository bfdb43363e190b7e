//! An append-only JSON Lines file that survives kills: opened under an exclusive lock (a second
//! writer is refused at once), a torn last line (a kill mid-write) cut off, a whole last line
//! that lacks only its newline repaired, and every appended line synced to disk before the
//! append returns. The match runner's results and the self-play generator's games live in one.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Largest line file read (about a quarter of a million long games): a larger one is refused
/// rather than read into memory.
pub const MAX_LINE_FILE_BYTES: u64 = 256 << 20;

/// Refuses what cannot be a line file: anything but a regular file (a FIFO would block the
/// read forever, `/dev/zero` never ends) and files over [`MAX_LINE_FILE_BYTES`].
fn check_regular(metadata: &std::fs::Metadata, path: &Path) -> Result<(), String> {
    if !metadata.is_file() {
        return Err(format!(
            "{}: not a regular file (a results file cannot be a FIFO, device or directory)",
            path.display()
        ));
    }
    if metadata.len() > MAX_LINE_FILE_BYTES {
        return Err(format!(
            "{}: {} bytes is over the {} MiB a results file may hold",
            path.display(),
            metadata.len(),
            MAX_LINE_FILE_BYTES >> 20
        ));
    }
    Ok(())
}

/// Reads an open line file, at most [`MAX_LINE_FILE_BYTES`] (it may grow while being read).
fn read_capped(file: &mut File, path: &Path) -> Result<Vec<u8>, String> {
    check_regular(
        &file
            .metadata()
            .map_err(|e| format!("{}: {e}", path.display()))?,
        path,
    )?;
    let mut bytes = Vec::new();
    file.take(MAX_LINE_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.len() as u64 > MAX_LINE_FILE_BYTES {
        return Err(format!(
            "{}: over the {} MiB a results file may hold",
            path.display(),
            MAX_LINE_FILE_BYTES >> 20
        ));
    }
    Ok(bytes)
}

/// Reads a line file for reading only (`liuzi-rate`, the evaluator's trainer), refusing what
/// is not a regular file before opening it (opening a FIFO to read would wait for a writer).
pub fn read_line_file_text(path: &Path) -> Result<String, String> {
    let describe = |e: std::io::Error| format!("{}: {e}", path.display());
    check_regular(&std::fs::metadata(path).map_err(describe)?, path)?;
    let mut file = File::open(path).map_err(describe)?;
    let bytes = read_capped(&mut file, path)?;
    String::from_utf8(bytes).map_err(|e| format!("{}: not UTF-8: {e}", path.display()))
}

/// Who opens a line file, for its error messages.
#[derive(Clone, Copy, Debug)]
pub struct Opener<'a> {
    /// The program whose second run is refused (`liuzi-match`).
    pub program: &'a str,
    /// The option that names another file (`--results`).
    pub file_option: &'a str,
    /// When set, a file that already holds lines is refused with this advice (a new match
    /// must not write over results).
    pub refuse_existing: Option<&'a str>,
}

/// An open line file, locked and positioned for appending.
pub struct LineFile {
    path: PathBuf,
    file: File,
}

impl LineFile {
    /// Opens (or creates) `path` and returns it with its complete lines. `is_whole_line` tells
    /// whether a last line without its newline is a whole record (kept, the newline written)
    /// or a torn one (cut off). Nothing is read or cut before the lock is held.
    pub fn open(
        path: &Path,
        opener: Opener,
        is_whole_line: impl Fn(&[u8]) -> bool,
    ) -> Result<(LineFile, String), String> {
        let describe = |e: std::io::Error| format!("{}: {e}", path.display());
        match std::fs::metadata(path) {
            Ok(metadata) => check_regular(&metadata, path)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(describe(e)),
        }
        let mut file = OpenOptions::new()
            .create(true)
            .read(true)
            .write(true)
            .truncate(false)
            .open(path)
            .map_err(describe)?;
        let (program, option) = (opener.program, opener.file_option);
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let shown = path.display();
                return Err(format!(
                    "{shown} is in use by another {program} run; wait for it to finish, or choose another {option} file"
                ));
            }
            Err(TryLockError::Error(e)) => {
                return Err(format!("{}: cannot lock the file: {e}", path.display()))
            }
        }
        let mut existing = read_capped(&mut file, path)?;
        if let Some(advice) = opener.refuse_existing {
            if existing.iter().any(|b| !b.is_ascii_whitespace()) {
                return Err(format!(
                    "{} already holds results; {advice}",
                    path.display()
                ));
            }
        }
        let mut complete = match existing.iter().rposition(|&b| b == b'\n') {
            Some(i) => i + 1,
            None => 0,
        };
        let last = &existing[complete..];
        if !last.is_empty() && is_whole_line(last) {
            // A whole record whose newline never reached the disk: keep it, repair the line.
            file.seek(SeekFrom::End(0)).map_err(describe)?;
            file.write_all(b"\n")
                .and_then(|()| file.sync_data())
                .map_err(describe)?;
            existing.push(b'\n');
            complete = existing.len();
            tracing::warn!(
                "{}: the last line lacked its final newline; kept it and added the newline",
                path.display()
            );
        } else if complete < existing.len() {
            tracing::warn!(
                "{}: dropping an unfinished last line ({} bytes) left by an interrupted run",
                path.display(),
                existing.len() - complete
            );
        }
        existing.truncate(complete);
        let text = String::from_utf8(existing)
            .map_err(|e| format!("{}: not UTF-8: {e}", path.display()))?;
        file.set_len(complete as u64).map_err(describe)?;
        file.seek(SeekFrom::End(0)).map_err(describe)?;
        Ok((
            LineFile {
                path: path.to_path_buf(),
                file,
            },
            text,
        ))
    }

    /// Appends `line` (a newline is added) and syncs it to disk before returning. When the
    /// file at the path is no longer the one held (replaced or removed while the run went on:
    /// say a `git stash` or `checkout` of it), the held lines are written back there first, the
    /// replacement kept beside it as `<path>.replaced`, so that no line goes to a file nobody
    /// can read.
    pub fn append(&mut self, line: &str) -> Result<(), String> {
        if !self.still_at_path() {
            self.restore_at_path()?;
        }
        let mut text = String::with_capacity(line.len() + 1);
        text.push_str(line);
        text.push('\n');
        self.file
            .write_all(text.as_bytes())
            .and_then(|_| self.file.sync_data())
            .map_err(|e| format!("{}: {e}", self.path.display()))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the path still names the file held open.
    fn still_at_path(&self) -> bool {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            match (self.file.metadata(), std::fs::metadata(&self.path)) {
                (Ok(held), Ok(named)) => held.dev() == named.dev() && held.ino() == named.ino(),
                // Cannot tell what the held file is: leave it be.
                (Err(_), _) => true,
                (Ok(_), Err(_)) => false,
            }
        }
        #[cfg(not(unix))]
        {
            self.path.exists()
        }
    }

    /// Writes the held file's lines to a new file at the path (moving what is there now aside
    /// to `<path>.replaced`) and holds that one, locked, instead.
    fn restore_at_path(&mut self) -> Result<(), String> {
        let describe = |e: std::io::Error| format!("{}: {e}", self.path.display());
        self.file.seek(SeekFrom::Start(0)).map_err(describe)?;
        let held = read_capped(&mut self.file, &self.path)?;
        if self.path.exists() {
            // `<path>.replaced`, or `.replaced.2`, ...: an earlier replacement is kept too.
            let aside = (1..)
                .map(|n| {
                    let mut name = self.path.clone().into_os_string();
                    name.push(if n == 1 {
                        ".replaced".into()
                    } else {
                        format!(".replaced.{n}")
                    });
                    PathBuf::from(name)
                })
                .find(|candidate| !candidate.exists())
                .expect("some name is free");
            std::fs::rename(&self.path, &aside).map_err(describe)?;
            tracing::warn!(
                "{} was replaced while this run wrote to it; the replacement is kept as {}",
                self.path.display(),
                aside.display()
            );
        }
        let mut file = OpenOptions::new()
            .create_new(true)
            .read(true)
            .write(true)
            .open(&self.path)
            .map_err(describe)?;
        file.try_lock()
            .map_err(|e| format!("{}: cannot lock the file: {e}", self.path.display()))?;
        file.write_all(&held)
            .and_then(|()| file.sync_data())
            .map_err(describe)?;
        tracing::warn!(
            "{}: the file this run held is no longer at its path; wrote its {} lines back there",
            self.path.display(),
            held.iter().filter(|&&b| b == b'\n').count()
        );
        self.file = file;
        Ok(())
    }
}
