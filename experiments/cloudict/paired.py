#!/usr/bin/env python3
"""Compares two runs against the same opponent on the same openings, game by game.

usage: paired.py [--opponent NAME] A.jsonl B.jsonl [A2.jsonl B2.jsonl ...]

With --opponent, the side compared is whichever engine is not NAME in each record, e.g.
`--opponent alphabeta` for two MCTS variants' runs against alpha-beta on the same openings
(`experiments/tree-defence/run.sh alphabeta` with BASE, where the compared engine's name differs
between the runs); without it, the engine whose name starts with `liuzi`.

Runs of `run.sh` with the same SEED play the same openings in the same order, and Cloudict is
deterministic, so most games end the same way in both runs (the opening decides them). Only the
games that differ carry information: the sign test on them is far sharper than comparing the
two scores' intervals. Prints Liuzi's points in each run over the games both have, per colour,
and the differing games with a two-sided sign-test p-value. More pairs of files (each pair on
its own openings, e.g. two seeds) are pooled: the games of every pair, one sign test on them all.
"""
import json
import math
import sys


def load(path, opponent=None):
    games = {}
    for line in open(path):
        g = json.loads(line)
        if opponent is None:
            ours = 'B' if g['black'].startswith('liuzi') else 'W'
        else:
            ours = 'W' if g['black'] == opponent else 'B'
        if g['result'] == ours:
            points = 1.0
        elif g['result'] in ('B', 'W'):
            points = 0.0
        else:
            points = 0.5
        games[g['game']] = (ours, points)
    return games


def sign_test(wins, losses):
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def main():
    args = sys.argv[1:]
    opponent = None
    if args[:1] == ['--opponent'] and len(args) > 1:
        opponent, args = args[1], args[2:]
    if not args or len(args) % 2:
        sys.exit(__doc__.strip())
    a, b = {}, {}
    for i in range(0, len(args), 2):
        a.update({(i, k): v for k, v in load(args[i], opponent).items()})
        b.update({(i, k): v for k, v in load(args[i + 1], opponent).items()})
    common = sorted(set(a) & set(b))
    print(f"{len(common)} games in both: A {sum(a[k][1] for k in common)} points, "
          f"B {sum(b[k][1] for k in common)}")
    for colour, name in (('B', 'as Black'), ('W', 'as White')):
        keys = [k for k in common if a[k][0] == colour]
        print(f"  {name}: {len(keys)} games, A {sum(a[k][1] for k in keys)}, "
              f"B {sum(b[k][1] for k in keys)}")
    better_a = sum(1 for k in common if a[k][1] > b[k][1])
    better_b = sum(1 for k in common if a[k][1] < b[k][1])
    print(f"differing games: {better_a + better_b}, A better in {better_a}, B better in "
          f"{better_b}; sign test p = {sign_test(better_a, better_b):.3f}")


if __name__ == '__main__':
    main()
