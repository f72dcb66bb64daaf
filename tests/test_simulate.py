"""Simulation summaries add up: per-seat totals, win shares, and per-card points."""
from silvics import games
from silvics.interpreter.agents import make_agent
from silvics.interpreter.simulate import play, simulate


def test_summary_adds_up(four_forests):
    summary = simulate(four_forests, 3, 40, seed=5)
    assert abs(sum(summary.wins) - 40) < 1e-9                     # each game's win shared among its winners
    assert sum(stats.points for stats in summary.earned.values()) == sum(summary.totals)
    assert sum(stats.points for stats in summary.awarded.values()) == sum(summary.totals)
    assert summary.lengths == [4 * 3 * 6] * 40                    # rounds × seats × decisions per round
    assert set(summary.awarded) <= {card.id for card in four_forests.cards if card.kind == "creature"}


def test_a_game_played_for_its_figures_skips_only_the_drawings():
    """Simulated games are played with log=False: nothing is worked out only to be written in
    the log (Renature's board drawn each turn), and the game plays the same, choice by choice."""
    renature = games.load("renature")
    for seed in range(2):
        told, untold = (play(renature, 3, seed, [make_agent("random", seed, s) for s in range(3)], ("valley",),
                             log=log) for log in (True, False))
        assert any(entry[0] == "draw" for entry in told.state.log)
        assert [entry for entry in told.state.log if entry[0] != "draw"] == untold.state.log
        assert told.state.scores == untold.state.scores and told.state.choices == untold.state.choices


def test_simulation_is_seeded(four_forests):
    first, second = simulate(four_forests, 2, 10, seed=9), simulate(four_forests, 2, 10, seed=9)
    assert first.totals == second.totals and first.earned == second.earned


def test_montecarlo_agent_beats_random_players(four_forests):
    """Seeded, so this is a fixed check: flat Monte Carlo on guessed worlds outplays random seats."""
    summary = simulate(four_forests, 3, 6, seed=1, agents=("montecarlo", "random", "random"))
    assert summary.wins[0] > max(summary.wins[1:])
    assert summary.totals[0] / 6 > max(summary.totals[1:]) / 6 + 5


def figures(summary):
    return (summary.games, summary.players, summary.totals, summary.wins, summary.lengths,
            list(summary.earned.items()), list(summary.awarded.items()))


def test_the_figures_are_the_same_whatever_the_number_of_workers(four_forests):
    """Games are added up in seed order, so even the floating-point win shares (a three-way tie
    adds 1/3) and the order of the card tables match exactly."""
    alone = figures(simulate(four_forests, 3, 13, seed=4))
    for workers in (2, 3):
        assert figures(simulate(four_forests, 3, 13, seed=4, workers=workers)) == alone


def test_game_i_uses_seed_plus_i(four_forests):
    whole = simulate(four_forests, 2, 5, seed=10)
    first, last = simulate(four_forests, 2, 4, seed=10), simulate(four_forests, 2, 1, seed=14)
    assert whole.totals == [a + b for a, b in zip(first.totals, last.totals)]


def test_progress_is_reported_as_games_finish(four_forests):
    for workers in (1, 2):
        seen = []
        simulate(four_forests, 2, 7, seed=1, workers=workers, progress=seen.append)
        assert seen == sorted(seen) and seen[-1] == 7


def test_the_progress_bar_is_drawn_on_a_terminal_only():
    import io

    from silvics.progress import ProgressBar

    class Terminal(io.StringIO):
        def isatty(self):
            return True
    terminal, pipe = Terminal(), io.StringIO()
    for stream in (terminal, pipe):
        bar = ProgressBar(4, stream=stream)
        for done in range(1, 5):
            bar(done)
        bar.close()
    assert pipe.getvalue() == ""
    assert "4/4 games [########################]" in terminal.getvalue() and "games/s" in terminal.getvalue()
    assert "s left" in terminal.getvalue() and terminal.getvalue().endswith("\r\033[K")


