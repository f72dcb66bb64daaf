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


def simulate(ir, players: int, games: int, seed: int = 1, agents=("random",), modules=()) -> Summary:
    """Play `games` games with seeds seed, seed+1, …; ties share a win."""
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
    summary.lengths.append(sum(1 for line in game.state.log if line.startswith("choice ")))
    return share


def _record_cards(summary: Summary, game: Game, share: list[float]):
    earned, awarded = defaultdict(lambda: [0, 0.0]), defaultdict(lambda: [0, 0.0])
    for seat, uid, points, source in game.state.score_items:
        for table, card in ((earned, uid), (awarded, source)):
            if card >= 0 and points:
                table[game.card_id(card)][0] += points
                table[game.card_id(card)][1] = max(table[game.card_id(card)][1], share[seat])
    for table, stats in ((earned, summary.earned), (awarded, summary.awarded)):
        for card, (points, won) in table.items():
            stats[card].games += 1
            stats[card].points += points
            stats[card].wins += won
