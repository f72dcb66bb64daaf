"""Actions: what happens. Each handler returns a Step, `act(game, frame)` (see runtime.py);
the engine runs it as a step (game.py, `_as_step`), which holds it back inside a simultaneous turn.

Actions are the only code that changes the state; `move` is the only way a card changes
zone, so conservation holds by construction and is checked by the tests after every step.
"""

from __future__ import annotations

from functools import lru_cache
from typing import cast

from ..ir import Node
from ..registry import Binds, Param, free_names, has_role, primitive
from ..runtime import RuleError, UnhashableKey
from ..state import Scored, parse_key
from ..views import SEEN
from .expressions import cards


def _span(node) -> str:
    return f" ({node.span})" if node.span else ""


@primitive(
    "move",
    "action",
    template="move {count}{what}[ from {from}] to {to}[, face {face}][, at the {at}][, right under {below}]",
    example="move 4 from deck to hand",
    params=[
        Param("what", "amount", doc="a number or all (taken from the top of `from`), a card or a collection"),
        Param("count", "int", derived="what", doc="what, when it is a number or all", least=0),
        Param("from", "zone", prep="from", required=False),
        Param("to", "zone", prep="to"),
        Param("face", "word", prep="face", required=False, words=("up", "down")),
        Param("at", "word", prep="at", required=False, words=("top", "bottom"), doc="top is the default"),
        Param(
            "below",
            "card",
            prep="below",
            required=False,
            doc="put them right under this card when it lies in `to` (on top or at `at` otherwise): "
            "a place in a stack found by a rule, such as by height",
        ),
    ],
)
def move(node, build):
    """Move cards to a zone; with a number, take that many from the top of `from` (fewer if it runs out)."""
    to, count = build(node.args["to"]), node.args.get("count")
    take = _top_cards(build(node.args["from"]), build(count)) if count else build(node.args["what"])
    face = node.args.get("face")
    facedown = None if face is None else face == "down"
    bottom = node.args.get("at") == "bottom"
    below = build(node.args["below"]) if node.args.get("below") else None

    def act(game, frame):
        env = frame.env
        moving, destination, seat = cards(game, take(game, env)), to(game, env), env.get("you", -1)
        if destination is None:  # a place chosen from none: nothing moves (as with no card)
            return
        under = below(game, env) if below else None
        if len(moving) == 1:
            game.state.move(
                moving[0], destination, facedown=facedown, placer=seat, bottom=bottom, below=under
            )
        else:
            game.state.move_cards(
                moving, destination, facedown=facedown, placer=seat, bottom=bottom, below=under
            )
        if moving:
            game.note("move", moving, destination)  # a zone key: the log writes it as a label

    return act


def _top_cards(source, count):
    """The top `count` cards of a zone (all of them for "all"), topmost first."""

    def take(game, env):
        pile, n = game.state.zones.get(source(game, env), []), count(game, env)
        n = len(pile) if n == "all" else max(0, min(n, len(pile)))
        return pile[len(pile) - n :][::-1]

    return take


@primitive(
    "inspect",
    "action",
    template="look at {what}",
    example="inspect top(deck, 3)",
    acting=True,
    params=[Param("what", "cards", doc="the cards looked at; they stay where they are")],
)
def inspect(node, build):
    """Let the acting player look at cards without taking them ("look at"): they see them (in
    choices and in their view) until the cards next move."""
    what = build(node.args["what"])

    def act(game, frame):
        env = frame.env
        seat, seen = env["you"], cards(game, what(game, env))
        for uid in seen:
            known = (game.state.marks[uid] or {}).get(SEEN, ())
            game.state.mark(uid, SEEN, tuple(sorted({*known, seat})))
        game.note("look", [], f"P{seat + 1} looks at {len(seen)} card(s)")

    return act


@primitive(
    "shuffle", "action", template="shuffle {zone}", example="shuffle deck", params=[Param("zone", "zone")]
)
def shuffle(node, build):
    """Shuffle a zone with the game's seeded random generator."""
    zone = build(node.args["zone"])

    def act(game, frame):
        env = frame.env
        key = zone(game, env)
        game.state.shuffle(key)
        game.note("shuffle", (), key)

    return act


