"""Expressions: values, card attributes, zones as collections, filters, counts and arithmetic.

Each handler is the primitive's code builder (codegen.py): it receives its IR node and `gen`
and returns the Python code, an `ast` expression, that works the node out inside a generated
function `fn(game, env) -> value` (an Expr, see runtime.py). `env` holds the bindings made
around the expression: `you` (the seat acting) and every name bound by choose/for/repeat (a
condition printed on a card is handed the card it is asked of apart: `f(game, env, it)`); names
an expression binds itself (`it` in a filter) are locals of the generated code (`gen.bound`). An
expression reads the state through the game (`game.pile`, `game.depends_on` …), so that a
remembered value knows what it depends on. The plain functions here are the runtime the
generated code calls.
"""

from __future__ import annotations

import ast
import functools
import operator
from collections.abc import Callable

from ..ir import Node
from ..registry import IT, REGISTRY, Binds, Param, free_names, has_role, primitive, role
from ..runtime import LIMIT_DIGITS, bounded, never
from ..state import SCORES, Zone, owned_keys, parse_key


# Result types that depend on the parts' types (each docstring is the reference's "Gives").
def _as_then(kinds):
    """the type of `then`"""
    return kinds["then"]


def _as_collection(kinds):
    """what `coll` is: cards, spaces, players or a list"""
    return kinds["coll"] if kinds["coll"] in ("spaces", "players", "list", "numbers") else "cards"


def _row_or_column(kinds):
    """a word for the row, an int for the column"""
    return "word" if kinds.get("part") == "row" else "int"


def _card_or_cards(kinds):
    """a card; cards with a count"""
    return "cards" if "count" in kinds else "card"


def _item(kinds):
    """an int from a list of numbers, else a value"""
    return "int" if kinds["items"] == "numbers" else "value"


_PER = Param(
    "per", "word", derived="compiler", words=("shared", "player", "card"), doc="as the zone is declared"
)
_OWNED = (({"of": None, "per": "shared"}, "{name}"), ({"of": None}, "your {name}"))  # read without an owner


def _owner_read(args) -> tuple:
    """A zone or counter of each player named without its owner is the acting player's."""
    return ("you",) if args.get("per") == "player" and args.get("of") is None else ()


def cards(game, value) -> list[int]:
    """A collection of card ids from a zone key, a list, or a single card (a new list)."""
    return [value] if isinstance(value, int) else list(pile_of(game, value))


def pile_of(game, value):
    """The same, without copying: for reading only."""
    if isinstance(value, Zone):  # (Game.pile, written out)
        if game.reads is not None:
            game.reads.add(value)
        return game.state.zones.get(value, ())
    if isinstance(value, int):
        return (value,)
    return value if value is not None else ()


@primitive(
    "const",
    "expression",
    template="{value}",
    example="6",
    returns="value",
    form="literal",
    params=[Param("value", "value")],
    roles={"literal": "value"},
)
def const(node, gen):
    """A literal: a number, a word, or a list of them."""
    value = node.args["value"]
    return gen.known(gen.const(value), listing=isinstance(value, tuple))


@primitive(
    "hole",
    "expression",
    template="{name}",
    example="N",
    returns="value",
    form="",
    params=[Param("name", "word", derived="compiler", doc="the capital letters written")],
    roles={"hole": "name"},
)
def hole(node, gen):
    """A capitalised name in a phrase of a game's vocabulary (`score N per CARDS`): it stands for
    whatever part the rules have there when the phrase is matched. Phrases are read, never run."""
    raise ValueError("a phrase's hole is never worked out")


@primitive(
    "var",
    "expression",
    template="{name}",
    example="card",
    returns="value",
    form="name",
    params=[Param("name", "binding")],
    reads=("@name",),
    english=(({"name": "it"}, "this card"),),
    roles={"bound name": "name"},
)
def var(node, gen):
    """A name bound by `choose`, `for`, `repeat` or `each player` (`you`), or `it` in a condition."""
    return gen.bound(node.args["name"])


@primitive(
    "zone",
    "expression",
    template="the {name} of {of}",
    example="hand",
    returns="cards",
    form="name",
    params=[
        Param("name", "word"),
        _PER,
        Param("of", "value", required=False, doc="the owning seat or card; defaults to you or it"),
    ],
    english=_OWNED,
    roles={"pile": "name"},
    reads=_owner_read,
)
def zone(node, gen):
    """A zone: shared, one per player (the acting player's unless `of` says whose) or attached to a card."""
    return owned_key(node, gen)


def owned_key(node, gen):
    """The code of a zone's or counter's key: its name, or name/owner for one per player or per card."""
    name, owner = node.args["name"], _owner(node, gen)
    if owner is None:
        return gen.ref(Zone(name), "zone")
    return gen.fill("{keys}[{owner}]", keys=gen.ref(owned_keys(name), "zone"), owner=owner)  # (zone_key's)


def _owner(node, gen):
    """The code of the seat or card owning a zone or counter of one per player or per card (None
    for a shared one)."""
    per = node.args["per"]
    if per == "shared":
        return None
    return gen.code(node.args["of"]) if node.args.get("of") else gen.bound("you" if per == "player" else "it")


@primitive(
    "counter",
    "expression",
    template="the {name} of {of}",
    example="coins",
    returns="int",
    form="name",
    params=[Param("name", "word"), _PER, Param("of", "player", required=False, doc="defaults to you")],
    english=_OWNED,
    roles={"settable": "name"},
    reads=_owner_read,
)
def counter(node, gen):
    """A counter's value: shared, or one per player (the acting player's unless `of` says whose)."""
    code = gen.fill(  # counter_value, written out where no read is being noted (most reads)
        "game.state.counters.get({key}, 0) if game.reads is None else counter_value(game, {key})",
        counter_value=gen.ref(counter_value),
        key=owned_key(node, gen),
    )
    return gen.known(code, number=True)


def counter_value(game, key: str) -> int:
    """A counter's value, noted as read (`counter` writes it out in place where no read is noted)."""
    game.depends_on("#" + key)
    return game.state.counters.get(key, 0)


_OF_IT = (({"of": IT}, "{name}"),)  # an attribute of the card in view reads as its name alone


@primitive(
    "attr",
    "expression",
    template="the {name} of {of}",
    example="value",
    returns="value",
    form="path",
    params=[Param("of", "card", doc="defaults to it"), Param("name", "word")],
    english=_OF_IT,
    roles={"attribute": "name"},
)
def attr(node, gen):
    """A printed attribute of a card's face-up side, or one of: id, name, kind, side, face (up or down),
    effects (the names of the effects and numbers printed on it)."""
    of, name = gen.code(node.args["of"]), node.args["name"]
    if name == "face" and gen.simple(of) and gen.present(of):  # a card of a pile: how it lies, read in
        # place (no side prints a `face`: declare.py); turning it stamps its pile, which the
        # collection it was taken from has noted as read already (Gen.binding)
        return gen.fill("'down' if game.state.facedown[{uid}] else 'up'", uid=of)
    if name in ("face", "effects") or not _may_be_none(of, gen) or not (gen.simple(of) or gen.named):
        # the state, not the print; a constant (a spoilt file's word); or what is worked out once
        # (read in place, its code is written three times: in an expression's, it is worked out once)
        return gen.fill("game.attribute({of}, {name})", of=of, name=name)
    # a card's kind and id are the same on every side: read from the card, no side looked up
    read = _CARD_WIDE.get(name, "game.rules.faces[{uid}][game.state.side[{uid}]].get({name})")
    if gen.present(of):  # a card of a pile, in a filter: the commonest read of all
        return gen.fill(read, uid=of, name=name)
    return gen.fill(f"None if {{uid}} is None else {read}", uid=of, name=name)  # a bound card's


