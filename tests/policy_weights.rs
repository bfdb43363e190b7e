//! The weights file on disk: atomic save, clear errors naming the file, and the shipped default.

use liuzi::policy::{FeatureSpec, Gammas, Group, PolicyBoard};
use std::path::Path;

fn assert_send_clone<T: Send + Clone>() {}

#[test]
fn policy_board_can_move_to_a_search_thread() {
    assert_send_clone::<PolicyBoard>();
}

#[test]
fn save_then_load_round_trips_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.weights");
    let spec = FeatureSpec::new(&[Group::Nearest, Group::Tactic]).unwrap();
    let g = Gammas::new(
        spec,
        vec![vec![3.0, 2.0, 1.0, 0.5], vec![1.0, 50.0, 900.0]],
        "unit test",
    )
    .unwrap();
    g.save(&path).unwrap();
    assert_eq!(Gammas::load(&path).unwrap(), g);
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("w.weights")]);
}

#[test]
fn errors_name_the_file_and_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.weights");
    let msg = Gammas::load(&missing).unwrap_err().to_string();
    assert!(
        msg.contains("nope.weights") && msg.contains("missing"),
        "{msg}"
    );

    let text = Gammas::uniform().to_text();
    let cases = [
        (
            "truncated.weights",
            text[..text.len() / 3].to_string(),
            "truncated",
        ),
        ("corrupt.weights", text.replacen("1e0", "2e0", 1), "corrupt"),
        (
            "version.weights",
            text.replacen("liuzi-weights 1", "liuzi-weights 7", 1),
            "wrong format version",
        ),
        (
            "spec.weights",
            text.replacen("own4.1=", "own4.0=", 1),
            "wrong feature-spec id",
        ),
        ("garbage.weights", "\u{0}\u{1}binary".to_string(), "corrupt"),
    ];
    for (name, content, problem) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, content).unwrap();
        let msg = Gammas::load(&path).unwrap_err().to_string();
        assert!(msg.contains(name) && msg.contains(problem), "{name}: {msg}");
    }
}

#[test]
fn shipped_weights_load_with_their_specs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The default: the seven groups before `cross` (it predicts better but plays no better and
    // runs slower; docs/patterns.md, BT features). The eight-group file, test data: every group.
    for (file, spec) in [
        ("engine-config/default.weights", FeatureSpec::shipped()),
        ("tests/data/cross.weights", FeatureSpec::full()),
    ] {
        let g = Gammas::load(&root.join(file)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(g.spec(), &spec, "{file}");
        // Trained, not uniform: completing a six must be far likelier than a quiet stone.
        assert!(g.gamma(Group::Tactic, 2) > 100.0 * g.gamma(Group::Tactic, 0));
        assert!(g.source().contains("liuzi-train"), "{file}");
    }
}

/// The shipped two-section weights: playout gammas of the seven shipped groups, a
/// tree-prior section of every group plus four raw length-6 line patterns, both trained.
#[test]
fn tree_weights_load_with_both_sections() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine-config");
    let g = Gammas::load(&dir.join("default.weights")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.spec(), &FeatureSpec::shipped());
    let tree = g.tree().expect("a tree section");
    assert_eq!(tree.spec(), &FeatureSpec::full());
    assert_eq!(tree.line_length(), 6);
    let t = tree.groups();
    assert!(t.gamma(Group::Tactic, 2) > 100.0 * t.gamma(Group::Tactic, 0));
    // The line patterns learnt something: their gammas are not all alike.
    let line = tree.line(0);
    let (lo, hi) = line
        .iter()
        .fold((f64::MAX, 0.0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
    assert!(hi > 10.0 * lo, "{lo} .. {hi}");
    // One-section files have no tree section: their priors are the playout gammas.
    assert!(Gammas::load(&dir.join("../tests/data/cross.weights"))
        .unwrap()
        .tree()
        .is_none());
}

/// A damaged tree section is an error naming the file and what is wrong, never a panic.
#[test]
fn bad_tree_sections_name_the_file_and_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine-config/default.weights");
    let text = std::fs::read_to_string(src).unwrap();
    let resum = |t: &str| {
        let body = &t[..t.rfind("checksum ").unwrap()];
        format!("{body}checksum {:08x}\n", crc32fast::hash(body.as_bytes()))
    };
    for (name, content, problem) in [
        (
            "lines.weights",
            text.replace("lines.1=6x4", "lines.7=6x4"),
            "tree lines",
        ),
        (
            "order.weights",
            text.replace("line 1 1458", "line 2 1458"),
            "line 2 1458",
        ),
        (
            "count.weights",
            text.replace("line 3 1458", "line 3 1457"),
            "line 3 1457",
        ),
    ] {
        let path = dir.path().join(name);
        std::fs::write(&path, resum(&content)).unwrap();
        let msg = Gammas::load(&path).unwrap_err().to_string();
        assert!(msg.contains(name) && msg.contains(problem), "{name}: {msg}");
    }
}
