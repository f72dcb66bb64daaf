"""Forest Shuffle: Exploration, the company its modules keep, through the command line (the rules
played are in tests/scenarios/forest-shuffle/, prefixes solo-, caves- and globe-). Alone in the
Forest is played with the base game, Alpine, or Alpine and Woodland Edge, by one player; the two
ways of bringing in the new and rare cards exclude each other. A forbidden combination is misuse
(status 2) with a message naming it, never a traceback."""
from __future__ import annotations

import pytest

from conftest import run_captured


def play(capsys, *argv) -> tuple[int, str, str]:
    """`silvics play forest-shuffle --quiet ARGV`, in process: (status, stdout, stderr)."""
    return run_captured(capsys, "play", "forest-shuffle", "--quiet", *argv)


@pytest.mark.parametrize("expansions", [[], ["alpine"], ["alpine", "woodland-edge"]])
def test_alone_in_the_forest_plays_with_the_base_game_alpine_or_both(capsys, expansions):
    modules = [arg for module in expansions + ["alone-in-the-forest"] for arg in ("--module", module)]
    status, out, err = play(capsys, "--players", "1", *modules,
                            "--set", "challenge=bat-forest", "--set", "tier=bronze", "--log", "full")
    assert (status, err) == (0, "")
    assert "Final scores:\n  P1 " in out and "winters 1" in out    # the full log's counters: one winter card


def test_alone_in_the_forest_takes_woodland_edge_only_with_alpine(capsys):
    assert play(capsys, "--players", "1", "--module", "woodland-edge", "--module", "alone-in-the-forest") == (
        2, "", "silvics: error: module 'alone-in-the-forest' needs module 'alpine' on too when 'woodland-edge' is on\n")


def test_woodland_edge_without_alpine_is_allowed_with_players(capsys):
    status, out, err = play(capsys, "--players", "2", "--module", "woodland-edge")
    assert (status, err) == (0, "") and "P2" in out


def test_alone_in_the_forest_is_for_one_player(capsys):
    status, out, err = play(capsys, "--players", "2", "--module", "alone-in-the-forest")
    assert (status, out) == (2, "") and "is for 1 player" in err


def test_one_player_needs_alone_in_the_forest(capsys):
    assert play(capsys, "--players", "1") == (
        2, "", "silvics: error: Forest Shuffle is for 2 to 5 players (1 player with module 'alone-in-the-forest')\n")


def test_the_new_and_rare_cards_come_shuffled_in_or_dealt_not_both(capsys):
    assert play(capsys, "--module", "around-the-globe", "--module", "around-the-globe-dealt") == (
        2, "", "silvics: error: modules 'around-the-globe' and 'around-the-globe-dealt' cannot be on together\n")


@pytest.mark.parametrize("module", ["around-the-globe", "around-the-globe-dealt"])
def test_each_way_of_bringing_the_new_and_rare_cards_plays_on_its_own(capsys, module):
    status, out, err = play(capsys, "--players", "3", "--module", module)
    assert (status, err) == (0, "") and "P3" in out
