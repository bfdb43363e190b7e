#!/usr/bin/env python3
"""The turns' first stones a match searched slowly (under 1,000 playouts a second: the opponent's
threat made the tree's solves and the root's checks take the time), asked again of a fresh engine
at 1 s and at 4 s a turn: does the stone the game played agree with a fresh search, and with one
four times as long? Reads the run's results file and Liuzi's engine log (`liuzi -v`, as the match
scripts keep it under target/; cut into games by scripts/engine_log.py).

Usage: threat-positions.py LOG RESULTS [LIUZI]   (LOG: the engine's log, or the run's log folder
when several games ran at once; LIUZI: the engine binary, default target/release/liuzi). One line
a position, then the counts; docs/results.md quotes them."""
import json, re, subprocess, sys

from engine_log import game_lines

LETTERS = "ABCDEFGHJKLMNOPQRST"
STONE = re.compile(r"stone (\d+) (\w+) (\S+): Searched, ([\d.]+) s of ([\d.]+) s, (\d+) playouts "
                   r"\((\d+)/s, (\d+) reused")


def gtp(cell):
    """A record's a..s column (with i) and row as a GTP vertex."""
    return LETTERS[ord(cell[0]) - ord("a")] + cell[1:]


def colour(n):
    """The colour of stone n (0-based): B, then WW, BB, ..."""
    return "b" if n == 0 or ((n - 1) // 2) % 2 == 1 else "w"


def slow_first_stones(log, results):
    lines = game_lines(log, results)
    cases = []
    for line in open(results):
        record = json.loads(line)
        stones = [gtp(s) for turn in record["moves"].split() for s in turn.split("-")]
        for logged in lines.get(record["game"], []):
            m = STONE.search(logged)
            if not m:
                continue
            n, played, rate = int(m.group(1)), m.group(3), int(m.group(7))
            if rate < 1000 and n - 1 < len(stones) and stones[n - 1] == played:
                cases.append((record["game"], stones[:n - 1], played))
    return cases


def ask(liuzi, prefix, turn_seconds):
    cmds = ["boardsize 19", "clear_board", f"time_settings 0 {turn_seconds} 2"]
    cmds += [f"play {colour(i)} {s}" for i, s in enumerate(prefix)]
    cmds += [f"genmove {colour(len(prefix))}", "quit"]
    out = subprocess.run([liuzi, "--threads", "1", "gtp"], input="\n".join(cmds) + "\n",
                         capture_output=True, text=True, check=True).stdout
    return [l[2:] for l in out.split("\n") if l.startswith("= ") and len(l) > 2][-1]


def main():
    log, results = sys.argv[1], sys.argv[2]
    liuzi = sys.argv[3] if len(sys.argv) > 3 else "target/release/liuzi"
    cases = slow_first_stones(log, results)
    agree = {"game=1s": 0, "game=4s": 0, "1s=4s": 0, "changed": 0, "changed to 4s": 0}
    for game, prefix, played in cases:
        one, four = ask(liuzi, prefix, 1), ask(liuzi, prefix, 4)
        agree["game=1s"] += played == one
        agree["game=4s"] += played == four
        agree["1s=4s"] += one == four
        agree["changed"] += played != one
        agree["changed to 4s"] += played != one and one == four
        print(f"game {game} stone {len(prefix) + 1}: played {played}, fresh 1 s {one}, fresh 4 s {four}",
              flush=True)
    print(f"{len(cases)} positions; " + ", ".join(f"{k} {v}" for k, v in agree.items()))


if __name__ == "__main__":
    main()