@primitive(
    "flip",
    "action",
    template="turn {what} to their {to}{side} side",
    example="flip pile to random",
    params=[
        Param("what", "cards"),
        Param("to", "word", prep="to", words="sides", doc="a side name, or random"),
        Param(
            "side",
            "value",
            required=False,
            derived="to",
            doc="a name bound to a side's name (`choose half from sides(card)`), written in place of it",
        ),
    ],
)
def flip(node, build):
    """Turn double-sided cards so the named side (or a random one) is face up."""
    what = build(node.args["what"])
    named = build(node.args["side"]) if node.args.get("side") is not None else None
    written = node.args.get("to")

    def act(game, frame):
        env = frame.env
        side = named(game, env) if named else written
        for uid in cards(game, what(game, env)):
            sides = game.sides(uid)
            index = (
                game.state.random().randrange(len(sides))
                if side == "random"
                else next((i for i, s in enumerate(sides) if s.side == side), None)
            )
            if index is None:
                raise RuleError(f"card {game.card_id(uid)} has no side {side!r}{_span(node)}")
            game.state.flip(uid, index)
            game.note("flip", [uid], sides[index].side)

    return act


@primitive(
    "turn",
    "action",
    template="turn {what} face {face}, where they lie",
    example="turn top(space) face down",
    params=[Param("what", "cards"), Param("face", "word", prep="face", words=("up", "down"))],
)
def turn(node, build):
    """Turn cards face up or face down without moving them (e.g. a covered card becoming stored energy)."""
    what, down = build(node.args["what"]), node.args["face"] == "down"

    def act(game, frame):
        env = frame.env
        chosen = cards(game, what(game, env))
        for uid in chosen:
            game.state.turn(uid, down)
        if chosen:
            game.note("turn", chosen, f"face {node.args['face']}")

    return act


@primitive(
    "set",
    "action",
    template="set {target} to {value}",
    example="set card.stance to way",
    params=[
        Param("target", "target", doc="card.mark, space.attribute or a counter"),
        Param("value", "value", prep="to"),
    ],
)
def set_(node, build):
    """Set a mark on a card (cleared when the card moves), an attribute of a space, or a counter."""
    target, value = node.args["target"], build(node.args["value"])
    space = has_role(target, "space attribute")
    if not space and not has_role(target, "attribute"):
        key = _counter_key(target, build)  # a counter

        def act_counter(game, frame):
            env = frame.env
            game.state.set_counter(key(game, env), value(game, env))

        return act_counter
    where, name = build(target.args["space" if space else "of"]), target.args["name"]
    change = (
        (lambda game, key, v: game.state.set_space(key, name, v))
        if space
        else (lambda game, uid, v: game.state.mark(uid, name, v))
    )

    def act(game, frame):
        env = frame.env
        place = where(game, env)  # a space's key, or a card's uid
        if place is not None:
            change(game, place, value(game, env))

    return act


@primitive(
    "add",
    "action",
    template="add {amount} to {to}",
    example="add 2 to coins",
    params=[Param("amount", "int"), Param("to", "target", prep="to", doc="a counter")],
)
def add(node, build):
    """Add to a counter (subtract with a negative amount; nothing adds nothing)."""
    amount, key = build(node.args["amount"]), _counter_key(node.args["to"], build)

    def act(game, frame):
        env = frame.env
        counters, where = game.state.counters, key(game, env)
        game.state.set_counter(where, counters.get(where, 0) + (amount(game, env) or 0))
        game.note("add", [], f"{game.zone_label(where)} = {counters[where]}")

    return act


def _counter_key(counter: Node, build):
    """(game, env) -> the key of the counter a node reads: the zone key of the same name and owner."""
    return build(
        Node("zone", {part: counter.args[part] for part in ("name", "per", "of") if part in counter.args})
    )


