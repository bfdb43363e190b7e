#!/usr/bin/env python3
"""Two engines' runs against the same opponent on the same openings, game by game.

Usage: same-openings.py A A.jsonl B B.jsonl

A and B are the engines' names in their runs (e.g. `tp8p2` in tp8p2-vs-9cbdfd9-expert.jsonl and
`default` in default-vs-9cbdfd9-expert.jsonl). Runs made with the same openings file, seed and
colours number their games alike, so game N is the same opening with the same colour in both.
Over the games both runs hold it prints each engine's points and, of the games whose results
differ, how many went A's way: a sign test on those says more than the two totals' intervals.
"""
import json
import sys

from pooled import points


def load(path, engine):
    games = {}
    for line in open(path):
        record = json.loads(line)
        score = points(record, engine)
        if score is not None:
            games[record["game"]] = score
    return games


def main(argv):
    if len(argv) != 5:
        sys.exit(__doc__)
    a_name, a_path, b_name, b_path = argv[1:]
    a, b = load(a_path, a_name), load(b_path, b_name)
    common = sorted(set(a) & set(b))
    differ = [g for g in common if a[g] != b[g]]
    better = sum(1 for g in differ if a[g] > b[g])
    print(
        f"{len(common)} games on the same openings: {a_name} {sum(a[g] for g in common):g} points, "
        f"{b_name} {sum(b[g] for g in common):g}; {len(differ)} differ, {better} for {a_name}, "
        f"{len(differ) - better} for {b_name}"
    )


if __name__ == "__main__":
    main(sys.argv)
