#!/usr/bin/env python3
"""Run kosumi's `bench db` queries on Kombilo 0.8.4, side by side.

Kombilo (https://pypi.org/project/kombilo/) is the usual peer of a Go game
database. This script is an optional peer benchmark: it is not part of CI or
`cargo test`. It

1. builds a Kombilo database from the SGF folders kosumi's database was built
   from (timed; size on disk of its files),
2. runs `kosumi bench db DB --export-queries DIR --json` (or reads an earlier
   export), so both engines answer the same seeded queries back to back,
3. turns every query into a Kombilo pattern and times `GameList.search`,
4. prints per-kind medians and maxima for both engines and checks that both
   find the same number of games for each query.

Settings, chosen to answer the same question on the same games:

* Build: Kombilo's library defaults for the algorithms (ProcessOptions:
  final position, move list, full-board hashing up to 50 stones, corner
  hashing up to 20 stones); variations processed (its default); the SGF text
  not stored (the GUI's default); duplicates checked strictly (final position)
  and left out, and games with an SGF error (kosumi: illegal move) left out,
  as `kosumi db build` does. SGF folders are walked recursively, following
  symbolic links, for `*.sgf` and `*.mgt`. `--no-hash-corner` builds as the
  Kombilo GUI does by default (default.cfg: algo_hash_corner = False).
* Search: SearchOptions with all available algorithms (its default), colours
  fixed (`fixedColor = 1`; kosumi's bench does not exchange colours), all
  eight symmetries (Kombilo always uses them).
* Anchors: kosumi's anchors as Kombilo anchor rectangles for the top-left
  cell: a full-board position is a FULLBOARD_PATTERN; `corner` is the
  rectangle (0,0)-(0,0) (= CORNER_NW_PATTERN); `edge` is the top row,
  x in 0..=19-w (Kombilo's SIDE_N_PATTERN keeps off the corners, x >= 1);
  `anywhere` is the whole board (Kombilo's CENTER_PATTERN keeps off the edges).
  `--kombilo-types` times Kombilo's own pattern types instead.

Usage (from the repository root, after `cargo build --release`):

    pip install kombilo==0.8.4   # apt-get install libboost-dev libsqlite3-dev;
                                 # CXX="g++ -std=gnu++14" for its C++ core
    python3 tools/kombilo_bench.py --sgf /tmp/kosumi-95k --kosumi-db /tmp/k95.db \\
        --work /tmp/kombilo-95k [--json out.json]
"""

import argparse
import glob
import json
import os
import subprocess
import sys
import time

try:
    import kombilo.libkombilo as lk
except ImportError as e:  # pragma: no cover - depends on the machine
    sys.exit(
        "kombilo_bench: Kombilo is not installed (%s).\n"
        "Install it with:  pip install kombilo==0.8.4\n"
        "(its C++ core needs: apt-get install libboost-dev libsqlite3-dev; "
        'CXX="g++ -std=gnu++14" pip install kombilo==0.8.4)' % e
    )

N = 19
KINDS = [
    ("position", "full-board position"),
    ("corner", "7x7 corner pattern"),
    ("centre", "5x5 centre pattern anywhere"),
    ("edge", "7x5 edge pattern"),
]


def sgf_files(folders):
    """Return the SGF files under `folders`, sorted, following links."""
    out = []
    for top in folders:
        for dirpath, dirnames, _ in os.walk(top, followlinks=True):
            dirnames.sort()
            for ext in ("*.sgf", "*.mgt"):
                out.extend(sorted(glob.glob(os.path.join(dirpath, ext))))
    return out


def db_files(base):
    """Return Kombilo's files for the database `base`.db."""
    stem = base[: -len(".db")]
    return sorted(glob.glob(stem + ".d*"))