@primitive(
    "refill",
    "action",
    template="refill {zone} from {from} up to {to} cards",
    example="refill row from deck to 3",
    params=[Param("zone", "zone"), Param("from", "zone", prep="from"), Param("to", "int", prep="to")],
)
def refill(node, build):
    """Move cards from the top of `from` until the zone holds `to` cards (or `from` runs out)."""
    zone, source, size = build(node.args["zone"]), build(node.args["from"]), build(node.args["to"])

    def act(game, frame):
        env = frame.env
        key, pile = zone(game, env), game.state.zones.get(source(game, env), [])
        want = size(game, env) - len(game.state.zones.get(key, []))
        moving = pile[len(pile) - max(0, min(want, len(pile))) :][::-1]
        game.state.move_cards(moving, key, facedown=False, placer=-1)
        game.note("refill", moving, key)

    return act


@primitive(
    "rank",
    "action",
    template=(
        "rank {what} by {by}, marking each with its {as} from {with}[ (tied cards share the {ties} award)]"
    ),
    example="rank pool by [support, tiebreak] as award with [4, 3, 2, -1]",
    params=[
        Param("what", "cards"),
        Param("by", "list", prep="by", per_card=True, doc="keys, most important first"),
        Param("as", "word", prep="as", words="marks", doc="the mark that receives the award"),
        Param("with", "list", prep="with", doc="awards from first place down"),
        Param(
            "ties",
            "word",
            prep="ties",
            required=False,
            words=("lowest", "highest"),
            doc="lowest (default): tied cards share the lowest award of the places they span; "
            "highest: the highest",
        ),
    ],
)
def rank(node, build):
    """Order cards by their keys (highest first; later keys only break ties) and mark each with its award."""
    what, keys, awards = (
        build(node.args["what"]),
        [build(k) for k in node.args["by"]],
        build(node.args["with"]),
    )
    name, lowest = node.args["as"], node.args.get("ties", "lowest") == "lowest"

    def act(game, frame):
        env = frame.env
        table = awards(game, env)
        scored = []
        for uid in cards(game, what(game, env)):
            inner = {**env, "it": uid}
            scored.append((tuple(key(game, inner) for key in keys), uid))
        scored.sort(key=lambda pair: pair[0], reverse=True)
        place = 0
        while place < len(scored):
            end = place
            while end + 1 < len(scored) and scored[end + 1][0] == scored[place][0]:
                end += 1
            shared = end if lowest else place
            award = table[shared] if shared < len(table) else 0
            for _, uid in scored[place : end + 1]:
                game.state.mark(uid, name, award)
            game.note("rank", [uid for _, uid in scored[place : end + 1]], f"{name} {award}")
            place = end + 1

    return act


@primitive(
    "score",
    "action",
    template="score {amount} points[ for each card of {per}][, awarded by {by}] (as {as} {label})",
    example="score c.award per tableau where c.wants by c",
    acting=True,
    english=(
        ({"label": None}, "score {amount} points[ for each card of {per}][, awarded by {by}][ (as {as})]"),
    ),
    params=[
        Param("amount", "int", per_card="per", doc="with per: computed for each of its cards, as it"),
        Param("per", "cards", prep="per", required=False),
        Param("by", "card", prep="by", required=False, doc="the card that awards the points"),
        Param(
            "as",
            "word",
            prep="as",
            required=False,
            doc="the heading the points are listed under when a score is itemised",
        ),
        Param(
            "label",
            "list",
            required=False,
            derived="as",
            joiner=" ",
            doc="values written after the heading's name, `as area(a, c)`: listed under 'area 3 white'",
        ),
    ],
)
def score(node, build):
    """Add points to the acting player's score, itemised by card when `per` names the cards that earn
    them, and by heading when `as` names one."""
    amount = build(node.args["amount"])
    per = build(node.args["per"]) if node.args.get("per") else None
    source = build(node.args["by"]) if node.args.get("by") else None
    heading = node.args.get("as") or ""
    labels = [build(label) for label in node.args.get("label", ())]

    def act(game, frame):
        env = frame.env
        seat, by = env["you"], source(game, env) if source else frame.source
        listed = heading or frame.heading
        if labels:
            listed = " ".join([listed, *(str(label(game, env)) for label in labels)])
        if per is None:  # once, with `it` as it is (a printed effect's own card)
            items = [(seat, -1, amount(game, env) or 0, by, listed)]  # nothing scores nothing
        else:
            inner, items = dict(env), []
            for uid in cards(game, per(game, env)):
                inner["it"] = uid
                items.append((seat, uid, amount(game, inner) or 0, by, listed))
        gained = game.state.add_points(items)
        game.note("score", [item[1] for item in items] if per else (), Scored(seat, gained, by))

    return act


