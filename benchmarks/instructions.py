"""Two checkouts of silvics compared by the instructions a random game takes: counted by
Valgrind (cachegrind, no cache simulation), so the figure does not move with the machine's load
the way timings do. Slow (a game runs about 50× slower under Valgrind), but one run is enough.

    python benchmarks/instructions.py OLD_PYTHON NEW_PYTHON [--only GAME]

Each Python is an interpreter with one checkout installed (see versus.py). For each game it
counts a process that plays warm-up games (as many as the rules take to judge what is worth
remembering), and one that plays N more after them: the difference over N is the instructions
per game, start-up, compiling, caches and the judging left out. Run
it from a folder holding no rules/ (each checkout then plays its own bundled games).

Install both checkouts the same way (both editable, or both not): the same code counted 3 %
apart for Forest Shuffle when one was an installed copy and the other an editable checkout
(2026-12-03). To try a small change, the surest comparison is one interpreter with the
source swapped in turn, each side counted twice."""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor

PROBE = """
import sys
from silvics import games
from silvics.interpreter.agents import RandomAgent
from silvics.interpreter.game import SAMPLED_GAMES, Game
from silvics.interpreter.simulate import quiet_collector
game_id, players, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ir = games.load(game_id)

def play(seed):
    game = Game(ir, players, seed)
    agents = [RandomAgent(seed, seat) for seat in range(players)]
    while not game.over:
        seat = game.pending.seat
        game.apply(agents[seat].choose(game.observe(seat)))

# the counted games follow SAMPLED_GAMES + 1 uncounted ones: by then the rules have judged which
# definitions are worth remembering (game.Worth), as in the games bench.py times. Forest Shuffle
# samples through its first five games (4,000 values asked, SAMPLED); six games counted after one
# took 48.5 M instructions each, where judged ones take 42.6 M (2026-12-05). And they are played with the collector set as a batch of games sets
# it (bench.py and simulate too): left as it is, its full passes over what the process holds
# made a Reforest game count 2.5 % more when the rules' cached module had been compiled in the
# process (its .pyc stale) than when it was read from its .pyc (2026-12-05)
with quiet_collector():
    for seed in [*range(10_000, 10_001 + SAMPLED_GAMES), *range(count)]:
        play(seed)
"""

SETUPS = [("four-forests", 2, 30), ("reforest", 2, 6), ("forest-shuffle", 2, 6), ("renature", 2, 2)]


# Sets and dicts of strings are laid out by their hashes, which Python seeds afresh in each
# process: the same game's count moved by up to 4 % between runs without this.
ENVIRONMENT = {**os.environ, "PYTHONHASHSEED": "0"}


def instructions(python: str, game_id: str, players: int, games: int, folder: str) -> int:
    return counted(python, [PROBE, game_id, str(players), str(games)], folder)


def counted(python: str, arguments: list[str], folder: str) -> int:
    """The instructions `python -P -c ARGUMENTS…` takes, run in `folder` (phases.py counts so too)."""
    found = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         python, "-P", "-c", *arguments],
        capture_output=True, text=True, check=True, cwd=folder, env=ENVIRONMENT).stderr
    return int(re.search(r"I\s+refs:\s+([\d,]+)", found).group(1).replace(",", ""))


def warmed(python: str, game_id: str, players: int, folder: str) -> None:
    """One game played uncounted, so that the rules' generated code is in the cache before the
    two counted processes start (two processes generating it at once count it differently)."""
    subprocess.run([python, "-P", "-c", PROBE, game_id, str(players), "0"],
                   capture_output=True, check=True, cwd=folder, env=ENVIRONMENT)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--only", action="append", help="a game id; repeatable (default: all four)")
    args = parser.parse_args()
    if not shutil.which("valgrind"):
        raise SystemExit("this needs valgrind (apt-get install valgrind)")
    print(f"{'game':<16}{'players':>8}{'before M':>10}{'after M':>10}{'speed-up':>10}   (instructions a game)")
    with tempfile.TemporaryDirectory() as folder, ThreadPoolExecutor(2) as pool:
        for game_id, players, games in SETUPS:
            if args.only and game_id not in args.only:
                continue
            for side in ("old", "new"):
                warmed(getattr(args, side), game_id, players, folder)
            runs = {(side, n): pool.submit(instructions, getattr(args, side), game_id, players, n, folder)
                    for side in ("old", "new") for n in (0, games)}
            per = {side: (runs[side, games].result() - runs[side, 0].result()) / games for side in ("old", "new")}
            print(f"{game_id:<16}{players:>8}{per['old'] / 1e6:>10.1f}{per['new'] / 1e6:>10.1f}"
                  f"{per['old'] / per['new']:>9.3f}x")


if __name__ == "__main__":
    main()
