"""The designer's workshop (issue 13): the data a designer edits is the data checked, and a
mistake is reported in the designer's terms."""
from __future__ import annotations

import shutil
from pathlib import Path

from conftest import run_cli

FIXTURES = Path(__file__).parent / "fixtures"


def copy(tmp_path, source: Path) -> Path:
    shutil.copytree(source, tmp_path / source.name)
    return tmp_path / source.name


def test_a_card_file_beside_its_game_is_checked_against_the_game(tmp_path):
    game = copy(tmp_path, FIXTURES / "games" / "market")
    status, out, _ = run_cli("check", game / "cards.yaml")
    assert status == 0 and "ok (cards for Market (test game), checked against" in out
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text().replace("price: 5", "price: 5\n    colour: red"))
    status, _, err = run_cli("check", cards)
    assert status == 1 and "error[E0401]: a goods has no attribute 'colour'" in err


def test_a_packs_card_file_is_checked_with_its_pack_on_its_game(tmp_path):
    pack = copy(tmp_path, FIXTURES / "packs" / "mythic")
    cards = pack / "cards" / "creatures.yaml"
    status, out, _ = run_cli("check", cards)
    assert status == 0 and "ok (cards for Four Forests, in the pack" in out
    cards.write_text(cards.read_text().replace("suit = mangrove", "suit = swamp"))
    status, _, err = run_cli("check", cards)
    assert status == 1 and "creatures.yaml:7:" in err and "unknown name 'swamp'" in err


def test_a_card_file_with_no_game_is_checked_by_its_schema_and_says_so(tmp_path):
    lone = tmp_path / "lone.yaml"
    shutil.copy(FIXTURES / "games" / "market" / "cards.yaml", lone)
    status, out, _ = run_cli("check", lone)
    assert status == 0 and "schema only: no game found for it" in out


def test_a_module_or_card_file_named_as_a_game_says_which_game_to_name(tmp_path):
    game = copy(tmp_path, FIXTURES / "games" / "harvest")
    module = next((game / "modules").glob("*.yaml"))
    status, _, err = run_cli("play", module, "--quiet")
    assert status == 2 and "is a module file: name its game (" in err and "--module" in err
    card_file = next((game / "cards").glob("*.yaml"))
    status, _, err = run_cli("simulate", card_file, "--games", "1")
    assert status == 2 and f"{card_file.name} is a card file: name its game (" in err
