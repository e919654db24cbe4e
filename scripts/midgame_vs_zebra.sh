#!/bin/bash
# The midgame search beside Zebra's on the benchmark's positions (tests/data/midgame/
# bench-positions.tsv: 20 positions after ply 20 and 20 after ply 30 of WTHOR 2023 games), one
# thread each, one program at a time (never both at once: they would share the cores): ours is
# `reversi hint --level D --no-book --moves 1 --json --threads 1`, Zebra's `zebra -quiet -b 0 -r 0
# -l D 18 20 D 18 20 -slack 0 -evalone -seq MOVES` (D plies, exact from 18 empties, win/loss/draw
# from 20, no book, no randomness). Prints a line per position and program (wall and CPU seconds,
# nodes), then per depth and set each program's totals, node rate per CPU second and the ratios.
# CPU seconds (user + system) are steadier than the wall time on a shared machine.
# With BEFORE set, an earlier build of this project runs too, just before ours on each position
# (interleaved, so that a change in the machine's load falls on both), and the last table gives
# ours against it.
#
# Usage: scripts/midgame_vs_zebra.sh [DEPTH ...]       (default: 14)
# Environment:
#   ZEBRA    Zebra's binary, beside its coeffs2.bin (default target/zebra-fast/zebra; Zebra is
#            not part of this project: ../shared/peers/zebra/build.sh target/zebra-fast fast)
#   REVERSI  this project's binary (default target/release/reversi)
#   SETS     the plies whose positions run (default "20 30")
#   BEFORE   an earlier build of this project to time beside ours (default: none)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
ZEBRA=$(realpath "${ZEBRA:-$here/target/zebra-fast/zebra}")
REVERSI=$(realpath "${REVERSI:-$here/target/release/reversi}")
BEFORE=${BEFORE:+$(realpath "$BEFORE")}
SETS=${SETS:-20 30}
DEPTHS=${*:-14}
positions=$here/tests/data/midgame/bench-positions.tsv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
TIMEFORMAT='%R %U %S'

# Runs the command, its stdout into $tmp/out; prints "WALL CPU".
timed() {
    { time "$@" >"$tmp/out" 2>/dev/null; } 2>"$tmp/time"
    awk '{ printf "%.3f %.3f", $1, $2 + $3 }' "$tmp/time"
}

for depth in $DEPTHS; do
    for ply in $SETS; do
        awk -F'\t' -v ply="$ply" '$2 == ply { print $1, $3 }' "$positions" | while read -r game moves; do
            for program in ${BEFORE:+before} reversi; do
                binary=$REVERSI
                [ "$program" = before ] && binary=$BEFORE
                t=$(timed "$binary" hint --level "$depth" --no-book --moves 1 --json --threads 1 "$moves")
                nodes=$(grep -o '"nodes":[0-9]*' "$tmp/out" | cut -d: -f2)
                move=$(grep -o '"move":"[a-h][1-8]' "$tmp/out" | head -1 | cut -d'"' -f4)
                echo "depth $depth ply $ply game $game $program $t $nodes $move"
            done
            t=$(cd "$(dirname "$ZEBRA")" && timed ./"$(basename "$ZEBRA")" -quiet -b 0 -r 0 \
                -l "$depth" 18 20 "$depth" 18 20 -slack 0 -evalone -seq "$moves")
            # The last iteration's line: "-->  D  VALUE  NODES  MOVE ...".
            set -- $(grep -- '-->' "$tmp/out" | tail -1)
            echo "depth $depth ply $ply game $game zebra $t $4 $5"
        done
    done
done | tee "$tmp/lines"

echo
echo "depth | after ply | program | positions | wall s | CPU s | nodes | M nodes/CPU s"
awk '{ k = $2 " " $4 " " $7; n[k]++; wall[k] += $8; cpu[k] += $9; nodes[k] += $10 }
     END {
         for (k in n) {
             split(k, f, " ")
             printf "%5s | %9s | %7s | %9d | %6.2f | %5.2f | %9d | %.2f\n",
                 f[1], f[2], f[3], n[k], wall[k], cpu[k], nodes[k], nodes[k] / cpu[k] / 1e6
         }
     }' "$tmp/lines" | sort -n -k1,1 -k3,3 -k5,5
echo
echo "depth | after ply | node rate ours/Zebra | CPU time ours/Zebra | best moves alike"
awk '$7 == "reversi" { k = $2 " " $4; rc[k] += $9; rn[k] += $10; rm[k, $6] = $11 }
     $7 == "zebra" { k = $2 " " $4; zc[k] += $9; zn[k] += $10; same[k] += (rm[k, $6] == $11) }
     END {
         for (k in rc) {
             split(k, f, " ")
             printf "%5s | %9s | %.2f | %.2f | %d\n", f[1], f[2],
                 (rn[k] / rc[k]) / (zn[k] / zc[k]), rc[k] / zc[k], same[k]
         }
     }' "$tmp/lines" | sort -n
[ -n "$BEFORE" ] || exit 0
echo
echo "depth | after ply | CPU time ours/before | nodes ours/before | best moves alike"
awk '{ k = $2 " " $4 }
     $7 == "before" { bc[k] += $9; bn[k] += $10; bm[k, $6] = $11 }
     $7 == "reversi" { rc[k] += $9; rn[k] += $10; same[k] += (bm[k, $6] == $11) }
     END {
         for (k in rc) {
             split(k, f, " ")
             printf "%5s | %9s | %.3f | %.3f | %d\n", f[1], f[2], rc[k] / bc[k], rn[k] / bn[k], same[k]
         }
     }' "$tmp/lines" | sort -n
