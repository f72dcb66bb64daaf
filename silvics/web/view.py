"""What one seat sees at the table, laid out from the data: the seat's observation (never the
game itself for anything shown), its zones' declarations (their `per`, visibility and grids) and
the faces of the cards (`faces:`). Nothing here knows a game.

A zone is drawn by its kind: the seat's own hidden zone (a hand) as large faces; a public zone
as a row of faces, copies of one card counted once, a face-down card by the word its players
use ("sapling"); a zone nobody sees as a pile with its count; a grid as its rows and columns,
each space with what lies on it; a zone on a card (`per: card`) beneath that card. Zones are
grouped as players sit: the shared table, then each seat's area, the viewer's first.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import lru_cache

from silvics.compiler import faces as face_drawing
from silvics.human import question, shown_counter
from silvics.interpreter.state import Zone, parse_key, space_key
from silvics.interpreter.views import seat_label
from silvics.screen import face_down

LARGE_GRID = 24  # spaces: a grid with more draws its cards as named chips, not faces
HEAP = 12  # cards: a zone with more, not a hand, shows the copies of a card once wherever they lie


@dataclass
class CardView:
    name: str  # as the seat reads it (never an id)
    face: int | None = None  # the face's number (Faces), None for a card the seat cannot see
    option: int | None = None  # the option choosing it, when the seat is asked and it is offered
    about: bool = False  # the card the seat's question is about ("discard it? (Seep Spring)")
    count: int = 1  # copies shown as one
    down: str = ""  # lying face down: the word for it ("sapling"), shown with its back
    marks: list[str] = field(default_factory=list)
    colour: str = "#9e9e9e"  # its edge's colour, for a chip on a large grid
    icons: tuple = ()  # a chip's pictures: (data URI, the value in words) of what its face pictures
    attached: list[ZoneView] = field(default_factory=list)

    @property
    def caption(self) -> str:
        """Its name, or the word for it face down, unless a mark says that word already (a vote
        lying face down marked "vote against" is captioned by its mark alone)."""
        if self.name:
            return self.name
        return "" if any(mark.startswith(f"{self.down} ") for mark in self.marks) else self.down


@dataclass
class ZoneView:
    name: str  # the zone's name in the rules (ordering the areas; never shown)
    title: str
    style: str  # "hand", "row", "pile" or "grid"
    cards: list[CardView] = field(default_factory=list)
    hidden: int = 0  # cards the seat cannot see
    hidden_words: str = ""
    rows: list[list[SpaceView | None]] = field(default_factory=list)  # a grid's spaces (None: no space)
    row_names: list[str] = field(default_factory=list)  # a grid's rows, as the rules name them
    chips: bool = False  # a large grid: cards as chips


@dataclass
class SpaceView:
    name: str  # "low.1", as the rules name the space
    words: str  # what the map prints on it
    tint: str
    shows: str = ""  # what the rules' drawing of the grid shows on it now (Observation.drawings)
    option: int | None = None  # the option choosing this space, when the question offers it
    cards: list[CardView] = field(default_factory=list)


@dataclass
class Area:
    title: str
    zones: list[ZoneView]
    mine: bool = False


class Faces:
    """The faces the table has shown, numbered in the order first shown: a number stands for a
    printed face (a card and the sides it shows), never for one copy of it, so a page can fetch
    the faces it shows and nothing tells which copy lies where."""

    def __init__(self, ir):
        self.ir = ir
        self.numbers: dict[tuple[str, int], int] = {}
        self.drawn: list[tuple] = []  # number -> (card, side)
        self.colours: dict[tuple[str, int], str] = {}
        self.chips: dict[tuple[str, int], tuple] = {}
        self.spaces: dict[tuple, tuple[str, str]] = {}  # (grid, its space's place) -> Faces.printed
        self._svg = lru_cache(maxsize=512)(self._draw)

    def number(self, card, side: int | None) -> int:
        shown = card.sides[side].side if side is not None else None
        sides = face_drawing.face_sides(self.ir, card)
        which = next((n for n, drawn in enumerate(sides) if shown in drawn), 0)
        key = (card.id, which)
        if key not in self.numbers:
            self.numbers[key] = len(self.drawn)
            self.drawn.append((card, sides[which][0]))
        return self.numbers[key]

    def colour(self, card, side: int) -> str:
        """The colour of the card's edge where it shows `side` (a chip's on a large grid)."""
        key = (card.id, side)
        if key not in self.colours:
            self.colours[key] = face_drawing.edge_colour(self.ir, card, card.sides[side].side)
        return self.colours[key]

    def icons(self, card, side: int) -> tuple:
        """Up to two icons of what the card's face shows first (its `pictures:`, else its colour
        value, then its badges), for a chip too small for a face: a domino's two animals."""
        key = (card.id, side)
        if key not in self.chips:
            face, printed = face_drawing.template(self.ir, card), card.sides[side].attributes
            found: dict[str, str] = {}
            for name in (*(face.pictures or (face.colour,)), *face.badges):
                value = printed.get(name)
                for one in value if isinstance(value, tuple | list) else (value,):
                    picture = self.ir.icons.get(name, {}).get(one) if isinstance(one, str) else None
                    if picture:
                        found.setdefault(picture, one.replace("-", " "))
            self.chips[key] = tuple(found.items())[:2]
        return self.chips[key]

    def printed(self, grid: str, space, naming) -> tuple[str, str]:
        """What a space of a grid prints (None: a space of no map), in words, and its tint: the
        same on every page, worked out once (a map has hundreds of spaces). Kept whatever the
        seat: a printed value's words (`naming.value`) name no card, so no seat reads them otherwise."""
        key = (grid, None if space is None else (space.row, space.column))
        found = self.spaces.get(key)
        if found is None:
            printed = space.attributes if space is not None else {}
            words = ", ".join(naming.value(n, v) for n, v in printed.items())
            found = self.spaces[key] = (words, _tint(printed))
        return found

    def svg(self, number: int) -> str | None:
        return self._svg(number) if 0 <= number < len(self.drawn) else None

    def _draw(self, number: int) -> str:
        card, side = self.drawn[number]
        return face_drawing.face_svg(self.ir, card, side)


