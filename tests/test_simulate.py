"""Simulation summaries add up: per-seat totals, win shares, and per-card points."""
from silvics.interpreter.simulate import simulate


def test_summary_adds_up(four_forests):
    summary = simulate(four_forests, 3, 40, seed=5)
    assert abs(sum(summary.wins) - 40) < 1e-9                     # each game's win shared among its winners
    assert sum(stats.points for stats in summary.earned.values()) == sum(summary.totals)
    assert sum(stats.points for stats in summary.awarded.values()) == sum(summary.totals)
    assert summary.lengths == [4 * 3 * 6] * 40                    # rounds × seats × decisions per round
    assert set(summary.awarded) <= {card.id for card in four_forests.cards if card.kind == "creature"}


def test_simulation_is_seeded(four_forests):
    first, second = simulate(four_forests, 2, 10, seed=9), simulate(four_forests, 2, 10, seed=9)
    assert first.totals == second.totals and first.earned == second.earned


def test_montecarlo_agent_beats_random_players(four_forests):
    """Seeded, so this is a fixed check: flat Monte Carlo on guessed worlds outplays random seats."""
    summary = simulate(four_forests, 3, 6, seed=1, agents=("montecarlo", "random", "random"))
    assert summary.wins[0] > max(summary.wins[1:])
    assert summary.totals[0] / 6 > max(summary.totals[1:]) / 6 + 5


def test_workers_share_the_games_without_changing_the_figures(four_forests):
    alone, shared = simulate(four_forests, 3, 30, seed=4), simulate(four_forests, 3, 30, seed=4, workers=2)
    assert shared.totals == alone.totals and shared.lengths == alone.lengths
    assert [round(w, 9) for w in shared.wins] == [round(w, 9) for w in alone.wins]
    assert dict(shared.earned) == dict(alone.earned) and dict(shared.awarded) == dict(alone.awarded)
