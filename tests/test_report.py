"""Balance reports (`silvics balance`, silvics/report.py): seats with intervals, agent against
agent, per-card figures with outliers, a game played alone judged by its own criterion,
studies by module and by option; the same seed gives the same report, byte for byte, however
many workers play it and whether its games come from the cache, which keeps chunks of seeds
until a source changes."""
import json
import shutil
from pathlib import Path

import pytest

from conftest import run_cli
from silvics import games, report
from silvics.balance import cached_runner
from silvics.interpreter.game import Game
from silvics.interpreter.agents import make_agent, play_on
from silvics.interpreter.simulate import GameResult, Summary, play_chunk, simulate
from silvics.report import Rate, Report, _cards, mean_interval

ROOT = Path(__file__).resolve().parent.parent


def report_of(tmp_path, name: str, *argv) -> tuple[str, dict]:
    folder = tmp_path / name
    status, out, err = run_cli("balance", *argv, "-o", folder)
    assert status == 0, err
    assert out.startswith(f"wrote {len(list(folder.iterdir()))} files in {folder}")
    return (folder / "index.md").read_text(), json.loads((folder / "figures.json").read_text())


def test_a_report_has_seats_agents_and_cards_and_comes_out_the_same_each_time(tmp_path):
    """Played on one worker, on two, and read back from the cache: the same bytes."""
    argv = ("four-forests", "--games", 12, "--agents", "random,gardener")
    text, figures = report_of(tmp_path, "one", *argv, "--workers", 1, "--no-cache")
    for run, options in (("two", ("--workers", 2, "--no-cache")), ("cached", ()), ("three", ("--workers", 2))):
        again, _ = report_of(tmp_path, run, *argv, *options)
        assert text == again, run
        for name in ("figures.json", "scores.png", "lengths.png", "matrix.png"):
            assert (tmp_path / "one" / name).read_bytes() == (tmp_path / run / name).read_bytes(), (run, name)
    assert "`silvics balance four-forests --players 2 --games 12 --seed 1 --agents random,gardener`" in text
    assert abs(sum(seat["wins"] for seat in figures["seats"]) - 1) < 1e-9
    assert set(figures["matrix"]) == {"random vs gardener", "gardener vs random"}
    assert figures["matrix"]["random vs gardener"]["games"] == 12
    both = figures["matrix"]["random vs gardener"]["wins"] + figures["matrix"]["gardener vs random"]["wins"]
    assert both == pytest.approx(1)        # two players: a game's win is shared by its two agents
    assert "| card | in play | mean points | win rate with | win rate without | |" in text
    assert figures["awarded"] and all(0 <= c["wins_with"] <= 1 for c in figures["cards"].values())


