"""Where a random game's instructions go: making the game, its setup, its decisions, its scoring.

    python benchmarks/phases.py [--only GAME] [--games N]

Counted by Valgrind, as instructions.py counts (cachegrind, no cache simulation, the hash seed
fixed), for the checkout this Python has installed. For each phase a process plays whole
uncounted games (as many as the rules take to judge what is worth remembering, as
instructions.py does) and N counted ones, each stopped where the phase ends, and another plays
the uncounted games alone: the difference over N is what the games took up to there. The phases end:
- made: the game made, every card in the box (`Game(..., start=False)`);
- set up: its rules run to the first question (`Game.begin`);
- played: every decision taken, up to the start of the scoring procedure (Game.on_call, which
  stops the game by raising: a few thousand instructions, counted in this phase);
- scored: the game over.
Games are played as `silvics simulate` plays them (`play_on`, random agents, the collector set
as for a batch: simulate.quiet_collector). Run it from a folder holding no rules/ (each game
then comes from the installed checkout). Slow: a game runs about 50x slower under Valgrind.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from instructions import ENVIRONMENT, SETUPS, counted

PHASES = ("made", "set up", "played", "scored")

PROBE = """
import sys
from silvics import games
from silvics.interpreter.agents import RandomAgent, play_on
from silvics.interpreter.game import SAMPLED_GAMES, Game
from silvics.interpreter.simulate import quiet_collector
game_id, players, count, phase = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
ir = games.load(game_id)

class Scoring(Exception):
    pass

def scoring(game, name, env):
    if name == "scoring":
        raise Scoring

def play(seed, phase=phase):
    game = Game(ir, players, seed, start=False)
    if phase == "made":
        return game
    if phase == "played":
        game.on_call = scoring
    try:
        game.begin()
        if phase != "set up":
            play_on(game, [RandomAgent(seed, seat) for seat in range(players)])
    except Scoring:
        pass
    return game

with quiet_collector():  # (as instructions.py plays)
    for seed in range(10_000, 10_001 + SAMPLED_GAMES):  # whole, uncounted: the rules judge (instructions.py)
        game = play(seed, "scored")
    for seed in range(count):
        game = play(seed)
state = game.state  # where the last game stopped: its choices, its points, whether all lie in the box
print(phase, len(state.choices), len(state.score_items), len(state.zones["box"]) == len(state.location))
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="a game id; repeatable (default: all four)")
    parser.add_argument("--games", type=int, help="games counted (default: as instructions.py counts)")
    args = parser.parse_args()
    if not shutil.which("valgrind"):
        raise SystemExit("this needs valgrind (apt-get install valgrind)")
    heading = "".join(f"{phase:>12}" for phase in PHASES)
    print(f"{'game':<16}{heading}   (thousands of instructions a game)")
    with tempfile.TemporaryDirectory() as folder, ThreadPoolExecutor(2) as pool:
        for game_id, players, games in SETUPS:
            if args.only and game_id not in args.only:
                continue
            games = args.games or games
            probe = [PROBE, game_id, str(players)]
            subprocess.run(  # one game uncounted: the generated code cached before the counted ones
                [sys.executable, "-P", "-c", *probe, "0", "scored"],
                capture_output=True, check=True, cwd=folder, env=ENVIRONMENT,
            )
            runs = {(phase, n): pool.submit(counted, sys.executable, [*probe, str(n), phase], folder)
                    for phase in PHASES for n in (0, games)}
            upto = [(runs[phase, games].result() - runs[phase, 0].result()) / games for phase in PHASES]
            each = [upto[0], *(later - earlier for earlier, later in zip(upto, upto[1:]))]
            print(f"{game_id:<16}" + "".join(f"{k / 1000:>12,.0f}" for k in each)
                  + f"   whole: {upto[-1] / 1000:,.0f}")


if __name__ == "__main__":
    main()
