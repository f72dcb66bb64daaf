"""Game state as plain data: zones of card ids, per-card placement, marks, counters, RNG.

Every physical card is an integer id (`uid`) into the game's card table (`game.rules`,
dealt at random for each game); it is always in exactly one zone (the box is a zone), and
only `move` changes where it is.

Every change goes through a method here, which stamps what it changed (a zone, a counter,
a marker, the scores) with a fresh number from one clock: a value worked out from the state
stays good while the stamps of everything it read are unchanged (see Game.remembered).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import chain, count
from operator import itemgetter
from typing import NamedTuple, Protocol

from .draws import shuffle
from .runtime import Frame, bounded

BOX = "box"
_CLOCK = count(1)  # one clock for every game of the process, so copies never reuse a stamp
_SERIALS = count(1)  # each State object's own number (a copy is another state)
SCORES, EVERYTHING = "$scores", "*"  # stamp keys besides zone keys; counters are "#key", markers "@name",
ATTRIBUTES = "%"  # a space's attributes "%key" (stamped apart from the cards on it)
WHOLE = "&"  # "&key": stamped with every space of grid zone `key` (its cards), "&%key" their attributes


class Zone(str):
    """A zone's key, e.g. "deck", "hand/2" (seat index 2, shown as hand@3) or "tucked/17"
    (attached to card 17)."""

    __slots__ = ()


class ZoneKey(NamedTuple):
    """The parts of a zone key: "region:low.1/2" is zone region, row low, column 1, owner 2."""

    name: str
    row: str | None
    column: int | None
    owner: int | None

    @property
    def space(self) -> bool:
        return self.row is not None

    @property
    def place(self) -> str:
        """The key without its owner: "region:low.1", "hand"."""
        return self.name if self.row is None else f"{self.name}:{self.row}.{self.column}"


@cache  # few names, few owners (seats, or the cards that have zones)
def zone_key(name: str, owner: int | None = None) -> Zone:
    return Zone(name if owner is None else f"{name}/{owner}")


class OwnedKeys(dict):
    """The keys of one zone or counter held per player or per card, by owner: `OwnedKeys('hand')[2]`
    is zone_key('hand', 2), made when first asked. The generated code reads a key from it in
    place, where each read was a call of zone_key (owned_keys shares one for each name)."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        super().__init__()
        self.name = name

    def __missing__(self, owner) -> Zone:
        key = self[owner] = zone_key(self.name, owner)
        return key


@cache
def owned_keys(name: str) -> OwnedKeys:
    return OwnedKeys(name)


def space_key(name: str, row: str, column: int, owner: int | None = None) -> Zone:
    """One space of a grid zone: "region:low.1/2" is seat index 2's region (seat 3), row low, column 1."""
    return zone_key(f"{name}:{row}.{column}", owner)


@lru_cache(maxsize=4096)
def parse_key(key: str) -> ZoneKey:
    """The one place zone keys are taken apart (zone_key and space_key put them together)."""
    head, _, owner = key.partition("/")
    name, _, place = head.partition(":")
    row, _, column = place.rpartition(".")
    return ZoneKey(name, row or None, int(column) if place else None, int(owner) if owner else None)


# ---- the game log ----
# A line is kept as its parts, (what, card uids, detail), and written out only when read, for
# everyone (Game.log) or as one seat may read it (views.seen_log). A detail is words, a zone
# key, or one of the records below, which keep the card they name as a uid.


class Record(Protocol):
    """A log line's detail kept as more than words: it writes itself out when read, naming cards
    with `name(uid)` (Said, Scored, a grid's Drawing)."""

    def text(self, name: Callable[[int], str]) -> str: ...


