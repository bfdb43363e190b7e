#!/usr/bin/env python3
"""Which of the audit's failed defences were defences: the pair `tactics-audit` found that breaks
the opponent's VCDT, checked again for a win that starts with a single threat.

usage: failed_defences.py RESULTS.jsonl AUDIT.txt [ENGINE]

AUDIT.txt is `tactics-audit RESULTS --engine ENGINE --nodes 100000 -v > AUDIT.txt 2>&1` (the
verbose events and the "first mistake" lines). For every game ENGINE lost whose first mistake was
a failed defence, the audit's defending pair is played and the opponent, to move, is solved
(`tactics-audit --position ... --single-threat --nodes 4000000`): "wins with the single threat"
means that pair did not defend either (the position was lost beyond the VCDT model); "no
single-threat win (0 nodes)" means the pair makes a threat of its own (a delay, which the search
for a single-threat turn leaves to the VCDT). Run from the repository's root after
`cargo build --release -p liuzi-tools --bin tactics-audit`.
"""
import re
import subprocess

from audit_lines import arguments, first_mistakes, games_notation


def main():
    games, audit, engine = arguments(__doc__)
    first = first_mistakes(audit, 'FailedDefence')
    pairs = {}
    for line in open(audit):
        m = re.match(r'\s+game (\d+) turn (\d+): (\S+) could defend with (\S+) (\S+)', line)
        if m and m.group(3) == engine:
            pairs[(int(m.group(1)), int(m.group(2)))] = (m.group(4), m.group(5))
    for game, turn in sorted(first.items()):
        a, b = pairs[(game, turn)]
        before = ' '.join(games[game]['moves'].split()[:turn])
        position = f'{before} {games_notation(a)}-{games_notation(b)}'
        out = subprocess.run(
            ['target/release/tactics-audit', '--position', position, '--single-threat',
             '--nodes', '4000000'], capture_output=True, text=True, check=True).stdout
        colour = 'B' if games[game]['black'] == engine else 'W'
        print(game, colour, turn, a, b, ' | '.join(out.strip().splitlines()))


if __name__ == '__main__':
    main()
