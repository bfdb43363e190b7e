#!/usr/bin/env python3
"""How much of a colour-swapped match its openings decide: for each results file (liuzi-match
`.jsonl`), the share of complete pairs where each side won its game as Black (or each as White),
which says nothing about which engine is stronger, and Black's share of all games.

A pair split by colour carries no information on the two engines; only the other pairs do. So
the share of split pairs is what an opening set costs a match: at 75% split, a 200-game match
decides on 25 pairs.

Usage: python3 experiments/opening/colour_split.py RESULTS.jsonl...
"""
import json
import sys


def main(paths):
    if not paths:
        sys.exit(__doc__.strip().splitlines()[-1])
    print(f"{'results':60s} {'pairs':>5s} {'split':>6s} {'decisive':>8s} {'Black':>6s}")
    for path in paths:
        try:
            games = [json.loads(line) for line in open(path) if line.strip()]
        except (OSError, json.JSONDecodeError) as e:
            sys.exit(f"colour_split.py: {path}: {e}")
        pairs = {}
        for g in games:
            pairs.setdefault(g["pair"], []).append(g)
        full = [p for p in pairs.values() if len(p) == 2]
        if not full:
            print(f"{path:60s} no complete pairs")
            continue
        split = sum(1 for a, b in full if a["result"] == b["result"] and a["result"] in ("B", "W"))
        # A decisive pair: one engine won both games.
        decisive = sum(1 for a, b in full if winner(a) is not None and winner(a) == winner(b))
        black = sum(1.0 if g["result"] == "B" else 0.5 if g["result"] == "D" else 0.0
                    for g in games)
        print(f"{path:60s} {len(full):5d} {split / len(full):6.2f} {decisive / len(full):8.2f} "
              f"{black / len(games):6.2f}")


def winner(game):
    """The engine that won `game`, or None on a draw."""
    if game["result"] == "B":
        return game["black"]
    if game["result"] == "W":
        return game["white"]
    return None


if __name__ == "__main__":
    main(sys.argv[1:])
