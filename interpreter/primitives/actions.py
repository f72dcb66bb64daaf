"""Actions: what happens. Each handler is the primitive's code builder (codegen.py): it returns the
statements that carry it out, inside a generated step `act(game, frame)` in which `env` is the
frame's bindings (see runtime.py; codegen.Module.action puts around them what every action step
does, such as being held back inside a simultaneous turn). The plain functions here are their
runtime.

Actions are the only code that changes the state; `move` is the only way a card changes
zone, so conservation holds by construction and is checked by the tests after every step.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from typing import cast

from ..draws import below
from ..ir import Node
from ..registry import Binds, Param, free_names, has_role, primitive
from ..runtime import RuleError
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
def move(node, gen):
    """Move cards to a zone; with a number, take that many from the top of `from` (fewer if it runs out)."""
    count, face = node.args.get("count"), node.args.get("face")
    what = None if count else gen.code(node.args["what"])
    if count:
        take = gen.fill(
            "top_of(game, {source}, {count})",
            top_of=gen.ref(top_of),
            source=gen.code(node.args["from"]),
            count=gen.code(count),
        )
    elif gen.simple(what):  # a card, in place (cards(), written out)
        take = gen.fill(
            "[{what}] if isinstance({what}, int) else cards(game, {what})", cards=gen.ref(cards), what=what
        )
    else:
        take = gen.fill("cards(game, {what})", cards=gen.ref(cards), what=what)
    # a place chosen from none, or no card: nothing moves; one card moves alone (State.move), more
    # at once (State.move_cards), their parts given in order (facedown, placer, bottom, below: a
    # call by keywords costs twice as much); the log names the place by its key, which it writes
    # as a label
    return gen.steps(
        """
        _moving = {take}
        _to = {to}
        if _to is not None and _moving:
            _seat = env.get('you', -1)
            if len(_moving) == 1:
                game.state.move(_moving[0], _to, {facedown}, _seat, {bottom}, {below})
            else:
                game.state.move_cards(_moving, _to, {facedown}, _seat, {bottom}, {below})
            game.state.log.append(('move', _moving, _to))  # (Game.note, written out)
        """,
        take=take,
        to=gen.code(node.args["to"]),
        facedown=None if face is None else face == "down",
        bottom=node.args.get("at") == "bottom",
        below=gen.code(node.args["below"]) if node.args.get("below") else None,
    )


def top_of(game, source: str, count) -> list[int]:
    """The top `count` cards of a zone (all of them for "all"), topmost first."""
    pile = game.state.zones.get(source, [])
    n = len(pile) if count == "all" else max(0, min(count, len(pile)))
    return pile[len(pile) - n :][::-1]


@primitive(
    "inspect",
    "action",
    template="look at {what}",
    example="inspect top(deck, 3)",
    acting=True,
    params=[Param("what", "cards", doc="the cards looked at; they stay where they are")],
)
def inspect(node, gen):
    """Let the acting player look at cards without taking them ("look at"): they see them (in
    choices and in their view) until the cards next move."""
    return gen.steps(
        "looked_at(game, env['you'], cards(game, {what}))",
        looked_at=gen.ref(looked_at),
        cards=gen.ref(cards),
        what=gen.code(node.args["what"]),
    )


def looked_at(game, seat: int, seen: list[int]) -> None:
    for uid in seen:
        known = (game.state.marks[uid] or {}).get(SEEN, ())
        game.state.mark(uid, SEEN, tuple(sorted({*known, seat})))
    game.note("look", [], f"P{seat + 1} looks at {len(seen)} card(s)")


@primitive(
    "shuffle", "action", template="shuffle {zone}", example="shuffle deck", params=[Param("zone", "zone")]
)
def shuffle(node, gen):
    """Shuffle a zone with the game's seeded random generator."""
    return gen.steps("shuffled(game, {zone})", shuffled=gen.ref(shuffled), zone=gen.code(node.args["zone"]))


def shuffled(game, key: str) -> None:
    game.state.shuffle(key)
    game.note("shuffle", (), key)


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
def flip(node, gen):
    """Turn double-sided cards so the named side (or a random one) is face up."""
    named = node.args.get("side")
    return gen.steps(
        "flipped(game, {side}, cards(game, {what}), {where})",
        flipped=gen.ref(flipped),
        side=gen.code(named) if named is not None else node.args.get("to"),
        cards=gen.ref(cards),
        what=gen.code(node.args["what"]),
        where=_span(node),
    )


def flipped(game, side, uids: list[int], where: str) -> None:
    """Each card's side worked out first (a side a card lacks changes nothing), then all turned
    at once: a stamp of everything for the lot, not one a card (a deck flipped to random)."""
    state, defs = game.state, game.rules.defs
    turned, lines = [], []
    for uid in uids:
        sides = defs[uid].sides
        index = (
            below(state.random(), len(sides))
            if side == "random"
            else next((i for i, s in enumerate(sides) if s.side == side), None)
        )
        if index is None:
            raise RuleError(f"card {game.card_id(uid)} has no side {side!r}{where}")
        turned.append((uid, index))
        lines.append(("flip", [uid], sides[index].side))
    if turned:
        state.flip(turned)
        state.log += lines  # (Game.note, written out)