def test_a_worker_that_cannot_load_the_game_fails_the_simulation_instead_of_hanging(four_forests, monkeypatch):
    # A pool restarts a worker whose starter raised, for ever: the failure must reach the caller.
    import pytest

    from silvics.interpreter import ir

    monkeypatch.setattr(ir, "loads", lambda text: (_ for _ in ()).throw(ir.IRError("spoilt in the worker")))
    with pytest.raises(ir.IRError, match="spoilt in the worker"):
        simulate(four_forests, 2, 8, seed=1, workers=2)


def test_ctrl_c_stops_a_simulation_and_its_workers_at_once(four_forests):
    # Ctrl-C as the first games come in, the workers busy with search agents: leaving waits
    # for no game, and leaves no worker running
    import multiprocessing
    import time

    import pytest

    interrupted = []

    def interrupt(done):
        interrupted.append(time.perf_counter())
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate(four_forests, 2, 64, seed=1, agents=("ismcts:100", "random"), workers=2, progress=interrupt)
    assert time.perf_counter() - interrupted[0] < 1          # a game of these takes about a second
    assert multiprocessing.active_children() == []


def test_a_worker_killed_by_the_system_stops_the_run_with_a_clear_error(four_forests, monkeypatch):
    # the system may kill a worker (out of memory): its games are lost, and the run must stop
    # and say so (a multiprocessing.Pool waited for them for ever), never as a traceback
    import os

    import pytest

    from conftest import run_cli
    from silvics.interpreter import simulate as module

    monkeypatch.setattr(module, "play_chunk", lambda *args: os._exit(9))      # the workers fork with it
    with pytest.raises(module.WorkersLost):
        simulate(four_forests, 2, 8, seed=1, workers=2)
    status, out, err = run_cli("simulate", "four-forests", "--games", 8, "--workers", 2)
    assert status == 1 and "a worker process ended without a word" in err, err


def test_points_a_card_scores_naming_no_other_card_are_its_own():
    """Forest Shuffle scores each card by itself (the `by` of each score, no card named): the balance
    report's per-card points are what each card earned, and no card awards points to another
    (before, every card showed 0 points earned and 'awarded' its own)."""
    from silvics import games
    summary = simulate(games.load("forest-shuffle"), 2, 3)
    assert any(stats.points > 0 for stats in summary.earned.values()) and not summary.awarded
    four = simulate(games.load("four-forests"), 2, 3)       # a creature awards points to the plants voting
    assert four.awarded and four.earned


def test_a_batch_sets_the_collector_while_it_plays_and_puts_it_back():
    """quiet_collector: inside, the objects alive at its start are frozen and young passes are
    rarer; a block inside another changes nothing; once every block is closed, in any order
    (a generator's may close after the block it opened in), all is as it was. In a
    process of its own: this test run holds a block open (conftest)."""
    import subprocess
    import sys
    script = (
        "import gc\n"
        "from silvics.interpreter.simulate import YOUNG_PASS, quiet_collector\n"
        "before = gc.get_threshold()\n"
        "with quiet_collector():\n"
        "    inside = gc.get_threshold(), gc.get_freeze_count() > 0\n"
        "    with quiet_collector():\n"
        "        pass\n"
        "    still = gc.get_threshold(), gc.get_freeze_count() > 0\n"
        "after = gc.get_threshold() == before, gc.get_freeze_count()\n"
        "outer = quiet_collector(); outer.__enter__()\n"
        "inner = quiet_collector(); inner.__enter__()  # as a generator's block opened in the outer\n"
        "outer.__exit__(None, None, None)\n"
        "open_yet = gc.get_threshold()[0] == YOUNG_PASS\n"
        "inner.__exit__(None, None, None)  # the generator dropped after the outer block closed\n"
        "print(*after, inside[0][0] == YOUNG_PASS, inside[1], still == inside, before[0] != YOUNG_PASS,\n"
        "      open_yet, gc.get_threshold() == before, gc.get_freeze_count())\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "0", "True", "True", "True", "True", "True", "True", "0"]

