#!/usr/bin/env python3
"""Liuzi's score against Cloudict split by what Cloudict makes of each opening against itself.

usage: ceiling.py OPENINGS.jsonl RESULTS.jsonl...

OPENINGS is a `selfplay.py openings` record (one line a pair: who wins when Cloudict plays both
sides from the opening). Each RESULTS file is a `run.sh` match on the same openings (same SEED).
Per file, Liuzi's wins as Black and as White are counted separately on the openings Cloudict's
Black wins and on those its White wins. Liuzi's score can only exceed Cloudict's own by winning
as White where Cloudict's White loses, or keeping the Black openings that Cloudict's Black wins
and winning some it loses: the table shows where a run's points come from and where it leaves
them (docs/README-strength.md, 29).
"""
import json
import sys
from collections import Counter


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.strip())
    selfplay = {}
    for line in open(sys.argv[1]):
        r = json.loads(line)
        selfplay[r['pair']] = r['winner']
    won_by = Counter(selfplay.values())
    print(f"{len(selfplay)} openings: Cloudict's Black wins {won_by['black']}, "
          f"its White {won_by['white']}")
    header = ('run', 'games', 'points', 'B on B-won', 'B on W-won', 'W on B-won', 'W on W-won')
    print('  '.join(f'{h:>16}' if i == 0 else f'{h:>12}' for i, h in enumerate(header)))
    for path in sys.argv[2:]:
        games = Counter()
        wins = Counter()
        points = 0.0
        for line in open(path):
            g = json.loads(line)
            if g['pair'] not in selfplay:
                continue
            ours = 'B' if g['black'].startswith('liuzi') else 'W'
            key = (ours, selfplay[g['pair']])
            games[key] += 1
            if g['result'] == ours:
                wins[key] += 1
                points += 1
            elif g['result'] not in ('B', 'W'):
                points += 0.5
        cells = [f"{wins[(c, w)]}/{games[(c, w)]}" for c in 'BW' for w in ('black', 'white')]
        name = path.rsplit('/', 1)[-1].removesuffix('.jsonl').removeprefix('liuzi-vs-cloudict-')
        print('  '.join(f'{v:>16}' if i == 0 else f'{v:>12}' for i, v in enumerate(
                        [name[-16:], sum(games.values()), f'{points:g}'] + cells)))


if __name__ == '__main__':
    main()
