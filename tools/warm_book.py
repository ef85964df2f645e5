#!/usr/bin/env python3
"""Warm a kosumi book (best-move table file) by self-play in ONE process.

One engine plays both colours, so every search of every game feeds the one
table, and only one process ever writes the book (saved on `quit`; two
engines sharing a `--book` file would each overwrite the other's save).

    tools/warm_book.py --games 60 -- \
        target/release/kosumi --size 9 --playouts 5000 --seed 7 --book /tmp/book.bin

The engine command must include `--book` pointing at the same file (the
script only adds `kosumi-savebook` every 10 games and `quit` at the end).
"""
import argparse
import subprocess
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--komi", type=float, default=7.0)
    ap.add_argument("--max-moves", type=int, default=200)
    ap.add_argument("cmd", nargs="+")
    a = ap.parse_args()
    p = subprocess.Popen(a.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def gtp(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()
        out = []
        while True:
            r = p.stdout.readline()
            if r == "":
                sys.exit(f"engine died on {line!r}")
            if r.strip() == "" and out:
                break
            if r.strip():
                out.append(r.strip())
        reply = " ".join(out)
        if not reply.startswith("="):
            sys.exit(f"{line!r}: {reply}")
        return reply[1:].strip()

    gtp(f"boardsize {a.size}")
    gtp(f"komi {a.komi}")
    for g in range(a.games):
        t = time.time()
        gtp("clear_board")
        passes, moves, colour, result = 0, 0, "b", "?"
        while moves < a.max_moves:
            mv = gtp(f"genmove {colour}").lower()
            moves += 1
            if mv == "resign":
                result = ("W" if colour == "b" else "B") + "+R"
                break
            passes = passes + 1 if mv == "pass" else 0
            if passes >= 2:
                result = "passes"
                break
            colour = "w" if colour == "b" else "b"
        print(f"game {g + 1}: {moves} moves, {result}, {time.time() - t:.1f} s", flush=True)
        if (g + 1) % 10 == 0:
            gtp("kosumi-savebook")
    gtp("quit")
    p.wait()


if __name__ == "__main__":
    main()
