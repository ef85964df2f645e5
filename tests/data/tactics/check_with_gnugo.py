#!/usr/bin/env python3
"""Check the tactical suite against GNU Go 3.8 (a maintenance tool, not run by CI).

Usage:
    python3 check_with_gnugo.py [FILE.txt ...]      # default: every *.txt beside this script
    python3 check_with_gnugo.py --quiet ...         # only print disagreements

For every problem it loads the diagram into `gnugo --mode gtp` (an SGF file with
AB/AW setup; a `ko:` point is rebuilt by setting up the captured stone and
replaying the capture, so GNU Go has the same ko ban), then:

1. asks `attack V` (goal capture) or `defend V` (goal save) and compares the
   result code with the expected one;
2. enumerates ALL first moves: for every empty point m the first mover may
   play, it plays m and asks the other side's question (`defend V` after an
   attacking move, `attack V` after a saving move; a target that is off the
   board after m is captured). m works when the mapped result equals the
   expected code (other side 0 -> 1, 1 -> 0, ko 2 <-> 3). The set of working
   moves must equal the `expect:` list exactly.

A problem whose comment says "GNU Go disagrees" was judged by hand against
GNU Go's answer; its disagreement is printed as KNOWN, not counted.

`expect: 1 PASS` (save a chain that is not in danger) is checked as
`attack V` = 0; GNU Go itself answers `defend V` with `1 PASS` for chains of
5+ liberties and with some liberty for smaller ones (see README.md).

Exit status 1 if any problem disagrees. The module also exports `Gnugo`,
`parse_suite` and `analyse` for generate.py.
"""
import os
import subprocess
import sys
import tempfile

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
GNUGO = os.environ.get("GNUGO", "/usr/games/gnugo")


def vertex(x, y):
    return "%s%d" % (LETTERS[x], y + 1)


def parse_vertex(v):
    v = v.strip().upper()
    if v == "PASS":
        return None
    return (LETTERS.index(v[0]), int(v[1:]) - 1)


def parse_diagram(rows):
    """Return (size, {(x, y): 'X'|'O'}) from diagram lines (top row first)."""
    grid = []
    for line in rows:
        if not any(c in "XO.+" for c in line):
            continue
        cells = [c for c in line if not (c.isspace() or c.isdigit() or c in "|()")]
        grid.append(cells)
    size = len(grid)
    stones = {}
    for r, cells in enumerate(grid):
        assert len(cells) == size, "ragged row: %r" % (cells,)
        for x, c in enumerate(cells):
            if c in "XO":
                stones[(x, size - 1 - r)] = c
    return size, stones


class Problem:
    def __init__(self, fields, rows, file, index):
        self.fields = fields
        self.rows = rows
        self.file = file
        self.index = index
        self.name = fields.get("name", "%s#%d" % (file, index))
        self.size, self.stones = parse_diagram(rows)
        if "size" in fields:
            assert int(fields["size"]) == self.size, self.name
        goal, target = fields["goal"].split()
        self.goal = goal.lower()
        self.target = parse_vertex(target)
        exp = fields["expect"].split()
        self.code = int(exp[0])
        self.moves = set(exp[1].upper().split("|")) if len(exp) > 1 else set()
        self.ko = parse_vertex(fields["ko"]) if "ko" in fields else None


def parse_suite(path):
    text = open(path).read()
    problems = []
    for i, block in enumerate(text.split("\n---")):
        fields, rows = {}, []
        for line in block.splitlines():
            s = line.strip()
            if not s or s.startswith("#") or s == "---":
                continue
            key, sep, val = s.partition(":")
            if sep and key.strip() in ("name", "size", "goal", "expect", "ko"):
                fields[key.strip()] = val.strip()
            else:
                rows.append(line)
        if "goal" in fields:
            problems.append(Problem(fields, rows, os.path.basename(path), i))
    return problems


def neighbours(p, size):
    x, y = p
    for q in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
        if 0 <= q[0] < size and 0 <= q[1] < size:
            yield q


