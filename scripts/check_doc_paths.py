#!/usr/bin/env python3
"""Every file the docs name exists.

Checks the repository paths written in docs/*.md and experiments/README.md (under experiments/,
scripts/, docs/, engine-config/, src/, tests/, tools/) and the relative links of their markdown.
A path written as a pattern (a placeholder such as VARIANT or NAME, `<set>`, `[-TAG]`, an
ellipsis) is skipped. A path that left the tree passes when its line names a commit that holds it
(e.g. "at commit 9cbdfd9"). Prints each missing path as PAGE:LINE: PATH; exits 1 if any.

Usage: python3 scripts/check_doc_paths.py (from anywhere in the repository)
"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
TOP = r"(?:experiments|scripts|docs|engine-config|src|tests|tools)"
PATH = re.compile(r"(?<![\w/.-])(" + TOP + r"/[\w./-]*[\w/])")
LINK = re.compile(r"\]\(([^)\s]+)\)")
COMMIT = re.compile(r"\b[0-9a-f]{7,40}\b")
PLACEHOLDER = re.compile(r"[A-Z]{3,}")


def in_commit(rev, path):
    return subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{rev}:{path}"],
                          capture_output=True).returncode == 0


def main():
    pages = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "experiments" / "README.md"]
    missing = 0
    for page in pages:
        rel = page.relative_to(ROOT)
        for n, line in enumerate(page.read_text().splitlines(), 1):
            found = []
            for m in PATH.finditer(line):
                path = m.group(1)
                name = path.rstrip("/").rsplit("/", 1)[-1]
                pattern = any(c in line[m.end(1):m.end(1) + 2] for c in "[<…*")
                if pattern or (PLACEHOLDER.search(name) and not name.startswith("README")):
                    continue
                found.append((path, ROOT / path))
            for m in LINK.finditer(line):
                target = m.group(1).split("#")[0]
                if target and not target.startswith(("http:", "https:", "mailto:")):
                    found.append((target, page.parent / target))
            for shown, full in found:
                if full.exists():
                    continue
                resolved = full.resolve()
                inside = resolved.is_relative_to(ROOT)
                repo_path = resolved.relative_to(ROOT) if inside else None
                if repo_path and any(in_commit(rev, repo_path) for rev in COMMIT.findall(line)):
                    continue
                print(f"{rel}:{n}: {shown}")
                missing = 1
    return missing


if __name__ == "__main__":
    sys.exit(main())
