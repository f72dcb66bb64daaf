"""Four Forests written by hand in plain Python: the yardstick the engine is measured against.

    python benchmarks/four_forests_direct.py [--games 2000] [--players 4] [--experienced]

It plays the rules of rules/four-forests/game.yaml (and, optionally, its `experienced`
module) with random players, reading the same card files. Each decision picks uniformly
among the legal options, and, as in the engine, a decision with a single option is taken
without asking, so both make the same number and kind of decisions per game. Run on its
own, it checks that it plays the same game as the engine: mean total score and mean
decisions per game, side by side.

Cards are ints indexing the lists read_cards returns (plants 0..63, creatures 0..10). No
eval/exec: the creatures' `prefers` conditions are parsed by the small parser below.
"""
from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Callable, NamedTuple

import yaml

from silvics import bundled
from silvics import games as catalogue
from silvics.interpreter.agents import make_agent, play_on
from silvics.interpreter.game import Game

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
ROUNDS, DEAL, SHOWN = 4, 4, 4          # rounds, plants dealt per player per round, creatures in play
AWARDS = (4, 3, 2, -1)                 # prestige tokens, first place down
SIDES = ("leaf", "thorn")


class Plant(NamedTuple):
    id: str
    value: int
    suit: str
    form: str
    icons: frozenset
    icon_count: int


class Creature(NamedTuple):
    id: str
    prefers: tuple          # per side (leaf, thorn): a predicate on a Plant
    texts: tuple            # the condition strings, as printed


# ---- the cards ----------------------------------------------------------------------------

def cards_folder() -> Path:
    return bundled.folder("cards") / "four-forests"


def read_cards(folder: Path | None = None) -> tuple[list[Plant], list[Creature]]:
    folder = folder or cards_folder()
    plants = [_plant(c) for c in _cards(folder / "plants.yaml") for _ in range(c.get("copies", 1))]
    creatures = []
    for c in _cards(folder / "creatures.yaml"):
        texts = tuple(c["sides"][side]["prefers"] for side in SIDES)
        creatures.append(Creature(c["id"], tuple(parse_condition(t) for t in texts), texts))
    return plants, creatures


def _plant(card: dict) -> Plant:
    icons = frozenset(card.get("icons", ()))
    return Plant(card["id"], card["value"], card["suit"], card["form"], icons, len(icons))


def _cards(path: Path) -> list[dict]:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=LOADER)["cards"]


# ---- conditions: the forms the creature file uses ------------------------------------------
#   or_expr := and_expr ("or" and_expr)*      and_expr := not_expr ("and" not_expr)*
#   not_expr := "not" not_expr | "(" or_expr ")" | test
#   test := operand (OP literal | "in" "[" literal, ... "]" | "has" word)
#   operand := attribute | "count(" attribute ")"          (as in the effect language:
#   `not` binds tighter than `and`, looser than a comparison)

TOKEN = re.compile(r"\s*(<=|>=|!=|[=<>()\[\],]|\d+|[a-z_][a-z0-9_-]*)")
# One closure per test, as one would write it by hand (`lambda p: p.value >= 6`): each reads
# one field of the Plant tuple; count(icons) reads the icon count stored beside the icons.
TESTS = {"=": lambda i, v: lambda p: p[i] == v, "!=": lambda i, v: lambda p: p[i] != v,
         "<": lambda i, v: lambda p: p[i] < v, "<=": lambda i, v: lambda p: p[i] <= v,
         ">": lambda i, v: lambda p: p[i] > v, ">=": lambda i, v: lambda p: p[i] >= v,
         "in": lambda i, v: lambda p: p[i] in v, "has": lambda i, v: lambda p: v in p[i]}
ATTRIBUTES = ("value", "suit", "form", "icons")
Predicate = Callable[[Plant], bool]


def parse_condition(text: str) -> Predicate:
    tokens = _tokens(text)
    predicate = _or(tokens)
    if tokens:
        raise ValueError(f"unexpected {tokens[0]!r} in {text!r}")
    return predicate


def _tokens(text: str) -> list[str]:
    tokens, at = [], 0
    while at < len(text.rstrip()):
        match = TOKEN.match(text, at)
        if not match:
            raise ValueError(f"cannot read {text[at:]!r}")
        tokens.append(match.group(1))
        at = match.end()
    return tokens


