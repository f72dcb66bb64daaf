"""How long the search agents of a run will think, measured on the game itself before the run
starts, so that a large budget (montecarlo:100000 thinks for hours a game) is said, not sat
through in silence.

The measure is the agents' own speed on this game and this machine: a copy of the game is
played on at random to count each seat's decisions, and at a seat's first decisions (for
SAMPLE_SECONDS at most) its agent decides with a budget of 1, timed. A search agent's work
grows with its budget (rollouts, samples or iterations, each as much work as the first), so a
decision takes its budget times that. Agents without a budget (random, a game's strategies)
think too little to count. Nothing of the real game or of its agents is touched.
"""

from __future__ import annotations

import random
import sys
import time

from silvics.interpreter.agents import AGENTS, BUDGETS, build_agent
from silvics.interpreter.draws import below
from silvics.interpreter.game import GameError

SAMPLE_SECONDS = 0.1  # at most, per seat: the time spent measuring its agent
WORTH_SAYING = 60.0  # seconds: a run expected to take longer is announced before it starts


def announce_game(game, names):
    """Before `game` is played on by the agents `names` (one a seat): its expected time, if long."""
    _say("this game", *_thinking(game, names))


def announce_games(game, names, count: int, workers: int):
    """Before `count` games like `game` are played on `workers` processes by the agents `names`
    (one for every seat, or one a seat): their expected time, if long."""
    seconds, measured = _thinking(game, names * game.state.players if len(names) == 1 else names)
    _say(f"these {count} games", seconds * count / min(workers, count), measured)


def announce_balance(game, agents, count: int, alone: int, workers: int, cached: bool):
    """Before a balance report's `count` games like `game`: `alone` with the first of `agents` in
    every seat, the rest between two of them; `cached`, those the cache holds are not played."""
    each = {name: _thinking(game, [name] * game.state.players)[0] for name in dict.fromkeys(agents)}
    total = alone * each[agents[0]] + (count - alone) * sum(each.values()) / len(each)
    _say(
        f"these {count} games" + (", less those the cache holds," if cached else ""),
        total / min(workers, count),
        ", ".join(f"{name} {duration(seconds)} a game" for name, seconds in each.items() if budget(name)),
    )


def budget(name: str) -> int | None:
    """A search agent's budget (its own default when the name gives none); None for others."""
    base, _, given = name.partition(":")
    if base not in BUDGETS:
        return None
    return int(given) if given else getattr(AGENTS[base](0, 0), BUDGETS[base])


def _per_seat(game, names) -> list[tuple[float, int]]:
    """For each seat, from where `game` stands to its end: the seconds its agent is expected to
    think a decision, and the decisions it is expected to make."""
    trial, rng, seats = game.copy(), random.Random(0), range(len(names))
    budgets = [budget(name) for name in names]
    probes = {
        seat: build_agent(f"{names[seat].partition(':')[0]}:1", 0, seat) for seat in seats if budgets[seat]
    }
    spent, sampled, decisions = [0.0 for _ in seats], [0 for _ in seats], [0 for _ in seats]
    try:
        while not trial.over:
            seat = trial.pending.seat
            decisions[seat] += 1
            if seat in probes and spent[seat] < SAMPLE_SECONDS:
                started = time.perf_counter()
                probes[seat].choose(trial.observe(seat))
                spent[seat] += time.perf_counter() - started
                sampled[seat] += 1
            trial.apply(below(rng, len(trial.pending.options)))
    except GameError:  # a rule that fails in this random game: the real one says so if it does too
        pass
    return [((budgets[s] or 0) * spent[s] / sampled[s] if sampled[s] else 0.0, decisions[s]) for s in seats]


def _thinking(game, names) -> tuple[float, str]:
    """The seconds the agents are expected to think over the rest of `game`, and each search
    agent's time a decision, in words."""
    if not any(budget(name) for name in names):
        return 0.0, ""  # nothing to measure: no search agent
    found = _per_seat(game, names)
    return sum(decision * count for decision, count in found), ", ".join(
        f"P{seat + 1} {names[seat]} {duration(decision)} a decision"
        for seat, (decision, _) in enumerate(found)
        if budget(names[seat])
    )


def _say(what: str, seconds: float, measured: str):
    if seconds > WORTH_SAYING:
        print(
            f"silvics: {what} should take about {duration(seconds)} ({measured}, measured on this game); "
            "Ctrl-C stops",
            file=sys.stderr,
            flush=True,
        )


def duration(seconds: float) -> str:
    """A time as people say it roughly: 0.04 s, 12 s, 3 min, 2 h 15 min, 3 days 4 h."""
    if seconds < 1:
        return f"{seconds:.1g} s"
    if seconds < 90:
        return f"{seconds:.0f} s"
    minutes = round(seconds / 60)
    if minutes < 120:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 48:
        return f"{hours} h {minutes} min"
    days, hours = divmod(hours, 24)
    return f"{days} days {hours} h"
