"""Agents: whoever answers a Choice, from the observation of its seat (observation.py), never
from the game: `choose(observation) -> index`. Search agents play on worlds the observation
samples, which deal again the cards the seat cannot see.

Agents draw their own randomness from a generator of their own, so a game is the same for
the same seed and agents; the game's own randomness (shuffles, flips) stays in the game
state. An agent is never given the game's seed, from which it could build the game again
and read the deal: `make_agent` gives it a seed made from the game's one way (agent_seed).
"""

from __future__ import annotations

import hashlib
import math
import random
import time

from .draws import below, choice
from .registry import free_names


def decide(game, agents):
    """Put the pending choice to its seat's agent, through that seat's observation, and apply the answer."""
    seat = game.pending.seat
    game.apply(agents[seat].choose(game.observe(seat)))


def play_on(game, agents):
    """Decide until nothing is asked: the game is over (or the procedure started has ended). The
    random agent draws its pick with no observation made for it, as its `choose` would (it reads
    only the number of options): a random game's decisions cost no more than they must."""
    while (choice := game.state.pending) is not None:  # decide(), written out: every simulation's loop
        agent = agents[choice.seat]
        if type(agent) is RandomAgent:  # (a subclass may read more)
            game.apply(below(agent.rng, len(choice.options)))
        else:
            game.apply(agent.choose(game.observe(choice.seat)))


class RandomAgent:
    """Picks uniformly among the legal options."""

    name = "random"

    def __init__(self, seed: int, seat: int):
        self.rng = random.Random(f"{seed}/{seat}/random")

    def choose(self, observation) -> int:
        return below(self.rng, observation.option_count)


def lead(scores, seat: int) -> int:
    """A seat's score less the best other seat's (its own score when it plays alone)."""
    others = [score for other, score in enumerate(scores) if other != seat]
    return scores[seat] - (max(others) if others else 0)


class GreedyAgent:
    """One-step lookahead: for each option, in worlds sampled from the observation, take the
    option, play on to the next decision, score the position as if the game ended there, and
    keep the option with the best lead."""

    name = "greedy"

    def __init__(self, seed: int, seat: int, samples: int = 2):
        self.rng, self.samples = random.Random(f"{seed}/{seat}/greedy"), samples

    def choose(self, observation) -> int:
        worlds = [observation.sample(self.rng, log=False) for _ in range(self.samples)]
        values = [
            sum(self.value(world, index, observation.seat) for world in worlds)
            for index in range(observation.option_count)
        ]
        best = max(values)
        return choice(self.rng, [i for i, v in enumerate(values) if v == best])

    def value(self, world, index: int, seat: int) -> float:
        trial = world.copy()
        trial.apply(index)
        return lead(trial.provisional_scores(in_place=True), seat)


class MonteCarloAgent:
    """Flat Monte Carlo: for each option, play several worlds sampled from the observation to
    the end with random moves, and keep the option with the best average lead over the best
    other seat."""

    name = "montecarlo"

    def __init__(self, seed: int, seat: int, rollouts: int = 8):
        self.rng, self.rollouts = random.Random(f"{seed}/{seat}/montecarlo"), rollouts

    def choose(self, observation) -> int:
        totals = [0.0] * observation.option_count
        for _ in range(self.rollouts):
            world = observation.sample(self.rng, log=False)
            for index in range(len(totals)):
                totals[index] += self.playout(world.copy(), index, observation.seat)
        best = max(totals)
        return choice(self.rng, [i for i, total in enumerate(totals) if total == best])

    def playout(self, world, index: int, seat: int) -> float:
        world.apply(index)
        while not world.over:
            world.apply(below(self.rng, len(world.pending.options)))
        return lead(world.state.scores, seat)


class _Arm:
    """A move in the search tree: a seat's option, known by the label that seat reads, so one
    tree holds every world sampled (an information set, not a state)."""

    __slots__ = ("seat", "children", "visits", "available", "reward")

    def __init__(self, seat: int):
        self.children: dict[tuple[int, str], _Arm]  # (seat, label) -> the move
        self.seat, self.children = seat, {}
        self.visits, self.available, self.reward = 0, 0, 0.0