def _take(tokens: list[str], expected: str | None = None) -> str:
    if not tokens or (expected and tokens[0] != expected):
        raise ValueError(f"expected {expected or 'more'}, got {tokens[:1] or 'the end'}")
    return tokens.pop(0)


def _or(tokens) -> Predicate:
    predicate = _and(tokens)
    while tokens and tokens[0] == "or":
        _take(tokens)
        predicate = _either(predicate, _and(tokens))
    return predicate


def _and(tokens) -> Predicate:
    predicate = _not(tokens)
    while tokens and tokens[0] == "and":
        _take(tokens)
        predicate = _both(predicate, _not(tokens))
    return predicate


def _either(a: Predicate, b: Predicate) -> Predicate:
    return lambda p: a(p) or b(p)


def _both(a: Predicate, b: Predicate) -> Predicate:
    return lambda p: a(p) and b(p)


def _not(tokens) -> Predicate:
    if tokens and tokens[0] == "not":
        _take(tokens)
        inner = _not(tokens)
        return lambda p: not inner(p)
    if tokens and tokens[0] == "(":
        _take(tokens)
        inner = _or(tokens)
        _take(tokens, ")")
        return inner
    return _test(tokens)


def _test(tokens) -> Predicate:
    index, op = _operand(tokens), _take(tokens)
    if op not in TESTS:
        raise ValueError(f"expected a comparison, in or has, got {op!r}")
    if op == "in":
        value = frozenset(_list(tokens))
    else:
        value = _literal(_take(tokens))
    return TESTS[op](index, value)


def _operand(tokens) -> int:
    """The index in Plant of the field an operand reads."""
    word = _take(tokens)
    if word == "count":
        _take(tokens, "(")
        _take(tokens, "icons")
        _take(tokens, ")")
        return Plant._fields.index("icon_count")
    if word not in ATTRIBUTES:
        raise ValueError(f"unknown attribute {word!r}")
    return Plant._fields.index(word)


def _list(tokens) -> list:
    _take(tokens, "[")
    items = [_literal(_take(tokens))]
    while tokens[0] == ",":
        _take(tokens)
        items.append(_literal(_take(tokens)))
    _take(tokens, "]")
    return items


def _literal(word: str):
    return int(word) if word.isdigit() else word


# ---- one game ---------------------------------------------------------------------------------

class Result(NamedTuple):
    scores: list
    decisions: int


def play(plants: list[Plant], creatures: list[Creature], players: int, seed: int,
         experienced: bool = False) -> Result:
    """One game between random players (seeded); the same steps, in the same order, as game.yaml."""
    rng = random.Random(seed)
    randrange = rng.randrange
    decisions = 0

    def choose(n: int) -> int:                 # a single option is taken without asking
        nonlocal decisions
        if n < 2:
            return 0
        decisions += 1
        return randrange(n)

    first, shown, side, deck, hands = _setup(rng, players, len(plants), len(creatures))
    forests = [[] for _ in range(players)]
    votes = [[] for _ in shown]                  # per creature: (plant, for?)

    def cultivate(order):
        for seat in order:
            hand = hands[seat]
            forests[seat].append(hand.pop(choose(len(hand))))

    def vote(order):
        for seat in order:
            hand = hands[seat]
            card = hand.pop(choose(len(hand)))
            votes[choose(SHOWN)].append((card, choose(2) == 0))

    def pollinate(order):                        # everyone chooses, then the cards pass left
        passed = [(seat, hands[seat].pop(choose(len(hands[seat])))) for seat in order]
        for seat, card in passed:
            hands[(seat + 1) % players].append(card)

    def prune(order):                            # simultaneous, but nothing passes between hands
        for seat in order:
            hand = hands[seat]
            hand.pop(choose(len(hand)))

    steps = (cultivate, vote, pollinate, prune)
    for round_ in range(1, ROUNDS + 1):
        order = [(first + i) % players for i in range(players)]
        if experienced:                          # the first player picks the next step each time
            left = list(steps)
            while left:
                left.pop(choose(len(left)))(order)
        else:
            for step in steps:
                step(order)
        if round_ < ROUNDS:
            first = (first + 1) % players
            for i in range(players):
                hands[(first + i) % players] += _deal(deck)
    for seat in range(players):
        forests[seat] += hands[seat]
        hands[seat] = []
    tokens = tokens_awarded(plants, votes)
    prefers = [creatures[c].prefers[side[c]] for c in shown]
    scores = [sum(token for token, wants in zip(tokens, prefers) for card in forest if wants(plants[card]))
              for forest in forests]
    return Result(scores, decisions)