class Said(tuple):
    """A choice, as its chooser saw it, with the card it named (the card picked, or the card
    its prompt names) and where that card lay then: built from one tuple, (seat, prompt, label,
    card or None, (zone key, face down, placer) or None, picked), as tuple() is, in C: a
    choice is logged at every decision. The label of a card picked may be kept as what says it,
    (say, rules, seen): `say(rules, seat, card, lay, seen)` gives it when read (views.picked_label,
    Game.apply), as few games are ever read. Two records are equal when they say the same."""

    __slots__ = ()
    seat, prompt = property(itemgetter(0)), property(itemgetter(1))
    card, lay, picked = (property(itemgetter(i)) for i in range(3, 6))  # (2: the label, below)

    @property
    def label(self) -> str:
        label = self[2]
        if type(label) is str:
            return label
        say, rules, seen = label
        return say(rules, self[0], self[3], self[4], seen)

    def said(self) -> tuple:
        """What it says, its label worked out: two records are equal when they say the same."""
        return (self[0], self[1], self.label, self[3], self[4], self[5])

    def __eq__(self, other) -> bool:
        return self.said() == (other.said() if isinstance(other, Said) else other)

    def __ne__(self, other) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(self.said())

    def text(self, name) -> str:
        return f"P{self.seat + 1} {self.prompt}: {self.label}"

    def heard(self, where: str) -> str:
        """The line as a seat that could not see the card hears it (`where`: the card's zone)."""
        if self.picked:
            return f"P{self.seat + 1} {self.prompt}: a hidden card from {where}"
        return f"P{self.seat + 1} {unnamed(self.prompt)}: {self.label}"


def unnamed(prompt: str) -> str:
    """A prompt that names a card (it ends with the card in brackets), that card unnamed."""
    return f"{prompt.rpartition(' (')[0]} (a hidden card)"


class Scored(NamedTuple):
    """Points a seat scored, and the card that awarded them (-1 for none)."""

    seat: int
    points: int
    by: int

    def text(self, name) -> str:
        return f"P{self.seat + 1} {self.points:+d}" + (f" by {name(self.by)}" if self.by >= 0 else "")


def written(what: str, uids, detail, name, label) -> str:
    """A log line in words, naming cards with `name(uid)` and zones with `label(key)`."""
    if isinstance(detail, str):
        detail = label(detail) if isinstance(detail, Zone) else detail
    else:
        detail = detail.text(name)
    return f"{what} {', '.join(map(name, uids))} -> {detail}" if uids else f"{what} {detail}"


