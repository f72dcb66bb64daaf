"""`silvics score` as a person reads it (issue 24, point 15): every card whose scoring runs is
listed, with 0 when it scores nothing; cards by their names in the game's words, copies told
apart by where they lie; several files of one game at once; and a position that cannot be laid
out says what to do."""
from __future__ import annotations

from pathlib import Path

from conftest import run_cli

POSITIONS = Path(__file__).parent / "positions"

# Horse Chestnuts score as a set, by the first one alone: 2 trees, 4 points (1/4/9/16/25/36/49);
# a Brown Bear and a Blackthorn (a Woodland Edge shrub) print no scoring.
FOREST = """game: forest-shuffle
players: 2
modules: [alpine, woodland-edge]
position:
  players:
    - forest:
        - {card: horse-chestnut, slots: [{card: {species: brown-bear}}]}
        - {card: horse-chestnut}
        - {card: blackthorn}
    - forest: [linden]
"""


def rows(out: str) -> list[list[str]]:
    return [line.split() for line in out.splitlines()]


def test_every_card_whose_scoring_runs_is_listed_by_name_and_copies_by_where_they_lie(tmp_path):
    (tmp_path / "end.yaml").write_text(FOREST)
    status, out, err = run_cli("score", "forest-shuffle", tmp_path / "end.yaml")
    assert status == 0, err
    listed = rows(out)
    for row in (["Horse", "Chestnut", "(forest", "1)", "4", "+4"], ["Horse", "Chestnut", "(forest", "2)", "0"],
                ["Blackthorn", "0"], ["Brown", "Bear", "0"], ["cards", "4"], ["total", "4"], ["Linden", "3", "+3"]):
        assert row in listed, (row, out)
    assert "horse-chestnut" not in out and "linden" not in out     # names, never ids


def test_cards_that_award_points_and_marks_are_named_in_the_games_words():
    status, out, err = run_cli("score", "four-forests", POSITIONS / "four-forests-end.yaml")
    assert status == 0, err
    assert ["White", "Spruce", "5", "+4", "Dragons,", "+2", "Elves,", "-1", "Gryphons"] in rows(out)
    # only the marks players see, in their words: the prestige token and each vote's stance
    assert out.startswith("Marks: Dragons: prestige token 4, Trolls: prestige token 3, Elves: prestige token 2")
    assert "Kapok Tree: vote for" in out and "vote value" not in out and "prestige 3" not in out


def test_several_positions_of_one_game_are_scored_each_under_its_name(tmp_path):
    (tmp_path / "a.yaml").write_text(FOREST)
    (tmp_path / "b.yaml").write_text(FOREST.replace("modules: [alpine, woodland-edge]\n", "")
                                     .replace("        - {card: blackthorn}\n", ""))
    status, out, err = run_cli("score", "forest-shuffle", tmp_path / "a.yaml", tmp_path / "b.yaml")
    assert status == 0, err
    first, second = out.split("\n\n")
    assert first.startswith(f"{tmp_path / 'a.yaml'}:\nP1\n") and ["Blackthorn", "0"] in rows(first)
    assert second.startswith(f"{tmp_path / 'b.yaml'}:\nP1\n") and ["Blackthorn", "0"] not in rows(second)


def test_a_card_of_a_module_not_switched_on_says_which_module(tmp_path):
    (tmp_path / "end.yaml").write_text(FOREST.replace("modules: [alpine, woodland-edge]\n", ""))
    status, out, err = run_cli("score", "forest-shuffle", tmp_path / "end.yaml")
    assert status == 1 and out == ""
    assert err == ("error: no card 'blackthorn' in the game as set up: it is a card of the module woodland-edge; "
                   "switch it on with modules: [woodland-edge] in the file\n")
    (tmp_path / "end.yaml").write_text(FOREST.replace("{card: blackthorn}", "{card: {species: alpine-marmot}}")
                                       .replace("modules: [alpine, woodland-edge]\n", ""))
    status, out, err = run_cli("score", "forest-shuffle", tmp_path / "end.yaml")
    assert status == 1 and err == ("error: no card in the game as set up shows species: alpine-marmot: cards of "
                                   "the module alpine do; switch it on with modules: [alpine] in the file\n")


def test_a_half_whose_card_lies_as_its_other_half_is_explained(tmp_path):
    """The only Common Toad with a Horse Chestnut symbol is the Chaffinch with a Beech symbol's other half."""
    (tmp_path / "end.yaml").write_text(FOREST.replace(
        "{card: horse-chestnut}", "{card: beech, slots: [{card: {species: chaffinch, symbol: beech}}, "
                                  "{card: {species: common-toad, symbol: horse-chestnut}}]}"))
    status, out, err = run_cli("score", "forest-shuffle", tmp_path / "end.yaml")
    assert status == 1 and err == (
        "error: no card left in the box shows species: common-toad, symbol: horse-chestnut: the card that shows "
        "it (chaffinch--common-toad) lies already as its other half, Chaffinch (forest 2, slots 1); "
        "a card lies as one half only\n")


def test_cards_of_several_sides_sharing_a_side_under_one_card_are_pointed_out(tmp_path):
    (tmp_path / "end.yaml").write_text(FOREST.replace(
        "{card: horse-chestnut}", "{card: beech, slots: [{card: {species: chaffinch}}, {card: {species: bullfinch}}]}"))
    status, out, err = run_cli("score", "forest-shuffle", tmp_path / "end.yaml")
    assert status == 0 and ["Chaffinch", "5", "+5"] in rows(out)
    assert err == ("note: Chaffinch and Bullfinch lie in the slots of Beech (forest 2) on one side, top half: "
                   "the rules may not let them share it\n")