def _setup(rng: random.Random, players: int, plants: int, creatures: int):
    """The first player, the creatures shown, every creature's side, the deck and the hands."""
    first = rng.randrange(players)
    pile = list(range(creatures))
    rng.shuffle(pile)
    side = [rng.randrange(2) for _ in pile]      # each flipped to a random side
    shown = pile[-SHOWN:][::-1]                  # dealt from the top
    deck = list(range(plants))
    rng.shuffle(deck)
    return first, shown, side, deck, [_deal(deck) for _ in range(players)]


def _deal(deck: list[int]) -> list[int]:
    dealt = deck[-DEAL:][::-1]                   # from the top
    del deck[-DEAL:]
    return dealt


def tokens_awarded(plants: list[Plant], votes: list[list]) -> list[int]:
    """Rank by [prestige, vote value]; tied creatures share the lowest award of the places they span."""
    keys = []
    for cast in votes:
        prestige = value = 0
        for card, for_ in cast:
            sign = 1 if for_ else -1
            prestige += sign
            value += sign * plants[card].value
        keys.append((prestige, value))
    order = sorted(range(len(keys)), key=keys.__getitem__, reverse=True)
    tokens = [0] * len(keys)
    place = 0
    while place < len(order):
        end = place
        while end + 1 < len(order) and keys[order[end + 1]] == keys[order[place]]:
            end += 1
        for c in order[place:end + 1]:
            tokens[c] = AWARDS[end] if end < len(AWARDS) else 0
        place = end + 1
    return tokens


# ---- the same figures from the engine ---------------------------------------------------------

def engine_game(ir, players: int, seed: int, modules=()) -> Result:
    """One engine game between random agents, played as `silvics simulate` plays its games
    (`play_on`: a random agent's pick is drawn with no observation made, as the hand-written
    players draw theirs), with its decisions: the choices asked and answered."""
    game = Game(ir, players, seed, modules)
    play_on(game, [make_agent("random", seed, seat) for seat in range(players)])
    return Result(list(game.state.scores), len(game.state.choices))


def summary(results: list[Result]) -> tuple[float, float, float]:
    """Mean total score per game, its standard error, and mean decisions per game."""
    totals = [sum(r.scores) for r in results]
    n = len(totals)
    mean = sum(totals) / n
    spread = (sum((t - mean) ** 2 for t in totals) / max(1, n - 1)) ** 0.5
    return mean, spread / n ** 0.5, sum(r.decisions for r in results) / n


def self_check(games: int, players: int, experienced: bool = False) -> str:
    ir = catalogue.load("four-forests")
    plants, creatures = read_cards()
    modules = ("experienced",) if experienced else ()
    direct = summary([play(plants, creatures, players, seed, experienced) for seed in range(games)])
    engine = summary([engine_game(ir, players, seed, modules) for seed in range(games)])
    return verdict(players, games, engine, direct)


def verdict(players: int, games: int, engine, direct) -> str:
    """One line: both means side by side, and whether they differ by more than chance allows."""
    gap = abs(engine[0] - direct[0]) / max(1e-9, (engine[1] ** 2 + direct[1] ** 2) ** 0.5)
    same = gap < 4 and abs(engine[2] - direct[2]) < 0.5
    return (f"{players}p, {games} games: mean total score engine {engine[0]:.2f} ± {engine[1]:.2f}, "
            f"hand-written {direct[0]:.2f} ± {direct[1]:.2f} ({gap:.1f} s.e. apart); mean decisions "
            f"engine {engine[2]:.2f}, hand-written {direct[2]:.2f}: {'same game' if same else 'DIFFERENT'}")


def main():
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, action="append", help="default: 2, 3 and 4")
    parser.add_argument("--experienced", action="store_true", help="with the experienced module")
    args = parser.parse_args()
    for players in args.players or (2, 3, 4):
        print(self_check(args.games, players, args.experienced))


if __name__ == "__main__":
    main()
