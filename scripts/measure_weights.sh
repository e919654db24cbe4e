#!/bin/sh
# The figures of issue 48 for one weights file: the static error and bias on the held-out positions
# on the experts' path (300 positions of 20-24 empties), off it (553 moves of 60 positions, by the
# exact and by the estimated loss), and the odd-even swing (level 9 minus level 8 after plies 16
# and 30 of the 2023 games). Prints the tables; about a minute on two cores.
#
# Usage: scripts/measure_weights.sh WEIGHTS GAMES_2023
#   WEIGHTS     the weights file to measure (data/pattern-weights.bin: the shipped ones)
#   GAMES_2023  the 2023 WTHOR games as a `train import` file: `reversi-lab train import --out
#               games-2023.txt WTH_2023.pgn` (from ../shared/data/othello/wthor-pgn/)
# Set REVERSI and REVERSI_LAB to use other builds (default: target/release).
set -eu
W=$1; G=$2
here=$(cd "$(dirname "$0")/.." && pwd)
R=${REVERSI:-$here/target/release/reversi}
L=${REVERSI_LAB:-$here/target/release/reversi-lab}
T=$here/tests/data/wthor
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "# static error on the path, 20-24 empties"
"$L" train label --positions "$T/heldout-2023.txt" --empties 20-24 --depth 0 --weights "$W" -q \
    --out "$tmp/static.txt"
"$L" train compare --labels "$tmp/static.txt" --reference "$T/heldout-2023.txt" | tail -7
echo "# off the path, by the move's exact loss, then by the estimated loss"
# The moves' exact values are kept in the repository (a resumable output: only the static
# values are computed again).
cp "$T/heldout-2023-moves-60.txt" "$tmp/moves.txt"
"$L" train heldout-moves --heldout "$T/heldout-2023.txt" --positions 60 \
    --out "$tmp/moves.txt" --weights "$W" -q | tail -16
echo "# the odd-even swing"
python3 "$here/scripts/parity_swing.py" "$G" --reversi "$R" --weights "$W"
