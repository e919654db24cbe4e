#!/usr/bin/env python3
"""Pruning gain of `--order best` over natural order, over every 2-ply
opening: plays each opening with both orders (alpha-beta, disc evaluation)
and sums the nodes. Usage: scripts/ordering_gain.py [REVERSI_BINARY]"""
import json
import subprocess
import sys

R = sys.argv[1] if len(sys.argv) > 1 else "target/release/reversi"


def run(args):
    out = subprocess.run([R] + args, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def legal(size, opening):
    """The legal moves after `opening`, read from the error for a bad move."""
    err = subprocess.run(
        [R, "match", "--size", str(size), "--opening", (opening + " zz").strip()],
        capture_output=True,
        text=True,
    ).stderr
    return err.split("legal: ")[1].rstrip(")\n").split()


for size, depth in [(6, 6), (6, 8), (8, 6)]:
    natural = best = games = 0
    same = True
    for first in legal(size, ""):
        for second in legal(size, first):
            args = ["match", "--size", str(size), "--depth", str(depth),
                    "--opening", f"{first} {second}", "--json"]
            a, b = run(args), run(args + ["--order", "best"])
            same &= a["moves"] == b["moves"]
            natural += a["total_nodes"]
            best += b["total_nodes"]
            games += 1
    print(f"{size}x{size} depth {depth}: {games} openings, natural {natural}, "
          f"best {best} ({100 * best / natural:.1f}%), identical moves: {same}")