def seat_view(table, seat: int, faces: Faces) -> dict:
    """Everything one seat's page shows, as plain values for the template."""
    game, naming = table.game, table.naming[seat]
    observation = game.observe(seat)
    pending = game.pending
    asked = pending is not None and pending.seat == seat
    offered = _offered(pending) if asked else {}
    about = pending.about if asked else None  # the card the question names: marked where it lies
    areas = _areas(table, seat, observation, faces, offered, about)
    view = {
        "game": table.rules.name,
        "seat": seat,
        "decision": len(game.state.choices),
        "over": game.over,
        "scores": _scores(table, observation),
        "counters": _counters(table, observation, seat),
        "areas": areas,
        "story": table.story(seat),
        "said": table.said.get(seat, []),
        "asked": asked,
        "question": "",
        "options": [],
        "waiting": "",
    }
    if asked:
        labels = observation.labels
        view["question"] = question(table.asker, observation.prompt, labels, observation.still, naming)
        view["options"] = [
            (index, naming.option(table.asker.option(observation.prompt, label)))
            for index, label in enumerate(labels)
        ]
    elif pending is not None:
        who = "you" if pending.seat == seat else f"P{pending.seat + 1}"
        view["waiting"] = f"Waiting for {who}" + ("" if pending.seat in table.people else " (a bot)")
    return view


def _offered(pending) -> dict:
    """What a question offers on the table: card -> the first option choosing it, and a space of
    a grid (its key) -> the option choosing it."""
    found: dict = {}
    for index, option in enumerate(pending.options):
        if isinstance(option, Zone) and parse_key(option).column is not None:
            found.setdefault(str(option), index)
        elif pending.cards:
            uid = option if pending.cards is True else pending.cards(option)
            if isinstance(uid, int):
                found.setdefault(uid, index)
    return found


