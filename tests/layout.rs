//! The layout promises of the source tree, checked on the files themselves: the crate's layer
//! order ([`LAYERS`], the one place it is written), no two files importing each other, library
//! code reading nothing under `tests/`, the two searches importing only their shared layer, and
//! comments citing the docs by page and topic.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The crate's layers, lowest first: a top-level module of `src/` imports (`crate::X`) only the
/// modules of the layers below its own, never one of its own layer or above. Every top-level
/// module has a layer. `src/lib.rs` and `docs/design.md` point here.
const LAYERS: &[(&str, &[&str])] = &[
    ("portable maths (one ln/exp on every target)", &["math"]),
    ("checked files", &["artifact"]),
    ("the game's rules", &["rules"]),
    ("text forms of points and moves", &["notation"]),
    ("pattern tables; game records", &["patterns", "records"]),
    (
        "the Bradley-Terry move model; the opening book",
        &["policy", "book"],
    ),
    ("threat solver; learned evaluator", &["tactics", "eval"]),
    ("the two searches and their settings", &["search"]),
    ("the configuration file", &["config"]),
    ("the engine facade", &["engine"]),
    ("the front-ends", &["protocol"]),
    ("whole-program benchmarks", &["bench"]),
    ("the programs' start-up", &["cli"]),
];

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

/// Code cites the docs by page and topic ("docs/search.md, the bias term"), never by a section
/// number or a lab diary's page; a `protocols.md §N` it cites is a section of that page.
#[test]
fn code_cites_docs_by_page_and_topic() {
    let protocols = std::fs::read_to_string(root().join("docs/protocols.md")).unwrap();
    let mut files = sources("src");
    files.extend(sources("tools/src"));
    let mut cited = 0;
    for (file, text) in files {
        for line in text.lines().filter(|l| l.trim_start().starts_with("//")) {
            let numbered = |word: &str| {
                line.match_indices(word).any(|(i, _)| {
                    let rest = line[i + word.len()..].trim_start_matches(['s', ' ']);
                    rest.starts_with(|c: char| c.is_ascii_digit())
                })
            };
            assert!(
                !line.contains("README-")
                    && !line.contains("design.md A")
                    && !numbered("section")
                    && !numbered(".md,"),
                "{}: cite the docs by page and topic: {line}",
                file.display()
            );
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
        cited > 3,
        "the comments cite protocols.md ({cited} citations found)"
    );
}

/// Code lines of a file: comments dropped, and the inline test module at the end (whose
/// `super` means the file itself) cut off.
fn code_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut previous = "";
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("mod tests") && previous.trim() == "#[cfg(test)]" {
            break;
        }
        previous = line;
        if !trimmed.starts_with("//") {
            lines.push(line.split("//").next().unwrap());
        }
    }
    lines
}

/// The top-level modules of the library (`pub mod X;` / `mod X;` in `src/lib.rs`).
fn top_level_modules() -> Vec<String> {
    let lib = std::fs::read_to_string(root().join("src/lib.rs")).unwrap();
    lib.lines()
        .filter_map(|l| {
            l.trim()
                .strip_prefix("pub mod")
                .or(l.trim().strip_prefix("mod"))
        })
        .map(|m| m.trim().trim_end_matches(';').to_string())
        .collect()
}