# (no attribute or mark may take their names: compiler/declare.py refuses them)
_CARD_WIDE = {"kind": "game.rules.defs[{uid}].kind", "id": "game.rules.defs[{uid}].id"}


@primitive(
    "computed",
    "expression",
    template="the {name} of {of}[ for {given}]",
    example="p.discount(card, space)",
    returns="int",
    form="method",
    params=[
        Param("of", "card"),
        Param("name", "word"),
        Param("given", "list", required=False, doc="values for the names it sees, in order"),
        Param("sees", "list", required=False, doc="those names, as its attribute declares"),
    ],
    reads=("you",),
)  # the card's own expression may read its reader
def computed(node, gen):
    """A number printed on a card, as a whole number or an expression worked out when read, with
    `it` the card and the names its attribute sees (0 for no card, or a card without it)."""
    given = [gen.code(g) for g in node.args.get("given") or ()]
    seen = ast.Dict([ast.Constant(name) for name in node.args.get("sees") or ()], given)
    of, name = gen.code(node.args["of"]), node.args["name"]
    code = gen.fill(
        "computed_value(game, {env}, {of}, {name}, {seen})",
        computed_value=gen.ref(computed_value),
        env=gen.env(),
        of=of,
        name=name,
        seen=seen,
    )
    if not all(map(gen.simple, (of, *given))):
        return code
    # most cards print no such number: the bindings it would see are put together only for a card
    # that prints it; what it is given is names, which cannot fail
    return gen.fill(
        "0 if {of} is None or {number} is None else {code}",
        of=of,
        number=_printed_here(of, name, gen),
        code=code,
    )


def _printed_here(uid: ast.expr, name: str, gen, otherwise=None) -> ast.expr:
    """Game.printed, or Game.condition with `never` for `otherwise`, read in place for a card that
    is a name: the effect, number or condition printed on its face-up side (change all three
    together)."""
    return gen.fill(
        "game.rules.printed[{uid}][game.state.side[{uid}]].get({name}, {otherwise})",
        uid=uid,
        name=name,
        otherwise=otherwise if otherwise is None else gen.ref(otherwise),
    )


def computed_value(game, env, uid, name, seen) -> int:
    number = game.printed(uid, name) if uid is not None else None
    return 0 if number is None else number(game, {**env, **seen, "it": uid})


@primitive(
    "let_in",
    "expression",
    template="{define}[({values})]",
    example="near(card, space)",
    returns="value",
    form="definition",
    binds=[Binds("body", var="names", type_of="values")],
    roles={
        "shared body": "body",
        "body number": "variant",
        "reasons": "body",
        "parameters": "names",
        "arguments": "values",
    },
    params=[
        Param("define", "word", doc="the definition's name"),
        Param("variant", "int", required=False, doc="which lowering of it (one per scope it is used in)"),
        Param("names", "binding", doc="the hidden names its parameters are bound to"),
        Param("values", "list"),
        Param("body", "value"),
    ],
)
def let_in(node, gen):
    """A definition with parameters, used: the values passed are worked out first, then the
    definition's text with its parameters standing for them. Its value is remembered until the
    state next changes (placement rules ask the same question of every card and space)."""
    text = node.args["body"]
    reads = tuple(sorted(free_names(text, gen.module.free) - set(node.args["names"])))
    around = gen.env() if any(gen.is_local(name) for name in reads) else ast.Name("env", ast.Load())
    if not _loops(text):  # a few reads and sums: quicker worked out than looked up
        return _worked_out(text, node, around, gen)
    # every use of one variant shares its values: the key is the variant, the values passed and
    # the surroundings its text reads, in one flat tuple (a string's hash is kept, a tuple's is
    # not); its text is one function, which reads its parameters from the key
    token, body = _remembered(node, gen)
    key = ast.Tuple(
        [
            ast.Constant(token),
            *(gen.code(value) for value in node.args["values"]),
            *(
                gen.bound(name) if gen.is_local(name) else gen.fill("env.get({name})", name=name)
                for name in reads
            ),
        ],
        ast.Load(),
    )
    worked = _lead_apart(node)
    if worked is text:  # (a use of a definition not worth remembering skips `remembered`'s lookups)
        rest, otherwise = (
            token,
            gen.fill("game.remembered({key}, {body}, {env})", key=key, body=body, env=around),
        )
    else:  # its first parts at the use, the rest remembered; all at once when the rest is not worth it
        rest, otherwise = _token(worked.args["items"][-1]), _worked_out(worked, node, around, gen)
    code = gen.fill(  # (the shape loops._ask_reads knows an ask by: change both together)
        "{body}(game, {env}, {key}) if {forgotten} else {otherwise}",
        key=key,
        body=body,
        env=around,
        forgotten=gen.module.forgetting(rest),
        otherwise=otherwise,
    )
    return _as_body(code, text, gen)


def _worked_out(text, node, around, gen) -> ast.expr:
    """A use of definition `node` that works out `text` (its own, or _lead_apart's) afresh: in
    place, its parameters read where the values passed are, when each of those is as cheap as a
    name (no call, no dict of the surroundings, and what it shares with the code around it is
    worked out once, reuse.py); else one function of the rules, its parameters given them."""
    names, values = node.args["names"], [gen.code(value) for value in node.args["values"]]
    if all(gen.simple(value) for value in values) and _size_in_place(text) <= IN_PLACE_MOST:
        inner = gen.given(dict(zip(names, values)))
        return inner.test(text) if gen.testing else inner.code(text)
    parameters = {name: ast.Name(f"p{at}", ast.Load()) for at, name in enumerate(names, 1)}
    body = gen.module.function(text, tuple(f"p{at}" for at in range(1, len(names) + 1)), parameters)
    return _as_body(ast.Call(gen.ref(body), [ast.Name("game", ast.Load()), around, *values], []), text, gen)


IN_PLACE_MOST = 150  # parts: the largest a bundled game works out in place is 112


def _size_in_place(node, known: dict = {}) -> int:  # noqa: B006 - a cache for the process, by node
    """How many parts an expression is with the definitions it uses worked out in place, each
    with its own text: a tower of definitions, each using the one below twice, doubles at each
    floor (one that goes through a collection is a function, counted once)."""
    if not hasattr(node, "op"):
        return sum(_size_in_place(item, known) for item in node) if isinstance(node, tuple) else 0
    found = known.get(id(node))
    if found is not None and found[0] is node:
        return found[1]
    parts = node.args.values()
    if node.op == "let_in" and _loops(node.args["body"]):
        parts = (node.args["values"],)
    size = 1 + sum(_size_in_place(part, known) for part in parts)
    known[id(node)] = (node, size)
    return size


