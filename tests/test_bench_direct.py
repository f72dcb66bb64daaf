"""The hand-written Four Forests (benchmarks/four_forests_direct.py) plays the engine's game:
the same card file, the same decisions per game, the same truth value for every condition."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from silvics.interpreter.game import Game

DIRECT = Path(__file__).resolve().parent.parent / "benchmarks" / "four_forests_direct.py"


@pytest.fixture(scope="module")
def direct():
    spec = importlib.util.spec_from_file_location("four_forests_direct", DIRECT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module          # NamedTuple classes look their module up
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop(spec.name, None)


@pytest.fixture(scope="module")
def cards(direct):
    return direct.read_cards()


def test_reads_the_real_card_file(four_forests, cards):
    plants, creatures = cards
    kinds = {"plant": [], "creature": []}
    for card in four_forests.cards:
        kinds[card.kind] += [card.id] * card.copies
    assert [p.id for p in plants] == kinds["plant"]
    assert [c.id for c in creatures] == kinds["creature"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_same_decisions_per_game(direct, four_forests, cards, players):
    engine = direct.engine_game(four_forests, players, seed=7)
    hand_written = direct.play(*cards, players, seed=7)
    assert hand_written.decisions == engine.decisions == 24 * players


@pytest.mark.parametrize("players", [2, 4])
def test_same_decisions_per_game_experienced(direct, four_forests, cards, players):
    """With the experienced module the count varies with the order picked, so compare the means."""
    engine = direct.summary([direct.engine_game(four_forests, players, seed, ("experienced",)) for seed in range(60)])
    hand_written = direct.summary([direct.play(*cards, players, seed, True) for seed in range(600)])
    assert abs(engine[2] - hand_written[2]) < 1.5


def test_conditions_agree_with_the_engine(direct, four_forests, cards):
    """Every creature side's `prefers`, parsed by hand, against the engine's compiled condition, on every plant."""
    plants, creatures = cards
    by_id = {c.id: c for c in creatures}
    plant_of = {p.id: p for p in plants}
    game = Game(four_forests, 2, start=False)
    uids = range(len(game.state.side))
    plant_uids = [uid for uid in uids if game.card_id(uid) in plant_of]
    checked = 0
    for uid in (u for u in uids if game.card_id(u) in by_id):
        for index, side in enumerate(game.sides(uid)):
            game.state.side[uid] = index
            engine = game.condition(uid, "prefers")
            mine = by_id[game.card_id(uid)].prefers[direct.SIDES.index(side.side)]
            for plant in plant_uids:
                expected = bool(engine(game, {}, plant))
                assert mine(plant_of[game.card_id(plant)]) == expected, (game.card_id(uid), side.side,
                                                                        game.card_id(plant))
                checked += 1
    assert checked == 11 * 2 * 64


@pytest.mark.parametrize("keys, tokens", [
    ([(3, 3), (1, 12), (1, 9), (-2, -2)], [4, 3, 2, -1]),      # the rulebook's ranking example 1
    ([(3, 3), (1, 12), (1, 12), (1, 7)], [4, 2, 2, -1]),       # example 2
    ([(3, 12), (3, 12), (3, 12), (-2, -2)], [2, 2, 2, -1]),    # example 3
])
def test_ranking_examples(direct, keys, tokens):
    plants = [direct.Plant(f"p{v}", v, "boreal", "tree", frozenset(), 0) for v in range(13)]
    votes = [_votes(prestige, value) for prestige, value in keys]
    assert direct.tokens_awarded(plants, votes) == tokens


def _votes(prestige: int, value: int) -> list:
    """Votes (plant index = its value, for?) giving a creature this prestige and vote value."""
    stance = prestige > 0
    votes = [(1, stance)] * (abs(prestige) - 1)
    rest = (value - (len(votes) if stance else -len(votes))) * (1 if stance else -1)
    return votes + [(rest, stance)]


def test_parser_refuses_what_it_does_not_know(direct):
    for text in ("value >", "height = 3", "value = 3 xor suit = boreal", "(value = 3"):
        with pytest.raises(ValueError):
            direct.parse_condition(text)
