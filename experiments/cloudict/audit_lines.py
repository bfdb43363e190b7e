"""What `failed_defences.py` and `setup_rank.py` share: their arguments (a results file, its
`tactics-audit -v` output, the engine audited), the games by number, the first mistakes of one
kind from the audit, and the two notations of a stone (the records' letters a..s with i, GTP's
A..T without I)."""
import json
import re
import sys

GTP = "ABCDEFGHJKLMNOPQRST"


def gtp(stone):
    """A records' stone (`i10`) in GTP (`J10`)."""
    return GTP[ord(stone[0]) - ord('a')] + stone[1:]


def games_notation(point):
    """A GTP point (`J10`) in the records' letters (`i10`)."""
    return chr(ord('a') + GTP.index(point[0])) + point[1:]


def arguments(doc):
    """`RESULTS.jsonl AUDIT.txt [ENGINE]`: the games by number, the audit's path, the engine."""
    if len(sys.argv) < 3:
        sys.exit(doc.strip())
    games = {}
    for line in open(sys.argv[1]):
        g = json.loads(line)
        games[g['game']] = g
    engine = sys.argv[3] if len(sys.argv) > 3 else 'liuzi'
    return games, sys.argv[2], engine


def first_mistakes(audit, kind):
    """Game -> turn of each lost game whose first mistake is `kind` (`FailedDefence`,
    `LostAlready`), in the audit's order."""
    found = {}
    for line in open(audit):
        m = re.match(r'game (\d+): \S+ lost, first mistake Some\(\((\d+), (\w+)\)\)', line)
        if m and m.group(3) == kind:
            found[int(m.group(1))] = int(m.group(2))
    return found
