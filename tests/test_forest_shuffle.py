"""Forest Shuffle through the command line: the player counts it is for, and a tie shared.
Every other base-game rule is a scenario in tests/scenarios/forest-shuffle/ (rule-*.yaml)."""
from __future__ import annotations

import re

import pytest

from conftest import run_cli as run


@pytest.mark.parametrize("players", [1, 6])
def test_only_two_to_five_players_without_the_solo_module(players):
    assert run("play", "forest-shuffle", "--players", players) == (
        2, "", "silvics: error: Forest Shuffle is for 2 to 5 players (1 player with module 'alone-in-the-forest')\n")


def test_the_solo_module_is_for_one_player_only():
    status, out, err = run("play", "forest-shuffle", "--players", 2, "--module", "alone-in-the-forest")
    assert (status, out) == (2, "") and "is for 1 player" in err
    status, out, _ = run("play", "forest-shuffle", "--players", 1, "--module", "alone-in-the-forest", "--quiet")
    assert status == 0 and "Final scores:\n  P1 " in out


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_two_to_five_players_play_to_the_end(players):
    status, out, _ = run("play", "forest-shuffle", "--players", players, "--quiet")
    assert status == 0 and "Final scores:" in out
    assert len(re.findall(r"^  P\d ", out, re.M)) == players


def test_ties_share_the_win():
    # "Ties share the victory": every player with the best total is a winner. Random games
    # until one ends in a tie; in each, the winners are exactly the best totals.
    for seed in range(1, 201):
        _, out, _ = run("play", "forest-shuffle", "--players", 2, "--seed", seed, "--quiet")
        rows = re.findall(r"^  P(\d)\s+(-?\d+)( +winner)?$", out, re.M)
        best = max(int(score) for _, score, _ in rows)
        assert [seat for seat, _, won in rows if won] == [seat for seat, score, _ in rows if int(score) == best]
        if len(rows) == 2 and rows[0][1] == rows[1][1]:
            return
    pytest.fail("no tie in 200 games")
