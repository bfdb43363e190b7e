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


def opening(record, engine):
    """The game's opening stones and whether `engine` had Black: what must match across runs."""
    stones = [s for turn in record["moves"].split() for s in turn.split("-")]
    return stones[: record["opening_stones"]], record["black"] == engine


def load(path, engine):
    """Game number -> (ENGINE's points, the game's opening and ENGINE's colour)."""
    games = {}
    for line in open(path):
        record = json.loads(line)
        score = points(record, engine)
        if score is not None:
            games[record["game"]] = (score, opening(record, engine))
    return games


def main(argv):
    if len(argv) != 5:
        sys.exit(__doc__)
    a_name, a_path, b_name, b_path = argv[1:]
    a, b = load(a_path, a_name), load(b_path, b_name)
    common = sorted(set(a) & set(b))
    for g in common:
        if a[g][1] != b[g][1]:
            sys.exit(f"game {g} opens differently or with other colours in the two runs: not the same openings")
    a = {g: a[g][0] for g in common}
    b = {g: b[g][0] for g in common}
    differ = [g for g in common if a[g] != b[g]]
    better = sum(1 for g in differ if a[g] > b[g])
    print(
        f"{len(common)} games on the same openings: {a_name} {sum(a[g] for g in common):g} points, "
        f"{b_name} {sum(b[g] for g in common):g}; {len(differ)} differ, {better} for {a_name}, "
        f"{len(differ) - better} for {b_name}"
    )


if __name__ == "__main__":
    main(sys.argv)
