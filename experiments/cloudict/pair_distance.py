#!/usr/bin/env python3
"""How far a re-asked first free pair lies from its side's own stones, against whether it kept the win.

    pair_distance.py RESULTS [ASK.jsonl...]
    pair_distance.py --games FILE.games

RESULTS is the match file the `selfplay.py ask` records were asked from (its openings);
each ASK line holds the pair Liuzi gave (`liuzi`) and who won when Cloudict played both sides
on (`winner`). With no ASK file, the pairs are Liuzi's own first free turns as Black in RESULTS
(turn 2 of a 3-stone opening), against the game's result. The distance of a pair is its *chained* distance from the mover's own stones:
the larger of the two stones' Chebyshev distances, the second stone measured from the first
too, in whichever order makes it smaller (a pair that extends a stone of its own by two in a
row is at 1). Prints, per distance (4 = 4 or more), how often the pair kept the win.
With `--games`, a record file's games (`RESULT<tab>moves`, e.g. ../shared/data's): the chained
distance of Black's second turn from its first stone, counted per distance.
"""
import json
import sys
from collections import Counter


def point(s):
    return ord(s[0]) - ord('a'), int(s[1:])


def distance(a, b):
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def chained(own, pair):
    def reach(p):
        return min(distance(p, q) for q in own)

    a, b = pair
    return min(max(reach(a), min(reach(b), distance(a, b))),
               max(reach(b), min(reach(a), distance(a, b))))


def record_games(path):
    table = Counter()
    for line in open(path):
        fields = line.rstrip('\n').split('\t')
        turns = fields[1].split() if len(fields) > 1 else []
        if len(turns) > 2 and '-' in turns[2]:
            pair = [point(s) for s in turns[2].split('-')]
            table[min(chained([point(turns[0])], pair), 4)] += 1
    total = sum(table.values())
    print(f'chained distance  games  share  ({total} games)')
    for d in range(1, 5):
        label = f'{d}+' if d == 4 else f'{d}'
        print(f'{label:>16}  {table[d]:5}  {100 * table[d] / max(total, 1):.1f}%')


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if sys.argv[1] == '--games':
        if len(sys.argv) != 3:
            sys.exit(__doc__)
        return record_games(sys.argv[2])
    games = {}
    for line in open(sys.argv[1]):
        g = json.loads(line)
        games[g['game']] = g
    table = Counter()
    if len(sys.argv) == 2:
        for g in games.values():
            turns = g['moves'].split()
            if g['black'].startswith('liuzi') and len(turns) > 2:
                pair = [point(s) for s in turns[2].split('-')]
                d = min(chained([point(turns[0])], pair), 4)
                table[(d, g['result'] == 'B')] += 1
    for path in sys.argv[2:]:
        for line in open(path):
            r = json.loads(line)
            turns = games[r['game']]['moves'].split()[:r['turn']]
            side = 'black' if r['turn'] % 2 == 0 else 'white'
            own = [point(s) for t in turns[r['turn'] % 2::2] for s in t.split('-')]
            d = min(chained(own, [point(s) for s in r['liuzi'].split('-')]), 4)
            table[(d, r['winner'] == side)] += 1
    print('chained distance  pairs  kept the win' if len(sys.argv) > 2 else 'chained distance  games  won')
    for d in range(1, 5):
        kept, lost = table[(d, True)], table[(d, False)]
        if kept + lost:
            label = f'{d}+' if d == 4 else f'{d}'
            print(f'{label:>16}  {kept + lost:5}  {kept:4} ({100 * kept / (kept + lost):.0f}%)')


if __name__ == '__main__':
    main()
