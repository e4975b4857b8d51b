#!/usr/bin/env python3
"""Full Ataxx games between two skald processes through the PyPI `ataxx` package's UAI client
(ataxx.uai.Engine, version 2.2.0), the way python-ataxx users drive an engine.

Every engine move is parsed with ataxx.Move.from_san and checked with the package's own
Board.is_legal before Board.makemove (makemove does not validate), until board.gameover().
Each game uses a different way of calling go(): depth, movetime, nodes (sent as
`go nodes N simulations N`) and times=(btime, wtime, binc, winc).

No outcome depends on the machine's speed: with times=, the clocks are kept here (time used
subtracted, increment added) but a clock that runs out is sent as 1 ms instead of losing the
game; only a missing bestmove (30 s) fails. Losses on time are measured by
scripts/time-forfeit.sh, not by the test suite.

Usage: uai_games.py <path to skald> [games]    Exit status 0 only if every move was legal and
every game ended by the package's own rules. Prints one line per game and a summary.
"""

import sys
import time
import warnings

# ataxx.process asks subprocess for line buffering in binary mode, which Python warns about.
warnings.filterwarnings("ignore", category=RuntimeWarning, module="subprocess")

import ataxx
import ataxx.uai

GO_KINDS = [
    ("depth", {"depth": 3}),
    ("movetime", {"movetime": 30}),
    ("nodes", {"nodes": 3000}),
    ("times", None),  # a clock, kept here
]
START_FENS = [ataxx.FEN_STARTPOS, ataxx.FEN_4CORNERS, ataxx.FEN_4SIDES]


def fail(msg):
    print("FAIL:", msg, flush=True)
    sys.exit(1)


def new_engine(path):
    engine = ataxx.uai.Engine(path)
    engine.uai()
    if engine.name is None or not engine.name.startswith("skald"):
        fail(f"no 'id name skald' before uaiok: {engine.name!r}")
    engine.setoption("hash", 8)
    engine.setoption("threads", 1)
    engine.isready(10)
    engine.uainewgame()
    engine.isready(10)
    return engine


def play_game(path, number):
    kind, args = GO_KINDS[number % len(GO_KINDS)]
    fen = START_FENS[number % len(START_FENS)]
    board = ataxx.Board(fen)
    engines = [new_engine(path), new_engine(path)]  # x, o
    clock = [2000, 2000]
    inc = 20
    plies = 0
    try:
        while not board.gameover():
            side = 0 if board.turn == ataxx.BLACK else 1
            engine = engines[side]
            engine.position(board.get_fen())
            engine.isready(10)
            started = time.monotonic()
            if kind == "times":
                bestmove, _ = engine.go(times=(clock[0], clock[1], inc, inc), maxwait=30)
            else:
                bestmove, _ = engine.go(maxwait=30, **args)
            used = int((time.monotonic() - started) * 1000)
            if kind == "times":
                clock[side] = max(clock[side] - used, 1) + inc
            if bestmove is None:
                fail(f"game {number} ({kind}): no bestmove within 30 s at {board.get_fen()}")
            try:
                move = ataxx.Move.from_san(bestmove)
            except Exception as err:  # the package raises a bare Exception
                fail(f"game {number}: cannot parse bestmove {bestmove!r} at {board.get_fen()}: {err}")
            if not board.is_legal(move):
                fail(f"game {number}: illegal bestmove {bestmove} at {board.get_fen()}")
            board.makemove(move)
            plies += 1
            if plies > 1000:
                fail(f"game {number}: no end after 1000 plies")
    finally:
        for engine in engines:
            engine.quit()
    print(
        f"game {number}: go {kind}, start {fen}: {plies} plies, all legal, "
        f"result {board.result()}, final {board.get_fen()}",
        flush=True,
    )
    return plies


def main():
    if len(sys.argv) < 2:
        fail("usage: uai_games.py <skald> [games]")
    path = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    print(f"python-ataxx {ataxx.__version__}", flush=True)
    total = sum(play_game(path, n) for n in range(games))
    print(f"OK: {games} games, {total} moves, every move legal by ataxx.Board.is_legal", flush=True)


if __name__ == "__main__":
    main()
