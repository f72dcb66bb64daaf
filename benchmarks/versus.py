"""Two checkouts of silvics, timed in turns: random games per second, before against after.

    python benchmarks/versus.py OLD_PYTHON NEW_PYTHON [--rounds 5] [--games 20]

Each Python is an interpreter with one checkout installed (e.g. a venv with an editable
install of an older commit). Each round runs the same seeded random games in one process
per checkout, one after the other, and the best round of each is kept; the ratio is
before / after in CPU time per game, so load from other processes moves both alike.
"""
from __future__ import annotations

import argparse
import json
import subprocess

PROBE = """
import json, sys, time
from silvics import games
from silvics.interpreter.agents import RandomAgent
from silvics.interpreter.game import Game
game_id, players, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ir = games.load(game_id)

observed = hasattr(Game, "observe")              # agents answer an observation (older checkouts: the game)

def play(seed):
    game = Game(ir, players, seed)
    agents = [RandomAgent(seed, seat) for seat in range(players)]
    while not game.over:
        seat = game.pending.seat
        game.apply(agents[seat].choose(game.observe(seat)) if observed else agents[seat].choose(game, game.pending))

play(10_000)                                     # compiled rules and caches warm, as in a simulation
start = time.process_time()
for seed in range(count):
    play(seed)
print(json.dumps((time.process_time() - start) / count))
"""

SETUPS = [("four-forests", 2, 10), ("four-forests", 3, 10), ("four-forests", 4, 10),
          ("reforest", 1, 1), ("reforest", 2, 1), ("reforest", 3, 1), ("reforest", 4, 1),
          ("forest-shuffle", 2, 1), ("renature", 2, 1)]


def per_game(python: str, game_id: str, players: int, games: int) -> float:
    # -P: the checkout installed in that environment, never a silvics/ folder in the current one
    out = subprocess.run([python, "-P", "-c", PROBE, game_id, str(players), str(games)],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=20,
                        help="Reforest, Forest Shuffle and Renature games per round (Four Forests: 10×)")
    args = parser.parse_args()
    print(f"{'game':<14}{'players':>8}{'before ms':>11}{'after ms':>10}{'speed-up':>10}")
    for game_id, players, scale in SETUPS:
        best = {"old": float("inf"), "new": float("inf")}
        for _ in range(args.rounds):
            for side in ("old", "new"):
                best[side] = min(best[side], per_game(getattr(args, side), game_id, players, args.games * scale))
        print(f"{game_id:<14}{players:>8}{best['old'] * 1000:>11.2f}{best['new'] * 1000:>10.2f}"
              f"{best['old'] / best['new']:>9.2f}x")


if __name__ == "__main__":
    main()
