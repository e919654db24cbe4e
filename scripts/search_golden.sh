#!/bin/bash
# Writes the golden outputs of the engine's searches that tests/cli/golden_search.rs compares
# with: `reversi hint` at several levels on the positions of tests/data/midgame/ and `reversi
# solve` on FFO positions, one thread each, the time ("millis") removed.
#
# Usage: scripts/search_golden.sh REVERSI [OUTDIR]
#   REVERSI  the binary whose outputs become the golden ones: a build whose searches are known
#            to be right (the commit before a change that must not alter them)
#   OUTDIR   where hint-golden.tsv and solve-golden.tsv go (default tests/data/midgame)
# Each output line is `ARGUMENTS<TAB>OUTPUT`; the first line names the weights and Multi-ProbCut
# table they were made with (the search's values hang on both: new weights need new golden
# outputs, made with a binary whose search is unchanged). Runs `parallel` (GNU) when installed.
set -eu
REVERSI=$(realpath "$1")
here=$(cd "$(dirname "$0")/.." && pwd)
OUT=${2:-$here/tests/data/midgame}
data=$here/tests/data/midgame
ffo=$here/tests/data/ffo
weights=$(tail -c 8 "$here/data/pattern-weights.bin" | od -An -tx8 | tr -d ' ')
# FNV-1a (64 bits) of the Multi-ProbCut table's text.
probcut=$(python3 -c 'import sys
h = 0xCBF29CE484222325
for b in open(sys.argv[1], "rb").read():
    h = ((h ^ b) * 0x100000001B3) % 2**64
print(f"{h:016x}")' "$here/data/probcut.txt")
header="# weights $weights probcut $probcut"

# The hint cases: every golden position at levels 1, 5 and 9 (the midgame search alone: --exact
# 0); the benchmark's 40 positions at level 13; 100 positions ranked 3 moves deep at level 7; 30
# positions of 20 empties at level 5 with the default exact and win/loss/draw proofs.
hint_cases() {
    local level moves
    for level in 1 5 9; do
        cut -f3 "$data/golden-positions.tsv" | while read -r moves; do
            echo "--level $level --exact 0 --moves 1 $moves"
        done
    done
    cut -f3 "$data/bench-positions.tsv" | while read -r moves; do
        echo "--level 13 --exact 0 --moves 1 $moves"
    done
    head -100 "$data/golden-positions.tsv" | cut -f3 | while read -r moves; do
        echo "--level 7 --exact 0 --moves 3 $moves"
    done
    awk -F'\t' '$2 == 40 { print $3 }' "$data/golden-positions.tsv" | head -30 | while read -r moves; do
        echo "--level 5 --moves 2 $moves"
    done
}

# The solve cases: FFO positions of fforum-1-19 and fforum-20-39, and #40-#44.
solve_cases() {
    local file
    for file in fforum-1-19.obf fforum-20-39.obf; do
        grep -v '^%' "$ffo/$file" | cut -d';' -f1
    done
    grep -v '^%' "$ffo/fforum-40-59.obf" | head -5 | cut -d';' -f1
}

hint_one() {
    # shellcheck disable=SC2086 # the arguments are words
    out=$("$REVERSI" hint --no-book --json --threads 1 $1 | sed 's/,"millis":[0-9]*//')
    printf '%s\t%s\n' "$1" "$out"
}
solve_one() {
    out=$("$REVERSI" solve --obf "$1;" --json --threads 1 -q | sed 's/,"millis":[0-9]*//')
    printf '%s\t%s\n' "$1" "$out"
}
export -f hint_one solve_one
export REVERSI

run_all() {
    if command -v parallel >/dev/null; then
        parallel -k "$1" :::: -
    else
        while read -r line; do "$1" "$line"; done
    fi
}

{ echo "$header"; hint_cases | run_all hint_one; } >"$OUT/hint-golden.tsv.tmp"
mv "$OUT/hint-golden.tsv.tmp" "$OUT/hint-golden.tsv"
{ echo "$header"; solve_cases | run_all solve_one; } >"$OUT/solve-golden.tsv.tmp"
mv "$OUT/solve-golden.tsv.tmp" "$OUT/solve-golden.tsv"
