"""Renature in its own words: every rule reads as the rulebook, from the vocabulary in
rules/renature (game.yaml, modules/valley.yaml). Renature's dominoes, plants and tokens print
numbers and animals only, no text: its rules are what the words are for.

Expected steps cite the base game's facts (/work/shared/data/renature-base-facts.md, "facts")
or the Valley rulebook (/work/shared/rulebooks/renature-valley.txt).
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from silvics import games
from silvics.compiler.cardtext import card_text, describe_card
from silvics.interpreter.ir import Vocabulary

import cardtext_golden
from conftest import play_random

GAME = "renature"
REGENERATE = f"run `python tests/cardtext_golden.py {GAME}` and review the diff"


@pytest.fixture(scope="module")
def ir():
    return games.load(GAME, use_cache=False)


@pytest.fixture(scope="module")
def rules():
    return cardtext_golden.generated_rules(GAME).splitlines()


def steps(rules: list[str], heading: str) -> list[str]:
    start = rules.index(heading) + 1
    end = next((i for i in range(start, len(rules)) if not rules[i].startswith("  ")), len(rules))
    return [line.split(". ", 1)[1] for line in rules[start:end]]


def test_the_files_for_review_are_what_is_generated():
    assert cardtext_golden.stale(GAME) == [], REGENERATE


def test_no_effect_language_is_left_in_the_rules():
    assert cardtext_golden.syntax_left(GAME) == []
    assert cardtext_golden.rules_syntax_left(GAME) == []


def test_no_card_prints_text_only_numbers_and_animals(ir):
    assert all(not side.lines for card in cardtext_golden.every_card(ir) for side in card_text(ir, card))
    domino = next(c for c in ir.cards if c.id == "butterfly-owl")
    assert describe_card(ir, domino) == "Butterfly–Owl domino (domino, id butterfly-owl)\n  first butterfly · second owl"


@pytest.mark.parametrize("heading, expected", [
    # facts, A: "At least one half must be beside (orthogonally) a matching animal or on one of the 4
    # starting spaces. Every animal beside another must match; the current joker animal matches anything."
    ("place_domino", ["choose a domino in your hand that you can place",
                      "choose a free space for one of its halves, on a starting space or beside a matching animal",
                      "choose a free space beside it for the other half, so that every animal beside it matches",
                      "choose which of its animals goes on the first space, if both ways fit",
                      "each space now shows the animal on it (the joker animal matches any)",
                      "if its first animal is on the first space: the domino lies there; otherwise: the domino lies "
                      "on the second space",
                      "collect what the covered spaces hold", "carry out any cloud actions", "you may place a plant",
                      "score every area closed off"]),
    # facts, C.1: "1 point for itself plus 1 per other plant (any colour) in that area with equal or lower value"
    ("score_plant", ["score 1 point for the plant and 1 for each other plant in its area of equal or lower value"]),
    # facts, D: "Refill hand with 1 domino from reserve if any."
    ("turn", ["carry out any cloud actions", "choose one: place a domino, or discard a domino",
              "refill your hand with 1 domino from your reserve, if any is left",
              "at the end of your turn, carry out any cloud actions"]),
    # facts, Cloud actions: "2 clouds: move the joker marker to any animal on the joker track."
    ("move_joker", ["choose an animal of the joker track other than the joker animal",
                    "return 2 cloud tokens to the box",
                    "move the joker marker to that animal"]),
    # facts, Cloud actions: "3 clouds, at the end of the turn: take another turn"
    ("extra_turn", ["return 3 cloud tokens to the box", "you take another turn after this one"]),
    # facts, End of game: "+1 per cloud token on one's board, minus the value of each plant left on one's board"
    ("leftovers", ["if you have cloud tokens left: score 1 point for each cloud token on your player board",
                   "if you have plants left on your player board: lose points equal to the value of each plant "
                   "left on your player board"]),
    # Valley rulebook, A.3: "Whenever you cover a stump with a domino, you may immediately take a mushroom token."
    # A.5: "If you want to place your domino on a meadow space with a cloud, first take the cloud token on it"
    ("valley: covered", ["for each of the two spaces the domino covers: (take the cloud tokens on that space)",
                         "for each of the covered spaces with a tree stump: (take a mushroom token)"]),
    # Valley rulebook, A.4: "The mushroom becomes an area space, on which plants can be placed, and which can
    # join area spaces together."
    ("valley: join_areas", ["the mushroom is an area space now, and plants may be placed on it",
                            "it joins the area beside it",
                            "for each of the area spaces beside it of another area: (for each of the spaces "
                            "of that area: (it joins the mushroom's area too))"]),
])
def test_a_rule_reads_as_the_rulebook(rules, heading, expected):
    assert steps(rules, heading) == expected


def test_the_setup_reads_as_the_rulebook(rules):
    # facts, Setup: "Each player fills all 6 cloud spaces of their board", "Dominoes dealt face down as a
    # reserve: 13 each (4 players), 18 (3), 26 (2)", "Starting score markers: 4, 3, 2, 1 points in turn order"
    said = steps(rules, "setup")
    assert said[4] == ("each player, from the first player clockwise: (put a cloud token on each cloud space "
                       "of your player boards)")
    assert said[10] == ("each player, from the first player clockwise: (take a face-down reserve of 26, 18 or "
                        "13 dominoes for 2, 3 or 4 players; then draw a hand of 3 from your reserve)")
    assert said[-1] == ("each player, from the first player clockwise: (score your starting points, 4, 3, 2 "
                        "or 1 in turn order)")


def test_bookkeeping_is_hidden(rules):
    assert "set seats to 0" not in "\n".join(rules)
    assert steps(rules, "score_closed_area") == ["carry out any cloud actions",
                                                 "its area token shows the main and minor points",
                                                 "score the area", "take its area token"]


def test_the_words_change_no_rule(ir):
    bare = replace(ir, vocabulary=Vocabulary())
    assert play_random(ir, 2, 5).log == play_random(bare, 2, 5).log
