#!/usr/bin/env python3
"""Where the opponent's setting-up turn stood in Liuzi's prior, for each loss that starts lost
already: is the quiet turn that left no defence among the tree's candidates at all?

usage: setup_rank.py RESULTS.jsonl AUDIT.txt [ENGINE]

AUDIT.txt is `tactics-audit RESULTS --engine ENGINE --nodes 100000 -v > AUDIT.txt 2>&1`. For each
game ENGINE lost whose first mistake is "lost already" at turn T, the opponent's turn T-1 (the
turn after which no pair of ENGINE's broke its VCDT) is looked up in `liuzi-policy` (the shipped
engine's prior, GTP) at the position before it: the rank of each of its two stones among the
first stones, and the rank of the lower-ranked one as the partner of the other. The tree keeps
the best `max_children` (48) children of a node by this prior, so a rank past 48 is a turn the
tree never looks at. Run from the repository's root after `cargo build --release`.
"""
import subprocess

from audit_lines import arguments, first_mistakes, gtp


def ranking(turns):
    """The cells of `liuzi-policy` at the position of `turns`, best first."""
    commands = []
    for t, turn in enumerate(turns):
        colour = 'b' if t % 2 == 0 else 'w'
        commands += [f'play {colour} {gtp(s)}' for s in turn.split('-')]
    commands.append('liuzi-policy')
    out = subprocess.run(['target/release/liuzi', 'gtp'], input='\n'.join(commands) + '\n',
                         capture_output=True, text=True, check=True).stdout
    line = next(l for l in out.splitlines() if 'INFLUENCE' in l)
    words = line.split('INFLUENCE', 1)[1].split()
    return words[0::2]


def rank(cells, stone):
    return cells.index(gtp(stone)) + 1 if gtp(stone) in cells else None


def main():
    games, audit, engine = arguments(__doc__)
    print('game colour turn setup first-stone-ranks partner-rank candidates')
    for game, turn in first_mistakes(audit, 'LostAlready').items():
        g = games[game]
        turns = g['moves'].split()
        setup = turns[turn - 1].split('-')
        before = turns[:turn - 1]
        cells = ranking(before)
        ranks = [rank(cells, s) for s in setup]
        if len(setup) < 2 or None in ranks:
            continue
        a, b = (setup[0], setup[1]) if ranks[0] <= ranks[1] else (setup[1], setup[0])
        partner = rank(ranking(before + [a]), b)
        colour = 'B' if g['black'] == engine else 'W'
        print(game, colour, turn, '-'.join(setup), ranks, partner, len(cells))


if __name__ == '__main__':
    main()
