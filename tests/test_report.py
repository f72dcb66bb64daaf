"""Balance reports (`silvics balance`, silvics/report.py): seats with intervals, agent against
agent, per-card figures with outliers, a game played alone judged by its own criterion; the
same seed gives the same report, byte for byte, however many workers play it."""
import json

import pytest

from conftest import run_cli
from silvics import games
from silvics.interpreter.game import Game
from silvics.interpreter.agents import make_agent, play_on
from silvics.interpreter.simulate import GameResult, Summary
from silvics.report import Rate, Report, _cards, mean_interval


def report_of(tmp_path, name: str, *argv) -> tuple[str, dict]:
    folder = tmp_path / name
    status, out, err = run_cli("balance", *argv, "-o", folder)
    assert status == 0, err
    assert out.startswith(f"wrote {len(list(folder.iterdir()))} files in {folder}")
    return (folder / "index.md").read_text(), json.loads((folder / "figures.json").read_text())


def test_a_report_has_seats_agents_and_cards_and_comes_out_the_same_each_time(tmp_path):
    argv = ("four-forests", "--games", 12, "--agents", "random,gardener")
    text, figures = report_of(tmp_path, "one", *argv, "--workers", 1)
    again, _ = report_of(tmp_path, "two", *argv, "--workers", 2)
    assert text == again
    for name in ("figures.json", "scores.png", "lengths.png", "matrix.png"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes(), name
    assert "`silvics balance four-forests --players 2 --games 12 --seed 1 --agents random,gardener`" in text
    assert abs(sum(seat["wins"] for seat in figures["seats"]) - 1) < 1e-9
    assert set(figures["matrix"]) == {"random vs gardener", "gardener vs random"}
    assert figures["matrix"]["random vs gardener"]["games"] == 12
    assert "| card | in play | mean points | win rate with | win rate without | |" in text
    assert figures["awarded"] and all(0 <= c["wins_with"] <= 1 for c in figures["cards"].values())


def test_a_game_played_alone_is_won_by_its_own_criterion(tmp_path):
    """Reforest alone is won by beating the target (`solo: won: won = 1`), not by being the only
    player: the report's win rate is the share of games whose `won` counter is 1."""
    ir, won = games.load("reforest"), 0
    for seed in range(1, 9):
        game = Game(ir, 1, seed)
        play_on(game, [make_agent("grower", seed, 0)])
        assert game.winners() == ([0] if game.state.counters["won"] == 1 else [])
        won += game.state.counters["won"]
    _, figures = report_of(tmp_path, "alone", "reforest", "--players", 1, "--games", 8, "--agents", "grower")
    assert figures["seats"][0]["wins"] == won / 8


def test_a_challenges_tier_is_tallied(tmp_path):
    text, figures = report_of(tmp_path, "tiers", "forest-shuffle", "--players", 1, "--games", 4,
                              "--module", "alone-in-the-forest", "--agents", "forester")
    assert "| result | games |" in text and abs(sum(figures["results"].values()) - 1) < 1e-9
    assert "--module alone-in-the-forest`" in text


def test_rates_and_means_carry_95_percent_intervals():
    low, high = Rate(5, 10).interval
    assert (round(low, 3), round(high, 3)) == (0.237, 0.763)           # Wilson's, as tabulated
    assert Rate(0, 12).interval[0] == 0 and Rate(12, 12).interval[1] == pytest.approx(1)
    mean, half = mean_interval([10, 12, 14, 16])
    assert mean == 13 and round(half, 3) == round(1.96 * 2.582 / 2, 3)


def test_a_card_whose_holders_win_far_more_is_an_outlier():
    """40 games: whoever holds 'ace' wins; 'dud' is held by the loser as often as by the winner."""
    results = [GameResult([10, 0], [1.0, 0.0], 5, {}, {}, {"ace": [0], "dud": [game % 2]}) for game in range(40)]
    summary = Summary(40, 2, [400, 0], [40, 0], results=results)
    report = Report("t")
    _cards(report, summary)
    assert report.figures["cards"]["ace"]["outlier"] and not report.figures["cards"]["dud"]["outlier"]


@pytest.mark.parametrize("argv, message", [
    (["four-forests", "--agents", "random,clever"], "--agents takes one of"),
    (["four-forests", "--games", "0"], "--games must be at least 1"),
    (["four-forests", "--pack", "tests/fixtures/packs/mythic", "--players", "9"], ""),
])
def test_balance_misuse_is_status_2(tmp_path, argv, message):
    status, _, err = run_cli("balance", *argv, "-o", tmp_path / "r")
    assert status == 2 and message in err and "Traceback" not in err


def test_forest_shuffle_alone_is_won_by_reaching_the_tier():
    """Alone in the Forest: the player wins when `won` (the tier aimed for is reached) is yes."""
    ir = games.load("forest-shuffle")
    for seed in range(1, 4):
        game = Game(ir, 1, seed, ["alone-in-the-forest"], options={"tier": "bronze"})
        play_on(game, [make_agent("forester", seed, 0)])
        assert game.winners() == ([0] if game.state.counters["won"] == 1 else [])
