#!/usr/bin/env python3
"""How far Liuzi's later free pairs as Black lie from its own stones, against the game's result.

usage: later_pair.py [--turn T] RESULTS.jsonl...

For each game where Liuzi is Black, the pair it played on turn T (4 by default: its second free
turn after a 3-stone opening, B / WW / BB / WW / here) is measured as `pair_distance.py`
measures first pairs: its chained distance from Black's stones. Turns where White already
threatens a six (a window of six with four White stones and no Black one) are forced answers,
not choices, and are left out. Prints Black's wins per distance over all the files, then the
same split within openings: over the openings (the first two turns, whatever the file) where
Liuzi played both a distance-1 pair and a farther one on that turn, in different runs, the wins
of each kind. That comparison holds the opening fixed; it does not hold fixed what the
opponent did before the turn, so a far pair may still be the answer to a worse position.
"""
import json
import sys
from collections import Counter, defaultdict

from pair_distance import chained, point

SIZE = 19


def white_threatens(black, white):
    stones = {p: 'B' for p in black}
    stones.update({p: 'W' for p in white})
    for x in range(1, SIZE + 1):
        for y in range(1, SIZE + 1):
            for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                window = [(x + dx * i, y + dy * i) for i in range(6)]
                if not all(1 <= a <= SIZE and 1 <= b <= SIZE for a, b in window):
                    continue
                kinds = [stones.get(c) for c in window]
                if kinds.count('W') >= 4 and 'B' not in kinds:
                    return True
    return False


def main():
    args = sys.argv[1:]
    turn = 4
    if args[:1] == ['--turn']:
        turn, args = int(args[1]), args[2:]
    if not args or turn % 2:
        sys.exit(__doc__.strip())
    table = Counter()
    forced = 0
    by_opening = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for path in args:
        for line in open(path):
            g = json.loads(line)
            turns = g['moves'].split()
            if not g['black'].startswith('liuzi') or len(turns) <= turn:
                continue
            black = [point(s) for t in turns[0:turn:2] for s in t.split('-')]
            white = [point(s) for t in turns[1:turn:2] for s in t.split('-')]
            if white_threatens(black, white):
                forced += 1
                continue
            pair = [point(s) for s in turns[turn].split('-')]
            if len(pair) != 2:
                continue
            d = min(chained(black, pair), 4)
            won = g['result'] == 'B'
            table[(d, won)] += 1
            cell = by_opening[' '.join(turns[:2])][d > 1]
            cell[0] += 1
            cell[1] += won
    print(f'Black turn {turn}: {forced} forced (White threatens six) left out')
    print('chained distance  games  Black won')
    for d in range(1, 5):
        won, lost = table[(d, True)], table[(d, False)]
        if won + lost:
            label = f'{d}+' if d == 4 else f'{d}'
            print(f'{label:>16}  {won + lost:5}  {won:4} ({100 * won / (won + lost):.0f}%)')
    both = [v for v in by_opening.values() if len(v) == 2]
    near = [sum(v[False][i] for v in both) for i in (0, 1)]
    far = [sum(v[True][i] for v in both) for i in (0, 1)]
    print(f'{len(both)} openings with both kinds: distance 1 won {near[1]} of {near[0]}, '
          f'farther {far[1]} of {far[0]}')


if __name__ == '__main__':
    main()
