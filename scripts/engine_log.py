"""Liuzi's engine log (`liuzi -v` stderr, as the match scripts keep it under target/) cut into
games, for the scripts that read a run's searches game by game.

liuzi-match marks each engine log with `liuzi-match: game N begins, ...` before a game; with
several games at once each worker has its own log (`NAME.wK.stderr.log`), so a file holds one game
at a time. The engine writes a game's `time use` line when the next game begins, after the mark,
so the lines of game N are those after its mark up to the next mark. Logs written before the
marks (one game at a time) are cut at the `time use` lines and matched to the results file's
games in order."""
import json
import pathlib
import re

MARK = re.compile(r"liuzi-match: game (\d+) begins")
COLOURS = re.compile(r"\x1b\[[0-9;]*m")


def log_files(log):
    """The log file, or every `*.stderr.log` of a run's log folder."""
    path = pathlib.Path(log)
    return sorted(path.glob("*.stderr.log")) if path.is_dir() else [path]


def game_lines(log, results):
    """{game id: its log lines} over the log file or folder `log`, for the games of the results
    file `results` (a game that was cut off and replayed keeps its last, recorded play)."""
    ids = [json.loads(line)["game"] for line in open(results)]
    files = log_files(log)
    marked = any(MARK.search(line) for f in files for line in open(f, errors="replace"))
    games = {}
    if marked:
        for f in files:
            current = None
            for line in open(f, errors="replace"):
                line = COLOURS.sub("", line)
                m = MARK.search(line)
                if m:
                    current = int(m.group(1))
                    games[current] = []
                elif current is not None:
                    games[current].append(line)
        return {g: games.get(g, []) for g in ids}
    # Unmarked: one game at a time, each closed by its `time use` line, in the results' order.
    cut, current = [], []
    for f in files:
        for line in open(f, errors="replace"):
            line = COLOURS.sub("", line)
            current.append(line)
            if "time use:" in line:
                cut.append(current)
                current = []
    return dict(zip(ids, cut))
