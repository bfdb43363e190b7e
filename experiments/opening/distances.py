#!/usr/bin/env python3
"""How far early stones land from the stones already on the board (Chebyshev distance).

  distances.py experts FILE.games...          stones played while fewer than 12 are on the board
  distances.py own FILE.games...              per turn 1-6, the share of stones within 1, 2, 3 of
                                              the mover's own stones (the turn's first stone
                                              counts for the second; White's first stone, with
                                              no own stone yet, from Black's)
  distances.py match RESULTS.jsonl ENGINE     ENGINE's stones at its first free turn as Black
                                              (turn 2 of a 3-stone opening), and its score as
                                              Black with and without a stone 3 or more away

The figures behind `search.opening_stones` (docs/search.md, the opening).
"""
import collections
import json
import sys


def point(name):
    return ord(name[0]) - ord('a'), int(name[1:])


def distance(p, stones):
    return min(max(abs(p[0] - q[0]), abs(p[1] - q[1])) for q in stones)


def turns(moves):
    return [turn.split('-') for turn in moves.split()]


def games(path):
    """The turns of every game of a `.games` file."""
    with open(path) as f:
        for line in f:
            fields = line.rstrip('\n').split('\t')
            if len(fields) >= 2:
                yield turns(fields[1])


def experts(paths):
    for path in paths:
        counts = collections.Counter()
        for game in games(path):
            board = []
            for n, turn in enumerate(game):
                for s in turn:
                    if n >= 2 and len(board) < 12:
                        counts[min(distance(point(s), board), 5)] += 1
                board += [point(s) for s in turn]
        total = sum(counts.values())
        shares = ', '.join(f'{d}: {100 * c / total:.1f}%' for d, c in sorted(counts.items()))
        print(f'{path}: {total} stones; distance {shares}')


def own(paths):
    for path in paths:
        within = collections.Counter()
        total = collections.Counter()
        for game in games(path):
            stones = {0: [], 1: []}
            for n, turn in enumerate(game[:7]):
                side = n % 2
                for s in turn:
                    p = point(s)
                    if n >= 1:
                        d = distance(p, stones[side] or stones[1 - side])
                        total[n] += 1
                        for r in (1, 2, 3):
                            within[(n, r)] += d <= r
                    stones[side].append(p)
        print(path)
        for n in sorted(total):
            shares = ', '.join(f'within {r}: {100 * within[(n, r)] / total[n]:.1f}%' for r in (1, 2, 3))
            print(f'  turn {n}: {total[n]} stones; {shares}')


def match(path, engine):
    counts = collections.Counter()
    score = collections.Counter()
    with open(path) as f:
        for line in f:
            game = json.loads(line)
            if game['black'] != engine:
                continue
            moves = turns(game['moves'])
            if len(moves) < 3:
                continue
            board = [point(s) for turn in moves[:2] for s in turn]
            far = False
            for s in moves[2]:
                d = distance(point(s), board)
                counts[d] += 1
                far |= d >= 3
            score[(far, game['result'] == 'B')] += 1
    print(f'{engine} as Black, first free turn: distance {dict(sorted(counts.items()))}')
    for far in (False, True):
        won, lost = score[(far, True)], score[(far, False)]
        print(f'  {"a stone 3+ away" if far else "all within 2"}: {won}-{lost} as Black')


if __name__ == '__main__':
    if len(sys.argv) >= 3 and sys.argv[1] == 'experts':
        experts(sys.argv[2:])
    elif len(sys.argv) >= 3 and sys.argv[1] == 'own':
        own(sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == 'match':
        match(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
