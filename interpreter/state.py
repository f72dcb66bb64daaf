"""Game state as plain data: zones of card ids, per-card placement, marks, counters, RNG.

Every physical card is an integer id (`uid`) into the static card table; it is always in
exactly one zone (the box is a zone), and only `move` changes where it is.
"""
from __future__ import annotations

import random
from itertools import chain
from operator import itemgetter
from dataclasses import dataclass, field

BOX = "box"


class Zone(str):
    """A zone's key, e.g. "deck", "hand/2" (seat index 2, shown as hand@3) or "tucked/17" (attached to card 17)."""
    __slots__ = ()


def zone_key(name: str, owner: int | None = None) -> Zone:
    return Zone(name if owner is None else f"{name}/{owner}")


def space_key(name: str, row: str, column: int, owner: int | str | None = None) -> Zone:
    """One space of a grid zone: "region:low.1/2" is seat index 2's region (seat 3), row low, column 1."""
    return zone_key(f"{name}:{row}.{column}", owner)


def zone_name(key: str) -> str:
    """The declared zone a key belongs to: "region:low.1/2" -> "region", "hand/0" -> "hand"."""
    return key.split("/", 1)[0].split(":", 1)[0]


@dataclass(slots=True)
class Frame:
    """One running flow node: its compiled runner, progress counter, bindings and scratch data."""
    run: object
    i: int
    env: dict
    data: object = None

    def copy(self) -> "Frame":
        data = self.data.copy() if hasattr(self.data, "copy") else self.data
        return Frame(self.run, self.i, dict(self.env), data)


@dataclass(slots=True)
class State:
    players: int
    zones: dict[str, list[int]]
    location: list[str]            # uid -> zone key
    side: list[int]                # uid -> index of the side face up on the table
    facedown: list[bool]
    placer: list[int]              # uid -> seat that put it where it is, or -1
    marks: list[dict | None]       # uid -> marks set on it since it last moved
    markers: dict[str, int]        # player markers, e.g. the first player
    counters: dict[str, int]       # counter key ("coins/2", "round") -> value
    scores: list[int]
    score_items: list[tuple]       # (seat, card uid or -1, points, source uid or -1, heading or "")
    rng: random.Random
    log: list[str] = field(default_factory=list)
    stack: list[Frame] = field(default_factory=list)
    pending: object = None         # the Choice the game waits for, if any
    steps: int = 0                 # flow steps run so far (bounded by the step budget)
    watch: list = field(default_factory=list)   # each interrupt's condition when last checked
    version: int = 0               # bumped by every change, so remembered values know when to forget

    @classmethod
    def new(cls, players: int, ncards: int, seed: int) -> "State":
        return cls(players=players, zones={BOX: list(range(ncards))}, location=[BOX] * ncards,
                   side=[0] * ncards, facedown=[True] * ncards, placer=[-1] * ncards,
                   marks=[None] * ncards, markers={"first": 0}, counters={}, scores=[0] * players,
                   score_items=[], rng=random.Random(seed))

    def copy(self) -> "State":
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        return State(self.players, {k: list(v) for k, v in self.zones.items()}, list(self.location),
                     list(self.side), list(self.facedown), list(self.placer),
                     [dict(m) if m else None for m in self.marks], dict(self.markers), dict(self.counters),
                     list(self.scores), list(self.score_items), rng, list(self.log),
                     [f.copy() for f in self.stack], self.pending, self.steps, list(self.watch))

    # ---- the one way cards change place ----
    def move(self, uid: int, to: str, *, facedown: bool | None = None, placer: int = -1, bottom: bool = False,
             below: int | None = None):
        """Put a card on top of `to` (or at its bottom, or right under the card `below` when it lies there)."""
        self.zones[self.location[uid]].remove(uid)
        pile = self.zones.setdefault(to, [])
        if below is not None and below in pile:
            pile.insert(pile.index(below), uid)
        else:
            pile.insert(0, uid) if bottom else pile.append(uid)
        self.location[uid] = to
        self.version += 1
        self.marks[uid] = None
        self.placer[uid] = placer
        if facedown is not None:
            self.facedown[uid] = facedown

    def mark(self, uid: int, name: str, value):
        self.version += 1
        if self.marks[uid] is None:
            self.marks[uid] = {}
        self.marks[uid][name] = value

    def conservation_errors(self) -> list[str]:
        """Every card in exactly one zone, and where `location` says it is."""
        held = list(chain.from_iterable(self.zones.values()))
        if len(held) == len(self.location) == len(set(held)) and held and \
                list(itemgetter(*held)(self.location)) == [key for key, pile in self.zones.items() for _ in pile]:
            return []                                  # the common case, checked fast; else say what is wrong
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
