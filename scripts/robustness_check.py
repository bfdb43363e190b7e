#!/usr/bin/env python3
"""Checks the robustness matches (run.sh): every game of every condition ended on the board (a
six or a full board), and no engine log holds a warning or an error. Prints one row a condition
and exits 1 when a check fails.

Usage: check.py RESULTS_DIR LOG_ROOT  (as run.sh calls it: the folder of the .jsonl files and
target/robustness-run, whose logs-CONDITION/ folders hold the engines' stderr)."""
import collections
import glob
import json
import os
import sys

ON_THE_BOARD = {"six", "full_board"}


def check(results_dir, log_root):
    failures = []
    print(f"{'condition':<10} {'games':>5}  {'ends':<28} {'mcts':>9}  {'log lines':>9}  warnings/errors")
    for path in sorted(glob.glob(os.path.join(results_dir, "*.jsonl"))):
        name = os.path.basename(path)[: -len(".jsonl")]
        with open(path) as f:
            games = [json.loads(line) for line in f if line.strip()]
        ends = collections.Counter(g["reason"] for g in games)
        for g in games:
            if g["reason"] not in ON_THE_BOARD:
                failures.append(f"{name}: game {g['game']} ended '{g['reason']}'")
        points = sum(
            1.0 if g["result"] == ("B" if g["black"] == "mcts" else "W") else 0.5 if g["result"] == "D" else 0.0
            for g in games
        )
        lines = 0
        flagged = []
        logs = sorted(glob.glob(os.path.join(log_root, f"logs-{name}", "*.log")))
        if not logs:
            failures.append(f"{name}: no engine logs in {log_root}/logs-{name}")
        for log in logs:
            with open(log, errors="replace") as f:
                for line in f:
                    lines += 1
                    if " WARN " in line or " ERROR " in line or "panicked" in line:
                        flagged.append(f"{os.path.basename(log)}: {line.strip()}")
        failures += [f"{name}: {x}" for x in flagged]
        ends_text = ", ".join(f"{k} {v}" for k, v in sorted(ends.items()))
        print(f"{name:<10} {len(games):>5}  {ends_text:<28} {points:>4.1f}/{len(games):<4} {lines:>9}  {len(flagged)}")
    for failure in failures:
        print("FAIL", failure)
    print("all games ended on the board, no warnings or errors" if not failures else f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(check(sys.argv[1], sys.argv[2]))
