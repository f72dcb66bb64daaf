"""The flow protocol's floor, and what flow generated as one state machine would save of it.

    python benchmarks/flow_floor.py [--games 5] [--repeat 3]

A game of nothing but choices: Orchard (examples/orchard) with its play replaced by
`repeat: 1000` of `each player: [look]`, where `look` is `choose fruit from market` (`play`
binds the count first, `let passes = 1000`: a procedure that binds no name is written into its
caller's runner as the rules are built, where replacing it afterwards would change nothing). Each
decision then costs only what the engine's protocol costs: the flow (frames, the block runner,
the loops' passes, the noted steps), the choice and its log line, the observation, and the
agent. It is timed twice in one process, in alternate rounds:
- as the engine plays it (flow closures on the frame stack);
- with `play` replaced by a state machine written by hand, as issue 25's generated flow
  would emit it: one frame whose `run` is a single function that keeps its place in
  `frame.i` and asks the same question through the same `Choice`.
Both must log the same choices, the state machine being the same game. The difference is
what generated flow could save at each decision; the rest of a decision is its floor.
"""
from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from silvics import games
from silvics.interpreter.agents import RandomAgent, play_on
from silvics.interpreter.game import Game, compiled_rules
from silvics.interpreter.primitives.expressions import pile_of
from silvics.interpreter.runtime import Choice, Frame
from silvics.interpreter.simulate import quiet_collector
from silvics.interpreter.views import card_label

ROOT = Path(__file__).resolve().parent.parent
PASSES = 1000
PLAY = f"""  play:
    - let passes = {PASSES}
    - repeat: passes
      do:
        - each player: [look]
  look:
    - choose fruit from market
"""


def floor_game(folder: Path):
    """The floor game's IR, written into `folder` from Orchard."""
    shutil.copytree(ROOT / "examples" / "orchard", folder, dirs_exist_ok=True)
    game_yaml = folder / "rules" / "orchard" / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    start, end = text.index("  play:\n"), text.index("  pick:")  # (pick stays, uncalled: its words name it)
    text = text[:start] + PLAY + text[end:]
    text = text.replace("    pick: \"{you}'s turn\"\n", "")  # a heading of a procedure no longer called
    game_yaml.write_text(text, encoding="utf-8")
    return games.load(str(game_yaml.parent), use_cache=False)


def state_machine(rules):
    """`play` as one function keeping its place in frame.i (0: the next pass, 1: the next seat,
    2: after the choice), its loops' progress in frame.data [pass, seats left]."""
    choose = rules.ir.procedures["look"]
    choose = choose if choose.op == "choose" else choose.args["steps"][0]
    source, prompt = rules.build(choose.args["from"]), choose.args.get("prompt") or "choose fruit"

    def run(game, frame):
        env, data, state = frame.env, frame.data, game.state
        while True:
            if frame.i == 0:
                data[0] += 1
                if data[0] > PASSES:
                    state.stack.pop()
                    return
                first, players = state.markers["first"], state.players
                data[1] = [(first + k) % players for k in range(players)]
                frame.i = 1
            elif frame.i == 1:
                if not data[1]:
                    frame.i = 0
                    state.steps += 1  # a pass is a step, as the generated runner counts it
                    if state.steps > game.step_budget:
                        game.out_of_steps()
                    continue
                env["you"] = data[1].pop(0)
                found = tuple(pile_of(game, source(game, env)))
                frame.i = 2
                if len(found) > 1:
                    def label(option, viewer: int, found=found) -> str:
                        return card_label(game, viewer, option, found)

                    game.ask(Choice(env["you"], prompt, found, label, choose, "fruit", True))
                    return
                env["fruit"] = found[0] if found else None
            else:
                frame.i = 1

    def enter(game, frame):
        enter.entered += 1
        game.state.stack.append(Frame(run, dict(frame.env), 0, [0, None]))

    enter.entered = 0  # (main checks the games played it)
    return enter


def decisions(ir, seeds) -> tuple[float, list]:
    """The best seconds a decision over games of these seeds, and their logged choices."""
    best, logged = float("inf"), []
    for seed in seeds:
        game = Game(ir, 2, seed)
        start = time.perf_counter()
        play_on(game, [RandomAgent(seed, 0), RandomAgent(seed, 1)])
        best = min(best, (time.perf_counter() - start) / len(game.state.choices))
        logged.append([str(entry) for entry in game.state.log if entry[0] == "choice"])
    return best, logged


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="games of each per round")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the best is kept")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder, quiet_collector():
        ir = floor_game(Path(folder))
        rules = compiled_rules(ir)
        ways = {"closures": rules.procedures["play"], "state machine": state_machine(rules)}
        best, logs = dict.fromkeys(ways, float("inf")), {}
        for _ in range(args.repeat):
            for name, play in ways.items():
                rules.procedures["play"] = play
                seconds, logs[name] = decisions(ir, range(args.games))
                best[name] = min(best[name], seconds)
        rules.procedures["play"] = ways["closures"]
    if not ways["state machine"].entered:
        raise SystemExit("the games never called the state machine: `play` was written into its caller")
    if logs["closures"] != logs["state machine"]:
        raise SystemExit("the state machine logged other choices: it is not the same game")
    for name, seconds in best.items():
        print(f"{name:>14}: {seconds * 1e6:.2f} µs a decision")
    print(f"{'ratio':>14}: {best['closures'] / best['state machine']:.2f}x "
          f"({len(logs['closures'][0])} decisions a game, the same choices logged)")


if __name__ == "__main__":
    main()