def _lead_apart(node, known: dict = {}) -> Node:  # noqa: B006 - a cache for the process, by node
    """A remembered definition's text as its uses work it out. An `and` or an `or` whose first
    parts go through no collection, the rest through one, is worked out at each use up to those
    parts, and only the rest is remembered, as a definition of its own keyed by the parameters
    it reads (a value kept for every card and space costs more than reading a card's kind
    again): of "c.kind != big or count(cards(s) where kind = big) = 0", the count is
    remembered for big cards only, once a space. Any other text is the definition's own."""
    body = node.args["body"]
    found = known.get(id(body))
    if found is not None and found[0] is body:
        return found[1]
    worked = body
    if body.op in ("any_of", "all_of") and _loops(body):
        items = body.args["items"]
        lead = next(at for at, item in enumerate(items) if _loops(item))
        if lead:
            rest = (
                items[lead] if lead == len(items) - 1 else Node(body.op, {"items": items[lead:]}, body.span)
            )
            worked = Node(body.op, {"items": (*items[:lead], _defined(rest, node))}, body.span)
    known[id(body)] = (body, worked)
    return worked


def _defined(rest, node) -> Node:
    """A use of `rest`, part of definition `node`'s text, as a definition of its own: given those
    of its parameters it reads, its values keyed apart from the whole's."""
    names = tuple(name for name in node.args["names"] if name in free_names(rest))
    args = {"variant": f"{node.args.get('variant')}.rest", "names": names, "body": rest}
    return Node(
        "let_in", {**node.args, **args, "values": tuple(Node("var", {"name": n}) for n in names)}, rest.span
    )


def _remembered(node, gen) -> tuple[str, ast.expr]:
    """A remembered definition's use: the token its values are remembered under (their keys
    begin with it), and its text as one function of the key (its parameters read from it)."""
    parameters = {name: gen.read("key", at) for at, name in enumerate(node.args["names"], 1)}
    body = gen.module.function(node.args["body"], ("key",), parameters, shared=True)
    return _token(node), gen.ref(body)


def _token(node) -> str:
    """What a definition's remembered values are keyed by first (Worth judges each by it)."""
    return f"{node.args['define']}#{node.args.get('variant')}"


def _of_it_alone(test, gen) -> bool:
    """Whether a filter's test is a remembered definition given the item alone (`on_frontier(it)`),
    reading nothing else around it: its values are keyed (token, item), one per item."""
    if test.op != "let_in" or not _loops(test.args["body"]):
        return False
    values, names = test.args["values"], test.args["names"]
    reads = free_names(test.args["body"], gen.module.free) - set(names)
    return not reads and len(values) == 1 and values[0].op == "var" and values[0].args.get("name") == "it"


def _as_body(code, body, gen):
    """A definition's call, known to give what its text (`body`) gives (always a list, or a number)."""
    listing, number = gen.module.facts[id(body)]
    return gen.known(code, listing=listing, number=number)


def _loops(node, known: dict = {}) -> bool:  # noqa: B006 - a cache for the process, by node
    """Whether an expression goes through a collection card by card (a filter, a sum: a part
    that binds a name) outside the definitions it uses, which are remembered or cheap: a
    definition worth remembering."""
    if not hasattr(node, "op"):
        return isinstance(node, tuple) and any(_loops(item, known) for item in node)
    found = known.get(id(node))
    if found is not None and found[0] is node:
        return found[1]
    if node.op == "let_in":
        loops = _loops(node.args["values"], known)
    else:
        loops = bool(REGISTRY[node.op].binds) or any(_loops(part, known) for part in node.args.values())
    known[id(node)] = (node, loops)
    return loops


@primitive(
    "if_else",
    "expression",
    template="{then} if {cond}, otherwise {other}",
    example="2 if value > 3 else 0",
    returns=_as_then,
    form="if_else",
    params=[Param("cond", "bool"), Param("then", "value"), Param("other", "value")],
)
def if_else(node, gen):
    """One value or another, by a condition."""
    then, other = gen.code(node.args["then"]), gen.code(node.args["other"])
    code = ast.IfExp(gen.test(node.args["cond"]), then, other)
    return gen.known(
        code, listing=gen.listing(then) and gen.listing(other), number=gen.number(then) and gen.number(other)
    )


@primitive(
    "mark",
    "expression",
    template="the {name} on {of}",
    example="token",
    returns="value",
    form="path",
    english=_OF_IT,
    roles={"attribute": "name", "settable": "name"},
    params=[
        Param("of", "card"),
        Param("name", "word"),
        Param("default", "value", derived="compiler", doc="0 for a number mark"),
    ],
)
def mark(node, gen):
    """A mark set on a card by `set` or `rank` (cleared when the card moves)."""
    of, name, default = gen.code(node.args["of"]), node.args["name"], node.args["default"]
    called = gen.fill(
        "mark_value(game, {of}, {name}, {default})",
        mark_value=gen.ref(mark_value),
        of=of,
        name=name,
        default=default,
    )
    if not gen.simple(of):  # (in place, the card is read twice)
        return called
    # in place when no read is being noted (mark_value, written out), or for a card of a pile: a
    # mark stamps the card's pile, which the collection it was taken from has noted as read
    here = gen.fill(
        "(game.state.marks[{of}] or {}).get({name}, {default})", of=of, name=name, default=default
    )
    if gen.present(of):
        return here
    here = gen.fill("{default} if {of} is None else {here}", default=default, of=of, here=here)
    return gen.fill("{here} if game.reads is None else {called}", here=here, called=called)


def mark_value(game, uid, name: str, default):
    """The mark `name` of a card, noted as read (where it lies: a card's marks go when it moves)."""
    if uid is None:
        return default
    if game.reads is not None:
        game.reads.add(game.state.location[uid])
    marks = game.state.marks[uid]
    return default if marks is None else marks.get(name, default)


@primitive(
    "meets",
    "expression",
    template="it meets the {name} condition of {of}",
    example="c.wants",
    returns="bool",
    form="path",
    reads=("it",),
    params=[Param("of", "card"), Param("name", "word")],
    roles={"printed condition": "name", "of card": "of"},
)
def meets(node, gen):
    """Whether `it` meets a condition printed on another card (e.g. what a card prefers)."""
    of, name = gen.code(node.args["of"]), node.args["name"]
    # in place for a card that is a name: a filter asks it of every card it goes through
    found = (
        _printed_here(of, name, gen, never)
        if gen.simple(of)
        else gen.fill("game.condition({of}, {name})", of=of, name=name)
    )
    return gen.fill("{found}(game, env, {it})", found=found, it=gen.bound("it"))  # (it sees `it` alone)


@primitive(
    "player",
    "expression",
    template="{rel}",
    example="left",
    returns="player",
    form="name",
    params=[Param("rel", "word", doc="you, left, right or a player marker such as first")],
    reads=lambda args: ("you",) if args["rel"] in ("you", "left", "right") else (),
)
def player(node, gen):
    """A seat relative to the acting player (left is the next seat clockwise) or a marker's holder."""
    rel = node.args["rel"]
    step = {"you": 0, "left": 1, "right": -1}.get(rel)
    if step is None:
        return gen.fill("marker_holder(game, {rel})", marker_holder=gen.ref(marker_holder), rel=rel)
    if step == 0:
        return gen.bound("you")
    return gen.fill("({you} + {step}) % game.state.players", you=gen.bound("you"), step=step)


def marker_holder(game, marker: str) -> int:
    game.depends_on("@" + marker)
    return game.state.markers[marker]


@primitive(
    "players",
    "expression",
    template="the players",
    example="max(p.coins for p in players)",
    returns="players",
    form="name",
)
def players(node, gen):
    """Every seat, in turn order from the first player: to compare players (most, none has more)."""
    return gen.fill("seats(game)", seats=gen.ref(seats))


def seats(game) -> list[int]:
    game.depends_on("@first")
    return list(seat_order(game.state.players, game.state.markers["first"], False))


