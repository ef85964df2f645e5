#!/usr/bin/env python3
"""Run GNU Go's reading regressions (`regression/reading.tst`, `connection.tst`) against a GTP engine.

GNU Go's regression data is GPL-3 and is not vendored here: fetch GNU Go's
sources (see README.md) and point this script at their `regression/`
directory. A maintenance tool, not run by CI.

Usage:
    python3 run_gnugo_regression.py REGRESSION_DIR [KOSUMI_BINARY]
    python3 run_gnugo_regression.py REGRESSION_DIR --engine "/usr/games/gnugo --mode gtp" --native
Options:
    --tst FILE        the test file inside REGRESSION_DIR (default reading.tst)
    --commands LIST   the test commands to run, comma-separated (default
                      attack,defend,connect,disconnect; the others, such as
                      connection.tst's same_dragon, are skipped)
    --engine CMD      the engine command line (default: KOSUMI_BINARY gtp)
    --native          send trymove/popgo/increase_depths/decrease_depths as
                      they are (for GNU Go itself); otherwise `trymove C V`
                      is sent as `play C V`, `popgo` as `undo`, and the depth
                      commands are dropped
    --timeout SECS    per-command limit (default 60); an engine that runs
                      over is restarted and the position replayed
    --only N[,N...]   run only these test numbers (their setup still runs)
    --json FILE       also write the results as JSON
    --quiet           print only failures and the summary

How answers are judged (as GNU Go's regress.pike does): the engine's answer
(the text after `= `) must match the regular expression `^PATTERN$`, PATTERN
being the text inside `#? [...]`, so `1 (A|B)` takes either move and a bare
`1 S3|S4` is the regex alternation GNU Go also applies. A leading `!` negates.
Flags after `]`: `*` marks a known GNU Go failure (reported apart), `&` a test
that only reports (skipped here). `loadsgf` paths are relative to
REGRESSION_DIR; a missing file makes the tests that need it ERROR.
"""
import argparse
import json
import os
import queue
import re
import shlex
import subprocess
import sys
import threading
import time

# Commands that only tune GNU Go's own reader or count its nodes.
GNUGO_ONLY = {"increase_depths", "decrease_depths", "reset_reading_node_counter",
              "get_reading_node_counter"}


class Engine:
    """One GTP engine process, restartable."""

    def __init__(self, argv, cwd, timeout):
        self.argv, self.cwd, self.timeout = argv, cwd, timeout
        self.proc = None
        self.lines = None
        self.start()

    def start(self):
        self.proc = subprocess.Popen(self.argv, cwd=self.cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, bufsize=1)
        self.lines = queue.Queue()
        out, q = self.proc.stdout, self.lines

        def pump():
            for line in out:
                q.put(line)
            q.put(None)

        threading.Thread(target=pump, daemon=True).start()

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def send(self, command):
        """Return (ok, text) for one command; raise TimeoutError past the limit."""
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        deadline = time.monotonic() + self.timeout
        reply = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(command)
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                raise TimeoutError(command) from None
            if line is None:
                raise EOFError(command)
            line = line.rstrip("\r\n")
            if not reply and not line:
                continue
            if reply and not line:
                break
            reply.append(line)
        head = reply[0]
        ok = head.startswith("=")
        text = "\n".join([head[1:].strip()] + reply[1:]).strip()
        return ok, text


def parse_tst(path):
    """Return the file as a list of ('cmd', text) and ('test', number, command, pattern, flags)."""
    items, pending = [], None
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            line = raw.strip()
            m = re.match(r"^#\?\s*\[(.*)\](\S*)\s*$", line)
            if m:
                if pending is not None:
                    items.append(("test", pending[0], pending[1], m.group(1), m.group(2)))
                    pending = None
                continue
            if not line or line.startswith("#"):
                continue
            m = re.match(r"^(\d+)\s+(.*)$", line)
            if m:
                pending = (int(m.group(1)), m.group(2))
            else:
                items.append(("cmd", line))
    return items


def matches(answer, pattern):
    """Query whether an answer passes a `#? [...]` pattern, regress.pike's way."""
    negate = pattern.startswith("!")
    if negate:
        pattern = pattern[1:]
    try:
        hit = re.search("^" + pattern + "$", answer) is not None
    except re.error:
        hit = answer == pattern
    return hit != negate


