#!/usr/bin/env python3
"""How many openings of a match the opening book answers: for each colour-swapped pair of
RESULTS (its first game's 3-stone opening, B then WW), the engine is set up on the opening and
asked for Black's turn, and its log says whether the stone came from the book.

  book_hits.py RESULTS.jsonl [LIUZI_ARGS...]     e.g. `--config FILE.toml` to vary the book

Needs `cargo build --release` (target/release/liuzi). The figure of docs/README-strength.md
section 16 (the book off the centre).
"""
import json
import os
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
LIUZI = os.path.join(ROOT, 'target', 'release', 'liuzi')
GTP_COLUMNS = 'ABCDEFGHJKLMNOPQRST'


def gtp(stone):
    """A results file's stone (`k10`: column a..s, i included) in GTP letters (no I)."""
    return GTP_COLUMNS[ord(stone[0]) - ord('a')] + stone[1:]


def main():
    results, extra = sys.argv[1], sys.argv[2:]
    games = [json.loads(line) for line in open(results)][::2]
    hits = []
    for game in games:
        black, whites = game['moves'].split()[:2]
        w1, w2 = whites.split('-')
        commands = (f'play b {gtp(black)}\nplay w {gtp(w1)}\nplay w {gtp(w2)}\n'
                    'time_settings 0 1 2\ngenmove b\nquit\n')
        run = subprocess.run([LIUZI, 'gtp', '--threads', '1', '-v', *extra],
                             input=commands, capture_output=True, text=True, check=True)
        if 'from the opening book' in run.stderr:
            hits.append(game['game'])
    print(f'{len(hits)} of {len(games)} openings answered from the book: games {hits}')


if __name__ == '__main__':
    main()
