//! The shipped artifact files keep loading, and writing what was loaded gives the same bytes:
//! a change to the file code that altered either format would show here.

use liuzi::eval::Evaluator;
use liuzi::policy::Gammas;
use std::path::{Path, PathBuf};

fn shipped(name: &str) -> (PathBuf, Vec<u8>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("engine-config")
        .join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (path, bytes)
}

#[test]
fn shipped_weights_rewrite_to_the_same_bytes() {
    // The two-section default (playout gammas and tree priors) and the one-section cross file.
    for (name, tree) in [("default.weights", true), ("cross.weights", false)] {
        let (path, bytes) = shipped(name);
        let gammas = Gammas::load(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(gammas.tree().is_some(), tree, "{name}");
        assert!(gammas.to_text().as_bytes() == bytes.as_slice(), "{name}");
    }
}

#[test]
fn shipped_evaluator_rewrites_to_the_same_bytes() {
    let (path, bytes) = shipped("default.eval");
    let evaluator = Evaluator::load(&path).unwrap_or_else(|e| panic!("{e}"));
    assert!(evaluator.to_text().as_bytes() == bytes.as_slice());
}
