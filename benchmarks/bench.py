"""Benchmarks: compile time, games per second against a hand-written game, copy time, commands.

    python benchmarks/bench.py [--games N] [--only SECTION] [--json FILE]

Every speed is printed beside a baseline measured in the same process (the machine is
shared and noisy: ratios travel, absolute figures do not), best of several runs:
- compile: a cold compile in a fresh process against reading the same YAML with the C loader;
- four-forests: engine random games against benchmarks/four_forests_direct.py, the same
  game written by hand, at 2, 3 and 4 players (the ratio is engine time / hand-written time);
- reforest, forest-shuffle, renature: random games at 2 players and up, against a fixed
  pure-Python workload (baseline units per game);
- copy: game.copy() of games paused at a choice mid-game, in µs, beside copying the same
  position held as a hand-written game would hold it;
- commands: the designer's loop as whole commands (silvics check, silvics play --quiet), cold
  (an empty compiled-IR cache) and warm, with Python's bytecode cached as an install has it;
- ismcts (only with --only ismcts: it takes minutes): one Renature game, ISMCTS at its default
  budget against random, in CPU seconds.
See benchmarks/README.md for what each figure means.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from silvics import bundled, games
from silvics.interpreter.agents import decide, make_agent, play_on
from silvics.interpreter.game import Game
from silvics.interpreter.simulate import quiet_collector

sys.path.insert(0, str(Path(__file__).resolve().parent))
import four_forests_direct as direct  # noqa: E402  (a script beside this one, not a package)

ROOT = Path(__file__).resolve().parent.parent
SECTIONS = ("compile", "four-forests", "reforest", "forest-shuffle", "renature", "copy", "commands", "ismcts")
DEFAULT = SECTIONS[:-1]  # ismcts only when asked for: it takes minutes
GAMES = ("four-forests", "reforest", "forest-shuffle", "renature")


# ---- measuring -------------------------------------------------------------------------------

def best_of(fn, repeat: int = 5) -> float:
    """The fastest of several runs, in seconds: the run least disturbed by the other processes."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def baseline_unit():
    """A fixed pure-Python workload (about 2 ms): shuffling and sorting a 64-card list 200 times."""
    deck = list(range(64))
    rng = random.Random(0)
    for _ in range(200):
        rng.shuffle(deck)
        deck.sort()


def table(headers: list[str], rows: list[list]) -> str:
    cells = [headers] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = ["  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths)))
             for row in cells]
    return "\n".join([lines[0], "  ".join("-" * w for w in widths), *lines[1:]])


def section(title: str):
    print(f"\n== {title} ==")


# ---- compile ---------------------------------------------------------------------------------

# Run in a fresh interpreter, so nothing is cached: the first compile builds the grammar and
# the schema validators too, as `silvics check` does; the second shows what caching saves.
COMPILE_CHILD = """
import json, sys, time
from pathlib import Path
import yaml
from silvics.compiler.build import compile_game
path, files = sys.argv[1], sys.argv[2:]
loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
reads = []
for _ in range(5):
    start = time.perf_counter()
    [yaml.load(Path(f).read_text(encoding="utf-8"), Loader=loader) for f in files]
    reads.append(time.perf_counter() - start)
start = time.perf_counter()
ir = compile_game(path)
cold = time.perf_counter() - start
start = time.perf_counter()
compile_game(path)
again = time.perf_counter() - start
print(json.dumps({"read": min(reads), "cold": cold, "again": again, "cards": len(ir.cards),
                  "copies": sum(c.copies for c in ir.cards)}))
"""


def yaml_files(game_yaml: Path) -> list[Path]:
    cards = game_yaml.parent.parent.parent / "cards" / game_yaml.parent.name
    return [game_yaml, *sorted(game_yaml.parent.glob("modules/*.yaml")), *sorted(cards.glob("*.yaml"))]