def translate(line, regdir, native):
    """Return the command to send for a setup line (None: drop it) and its kind."""
    words = line.split()
    name = words[0]
    if name == "loadsgf" and len(words) >= 2:
        words[1] = os.path.join(regdir, words[1])
        return " ".join(words), "load"
    if native:
        return line, "native"
    if name in GNUGO_ONLY:
        return None, "drop"
    if name == "trymove":
        return "play " + " ".join(words[1:]), "push"
    if name == "popgo":
        return "undo", "pop"
    return line, "other"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("regdir")
    ap.add_argument("kosumi", nargs="?")
    ap.add_argument("--tst", default="reading.tst")
    ap.add_argument("--engine")
    ap.add_argument("--native", action="store_true")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--only")
    ap.add_argument("--commands", default="attack,defend,connect,disconnect")
    ap.add_argument("--json")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    regdir = os.path.abspath(args.regdir)
    if args.engine:
        argv = shlex.split(args.engine)
    elif args.kosumi:
        argv = [os.path.abspath(args.kosumi), "gtp"]
    else:
        ap.error("give KOSUMI_BINARY or --engine")
    only = {int(n) for n in args.only.split(",")} if args.only else None
    commands = set(args.commands.split(","))

    items = parse_tst(os.path.join(regdir, args.tst))
    engine = Engine(argv, regdir, args.timeout)
    replay, load_ok = [], True   # commands since the last loadsgf, to rebuild after a restart
    results = []
    t0 = time.monotonic()

    def restart():
        engine.stop()
        engine.start()
        for c in replay:
            try:
                engine.send(c)
            except (TimeoutError, EOFError):
                pass

    for item in items:
        if item[0] == "cmd":
            cmd, kind = translate(item[1], regdir, args.native)
            if cmd is None:
                continue
            if kind == "load":
                replay = []
            try:
                ok, text = engine.send(cmd)
            except (TimeoutError, EOFError):
                ok, text = False, "timeout or crash"
                restart()
            if kind == "load":
                load_ok = ok
                if not ok and not args.quiet:
                    print("SETUP  %-40s ? %s" % (item[1], text))
            elif not ok and not args.quiet:
                print("SETUP  %-40s ? %s" % (item[1], text))
            if ok:
                if kind == "pop" and replay:
                    replay.pop()
                else:
                    replay.append(cmd)
            continue
        _, number, command, pattern, flags = item
        if "&" in flags or command.split()[0] not in commands:
            continue
        if only is not None and number not in only:
            continue
        start = time.monotonic()
        if not load_ok:
            status, answer = "ERROR", "position not loaded"
        else:
            try:
                ok, text = engine.send(command)
                answer = text if ok else "? " + text
                status = "PASS" if ok and matches(text, pattern) else "FAIL"
            except (TimeoutError, EOFError) as e:
                status, answer = "FAIL", "TIMEOUT" if isinstance(e, TimeoutError) else "CRASH"
                restart()
        secs = time.monotonic() - start
        starred = "*" in flags
        results.append({"number": number, "command": command, "expected": pattern,
                        "starred": starred, "answer": answer, "status": status,
                        "seconds": round(secs, 3)})
        if not args.quiet or status != "PASS":
            print("%-5s %3d %-12s expected [%s]%s got [%s] (%.2fs)"
                  % (status, number, command, pattern, "*" if starred else "", answer, secs))
    engine.stop()

    total = len(results)
    passed = sum(r["status"] == "PASS" for r in results)
    plain = [r for r in results if not r["starred"]]
    plain_passed = sum(r["status"] == "PASS" for r in plain)
    starred = [r for r in results if r["starred"]]
    starred_passed = sum(r["status"] == "PASS" for r in starred)
    errors = sum(r["status"] == "ERROR" for r in results)
    print("engine: %s%s" % (" ".join(argv), " (native trymove/popgo)" if args.native else ""))
    print("all tests: %d/%d passed" % (passed, total))
    print("non-* tests: %d/%d passed" % (plain_passed, len(plain)))
    print("* tests (known GNU Go failures): %d/%d passed" % (starred_passed, len(starred)))
    if errors:
        print("errors (position not loaded): %d" % errors)
    print("time: %.1fs" % (time.monotonic() - t0))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"engine": argv, "native": args.native, "passed": passed, "total": total,
                       "plain_passed": plain_passed, "plain_total": len(plain),
                       "results": results}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
