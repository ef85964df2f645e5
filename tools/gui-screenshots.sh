#!/usr/bin/env bash
# gui-screenshots.sh: attach kosumi to real Go GUIs under a virtual X server and
# take screenshots, to see what a person sees.
#
# For each GUI (Debian's Quarry and KDE's Kigo) and each board size (9x9 and
# 19x19) it starts the GUI with kosumi as the GTP engine playing both colours
# (engine against engine, so no clicks on the board are needed), waits until a
# few moves are played and saves PNG screenshots of the whole screen:
#   OUT/<gui>-<size>-start.png   the new-game dialog, just before the game starts
#   OUT/<gui>-<size>-early.png   after EARLY_MOVES moves (default 4)
#   OUT/<gui>-<size>-later.png   after LATER_MOVES moves (default 24), or the
#                                game's end, or a timeout
# beside the GTP traffic of every kosumi process the GUI started (kosumi runs
# with --verbose, which logs each command and answer to stderr):
#   OUT/<gui>-<size>-gtp.<pid>.log
# and the names of the windows on screen at each screenshot (an error dialog
# shows there): OUT/<gui>-<size>-windows.txt.
#
# Usage: tools/gui-screenshots.sh [KOSUMI_BINARY [OUT_DIR]]
#   KOSUMI_BINARY  default target/release/kosumi
#   OUT_DIR        default /tmp/gui-shots
# Environment: PLAYOUTS (default 2000), GUIS (default "quarry kigo"),
#   SIZES (default "9 19"), EARLY_MOVES, LATER_MOVES, MOVE_TIMEOUT (seconds to
#   wait for the later screenshot, default 120).
#
# Needs these Debian packages (apt-get install -y ...):
#   xvfb (Xvfb), xdotool, imagemagick (import), quarry, kigo,
#   dbus-daemon (dbus-run-session, for the KDE program).
# The GUIs run with a throwaway HOME (and XDG dirs), so the user's own
# configuration is neither read nor changed. Everything started here is
# stopped on exit.

set -euo pipefail

KOSUMI=${1:-target/release/kosumi}
OUT=${2:-/tmp/gui-shots}
PLAYOUTS=${PLAYOUTS:-2000}
GUIS=${GUIS:-"quarry kigo"}
SIZES=${SIZES:-"9 19"}
EARLY_MOVES=${EARLY_MOVES:-4}
LATER_MOVES=${LATER_MOVES:-24}
MOVE_TIMEOUT=${MOVE_TIMEOUT:-120}

die() { echo "gui-screenshots: $*" >&2; exit 1; }
log() { echo "gui-screenshots: $*" >&2; }

# need COMMAND PACKAGE: the command is on PATH (or in /usr/games) or we stop
# naming the Debian package that has it.
need() {
    command -v "$1" >/dev/null 2>&1 || [ -x "/usr/games/$1" ] ||
        die "'$1' not found: install the Debian package '$2' (apt-get install -y $2)"
}
need Xvfb xvfb
need xdotool xdotool
need import imagemagick
need timeout coreutils
for gui in $GUIS; do
    case $gui in
        quarry) need quarry quarry ;;
        kigo) need kigo kigo; need dbus-run-session dbus-daemon ;;
        *) die "unknown GUI '$gui' (known: quarry kigo)" ;;
    esac
done
gui_bin() { command -v "$1" 2>/dev/null || echo "/usr/games/$1"; }

[ -x "$KOSUMI" ] || die "no kosumi binary at '$KOSUMI' (build it: cargo build --release -p kosumi)"
KOSUMI=$(cd "$(dirname "$KOSUMI")" && pwd)/$(basename "$KOSUMI")
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

WORK=$(mktemp -d /tmp/gui-screenshots.XXXXXX)
XVFB_PID=
GUI_PID=

