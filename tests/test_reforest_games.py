"""Reforest property tests: 300 random games per player count and module combination run to
the end with every card in exactly one zone after every action, and the end state the rulebook
promises (three rounds ended, every visitor resolved, legal stacks, stored energy seen by its
owner only, itemised scores adding up).

The games run on two processes (the machine CI uses has two cores; under pytest-xdist, in the
test's own: conftest's `pool`); each worker loads the bundled game itself, so nothing but seeds
and findings crosses between processes."""
from __future__ import annotations

import os

import pytest

from conftest import in_two_halves

GAMES = int(os.environ.get("SILVICS_REFOREST_GAMES", 300))
COMBINATIONS = [(), ("terrain",), ("events",), ("events-casual",), ("terrain", "events"),
                ("terrain", "events-casual")]


def faults_in_games(players: int, modules: tuple, seeds: range) -> list[str]:
    """Play the games; return what went wrong (an empty list when every game was legal)."""
    from conftest import play_random
    from silvics import games

    ir, found = games.load("reforest"), []
    for seed in seeds:
        try:
            game = play_random(ir, players, seed, modules)
        except AssertionError as error:          # a conservation fault, named by play_random
            found.append(f"seed {seed}: {error}")
            continue
        found += [f"seed {seed}: {fault}" for fault in end_state_faults(game)]
    return found


def end_state_faults(game) -> list[str]:
    state, faults = game.state, []
    if state.counters.get("rounds_done") != 3:
        faults.append(f"{state.counters.get('rounds_done')} rounds ended, not 3")
    for zone in ("upcoming", "goals", "growing/0"):
        if state.zones.get(zone):
            faults.append(f"{zone} is not empty at the end: {state.zones[zone]}")
    for key, pile in state.zones.items():
        if key.startswith("region:"):
            faults += [f"{key}: {fault}" for fault in stack_faults(game, key, pile) + energy_faults(game, key, pile)]
    for seat in range(state.players):
        itemised = sum(points for owner, _, points, _, _ in state.score_items if owner == seat)
        if itemised != state.scores[seat]:
            faults.append(f"P{seat + 1} scored {state.scores[seat]} but the items add up to {itemised}")
    return faults


def energy_faults(game, key: str, pile: list[int]) -> list[str]:
    """Stored energy "can be looked at by their owner at any time", and by no one else."""
    from silvics.interpreter.views import visible
    owner = int(key.rpartition("/")[2])
    return [f"{game.card_id(uid)} stored at {key} is hidden from its owner or shown to another seat"
            for uid in pile if game.state.facedown[uid]
            and [visible(game, seat, uid) for seat in range(game.state.players)]
            != [seat == owner for seat in range(game.state.players)]]


def stack_faults(game, key: str, pile: list[int]) -> list[str]:
    """Old-growth trees and parasitic plants: at most one alive per stack; plants grow in their rows."""
    row = key.split(":")[1].split(".")[0]
    alive = [uid for uid in pile if not game.state.facedown[uid] and game.attribute(uid, "kind") == "plant"]
    faults = []
    for limited in ("old-growth", "parasitic"):
        if sum(1 for uid in alive if game.attribute(uid, "class") == limited) > 1:
            faults.append(f"more than one {limited} plant: {[game.card_id(u) for u in alive]}")
    faults += [f"{game.card_id(uid)} cannot grow in the {row} row" for uid in alive
               if row not in game.attribute(uid, "elevation")]
    return faults


@pytest.mark.parametrize("modules", COMBINATIONS, ids=lambda m: "+".join(m) or "base")
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_reforest_games_are_legal(players, modules, pool):
    found = in_two_halves(pool, faults_in_games, GAMES, players, modules)
    assert not found, found[:5]


def test_an_end_state_fault_is_reported():
    """The checker itself: a stack holding two old-growth trees is caught."""
    from silvics import games
    from silvics.interpreter.game import Game

    game = Game(games.load("reforest"), 2, 0, start=False)
    trees = [uid for uid in range(len(game.rules.defs)) if game.attribute(uid, "class") == "old-growth"][:2]
    for uid in trees:
        game.state.move(uid, "region:low.1/0", facedown=False)
    assert any("more than one old-growth" in fault for fault in stack_faults(game, "region:low.1/0", trees))
    game.state.move(trees[0], "region:low.2/0", facedown=True, placer=1)       # stored by the wrong seat
    assert energy_faults(game, "region:low.2/0", [trees[0]])


def test_solitaire_uses_30_plants_with_at_most_6_old_growth_trees():
    """Setup 1: "Solitaire: 30 Cards (use no more than 6 old-growth trees in a solitaire game)";
    the other plants stay in the box. Over many seeds some games reach the limit of 6."""
    from silvics import games
    from silvics.interpreter.game import Game

    ir, most = games.load("reforest"), 0
    for seed in range(60):
        game = Game(ir, 1, seed)
        state = game.state
        in_play = [uid for uid, where in enumerate(state.location)
                   if where != "box" and game.attribute(uid, "kind") == "plant"]
        old_growth = sum(1 for uid in in_play if game.attribute(uid, "class") == "old-growth")
        assert len(in_play) == 30 and old_growth <= 6, (seed, len(in_play), old_growth)
        most = max(most, old_growth)
    assert most == 6                     # the limit binds: without it 30 of 124 would often hold more


def test_the_starting_player_is_drawn_at_random():
    """Setup: "The player who most recently took a walk in the woods plays first": the rules
    draw the seat with the game's seeded generator, so over many seeds every seat starts."""
    from silvics import games
    from silvics.interpreter.game import Game

    ir = games.load("reforest")
    assert {Game(ir, 4, seed).state.markers["first"] for seed in range(40)} == {0, 1, 2, 3}