#[test]
fn every_top_level_module_has_a_layer_and_imports_only_lower_ones() {
    let layer_of: BTreeMap<&str, usize> = LAYERS
        .iter()
        .enumerate()
        .flat_map(|(i, (_, modules))| modules.iter().map(move |m| (*m, i)))
        .collect();
    let modules = top_level_modules();
    assert!(modules.len() > 10, "{modules:?}");
    for m in &modules {
        assert!(
            layer_of.contains_key(m.as_str()),
            "src/{m}: no layer in LAYERS"
        );
    }
    let mut checked = 0;
    for (file, text) in sources("src") {
        let relative = file.strip_prefix(root().join("src")).unwrap();
        let first = relative.components().next().unwrap().as_os_str();
        let own = first.to_str().unwrap().trim_end_matches(".rs");
        let Some(&own_layer) = layer_of.get(own) else {
            continue; // lib.rs, main.rs, bin/
        };
        for line in code_lines(&text) {
            for (i, _) in line.match_indices("crate::") {
                let used: String = line[i + "crate::".len()..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if used == own {
                    continue;
                }
                let layer = layer_of.get(used.as_str());
                assert!(
                    layer.is_some_and(|&l| l < own_layer),
                    "{}: `{own}` (layer {own_layer}) imports `{used}` (layer {layer:?}): {line}",
                    file.display()
                );
                checked += 1;
            }
        }
        assert!(
            !text.contains("liuzi_tools"),
            "{}: the library uses the tools",
            file.display()
        );
    }
    assert!(checked > 100, "the layer check saw {checked} imports");
}

/// The module path of a source file (`src/search/mcts/worker.rs` → `search::mcts::worker`).
fn module_of(file: &Path, src: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).unwrap();
    let mut parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_str().unwrap().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// Expands the use tree of `use a::{b, c::{d, e}}` into its full paths.
fn expand_use(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        return vec![tree.to_string()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap()];
    let (mut depth, mut start, mut parts) = (0, 0, Vec::new());
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(expand_use)
        .map(|p| format!("{prefix}{p}"))
        .collect()
}

/// The files a source file imports: every `use` path and every `crate::` / `super::` / `self::`
/// path in its code, resolved to the longest module of the tree that is a file.
fn imported_files(
    module: &[String],
    code: &str,
    files: &BTreeSet<Vec<String>>,
) -> BTreeSet<Vec<String>> {
    let mut paths = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("use ") {
        let before = rest[..i].chars().last();
        let end = rest[i..].find(';').map_or(rest.len(), |e| i + e);
        if before.is_none_or(|c| c.is_whitespace()) {
            paths.extend(expand_use(&rest[i + 4..end]));
        }
        rest = &rest[end.min(rest.len() - 1) + 1..];
        if rest.is_empty() {
            break;
        }
    }
    for start in ["crate::", "super::", "self::"] {
        for (i, _) in code.match_indices(start) {
            let path: String = code[i..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            paths.push(path);
        }
    }
    let mut imported = BTreeSet::new();
    for path in paths {
        let mut segments: Vec<&str> = path.split("::").map(str::trim).collect();
        let mut at: Vec<String> = module.to_vec();
        match segments.first() {
            Some(&"crate") => {
                at.clear();
                segments.remove(0);
            }
            Some(&"self") => {
                segments.remove(0);
            }
            Some(&"super") => {
                while segments.first() == Some(&"super") {
                    at.pop();
                    segments.remove(0);
                }
            }
            Some(first) => {
                // A child module named without `self::`; anything else is an external crate.
                let mut child = module.to_vec();
                child.push(first.to_string());
                if !files.contains(&child) {
                    continue;
                }
            }
            None => continue,
        }
        let mut best = None;
        for s in segments {
            at.push(s.to_string());
            if files.contains(&at) {
                best = Some(at.clone());
            }
        }
        if let Some(target) = best.filter(|t| t.as_slice() != module) {
            imported.insert(target);
        }
    }
    imported
}

#[test]
fn no_two_files_import_each_other() {
    for dir in ["src", "tools/src"] {
        let src = root().join(dir);
        let sources = sources(dir);
        let files: BTreeSet<Vec<String>> =
            sources.iter().map(|(f, _)| module_of(f, &src)).collect();
        let mut edges = BTreeSet::new();
        for (file, text) in &sources {
            let module = module_of(file, &src);
            let code = code_lines(text).join("\n");
            for target in imported_files(&module, &code, &files) {
                edges.insert((module.clone(), target));
            }
        }
        assert!(edges.len() > 50, "{dir}: {} imports seen", edges.len());
        for (a, b) in &edges {
            // A module's `mod.rs` declares its children, which may use what it holds.
            let nested = b.starts_with(a) || a.starts_with(b);
            assert!(
                nested || !edges.contains(&(b.clone(), a.clone())),
                "{dir}: {} and {} import each other",
                a.join("::"),
                b.join("::")
            );
        }
    }
}

/// stderr is written only through `protocol::stderr_queue`, whose writer thread may fall behind:
/// a direct write blocks the engine when the controller never reads stderr.
#[test]
fn stderr_is_written_only_through_its_queue() {
    for (file, text) in sources("src") {
        if file.ends_with("protocol/stderr_queue.rs") {
            continue;
        }
        for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
            let direct = line.contains("stderr()") && !line.contains("is_terminal");
            assert!(
                !direct,
                "{}: write stderr through its queue: {line}",
                file.display()
            );
        }
    }
}

/// The MCTS's in-tree tactics (`src/search/mcts/tactics/`) see the core only through what their
/// hook (`tactics/mod.rs`) is handed: the tree, its proven edges, the choice among children and
/// the settings; never the workers, the expansion, the playouts or `Search`.
#[test]
fn the_in_tree_tactics_see_the_core_only_through_the_tree() {
    let allowed = ["node", "tree", "proven", "choice", "SearchParams"];
    let mut seen = 0;
    for (file, text) in sources("src/search/mcts/tactics") {
        // `super::` from the hook is the core; from the files below it, `super::super::`.
        let to_core = if file.ends_with("mod.rs") { 1 } else { 2 };
        let code = text.split("#[cfg(test)]").next().unwrap();
        for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
            assert!(
                !line.contains("search::mcts::"),
                "{}: {line}",
                file.display()
            );
            for (i, _) in line.match_indices("super::") {
                if line[..i].ends_with("super::") {
                    continue;
                }
                let mut rest = &line[i..];
                let mut ups = 0;
                while let Some(r) = rest.strip_prefix("super::") {
                    rest = r;
                    ups += 1;
                }
                if ups != to_core {
                    continue;
                }
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                assert!(
                    allowed.contains(&name.as_str()),
                    "{}: the tactics reach into the core: {line}",
                    file.display()
                );
                seen += 1;
            }
        }
    }
    assert!(seen > 10, "the tactics' imports of the core: {seen} seen");
}
