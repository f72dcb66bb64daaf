"""Reforest: Old Growth reads in its rulebook's words: every card's text and every rule step,
with no effect-language syntax left, kept in tests/cardtext/reforest*.txt for review.

The published card list is not public (cards/reforest/*.yaml are representative), so the
expected texts below follow the rulebook's glossary and keywords (/work/shared/rulebooks/
reforest-old-growth.txt): "Draw X Card(s) … If a source is specified, draw from it instead",
"Draw a Visitor Card", "Store X Card(s): Place X cards face down under the designated stack(s)",
"Reveal", "Regenerate", "Look at", and the effect timings of "Plant Effects".
"""
from __future__ import annotations

import pytest

from silvics import games
from silvics.compiler.cardtext import card_text, describe_card
from silvics.compiler.english import Wording

from cardtext_golden import problems, unworded_procedures

GAME = "reforest"


@pytest.fixture(scope="module")
def reforest():
    return games.load(GAME, use_cache=False)


def text(ir, card_id: str) -> list[str]:
    card = next(c for c in (*ir.cards, *(c for m in ir.modules.values() for c in m.cards)) if c.id == card_id)
    return [line for side in card_text(ir, card, Wording(ir.vocabulary)) for line in side.lines]


def test_the_reviewed_files_are_what_is_generated_with_no_syntax_left():
    assert problems(GAME) == []


def test_every_procedure_is_named_in_the_games_words(reforest):
    assert unworded_procedures(reforest) == set()    # each heading, and each step that runs it, in the game's words


@pytest.mark.parametrize("card, expected", [
    # glossary: "Draw X Card(s): … If a source is specified, draw from it instead."
    ("salal", ["When played: Draw 1 card from the nursery."]),
    # two draws from the deck and/or the nursery read as one: "draw 2 cards"
    ("fireweed", ["When covered: Draw 2 cards."]),
    # "Store X Card(s)"; a condition on the cards next to it ("Adjacency")
    ("devils-club", ["When played: Store 1 card from the deck under this stack. If there is a plant with a water "
                     "icon next to this one: store 1 card from the deck under this stack."]),
    ("trillium", ["Before gathering: If you have at least 2 cards in your hand: discard 2 cards from your hand; "
                  "then store 1 visitor card under this stack."]),
    # "Look at: Inspect but do not draw."
    ("mountain-huckleberry", ["After gathering: Look at the top 2 cards of the deck and store 1 of them under this stack."]),
    ("huckleberry", ["Reaction: If you grow a plant with a berries icon next to this one: draw 1 card."]),
    ("licorice-fern", ["Reaction: If you grow a deciduous plant next to this one: store 1 card from the deck under this stack."]),
    ("sword-fern", ["Scoring: Score 1 for each fern in your region."]),
    ("noble-fir", ["Scoring: Score 3 if your region has no empty space."]),
    ("bracken", ["Passive: Your ferns cost 1 less."]),
    ("old-mans-beard", ["Passive: Your trees cost 1 less in the stacks next to this one."]),
    # "Plants with When Played effects have effects that adjust their cost as they are played."
    ("avalanche-lily", ["When played: This plant costs 1 less in the high row."]),
    ("pacific-madrone", ["When played: This plant costs 1 less in an empty space, 1 more elsewhere."]),
    ("douglas-maple", ["Passive: Hand limit +1 for every 2 plants with the deciduous trait in your region."]),
    ("black-bear", ["Goal: the number of plants with a berries icon in your region (the highest wins).",
                    "Solitaire goal: the number of plants with a berries icon in your region (at least this round's amount)."]),
    ("spotted-owl", ["Goal: the number of plants in your largest stack (the highest wins).",
                     "Solitaire goal: the number of plants with the conifer trait in your region (at least this round's amount)."]),
    # a terrain's row: `let row = it.space.row` reads as "this row" wherever `row` is used
    ("nurse-log", ["Setup: Store 2 cards from the deck in one of the spaces of this row."]),
    ("seep-spring", ["Before gathering: If this row has an empty space: store 1 card from the deck in one of the "
                     "empty spaces of this row."]),
    ("fog-belt", ["Scoring: Score 1 for each moss or fern in this row."]),
    ("spring-rain", ["Draw 2 cards from the nursery and/or the discard pile."]),
    # a loop whose body says "it" reads without its name
    ("wildfire", ["For each of your canopy plants shorter than 10 m: (turn it into stored energy in its stack)."]),
])
def test_a_card_reads_as_the_rulebook_words_it(reforest, card, expected):
    assert text(reforest, card) == expected


@pytest.mark.parametrize("procedure, step, expected", [
    ("setup", 4, "if you play alone: build the solitaire deck; otherwise: keep 50 of them for 2 players, 70 for 3 "
                 "or 90 for 4 as the plant deck"),
    ("gather", 2, "until you have drawn 2 cards, repeat: (choose one: draw 1 card from the deck, or draw 1 card "
                  "from the nursery, or stop drawing)"),      # "Draw up to 2 cards from … the deck and/or the nursery"
    ("grow", 5, "grow it"),                                          # bookkeeping steps (let, set draws) are hidden
    ("end_round", 1, "turn up the leftmost round-end visitor to be awarded"),
])
def test_a_rule_step_reads_as_a_rulebook_sentence(reforest, procedure, step, expected):
    body = reforest.procedures[procedure]
    assert Wording(reforest.vocabulary).steps(body.args["steps"])[step - 1] == expected


def test_show_prints_the_text_and_its_source(reforest):
    card = next(c for c in reforest.cards if c.id == "grand-fir")
    shown = describe_card(reforest, card, written=True).splitlines()
    assert shown[-2:] == ["  Passive: Hand limit +2.", "    as written: hand_limit: 2"]