@primitive(
    "turn",
    "action",
    template="turn {what} face {face}, where they lie",
    example="turn top(space) face down",
    params=[Param("what", "cards"), Param("face", "word", prep="face", words=("up", "down"))],
)
def turn(node, gen):
    """Turn cards face up or face down without moving them (e.g. a covered card becoming stored energy)."""
    return gen.steps(
        "turned(game, cards(game, {what}), {face})",
        turned=gen.ref(turned),
        cards=gen.ref(cards),
        what=gen.code(node.args["what"]),
        face=node.args["face"],
    )


def turned(game, chosen: list[int], face: str) -> None:
    for uid in chosen:
        game.state.turn(uid, face == "down")
    if chosen:
        game.note("turn", chosen, f"face {face}")


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
def set_(node, gen):
    """Set a mark on a card (cleared when the card moves), an attribute of a space, or a counter."""
    target, value = node.args["target"], gen.code(node.args["value"])
    space = has_role(target, "space attribute")
    if not space and not has_role(target, "attribute"):  # a counter
        return gen.steps("game.state.set_counter({key}, {value})", key=_counter_key(target, gen), value=value)
    return gen.steps(
        """
        _place = {where}  # a space's key, or a card's uid
        if _place is not None:
            {change}(_place, {name}, {value})
        """,
        where=gen.code(target.args["space" if space else "of"]),
        change=gen.fill("game.state.set_space" if space else "game.state.mark"),
        name=target.args["name"],
        value=value,
    )


@primitive(
    "add",
    "action",
    template="add {amount} to {to}",
    example="add 2 to coins",
    params=[Param("amount", "int"), Param("to", "target", prep="to", doc="a counter")],
)
def add(node, gen):
    """Add to a counter (subtract with a negative amount; nothing adds nothing)."""
    return gen.steps(
        "added(game, {key}, {amount})",
        added=gen.ref(added),
        key=_counter_key(node.args["to"], gen),
        amount=gen.code(node.args["amount"]),
    )


def added(game, key: str, amount) -> None:
    counters = game.state.counters
    game.state.set_counter(key, counters.get(key, 0) + (amount or 0))
    game.note("add", [], f"{game.zone_label(key)} = {counters[key]}")


def _counter_key(counter: Node, gen):
    """The code of the key of the counter a node reads: the zone key of the same name and owner."""
    return gen.code(
        Node("zone", {part: counter.args[part] for part in ("name", "per", "of") if part in counter.args})
    )


@primitive(
    "refill",
    "action",
    template="refill {zone} from {from} up to {to} cards",
    example="refill row from deck to 3",
    params=[Param("zone", "zone"), Param("from", "zone", prep="from"), Param("to", "int", prep="to")],
)
def refill(node, gen):
    """Move cards from the top of `from` until the zone holds `to` cards (or `from` runs out)."""
    return gen.steps(
        "refilled(game, {zone}, {source}, {size})",
        refilled=gen.ref(refilled),
        zone=gen.code(node.args["zone"]),
        source=gen.code(node.args["from"]),
        size=gen.code(node.args["to"]),
    )


def refilled(game, key: str, source: str, size: int) -> None:
    pile = game.state.zones.get(source, [])
    want = size - len(game.state.zones.get(key, []))
    moving = pile[len(pile) - max(0, min(want, len(pile))) :][::-1]
    game.state.move_cards(moving, key, False)  # (face up, placed by no seat)
    game.note("refill", moving, key)


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
def rank(node, gen):
    """Order cards by their keys (highest first; later keys only break ties) and mark each with its award."""
    uid = gen.fresh("uid")
    each = gen.binding({"it": uid})
    return gen.steps(
        """
        _awards = {awards}
        ranked(game, [({keys}, {uid}) for {uid} in cards(game, {what})], _awards, {name}, {lowest})
        """,
        awards=gen.code(node.args["with"]),
        ranked=gen.ref(ranked),
        keys=ast.Tuple([each.code(key) for key in node.args["by"]], ast.Load()),
        uid=ast.Name(uid, ast.Load()),
        cards=gen.ref(cards),
        what=gen.code(node.args["what"]),
        name=node.args["as"],
        lowest=node.args.get("ties", "lowest") == "lowest",
    )