def _areas(table, seat: int, observation, faces: Faces, offered: dict, about: int | None) -> list[Area]:
    """The zones as players sit: shared first, then the viewer's, then each other seat's."""
    return _Layout(table, seat, observation, faces, offered, about).areas()


class _Layout:
    """One seat's table, zone by zone (the cards as its observation gives them)."""

    def __init__(self, table, seat: int, observation, faces: Faces, offered: dict, about: int | None):
        self.table, self.seat, self.observation, self.faces, self.offered = (
            table,
            seat,
            observation,
            faces,
            offered,
        )
        self.about = about  # the card the seat's question names, if any
        self.game, self.naming = table.game, table.naming[seat]
        self.decls = {zone.name: zone for zone in table.rules.zones}
        self.drawn: dict[int, CardView] = {}  # a card drawn by itself -> its view (zones on it attach there)
        zones = self.game.state.zones
        self.holders = {self.game.holder_of(key) for key, pile in zones.items() if pile} - {None}

    def areas(self) -> list[Area]:
        game, layout = self.game, self.table.rules.table
        attached: list[tuple[int, ZoneView]] = []
        grids: dict[tuple[str, int | None], ZoneView] = {}
        by_seat: dict[int | None, list[ZoneView]] = {}
        for key, pile in game.state.zones.items():
            parts = parse_key(key)
            if not pile or key == "box" or parts.name in layout.hide:
                continue
            label, decl, owner = (
                seat_label(game, self.seat, key),
                self.decls[parts.name],
                game.seat_of_zone(key),
            )
            if decl.rows:
                grid = grids.get((parts.name, parts.owner))
                if grid is None:
                    grid = grids[(parts.name, parts.owner)] = self.grid(decl, label, parts.owner)
                    by_seat.setdefault(owner, []).append(grid)
                assert parts.column is not None, "a grid's zone key names a space"
                space = grid.rows[decl.rows.index(parts.row)][parts.column - 1]
                assert space is not None, "a card lies on a space of the grid"
                space.cards = self.cards(key, label, grid.chips)
                continue
            zone = self.zone(key, decl, parts, label)
            holder = game.holder_of(key)
            if holder is not None:
                attached.append((holder, zone))
            else:
                by_seat.setdefault(owner, []).append(zone)
        for holder, zone in attached:
            if holder in self.drawn:
                card = self.drawn[holder]
                if not card.name:  # a face-down card: its zone by the word for it ("the sapling's slots")
                    zone.title = _capital(self.naming.held(zone.name, f"the {card.down}"))
                card.attached.append(zone)
            else:  # its card is counted in a pile: the zone is shown where that card's seat sits
                by_seat.setdefault(game.seat_of_zone(game.state.location[holder]), []).append(zone)
        ranked = dict.fromkeys((*layout.order, *self.decls))  # `table: order:` first, then as declared
        first = {name: number for number, name in enumerate(ranked)}
        areas = []
        for who in [None, self.seat, *(other for other in range(game.state.players) if other != self.seat)]:
            if by_seat.get(who):
                title = "The table" if who is None else "Yours" if who == self.seat else f"P{who + 1}'s"
                zones = sorted(by_seat[who], key=lambda zone: first[zone.name])
                areas.append(Area(title, zones, mine=who == self.seat))
        return areas

    def zone(self, key: str, decl, parts, label: str) -> ZoneView:
        hand = decl.visibility == "owner" and parts.owner == self.seat
        style = "hand" if hand else "row" if decl.visibility == "public" else "pile"
        zone = ZoneView(parts.name, _capital(self.naming.zone(label)), style)
        zone.cards = self.cards(key, label, grouped=not hand)
        seen = self.observation.pile(key)
        zone.hidden = sum(
            1 for card in seen if card.card is None and not (decl.visibility == "public" and card.down)
        )
        if zone.hidden:
            zone.hidden_words = f"{zone.hidden} card{'s' * (zone.hidden != 1)}"
        return zone

    def cards(self, key: str, label: str, chips: bool = False, grouped: bool = True) -> list[CardView]:
        """The cards of a zone the seat sees (and those lying face down in sight, by their word),
        copies of a card shown once with their count, unless they differ, are offered or hold
        cards of their own."""
        decl, naming = self.decls[parse_key(key).name], self.naming
        views: list[CardView] = []
        first: dict[tuple, CardView] = {}  # a heap's cards: each card's first view
        pile, last_key = self.game.state.zones[key], None
        for uid, card in zip(pile, self.observation.pile(key), strict=True):
            if card.card is None and not (decl.visibility == "public" and card.down):
                continue  # counted, not drawn
            marks = naming.marks(card.marks)
            view = CardView(naming.card(card, label) if card.card is not None else "", marks=marks)
            if card.card is not None:
                view.face = self.faces.number(card.card, card.side)
                if chips:
                    view.colour = self.faces.colour(card.card, card.side)
                    view.icons = self.faces.icons(card.card, card.side)
            if card.down:
                view.down = face_down(decl, 1).removeprefix("1 ")
            view.option = self.offered.get(uid)
            view.about = uid == self.about and card.card is not None
            key_ = (view.name, view.face, view.down, tuple(marks))
            same = first.get(key_) if len(pile) > HEAP else views[-1] if key_ == last_key else None
            alone = view.option is not None or view.about or uid in self.holders
            if grouped and not alone and same is not None:
                same.count += 1
                continue
            last_key = None if alone else key_  # an offered card, or one holding cards, stands alone
            if not alone:
                first.setdefault(key_, view)
            views.append(view)
            self.drawn[uid] = view
        return views

    def grid(self, decl, label: str, seat: int | None) -> ZoneView:
        """A grid's spaces: what each prints, tinted by it, and what the rules' drawing shows there."""
        drawings = self.observation.drawings
        name, _, owner = label.partition("@")
        title = _capital(self.naming.zone(name.partition(":")[0] + (f"@{owner}" if owner else "")))
        spaces = {(space.row, space.column): space for space in decl.map}
        rows = []
        for row in decl.rows:
            cells: list[SpaceView | None] = []
            for column in range(1, decl.columns + 1):
                space = spaces.get((row, column))
                if decl.map and space is None:
                    cells.append(None)
                    continue
                words, tint = self.faces.printed(decl.name, space, self.naming)
                key = space_key(decl.name, row, column, seat)
                shows, option = drawings.get(key, ""), self.offered.get(key)
                cells.append(SpaceView(f"{row}.{column}", words, tint, shows, option))
            rows.append(cells)
        size = sum(cell is not None for cells in rows for cell in cells)
        return ZoneView(
            decl.name, title, "grid", rows=rows, row_names=list(decl.rows), chips=size > LARGE_GRID
        )


def _tint(printed: dict) -> str:
    """A pale colour for what a space prints (the same words, the same colour)."""
    if not printed:
        return "#f5f5f0"
    digest = hashlib.sha256(repr(sorted(printed.items())[:1]).encode()).digest()
    hue = digest[0] * 360 // 256
    return f"hsl({hue}, 45%, 88%)"


def _scores(table, observation) -> list[dict]:
    game = table.game
    winners = game.winners() if game.over and game.state.players > 1 else []
    return [
        {"seat": f"P{seat + 1}", "points": points, "winner": seat in winners}
        for seat, points in enumerate(observation.scores)
    ]


def _counters(table, observation, seat: int) -> list[str]:
    """The counters players see: the shared ones, the seat's own and others' by whose."""
    declared = {counter.name: counter for counter in table.rules.counters}
    said = []
    for label, value in sorted(observation.counters.items()):
        name, _, owner = label.partition("@")
        whose = "" if not owner else "your " if int(owner) == seat + 1 else f"P{owner}'s "
        said += shown_counter(declared, name, value, whose)
    markers = [
        f"{name.replace('_', ' ')}: P{holder + 1}" for name, holder in sorted(observation.markers.items())
    ]
    return said + markers


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