@functools.cache
def seat_order(players: int, first: int, reverse: bool) -> tuple[int, ...]:
    """The seats in turn from the first player clockwise, or in reverse from the last: made once
    a process for each table (a loop over the seats begins about 20 to 60 times a game, and
    reads its seats only)."""
    first %= players
    order = (*range(first, players), *range(first))
    return order[::-1] if reverse else order


@primitive(
    "points",
    "expression",
    template="the score of {of}",
    example="you.score",
    returns="int",
    form="path",
    params=[Param("of", "player")],
)
def points(node, gen):
    """The points a player has scored so far (e.g. to compare with a solitaire target)."""
    return gen.fill("scored(game, {of})", scored=gen.ref(scored), of=gen.code(node.args["of"]))


def scored(game, seat: int) -> int:
    game.depends_on(SCORES)
    return game.state.scores[seat]


@primitive(
    "where",
    "expression",
    template="{coll} where {cond}",
    example="hand where value >= 6",
    form="where",
    returns=_as_collection,
    params=[Param("coll", "cards"), Param("cond", "bool", doc="asked of each item, as it")],
    binds=[Binds("cond", name="it", element_of="coll")],
    roles={"items": "coll", "test": "cond"},
)
def where(node, gen):
    """The cards of a collection that meet a condition (`it` is each card in turn)."""
    item, items = gen.fresh("it"), _items(node.args["coll"], gen)
    if _of_it_alone(node.args["cond"], gen):  # asked again only where it may have changed: Game.kept
        token, body = _remembered(node.args["cond"], gen)
        code = gen.fill("game.kept({token}, {items}, {body}, env)", token=token, items=items, body=body)
        return gen.known(code, listing=True, cards=gen.cards(items))
    cond = node.args["cond"]
    if has_role(cond, "printed condition") and "it" not in free_names(role(cond, "of card")):
        of = gen.code(role(cond, "of card"))
        if gen.simple(of):  # the condition a card prints, looked up once for every item (meeting)
            code = gen.fill(
                "meeting(game, env, {items}, {of}, {name})",
                meeting=gen.ref(meeting),
                items=items,
                of=of,
                name=role(cond, "printed condition"),
            )
            return gen.known(code, listing=True, cards=gen.cards(items))
    items, test = _filtered(node.args["coll"], cond, item, gen)
    if test is None:  # the index alone
        return gen.known(gen.fill("list({items})", items=items), listing=True)
    code = gen.fill(
        "[{item} for {item} in {items} if {test}]", item=ast.Name(item, ast.Load()), items=items, test=test
    )
    return gen.known(code, listing=True, cards=gen.cards(items))


def meeting(game, env, items, uid, name: str) -> list:
    """`items where c.NAME`, NAME a condition card `c` prints (meets): the condition looked up
    once, not once an item, and only when there are items (a scoring rule may ask one card's
    condition of every card of a pile)."""
    if not items:
        return []
    condition = game.condition(uid, name)
    return [item for item in items if condition(game, env, item)]


def _filtered(coll, cond, item: str, gen) -> tuple[ast.expr, ast.expr | None]:
    """The code of a filter's items and of its test of each (`it` the local `item`). A filter of
    a grid's spaces whose test is, or begins with, `it.a = v`, where no rule sets the space
    attribute `a` and `v` does not read `it`, goes through only the spaces whose map prints `v`,
    from an index (Rules.spaces_showing), and tests them by the rest (None: nothing more). The
    placement and scoring rules of a map's areas ask this of hundreds of spaces."""
    parts = list(cond.args["items"]) if cond.op == "all_of" else [cond]
    printed = _printed_as(parts[0], gen) if coll.op == "spaces" else None
    if printed is None:
        items = _items(coll, gen)
        return items, gen.binding({"it": item}, items).test(cond)
    name, value = printed
    items = gen.fill(
        "game.rules.spaces_showing({grid}, {owner}, {name}, {value})",
        grid=coll.args["name"],
        owner=_owner(coll, gen),
        name=name,
        value=gen.code(value),
    )
    rest = [gen.binding({"it": item}, items).test(part) for part in parts[1:]]
    return gen.known(items, listing=True), (
        ast.BoolOp(ast.And(), rest) if len(rest) > 1 else rest[0] if rest else None
    )


def _printed_as(test, gen) -> tuple[str, object] | None:
    """(attribute, value) when a test is `it.a = v` (or `v = it.a`), `a` a space attribute no rule
    sets and `v` reading no `it`; else None."""
    if test.op != "compare" or test.args["op"] != "=":
        return None
    for attribute, value in (
        (test.args["left"], test.args["right"]),
        (test.args["right"], test.args["left"]),
    ):
        if (
            attribute.op == "space_attr"
            and attribute.args["space"].op == "var"
            and attribute.args["space"].args.get("name") == "it"
            and gen.module.settled(attribute.args["name"])
            and "it" not in free_names(value, gen.module.free)
        ):
            return attribute.args["name"], value
    return None


def _items(coll, gen) -> ast.expr:
    """The code of what a collection holds, to read through (a zone's live pile, not a copy)."""
    if has_role(coll, "pile"):  # Game.pile, written out where no read is being noted (most reads)
        code = gen.fill(
            "game.state.zones.get({key}, ()) if game.reads is None else game.pile({key})", key=gen.code(coll)
        )
        return gen.known(code, listing=True, cards=True)
    value = gen.code(coll)
    return (
        value
        if gen.listing(value)
        else gen.fill("pile_of(game, {value})", pile_of=gen.ref(pile_of), value=value)
    )


@primitive(
    "union",
    "expression",
    template="{items}",
    example="hand + stored",
    returns="cards",
    form="arith",
    params=[Param("items", "list", joiner=" and ")],
)
def union(node, gen):
    """Cards of several collections together (`a + b`), e.g. everything a cost may be paid from."""
    item = ast.Name(gen.fresh("uid"), ast.Load())
    parts = [_items(part, gen) for part in node.args["items"]]
    joined = ast.List(parts, ast.Load())
    part = ast.Name(gen.fresh("part"), ast.Load())
    code = gen.fill("[{uid} for {part} in {joined} for {uid} in {part}]", uid=item, part=part, joined=joined)
    return gen.known(code, listing=True, cards=all(gen.cards(part) for part in parts))


@primitive(
    "joined_spaces",
    "expression",
    template="{items}",
    example="adjacent(a) + adjacent(b)",
    returns="spaces",
    form="arith",
    params=[Param("items", "list", joiner=" and ")],
)
def joined_spaces(node, gen):
    """Spaces of several lists together, each once, in the order first met (`adjacent(a) + adjacent(b)`)."""
    found = ast.List([gen.code(item) for item in node.args["items"]], ast.Load())
    return gen.fill("spaces_joined({found})", spaces_joined=gen.ref(spaces_joined), found=found)


def spaces_joined(found: list) -> tuple:
    return tuple(
        dict.fromkeys(
            key for keys in found if keys is not None for key in ((keys,) if isinstance(keys, Zone) else keys)
        )
    )


@primitive(
    "contents",
    "expression",
    template="the cards in {spaces}",
    example="cards(adjacent(space))",
    returns="cards",
    spelled="cards",
    form="call",
    params=[Param("spaces", "places", arg=True)],
)
def contents(node, gen):
    """Every card in some spaces (or piles), each pile from the bottom up."""
    code = gen.fill(
        "cards_in(game, {places})", cards_in=gen.ref(cards_in), places=gen.code(node.args["spaces"])
    )
    return gen.known(code, listing=True, cards=True)


