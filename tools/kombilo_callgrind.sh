#!/bin/bash
# Count the instructions of single searches, kosumi against Kombilo, with
# callgrind: a deterministic complement to kombilo_bench.py's wall-clock
# times on a shared machine. One thread each (RAYON_NUM_THREADS=1,
# OMP_NUM_THREADS=1). Counted: kosumi's position search inside
# `find_position`; its pattern search inside `pattern::search` plus the
# total of its one rayon worker thread; Kombilo inside `GameList::search`
# (opening the databases is not counted).
#
# Usage: tools/kombilo_callgrind.sh KOSUMI_DB KOMBILO_DB QUERIES NAME...
#   KOMBILO_DB: the kombilo.db kombilo_bench.py built (WORK/kombilo.db)
#   QUERIES:    a `kosumi bench db --export-queries` directory
#   NAME:       query files without .txt, e.g. position-000 corner-00 centre-01
# Needs valgrind, target/release/kosumi and a Python with kombilo
# (PYTHON=..., default python3). Prints one line per query.
set -euo pipefail
[ $# -ge 4 ] || { sed -n '2,17p' "$0"; exit 2; }
KDB=$1 BDB=$2 Q=$3
shift 3
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KOSUMI=$ROOT/target/release/kosumi
PY=${PYTHON:-python3}
"$PY" -c "import kombilo.libkombilo" 2>/dev/null ||
  { echo "Kombilo is not installed for $PY: pip install kombilo==0.8.4" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
for name in "$@"; do
  kind=${name%%-*}
  anchor=$(python3 -c "import json,sys; print([q['anchor'] for q in json.load(open('$Q/queries.json'))['queries'] if q['file']=='$name.txt'][0])")
  if [ "$kind" = position ]; then
    # `db search --position` reads SGF: the board as setup stones.
    python3 - "$Q/$name.txt" > "$T/q.sgf" <<'PY'
import sys
rows = [l.strip() for l in open(sys.argv[1]) if l.strip() and not l.startswith('#')]
c = 'abcdefghijklmnopqrs'
pts = lambda s: ''.join('[%s%s]' % (c[x], c[y]) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == s)
ab, aw = pts('X'), pts('O')
print('(;GM[1]SZ[19]' + ('AB' + ab if ab else '') + ('AW' + aw if aw else '') + ')')
PY
    valgrind --tool=callgrind --callgrind-out-file="$T/ko.out" --collect-atstart=no \
      '--toggle-collect=kosumi::db::search::find_position' \
      "$KOSUMI" db search "$KDB" --position "$T/q.sgf" --json --limit 0 > "$T/ko.json" 2>/dev/null
    ko=$(grep -h '^totals' "$T/ko.out" | cut -d' ' -f2)
  else
    rm -f "$T"/ko.out*
    RAYON_NUM_THREADS=1 valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$T/ko.out" \
      "$KOSUMI" db search "$KDB" --pattern "$Q/$name.txt" --anchor "$anchor" --json --limit 0 \
      > "$T/ko.json" 2>/dev/null
    # rayon runs the games on its worker (thread 2), or on the calling
    # thread for a small database: the worker's total plus `search` there.
    worker=$(grep -h '^totals' "$T/ko.out-02" | cut -d' ' -f2)
    main=$(callgrind_annotate --inclusive=yes "$T/ko.out-01" 2>/dev/null |
      awk '!n && /:kosumi::db::pattern::search( \[.*)?$/ {gsub(",", "", $1); print $1; n = 1}')
    ko=$((worker + ${main:-0}))
  fi
  kgames=$(python3 -c "import json; print(json.load(open('$T/ko.json'))['games_matched'])")
  OMP_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file="$T/kb.out" --collect-atstart=no \
    '--toggle-collect=GameList::search*' "$PY" - "$BDB" "$kind" "$anchor" "$Q/$name.txt" \
    > "$T/kb.txt" 2>/dev/null <<PY
import sys
sys.path.insert(0, '$ROOT/tools')
import kombilo_bench as kb
base, kind, anchor, path = sys.argv[1:5]
gl = kb.open_gamelist(base)
p = kb.kombilo_pattern(kind, anchor, open(path).read(), False)
gl.reset()
gl.search(p, kb.lk.SearchOptions(1, 0))
print(gl.size())
PY
  kb=$(grep -h '^totals' "$T/kb.out" | cut -d' ' -f2)
  echo "$name: kosumi $ko instructions, $kgames games; Kombilo $kb instructions, $(cat "$T/kb.txt") games"
done
