#!/usr/bin/env python3
"""Budget use of the MCTS from engine stderr logs (liuzi -v): per decision kind, stones, mean
seconds used and the share of the per-stone budget; the searched stones that ended after at most
128 playouts (one or two of the search's batches), over the finished games; then the games'
`time use` lines (one a game): the share of their time the searched turns used, weighted by turns.
Usage: budget.py LOG...   (a LOG that is a folder: its `*.stderr.log` files together, as a match
run with several games at once keeps one a worker)"""
import re, sys
from collections import defaultdict

from engine_log import COLOURS, log_files
pat = re.compile(r"stone (\d+) (\w+) \S+: (\w+), ([\d.]+) s of ([\d.]+) s, (\d+) playouts")
use = re.compile(r"time use: (\d+) turns searched.*searched turns used [\d.]+ s, (\d+)% of their time")
for path in sys.argv[1:]:
    kinds = defaultdict(lambda: [0, 0.0, 0.0, 0])
    games = turns = weighted = 0
    # Searched stones of 128 playouts or fewer: (finished games', the game in progress's).
    short = [[0, 0], [0, 0]]
    # A file's unfinished last game is dropped at the next file (each worker's log its own).
    lines = (line for f in log_files(path) for line in [None, *open(f, errors="replace")])
    for line in lines:
        if line is None:
            short[1] = [0, 0]
            continue
        line = COLOURS.sub("", line)
        u = use.search(line)
        if u:
            games += 1; turns += int(u.group(1)); weighted += int(u.group(1)) * int(u.group(2))
            short[0] = [short[0][i] + short[1][i] for i in range(2)]; short[1] = [0, 0]
        m = pat.search(line)
        if not m:
            continue
        k = kinds[m.group(3)]
        k[0] += 1; k[1] += float(m.group(4)); k[2] += float(m.group(5)); k[3] += int(m.group(6))
        if m.group(3) == "Searched":
            short[1][0] += 1; short[1][1] += int(m.group(6)) <= 128
    total = [sum(v[i] for v in kinds.values()) for i in range(4)]
    print(f"{path}: {total[0]} stones, {total[1]:.1f} s used of {total[2]:.1f} s ({100*total[1]/max(total[2],1e-9):.0f}%)")
    for name, (n, used, budget, playouts) in sorted(kinds.items()):
        print(f"  {name:12} {n:5} stones ({100*n/total[0]:4.1f}%), {used/n:.3f} s of {budget/n:.3f} s a stone "
              f"({100*used/budget:3.0f}%), {playouts/n:.0f} playouts")
    done = short[0] if games else short[1]
    print(f"  searched stones of 128 playouts or fewer: {done[1]} of {done[0]}")
    if turns:
        print(f"  time use: {games} games, {turns} searched turns used {weighted/turns:.1f}% of their time")
