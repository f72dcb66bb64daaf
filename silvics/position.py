"""Described positions: the readable YAML form of a game state, shared by scenario files and
`silvics score`. Cards not placed stay in the box; every card is placed with a move.

    position:
      first: 1
      zones:
        creatures:
          - card: dragons
            side: leaf
            votes: [{card: kapok-tree, stance: for, by: 2}]
      players:
        - forest: [kapok-tree, black-spruce]
          hand: [sea-purslane]
"""

from __future__ import annotations

from silvics.compiler.diagnostics import did_you_mean
from silvics.interpreter.state import BOX, parse_key, zone_key


class PositionError(Exception):
    """The position names something the game does not have."""


def place(game, position: dict):
    """Lay out a position on a game whose cards are all in the box."""
    if "first" in position:
        game.state.markers["first"] = _seat(game, position["first"])
    for label, value in position.get("counters", {}).items():
        game.state.counters[counter_from_label(game, label)] = value
    for name, pile in position.get("zones", {}).items():
        _pile(game, _zone(game, name, "shared"), pile)
    players = position.get("players", [])
    if len(players) > game.state.players:
        raise PositionError(
            f"the position describes {len(players)} players but the game has {game.state.players}"
        )
    for seat, zones in enumerate(players):
        for name, pile in zones.items():
            _pile(game, zone_key(_zone(game, name, "player"), seat), pile)
    reprinted: dict[str, dict] = {}  # attributes no rule sets: the space is printed so (Rules.reprinted)
    for label, attributes in position.get("spaces", {}).items():
        key = zone_from_label(game, label)
        if not parse_key(key).space:
            raise PositionError(f"'{label}' is not a space of a grid: write e.g. board:r1.2")
        for name, value in attributes.items():
            value = space_value(game, label, name, value)
            if game.rules.code.settled(name):
                reprinted.setdefault(key, {})[name] = value
            else:
                game.state.set_space(key, name, value)
    if reprinted:
        game.rules = game.rules.reprinted(reprinted)


def space_value(game, label: str, name: str, value):
    """A space attribute's value as the rules declare it."""
    declared = {a.name: a for a in game.rules.ir.spaces}
    if name not in declared:
        hint = did_you_mean(name, declared) or f"spaces have: {', '.join(declared) or 'nothing'}"
        raise PositionError(f"{label}: spaces have no attribute '{name}'; {hint}")
    return _mark_value(declared[name], label, value)


def _seat(game, number) -> int:
    if not 1 <= number <= game.state.players:
        raise PositionError(f"there is no seat {number} in a {game.state.players}-player game")
    return number - 1


def seat_of_label(game, number: str) -> int:
    """The seat a label names after its @ (hand@2, coins@1, plant@2), counted from 0."""
    try:
        return _seat(game, int(number))
    except ValueError:
        raise PositionError(
            f"'@{number}' names no seat: write a seat number from 1 to {game.state.players}"
        ) from None


def _zone(game, name: str, per: str) -> str:
    """A zone's name as positions write it: hand, or region:low.1 for one space of a grid."""
    base, _, space = name.partition(":")
    decl = game.rules.zones.get(base)
    if decl is not None and (decl.rows or space):
        _space(game, decl, name)
    if decl is None or decl.per != per:
        known = [z.name for z in game.rules.zones.values() if z.per == per]
        raise PositionError(
            f"no {per} zone '{name}'"
            + (
                f"; {did_you_mean(name, known)}"
                if did_you_mean(name, known)
                else f"; {per} zones: {', '.join(known)}"
            )
        )
    return name


def _pile(game, key: str, pile: list):
    for entry in pile:
        _card(game, key, entry if isinstance(entry, dict) else {"card": entry})


def _card(game, key: str, entry: dict):
    if isinstance(entry["card"], dict):  # a card described by what it shows
        uid, side = take_showing(game, entry["card"], entry.get("side"))
        entry = {**entry, "card": game.card_id(uid), "side": side}
    else:
        uid = take_from_box(game, entry["card"])
    placer = _seat(game, entry["by"]) if "by" in entry else -1
    game.state.move(uid, key, facedown=entry.get("face", "up") == "down", placer=placer)
    if "side" in entry:
        sides = [s.side for s in game.sides(uid)]
        if entry["side"] not in sides:
            raise PositionError(f"{entry['card']} has no side '{entry['side']}'; it has: {', '.join(sides)}")
        game.state.side[uid] = sides.index(entry["side"])
    marks = {m.name: m for m in game.rules.ir.marks}
    for name, value in entry.items():
        if name in ("card", "side", "face", "by"):
            continue
        if name in marks:
            game.state.mark(uid, name, _mark_value(marks[name], entry["card"], value))
        else:
            _pile(
                game, zone_key(_zone(game, name, "card"), uid), value if isinstance(value, list) else [value]
            )


