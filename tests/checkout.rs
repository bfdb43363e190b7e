//! A checkout must give the files the build and the engine read byte for byte, whatever the
//! user's git settings: a CRLF checkout (Windows, `core.autocrlf = true`) once corrupted the
//! shipped artifacts (`checksum mismatch` at start-up). `.gitattributes` marks them binary.
//!
//! Runs where the repository is a git checkout with git at hand; says so and passes otherwise.

use std::path::Path;
use std::process::Command;

/// The committed blob of `path` as `git checkout` with `core.autocrlf = true` would write it
/// (`filters`), or as stored; `None` when git or the commit is not at hand.
fn blob(repo: &Path, path: &str, filters: bool) -> Option<Vec<u8>> {
    let out = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(["-c", "core.autocrlf=true", "cat-file"])
        .arg(if filters { "--filters" } else { "blob" })
        .arg(format!("HEAD:{path}"))
        .output()
        .ok()?;
    out.status.success().then_some(out.stdout)
}

fn crlf_checkout(repo: &Path, path: &str) -> Option<Vec<u8>> {
    blob(repo, path, true)
}

#[test]
fn a_crlf_checkout_keeps_the_shipped_artifacts_byte_for_byte() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for path in [
        "engine-config/default.weights",
        "engine-config/default.eval",
        "engine-config/default.book",
    ] {
        let Some(checked_out) = crlf_checkout(repo, path) else {
            eprintln!("skipped: no git checkout with {path} committed");
            return;
        };
        let committed = blob(repo, path, false).unwrap();
        assert!(
            checked_out == committed,
            "{path}: a core.autocrlf checkout changes its bytes (see .gitattributes)"
        );
    }
    let weights = crlf_checkout(repo, "engine-config/default.weights").unwrap();
    liuzi::policy::Gammas::parse(&weights).expect("the CRLF checkout's weights load");
    let eval = crlf_checkout(repo, "engine-config/default.eval").unwrap();
    liuzi::eval::Evaluator::parse(&eval).expect("the CRLF checkout's evaluator loads");
    let book = crlf_checkout(repo, "engine-config/default.book").unwrap();
    liuzi::book::OpeningBook::parse(&book).expect("the CRLF checkout's book loads");
}
