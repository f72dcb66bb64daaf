"""Fan packs: a folder with pack.yaml adds cards to a base game, without code."""
from pathlib import Path

from conftest import play_random
from silvics import games
from silvics.cli import main

PACK = Path(__file__).parent / "fixtures" / "packs" / "mythic"


def test_pack_adds_its_cards_to_the_base_game():
    base, pack = games.load("four-forests"), games.load(str(PACK))
    added = {card.id for card in pack.cards} - {card.id for card in base.cards}
    assert added == {"krakens", "sphinxes"}
    assert pack.procedures == base.procedures


def test_pack_plays_and_its_creatures_can_be_dealt():
    pack = games.load(str(PACK))
    dealt = set()
    for seed in range(60):
        game = play_random(pack, 3, seed)
        dealt |= {game.card_id(uid) for uid in game.state.zones["creatures"]}
        assert len(game.state.zones["box"]) == 13 - 4
    assert {"krakens", "sphinxes"} <= dealt


def test_check_reports_a_pack_and_every_procedure_its_modules_replace(capsys):
    assert main(["check", str(PACK)]) == 0
    assert capsys.readouterr().out == (f"{PACK}: ok (Four Forests: 77 cards (77 copies), 9 procedures, 3 modules)\n"
                                       "  module mythic-first: replaces procedures: deal_creatures\n")


def test_a_pack_module_is_switched_on_like_the_games_own():
    game = play_random(games.load(str(PACK)), 2, 0, modules=["mythic-first"])
    assert {game.card_id(uid) for uid in game.state.zones["creatures"]} == {"krakens", "sphinxes", "elves", "giants"}


def test_a_pack_module_changes_nothing_unless_switched_on():
    assert games.load(str(PACK)).procedures == games.load("four-forests").procedures
