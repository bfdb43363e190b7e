#!/usr/bin/env python3
"""How much of a game clock each engine of a liuzi-match run used (docs/time-control.md, the game clock).

Usage: clock_use.py MAIN_SECONDS RESULTS.jsonl...

Per engine: games, the median and mean share of its main time used (`time_ms` of each game, as
the runner measured it), the share of games in which it used more than 90%, the games it
ended past its clock and by how much at most, and the median number of the game's turns
(both sides; a game's first stone counts as a turn).
"""
import json
import statistics
import sys
from collections import defaultdict


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    main_seconds = float(sys.argv[1])
    used = defaultdict(list)
    turns = []
    for path in sys.argv[2:]:
        with open(path) as f:
            for line in f:
                game = json.loads(line)
                turns.append(len(game["moves"].split()))
                for engine, ms in zip((game["black"], game["white"]), game["time_ms"]):
                    used[engine].append(ms / 1000 / main_seconds)
    print(f"{len(turns)} games, median {statistics.median(turns):g} turns (both sides)")
    print(
        f"{'engine':<16}{'games':>7}{'median used':>13}{'mean used':>11}{'> 90%':>8}"
        f"{'past it':>9}{'most past':>11}"
    )
    for engine, shares in sorted(used.items()):
        high = sum(s > 0.9 for s in shares) / len(shares)
        past = [s for s in shares if s > 1.0]
        most = (max(past) - 1.0) * main_seconds if past else 0.0
        print(
            f"{engine:<16}{len(shares):>7}{statistics.median(shares):>12.0%}"
            f"{statistics.mean(shares):>11.0%}{high:>8.0%}{len(past):>9}{most:>10.3f}s"
        )


if __name__ == "__main__":
    main()
