#!/usr/bin/env python3
"""Liuzi's own match games as `.games` records: training positions for the evaluator labelled
by how games between engines went on from them, not by how expert humans' games ended.

Reads every results file (`.jsonl`, one game a line, as liuzi-match writes them) under the
given folders, keeps the games between Liuzi engines (any folder but `cloudict/` and `spsa/`:
games with another program in them are left out, so that the evaluator learns no one
opponent's habits) that ended on a six or a full board, drops repeats of the same moves, and
writes `result<TAB>moves` lines (../shared/data/README.md) to stdout, in a fixed order.

Usage: python3 scripts/engine_games.py [--rev REV]... [FOLDER...] > target/engine.games
  FOLDER     default: every folder of experiments/ but cloudict and spsa; a folder named
             here is read whatever its name (`experiments/cloudict`: the games against
             Cloudict, which the evaluator is not trained on: docs/evaluator.md)
  --rev REV  the results files as commit REV has them (git show), not as the working tree
             does: the same games whatever runs were added since (docs/evaluator.md, training).
             Repeated, the union of those commits' files (runs leave the tree once superseded,
             so an older commit holds games a newer one does not); repeated games are kept once
"""
import json
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
EXPERIMENTS = HERE.parent / "experiments"
LEFT_OUT = {"cloudict", "spsa"}
ENDS = {"six", "full_board"}


def folders(args):
    if args:
        missing = [a for a in args if not pathlib.Path(a).is_dir()]
        if missing:
            sys.exit(f"engine_games.py: not a folder: {', '.join(missing)}")
        return [pathlib.Path(a) for a in args]
    return sorted(p for p in EXPERIMENTS.iterdir() if p.is_dir() and p.name not in LEFT_OUT)


def results_files(args, revs):
    """(name, text) of every results file, in a fixed order: the working tree's, or those of each
    of the commits `revs` in turn (a file in several is read in each, its games kept once)."""
    if not revs:
        for folder in folders(args):
            for path in sorted(folder.rglob("*.jsonl")):
                yield str(path), path.read_text()
        return
    root = EXPERIMENTS.parent
    for rev in revs:
        yield from rev_files(root, args, rev)


def rev_files(root, args, rev):
    """(name, text) of the results files of commit `rev`, in a fixed order."""
    for a in args:
        if not pathlib.Path(a).resolve().is_relative_to(root):
            sys.exit(f"engine_games.py: {a} is not inside the repository {root}")
    listing = subprocess.run(["git", "-C", str(root), "ls-tree", "-r", "--name-only", rev,
                              "experiments/"], check=True, capture_output=True, text=True).stdout
    # Without folders, those of experiments/ as REV has them: most runs have left the tree since.
    wanted = [str(pathlib.Path(a).resolve().relative_to(root)) for a in args] or sorted(
        {"/".join(n.split("/")[:2]) for n in listing.splitlines() if n.count("/") >= 2}
        - {f"experiments/{name}" for name in LEFT_OUT})
    names = [n for n in listing.splitlines() if n.endswith(".jsonl")
             and any(n.startswith(w + "/") for w in wanted)]
    for name in sorted(names):
        text = subprocess.run(["git", "-C", str(root), "show", f"{rev}:{name}"], check=True,
                              capture_output=True, text=True).stdout
        yield name, text


def main(args):
    if args[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return
    revs = []
    while args[:1] == ["--rev"]:
        if len(args) < 2:
            sys.exit("engine_games.py: --rev needs a commit")
        revs.append(args[1])
        args = args[2:]
    seen = set()
    kept = skipped = 0
    for path, text in results_files(args, revs):
        for n, line in enumerate(text.splitlines(), 1):
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