class ISMCTSAgent:
    """Information-set Monte Carlo tree search (single observer, Cowling, Powley and Whitehouse
    2012). Each iteration samples a world from the observation (the cards this seat cannot see
    dealt again, a generator of its own: never the real game), walks one tree shared by every
    world, choosing by UCB among the options that world offers (a move's `available` counts
    the iterations it could be chosen), adds one move, plays on at random, and credits each move
    with the result for the seat that made it: its lead over the best other seat. A playout
    stops after `depth` decisions (random moves soon drown what the move did: 10 plays as well
    as 40 in every bundled game, and faster) and scores the position as if the game ended there. Leads
    are compared on the scale of this search (the least and the most seen so far map to 0 and
    1), so a game of big scores, or one where every line looks lost, still shows which move is
    better. The budget is `iterations`, or `seconds` of CPU time when given. The answer is the
    most visited option."""

    name = "ismcts"
    EXPLORE = 0.7  # UCB's exploration constant, for rewards between 0 and 1

    def __init__(
        self, seed: int, seat: int, iterations: int = 64, depth: int = 10, seconds: float | None = None
    ):
        self.rng, self.seat = random.Random(f"{seed}/{seat}/ismcts"), seat
        self.iterations, self.depth, self.seconds = iterations, depth, seconds

    def choose(self, observation) -> int:
        if observation.option_count == 1:
            return 0
        root, self.low, self.high = _Arm(observation.seat), math.inf, -math.inf
        deadline = None if self.seconds is None else time.process_time() + self.seconds
        for done in range(10**9):
            if (done >= self.iterations) if deadline is None else (done and time.process_time() >= deadline):
                break
            self.iterate(root, observation.sample(self.rng, log=False))
        labels = observation.labels
        visits = [
            root.children[key].visits if (key := (observation.seat, label)) in root.children else 0
            for label in labels
        ]
        best = max(visits)
        return choice(self.rng, [i for i, v in enumerate(visits) if v == best])

    def iterate(self, root: _Arm, world):
        node, path = root, []
        while not world.over:  # select, then expand one move
            pending = world.pending
            keys = [(pending.seat, label) for label in pending.labels]
            known = [(i, node.children[key]) for i, key in enumerate(keys) if key in node.children]
            for _, child in known:
                child.available += 1
            if len(known) < len(keys):
                index = choice(self.rng, [i for i, key in enumerate(keys) if key not in node.children])
                child = node.children[keys[index]] = _Arm(pending.seat)
                child.available += 1
                world.apply(index)
                path.append(child)
                break
            index, node = max(known, key=self._bound)
            world.apply(index)
            path.append(node)
        for _ in range(self.depth):  # play on at random
            if world.over:
                break
            world.apply(below(self.rng, len(world.pending.options)))
        scores = world.state.scores if world.over else world.provisional_scores(in_place=True)
        for arm in path:
            arm.visits += 1
            arm.reward += (gained := lead(scores, arm.seat))
            self.low, self.high = min(self.low, gained), max(self.high, gained)

    def _bound(self, pair) -> float:
        _, arm = pair
        spread = self.high - self.low or 1
        worth = (arm.reward / arm.visits - self.low) / spread
        return worth + self.EXPLORE * math.sqrt(math.log(arm.available) / arm.visits)


