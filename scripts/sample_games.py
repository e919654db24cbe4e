#!/usr/bin/env python3
"""Draws games from a games file of `reversi-lab train` (a header line, then a
game a line): the header, then the game lines shuffled by Python's
random.Random(SEED).shuffle, the first N in that order.

Usage: scripts/sample_games.py SEED N GAMES > SAMPLE
(docs/TRAINING.md: the label stages' games, e.g. 48 60000 world-1977-2022.txt)
"""
import random
import sys

seed, count, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
with open(path) as f:
    lines = f.read().splitlines(True)
head, games = lines[0], lines[1:]
random.Random(seed).shuffle(games)
sys.stdout.write(head + "".join(games[:count]))
