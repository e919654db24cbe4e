#!/bin/bash
# Solves FFO positions FROM..TO (numbers 40-59, from tests/data/ffo/) with
# this project's solver and with Edax, one position at a time and one
# program at a time (never both at once: they would share the cores), with
# THREADS threads each, and prints one line per program and position.
#
# Usage: scripts/ffo_vs_edax.sh FROM TO
# Environment:
#   EDAX     Edax's folder, holding bin/lEdax-* and data/eval.dat
#            (default /work/peers/edax; Edax is not part of this project:
#            build it from github.com/abulmo/edax-reversi with
#            `mkdir bin; cd src; make build ARCH=x86-64-v3 CC=gcc`)
#   REVERSI  this project's binary (default target/release/reversi)
#   THREADS  threads for both programs (default 2)
#   LIMIT    seconds after which a solve is stopped (default: none)
#   EDAX_LIMIT  the same for Edax alone (default: LIMIT)
set -eu
FROM=$1
TO=$2
EDAX=${EDAX:-/work/peers/edax}
REVERSI=$(realpath "${REVERSI:-target/release/reversi}")
THREADS=${THREADS:-2}
LIMIT=${LIMIT:-0}
EDAX_LIMIT=${EDAX_LIMIT:-$LIMIT}
FFO=$(dirname "$0")/../tests/data/ffo/fforum-40-59.obf
EDAX_BIN=$(ls "$EDAX"/bin/lEdax-* | head -1)
one=$(mktemp)
trap 'rm -f "$one"' EXIT

# Seconds since the epoch, with nanoseconds.
now() { date +%s.%N; }

for i in $(seq "$FROM" "$TO"); do
    line=$(grep -v '^%' "$FFO" | sed -n "$((i - 39))p")
    board=${line%%;*}
    start=$(now)
    ours=$(timeout "$LIMIT" "$REVERSI" solve --obf "$board;" --json --threads "$THREADS" -q || echo "stopped")
    end=$(now)
    echo "#$i reversi $(echo "$end - $start" | bc) s: $ours"
    echo "$line" >"$one"
    start=$(now)
    edax=$(cd "$EDAX" && timeout "$EDAX_LIMIT" "$EDAX_BIN" -solve "$one" -n "$THREADS" -level 60 2>&1 |
        grep -E '^ *[0-9]+\|' | tail -1 || echo "stopped")
    end=$(now)
    echo "#$i edax $(echo "$end - $start" | bc) s: $edax"
done