def open_gamelist(base, hash_corner=True):
    """Return a GameList on `base` with the build options described above."""
    pop = lk.ProcessOptions()  # default algos: FINALPOS|MOVELIST|HASH_FULL|HASH_CORNER
    if not hash_corner:
        pop.algos = lk.ALGO_FINALPOS | lk.ALGO_MOVELIST | lk.ALGO_HASH_FULL
    pop.rootNodeTags = "PW,PB,RE,DT,EV"
    pop.sgfInDB = False
    return lk.GameList(base, "", "[[filename.]],,,[[id]],,,", pop, N, 500)


def build(folders, base, hash_corner):
    """Build the Kombilo database; return (GameList, build report)."""
    for f in db_files(base):
        os.remove(f)
    files = sgf_files(folders)
    if not files:
        sys.exit("kombilo_bench: no *.sgf or *.mgt under %s" % ", ".join(folders))
    flags = (
        lk.CHECK_FOR_DUPLICATES
        | lk.CHECK_FOR_DUPLICATES_STRICT
        | lk.OMIT_DUPLICATES
        | lk.OMIT_GAMES_WITH_SGF_ERRORS
    )
    no_dbs = lk.vectorGL()
    counts = {"files": len(files), "duplicates": 0, "sgf_errors": 0, "unreadable": 0}
    t0 = time.perf_counter()
    gl = open_gamelist(base, hash_corner)
    gl.start_processing()
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as fh:
            sgf = fh.read()
        n = gl.process(sgf, os.path.dirname(path), os.path.basename(path), no_dbs, "", flags)
        if not n:
            counts["unreadable"] += 1
            continue
        for i in range(n):
            r = gl.process_results(i)
            counts["duplicates"] += bool(r & lk.IS_DUPLICATE)
            counts["sgf_errors"] += bool(r & (lk.SGF_ERROR | lk.UNACCEPTABLE_BOARDSIZE))
    gl.finalize_processing()
    counts["seconds"] = time.perf_counter() - t0
    counts["games"] = gl.size_all()
    counts["bytes"] = sum(os.path.getsize(f) for f in db_files(base))
    return gl, counts


def kombilo_pattern(kind, anchor, text, kombilo_types):
    """Return the Kombilo pattern of one exported query."""
    rows = [r.replace(" ", "") for r in text.splitlines() if r.strip() and not r.startswith("#")]
    h, w = len(rows), len(rows[0])
    cells = "".join(rows)
    if kind == "position":
        assert (w, h) == (N, N), "a position query is 19x19"
        return lk.Pattern(lk.FULLBOARD_PATTERN, N, N, N, cells)
    if kombilo_types:
        t = {"corner": lk.CORNER_NW_PATTERN, "edge": lk.SIDE_N_PATTERN, "anywhere": lk.CENTER_PATTERN}
        return lk.Pattern(t[anchor], N, w, h, cells)
    # Anchor rectangle of the top-left cell: left, right, top, bottom.
    rect = {
        "corner": (0, 0, 0, 0),
        "edge": (0, N - w, 0, 0),
        "anywhere": (0, N - w, 0, N - h),
    }[anchor]
    return lk.Pattern(*rect, N, w, h, cells)