def ranked(game, scored: list, table, name: str, lowest: bool) -> None:
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
def score(node, gen):
    """Add points to the acting player's score, itemised by card when `per` names the cards that earn
    them, and by heading when `as` names one."""
    seat, by, listed = (ast.Name(gen.fresh(hint), ast.Load()) for hint in ("seat", "by", "listed"))
    heading = gen.fill("{heading} or frame.heading", heading=node.args.get("as") or "")
    labels = [gen.code(label) for label in node.args.get("label", ())]
    if labels:  # `as area(a, c)`: listed under 'area 3 white'
        heading = gen.fill(
            "' '.join([{heading}, *map(str, {labels})])", heading=heading, labels=ast.List(labels, ast.Load())
        )
    per, first = node.args.get("per"), []
    if per is None:  # once, with `it` as it is (a printed effect's own card); nothing scores nothing
        items = gen.fill(
            "[({seat}, -1, {amount} or 0, {by}, {listed})]",
            seat=seat,
            by=by,
            listed=listed,
            amount=gen.code(node.args["amount"]),
        )
    else:
        uid = gen.fresh("uid")
        if "it" in free_names(node.args["amount"]):  # worked out for each card, as it
            amount = gen.fill("{each} or 0", each=gen.binding({"it": uid}).code(node.args["amount"]))
            earning = gen.fill("cards(game, {per})", cards=gen.ref(cards), per=gen.code(per))
        else:  # the same for every card: worked out once, when a card earns it (as in the loop)
            earning, amount = (ast.Name(gen.fresh(hint), ast.Load()) for hint in ("earning", "amount"))
            first = gen.steps(
                """
                {earning} = cards(game, {per})
                {amount} = ({each} or 0) if {earning} else 0
                """,
                earning=earning,
                amount=amount,
                cards=gen.ref(cards),
                per=gen.code(per),
                each=gen.code(node.args["amount"]),
            )
        items = gen.fill(
            "[({seat}, {uid}, {amount}, {by}, {listed}) for {uid} in {earning}]",
            seat=seat,
            by=by,
            listed=listed,
            uid=ast.Name(uid, ast.Load()),
            amount=amount,
            earning=earning,
        )
    return gen.steps(
        """
        {seat}, {by}, {listed} = env['you'], {source}, {heading}
        {first}
        scored_points(game, {seat}, {items}, {per}, {by})
        """,
        first=first,
        seat=seat,
        by=by,
        listed=listed,
        source=gen.code(node.args["by"]) if node.args.get("by") else gen.fill("frame.source"),
        heading=heading,
        scored_points=gen.ref(scored_points),
        items=items,
        per=per is not None,
    )


def scored_points(game, seat: int, items: list, per: bool, by) -> None:
    gained = game.state.add_points(items)
    game.note("score", [item[1] for item in items] if per else (), Scored(seat, gained, by))


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
def draw(node, gen):
    """Log a text drawing of a grid: each space shows the value worked out for it (nothing shows
    blank), in cells as wide as the widest; places the grid lacks are left blank. Everyone reads
    the drawing: show only what is public."""
    around = tuple(sorted(free_names(node.args["with"]) - {"it"}))  # what else the value reads
    space, made = gen.fresh("space"), gen.fresh("cells")
    cells = gen.module.define(  # a row's texts: remembered, as a definition's value is
        made,
        ("game", "env", "key"),  # the key it is remembered by: (token, the row's spaces, *seen)
        gen.steps(
            "return tuple(shown_text({value}) for {space} in key[1])",
            shown_text=gen.ref(shown_text),
            value=gen.binding({"it": space}).code(node.args["with"]),
            space=ast.Name(space, ast.Load()),
        ),
        pure=True,
    )
    return gen.steps(
        "drawn(game, env, {zone}, {cells}, {token}, {seen})",
        drawn=gen.ref(drawn),
        zone=gen.code(node.args["zone"]),
        cells=gen.ref(cells),
        token=f"draw#{made}",  # the function's name, which the generator made: the same in every run
        seen=ast.Tuple([gen.fill("env.get({name})", name=name) for name in around], ast.Load()),
    )


def shown_text(value) -> str:
    return "" if value is None else str(value)


def drawn(game, env, spaces, cells, token: str, seen: tuple) -> None:
    if not game.state.log_read:  # a drawing is only for the log
        return
    rows = []
    for keys in _rows(spaces):
        # a row is worked out again only when something it showed changed: most rows never do
        rows.append((keys, game.remembered((token, keys, *seen), cells, env)))
    if rows:
        game.note("draw", [], Drawing(rows))


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
def pass_(node, gen):
    """Move a player marker (such as the first player) clockwise, anticlockwise or to a random seat."""
    return gen.steps(
        "passed(game, {marker}, {to})", passed=gen.ref(passed), marker=node.args["marker"], to=node.args["to"]
    )


def passed(game, marker: str, to: str) -> None:
    state = game.state
    if to == "random":
        state.set_marker(marker, below(state.random(), state.players))
    else:
        state.set_marker(marker, (state.markers[marker] + (1 if to == "left" else -1)) % state.players)
    game.note("pass", [], f"{marker} to P{state.markers[marker] + 1}")
