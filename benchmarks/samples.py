"""Where a random game's time goes, sampled. py-spy reads the interpreter's stack from outside
as it plays, a few hundred times a second, so nothing is traced: CPython's specialised
instructions stay on, unlike under cProfile or sys.settrace, whose counts put the time in the
wrong places (an opcode count once promised 1.3 % that Valgrind never found). Only the samples
taken while the games after the first ones are played count (not loading the rules' code, nor
the games in which the rules sample what is worth remembering). First each layer of the engine's
share, by the function a sample was in (its own time): the rules' generated code, the flow that
drives it, remembering values, changing the state, the agents. Then each function's share, twice:
its own (a call's overhead counts to its caller) and with everything it calls. The rules'
generated functions are listed by name, as `generated`.

    pip install -e '.[profile]'
    python benchmarks/samples.py forest-shuffle --games 1500

Valgrind (instructions.py) says how much a change gains; this says where to look first.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from instructions import ENVIRONMENT, PROBE

# PROBE's games, played as `silvics simulate` and bench.py play them (play_on: a random agent's
# pick drawn with no observation made), not through an observation at each decision; those
# sampled are played by `sampled`, not the first ones (the rules' code loaded, and their sampling
# of what is worth remembering)
SAMPLED = (
    PROBE.replace(
        """    while not game.over:
        seat = game.pending.seat
        game.apply(agents[seat].choose(game.observe(seat)))
""",
        "    play_on(game, agents)\n\ndef sampled(seed):\n    play(seed)\n",
    )
    .replace("from silvics.interpreter.agents import RandomAgent", "from silvics.interpreter.agents import RandomAgent, play_on")
    .replace(
        """    for seed in [*range(10_000, 10_001 + SAMPLED_GAMES), *range(count)]:
        play(seed)""",
        """    for seed in range(10_000, 10_001 + SAMPLED_GAMES):
        play(seed)
    for seed in range(count):
        sampled(seed)""",
    )
)
assert SAMPLED.count("sampled(seed)") == 2, "instructions.PROBE has changed: play its games through play_on here"

_FRAME = re.compile(r"(?P<name>.*?) \((?P<file>.*?)(?::\d+)?\)$")  # py-spy's raw "function (file:line)"


# The layers of the engine, and where each is, by file and (for a file holding several) the
# start of a function's name: the first that matches a sample's innermost frame names its layer.
# The rules' generated module is `rules_…`; `<string>` holds the probe's `play` and a Frame's
# generated __init__ (dataclasses).
GENERATED, RUNNERS = "the rules' expressions and actions (generated)", "flow: the runners of blocks and loops (generated)"
STEPS, DRIVING = "flow: the steps (primitives/flow.py)", "flow: driving it (advance, apply, frames, choices, interrupts)"
MEMO, STATE = "remembering values (memo, Readings, telling them)", "changing the state (state.py)"
MAKING, RUNTIME = "making a game (its secret order, dealt tables, state)", "the primitives' runtime (expressions, actions, draws)"
TABLE, SEEING = "reading the table (the rest of game.py)", "observations and views (what a seat sees)"
AGENTS = "agents (a random agent's pick, drawn in play_on)"
LAYERS = (
    (RUNNERS, "rules_", ("block_runner",)),
    (GENERATED, "rules_", ()),
    (STEPS, "flow.py", ()),
    (MAKING, "game.py", ("Game.__init__", "secret_order", "_inverse", "_permuted", "Rules.dealt", "Rules.wholes")),
    (MAKING, "state.py", ("State.new",)),
    (MEMO, "game.py", ("Game.remembered", "Game._inherit", "Game.kept", "Game._kept_afresh", "Game._sampled",
                       "Reading.", "Worth.", "_Kept.")),
    (MEMO, "state.py", ("State.tell_readers",)),
    (DRIVING, "game.py", ("Game.advance", "Game.apply", "Game.push", "Game.pop", "Game.ask", "Game.procedure",
                          "Game.check_interrupts", "Game.hold", "_noted", "_run_main")),
    (DRIVING, "runtime.py", ()),
    (AGENTS, "<string>", ("play", "sampled")),
    (DRIVING, "<string>", ()),
    (AGENTS, "agents.py", ()),
    (STATE, "state.py", ()),
    (RUNTIME, "expressions.py", ()),
    (RUNTIME, "actions.py", ()),
    (RUNTIME, "draws.py", ()),
    (TABLE, "game.py", ()),
    (SEEING, "observation.py", ()),
    (SEEING, "views.py", ()),
)


def shares(raw: str) -> tuple[Counter, Counter, Counter, int]:
    """Samples per layer and per function, its own and inclusive, from py-spy's raw output (a
    stack and a count a line), of the stacks inside a game sampled (the probe's `sampled`)."""
    layers, own, inclusive, total = Counter(), Counter(), Counter(), 0
    for line in raw.splitlines():
        stack, count = line.rsplit(" ", 1)
        frames = stack.split(";")
        if not any(frame.startswith("sampled (<string>") for frame in frames):
            continue
        named = [_function(frame) for frame in frames]
        layers[layer(frames)] += int(count)
        own[named[-1]] += int(count)
        inclusive.update(dict.fromkeys(set(named), int(count)))
        total += int(count)
    return layers, own, inclusive, total


def layer(frames: list[str]) -> str:
    """The layer of the engine a sample's innermost frame is in (LAYERS), or `other: FILE`; a
    random agent's draw counts to the agents."""
    if len(frames) > 1 and frames[-2].startswith("play_on (") and "draws.py" in frames[-1]:
        return AGENTS
    found = _FRAME.match(frames[-1])
    if found is None:
        return "other: no Python frame (the collector, or C code)"
    name, where = found["name"], Path(found["file"]).name
    for title, file, functions in LAYERS:
        if where.startswith(file) and (not functions or name.startswith(functions)):
            return title
    return f"other: {where}"


def _function(frame: str) -> str:
    found = _FRAME.match(frame)
    if found is None:
        return frame or "(no Python frame: the collector, or C code)"
    where = Path(found["file"]).name
    return f"{found['name']} [{'generated' if where.startswith('rules_') else where}]"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--rate", type=int, default=400, help="samples a second")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--raw", type=Path, help="also keep py-spy's samples in FILE (a stack and a count a line)")
    args = parser.parse_args()
    if not shutil.which("py-spy"):
        raise SystemExit("this needs py-spy: pip install -e '.[profile]'")
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "samples.txt"
        play = [sys.executable, "-c", SAMPLED, args.game, str(args.players), str(args.games)]
        subprocess.run([*play[:-1], "0"], check=True, env=ENVIRONMENT)  # the rules' code generated, untimed
        subprocess.run(["py-spy", "record", "-r", str(args.rate), "-f", "raw", "-o", str(out), "--", *play],
                       check=True, env=ENVIRONMENT, capture_output=True)
        layers, own, inclusive, total = shares(out.read_text())
        if args.raw:
            shutil.copyfile(out, args.raw)
    print(f"{args.game}, {args.players} players, {args.games} games: {total} samples while playing")
    for title, counted, top in (("by layer (own)", layers, None), ("own", own, args.top),
                                ("with what it calls", inclusive, args.top)):
        print(f"\n{title}:")
        for name, count in counted.most_common(top):
            print(f"{count / total:7.1%}  {name}")


if __name__ == "__main__":
    main()
