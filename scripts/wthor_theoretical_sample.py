#!/usr/bin/env python3
"""Write a random sample of a theoretical-labels file (`reversi-lab train
import --theoretical-labels FILE`) as OBF lines, each after a comment line
`% item I game G theoretical V` with the label's score for the side to
move (`reversi solve --file` skips `%` lines).

Usage: wthor_theoretical_sample.py COUNT SEED LABELS > sample.obf

The solver's scores of the same lines (`reversi solve --file sample.obf
--threads 1 -q`, one `<move> <score>` line each, in order) check that the
WTHOR theoretical scores, as the fit reads them, are exact
(docs/TRAINING.md, "Labels chosen by measurement").
"""
import random
import sys


def main():
    count, seed, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    labels = [line.rstrip("\n").split("\t") for line in open(path) if not line.startswith("#")]
    for item, game, player, opponent, _empties, value, _source in random.Random(seed).sample(
        labels, min(count, len(labels))
    ):
        mine, theirs = int(player, 16), int(opponent, 16)
        board = "".join(
            "X" if mine >> sq & 1 else "O" if theirs >> sq & 1 else "-" for sq in range(64)
        )
        print(f"% item {item} game {game} theoretical {int(value) // 64}")
        print(board + " X")


if __name__ == "__main__":
    main()
