#!/usr/bin/env python3
"""Write a sample of WTHOR games' positions at the theoretical score's depth
as OBF lines, each followed by the theoretical score for the side to move
(`% theoretical N` comments are skipped by `reversi solve --file`).

Usage: wthor_theoretical_sample.py COUNT SEED FILE.wtb... > sample.obf

The solver's scores of the same lines (`reversi solve --file sample.obf -q`)
check whether the file's theoretical scores can serve as labels
(docs/TRAINING.md, "Labels chosen by measurement").
"""
import random
import struct
import sys

DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(board, sq, me):
    if board[sq] != 0:
        return []
    r, c = divmod(sq, 8)
    out = []
    for dr, dc in DIRS:
        run = []
        rr, cc = r + dr, c + dc
        while 0 <= rr < 8 and 0 <= cc < 8 and board[rr * 8 + cc] == -me:
            run.append(rr * 8 + cc)
            rr, cc = rr + dr, cc + dc
        if run and 0 <= rr < 8 and 0 <= cc < 8 and board[rr * 8 + cc] == me:
            out.extend(run)
    return out


def has_move(board, me):
    return any(flips(board, s, me) for s in range(64))


def position_at(moves, empties):
    """The board and side to move (1 black, -1 white) once `empties` squares
    are left, passes inferred; None if the game ends before."""
    board = [0] * 64
    board[27] = board[36] = -1
    board[28] = board[35] = 1
    me = 1
    for m in moves:
        if board.count(0) == empties:
            break
        f = flips(board, m, me)
        if not f:
            me = -me
            f = flips(board, m, me)
            if not f:
                raise ValueError("illegal move")
        board[m] = me
        for s in f:
            board[s] = me
        me = -me
    if board.count(0) != empties:
        return None
    if not has_move(board, me):
        if not has_move(board, -me):
            return None
        me = -me
    return board, me


def main():
    count, seed, files = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
    games = []
    for path in files:
        data = open(path, "rb").read()
        n = struct.unpack_from("<I", data, 4)[0]
        depth = data[14]
        for i in range(n):
            raw = data[16 + 68 * i: 16 + 68 * (i + 1)]
            moves = [(b // 10 - 1) * 8 + (b % 10 - 1) for b in raw[8:] if b]
            games.append((path, i + 1, depth, raw[7], moves))
    random.Random(seed).shuffle(games)
    written = 0
    for path, number, depth, theoretical_black, moves in games:
        at = position_at(moves, depth)
        if at is None:
            continue
        board, me = at
        black_score = 2 * theoretical_black - 64
        obf = "".join("X" if v == 1 else "O" if v == -1 else "-" for v in board)
        print(f"% {path} game {number} theoretical {black_score * me}")
        print(obf + (" X" if me == 1 else " O"))
        written += 1
        if written == count:
            break


if __name__ == "__main__":
    main()
