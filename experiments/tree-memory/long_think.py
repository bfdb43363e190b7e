#!/usr/bin/env python3
"""One long turn of the engine, as a GTP controller plays it: the position of a real game,
`time_settings 0 SECONDS 2`, then `genmove` for both stones, the second sent as soon as the
first is answered. Prints each stone's log line (time used, playouts, tree nodes) and the
engine's peak resident memory.

Usage: long_think.py ENGINE_BINARY SECONDS [engine options...]
e.g.   long_think.py target/release/liuzi 60 --threads 1
       long_think.py target/release/liuzi 60 --threads 1 --config experiments/tree-memory/cap8m-frozen.toml
"""
import subprocess
import sys
import tempfile

# Game 0 of experiments/cloudict/liuzi-vs-cloudict-d5-fast.jsonl after 13 stones (GTP letters),
# White to move: an open middle game, neither side with a threat.
MOVES = "k12 g11 n13 k13 l12 h12 k10 j11 j13 l11 m12 j9 o14"


def main():
    binary, seconds, *options = sys.argv[1:]
    colours = ["b"] + [c for k in range(10) for c in (("w", "w") if k % 2 == 0 else ("b", "b"))]
    setup = ["boardsize 19", "clear_board"]
    setup += [f"play {c} {m}" for m, c in zip(MOVES.split(), colours)]
    setup += [f"time_settings 0 {seconds} 2"]
    cmd = ["/usr/bin/time", "-f", "peak resident memory: %M KiB", binary, *options,
           "gtp", "--book", "none", "-v"]
    # The log goes to a file, not a pipe nobody reads until the end: a long think's log could
    # fill the pipe and block the engine mid-search.
    log = tempfile.TemporaryFile(mode="w+")
    engine = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=log, text=True)

    def ask(command):
        engine.stdin.write(command + "\n")
        engine.stdin.flush()
        answer = []
        while True:
            line = engine.stdout.readline()
            if line.strip() == "" and answer:
                return "\n".join(answer)
            if line == "":
                sys.exit("the engine stopped")
            if line.strip():
                answer.append(line.strip())

    for command in setup:
        answer = ask(command)
        if not answer.startswith("="):
            sys.exit(f"{command}: {answer}")
    for _ in range(2):
        print(ask("genmove w"), flush=True)
    ask("quit")
    engine.wait()
    log.seek(0)
    for line in log.read().splitlines():
        if "outcome" in line or "peak resident" in line or "WARN" in line:
            print(line.split("outcome: ")[-1])


if __name__ == "__main__":
    main()