@primitive(
    "draw",
    "action",
    template="draw {zone}, each space showing {with}",
    example="draw board with glyph",
    params=[
        Param("zone", "spaces", doc="a grid zone"),
        Param("with", "value", prep="with", doc="worked out for each space, as it: a word or a number"),
    ],
    binds=[Binds("with", name="it", type="space")],
)
def draw(node, build):
    """Log a text drawing of a grid: each space shows the value worked out for it (nothing shows
    blank), in cells as wide as the widest; places the grid lacks are left blank. Everyone reads
    the drawing: show only what is public."""
    zone, shown = build(node.args["zone"]), build(node.args["with"])
    around = tuple(sorted(free_names(node.args["with"]) - {"it"}))  # what else the value reads
    token = f"draw#{id(node)}"

    def row_cells(game, env, keys) -> tuple:
        inner = dict(env)
        texts = []
        for key in keys:
            inner["it"] = key
            value = shown(game, inner)
            texts.append("" if value is None else str(value))
        return tuple(texts)

    def act(game, frame):
        env = frame.env
        seen = tuple(env.get(name) for name in around)
        rows = []
        for keys in _rows(zone(game, env)):
            try:  # a row is worked out again only when something it showed changed: most rows never do
                texts = game.remembered((token, keys, *seen), row_cells, game, env, keys)
            except UnhashableKey:
                texts = row_cells(game, env, keys)
            rows.append((keys, texts))
        if rows:
            game.note("draw", [], Drawing(rows))

    return act


@lru_cache(maxsize=64)
def _rows(keys: tuple) -> tuple:
    """The spaces of a grid, row by row."""
    rows: dict = {}
    for key in keys:
        rows.setdefault(parse_key(key).row, []).append(key)
    return tuple(map(tuple, rows.values()))


class Drawing(tuple):
    """A grid drawing in the log, kept as its rows, (space keys, cell texts) each, and written out
    only when read (State.written): the grid's label, a line of column numbers, then a line per row."""

    __slots__ = ()

    def text(self, name) -> str:
        places = {parse_key(key): text for keys, texts in self for key, text in zip(keys, texts)}
        first = next(iter(places))
        # a drawing's keys are spaces: each has its row and column
        rows = cast("list[str]", list(dict.fromkeys(place.row for place in places)))
        columns = range(1, max(cast(int, place.column) for place in places) + 1)
        width, margin = max(2, *map(len, places.values())), max(map(len, rows)) + 1
        at = {(place.row, place.column): text for place, text in places.items()}
        label = first.name if first.owner is None else f"{first.name}@{first.owner + 1}"
        lines = [label, " " * margin + " ".join(f"{c:>{width}}" for c in columns)]
        lines += [
            (f"{row:<{margin}}" + " ".join(f"{at.get((row, c), ''):>{width}}" for c in columns)).rstrip()
            for row in rows
        ]
        return "\n".join(lines)


@primitive(
    "pass",
    "action",
    template="pass the {marker} player marker to the {to}",
    example="pass first to left",
    english=(({"to": "random"}, "give the {marker} player marker to a player picked at random"),),
    params=[
        Param("marker", "word", words="markers"),
        Param("to", "word", prep="to", words=("left", "right", "random")),
    ],
)
def pass_(node, build):
    """Move a player marker (such as the first player) clockwise, anticlockwise or to a random seat."""
    marker, to = node.args["marker"], node.args["to"]

    def act(game, frame):
        state = game.state
        if to == "random":
            state.set_marker(marker, state.random().randrange(state.players))
        else:
            state.set_marker(marker, (state.markers[marker] + (1 if to == "left" else -1)) % state.players)
        game.note("pass", [], f"{marker} to P{state.markers[marker] + 1}")

    return act