def cards_in(game, found) -> list[int]:
    if isinstance(found, Zone):  # one space or pile (Game.pile, written out)
        if game.reads is not None:
            game.reads.add(found)
        return list(game.state.zones.get(found, ()))
    keys = found or ()  # the cards in no space: none
    if game.reads is not None:  # (Game.pile of each, written out: a map's spaces are many)
        game.reads.update(keys)
    zones = game.state.zones
    return [uid for key in keys for uid in zones.get(key, ())]


@primitive(
    "count",
    "expression",
    template="the number of {coll}",
    example="count(hand)",
    returns="int",
    spelled="count",
    form="call",
    params=[Param("coll", "collection", arg=True)],
    roles={"size of": "coll"},
)
def count(node, gen):
    """How many cards a collection holds, or how many items a list attribute has."""
    apart = _apart(node.args["coll"], gen)
    if apart is not None:  # `X where it != v`: X's items less those that are v, with no list made
        items, value = apart
        code = gen.fill(
            "counted_apart({items}, {value})", counted_apart=gen.ref(counted_apart), items=items, value=value
        )
        return gen.known(code, number=True)
    return gen.known(gen.fill("len({items})", items=_items(node.args["coll"], gen)), number=True)


def _apart(coll, gen) -> tuple[ast.expr, ast.expr] | None:
    """The code of X and of v for a filter `X where it != v` (or `v != it`) of a list or tuple
    whose v is a name that cannot fail (a parameter, an item) or a constant: worked out once, not
    at each item, it must fail where the filter would, that is nowhere. None for any other."""
    test = coll.args["cond"] if getattr(coll, "op", None) == "where" else None
    if test is None or test.op != "compare" or test.args["op"] != "!=":
        return None
    sides = [test.args["left"], test.args["right"]]
    its = [side.op == "var" and side.args["name"] == "it" for side in sides]
    other = sides[its.index(False)] if its.count(True) == 1 else None
    if other is None or other.op not in ("var", "const"):
        return None
    value, items = gen.code(other), _items(coll.args["coll"], gen)
    if not gen.listing(items) or not (isinstance(value, ast.Name | ast.Constant) or _a_parameter(value)):
        return None  # (a list or tuple of items: counted_apart counts with list.count)
    return items, value


def _a_parameter(code: ast.expr) -> bool:
    """Whether code reads a remembered definition's parameter from its key (`key[1]`)."""
    return (
        isinstance(code, ast.Subscript)
        and isinstance(code.value, ast.Name)
        and code.value.id == "key"
        and isinstance(code.slice, ast.Constant)
    )


def counted_apart(items, value) -> int:
    """`len([item for item in items if item != value])` for a list or tuple, with no list made."""
    return len(items) - items.count(value)


_AGGREGATES: dict[str, Callable[[list], int]] = {"sum": sum, "min": min, "max": max}


@primitive(
    "aggregate",
    "expression",
    template="the {fn} of {expr} for each {var} in {coll}",
    example="sum(v.value for v in tucked)",
    returns="int",
    spelled=("sum", "min", "max"),
    form="comprehension",
    params=[
        Param("fn", "word", derived="spelling", doc="sum, min or max"),
        Param("expr", "int"),
        Param("var", "binding"),
        Param("coll", "cards"),
    ],
    binds=[Binds("expr", var="var", element_of="coll")],
)
def aggregate(node, gen):
    """Sum, minimum or maximum of a value computed for each card or space of a collection
    (values that are nothing are left out; 0 when none is left)."""
    item, items = gen.fresh("item"), _items(node.args["coll"], gen)
    value = gen.binding({node.args["var"]: item}, items).code(node.args["expr"])
    values = gen.fill(
        "[{value} for {item} in {items}]", value=value, item=ast.Name(item, ast.Load()), items=items
    )
    return gen.known(_reckoned(node.args["fn"], values, gen.number(value), 0, gen), number=True)


def _reckoned(fn: str, values: ast.expr, numbers: bool, none_left, gen) -> ast.expr:
    """`fn` (sum, min or max) of the values that are not nothing (e.g. the top of an empty
    space), `none_left` when none is: the builtin called in place, with no helper to call, on
    the values as they are when they are all `numbers` (never nothing)."""
    if not numbers:
        values = gen.fill(
            "filter({something}, {values})", something=gen.ref(_something, "something"), values=values
        )
    left = [] if fn == "sum" else [ast.keyword("default", ast.Constant(none_left))]  # (the sum of none is 0)
    return ast.Call(gen.ref(_AGGREGATES[fn]), [values], left)


# whether a value is not nothing: `filter`'s test, a call of C with none of Python's; named as a
# function is, for the generated module imports it by its name (codegen._defined)
_something = functools.partial(operator.is_not, None)
_something.__module__, _something.__qualname__ = __name__, "_something"  # type: ignore[attr-defined]


@primitive(
    "extreme",
    "expression",
    template="the {fn} of {items}",
    example="min(25, 5 * count(hand))",
    returns="int",
    spelled=("min", "max"),
    form="call",
    params=[
        Param("fn", "word", derived="spelling", doc="min or max"),
        Param("items", "int", arg="rest", doc="two numbers or more"),
    ],
)
def extreme(node, gen):
    """The smaller or larger of several numbers (those that are nothing left out; nothing if all are)."""
    items = [gen.code(item) for item in node.args["items"]]
    if all(map(gen.number, items)):  # none is ever nothing
        return gen.known(ast.Call(gen.ref(_AGGREGATES[node.args["fn"]]), items, []), number=True)
    code = _reckoned(node.args["fn"], ast.List(items, ast.Load()), False, None, gen)
    return gen.known(code, number=any(map(gen.number, items)))  # a number, unless all may be nothing


@primitive(
    "list",
    "expression",
    template="[{items}]",
    example="[for, against]",
    returns="list",
    form="list",
    params=[Param("items", "list")],
)
def list_(node, gen):
    """A list of values, e.g. the options of a choice or the awards of a ranking."""
    return gen.known(ast.List([gen.code(item) for item in node.args["items"]], ast.Load()), listing=True)