class Gnugo:
    def __init__(self):
        self.p = subprocess.Popen([GNUGO, "--mode", "gtp"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)

    def cmd(self, c):
        self.p.stdin.write(c + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            line = self.p.stdout.readline()
            if line == "\n" or line == "":
                if lines:
                    break
                continue
            lines.append(line.rstrip("\n"))
        out = "\n".join(lines)
        return out[0] == "=", out[1:].strip()

    def setup(self, size, stones, ko=None):
        """Load a position; with a ko point, rebuild the ko capture. Return the first mover after a ko."""
        stones = dict(stones)
        replay = None
        if ko is not None:
            cands = []
            for n in neighbours(ko, size):
                c = stones.get(n)
                if c is None:
                    continue
                chain_single = all(stones.get(m) != c for m in neighbours(n, size))
                libs = [m for m in neighbours(n, size) if m not in stones]
                if chain_single and libs == [ko]:
                    cands.append(n)
            assert len(cands) == 1, "cannot rebuild ko at %s" % (vertex(*ko),)
            p = cands[0]
            colour = stones.pop(p)
            stones[ko] = "O" if colour == "X" else "X"
            replay = (colour, p)
        ab = "".join("[%s%s]" % (chr(97 + x), chr(97 + size - 1 - y)) for (x, y), c in stones.items() if c == "X")
        aw = "".join("[%s%s]" % (chr(97 + x), chr(97 + size - 1 - y)) for (x, y), c in stones.items() if c == "O")
        sgf = "(;GM[1]SZ[%d]%s%s)" % (size, ("AB" + ab) if ab else "", ("AW" + aw) if aw else "")
        fd, path = tempfile.mkstemp(suffix=".sgf")
        with os.fdopen(fd, "w") as f:
            f.write(sgf)
        ok, out = self.cmd("loadsgf " + path)
        os.unlink(path)
        assert ok, out
        if replay:
            colour, p = replay
            ok, out = self.cmd("play %s %s" % ("black" if colour == "X" else "white", vertex(*p)))
            assert ok, out

    def read(self, question, target):
        ok, out = self.cmd("%s %s" % (question, vertex(*target)))
        assert ok, out
        parts = out.split()
        return int(parts[0]), (parts[1].upper() if len(parts) > 1 else None)


FLIP = {0: 1, 1: 0, 2: 3, 3: 2}


def analyse(g, size, stones, goal, target, ko=None, expect_code=None):
    """Return (gnugo code, gnugo move, set of working first moves for `expect_code`)."""
    g.setup(size, stones, ko)
    colour = stones[target]
    mover = ("white" if colour == "X" else "black") if goal == "capture" else ("black" if colour == "X" else "white")
    question, other = ("attack", "defend") if goal == "capture" else ("defend", "attack")
    code, move = g.read(question, target)
    if expect_code is None:
        expect_code = code
    works = set()
    if expect_code == 0:
        return code, move, works
    for x in range(size):
        for y in range(size):
            if (x, y) in stones and (x, y) != ko:
                continue
            ok, _ = g.cmd("play %s %s" % (mover, vertex(x, y)))
            if not ok:
                continue
            ok, out = g.cmd("color " + vertex(*target))
            if out == "empty":
                result = 1 if goal == "capture" else 0
            else:
                result = FLIP[g.read(other, target)[0]]
            if result == expect_code:
                works.add(vertex(x, y))
            g.cmd("undo")
    return code, move, works


def check(g, pr):
    """Return a list of disagreement strings for a problem."""
    errs = []
    if pr.stones.get(pr.target) is None:
        return ["target %s is empty" % vertex(*pr.target)]
    if pr.moves == {"PASS"}:
        g.setup(pr.size, pr.stones, pr.ko)
        a, am = g.read("attack", pr.target)
        d, dm = g.read("defend", pr.target)
        if pr.goal != "save" or pr.code != 1 or a != 0 or d != 1:
            errs.append("expected 1 PASS (safe) but gnugo attack=%d %s defend=%d %s" % (a, am, d, dm))
        return errs
    code, move, works = analyse(g, pr.size, pr.stones, pr.goal, pr.target, pr.ko, pr.code)
    if code != pr.code:
        errs.append("code: expected %d, gnugo %d %s" % (pr.code, code, move))
    if pr.code != 0:
        if works != pr.moves:
            errs.append("moves: expected %s, gnugo working set %s (gnugo key %s)"
                        % ("|".join(sorted(pr.moves)), "|".join(sorted(works)) or "-", move))
        elif code == pr.code and move not in works:
            errs.append("gnugo key %s not in its own working set %s" % (move, sorted(works)))
    return errs


def main(argv):
    quiet = "--quiet" in argv
    files = [a for a in argv if not a.startswith("--")]
    if not files:
        here = os.path.dirname(os.path.abspath(__file__))
        files = sorted(os.path.join(here, f) for f in os.listdir(here) if f.endswith(".txt"))
    g = Gnugo()
    total = bad = 0
    for f in files:
        for pr in parse_suite(f):
            total += 1
            errs = check(g, pr)
            if errs and "GNU Go disagrees" in open(f).read().split("name: " + pr.name)[0].rsplit("---", 1)[-1]:
                print("KNOWN %s (%s): %s (judged by hand, see its comment)" % (pr.name, pr.file, "; ".join(errs)))
            elif errs:
                bad += 1
                print("DISAGREE %s (%s): %s" % (pr.name, pr.file, "; ".join(errs)))
            elif not quiet:
                print("ok %s" % pr.name)
    print("%d problems, %d agree with GNU Go, %d disagree" % (total, total - bad, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
