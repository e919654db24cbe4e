#!/usr/bin/env python3
"""Where a match's discs are lost: the mean value, for our side, of the positions a match
reached before given plies.

Usage: python3 scripts/match_values.py TSV REVERSI LEVEL PLY...

TSV is a games file of ../shared/peers/zebra/match.py (its Board reads the moves; set
MATCH_HARNESS to its folder if it is elsewhere); each game's position before each PLY (plies
from the start, the opening's included) is valued by `REVERSI hint --level LEVEL --no-book
--moves 1 --threads 1` and turned to the side of `ours`. Prints one line a ply, then the mean
final disc difference. A match played both colours of every opening starts at 0 on average,
so the lines show the discs given away between plies, as the level sees them.
"""
import csv
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.environ.get("MATCH_HARNESS", os.path.join(here, "..", "..", "shared", "peers", "zebra")))
import match as harness  # noqa: E402


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    tsv, reversi, level = sys.argv[1], sys.argv[2], sys.argv[3]
    plies = sorted(int(p) for p in sys.argv[4:])
    rows = [r for r in csv.DictReader(open(tsv), delimiter="\t") if r["result"] != "error"]
    values = {p: [] for p in plies}
    finals = []
    for r in rows:
        ours = harness.BLACK if r["ours_colour"] == "black" else harness.WHITE
        board = harness.Board()
        for ply, move in enumerate(r["moves"].split()):
            if ply in values and not board.over():
                obf = "".join("-XO"[c] for c in board.cells) + " " + ("X" if board.side == harness.BLACK else "O")
                out = subprocess.run([reversi, "hint", "--json", "--no-book", "--moves", "1", "--level", level,
                                      "--threads", "1", obf], capture_output=True, text=True, check=True).stdout
                value = json.loads(out)["moves"][0]["value"]
                values[ply].append(value if board.side == ours else -value)
            if move == "pass":
                board.side = harness.other(board.side)
            else:
                board.play(harness.parse_sq(move))
        finals.append(int(r["diff_ours"]))
    for p in plies:
        v = values[p]
        print("before ply %d: %d games, mean value for ours %+.2f" % (p, len(v), sum(v) / max(1, len(v))))
    print("final: %d games, mean disc difference for ours %+.2f" % (len(finals), sum(finals) / max(1, len(finals))))


if __name__ == "__main__":
    main()