_COMPARE = {"=": ast.Eq, "!=": ast.NotEq, "<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE}
_ORDER = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def _existence(node, gen):
    """`count(C where P) > 0` (or `= 0`, `>= 1`, `!= 0`): stop at the first card that meets P
    instead of counting them all. Placement rules ask this of every space for every card in
    hand, so it is most of a turn's work."""
    op, left, right = node.args["op"], node.args["left"], node.args["right"]
    counted = role(left, "size of")  # read from the declarations: count's collection, a filter's parts
    if counted is None or not has_role(counted, "test") or not has_role(right, "literal"):
        return None
    wanted = {(">", 0): True, ("!=", 0): True, (">=", 1): True, ("=", 0): False, ("<", 1): False}.get(
        (op, role(right, "literal"))
    )
    if wanted is None:
        return None
    item = gen.fresh("it")
    items, test = _filtered(role(counted, "items"), role(counted, "test"), item, gen)
    found = (
        gen.fill("len({items}) > 0", items=items)
        if test is None
        else gen.fill(
            "any({test} for {item} in {items})", test=test, item=ast.Name(item, ast.Load()), items=items
        )
    )
    return found if wanted else ast.UnaryOp(ast.Not(), found)


@primitive(
    "compare",
    "expression",
    template="{left} {op} {right}",
    example="value >= 6",
    returns="bool",
    form="compare",
    roles={"reasons": ("left", "right")},
    params=[Param("op", "symbol"), Param("left", "value"), Param("right", "value")],
)
def compare(node, gen):
    """Compare two values with =, !=, <, <=, > or >= (a card without the attribute is never < or >)."""
    exists = _existence(node, gen)
    if exists is not None:
        return exists
    op, left, right = node.args["op"], gen.code(node.args["left"]), gen.code(node.args["right"])
    if op in ("=", "!="):
        return ast.Compare(left, [_COMPARE[op]()], [right])
    if not all(gen.number(side) or gen.simple(side) for side in (left, right)):  # each worked out once
        if gen.named:  # both sides, in order, then compared (each read again from its name)
            test = ast.Compare(left, [_COMPARE[op]()], [right])
            return ast.BoolOp(ast.And(), [_worked_out_both(left, right, ast.IsNot, ast.BitAnd), test])
        return gen.fill(
            "ordered({fn}, {left}, {right})",
            ordered=gen.ref(ordered),
            fn=gen.ref(_ORDER[op]),
            left=left,
            right=right,
        )
    test = ast.Compare(left, [_COMPARE[op]()], [right])
    checks = [gen.fill("{side} is not None", side=side) for side in (left, right) if _may_be_none(side, gen)]
    return ast.BoolOp(ast.And(), [*checks, test]) if checks else test


def _worked_out_both(left: ast.expr, right: ast.expr, test: type, joined: type) -> ast.expr:
    """`(left is None) | (right is None)` (`is not`, `&`): both sides worked out, in order, as
    `ordered` and `arithmetic` would be given them, whatever the first is. An expression's code
    (Gen.named) reads them again from the names reuse.py gives them; a constant (but nothing) is
    not tested."""
    tests = [
        ast.Compare(side, [test()], [ast.Constant(None)])
        for side in (left, right)
        if not (isinstance(side, ast.Constant) and side.value is not None)
    ]
    return tests[0] if len(tests) == 1 else ast.BinOp(tests[0], joined(), tests[1])


def _may_be_none(code: ast.expr, gen) -> bool:
    """Whether a value's code needs a test for nothing: not a number, nor a constant (a word
    where a file has one is never None, and `'oak' is None` is a warning to Python)."""
    return not gen.number(code) and not (isinstance(code, ast.Constant) and code.value is not None)


def ordered(fn, a, b) -> bool:
    return a is not None and b is not None and fn(a, b)


@primitive(
    "member",
    "expression",
    template="{item} is one of {items}",
    example="suit in [boreal, mangrove]",
    returns="bool",
    form="member",
    params=[Param("item", "value", arg=True), Param("items", "list", arg=True)],
)
def member(node, gen):
    """Whether a value is one of a list."""
    return ast.Compare(gen.code(node.args["item"]), [ast.In()], [gen.code(node.args["items"])])


@primitive(
    "has",
    "expression",
    template="{items} include {item}",
    example="icons has leaf",
    returns="bool",
    form="has",
    params=[Param("items", "value", arg=True), Param("item", "value", arg=True)],
)
def has(node, gen):
    """Whether a list attribute (such as icons) or a collection includes a value."""
    items, item = gen.code(node.args["items"]), gen.code(node.args["item"])
    if node.args["items"].op in ("attr", "printed") and gen.inert(item):
        # what a card prints (never a zone), for a word, a name or a bound space's row:
        # includes() in place (the item read first changes nothing: it can neither fail nor read
        # the state)
        return gen.fill("{item} in ({items} or ())", items=items, item=item)
    return gen.fill("includes(game, {items}, {item})", includes=gen.ref(includes), items=items, item=item)


def includes(game, held, item) -> bool:
    return item in (game.pile(held) if isinstance(held, Zone) else held or ())  # nothing has nothing


@primitive(
    "all_of",
    "expression",
    template="{items}",
    example="value > 3 and icons has leaf",
    returns="bool",
    form="and_",
    roles={"loose": "items", "reasons": "items"},
    params=[Param("items", "bool", arg="rest", joiner=" and ")],
)
def all_of(node, gen):
    """True when every part is true (`and`)."""
    return _joined(ast.And(), node, gen)


def _joined(op, node, gen):
    """`and` or `or` of the parts, each asked whether it holds; True or False as a value."""
    joined = ast.BoolOp(op, [gen.test(item) for item in node.args["items"]])
    return joined if gen.testing else ast.IfExp(joined, ast.Constant(True), ast.Constant(False))


@primitive(
    "any_of",
    "expression",
    template="{items}",
    example="suit = boreal or value = 1",
    returns="bool",
    form="or_",
    roles={"loose": "items", "reasons": "items"},
    params=[Param("items", "bool", arg="rest", joiner=" or ")],
)
def any_of(node, gen):
    """True when at least one part is true (`or`)."""
    return _joined(ast.Or(), node, gen)


@primitive(
    "negate",
    "expression",
    template="not {item}",
    example="not icons has water",
    returns="bool",
    form="not_",
    params=[Param("item", "bool", arg=True)],
    roles={"groups": "item", "reasons": "item"},
)
def negate(node, gen):
    """True when the part is false (`not`)."""
    return ast.UnaryOp(ast.Not(), gen.test(node.args["item"]))


_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.floordiv}
_ARITH_OPS = {"+": ast.Add, "-": ast.Sub, "*": ast.Mult, "/": ast.FloorDiv}


@primitive(
    "arith",
    "expression",
    template="{left} {op} {right}",
    example="count(hand) - 1",
    returns="int",
    form="arith",
    params=[Param("op", "symbol"), Param("left", "int"), Param("right", "int")],
)
def arith(node, gen):
    """Whole-number arithmetic: +, -, * and / (division rounds down, as rulebooks do); with
    nothing on either side (the attribute of no card) the result is nothing. A result beyond
    ±10^18 stops the game with an error naming the rule."""
    op, left, right = node.args["op"], gen.code(node.args["left"]), gen.code(node.args["right"])
    if not all(gen.number(side) or gen.simple(side) for side in (left, right)):  # each worked out once
        if gen.named:  # both sides, in order, then reckoned (each read again from its name)
            value = _bounded(ast.BinOp(left, _ARITH_OPS[op](), right), gen)
            return ast.IfExp(_worked_out_both(left, right, ast.Is, ast.BitOr), ast.Constant(None), value)
        return gen.fill(
            "arithmetic({fn}, {left}, {right})",
            arithmetic=gen.ref(arithmetic),
            fn=gen.ref(_ARITH[op]),
            left=left,
            right=right,
        )
    result = _bounded(ast.BinOp(left, _ARITH_OPS[op](), right), gen)
    checks = [gen.fill("{side} is None", side=side) for side in (left, right) if _may_be_none(side, gen)]
    if not checks:
        return gen.known(result, number=True)
    return ast.IfExp(
        ast.BoolOp(ast.Or(), checks) if len(checks) > 1 else checks[0], ast.Constant(None), result
    )


def _bounded(value: ast.BinOp, gen) -> ast.expr:
    """`bounded(value)`, its test written in place (`value if -L <= value <= L else bounded(value)`,
    a call saved) where the value costs less to work out again than a call: in an expression's
    code, which reuse.py gives the value a name (one node in three places), or of sides as cheap
    as a name."""
    call = gen.fill("bounded({value})", bounded=gen.ref(bounded), value=value)
    if not (gen.named or (gen.simple(value.left) and gen.simple(value.right))):
        return call
    limit = ast.BinOp(ast.Constant(10), ast.Pow(), ast.Constant(LIMIT_DIGITS))  # (compile() folds it)
    within = ast.Compare(ast.UnaryOp(ast.USub(), limit), [ast.LtE(), ast.LtE()], [value, limit])
    return ast.IfExp(within, value, call)


