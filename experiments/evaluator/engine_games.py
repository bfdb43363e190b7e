#!/usr/bin/env python3
"""Liuzi's own match games as `.games` records: training positions for the evaluator labelled
by how games between engines went on from them, not by how expert humans' games ended.

Reads every results file (`.jsonl`, one game a line, as liuzi-match writes them) under the
given folders, keeps the games between Liuzi engines (any folder but `cloudict/` and `spsa/`:
games with another program in them are left out, so that the evaluator learns no one
opponent's habits) that ended on a six or a full board, drops repeats of the same moves, and
writes `result<TAB>moves` lines (../shared/data/README.md) to stdout, in a fixed order.

Usage: python3 experiments/evaluator/engine_games.py [FOLDER...] > target/engine.games
  FOLDER  default: every folder of experiments/ but cloudict and spsa
"""
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
EXPERIMENTS = HERE.parent
LEFT_OUT = {"cloudict", "spsa"}
ENDS = {"six", "full_board"}


def folders(args):
    if args:
        return [pathlib.Path(a) for a in args]
    return sorted(p for p in EXPERIMENTS.iterdir() if p.is_dir() and p.name not in LEFT_OUT)


def main(args):
    seen = set()
    kept = skipped = 0
    for folder in folders(args):
        for path in sorted(folder.rglob("*.jsonl")):
            for n, line in enumerate(path.read_text().splitlines(), 1):
                try:
                    game = json.loads(line)
                except json.JSONDecodeError:
                    sys.exit(f"{path}:{n}: not JSON")
                moves = game.get("moves")
                result = game.get("result")
                if (not moves or game.get("size", 19) != 19 or game.get("reason") not in ENDS
                        or result not in ("B", "W", "D")):
                    skipped += 1
                    continue
                if moves in seen:
                    skipped += 1
                    continue
                seen.add(moves)
                print(f"{result}\t{moves}")
                kept += 1
    print(f"engine_games.py: {kept} games kept, {skipped} left out", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
