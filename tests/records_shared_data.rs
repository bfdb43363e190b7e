//! Reads every game of ../shared/data/*.games through the record readers (each is replayed and
//! checked). The data is not part of the repository: without the folder the test says so and passes.

use liuzi::records::{games, GameRecord, RecordResult};
use std::path::PathBuf;

#[test]
fn every_shared_game_reads_replays_and_round_trips() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!(
            "SKIPPED: {} is absent; no shared games to read",
            dir.display()
        );
        return;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "games"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .games files in {}", dir.display());
    let mut total = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let records: Vec<GameRecord> =
            games::read_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for (record, line) in records.iter().zip(text.lines().filter(|l| !l.is_empty())) {
            // A moot second stone after a winning first stone is dropped (see liuzi::records).
            let written = games::format_line(record);
            let line = line.trim_end_matches('\r');
            assert!(
                written == line || line.starts_with(&(written.clone() + "-")),
                "{line}"
            );
            let board = record.validate().unwrap();
            if board.is_over() {
                assert_eq!(RecordResult::from_board(board.result()), record.result);
            }
        }
        total += records.len();
    }
    eprintln!("read {total} games from {} files", files.len());
    assert!(total > 1000, "only {total} games");
}