def _mark_value(decl, card_id: str, value):
    """A mark's value as the rules declare it: a whole number, one of its words, or a list of them."""
    if decl.type == "int" and (not isinstance(value, int) or isinstance(value, bool)):
        raise PositionError(f"{card_id}: {decl.name} must be a whole number, got {value!r}")
    if decl.type == "enum" and value not in decl.values:
        raise PositionError(
            f"{card_id}: {decl.name} cannot be {value!r}; it is one of: {', '.join(decl.values)}"
        )
    if decl.type == "set" and (not isinstance(value, list) or not set(value) <= set(decl.values)):
        raise PositionError(f"{card_id}: {decl.name} is a list of: {', '.join(decl.values)}; got {value!r}")
    return value


def take_from_box(game, card_id: str) -> int:
    """The first copy of a card still in the box."""
    for uid in game.state.zones[BOX]:
        if game.card_id(uid) == card_id:
            return uid
    known = {card.id for card in game.rules.ir.cards}
    if card_id in known:
        raise PositionError(f"every copy of '{card_id}' is already placed")
    modules = _modules_with(game, lambda card: card.id == card_id)
    if modules:
        found = f"it is a card of {_of(modules)}"
        raise PositionError(f"no card '{card_id}' in the game as set up: {found}; {_switch_on(modules)}")
    raise PositionError(
        f"no card '{card_id}'" + (f"; {did_you_mean(card_id, known)}" if did_you_mean(card_id, known) else "")
    )


def take_showing(game, printed: dict, side: str | None) -> tuple[int, str]:
    """The first card in the box with a side (`side`, if given) that shows these printed
    attributes, and that side: a position may name a half of a split card by what it shows
    (`{species: chaffinch, symbol: beech}`) instead of by the card that carries it."""

    def shows(face: dict) -> bool:
        return (side is None or face["side"] == side) and all(
            _same(face.get(name), value) for name, value in printed.items()
        )

    for uid in game.state.zones[BOX]:
        for face in game.rules.faces[uid]:
            if shows(face):
                return uid, face["side"]
    raise PositionError(_none_shows(game, printed, side, shows))


def _none_shows(game, printed: dict, side: str | None, shows) -> str:
    """Why no card in the box shows what a position names: every card that does lies already (one
    as its other half, maybe), or only cards of a module not switched on do."""
    wanted = ", ".join(f"{name}: {value}" for name, value in printed.items())
    wanted += f" on its side {side}" if side else ""
    faces, sides = game.rules.faces, game.state.side
    placed = [uid for uid in lying(game) if game.state.location[uid] != BOX and any(map(shows, faces[uid]))]
    other = next((uid for uid in placed if not shows(faces[uid][sides[uid]])), None)
    if other is not None:
        return (
            f"no card left in the box shows {wanted}: the card that shows it ({game.card_id(other)}) lies "
            f"already as its other half, {card_name(game, other)} ({where(game, other)}); "
            "a card lies as one half only"
        )
    if placed:
        return f"no card left in the box shows {wanted}: every card that shows it lies already"
    modules = _modules_with(
        game, lambda card: any(shows({**a.attributes, "side": a.side}) for a in card.sides)
    )
    if modules:
        found = f"cards of {_of(modules)} do"
        return f"no card in the game as set up shows {wanted}: {found}; {_switch_on(modules)}"
    return f"no card in the game shows {wanted}"


def _modules_with(game, wanted) -> list[str]:
    """The modules not switched on that have a card for which `wanted(card)` holds."""
    return [
        name
        for name, module in game.rules.ir.modules.items()
        if name not in game.rules.modules and any(wanted(card) for card in module.cards)
    ]


def _of(modules: list[str]) -> str:
    return f"the module{'s' * (len(modules) > 1)} {', '.join(modules)}"


def _switch_on(modules: list[str]) -> str:
    """What a position file says to switch on a module of these."""
    one = "it" if len(modules) == 1 else "one"
    return f"switch {one} on with modules: [{modules[0]}] in the file"


def _same(shown, wanted) -> bool:
    if isinstance(shown, (list, tuple)) and isinstance(wanted, list):  # a set attribute: any order
        return sorted(map(str, shown)) == sorted(map(str, wanted))
    return shown == wanted