def arithmetic(fn, a, b) -> int | None:
    return None if a is None or b is None else bounded(fn(a, b))


@primitive(
    "spaces",
    "expression",
    template="the spaces of {name}",
    example="region",
    returns="spaces",
    form="name",
    params=[Param("name", "word"), _PER, Param("of", "player", required=False, doc="defaults to you")],
    reads=_owner_read,
)
def spaces(node, gen):
    """Every space of a grid zone, row by row in the declared order (a map's: only those it lays)."""
    code = gen.fill("game.rules.grids[{name}][{owner}]", name=node.args["name"], owner=_owner(node, gen))
    return gen.known(code, listing=True)  # a tuple of space keys


@primitive(
    "adjacent",
    "expression",
    template="the spaces that share a border with {space}",
    example="adjacent(space)",
    returns="spaces",
    spelled="adjacent",
    form="call",
    params=[Param("space", "space", arg=True)],
)
def adjacent(node, gen):
    """The spaces orthogonally next to a space (same row, next column; same column, next row)."""
    space = gen.code(node.args["space"])
    if not gen.simple(space):
        return gen.known(
            gen.fill("bordering(game, {space})", bordering=gen.ref(bordering), space=space), listing=True
        )
    read = gen.fill("game.rules.borders[{space}]", space=space)
    if _may_be_none(space, gen):
        read = gen.fill("() if {space} is None else {read}", space=space, read=read)
    return gen.known(read, listing=True)  # a tuple of space keys


def bordering(game, key) -> tuple:
    return game.rules.borders[key] if key is not None else ()


@primitive(
    "neighbours",
    "expression",
    template="the cards next to {card}",
    example="adjacent(card)",
    returns="cards",
    spelled="adjacent",
    form="call",
    params=[Param("card", "card", arg=True)],
)
def neighbours(node, gen):
    """The cards adjacent to a card in a grid: the others in its stack, and every card in the
    spaces sharing a border with its space (a card is not adjacent to itself)."""
    return gen.known(
        gen.fill("near(game, {card})", near=gen.ref(near), card=gen.code(node.args["card"])),
        listing=True,
        cards=True,
    )


def near(game, uid) -> list[int]:
    key = _location(game, uid)
    if key is None or game.rules.places[key].row is None:  # (not in a space: ZoneKey.space)
        return []
    same = [other for other in game.pile(key) if other != uid]
    return same + [other for space in game.rules.borders[key] for other in game.pile(space)]


@primitive(
    "space_part",
    "expression",
    template="the {part} of {space}",
    example="space.row",
    form="path",
    returns=_row_or_column,
    params=[Param("space", "space"), Param("part", "word", words=("row", "column"))],
)
def space_part(node, gen):
    """A space's row name or column number."""
    space, part = gen.code(node.args["space"]), node.args["part"]
    if gen.simple(space):  # a space bound to a name (`s.row` of each space a filter asks): in place
        read = gen.fill(_KEY_PART[part], space=space)
        return gen.known(gen.fill("None if {space} is None else {read}", space=space, read=read), inert=True)
    return gen.fill(
        "space_part_of({space}, {row})", space_part_of=gen.ref(space_part_of), space=space, row=part == "row"
    )


_KEY_PART = {"row": "game.rules.places[{space}].row", "column": "game.rules.places[{space}].column"}


def space_part_of(key, row: bool):
    if key is None:  # the space of a card in no grid: nothing
        return None
    parts = parse_key(key)
    return parts.row if row else parts.column


@primitive(
    "space_attr",
    "expression",
    template="the {name} of {space}",
    example="space.colour",
    form="path",
    params=[Param("space", "space"), Param("name", "word", words="space attributes")],
    roles={"settable": "name", "space attribute": "name"},
)
def space_attr(node, gen):
    """An attribute of a space: as the rules last set it, else as its map prints it (nothing when neither)."""
    space, name = gen.code(node.args["space"]), node.args["name"]
    if gen.module.settled(name):  # what the map prints, for good: no read to note
        if not gen.simple(space):
            return gen.fill(
                "printed_of(game, {key}, {name})", printed_of=gen.ref(printed_of), key=space, name=name
            )
        read = gen.fill("game.rules.printed_spaces[{key}].get({name})", key=space, name=name)
        return (
            gen.fill("None if {key} is None else {read}", key=space, read=read)
            if _may_be_none(space, gen)
            else read
        )
    if gen.simple(space) and _may_be_none(
        space, gen
    ):  # most reads: a bound space (`it.animal` of each space)
        return gen.fill("None if {key} is None else game.space_value({key}, {name})", key=space, name=name)
    return gen.fill(
        "space_value_of(game, {key}, {name})", space_value_of=gen.ref(space_value_of), key=space, name=name
    )


def space_value_of(game, key, name: str):
    return None if key is None else game.space_value(key, name)


def printed_of(game, key, name: str):
    return None if key is None else game.rules.printed_spaces[key].get(name)


@primitive(
    "top",
    "expression",
    template="the top [{count} cards|card] of {zone}",
    example="top(space)",
    returns=_card_or_cards,
    spelled="top",
    form="call",
    params=[
        Param("zone", "pile", arg=True, doc="a pile, a space, or a collection (its last card)"),
        Param(
            "count",
            "int",
            arg=True,
            required=False,
            doc="that many cards from the top, topmost first",
            least=0,
        ),
    ],
)
def top(node, gen):
    """The top card of a pile or space, or the last card of a collection (nothing when it is empty);
    with a count, the top cards (fewer if there are not so many)."""
    zone = gen.code(node.args["zone"])
    if node.args.get("count") is None:
        return _end_card(zone, -1, gen)
    count = gen.code(node.args["count"])
    return gen.known(
        gen.fill("top_cards(game, {zone}, {count})", top_cards=gen.ref(top_cards), zone=zone, count=count),
        listing=True,
    )


def top_cards(game, found, count: int) -> list[int]:
    pile = game.pile(found) if isinstance(found, str) else pile_of(game, found)
    return list(pile[len(pile) - max(0, min(count, len(pile))) :][::-1])


@primitive(
    "bottom",
    "expression",
    template="the bottom card of {zone}",
    example="bottom(space)",
    returns="card",
    spelled="bottom",
    form="call",
    params=[Param("zone", "pile", arg=True, doc="a pile, a space, or a collection (its first card)")],
)
def bottom(node, gen):
    """The bottom card of a pile or space, or the first card of a collection (nothing when it is empty)."""
    return _end_card(gen.code(node.args["zone"]), 0, gen)


def _end_card(zone, index: int, gen):
    """The code of a pile's card at one end: of a list or tuple (a filter's, a remembered
    definition's), taken in place, with no call (a placement rule may ask for the top card of
    each space hundreds of times a game)."""
    if gen.listing(zone):
        return gen.fill("({items} or (None,))[{index}]", items=zone, index=index)
    return gen.fill("end_card(game, {zone}, {index})", end_card=gen.ref(end_card), zone=zone, index=index)


def end_card(game, found, index: int):
    pile = game.pile(found) if isinstance(found, str) else pile_of(game, found)
    return pile[index] if pile else None


