"""Forest Shuffle in its own words: every card's text and every rule read as the printed game,
from the vocabulary in rules/forest-shuffle (game.yaml and each module's file).

Expected card texts cite the facts file (/work/shared/data/forest-shuffle-facts.yaml, "facts")
or the Exploration rulebook (/work/shared/rulebooks/forest-shuffle-exploration.txt); the
printed cards are mostly icons, so the wording is ours, in the rulebook's terms.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from silvics import games
from silvics.compiler.cardtext import card_text
from silvics.interpreter.ir import Vocabulary

import cardtext_golden
from conftest import play_random

GAME = "forest-shuffle"
REGENERATE = f"run `python tests/cardtext_golden.py {GAME}` and review the diff"


@pytest.fixture(scope="module")
def ir():
    return games.load(GAME, use_cache=False)


def said(ir, card_id: str, side: str | None = None) -> list[str]:
    card = next(c for c in cardtext_golden.every_card(ir) if c.id == card_id)
    return [line for text in card_text(ir, card) if side in (None, text.side) for line in text.lines]


def test_the_files_for_review_are_what_is_generated():
    assert cardtext_golden.stale(GAME) == [], REGENERATE


def test_no_effect_language_is_left_in_the_cards_or_the_rules():
    assert cardtext_golden.syntax_left(GAME) == []
    assert cardtext_golden.rules_syntax_left(GAME) == []


@pytest.mark.parametrize("card, side, expected", [
    # facts: Beech "effect: draw 1 card", "5 per Beech if you have at least 4 Beeches"
    ("beech", None, ["Effect: Draw 1 card.", "Scoring: 5 points if you have at least 4 Beech trees."]),
    # facts: Douglas Fir "bonus: another turn", "scoring: 5 points"
    ("douglas-fir", None, ["Bonus: Take another turn.", "Scoring: 5 points."]),
    # facts: Silver Fir "play 1 paw animal from hand for free", "2 per card attached to this tree"
    ("silver-fir", None, ["Bonus: Play 1 paw animal from your hand for free.",
                          "Scoring: 2 points for each card on this tree."]),
    # facts: Red Fox "draw 1 card per hare in your forest", "2 per hare (Mountain Hares count)"
    ("european-hare--red-fox", "right_half",
     ["Effect: Draw 1 card for each European Hare and each Mountain Hare in your forest.",
      "Scoring: 2 points for each European Hare and each Mountain Hare."]),
    # facts: Fire Salamander "play 1 paw animal from hand for free", "set of all Fire Salamanders: 5/15/25"
    ("bullfinch--fire-salamander", "bottom_half",
     ["Bonus: Play 1 paw animal from your hand for free.",
      "Scoring: All your Fire Salamanders together: 5, 15 or 25 points for 1, 2, or 3 or more."]),
    # facts: Beech Marten "5 per fully occupied tree (all 4 slots used)"
    ("barbastelle-bat--beech-marten", "right_half",
     ["Effect: Draw 1 card.", "Scoring: 5 points for each tree in your forest that has a card in each of its 4 slots."]),
    # facts: Camberwell Beauty "each set of different butterfly species scores 0/3/6/12/20 …"
    ("camberwell-beauty--common-toad", "top_half",
     ["Scoring: Your butterflies in sets of different species: each set scores 0, 3, 6, 12, 20, 35, 55 or 80 "
      "points for 1 to 8 species."]),
    # facts: Fly Agaric "permanent (from next turn): draw 1 card whenever you play a paw animal" (a reaction)
    ("goshawk--fly-agaric", "bottom_half", ["From your next turn on: Whenever you play a paw animal, draw 1 card."]),
    # facts: Common Hazel "permanent: draw 1 card whenever you play a bat", "play 1 bat from hand for free"
    ("common-hazel", None, ["Bonus: Play 1 bat from your hand for free.",
                            "From your next turn on: Whenever you play a bat, draw 1 card."]),
    # facts: Crane Fly "play any number of bats from hand for free", "take all bats from the clearing into your hand"
    ("common-pipistrelle--crane-fly", "right_half",
     ["Effect: Play any number of bats from your hand for free.",
      "Bonus: Take all bats from the clearing into your hand (as many as your hand limit of 10 allows).",
      "Scoring: 1 point for each bat."]),
    # facts: Troll "take 1 card from each other player's hand … into the clearing", "1 per tree (saplings count)"
    ("elk--troll", "right_half", ["Effect: Take a card from the hand of each other player and put it face up "
                                  "into the clearing.", "Scoring: 1 point for each tree."]),
    # rulebook, Alone in the Forest: "Look at the top card of the draw pile and return it to the game box."
    ("discard-top", None, ["Anna: Return the top card of the draw pile to the box (a winter card goes beside "
                           "the clearing)."]),
    # rulebook: "To achieve bronze in the Bat Forest challenge, there must be 4 or more bats in your forest"
    ("bat-forest", None, ["Goal: the number of bat cards in your forest"]),
    # rulebook, Special Caves: "Lonely Cave: If there is no card in your cave at game end, you score 5 points.
    # Otherwise, score the normal 1 point per card in your cave."
    ("lonely-cave", None, ["Scoring: 5 points if your cave is empty, otherwise 1 point for each card in it."]),
    ("bat-cave", None, ["Scoring: 1 point for each card in your cave, and 3 more for each bat."]),
])
def test_a_card_reads_as_printed(ir, card, side, expected):
    assert said(ir, card, side) == expected


def test_the_rules_read_as_the_rulebook():
    rules = cardtext_golden.generated_rules(GAME)
    for step in ["  1. set the 3 winter cards aside",
                 "  1. draw the cards you were promised on an earlier turn",
                 "  2. choose one: draw 2 cards, or play a card, or plant a sapling",
                 "  1. if the clearing holds 10 cards or more: discard all cards of the clearing face down",
                 "  7. if it has a bonus and every card you paid with shows its tree symbol: you may: "
                 "(carry out its bonus; then whatever your cave does after a bonus)",
                 "  1. if you have the Storage Cave and it has not drawn you a card this turn: draw 1 card"]:
        assert step in rules.splitlines()


def test_bookkeeping_is_hidden_and_every_rule_stays():
    rules = cardtext_golden.generated_rules(GAME).splitlines()
    turn = rules[rules.index("take_turn") + 1:rules.index("turn_end")]
    assert turn == ["  1. draw the cards you were promised on an earlier turn",      # add 1 to turns: hidden
                    "  2. choose one: draw 2 cards, or play a card, or plant a sapling",   # … and set draw_next to 0
                    "  3. end the turn"]


def test_the_words_change_no_rule(ir):
    bare = replace(ir, vocabulary=Vocabulary())
    assert play_random(ir, 2, 3).log == play_random(bare, 2, 3).log
