"""Benchmarks: compile time for the bundled data and random games per second.

    python benchmarks/bench.py [--games N]

Every figure is printed beside a baseline measured in the same process, so the ratios stay
comparable across machines:
- compile: the whole pipeline against only reading the same YAML files with the C loader;
- play: random games against a fixed pure-Python workload (shuffling and sorting a 64-card
  list), reported as games per second and as baseline units per game.
"""
from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import yaml

from silvics import bundled
from silvics.compiler.build import _relative, compile_game
from silvics.compiler.parse import _tree as parse_cache
from silvics.interpreter.agents import RandomAgent
from silvics.interpreter.game import Game


def best_of(fn, repeat=5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def yaml_files(game_yaml: Path) -> list[Path]:
    root = game_yaml.parent.parent.parent
    return [game_yaml, *game_yaml.parent.glob("modules/*.yaml"), *(root / "cards" / game_yaml.parent.name).glob("*.yaml")]


def baseline_unit():
    deck = list(range(64))
    rng = random.Random(0)
    for _ in range(200):
        rng.shuffle(deck)
        deck.sort()


def play(ir, players, seed):
    game = Game(ir, players, seed)
    agents = [RandomAgent(seed, seat) for seat in range(players)]
    while not game.over:
        game.apply(agents[game.pending.seat].choose(game, game.pending))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    for game_id, path in bundled.games().items():
        files = yaml_files(path)
        lines = sum(len(f.read_text().splitlines()) for f in files)
        read = best_of(lambda: [yaml.load(f.read_text(), Loader=loader) for f in files])
        compiled = best_of(lambda: (parse_cache.cache_clear(), _relative.cache_clear(), compile_game(path)))  # cold
        ir = compile_game(path)
        print(f"{game_id}: compile {compiled * 1000:.1f} ms for {len(ir.cards)} cards, {len(files)} files, "
              f"{lines} YAML lines; reading the YAML alone {read * 1000:.1f} ms (ratio {compiled / read:.1f}x)")
        unit = best_of(baseline_unit)
        for players in range(ir.min_players, ir.max_players + 1):
            start = time.perf_counter()
            for seed in range(args.games):
                play(ir, players, seed)
            per_game = (time.perf_counter() - start) / args.games
            print(f"  {players} players: {1 / per_game:,.0f} random games/s "
                  f"({per_game / unit:.2f} baseline units per game; baseline {unit * 1000:.2f} ms)")


if __name__ == "__main__":
    main()