@dataclass(slots=True)
class State:
    players: int
    zones: dict[str, list[int]]
    location: list[str]  # uid -> zone key
    side: list[int]  # uid -> index of the side face up on the table
    facedown: list[bool]
    placer: list[int]  # uid -> seat that put it where it is, or -1
    marks: list[dict | None]  # uid -> marks set on it since it last moved (replaced, never changed in place)
    markers: dict[str, int]  # player markers, e.g. the first player
    counters: dict[str, int]  # counter key ("coins/2", "round") -> value
    scores: list[int]
    score_items: list[tuple]  # (seat, card uid or -1, points, source uid or -1, heading or "")
    rng: random.Random
    log: list[tuple] = field(default_factory=list)  # (what, card uids, detail) a line: Game.log writes them
    choices: list[int] = field(
        default_factory=list
    )  # the option taken at each decision so far (a save's record)
    stack: list[Frame] = field(default_factory=list)
    pending: object = None  # the Choice the game waits for, if any
    steps: int = 0  # flow steps run so far (bounded by the step budget)
    watch: list = field(default_factory=list)  # each interrupt's condition when last checked
    stamps: dict[str, int] = field(default_factory=dict)  # what changed when (see the module docstring)
    rng_shared: bool = False  # the generator is shared with a copy: take a private one before drawing
    clock: int = 0  # the stamp of the last change: states with the same clock are the same
    spaced: dict = field(
        default_factory=dict
    )  # space key -> attributes the rules set on it (replaced, never changed in place)
    # whether anyone will read the log: not in a world a search samples without it (what only
    # writes to the log, a grid's drawing, is then not worked out)
    log_read: bool = True
    # every key stamped in this state object, in order (not its copies')
    changed: list[str] = field(default_factory=list)
    serial: int = field(default_factory=_SERIALS.__next__)
    # key -> the Readings (Game.remembered) that listen to this state object for a change of
    # the key: when it is stamped, they are told so (`tell_readers`), and a Reading none of
    # whose keys was stamped since its last look has nothing to look up (a copy has none yet)
    readers: dict[str, set] = field(default_factory=dict)
    told_up_to: int = 0  # the keys changed[:told_up_to] have been told to their readers
    # a grid space's key (and its attributes' key) -> the key stamped with it for its whole grid
    # (WHOLE): one key a value that read the whole grid reads instead (Game.remembered)
    whole_grid: dict[str, str] = field(default_factory=dict)
    # whether the interrupts' conditions are to be worked out after the next action: raised when
    # a key they read is stamped (Game.check_interrupts leaves those keys in `alarming`), and in
    # a copy, whose rules may deal the cards otherwise
    alarm: bool = True
    alarming: frozenset = frozenset()

    @classmethod
    def new(cls, players: int, box: list[int], seed: int) -> State:
        """Every card in the box, in the order `box` lists their uids, face down."""
        ncards = len(box)
        return cls(
            players=players,
            zones={BOX: box},
            location=[BOX] * ncards,
            side=[0] * ncards,
            facedown=[True] * ncards,
            placer=[-1] * ncards,
            marks=[None] * ncards,
            markers={"first": 0},
            counters={},
            scores=[0] * players,
            score_items=[],
            rng=random.Random(seed),
        )

    def copy(self) -> State:
        """An independent copy. The random generator is shared until either side draws from it
        (copying its state is most of the cost of a copy, and most copies never draw)."""
        self.rng_shared = True
        return State(
            self.players,
            {k: v[:] for k, v in self.zones.items()},
            self.location[:],
            self.side[:],
            self.facedown[:],
            self.placer[:],
            self.marks[:],
            dict(self.markers),
            dict(self.counters),
            self.scores[:],
            self.score_items[:],
            self.rng,
            self.log[:],
            self.choices[:],
            [f.copy() for f in self.stack],
            self.pending,
            self.steps,
            self.watch[:],
            dict(self.stamps),
            True,
            self.clock,
            dict(self.spaced),
            self.log_read,
            whole_grid=self.whole_grid,
        )

    def random(self) -> random.Random:
        """The game's generator, to draw from (the only way rules use randomness)."""
        if self.rng_shared:
            private = random.Random.__new__(random.Random)
            private.setstate(self.rng.getstate())
            self.rng, self.rng_shared = private, False
        return self.rng

    def tell_readers(self):
        """Mark stale the Readings of each key stamped since the last time (once for all of them:
        a Reading then asks only whether it is stale, not which keys were stamped)."""
        readers, changed = self.readers, self.changed
        for key in readers.keys() & changed[self.told_up_to :]:
            for reading in readers[key]:
                reading.stale = True
        self.told_up_to = len(changed)

    def stamp(self, key: str):
        self.stamps[key] = self.clock = next(_CLOCK)
        self.changed.append(key)
        if key in self.alarming:
            self.alarm = True
        if self.whole_grid:
            self._stamp_wholes((key,))

    def _stamp_wholes(self, keys):
        """Stamp the whole grid of each key that is one of its spaces, with the clock as it stands."""
        for key in keys:
            whole = self.whole_grid.get(key)
            if whole is not None:
                self.stamps[whole] = self.clock
                self.changed.append(whole)
                if whole in self.alarming:
                    self.alarm = True

    def reseed(self, seed):
        """A new generator for this copy alone (a guessed world must not foresee the real shuffles)."""
        self.rng, self.rng_shared = random.Random(seed), False

    # ---- the one way cards change place ----
    def move(
        self,
        uid: int,
        to: str,
        facedown: bool | None = None,
        placer: int = -1,
        bottom: bool = False,
        below: int | None = None,
    ):
        """Put a card on top of `to` (or at its bottom, or right under the card `below` when it
        lies there)."""
        origin = self.location[uid]
        left = self.zones[origin]
        if left[-1] == uid:  # the top card (a draw): no search through the pile
            left.pop()
        else:
            left.remove(uid)
        pile = self.zones.get(to)
        if pile is None:
            pile = self.zones[to] = []
        if below is not None and below in pile:
            pile.insert(pile.index(below), uid)
        elif bottom:
            pile.insert(0, uid)
        else:
            pile.append(uid)
        self.location[uid] = to
        self.marks[uid] = None
        self.placer[uid] = placer
        if facedown is not None:
            self.facedown[uid] = facedown
        self.stamps[origin] = self.stamps[to] = self.clock = next(_CLOCK)
        self.changed += (origin, to)
        if origin in self.alarming or to in self.alarming:
            self.alarm = True
        if self.whole_grid:
            self._stamp_wholes((origin, to))

    def move_cards(
        self,
        uids: list[int],
        to: str,
        facedown: bool | None = None,
        placer: int = -1,
        bottom: bool = False,
        below: int | None = None,
    ):
        """`move` each card in turn, in one pass when that ends the same (no card twice, no place
        under a card): a whole deck dealt out costs little more than one card."""
        leaving = set(uids) if len(uids) >= 3 else None
        if leaving is None or below is not None or len(leaving) < len(uids):
            for uid in uids:
                self.move(uid, to, facedown, placer, bottom, below)
            return
        location, zones = self.location, self.zones
        if len(uids) > 8:
            origins = list({location[uid] for uid in uids})
            for origin in origins:
                zones[origin][:] = [uid for uid in zones[origin] if uid not in leaving]
        else:
            origins = []  # (a list: most moves of a few cards leave one pile, a draw its top)
            for uid in uids:
                origin = location[uid]
                if origin not in origins:
                    origins.append(origin)
                left = zones[origin]
                if left[-1] == uid:  # (as in `move`)
                    left.pop()
                else:
                    left.remove(uid)
        pile = zones.get(to)
        if pile is None:
            pile = zones[to] = []
        if bottom:
            pile[:0] = uids[::-1]  # each one put at the bottom in turn: the last ends lowest
        else:
            pile += uids
        marks, placers, faces = self.marks, self.placer, self.facedown
        for uid in uids:
            location[uid], marks[uid], placers[uid] = to, None, placer
            if facedown is not None:
                faces[uid] = facedown
        now = self.clock = next(_CLOCK)
        for key in origins:
            self.stamps[key] = now
        self.stamps[to] = now
        self.changed += (*origins, to)
        if to in self.alarming or not self.alarming.isdisjoint(origins):
            self.alarm = True
        if self.whole_grid:
            self._stamp_wholes((*origins, to))

    # ---- everything else that changes ----
    def mark(self, uid: int, name: str, value):
        self.marks[uid] = {**(self.marks[uid] or {}), name: value}
        self.stamp(self.location[uid])

    def set_space(self, key: str, name: str, value):
        self.spaced[key] = {**self.spaced.get(key, {}), name: value}
        self.stamp(ATTRIBUTES + key)

    def turn(self, uid: int, facedown: bool):
        self.facedown[uid] = facedown
        self.stamp(self.location[uid])

    def flip(self, turned: list[tuple[int, int]]):
        """Each (card, side) given: that side face up. Every printed attribute may change, so
        everything is stale."""
        for uid, side in turned:
            self.side[uid] = side
        self.stamp(EVERYTHING)

    def shuffle(self, key: str):
        shuffle(self.random(), self.zones.setdefault(key, []))
        self.stamp(key)

    def set_counter(self, key: str, value: int):
        self.counters[key] = bounded(value)
        self.stamp("#" + key)

    def set_marker(self, name: str, seat: int):
        self.markers[name] = seat
        self.stamp("@" + name)

    def add_points(self, items: list[tuple]) -> int:
        """Score itemised points: (seat, card or -1, points, source card or -1, heading) each."""
        gained = 0
        for seat, _, points, _, _ in items:
            self.scores[seat] += points
            gained += points
        self.score_items += items
        self.stamp(SCORES)
        return gained

    def conservation_errors(self) -> list[str]:
        """Every card in exactly one zone, and where `location` says it is."""
        held = list(chain.from_iterable(self.zones.values()))
        if (
            len(held) == len(self.location) == len(set(held))
            and held
            and list(itemgetter(*held)(self.location))
            == [key for key, pile in self.zones.items() for _ in pile]
        ):
            return []  # the common case, checked fast; else say what is wrong
        seen: dict[int, str] = {}
        errors = []
        for key, pile in self.zones.items():
            for uid in pile:
                if uid in seen:
                    errors.append(f"card {uid} is in both {seen[uid]} and {key}")
                seen[uid] = key
                if self.location[uid] != key:
                    errors.append(f"card {uid} is in {key} but recorded in {self.location[uid]}")
        missing = set(range(len(self.location))) - seen.keys()
        if missing:
            errors.append(f"cards lost: {sorted(missing)}")
        return errors
