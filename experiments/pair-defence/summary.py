#!/usr/bin/env python3
"""Counts of run.sh output: positions where each search found a defending pair, in all and in
Liuzi's own positions. Usage: summary.py OUT..."""
import sys

for path in sys.argv[1:]:
    counts = {"all": [0, 0, 0], "liuzi": [0, 0, 0]}
    for line in open(path):
        cols = line.rstrip("\n").split("\t")
        zones, single = cols[5].split("|")[:2]
        found = [": none" not in zones and "no threat" not in zones and "unknown" not in zones,
                 ": none" not in single and "no threat" not in single and "unknown" not in single]
        for key in ["all"] + (["liuzi"] if cols[3] == "liuzi" else []):
            counts[key][0] += 1
            counts[key][1] += found[0]
            counts[key][2] += found[1]
    for key, (n, z, s) in counts.items():
        print(f"{path}: {key} {n} positions; found by proof zones {z}, one first stone at a time {s}")