def median_max(ms):
    """Return (median, max) the way `kosumi bench db` does (upper median)."""
    if not ms:
        return (0.0, 0.0)
    s = sorted(ms)
    return (s[len(s) // 2], s[-1])


def run_kosumi(binary, db, queries, seed, patterns):
    """Run `kosumi bench db` with the export; return its JSON."""
    cmd = [binary, "bench", "db", db, "--json", "--seed", str(seed), "--export-queries", queries,
           "--patterns", str(patterns)]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sgf", action="append", default=[], help="SGF folder (repeatable)")
    ap.add_argument("--work", required=True, help="folder for Kombilo's database files")
    ap.add_argument("--reuse", action="store_true", help="search an existing Kombilo database")
    ap.add_argument("--kosumi-db", help="run `kosumi bench db` on this database first")
    ap.add_argument("--kosumi-bin", default="target/release/kosumi")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--patterns", type=int, default=10, help="patterns of each kind")
    ap.add_argument("--queries", help="exported queries (default: WORK/queries)")
    ap.add_argument("--kinds", default="position,corner,centre,edge")
    ap.add_argument("--kombilo-types", action="store_true",
                    help="use Kombilo's CORNER_NW/SIDE_N/CENTER types, not kosumi's anchors")
    ap.add_argument("--no-hash-corner", action="store_true",
                    help="build without corner hashing (the Kombilo GUI's default)")
    ap.add_argument("--json", help="write all figures to this file")
    a = ap.parse_args()

    os.makedirs(a.work, exist_ok=True)
    base = os.path.join(os.path.abspath(a.work), "kombilo.db")
    queries = a.queries or os.path.join(a.work, "queries")
    report = {"date": time.strftime("%Y-%m-%d %H:%M"), "load": os.getloadavg()}

    if a.reuse:
        gl = open_gamelist(base)
        report["kombilo_build"] = {"games": gl.size_all(),
                                   "bytes": sum(os.path.getsize(f) for f in db_files(base))}
    else:
        if not a.sgf:
            sys.exit("kombilo_bench: give --sgf FOLDER (or --reuse)")
        print("building Kombilo's database of %s ..." % ", ".join(a.sgf), flush=True)
        gl, report["kombilo_build"] = build(a.sgf, base, not a.no_hash_corner)
    b = report["kombilo_build"]
    print("kombilo: %d games, %.1f MB%s" % (
        b["games"], b["bytes"] / 1e6,
        ", built in %.1f s (%d files, %d duplicates and %d games with SGF errors left out)"
        % (b["seconds"], b["files"], b["duplicates"], b["sgf_errors"]) if "seconds" in b else ""),
        flush=True)

    if a.kosumi_db:
        t0 = time.perf_counter()
        report["kosumi"] = run_kosumi(a.kosumi_bin, a.kosumi_db, queries, a.seed, a.patterns)
        k = report["kosumi"]
        print("kosumi: %d games, %.1f MB, bench db ran in %.1f s"
              % (k["games"], k["db_bytes"] / 1e6, time.perf_counter() - t0), flush=True)
    with open(os.path.join(queries, "queries.json")) as fh:
        manifest = json.load(fh)

    so = lk.SearchOptions(1, 0)  # fixedColor = 1, nextMove = 0; algos: all
    kinds = a.kinds.split(",")
    rows = []
    for q in manifest["queries"]:
        if q["kind"] not in kinds:
            continue
        with open(os.path.join(queries, q["file"])) as fh:
            p = kombilo_pattern(q["kind"], q["anchor"], fh.read(), a.kombilo_types)
        gl.reset()
        t0 = time.perf_counter()
        gl.search(p, so)
        ms = (time.perf_counter() - t0) * 1e3
        rows.append(dict(q, kombilo_ms=ms, kombilo_games=gl.size(), kombilo_hits=gl.numHits()))
    report["queries"] = rows

    if not a.kosumi_db:
        print("(kosumi's times are those of the run that exported %s)" % queries)
    print("\n| query | n | kosumi median / max ms | Kombilo median / max ms | same game count |")
    print("|---|---|---|---|---|")
    summary = {}
    for kind, name in KINDS:
        r = [x for x in rows if x["kind"] == kind]
        if not r:
            continue
        km = median_max([x["kosumi_ms"] for x in r])
        bm = median_max([x["kombilo_ms"] for x in r])
        same = sum(x["kosumi_games"] == x["kombilo_games"] for x in r)
        summary[kind] = {"n": len(r), "kosumi_ms": km, "kombilo_ms": bm, "same_games": same}
        print("| %s | %d | %.3f / %.3f | %.3f / %.3f | %d of %d |"
              % (name, len(r), km[0], km[1], bm[0], bm[1], same, len(r)))
    report["summary"] = summary
    diff = [x for x in rows if x["kosumi_games"] != x["kombilo_games"]]
    for x in diff[:20]:
        print("differs: %s: kosumi %d games, Kombilo %d games (%d hits)"
              % (x["file"], x["kosumi_games"], x["kombilo_games"], x["kombilo_hits"]))
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(report, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
