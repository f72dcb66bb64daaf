"""Four Forests reads in its rulebook's words: every creature's preference and every rule step,
with no effect-language syntax left, kept in tests/cardtext/four-forests*.txt for review.

The published creature texts are not public (cards/four-forests/creatures.yaml is
representative); the expected texts use the rulebook's terms (/work/shared/rulebooks/
four-forests.txt): plants, forests, creatures, votes "for" and "against", prestige tokens.
"""
from __future__ import annotations

import pytest

from silvics import games
from silvics.compiler.cardtext import card_text, describe_card
from silvics.compiler.english import Wording

from cardtext_golden import problems, unworded_procedures

GAME = "four-forests"


@pytest.fixture(scope="module")
def four_forests():
    return games.load(GAME, use_cache=False)


def sides(ir, card_id: str) -> dict[str, list[str]]:
    card = next(c for c in ir.cards if c.id == card_id)
    return {side.side: list(side.lines) for side in card_text(ir, card, Wording(ir.vocabulary))}


def test_the_reviewed_files_are_what_is_generated_with_no_syntax_left():
    assert problems(GAME) == []


def test_every_procedure_is_named_in_the_games_words(four_forests):
    assert unworded_procedures(four_forests) == set()    # each heading, and each step that runs it, in the game's words


@pytest.mark.parametrize("card, side, expected", [
    ("dragons", "leaf", "Prefers plants worth more than 7."),            # the issue's own example
    ("dragons", "thorn", "Prefers plants from the rainforest or mangrove forest and worth 5 or more."),
    ("elves", "thorn", "Prefers plants from the boreal or temperate forest that are not trees."),
    ("tortles", "thorn", "Prefers plants with a water icon or (herbs worth 2 or less)."),
    ("gryphons", "thorn", "Prefers plants worth more than 7 or with no icons."),
    ("trolls", "thorn", "Prefers plants without a leaf icon and worth less than 5."),
    ("unicorns", "leaf", "Prefers plants with exactly 2 icons."),
    ("gnomes", "thorn", "Prefers plants worth 2, 4, 6 or 8 and without a water icon."),
    ("phoenixes", "thorn", "Prefers plants without a water or leaf icon and not worth 1."),
    ("dryads", "leaf", "Prefers plants that are vines."),
])
def test_a_creature_reads_as_the_rulebook_words_it(four_forests, card, side, expected):
    assert sides(four_forests, card)[side] == [expected]


@pytest.mark.parametrize("module, procedure, expected", [
    (None, "pollinate", ["every player at the same time: (pass a card from your hand to the player on your left)"]),
    (None, "vote", ["each player, from the first player clockwise: (place a card from your hand face down under a "
                    "creature, turned to vote for or against it)"]),
    (None, "round", ["cultivate", "harvest/burn", "pollinate", "prune"]),
    # "After all players have completed all four actions, pass the first player token clockwise and deal four new cards"
    (None, "play", ["4 times: (play a round; then if it is not the 4th round: pass the first player marker to the left; "
                    "then each player, from the first player clockwise: (draw 4 cards from the plant deck))",
                    "each player, from the first player clockwise: (place the cards in your hand face up in your forest)"]),
    # "the person with the first player token each round chooses what order these occur"
    ("experienced", "round", ["cultivate, harvest/burn, pollinate, prune, in an order chosen by the first player "
                              "as the round goes"]),
    ("first-game", "deal_creatures", ["deal the elves, giants, tortles and gryphons face up into the centre of the table",
                                      "turn each creature to its side with leaf icons beside its name"]),
])
def test_a_procedure_reads_as_the_rulebook_words_it(four_forests, module, procedure, expected):
    body = (four_forests.modules[module] if module else four_forests).procedures[procedure]
    assert Wording(four_forests.vocabulary).steps(body.args["steps"]) == expected


def test_show_prints_both_sides(four_forests):
    card = next(c for c in four_forests.cards if c.id == "giants")
    assert describe_card(four_forests, card, written=True).splitlines() == [
        "Giants (creature, id giants)",
        "  leaf side: Giants", "    Prefers plants worth 6 or more.", "      as written: prefers: value >= 6",
        "  thorn side: Giants", "    Prefers plants that are trees or worth 7.",
        "      as written: prefers: form = tree or value = 7"]
