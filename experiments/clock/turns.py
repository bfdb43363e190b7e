#!/usr/bin/env python3
"""Time use per two-stone turn from engine stderr logs (liuzi -v per-stone lines, as budget.py
reads them): turns searched (either stone Searched) against turns decided without a search
(forced, proven), and the share of the turn's time T the searched turns used.
Usage: turns.py T LOG...   (T = seconds per turn, e.g. 1 for liuzi-match st=1)"""
import re, sys
pat = re.compile(r"stone (\d+) (\w+) \S+: (\w+), ([\d.]+) s of ([\d.]+) s")
turn = float(sys.argv[1])
for path in sys.argv[2:]:
    searched, unsearched, used = 0, 0, 0.0
    first = None  # (stone number, colour, decision, seconds) of a turn's first stone
    for line in open(path, errors="replace"):
        m = pat.search(re.sub(r"\x1b\[[0-9;]*m", "", line))
        if not m:
            continue
        n, colour, kind, secs = int(m.group(1)), m.group(2), m.group(3), float(m.group(4))
        if n % 2 == 0:  # stone 2, 4, ...: the first of a two-stone turn
            first = (n, colour, kind, secs)
            continue
        if first is None or first[0] + 1 != n or first[1] != colour:
            first = None
            continue
        if "Searched" in (first[2], kind):
            searched += 1
            used += first[3] + secs
        else:
            unsearched += 1
        first = None
    share = used / max(searched, 1) / turn
    print(f"{path}: {searched} turns searched, {unsearched} forced or proven; searched turns used "
          f"{used / max(searched, 1):.3f} s of {turn:g} s ({100 * share:.0f}%)")
