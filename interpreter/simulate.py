"""Simulation: many seeded games between agents, summarised per seat and per card.

Per-card figures come from the itemised scores, so they mean the same in every game: how
often a card earned points, how many, and how often the player it earned them for won;
and for cards that award points (the `by` of a score), how many they handed out.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from .agents import AGENTS
from .game import Game


def play(ir, players: int, seed: int, agents, modules=()) -> Game:
    """One whole game; `agents` holds one agent per seat."""
    game = Game(ir, players, seed, modules)
    while not game.over:
        choice = game.pending
        game.apply(agents[choice.seat].choose(game, choice))
    return game


@dataclass
class CardStats:
    games: int = 0            # games in which it earned (or awarded) points
    points: int = 0
    wins: float = 0.0         # of those games, won by the player it earned points for (earners only)


@dataclass
class Summary:
    games: int
    players: int
    totals: list
    wins: list
    lengths: list = field(default_factory=list)
    earned: dict = field(default_factory=lambda: defaultdict(CardStats))
    awarded: dict = field(default_factory=lambda: defaultdict(CardStats))


def simulate(ir, players: int, games: int, seed: int = 1, agents=("random",), modules=(), workers: int = 1) -> Summary:
    """Play `games` games with seeds seed, seed+1, …; ties share a win. With several workers the
    seeds are split among processes and the summaries merged: the figures are the same."""
    if workers > 1 and games > 1:
        return _in_parallel(ir, players, games, seed, agents, modules, workers)
    names = list(agents) * players if len(agents) == 1 else list(agents)
    summary = Summary(games, players, [0.0] * players, [0.0] * players)
    for number in range(games):
        game = play(ir, players, seed + number, [AGENTS[n](seed + number, s) for s, n in enumerate(names)], modules)
        share = _record_seats(summary, game)
        _record_cards(summary, game, share)
    return summary


def _record_seats(summary: Summary, game: Game) -> list[float]:
    scores = game.state.scores
    winners = [seat for seat, score in enumerate(scores) if score == max(scores)]
    share = [1 / len(winners) if seat in winners else 0.0 for seat in range(len(scores))]
    for seat, score in enumerate(scores):
        summary.totals[seat] += score
        summary.wins[seat] += share[seat]
    summary.lengths.append(sum(1 for entry in game.state.log if entry[0] == "choice"))
    return share


def _record_cards(summary: Summary, game: Game, share: list[float]):
    earned, awarded = defaultdict(lambda: [0, 0.0]), defaultdict(lambda: [0, 0.0])
    for seat, uid, points, source, _ in game.state.score_items:
        for table, card in ((earned, uid), (awarded, source)):
            if card >= 0 and points:
                table[game.card_id(card)][0] += points
                table[game.card_id(card)][1] = max(table[game.card_id(card)][1], share[seat])
    for table, stats in ((earned, summary.earned), (awarded, summary.awarded)):
        for card, (points, won) in table.items():
            stats[card].games += 1
            stats[card].points += points
            stats[card].wins += won


def _in_parallel(ir, players, games, seed, agents, modules, workers) -> Summary:
    from concurrent.futures import ProcessPoolExecutor

    from .ir import dumps
    size = -(-games // workers)
    chunks = [(start, min(size, seed + games - start)) for start in range(seed, seed + games, size)]
    text = dumps(ir)                      # workers rebuild the IR from its JSON form
    with ProcessPoolExecutor(max_workers=workers) as pool:
        parts = list(pool.map(_chunk, [(text, players, n, start, tuple(agents), tuple(modules)) for start, n in chunks]))
    return _merged(parts, games, players)


def _chunk(job) -> Summary:
    from .ir import loads
    text, players, games, seed, agents, modules = job
    return simulate(loads(text), players, games, seed, agents, modules)


def _merged(parts, games: int, players: int) -> Summary:
    total = Summary(games, players, [0.0] * players, [0.0] * players)
    for part in parts:
        total.totals = [a + b for a, b in zip(total.totals, part.totals)]
        total.wins = [a + b for a, b in zip(total.wins, part.wins)]
        total.lengths += part.lengths
        for mine, theirs in ((total.earned, part.earned), (total.awarded, part.awarded)):
            for card, stats in theirs.items():
                mine[card].games += stats.games
                mine[card].points += stats.points
                mine[card].wins += stats.wins
    return total
