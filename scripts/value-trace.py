#!/usr/bin/env python3
"""How Liuzi's own view of its games went, by colour and result: the root's win rate at its
first searched stone, and the stone at which it first fell below 10% (the game's value seen as
lost), and how the games went where the opening book played some of Liuzi's stones and where
it played none. Reads a run's results file and Liuzi's engine log (`liuzi -v`, as the match scripts keep it
under target/; cut into games by scripts/engine_log.py). Where the losses were seen lost early,
the turns that decided them were quiet ones; where the value held until late, tactics.

Usage: value-trace.py LOG RESULTS [ENGINE]   (LOG: the engine's log, or the run's log folder when
several games ran at once; ENGINE: Liuzi's name in the results, default liuzi)."""
import json, re, statistics, sys

from engine_log import game_lines

STONE = re.compile(r"stone (\d+) (black|white) \S+: Searched,.*? win ([\d.]+)%")
BOOK = "from the opening book"
LOST_BELOW = 10.0


def main():
    log, results = sys.argv[1], sys.argv[2]
    engine = sys.argv[3] if len(sys.argv) > 3 else "liuzi"
    lines = game_lines(log, results)
    groups = {}
    book = {}
    for line in open(results):
        record = json.loads(line)
        colour = "black" if record["black"] == engine else "white"
        if record[colour] != engine:
            continue
        searched = [(int(m.group(1)), float(m.group(3)))
                    for m in map(STONE.search, lines.get(record["game"], [])) if m
                    and m.group(2) == colour]
        if not searched:
            continue
        won = record["result"] == colour[0].upper()
        used_book = any(BOOK in line for line in lines.get(record["game"], []))
        tally = book.setdefault((colour, used_book), [0, 0])
        tally[0 if won else 1] += 1
        lost_at = next((n for n, v in searched if v < LOST_BELOW), None)
        groups.setdefault((colour, "won" if won else "lost"), []).append((searched[0][1], lost_at))
    for (colour, outcome), rows in sorted(groups.items()):
        first = [f for f, _ in rows]
        seen = sorted(n for _, n in rows if n is not None)
        median = f", median stone {statistics.median(seen):g}" if seen else ""
        print(f"{colour} {outcome}: {len(rows)} games; first searched value mean {statistics.mean(first):.0f}%, "
              f"{sum(f < LOST_BELOW for f in first)} below {LOST_BELOW:g}%; fell below "
              f"{LOST_BELOW:g}% in {len(seen)}{median}")

    for (colour, used_book), (won, lost) in sorted(book.items()):
        print(f"{colour} with {'some' if used_book else 'no'} stones from the book: {won}-{lost}")


if __name__ == "__main__":
    main()
