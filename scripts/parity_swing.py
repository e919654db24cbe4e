#!/usr/bin/env python3
"""The odd/even swing of the midgame search's values: the mean of
value(level A) - value(level B), for the side to move, over positions of
held-out games (docs/TRAINING.md, "Measuring before shipping").

A search whose depth is odd ends on positions where the other side is to
move; an evaluation that is too kind to the player who just moved makes
its odd depths worth more to the side to move at the root than its even
ones. This measures how much, as a player sees it: `reversi hint --level L
--no-book --moves 1 --json` of each position, the best move's value.

Usage:
  scripts/parity_swing.py GAMES [--reversi target/release/reversi]
      [--weights W] [--positions 40] [--plies 16 30] [--levels 9 8]

GAMES is a games file of `reversi-lab train import` (one game a line:
index, moves, ...), e.g. the WTHOR 2023 games held out of training:
  reversi-lab train import --out heldout-2023-games.txt wthor-2023.pgn
The positions are those after each --plies of --positions games spread
evenly over the file (games with a pass before the ply are skipped).
"""

import argparse
import json
import statistics
import subprocess


def value(reversi, moves, level, weights):
    cmd = [reversi, "hint", moves, "--level", str(level), "--no-book", "--moves", "1",
           "--json", "--threads", "1", "--time", "600"]
    if weights:
        cmd += ["--weights", weights]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    answer = json.loads(out)
    return answer["moves"][0]["value"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games")
    ap.add_argument("--reversi", default="target/release/reversi")
    ap.add_argument("--weights")
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--plies", type=int, nargs="+", default=[16, 30])
    ap.add_argument("--levels", type=int, nargs=2, default=[9, 8])
    a = ap.parse_args()
    games = []
    with open(a.games) as f:
        for line in f:
            if line.startswith("#"):
                continue
            moves = line.split("\t")[1]
            games.append([moves[i:i + 2] for i in range(0, len(moves), 2)])
    high, low = a.levels
    print(f"| ply | positions | mean level {high} - level {low} | sd | mean |difference| |")
    print("| ---: | ---: | ---: | ---: | ---: |")
    for ply in a.plies:
        chosen = []
        for i in range(a.positions):
            # The i-th of evenly spread games, or the next one that reaches the ply.
            for g in games[i * len(games) // a.positions:]:
                if len(g) > ply and "pa" not in g[:ply]:
                    chosen.append("".join(g[:ply]))
                    break
        diffs = [value(a.reversi, m, high, a.weights) - value(a.reversi, m, low, a.weights)
                 for m in chosen]
        sd = statistics.stdev(diffs) if len(diffs) > 1 else 0.0
        print(f"| {ply} | {len(diffs)} | {statistics.mean(diffs):+.2f} | {sd:.2f} | "
              f"{statistics.mean(abs(d) for d in diffs):.2f} |")


if __name__ == "__main__":
    main()