def test_a_game_played_alone_is_won_by_its_own_criterion(tmp_path):
    """Reforest alone is won by beating the target (`solo: won: you.score > target`), not by being the only
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
    _cards(report, summary, {"ace": "Ace of Oaks", "dud": "Dud"}.get)
    assert report.figures["cards"]["ace"]["outlier"] and not report.figures["cards"]["dud"]["outlier"]
    rows = [line for line in report.lines if line.startswith("| ") and "%" in line]
    assert [row.split(" | ")[0] for row in rows] == ["| Ace of Oaks", "| Dud"]     # names, never ids


@pytest.mark.parametrize("argv, message", [
    (["four-forests", "--agents", "random,clever"], "--agents takes one of"),
    (["four-forests", "--games", "0"], "--games must be at least 1"),
    (["four-forests", "--pack", "tests/fixtures/packs/mythic", "--players", "9"], ""),
    (["four-forests", "--by", "colour"], "--by takes module or an option of the game with its modules on"),
    (["forest-shuffle", "--by", "challenge"], "belongs to module 'alone-in-the-forest': switch it on"),
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


def test_by_module_compares_the_base_game_with_each_module_it_allows(tmp_path):
    text, figures = report_of(tmp_path, "modules", "four-forests", "--games", 6, "--by", "module")
    rows = {row["setup"]: row for row in figures["by"]["rows"]}
    assert figures["by"]["study"] == "module" and list(rows) == ["the base game", "+ experienced", "+ first-game"]
    base = figures["seats"]
    assert rows["the base game"]["first_seat_wins"] == base[0]["wins"]        # the seat study's own games
    assert rows["+ experienced"]["length"] > rows["the base game"]["length"]  # experienced asks more of players
    assert "## By module" in text and "| + experienced |" in text and (tmp_path / "modules" / "by.png").is_file()


def test_by_an_option_tallies_each_challenge_alone(tmp_path):
    """Alone in the Forest, a row per challenge: the share won and the tiers reached."""
    _, figures = report_of(tmp_path, "challenges", "forest-shuffle", "--players", "1", "--games", 2,
                           "--module", "alone-in-the-forest", "--agents", "forester", "--by", "challenge")
    rows = figures["by"]["rows"]
    assert [row["setup"] for row in rows] == list(games.load("forest-shuffle").modules["alone-in-the-forest"].options[0].values)
    for row in rows:
        assert abs(sum(row["results"].values()) - 1) < 1e-9 and 0 <= row["first_seat_wins"] <= 1


def test_the_progress_counts_every_study_to_what_was_planned():
    ir, seen = games.load("four-forests"), []
    made = report.balance(ir, 2, 5, 1, ["random", "gardener"], progress=seen.append, by="module")
    assert seen[-1] == report.planned(5, ["random", "gardener"], 2, rows=3) == 5 * (1 + 1 + 3)
    assert seen == sorted(seen) and made.figures["by"]["rows"]


# ---- long runs in cached chunks (silvics/balance.py) ----

class Counting:
    """A runner that plays chunks here and counts the games it played."""
    def __init__(self, ir):
        self.ir, self.played = ir, []

    def __call__(self, ir_text, players, names, setup, jobs):
        self.jobs = list(jobs)
        for start, count in jobs:
            self.played += range(start, start + count)
            yield play_chunk(self.ir, players, names, setup, start, count)


def figures_of(summary) -> tuple:
    return summary.totals, summary.wins, summary.lengths, dict(summary.earned), dict(summary.awarded)


def test_a_batch_is_kept_in_chunks_and_more_games_play_only_the_new_ones(four_forests, cache_home):
    counting = Counting(four_forests)
    runner = cached_runner(four_forests, runner=counting)
    first = simulate(four_forests, 2, 30, 7, runner=runner)
    assert counting.played == list(range(7, 37))
    assert figures_of(first) == figures_of(simulate(four_forests, 2, 30, 7))          # what a plain run gives
    counting.played.clear()
    more = simulate(four_forests, 2, 60, 7, runner=runner)
    assert counting.played == list(range(32, 67))     # seeds 7–31, a whole chunk, were kept
    assert figures_of(more) == figures_of(simulate(four_forests, 2, 60, 7))
    counting.played.clear()
    simulate(four_forests, 2, 60, 7, agents=("gardener",), runner=runner)               # other agents: other games
    assert len(counting.played) == 60


def test_a_batch_smaller_than_a_chunk_is_shared_among_the_workers(four_forests, cache_home):
    """Twelve slow games are one chunk to keep, but pieces to play: every worker gets some."""
    counting = Counting(four_forests)
    first = simulate(four_forests, 2, 12, 1, runner=cached_runner(four_forests, workers=2, runner=counting))
    assert len(counting.jobs) >= 4 and counting.played == list(range(1, 13))
    assert len(list((cache_home / "batches").iterdir())) == 1              # kept whole, once every piece is in
    counting.played.clear()
    again = simulate(four_forests, 2, 12, 1, runner=cached_runner(four_forests, workers=2, runner=counting))
    assert counting.played == [] and figures_of(again) == figures_of(first)


def test_a_batch_is_played_again_when_a_source_changes(tmp_path, cache_home):
    folder = tmp_path / "copy" / "rules" / "four-forests"
    for part in ("rules", "cards"):
        shutil.copytree(ROOT / part / "four-forests", tmp_path / "copy" / part / "four-forests")
    ir = games.compile_folder(folder)
    counting = Counting(ir)
    simulate(ir, 2, 10, 1, runner=cached_runner(ir, runner=counting))
    plants = tmp_path / "copy" / "cards" / "four-forests" / "plants.yaml"
    plants.write_text(plants.read_text().replace("name: Kapok Tree\n    value: 9", "name: Kapok Tree\n    value: 8"))
    changed = games.compile_folder(folder)
    counting = Counting(changed)
    simulate(changed, 2, 10, 1, runner=cached_runner(changed, runner=counting))
    assert len(counting.played) == 10


def test_a_spoilt_chunk_is_played_again_and_no_cache_goes_around_the_cache(four_forests, cache_home):
    counting = Counting(four_forests)
    first = simulate(four_forests, 2, 10, 1, runner=cached_runner(four_forests, runner=counting))
    (entry,) = (cache_home / "batches").iterdir()
    for spoilt in ('[{"scores": "many"}]', "[]", "not json", '[{"scores": [1, 2]}]'):
        entry.write_text(spoilt)
        counting.played.clear()
        again = simulate(four_forests, 2, 10, 1, runner=cached_runner(four_forests, runner=counting))
        assert len(counting.played) == 10 and figures_of(again) == figures_of(first), spoilt
    shutil.rmtree(cache_home / "batches")
    counting.played.clear()
    simulate(four_forests, 2, 10, 1, runner=cached_runner(four_forests, runner=counting, use_cache=False))
    assert len(counting.played) == 10 and not (cache_home / "batches").exists()    # neither read nor written
