#!/usr/bin/env python3
"""How long games last, and how long they still last once they have reached turn t
(docs/README-strength.md, section 26: the clock's `turn_horizon`).

Usage: game_lengths.py RESULTS.jsonl...

A game's length is its number of turns, both sides' (the first stone is a turn). Lines that
are not match records are skipped.
"""
import json
import statistics
import sys

TURNS = (2, 4, 6, 8, 10, 14, 18, 24, 30)


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    lengths = []
    for path in sys.argv[1:]:
        with open(path) as f:
            for line in f:
                try:
                    lengths.append(len(json.loads(line)["moves"].split()))
                except (ValueError, KeyError):
                    continue
    deciles = statistics.quantiles(lengths, n=10)
    print(f"{len(lengths)} games: median {statistics.median(lengths):g} turns, 90% under {deciles[8]:g}")
    print(f"{'turn t':>7}{'games':>8}{'median left':>13}{'70th pct':>10}{'90th pct':>10}")
    for t in TURNS:
        left = [n - t for n in lengths if n > t]
        if len(left) < 2:
            break
        q = statistics.quantiles(left, n=10)
        print(f"{t:>7}{len(left):>8}{statistics.median(left):>13g}{q[6]:>10g}{q[8]:>10g}")


if __name__ == "__main__":
    main()