def compile_in_fresh_process(path: Path, files: list[Path]) -> dict:
    out = subprocess.run([sys.executable, "-c", COMPILE_CHILD, str(path), *map(str, files)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def bench_compile(args) -> dict:
    section("compile (cold: first compile in a fresh process)")
    figures, rows = {}, []
    for game_id, path in bundled.games().items():
        files = yaml_files(path)
        runs = [compile_in_fresh_process(path, files) for _ in range(args.repeat)]
        best = {key: min(run[key] for run in runs) for key in ("read", "cold", "again")}
        lines = sum(len(f.read_text(encoding="utf-8").splitlines()) for f in files)
        figures[game_id] = {**best, "cards": runs[0]["cards"], "copies": runs[0]["copies"], "files": len(files), "yaml_lines": lines,
                            "ratio": best["cold"] / best["read"]}
        rows.append([game_id, f"{runs[0]['cards']} ({runs[0]['copies']})", f"{len(files)} / {lines}", f"{best['cold'] * 1000:.1f}",
                     f"{best['read'] * 1000:.1f}", f"{best['cold'] / best['read']:.1f}x",
                     f"{best['again'] * 1000:.1f}"])
    print(table(["game", "cards (copies)", "files / lines", "cold ms", "YAML read ms", "ratio", "2nd compile ms"], rows))
    return figures


# ---- Four Forests: engine against hand-written ---------------------------------------------

def engine_games(ir, players: int, seeds) -> list[direct.Result]:
    return [direct.engine_game(ir, players, seed) for seed in seeds]


def direct_games(cards, players: int, seeds) -> list[direct.Result]:
    return [direct.play(*cards, players, seed) for seed in seeds]


def side_by_side(first, second, repeat: int) -> tuple[float, float]:
    """Seconds per item of two workloads, each `(fn, items)` timed as fn(items): best of `repeat`
    rounds that alternate between the two, so a burst of load from another process slows both."""
    best = [float("inf"), float("inf")]
    for _ in range(repeat):
        for i, (fn, items) in enumerate((first, second)):
            start = time.perf_counter()
            fn(items)
            best[i] = min(best[i], (time.perf_counter() - start) / len(items))
    return best[0], best[1]


def bench_four_forests(args) -> dict:
    section("Four Forests: engine random games against the same game written by hand")
    ir, cards = games.load("four-forests"), direct.read_cards()
    unit = best_of(baseline_unit)
    figures, rows, checks = {}, [], []
    for players in (2, 3, 4):
        seeds = range(args.games)
        engine_results, direct_results = engine_games(ir, players, seeds), direct_games(cards, players, seeds)
        engine, by_hand = side_by_side((lambda s: engine_games(ir, players, s), seeds),
                                       (lambda s: direct_games(cards, players, s), range(args.games * 5)),
                                       max(args.repeat, 5))
        figures[f"{players}p"] = {"engine_games_per_s": 1 / engine, "direct_games_per_s": 1 / by_hand,
                                  "ratio": engine / by_hand, "engine_baseline_units": engine / unit}
        rows.append([f"{players} players", f"{1 / engine:,.0f}", f"{1 / by_hand:,.0f}", f"{engine / by_hand:.1f}x",
                     f"{engine * 1e6:,.0f}", f"{by_hand * 1e6:,.0f}", f"{engine / unit:.2f}"])
        checks.append(direct.verdict(players, args.games, direct.summary(engine_results),
                                     direct.summary(direct_results)))
    print(table(["", "engine games/s", "hand-written games/s", "ratio", "engine µs/game", "hand µs/game",
                 "engine baseline units"], rows))
    print(f"(ratio: engine time / hand-written time, target within 4x (issue 25); baseline unit {unit * 1000:.2f} ms)")
    print("self-check, the same seeds:")
    for line in checks:
        print(f"  {line}")
    return {**figures, "baseline_ms": unit * 1000}


# ---- Reforest: games against a fixed workload --------------------------------------------------

def play_random(ir, players: int, seed: int) -> Game:
    game = Game(ir, players, seed)
    play_on(game, [make_agent("random", seed, seat) for seat in range(players)])
    return game


def bench_random(game_id: str, shorter: int, target_ms: float):
    """The section of random games of one bundled game, at every player count it allows (a game
    of it takes `shorter` times a Four Forests game's time, so it plays that many fewer); the
    target is issue 25's, for a 2-player game."""

    def bench(args) -> dict:
        count = max(3, args.games // shorter)
        ir = games.load(game_id)
        section(f"{ir.name}: random games ({count} seeds per player count)")
        figures, rows, units = {}, [], []
        baseline = (lambda runs: [baseline_unit() for _ in runs], range(10))
        for players in range(max(2, ir.min_players), ir.max_players + 1):
            seeds = range(count)
            [play_random(ir, players, s) for s in seeds]  # warms the caches
            seconds, unit = side_by_side(
                (lambda s: [play_random(ir, players, x) for x in s], seeds), baseline, args.repeat
            )
            units.append(unit)
            figures[f"{players}p"] = {"games_per_s": 1 / seconds, "baseline_units": seconds / unit}
            rows.append([f"{players} players", f"{1 / seconds:,.1f}", f"{seconds * 1000:,.1f}", f"{seconds / unit:.2f}"])
        print(table(["", "games/s", "ms/game", "baseline units per game"], rows))
        print(
            f"(target: ≤ {target_ms:g} ms a 2-player game; baseline unit: shuffling and sorting a 64-card "
            f"list 200 times, timed between the games: {min(units) * 1000:.2f} ms here)"
        )
        return {**figures, "baseline_ms": min(units) * 1000}

    return bench


def bench_ismcts(args) -> dict:
    """One Renature game at 2 players, ISMCTS at its default budget against random (not run by
    default: it takes minutes)."""
    section("ISMCTS: a Renature game at 2 players, ismcts (default budget) against random")
    ir = games.load("renature")
    game = Game(ir, 2, 1)
    started = time.process_time()
    play_on(game, [make_agent("ismcts", 1, 0), make_agent("random", 1, 1)])
    seconds = time.process_time() - started
    print(f"{seconds:.1f} s of CPU time, {len(game.state.choices)} decisions (target: ≤ 30 s)")
    return {"seconds": seconds, "decisions": len(game.state.choices)}


# ---- copy: a game paused at a choice ---------------------------------------------------------

def paused_games(ir, players: int, seeds, fractions=(0.25, 0.5, 0.75)) -> list[Game]:
    """Games paused at a choice a quarter, half and three quarters of the way through."""
    paused = []
    for seed in seeds:
        length = sum(1 for _ in _decisions(ir, players, seed))
        for fraction in fractions:
            stop = int(length * fraction)
            for made, game in enumerate(_decisions(ir, players, seed)):
                if made == stop:
                    paused.append(game)
                    break
    return paused


def _decisions(ir, players: int, seed: int):
    """The game paused before each decision, in turn (the same game each time for a seed)."""
    game = Game(ir, players, seed)
    agents = [make_agent("random", seed, seat) for seat in range(players)]
    while not game.over:
        yield game
        decide(game, agents)


def copy_time(game, number: int = 300) -> float:
    return per_copy(game.copy, number)


def per_copy(copy, number: int) -> float:
    """Seconds per copy, each dropped at once as a search drops its trial games (keeping them
    all would time the garbage collector walking them too)."""
    def copies():
        for _ in range(number):
            copy()
    return best_of(copies) / number


def hand_written_copy_time(players: int, number: int = 300) -> float:
    """Copying a mid-game Four Forests position as the hand-written game holds it: lists of ints
    and the random generator (so the copy plays on), the floor a Python copy can reach."""
    rng = random.Random(1)
    deck, hands = list(range(24)), [list(range(5)) for _ in range(players)]
    forests, votes = [list(range(2)) for _ in range(players)], [[(1, True)] * players for _ in range(4)]
    position = (rng, 0, deck, hands, forests, votes, [0] * 11, [1, 2, 3, 4])

    def copy(p):
        return (clone_generator(p[0]), p[1], list(p[2]), [list(h) for h in p[3]], [list(f) for f in p[4]],
                [list(v) for v in p[5]], list(p[6]), list(p[7]))
    return per_copy(lambda: copy(position), number)


def random_generator_copy_time(number: int = 300) -> float:
    """A copy of a random.Random as the hand-written copy makes it: the part no state layout saves."""
    rng = random.Random(1)
    return per_copy(lambda: clone_generator(rng), number)


def clone_generator(rng: random.Random) -> random.Random:
    clone = random.Random.__new__(random.Random)      # not Random(): that seeds from the OS first
    clone.setstate(rng.getstate())
    return clone


def bench_copy(args) -> dict:
    section("copy: game.copy() of a game paused at a choice (µs; 3 seeds x 3 points in the game)")
    figures, rows = {}, []
    for game_id, players in (("four-forests", 4), ("four-forests", 2), ("reforest", 4), ("reforest", 1)):
        ir = games.load(game_id)
        times = [copy_time(game) for game in paused_games(ir, players, range(1, 4))]
        figures[f"{game_id} {players}p"] = {"mean_us": sum(times) / len(times) * 1e6, "max_us": max(times) * 1e6}
        rows.append([f"{game_id} {players}p", f"{min(times) * 1e6:.1f}", f"{sum(times) / len(times) * 1e6:.1f}",
                     f"{max(times) * 1e6:.1f}"])
    by_hand, generator = hand_written_copy_time(4), random_generator_copy_time()
    rows.append(["hand-written FF 4p", f"{by_hand * 1e6:.1f}", "", ""])
    rows.append(["  of which random.Random", f"{generator * 1e6:.1f}", "", ""])
    figures["hand_written_us"], figures["random_generator_us"] = by_hand * 1e6, generator * 1e6
    print(table(["position", "min µs", "mean µs", "max µs"], rows))
    print("(target: Four Forests ≤ 20 µs; the hand-written line copies the same position as plain lists)")
    return figures


# ---- the designer's loop, as whole commands ---------------------------------------------------

def silvics_command() -> list[str]:
    script = Path(sys.executable).with_name("silvics")
    return [str(script)] if script.exists() else [sys.executable, "-m", "silvics"]


def wall_time(command: list[str], cache: Path) -> float:
    """Seconds of a whole command, its compiled-IR cache in `cache`, Python's bytecode cache on
    (the environment may turn it off, as PYTHONDONTWRITEBYTECODE does: an installed silvics
    has its bytecode, so a command does not compile silvics' own sources every time)."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    subprocess.run(command, cwd=ROOT, capture_output=True, check=True, env=env)
    return time.perf_counter() - start


def bench_commands(args) -> dict:
    section("commands: wall time of whole commands (cold: the compiled-IR cache empty; warm: filled)")
    silvics = silvics_command()
    commands = {"python -c pass (start-up, the floor)": [sys.executable, "-c", "pass"],
                "silvics check (the four bundled games)": [*silvics, "check", *(f"rules/{g}" for g in GAMES)],
                "silvics play four-forests --quiet": [*silvics, "play", "four-forests", "--quiet"],
                "silvics play reforest --quiet": [*silvics, "play", "reforest", "--quiet"]}
    figures, rows = {}, []
    with tempfile.TemporaryDirectory() as folder:
        warm_cache = Path(folder) / "warm"
        for label, command in commands.items():
            wall_time(command, warm_cache)  # writes the bytecode and fills the cache, untimed
            colds = []
            for run in range(args.repeat):
                colds.append(wall_time(command, Path(folder) / f"cold-{len(figures)}-{run}"))
            cold = min(colds)
            warm = min(wall_time(command, warm_cache) for _ in range(args.repeat))
            figures[label] = {"cold_s": cold, "warm_s": warm}
            rows.append([label, f"{cold:.2f}", f"{warm:.2f}"])
    print(table(["command", "cold s", "warm s"], rows))
    print("(best of each; target: check of the four games ≤ 1 s, cold)")
    return figures


BENCHES = {
    "compile": bench_compile,
    "four-forests": bench_four_forests,
    "reforest": bench_random("reforest", 10, target_ms=7),
    "forest-shuffle": bench_random("forest-shuffle", 10, target_ms=6),
    "renature": bench_random("renature", 40, target_ms=30),
    "copy": bench_copy,
    "commands": bench_commands,
    "ismcts": bench_ismcts,
}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300,
                        help="Four Forests games per player count (Reforest and Forest Shuffle play a tenth as many, Renature a fortieth)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best is kept")
    parser.add_argument("--only", choices=SECTIONS, action="append", help="run only this section; repeatable")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    args = parser.parse_args(argv)
    print(f"silvics benchmarks: Python {sys.version.split()[0]}, {args.games} games, best of {args.repeat}")
    with quiet_collector():  # games are timed as a batch plays them (simulate.quiet_collector)
        figures = {name: BENCHES[name](args) for name in (args.only or DEFAULT)}
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        print(f"\nfigures written to {args.json}")


if __name__ == "__main__":
    main()
