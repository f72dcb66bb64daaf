"""Observation playthroughs, in the manner of OpenSpiel's: seeded games of each bundled game in
which, at every decision, every seat's observation is written out as text (what changed
since that seat last looked), and the whole log as each seat reads it at the end. The files
in tests/playthroughs/ are committed: a card leaking to a seat that may not see it shows as
a diff. After an intended change, regenerate them all (from the checkout's root) with

    python tests/test_playthroughs.py

and read the diff before committing it.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from silvics import games
from silvics.interpreter.agents import decide, make_agent
from silvics.interpreter.game import Game

FOLDER = Path(__file__).parent / "playthroughs"
RUNS = {   # file: (game, players, seed, modules)
    "four-forests-2p-seed1.txt": ("four-forests", 2, 1, ()),
    "four-forests-3p-seed2-experienced.txt": ("four-forests", 3, 2, ("experienced",)),
    "reforest-1p-seed1-hard.txt": ("reforest", 1, 1, ("hard",)),
    "reforest-2p-seed2-terrain-events.txt": ("reforest", 2, 2, ("terrain", "events")),
}


def runs(line: str) -> str:
    """Runs of unseen cards written short: "?, ?, ?" as "?×3"."""
    return re.sub(r"\?(?:, \?)+", lambda run: f"?×{run.group().count('?')}", line)


class Looker:
    """What one seat has seen so far, to write only what changed."""

    def __init__(self, seat: int):
        self.seat, self.zones, self.table, self.lines = seat, {}, {}, 0

    def looks(self, observation) -> list[str]:
        out = []
        if observation.deciding is not None:
            asked = "you choose" if observation.deciding == self.seat else f"P{observation.deciding + 1} chooses"
            options = "  ".join(f"[{n}] {label}" for n, label in enumerate(observation.labels, 1))
            out.append(f"  {asked}: {observation.prompt}: {options}")
        zones = {label: ", ".join(map(str, cards)) for label, cards in observation.zones.items()}
        out += [f"  {label}: {cards}" for label, cards in zones.items() if self.zones.get(label) != cards]
        out += [f"  {label}: (empty)" for label in self.zones if label not in zones]
        table = {**observation.counters, "scores": list(observation.scores), **observation.markers}
        changed = [f"{name} {value}" for name, value in table.items() if self.table.get(name) != value]
        out += [f"  now: {', '.join(changed)}"] if changed else []
        log = observation.log
        out += [f"  | {line}" for line in log[self.lines:]]
        self.zones, self.table, self.lines = zones, table, len(log)
        return [runs(line) for line in out]


def playthrough(game_id: str, players: int, seed: int, modules=()) -> str:
    """A random game, every seat's observation at every decision, and each seat's log at the end."""
    game = Game(games.load(game_id), players, seed, modules)
    agents = [make_agent("random", seed, seat) for seat in range(players)]
    lookers = [Looker(seat) for seat in range(players)]
    out = [f"# {game_id}, {players} player{'s' * (players != 1)}, seed {seed}, random agents"
           + (f", modules {', '.join(modules)}" if modules else "") + "; regenerate: python tests/test_playthroughs.py"]
    decision = 0
    while not game.over:
        decision += 1
        out.append(f"== decision {decision}")
        for looker in lookers:
            out += [f"-- P{looker.seat + 1}", *looker.looks(game.observe(looker.seat))]
        decide(game, agents)
    out.append("== the end")
    for looker in lookers:
        observation = game.observe(looker.seat)
        out += [f"-- P{looker.seat + 1}", *looker.looks(observation), f"-- P{looker.seat + 1}'s whole log",
                *(runs(f"  | {line}") for line in observation.log)]
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("name", sorted(RUNS))
def test_observation_playthrough(name):
    assert playthrough(*RUNS[name]) == (FOLDER / name).read_text(encoding="utf-8"), \
        f"{name} changed: if you meant it, regenerate with python tests/test_playthroughs.py and read the diff"


if __name__ == "__main__":
    FOLDER.mkdir(exist_ok=True)
    for name, run in RUNS.items():
        (FOLDER / name).write_text(playthrough(*run), encoding="utf-8")
        print(f"wrote {FOLDER / name}", file=sys.stderr)
