#!/usr/bin/env python3
"""Cloudict against itself from positions of recorded games: what its own play makes of them.

    selfplay.py openings RESULTS [--depth D] [--pairs N]
        Cloudict plays both sides of every opening of RESULTS (one game per colour-swapped
        pair), then crosses the outcome with Liuzi's two games of the pair: how many openings
        Cloudict's Black converts against Cloudict's White, and how Liuzi did in those.
    selfplay.py scan RESULTS GAME [--depth D]
        For GAME, one game of Liuzi's, Cloudict plays both sides from each of Liuzi's turns
        in turn, until the side Liuzi played no longer wins: the last turn Cloudict still won
        from, and the turn of Liuzi's after which it did not.

    selfplay.py ask RESULTS GAMES TURN [--seconds T] [--liuzi PATH] [--liuzi-args ARGS]
        For each of GAMES (comma-separated numbers), Liuzi (one thread, `time_settings 0 T 2`,
        the default configuration plus ARGS, e.g. "--config VARIANT.toml") is asked again for
        the turn TURN of the recorded game, then Cloudict plays both sides on: does Liuzi's new
        turn keep the game for its side?

One JSON line per Cloudict game on stdout; the summary on stderr. Needs Cloudict built by
`scripts/cloudict-match.sh` (target/cloudict-runs/cloudict; CLOUDICT=DIR for another build).
Cloudict is deterministic, so every line is reproducible. Its depth-4 game from a position takes about
10 s on one core.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CLOUDICT = os.path.join(HERE, '..', '..', 'target', 'cloudict-runs', 'cloudict')
MAX_TURNS = 120


def point(s):
    """A result file's stone (`k10`: column a..s, i included, then the row from 1)."""
    return ord(s[0]) - ord('a'), int(s[1:]) - 1


def cloudict_stone(p):
    """Cloudict's two letters: column then row from the bottom, both from A."""
    return chr(ord('A') + p[0]) + chr(ord('A') + p[1])


class Board:
    def __init__(self):
        self.stones = {}

    def play(self, p, colour):
        """Places a stone; answers whether it made six or more in a row."""
        self.stones[p] = colour
        for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
            n = 1
            for s in (1, -1):
                x, y = p[0] + s * dx, p[1] + s * dy
                while self.stones.get((x, y)) == colour:
                    n += 1
                    x, y = x + s * dx, y + s * dy
            if n >= 6:
                return True
        return False