stop_gui() {
    if [ -n "$GUI_PID" ]; then
        # The GUI runs in a process group of its own (setsid): end the group,
        # which holds the GUI, its dbus session and the kosumi processes.
        kill -TERM -- "-$GUI_PID" 2>/dev/null || true
        for _ in 1 2 3 4 5 6 7 8 9 10; do
            kill -0 -- "-$GUI_PID" 2>/dev/null || break
            sleep 0.3
        done
        kill -KILL -- "-$GUI_PID" 2>/dev/null || true
        wait "$GUI_PID" 2>/dev/null || true
        GUI_PID=
    fi
}
cleanup() {
    stop_gui
    if [ -n "$XVFB_PID" ]; then
        kill "$XVFB_PID" 2>/dev/null || true
        wait "$XVFB_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- X server on a free display (Xvfb picks it and writes it to fd 3) -------
Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp \
    3>"$WORK/display" >"$WORK/xvfb.log" 2>&1 &
XVFB_PID=$!
for _ in $(seq 50); do
    [ -s "$WORK/display" ] && break
    kill -0 "$XVFB_PID" 2>/dev/null || die "Xvfb exited: $(cat "$WORK/xvfb.log")"
    sleep 0.2
done
[ -s "$WORK/display" ] || die "Xvfb gave no display number within 10 s"
export DISPLAY=":$(tr -d '[:space:]' <"$WORK/display")"
timeout 10 sh -c 'until xdotool getdisplaygeometry >/dev/null 2>&1; do sleep 0.2; done' ||
    die "X server $DISPLAY does not answer"
log "Xvfb on $DISPLAY; screenshots in $OUT"

# --- helpers ------------------------------------------------------------------

# wait_window SECONDS --name|--class REGEX: print the id of a visible window
# whose name (or class) matches, waiting at most SECONDS.
wait_window() {
    local deadline=$((SECONDS + $1)) id
    while [ "$SECONDS" -lt "$deadline" ]; do
        id=$(xdotool search --onlyvisible "$2" "$3" 2>/dev/null | head -n 1 || true)
        if [ -n "$id" ]; then echo "$id"; return 0; fi
        kill -0 "$GUI_PID" 2>/dev/null || { log "the GUI exited"; return 1; }
        sleep 0.3
    done
    log "no window of $2 /$3/ within $1 s"
    return 1
}

# moves TAG: how many moves kosumi generated so far (answers to genmove-like
# commands in the GTP logs of this run).
moves() {
    cat "$OUT/$1"-gtp.*.log 2>/dev/null |
        awk '/^<< /{cmd=$2; next} /^>> = ./{if (cmd ~ /genmove/) n++} END{print n+0}'
}

# wait_moves TAG N SECONDS: wait until N moves were generated (or the game
# ended: a resign or a second pass), at most SECONDS. Never fails.
wait_moves() {
    local deadline=$((SECONDS + $3)) n
    while [ "$SECONDS" -lt "$deadline" ]; do
        n=$(moves "$1")
        [ "$n" -ge "$2" ] && return 0
        if cat "$OUT/$1"-gtp.*.log 2>/dev/null | grep -qE '^>> = resign$'; then
            log "$1: a player resigned after $n moves"; return 0
        fi
        kill -0 "$GUI_PID" 2>/dev/null || { log "$1: the GUI exited"; return 0; }
        sleep 0.5
    done
    log "$1: only $(moves "$1") moves after $3 s (wanted $2)"
}

# shot TAG NAME: screenshot of the whole screen, and the window names.
shot() {
    local file="$OUT/$1-$2.png"
    sleep 0.5 # let the last stone be drawn
    timeout 20 import -window root "$file" || log "import failed for $file"
    {
        echo "== $2 ($(moves "$1") moves generated)"
        for w in $(xdotool search --onlyvisible --name '.' 2>/dev/null; xdotool search --onlyvisible --class '.' 2>/dev/null); do
            xdotool getwindowname "$w" 2>/dev/null || true
        done | sort -u
    } >>"$OUT/$1-windows.txt"
    log "saved $file"
}

# make_engine TAG: a wrapper script, the engine command line the GUIs run:
# kosumi with a small budget, logging its GTP traffic to OUT.
make_engine() {
    local engine="$WORK/kosumi-$1"
    cat >"$engine" <<EOF
#!/bin/sh
exec "$KOSUMI" gtp --playouts $PLAYOUTS --verbose "\$@" 2>>"$OUT/$1-gtp.\$\$.log"
EOF
    chmod +x "$engine"
    echo "$engine"
}

# new_home TAG: a throwaway HOME with the XDG directories in it.
new_home() {
    local home="$WORK/home-$1"
    mkdir -p "$home/.config" "$home/.local/share" "$home/.cache" "$home/run"
    chmod 700 "$home/run"
    echo "$home"
}

# start_gui HOME COMMAND...: start the GUI in a new process group with the
# throwaway home; a timeout ends it whatever happens.
start_gui() {
    local home=$1
    shift
    HOME=$home XDG_CONFIG_HOME=$home/.config XDG_DATA_HOME=$home/.local/share \
        XDG_CACHE_HOME=$home/.cache XDG_RUNTIME_DIR=$home/run \
        setsid timeout 600 "$@" >"$home/gui.log" 2>&1 </dev/null &
    GUI_PID=$!
}

# --- Quarry -----------------------------------------------------------------
# Quarry keeps its engine list and its new-game settings in ~/.quarry.
# Both players are "Computer" with the engine "kosumi"; the new-game dialog
# has two pages: Forward (Alt+F), then Play (Alt+P).
run_quarry() {
    local size=$1 tag="quarry-$size" home engine w
    home=$(new_home "$tag")
    engine=$(make_engine "$tag")
    cat >"$home/.quarry" <<EOF
[GTP Engine "kosumi"]
Screen name format	= "%n %v"
Name			= "kosumi"
Command line		= "$engine"
Supported games		= "Go"

[New Game Parameters]
Game			= "Go"
White player name	= "kosumi"
White is computer	= true
Engine playing white	= "kosumi"
Black player name	= "kosumi"
Black is computer	= true
Engine playing black	= "kosumi"

[New Go Game Parameters]
Board size		= $size
Handicap is fixed	= true
Fixed handicap		= 0
Free handicap		= 0
Komi			= 7.5
Time control type	= 0
EOF
    start_gui "$home" "$(gui_bin quarry)"
    w=$(wait_window 30 --name '^Quarry Control Center$') || return 1
    xdotool windowfocus --sync "$w" key alt+n
    w=$(wait_window 15 --name '^New Game$') || return 1
    xdotool windowfocus --sync "$w" key alt+f
    sleep 1
    shot "$tag" start
    xdotool windowfocus --sync "$w" key alt+p
    wait_window 30 --name ' vs\. ' >/dev/null || { shot "$tag" failed; return 1; }
    wait_moves "$tag" "$EARLY_MOVES" 60
    shot "$tag" early
    wait_moves "$tag" "$LATER_MOVES" "$MOVE_TIMEOUT"
    shot "$tag" later
}

# --- Kigo -------------------------------------------------------------------
# Kigo (KDE) reads ~/.config/kigorc: [Backend] EngineCommand is the engine's
# command line; [Game] has the players (both computers here), the board size
# and the komi. FixedHandicapValue=0 shows "No handicap". The game starts with
# the "Start Game" button of the setup panel (clicked by its place in the
# window: Kigo opens at 0,0 without a window manager).
run_kigo() {
    local size=$1 tag="kigo-$size" home engine w
    home=$(new_home "$tag")
    engine=$(make_engine "$tag")
    cat >"$home/.config/kigorc" <<EOF
[Backend]
EngineCommand=$engine
EngineWorking=true

[Game]
BlackPlayerHuman=false
BlackPlayerName=kosumi
BlackPlayerStrength=10
WhitePlayerHuman=false
WhitePlayerName=kosumi
WhitePlayerStrength=10
BoardSize=$size
Komi=7.5
FixedHandicapValue=0
EOF
    start_gui "$home" dbus-run-session -- "$(gui_bin kigo)"
    w=$(wait_window 40 --class '^kigo$') || return 1
    sleep 2 # the setup panel comes up after the window
    shot "$tag" start
    # "Start Game" in the toolbar
    xdotool mousemove --window "$w" 94 38 click 1
    wait_moves "$tag" "$EARLY_MOVES" 60
    shot "$tag" early
    wait_moves "$tag" "$LATER_MOVES" "$MOVE_TIMEOUT"
    shot "$tag" later
}

status=0
for gui in $GUIS; do
    for size in $SIZES; do
        log "$gui ${size}x$size"
        rm -f "$OUT/$gui-$size"-*
        if ! "run_$gui" "$size"; then
            log "$gui ${size}x$size failed; see $OUT/$gui-$size-*"
            status=1
        fi
        cp "$WORK/home-$gui-$size/gui.log" "$OUT/$gui-$size-gui.log" 2>/dev/null || true
        stop_gui
        log "$gui ${size}x$size: $(moves "$gui-$size") moves generated"
    done
done
exit "$status"
