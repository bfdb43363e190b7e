//! The layout promises of the source tree, checked on the files themselves: library code reads
//! nothing under `tests/`, the two searches import only their shared layer, and every
//! `design.md` / `protocols.md` section a comment cites exists in `docs/`.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn sources(dir: &str) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    rust_files(&root().join(dir), &mut files);
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            (f, text)
        })
        .collect()
}

#[test]
fn library_code_reads_no_file_under_tests() {
    for (file, text) in sources("src") {
        for line in text.lines() {
            let reads = [
                "include_str!",
                "include_bytes!",
                "read_to_string",
                "fs::read",
            ]
            .iter()
            .any(|r| line.contains(r));
            assert!(
                !(reads && line.contains("tests/")),
                "{}: {line}",
                file.display()
            );
        }
    }
}

#[test]
fn the_searches_import_only_their_shared_layer() {
    for (from, other) in [("mcts", "alphabeta"), ("alphabeta", "mcts")] {
        for (file, text) in sources(&format!("src/search/{from}")) {
            for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
                assert!(
                    !line.contains(&format!("search::{other}")),
                    "{}: {line}",
                    file.display()
                );
            }
        }
    }
    for (file, text) in sources("src/search/common") {
        for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
            assert!(
                !line.contains("search::mcts") && !line.contains("search::alphabeta"),
                "{}: {line}",
                file.display()
            );
        }
    }
}

#[test]
fn cited_design_and_protocol_sections_exist() {
    let design = std::fs::read_to_string(root().join("docs/design.md")).unwrap();
    let protocols = std::fs::read_to_string(root().join("docs/protocols.md")).unwrap();
    let mut files = sources("src");
    files.extend(sources("tools/src"));
    files.extend(sources("tests"));
    let mut cited = 0;
    for (file, text) in files
        .into_iter()
        .filter(|(f, _)| !f.ends_with("tests/layout.rs"))
    {
        for (i, _) in text.match_indices("design.md A") {
            let section: String = text[i + "design.md ".len()..].chars().take(2).collect();
            assert!(
                design.contains(&format!("## {section}.")),
                "{}: design.md {section}",
                file.display()
            );
            cited += 1;
        }
        for (i, _) in text.match_indices("protocols.md §") {
            let section: String = text[i + "protocols.md §".len()..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            let section = section.trim_end_matches('.');
            let heading = protocols.lines().any(|l| {
                l.starts_with('#')
                    && (l.contains(&format!("§{section} ")) || l.contains(&format!("§{section}. ")))
            });
            assert!(heading, "{}: protocols.md §{section}", file.display());
            cited += 1;
        }
    }
    assert!(
        cited > 10,
        "the comments cite the notes ({cited} citations found)"
    );
}