def play_from(turns, depth, cloudict_dir):
    """Cloudict plays both sides after `turns` (lists of stones, Black's first): the winner
    ('black', 'white', 'draw', or 'illegal-COLOUR' for a stone on an occupied point) and the
    turns played."""
    proc = subprocess.Popen([os.path.join(cloudict_dir, 'gameEngine')], cwd=cloudict_dir,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        proc.stdin.write(line + '\n')
        proc.stdin.flush()

    def reply():
        # Its start-up help and search chatter share stdout; a reply is a `move` line with
        # real stones (the help text's `move XXXX` is not one).
        while True:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError('cloudict closed its output')
            if line.startswith('move ') and 'XXXX' not in line:
                return line.split()[1]

    board = Board()
    try:
        send(f'depth {depth}')
        send('new white')
        for i, stones in enumerate(turns):
            colour = 'black' if i % 2 == 0 else 'white'
            for p in stones:
                board.play(p, colour)
            send(f"{colour} {''.join(cloudict_stone(p) for p in stones)}")
        winner, i = None, len(turns)
        while winner is None and i < MAX_TURNS and len(board.stones) < 361:
            colour = 'black' if i % 2 == 0 else 'white'
            send('next')
            answer = reply()
            for k in range(0, len(answer) - 1, 2):
                p = (ord(answer[k]) - ord('A'), ord(answer[k + 1]) - ord('A'))
                if p in board.stones:
                    winner = 'illegal-' + colour
                    break
                if board.play(p, colour):
                    winner = colour
                    break
            i += 1
        return winner or 'draw', i
    finally:
        # It spins at end of input: ask it to quit, then make sure.
        try:
            send('quit')
        except OSError:
            pass
        proc.kill()
        proc.wait()


def games_of(path):
    games = {}
    for line in open(path):
        g = json.loads(line)
        g['turns'] = [[point(s) for s in t.split('-')] for t in g['moves'].split()]
        games[g['game']] = g
    return games


def opening_turns(game):
    """Turns of the game's opening: Black's one stone, then two-stone turns."""
    return 1 + game['opening_stones'] // 2


def liuzi_colour(game):
    return 'black' if game['black'].startswith('liuzi') else 'white'


def openings(args, games):
    by_pair = {}
    for g in games.values():
        by_pair.setdefault(g['pair'], []).append(g)
    table = Counter()
    for pair, two in sorted(by_pair.items())[:args.pairs]:
        first = two[0]
        start = opening_turns(first)
        winner, played = play_from(first['turns'][:start], args.depth, args.cloudict)
        print(json.dumps({'pair': pair, 'from_turn': start, 'depth': args.depth,
                          'winner': winner, 'turns': played}), flush=True)
        outcome = []
        for colour in ('black', 'white'):
            g = next((g for g in two if liuzi_colour(g) == colour), None)
            won = g is not None and g['result'] == colour[0].upper()
            outcome.append(f"Liuzi as {colour}: {'won' if won else 'lost' if g else 'n/a'}")
        table[(winner,) + tuple(outcome)] += 1
    print(f'Cloudict against itself from the openings (depth {args.depth}):', file=sys.stderr)
    for key, n in sorted(table.items()):
        print(f'  {n:4}  {key[0]} wins; ' + '; '.join(key[1:]), file=sys.stderr)


def scan(args, games):
    g = games[args.game]
    ours = liuzi_colour(g)
    first_ours = 0 if ours == 'black' else 1
    last_won = None
    for t in range(opening_turns(g), len(g['turns'])):
        if t % 2 != first_ours:
            continue
        winner, played = play_from(g['turns'][:t], args.depth, args.cloudict)
        print(json.dumps({'game': args.game, 'from_turn': t, 'depth': args.depth,
                          'winner': winner, 'turns': played}), flush=True)
        if winner != ours:
            break
        last_won = t
    if last_won is None:
        print(f'game {args.game}: Cloudict as {ours} does not win from its first turn either',
              file=sys.stderr)
    else:
        t = last_won
        played = '-'.join(f"{chr(ord('a') + p[0])}{p[1] + 1}" for p in g['turns'][t])
        print(f'game {args.game}: Cloudict as {ours} wins from turn {t}; Liuzi played {played} '
              f'there, and Cloudict does not win from turn {t + 2}', file=sys.stderr)


GTP_LETTERS = 'ABCDEFGHJKLMNOPQRST'


def ask_liuzi(liuzi, extra_args, turns, seconds):
    """Liuzi's turn after `turns` (one thread, `seconds` a turn), asked over GTP one command at a
    time (a `quit` sent early would cut its search short)."""
    proc = subprocess.Popen([liuzi, 'gtp', '--threads', '1'] + extra_args, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            bufsize=1)

    def command(line):
        proc.stdin.write(line + '\n')
        proc.stdin.flush()
        answer = proc.stdout.readline()
        while answer != '' and answer.strip() == '':
            answer = proc.stdout.readline()
        if answer == '':
            raise RuntimeError(f'liuzi ended before answering {line!r} (a bad --liuzi-args?)')
        proc.stdout.readline()  # the blank line that ends a GTP answer
        if not answer.startswith('='):
            raise RuntimeError(f'liuzi refused {line!r}: {answer.strip()}')
        return answer[1:].strip()

    try:
        for i, stones in enumerate(turns):
            colour = 'b' if i % 2 == 0 else 'w'
            for x, y in stones:
                command(f'play {colour} {GTP_LETTERS[x]}{y + 1}')
        command(f'time_settings 0 {seconds} 2')
        colour = 'b' if len(turns) % 2 == 0 else 'w'
        stones = []
        for _ in range(2):
            answer = command(f'genmove {colour}')
            stones.append((GTP_LETTERS.index(answer[0].upper()), int(answer[1:]) - 1))
        return stones
    finally:
        try:
            proc.stdin.write('quit\n')
            proc.stdin.flush()
        except BrokenPipeError:
            pass  # it has ended already
        proc.wait()


def ask(args, games):
    kept = 0
    numbers = [int(n) for n in args.game.split(',')]
    for n in numbers:
        g = games[n]
        side = 'black' if args.turn % 2 == 0 else 'white'
        stones = ask_liuzi(args.liuzi, shlex.split(args.liuzi_args), g['turns'][:args.turn], args.seconds)
        winner, played = play_from(g['turns'][:args.turn] + [stones], args.depth, args.cloudict)
        kept += winner == side
        turn = '-'.join(f"{chr(ord('a') + x)}{y + 1}" for x, y in stones)
        print(json.dumps({'game': n, 'turn': args.turn, 'seconds': args.seconds, 'liuzi': turn,
                          'depth': args.depth, 'winner': winner, 'turns': played}), flush=True)
    print(f'Liuzi asked again at turn {args.turn} ({args.seconds} s): Cloudict then wins for '
          f'Liuzi\'s side in {kept} of {len(numbers)}', file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('mode', choices=['openings', 'scan', 'ask'])
    ap.add_argument('results')
    ap.add_argument('game', nargs='?', help='scan: a game; ask: games, comma-separated')
    ap.add_argument('turn', type=int, nargs='?', help='ask: the turn Liuzi is asked for')
    ap.add_argument('--seconds', type=float, default=1.0, help='ask: Liuzi\'s time a turn')
    ap.add_argument('--liuzi', default=os.path.join(HERE, '..', '..', 'target', 'release', 'liuzi'))
    ap.add_argument('--liuzi-args', default='', help='ask: more options for Liuzi, e.g. "--search alphabeta"')
    ap.add_argument('--depth', type=int, default=4)
    ap.add_argument('--pairs', type=int, default=None, help='openings: only the first N pairs')
    ap.add_argument('--cloudict', default=os.environ.get('CLOUDICT', DEFAULT_CLOUDICT))
    args = ap.parse_args()
    if not os.access(os.path.join(args.cloudict, 'gameEngine'), os.X_OK):
        sys.exit(f'selfplay.py: no Cloudict in {args.cloudict} (build it with scripts/cloudict-match.sh, or set CLOUDICT)')
    games = games_of(args.results)
    if args.mode == 'openings':
        openings(args, games)
    elif args.mode == 'scan':
        if args.game is None or not args.game.isdigit() or int(args.game) not in games:
            sys.exit('selfplay.py scan: name a game of the results file')
        args.game = int(args.game)
        scan(args, games)
    else:
        try:
            numbers = [int(n) for n in (args.game or '').split(',')]
        except ValueError:
            numbers = []
        if not numbers or any(n not in games for n in numbers) or args.turn is None:
            sys.exit('selfplay.py ask: name games of the results file (1,2,3) and a turn')
        if not os.access(args.liuzi, os.X_OK):
            sys.exit(f'selfplay.py ask: no liuzi at {args.liuzi} (cargo build --release)')
        ask(args, games)


if __name__ == '__main__':
    main()