def find_card(game, card_id: str) -> int:
    """The first copy of a card out of the box, as the cards lie (the zones in the order they
    were first filled, each bottom first: a position's cards in the order it lists them), or
    else the first in the box."""
    for uid in lying(game):
        if game.card_id(uid) == card_id:
            return uid
    known = {card.id for card in game.rules.ir.cards}
    raise PositionError(
        f"no card '{card_id}'" + (f"; {did_you_mean(card_id, known)}" if did_you_mean(card_id, known) else "")
    )


def card_name(game, uid: int) -> str:
    """A card as people call it: the name of its side face up (a half of a split card in play)."""
    face = game.rules.faces[uid][game.state.side[uid]]
    return str(face.get("name") or face["id"])


def where(game, uid: int) -> str:
    """Where a card lies, as a position lays it out: `forest 2` (the second card of its zone,
    bottom first), `region:low.1 1`; a card in a zone of another card says that card's place
    first (`forest 1, slots 2`)."""
    key = game.state.location[uid]
    place = f"{parse_key(key).place.replace('_', ' ')} {game.state.zones[key].index(uid) + 1}"
    holder = game.holder_of(key)
    return place if holder is None else f"{where(game, holder)}, {place}"


def sharing_a_side(game) -> list[str]:
    """Cards of several sides that lie on the same side in a zone of one card (two halves in one
    slot of a tree), each said in a line: a position lays cards out as written, whether or not the
    rules would let them share it, so a score points them out."""
    lines = []
    for key, pile in game.state.zones.items():
        holder = game.holder_of(key)
        by_side: dict[str, list[int]] = {}
        for uid in pile if holder is not None else ():
            if len(game.sides(uid)) > 1:
                by_side.setdefault(game.sides(uid)[game.state.side[uid]].side, []).append(uid)
        for side, cards in by_side.items():
            if len(cards) > 1:
                names = [card_name(game, uid) for uid in cards]
                place = f"the {parse_key(key).name.replace('_', ' ')} of {card_name(game, holder)}"
                lines.append(
                    f"{', '.join(names[:-1])} and {names[-1]} lie in {place} ({where(game, holder)}) on one "
                    f"side, {side.replace('_', ' ')}: the rules may not let them share it"
                )
    return lines


def lying(game):
    """Every card as the cards lie: the zones in the order they were first filled, each bottom
    first, and the box last. (A card's uid says nothing of it: each game deals them at random.)"""
    zones = game.state.zones
    for key, pile in zones.items():
        if key != BOX:
            yield from pile
    yield from zones[BOX]


def counter_from_label(game, label: str) -> str:
    """coins@2 → coins/1; turns → turns."""
    name, _, owner = label.partition("@")
    counters = {c.name: c for c in game.rules.ir.counters}
    if name not in counters:
        hint = did_you_mean(name, counters)
        raise PositionError(f"no counter '{name}'" + (f"; {hint}" if hint else ""))
    if (counters[name].per == "player") != bool(owner):
        raise PositionError(
            f"write {name}@SEAT for a counter each player has"
            if owner == ""
            else f"'{name}' is shared: write it without @"
        )
    return zone_key(name, seat_of_label(game, owner)) if owner else name


def _space(game, decl, name: str):
    """Check that `name` is one space (row.column) of the grid zone `decl`."""
    if not decl.rows:
        raise PositionError(f"'{decl.name}' is not a grid: write it without :row.column")
    spaces = game.rules.grid_spaces(decl.name, None)  # without an owner: the places themselves
    if name not in spaces:
        hint = did_you_mean(name, spaces)
        raise PositionError(
            f"'{name}' is not a space of {decl.name}"
            + (f"; {hint}" if hint else f"; its spaces: {', '.join(spaces)}")
        )


def zone_from_label(game, label: str) -> str:
    """deck → deck, hand@2 → hand/1, votes@dragons → votes/<uid of dragons>, region:low.1@2 → a space."""
    name, _, owner = label.partition("@")
    decl = game.rules.zones.get(name.partition(":")[0])
    if decl is not None and (decl.rows or ":" in name):
        _space(game, decl, name)
    if decl is None:
        raise PositionError(
            f"no zone '{name}'"
            + (f"; {did_you_mean(name, game.rules.zones)}" if did_you_mean(name, game.rules.zones) else "")
        )
    name = name if decl.rows else decl.name
    if decl.per == "shared":
        return name
    if not owner:
        raise PositionError(
            f"'{name}' is one per {decl.per}: write {name}@{'1' if decl.per == 'player' else 'CARD'}"
        )
    return zone_key(name, seat_of_label(game, owner) if decl.per == "player" else find_card(game, owner))
