"""Agents: whoever answers a Choice. Each sees only its seat's view of the game.

Agents draw their own randomness from a generator seeded from the game seed and their
seat, so a game is the same for the same seed and agents; the game's own randomness
(shuffles, flips) stays in the game state.
"""
from __future__ import annotations

import random

from .views import determinize


class RandomAgent:
    """Picks uniformly among the legal options."""
    name = "random"

    def __init__(self, seed: int, seat: int):
        self.rng = random.Random(f"{seed}/{seat}/random")

    def choose(self, game, choice) -> int:
        return self.rng.randrange(len(choice.options))


class GreedyAgent:
    """One-step lookahead: for each option, guess the hidden cards (a random deal consistent
    with what this seat can see), take the option, play on to the next decision, score the
    position as if the game ended there, and keep the option with the best lead."""
    name = "greedy"

    def __init__(self, seed: int, seat: int, samples: int = 2):
        self.rng, self.seat, self.samples = random.Random(f"{seed}/{seat}/greedy"), seat, samples

    def choose(self, game, choice) -> int:
        worlds = [determinize(game, choice.seat, self.rng) for _ in range(self.samples)]
        values = [sum(self.value(world, index) for world in worlds) for index in range(len(choice.options))]
        best = max(values)
        return self.rng.choice([i for i, v in enumerate(values) if v == best])

    def value(self, world, index: int) -> float:
        trial = world.copy()
        trial.apply(index)
        scores = trial.provisional_scores()
        others = [s for seat, s in enumerate(scores) if seat != self.seat]
        return scores[self.seat] - (max(others) if others else 0)


class MonteCarloAgent:
    """Flat Monte Carlo: for each option, play several guessed worlds (unseen cards dealt at
    random among themselves) to the end with random agents, and keep the option with the best
    average lead over the best other seat."""
    name = "montecarlo"

    def __init__(self, seed: int, seat: int, rollouts: int = 8):
        self.rng, self.seat, self.rollouts = random.Random(f"{seed}/{seat}/montecarlo"), seat, rollouts

    def choose(self, game, choice) -> int:
        totals = [0.0] * len(choice.options)
        for _ in range(self.rollouts):
            world = determinize(game, choice.seat, self.rng)
            for index in range(len(choice.options)):
                totals[index] += self.playout(world.copy(), index)
        best = max(totals)
        return self.rng.choice([i for i, total in enumerate(totals) if total == best])

    def playout(self, world, index: int) -> float:
        world.apply(index)
        while not world.over:
            world.apply(self.rng.randrange(len(world.pending.options)))
        scores = world.state.scores
        others = [s for seat, s in enumerate(scores) if seat != self.seat]
        return scores[self.seat] - (max(others) if others else 0)


class ScriptedAgent:
    """Answers from a list of option labels (scenario files); fails clearly when one is illegal."""
    name = "scripted"

    def __init__(self, answers):
        self.answers = list(answers)

    def choose(self, game, choice) -> int:
        if not self.answers:
            raise ScriptExhausted(choice)
        answer = str(self.answers.pop(0))
        if answer not in choice.labels:
            raise ValueError(f"seat {choice.seat + 1} cannot answer {answer!r} to '{choice.prompt}'; "
                             f"the legal options are: {', '.join(choice.labels)}")
        return choice.labels.index(answer)


class ScriptExhausted(Exception):
    def __init__(self, choice):
        super().__init__(f"no scripted answer left for seat {choice.seat + 1}: {choice.prompt}")
        self.choice = choice


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "montecarlo": MonteCarloAgent}