class StrategyAgent:
    """Plays by a strategy the game's data gives (ir.Strategy, written in the effect language):
    its rules, in order, narrow the options (a rule's `pick` keeps the first label of its list
    that is offered; its `prefer` keeps the options worth the most with the option as `option`,
    and `it` for a card, worked out in a world sampled from the observation); the rest is picked
    at random. A
    rule applies at the decisions of its procedure, or the one question, `at` names, and only
    where every name it reads is bound."""

    name = "strategy"

    def __init__(self, seed: int, seat: int, strategy: str):
        self.rng, self.strategy = random.Random(f"{seed}/{seat}/strategy/{strategy}"), strategy

    def choose(self, observation) -> int:
        kept = list(range(observation.option_count))
        plan = observation.strategy(self.strategy)
        if plan is None:
            raise ValueError(f"this game has no strategy {self.strategy!r}")
        prompt, world = observation.prompt, None
        asking = prompt.partition(":")[0] if ":" in prompt else ""
        for rule in plan.rules:
            if len(kept) == 1:
                break
            if rule.at and rule.at not in (asking, prompt):
                continue
            labels = observation.labels if rule.pick else ()
            for wanted in rule.pick:  # the first label offered, if any
                picked = [i for i in kept if labels[i] == wanted]
                if picked:
                    kept = picked
                    break
            if rule.prefer is not None:
                world = world or observation.sample(self.rng, log=False)
                worth = self._worth(world, rule.prefer, kept)
                kept = [i for i in kept if worth[i] == max(worth.values())] if worth else kept
        return choice(self.rng, kept)

    @staticmethod
    def _worth(world, prefer, kept: list[int]) -> dict | None:
        """What each kept option is worth to `prefer` (the option as `option`, and as `it` when it is
        a card); None where the rule does not apply: it reads `it` and the options are not cards,
        or a name not bound at this decision."""
        pending, env = world.pending, world.state.stack[-1].env
        given = {"option", "you"} | ({"it"} if pending.cards is True else set())
        if not _reads(prefer) - given <= env.keys():
            return None
        value, inner = world.rules.build(prefer), {**env, "you": pending.seat}
        worth = {}
        for index in kept:
            inner["option"] = inner["it"] = pending.options[index]
            found = value(world, inner)
            worth[index] = int(found) if isinstance(found, bool) else (found or 0)
        return worth


_READS: dict[int, tuple] = {}  # id(a strategy's expression) -> (it, the names it reads)


def _reads(node) -> frozenset:
    """The names a strategy's expression reads (walked once: it is asked at every decision)."""
    found = _READS.get(id(node))
    if found is None or found[0] is not node:
        found = _READS[id(node)] = (node, free_names(node))
    return found[1]


class ScriptedAgent:
    """Answers from a list of option labels (scenario files); fails clearly when one is illegal."""

    name = "scripted"

    def __init__(self, answers):
        self.answers = list(answers)

    def choose(self, observation) -> int:
        if not self.answers:
            raise ScriptExhausted(observation)
        answer, labels = str(self.answers.pop(0)), observation.labels
        if answer not in labels:
            raise ValueError(
                f"seat {observation.seat + 1} cannot answer {answer!r} to '{observation.prompt}'; "
                f"the legal options are: {', '.join(labels)}"
            )
        return labels.index(answer)


class ScriptExhausted(Exception):
    def __init__(self, observation):
        super().__init__(f"no scripted answer left for seat {observation.seat + 1}: {observation.prompt}")
        self.observation = observation


AGENTS = {"random": RandomAgent, "greedy": GreedyAgent, "montecarlo": MonteCarloAgent, "ismcts": ISMCTSAgent}


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the agent at `seat` in the game of `game_seed`: 64 bits of SHA-256 of both.
    One way, not secret: game seeds are small numbers, and an agent that tried them one by
    one until one made its own seed would find the game's; that is cheating by definition,
    as reading a private name is."""
    digest = hashlib.sha256(f"silvics agent/{game_seed}/{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


BUDGETS = {"greedy": "samples", "montecarlo": "rollouts", "ismcts": "iterations"}  # NAME:N sets this
MAX_BUDGET = 100_000


def make_agent(name: str, game_seed: int, seat: int):
    """The agent `name` for `seat` in the game of `game_seed`: how every command and test makes one."""
    return build_agent(name, agent_seed(game_seed, seat), seat)


def build_agent(name: str, seed: int, seat: int):
    """An agent from its name: a key of AGENTS, with a budget for a search agent (`ismcts:16`:
    16 iterations a decision), else one of the game's strategies."""
    base, _, budget = name.partition(":")
    if base not in AGENTS:
        return StrategyAgent(seed, seat, name)
    return AGENTS[base](seed, seat, **({BUDGETS[base]: int(budget)} if budget else {}))


def agent_known(name: str, strategies=()) -> bool:
    """Whether `name` makes an agent: an agent of AGENTS (a search agent with a budget from 1 to
    MAX_BUDGET), or one of the game's strategies."""
    base, colon, budget = name.partition(":")
    if not colon:
        return base in AGENTS or base in strategies
    return base in BUDGETS and budget.isdigit() and 1 <= int(budget) <= MAX_BUDGET
