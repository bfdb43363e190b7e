#!/usr/bin/env python3
"""One engine's score over several match runs, each and pooled.

Usage: pooled.py ENGINE RUN.jsonl [RUN.jsonl ...]

ENGINE is the engine's name in the records (e.g. `default`, or `expand4` for a variant). For each
run and for all of them together it prints the games, wins-losses-draws, the score, Elo with a 95%
interval from the per-game variance (draws count half), and the colour-swapped pairs one engine
won both games of (the pairs that say something about the engines; a pair split by colour says
only that the opening favours one side). Several runs of the same two engines on different
openings are pooled so, e.g. the key ablation over its seeds (docs/results.md).
"""
import json
import math
import sys
from collections import defaultdict


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def points(game, engine):
    """ENGINE's points in one game record, or None if it did not play in it."""
    if engine == game["black"]:
        colour = "B"
    elif engine == game["white"]:
        colour = "W"
    else:
        return None
    result = game["result"]
    if result == colour:
        return 1.0
    if result in ("B", "W"):
        return 0.0
    return 0.5


def summary(label, scores, pairs):
    n = len(scores)
    if n == 0:
        return f"{label}: no games"
    wins = scores.count(1.0)
    losses = scores.count(0.0)
    mean = sum(scores) / n
    var = sum((s - mean) ** 2 for s in scores) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    both_for = sum(1 for p in pairs if p == 2.0)
    both_against = sum(1 for p in pairs if p == 0.0)
    return (
        f"{label}: {n} games, {wins}-{losses}-{n - wins - losses} ({100 * mean:.1f}%), "
        f"Elo {elo(mean):+.0f} ({elo(mean - half):+.0f} .. {elo(mean + half):+.0f}); "
        f"pairs won both {both_for}, lost both {both_against} of {len(pairs)}"
    )


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    engine = argv[1]
    pooled, pooled_pairs = [], []
    for path in argv[2:]:
        scores = []
        pairs = defaultdict(list)
        try:
            with open(path) as f:
                for number, line in enumerate(f, 1):
                    if not line.strip():
                        continue
                    try:
                        game = json.loads(line)
                        p = points(game, engine)
                    except (ValueError, KeyError) as e:
                        sys.exit(f"{path}:{number}: not a game record ({e})")
                    if p is None:
                        sys.exit(f"{path}:{number}: {engine!r} played neither colour")
                    scores.append(p)
                    pairs[game.get("pair", number)].append(p)
        except OSError as e:
            sys.exit(f"{path}: {e.strerror}")
        whole = [sum(ps) for ps in pairs.values() if len(ps) == 2]
        print(summary(path, scores, whole))
        pooled += scores
        pooled_pairs += whole
    if len(argv) > 3:
        print(summary("pooled", pooled, pooled_pairs))


if __name__ == "__main__":
    main(sys.argv)