@primitive(
    "space_of",
    "expression",
    template="the space of {card}",
    example="card.space",
    returns="space",
    form="path",
    params=[Param("card", "card")],
)
def space_of(node, gen):
    """The space of a grid a card lies in (nothing when it is not in a grid)."""
    return gen.fill(
        "space_holding(game, {card})", space_holding=gen.ref(space_holding), card=gen.code(node.args["card"])
    )


def space_holding(game, uid):
    key = _location(game, uid)
    return key if key is not None and game.rules.places[key].row is not None else None  # (ZoneKey.space)


def _location(game, uid):
    """Where a card lies, noted as read (nothing for no card)."""
    key = game.state.location[uid] if uid is not None else None
    if key is not None and game.reads is not None:  # (Game.depends_on, written out)
        game.reads.add(key)
    return key


# ---- cards with several sides, and cards that hold other cards ----


@primitive(
    "sides",
    "expression",
    template="the sides of {card}",
    example="sides(card)",
    returns="list",
    spelled="sides",
    form="call",
    params=[Param("card", "card", arg=True)],
)
def sides(node, gen):
    """The names of a card's sides, in the order its kind declares them (`front` for a one-sided
    card; an empty list for no card): what a card split in halves may be played as."""
    card = gen.code(node.args["card"])
    if gen.simple(card):  # side_names, written out (asked of each card in hand, at every turn)
        code = gen.fill("[] if {uid} is None else [*game.rules.faces[{uid}].named]", uid=card)
    else:
        code = gen.fill("side_names(game, {card})", side_names=gen.ref(side_names), card=card)
    return gen.known(code, listing=True)


def side_names(game, uid) -> list[str]:
    """The names of a card's sides, in order (game.Sides holds them by name in that order)."""
    return [] if uid is None else [*game.rules.faces[uid].named]


@primitive(
    "printed",
    "expression",
    template="the {name} printed on the {side} side of {card}",
    example="printed(card, half, cost)",
    returns="value",
    spelled="printed",
    form="call",
    params=[
        Param("card", "card", arg=True),
        Param("side", "value", arg=True, doc="a side's name"),
        Param("name", "word", arg=True, words="attributes", doc="an int, enum or set attribute"),
    ],
)
def printed(node, gen):
    """An attribute as printed on one side of a card, whichever side is face up (nothing for no
    card, a side it does not have, or an attribute that side lacks): a half of a split card
    read in hand, before it is played."""
    card, side, name = gen.code(node.args["card"]), gen.code(node.args["side"]), node.args["name"]
    if gen.simple(card):  # printed_on, written out (a half of each card in hand, at every turn)
        return gen.fill(
            "None if {uid} is None else game.rules.faces[{uid}].named.get({side}, {none}).get({name})",
            uid=card,
            side=side,
            none=ast.Dict([], []),  # (what a side the card lacks prints)
            name=name,
        )
    return gen.fill(
        "printed_on(game, {card}, {side}, {name})",
        printed_on=gen.ref(printed_on),
        card=card,
        side=side,
        name=name,
    )


def printed_on(game, uid, wanted, name: str):
    """What a side of a card prints: nothing for no card, or a side it lacks (game.Sides)."""
    return None if uid is None else game.rules.faces[uid].named.get(wanted, {}).get(name)


@primitive(
    "holder",
    "expression",
    template="the card holding {card}",
    example="card.holder",
    returns="card",
    form="path",
    params=[Param("card", "card")],
)
def holder(node, gen):
    """The card a card lies in an attached zone of (`per: card`: a slot, a tuck), nothing
    when it lies anywhere else."""
    return gen.fill("holding(game, {card})", holding=gen.ref(holding), card=gen.code(node.args["card"]))


def holding(game, uid):
    key = _location(game, uid)
    return None if key is None else game.holder_of(key)


@primitive(
    "attached",
    "expression",
    template="the cards in the {name} of {cards}",
    example="tableau.slots",
    returns="cards",
    form="path",
    params=[Param("cards", "cards"), Param("name", "word", doc="a per-card zone")],
)
def attached(node, gen):
    """Every card in one attached zone (`per: card`) of each of some cards, card by card, each
    zone bottom up: all the cards held by a tableau's cards."""
    owner, uid = ast.Name(gen.fresh("owner"), ast.Load()), ast.Name(gen.fresh("uid"), ast.Load())
    code = gen.fill(
        "[{uid} for {owner} in {holders} for {uid} in game.pile({keys}[{owner}])]",
        uid=uid,
        owner=owner,
        holders=_items(node.args["cards"], gen),
        keys=gen.ref(owned_keys(node.args["name"]), "zone"),
    )
    return gen.known(code, listing=True, cards=True)


@primitive(
    "distinct",
    "expression",
    template="the different values of {expr} for each {var} in {coll}",
    example="distinct(c.suit for c in tableau)",
    returns="list",
    spelled="distinct",
    form="comprehension",
    params=[
        Param("fn", "word", derived="spelling"),
        Param("expr", "value"),
        Param("var", "binding"),
        Param("coll", "cards"),
    ],
    binds=[Binds("expr", var="var", element_of="coll")],
)
def distinct(node, gen):
    """The different values of an expression over a collection, in the order first met (nothing
    left out): `count(distinct(…))` is how many different kinds of card there are."""
    item, items = gen.fresh("item"), _items(node.args["coll"], gen)
    code = gen.fill(
        "different([{value} for {item} in {items}])",
        different=gen.ref(different),
        value=gen.binding({node.args["var"]: item}, items).code(node.args["expr"]),
        item=ast.Name(item, ast.Load()),
        items=items,
    )
    return gen.known(code, listing=True)


def different(values: list) -> list:
    found: list = []
    for value in values:
        if value is not None and value not in found:  # few values, maybe unhashable (sets)
            found.append(value)
    return found


@primitive(
    "nth",
    "expression",
    template="item {n} of {items}",
    example="nth([30, 50, 70, 90], count(players))",
    returns=_item,
    spelled="nth",
    form="call",
    params=[Param("items", "list", arg=True), Param("n", "int", arg=True, doc="counted from 1", least=1)],
)
def nth(node, gen):
    """The item at a place in a list, counted from 1 (nothing past either end): a value per
    player count, per round …"""
    return gen.fill(
        "item_at({items}, {n})",
        item_at=gen.ref(item_at),
        items=gen.code(node.args["items"]),
        n=gen.code(node.args["n"]),
    )


def item_at(found, at):
    return found[at - 1] if found is not None and at is not None and 1 <= at <= len(found) else None


@primitive(
    "module_on",
    "expression",
    template="the {module} module is on",
    example="module(expansion)",
    returns="bool",
    spelled="module",
    form="call",
    params=[Param("module", "word", arg=True, words="modules", doc="a module of the game")],
)
def module_on(node, gen):
    """Whether a module is switched on in this game (fixed when the game starts): setup that
    depends on the expansions in play."""
    return gen.fill("{name} in game.rules.modules", name=node.args["module"])


@primitive(
    "option",
    "expression",
    template="the {option} chosen",
    example="option(tier)",
    returns="word",
    spelled="option",
    form="call",
    params=[Param("option", "word", arg=True, words="options", doc="a setup option of the game or a module")],
)
def option(node, gen):
    """The value chosen for a setup option when the game started (`--set NAME=VALUE`), or its
    default: compare it with one of its values, `option(tier) = gold`."""
    return gen.fill("game.rules.options[{name}]", name=node.args["option"])
