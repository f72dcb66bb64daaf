"""What one seat may know: the observation an agent decides from, in place of the game.

    observation = game.observe(seat)
    observation.labels          # the options as this seat may name them
    observation.zones           # {"hand@1": (Seen, ...), ...}: the cards it sees, `?` for the rest
    world = observation.sample(rng)     # a Game consistent with all of it, to search

An observation is taken while the game waits for a choice, and answers for that moment only:
once the game moves on, reading it is an error. It is worked out as it is read (a random
agent reads the number of options and nothing else, and pays for nothing else).

The game it was taken from sits in a private slot. Nothing public leads to it (the tests walk
the public surface), and an agent that reads a private name, of the observation or of a
sampled world, is cheating by definition.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, NamedTuple

from .ir import CardDef
from .runtime import Choice, Frame
from .state import unnamed
from .views import seat_label, seen_log, shuffled_unseen, unseen_cards, visible, zone_sight


class Seen(NamedTuple):
    """A card as a seat sees it where it lies: the printed card (None if the seat cannot see
    it) and its face-up side, whether it lies face down in a public zone (a card the seat
    cannot see is a card back: down), and its marks, which are public."""

    card: CardDef | None
    side: int | None  # None when card is
    down: bool
    marks: dict

    @property
    def id(self) -> str:
        return self.card.id if self.card is not None else "?"

    def __str__(self) -> str:
        words = self.id
        if self.card is not None and self.side is not None and len(self.card.sides) > 1:
            words += f" ({self.card.sides[self.side].side})"
        if self.card is not None and self.down:
            words += " face down"
        if self.marks:
            words += " [" + ", ".join(f"{name} {value}" for name, value in self.marks.items()) + "]"
        return words


class StaleObservation(RuntimeError):
    """An observation read after its game moved on."""


class Observation:
    """What `seat` may know of a game at one moment (see the module docstring)."""

    __slots__ = ("seat", "option_count", "__game", "__pending", "__steps", "__read")

    def __init__(self, game, seat: int):
        state = game.state
        pending = state.pending
        self.__read: dict[str, Any] | None  # what each name's work gave (each of its own type)
        self.seat = seat  # (one by one: five at once would be packed into a tuple and unpacked)
        self.__game = game
        self.__pending = pending
        self.__steps = state.steps
        self.__read = None
        self.option_count = 0 if pending is None else len(pending.options)

    def __game_now(self):
        game = self.__game
        if game.state.pending is not self.__pending or game.state.steps != self.__steps:
            raise StaleObservation("this observation was taken before the game moved on: observe it again")
        return game

    def __once(self, name: str, work):
        """What `work(game)` gives, worked out on first reading."""
        game, read = self.__game_now(), self.__read or {}
        if name not in read:
            self.__read = read
            read[name] = work(game)
        return read[name]

    # ---- the question ----
    @property
    def deciding(self) -> int | None:
        """The seat that is to choose (None when nothing is asked)."""
        return None if self.__pending is None else self.__pending.seat

    @property
    def prompt(self) -> str | None:
        """The question, as this seat hears it (a card it names is named only if the seat sees it)."""
        return self.__once("prompt", self.__prompt)

    def __prompt(self, game):
        pending = game.state.pending
        if (
            pending is None
            or pending.about is None
            or pending.seat == self.seat
            or visible(game, self.seat, pending.about)
        ):
            return None if pending is None else pending.prompt
        return unnamed(pending.prompt)

    @property
    def still(self) -> tuple[str, int] | None:
        """For cards chosen one at a time, what is still wanted: ("count", cards) or ("worth", an
        amount); None otherwise."""
        return None if self.__pending is None else self.__pending.still

    @property
    def labels(self) -> tuple[str, ...]:
        """The options in words, as this seat may name them (a card it cannot see by where it lies)."""
        return self.__once("labels", self.__labels)

    def __labels(self, game):
        pending = game.state.pending
        if pending is None:
            return ()
        return pending.labels_for(self.seat)

    # ---- the table ----
    @property
    def players(self) -> int:
        return self.__game_now().state.players

    @property
    def zones(self) -> dict[str, tuple[Seen, ...]]:
        """Every zone with cards in it (the box aside), by label, its cards bottom first. Two
        zones on copies of one card, whose labels would be alike, are each labelled by where
        their card lies (under@tableau@1#3: on the third card of seat 1's tableau)."""
        return self.__once("zones", self.__zones)

    def __zones(self, game):
        held = [key for key, pile in game.state.zones.items() if pile and key != "box"]
        labels = [self.__zone_label(game, key) for key in held]
        twice = {label for label, count in Counter(labels).items() if count > 1}  # on two copies of a card
        return {
            (seat_label(game, self.seat, key, placed=True) if label in twice else label): tuple(
                self.__card(game, uid) for uid in game.state.zones[key]
            )
            for key, label in zip(held, labels, strict=True)
        }

    def pile(self, key: str) -> tuple[Seen, ...]:
        """The cards of the zone `key` (as the game keys its zones), bottom first: for a table
        laid out zone by zone."""
        game = self.__game_now()
        return tuple(self.__card(game, uid) for uid in game.state.zones.get(key, ()))

    def __zone_label(self, game, key: str) -> str:
        return seat_label(game, self.seat, key)

    def __card(self, game, uid: int) -> Seen:
        state = game.state
        marks = {name: value for name, value in (state.marks[uid] or {}).items() if not name.startswith("_")}
        if visible(game, self.seat, uid):  # face down matters where others could see it face up
            down = state.facedown[uid] and zone_sight(game.rules, state.location[uid])[0] == "public"
            return Seen(game.rules.defs[uid], state.side[uid], down, marks)
        return Seen(None, None, True, marks)

    @property
    def drawings(self) -> dict[str, str]:
        """The spaces of the grids the rules draw for everyone (a `draw` step reading nothing but
        the space), each as its drawing would show it now: space key -> text (a space showing
        nothing is left out). The drawing is public by the rules' own word: every seat reads the
        same."""
        return self.__once("drawings", self.__drawings)

    def __drawings(self, game) -> dict[str, str]:
        shown: dict[str, str] = {}
        for node in game.rules.drawings:
            trial = game.copy()  # the drawing is made on a copy: the game's log is left as it is
            trial.state.log = []
            trial.rules.build(node)(trial, Frame(None, {}))
            for what, _, rows in trial.state.log:
                if what == "draw":
                    shown.update(
                        (key, text) for keys, texts in rows for key, text in zip(keys, texts) if text
                    )
        return shown

    @property
    def counters(self) -> dict[str, int]:
        game = self.__game_now()
        return {game.zone_label(key): value for key, value in game.state.counters.items()}

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.__game_now().state.scores)

    @property
    def markers(self) -> dict[str, int]:
        return dict(self.__game_now().state.markers)

    def strategy(self, name: str):
        """The game's strategy `name` (ir.Strategy), or None: the rules are public, as is a persona."""
        return self.__game_now().rules.ir.strategies.get(name)

    @property
    def log(self) -> tuple[str, ...]:
        """The game log as this seat may read it (views.seen_log)."""
        return self.__once("log", lambda game: tuple(seen_log(game, self.seat)))

    def __world_log(self, game) -> list[tuple]:
        """The log as this seat reads it, as a log's parts."""
        return [(what, (), rest) for what, _, rest in (line.partition(" ") for line in self.log)]

    # ---- guessing the rest ----
    def sample(self, rng, log: bool = True):
        """A Game consistent with this observation, for search: the cards this seat cannot see
        dealt again at random among themselves (views.shuffled_unseen), a generator of its own
        seeded from `rng` (no foreseeing the real shuffles), the log as this seat reads it (with
        log=False, an empty log, and no drawing worked out for it: a search that never reads the
        log pays nothing for it), and the question as this seat hears it. Nothing in it leads back
        to the real game."""
        game = self.__game_now()
        unseen = self.__once("unseen", lambda game: unseen_cards(game, self.seat))
        world = game.redealt(shuffled_unseen(game, self.seat, rng, unseen), unseen)
        state = world.state
        state.reseed(rng.random())
        state.log = list(self.__once("world log", self.__world_log)) if log else []
        state.log_read = log
        pending = game.state.pending
        if pending is not None:
            state.pending = Choice(
                pending.seat,
                unnamed(pending.prompt) if self.prompt is None else self.prompt,
                pending.options,
                self.labels,
                pending.asked_by,
                pending.bind,
                pending.cards,
                pending.about,
                pending.still,
            )
        return world
