#!/usr/bin/env python3
"""The pair verification's overrules in engine stderr logs (liuzi -v, `search.verify_depth` > 0):
how many stones it overruled, and by how much the judged value of the turn it played exceeded
that of the search's own choice (percentage points; the first turn of each `verify depth` line
is the search's). Usage: overrules.py LOG..."""
import re, sys
line_pat = re.compile(r"verify depth \d+: (.*) -> (\S+) \(.*the search's choice overruled")
for path in sys.argv[1:]:
    margins = []
    for line in open(path, errors="replace"):
        m = line_pat.search(re.sub(r"\x1b\[[0-9;]*m", "", line))
        if not m:
            continue
        judged = {}
        for turn in m.group(1).split(", "):
            *stones, value = turn.split()
            if value != "-":
                judged.setdefault(stones[0], float(value.rstrip("%")))
        own = float(m.group(1).split(", ")[0].split()[-1].rstrip("%"))
        margins.append(judged[m.group(2)] - own)
    if not margins:
        print(f"{path}: no overrules")
        continue
    margins.sort()
    n = len(margins)
    under5 = sum(d < 5 for d in margins)
    print(f"{path}: {n} overrules; margin median {margins[n // 2]:.1f} points, "
          f"quartiles {margins[n // 4]:.1f} .. {margins[3 * n // 4]:.1f}; under 5 points: {under5} ({100 * under5 / n:.0f}%)")
