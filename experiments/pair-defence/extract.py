#!/usr/bin/env python3
"""Positions where tactics-audit found a defending pair that the side to move did not play.

Usage: extract.py RUN... > positions.tsv, where each RUN names experiments/cloudict/
liuzi-vs-cloudict-RUN.jsonl and target/audit/RUN.err holds the audit's verbose output:
  target/release/tactics-audit experiments/cloudict/liuzi-vs-cloudict-RUN.jsonl \
      --engine liuzi --nodes 100000 -v 2> target/audit/RUN.err
Columns: run, game, turn, side that missed it, the stones before the turn (.games notation),
the audit's pair (GTP letters).
"""
import json
import re
import sys
from pathlib import Path

root = Path(__file__).resolve().parents[2]
for run in sys.argv[1:]:
    games = {}
    for line in open(root / f"experiments/cloudict/liuzi-vs-cloudict-{run}.jsonl"):
        if line.strip():
            g = json.loads(line)
            games[g["game"]] = g
    for line in open(root / f"target/audit/{run}.err"):
        m = re.match(r"\s+game (\d+) turn (\d+): (\S+) could defend with (\S+) (\S+)", line)
        if not m:
            continue
        turns = games[int(m[1])]["moves"].split()[: int(m[2])]
        print(f"{run}\t{m[1]}\t{m[2]}\t{m[3]}\t{' '.join(turns)}\t{m[4]} {m[5]}")
