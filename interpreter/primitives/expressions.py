"""Expressions: values, card attributes, zones as collections, filters, counts and arithmetic.

Each handler receives its IR node and `build` (which compiles a child node) and returns an
Expr, `fn(game, env) -> value` (see runtime.py). `env` holds the bindings in scope: `you`
(the seat acting), `it` (the card a condition is testing) and every name bound by
choose/for/repeat. An expression reads the state through the game (`game.pile`,
`game.depends_on` …), so that a remembered value knows what it depends on.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from functools import partial

from ..registry import IT, REGISTRY, Binds, Param, face_form, free_names, has_role, primitive, role
from ..runtime import UnhashableKey, bounded
from ..state import SCORES, Zone, parse_key, zone_key


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
    if isinstance(value, Zone):
        return game.pile(value)
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
def const(node, build):
    """A literal: a number, a word, or a list of them."""
    value = node.args["value"]
    return lambda game, env: value


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
def hole(node, build):
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
def var(node, build):
    """A name bound by `choose`, `for`, `repeat` or `each player` (`you`), or `it` in a condition."""
    name = node.args["name"]
    return lambda game, env: env[name]


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
def zone(node, build):
    """A zone: shared, one per player (the acting player's unless `of` says whose) or attached to a card."""
    return owned_key(node, build)


def owned_key(node, build):
    """The key of a zone or counter: its name, or name/owner for one per player or per card."""
    name, per = node.args["name"], node.args["per"]
    if per == "shared":
        key = Zone(name)
        return lambda game, env: key
    owner = build(node.args["of"]) if node.args.get("of") else None
    default = "you" if per == "player" else "it"
    if owner is None:
        return lambda game, env: zone_key(name, env[default])
    return lambda game, env: zone_key(name, owner(game, env))


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
def counter(node, build):
    """A counter's value: shared, or one per player (the acting player's unless `of` says whose)."""
    key = owned_key(node, build)

    def value(game, env):
        where = key(game, env)
        game.depends_on("#" + where)
        return game.state.counters.get(where, 0)

    return value


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
def attr(node, build):
    """A printed attribute of a card's face-up side, or one of: id, name, kind, side, face (up or down),
    effects (the names of the effects and numbers printed on it)."""
    of, name = build(node.args["of"]), node.args["name"]
    bound = role(node.args["of"], "bound name")
    if bound is not None and name not in (
        "face",
        "effects",
    ):  # most reads: a printed attribute of a bound card

        def printed(game, env):
            uid = env[bound]
            return None if uid is None else game.rules.faces[uid][game.state.side[uid]].get(name)

        return printed
    return lambda game, env: game.attribute(of(game, env), name)


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
def computed(node, build):
    """A number printed on a card, as a whole number or an expression worked out when read, with
    `it` the card and the names its attribute sees (0 for no card, or a card without it)."""
    of, name = build(node.args["of"]), node.args["name"]
    given = list(zip(node.args.get("sees") or (), [build(g) for g in node.args.get("given") or ()]))

    def value(game, env):
        uid = of(game, env)
        number = game.printed(uid, name) if uid is not None else None
        if number is None:
            return 0
        return number(game, {**env, **{seen: g(game, env) for seen, g in given}, "it": uid})

    return value


@primitive(
    "let_in",
    "expression",
    template="{define}[({values})]",
    example="near(card, space)",
    returns="value",
    form="definition",
    binds=[Binds("body", var="names", type_of="values")],
    roles={"shared body": "body", "body number": "variant"},
    params=[
        Param("define", "word", doc="the definition's name"),
        Param("variant", "int", required=False, doc="which lowering of it (one per scope it is used in)"),
        Param("names", "binding", doc="the hidden names its parameters are bound to"),
        Param("values", "list"),
        Param("body", "value"),
    ],
)
def let_in(node, build):
    """A definition with parameters, used: the values passed are worked out first, then the
    definition's text with its parameters standing for them. Its value is remembered until the
    state next changes (placement rules ask the same question of every card and space)."""
    names, body = node.args["names"], build(node.args["body"])
    reads = tuple(sorted(free_names(node.args["body"]) - set(names)))
    # every use of one variant shares its values: the key is the variant, the values passed and
    # the surroundings its text reads, in one flat tuple (a string's hash is kept, a tuple's is not)
    keyed = _key_of(f"{node.args['define']}#{node.args.get('variant')}", node.args["values"], reads, build)
    arity, given = len(names), slice(1, 1 + len(names))
    first, second = (*names, None, None)[:2]

    def evaluate(game, env, key):
        # bound in place, then unbound: no copy (names no text can spell, and a definition never
        # uses itself); one or two parameters, the common case, without a slice
        if arity == 2:
            env[first], env[second] = key[1], key[2]
        elif arity == 1:
            env[first] = key[1]
        elif arity:
            env.update(zip(names, key[given]))
        try:
            value = body(game, env)
        finally:
            for n in names:
                del env[n]
        return (
            tuple(value) if isinstance(value, list) else value
        )  # shared by every use: never changed in place

    def value(game, env):
        key = keyed(game, env)
        try:
            return game.remembered(key, evaluate, game, env, key)
        except UnhashableKey:  # a collection was passed: work it out afresh
            return evaluate(game, env, key)

    return value


def _key_of(token: str, values, reads: tuple, build):
    """(game, env) -> (token, the values passed…, the surroundings read…): one or two names
    passed as they are, with at most one name read around them (the common case,
    `can_grow(card, it)`, `plants(it)`), are read straight from env."""
    passed = [role(v, "bound name") for v in values]
    if None not in passed and 1 <= len(passed) <= 2 and len(reads) <= 1:
        first, second = (*passed, None)[:2]
        if reads:
            (read,) = reads
            if second is None:
                return lambda game, env: (token, env[first], env.get(read))
            return lambda game, env: (token, env[first], env[second], env.get(read))
        if second is None:
            return lambda game, env: (token, env[first])
        return lambda game, env: (token, env[first], env[second])
    if not values and len(reads) <= 2:
        if not reads:
            key = (token,)
            return lambda game, env: key
        first, second = (*reads, None)[:2]
        if second is None:
            return lambda game, env: (token, env.get(first))
        return lambda game, env: (token, env.get(first), env.get(second))
    compiled = [build(v) for v in values]
    return lambda game, env: (token, *[v(game, env) for v in compiled], *[env.get(n) for n in reads])


@primitive(
    "if_else",
    "expression",
    template="{then} if {cond}, otherwise {other}",
    example="2 if value > 3 else 0",
    returns=_as_then,
    form="if_else",
    params=[Param("cond", "bool"), Param("then", "value"), Param("other", "value")],
)
def if_else(node, build):
    """One value or another, by a condition."""
    cond, then, other = build(node.args["cond"]), build(node.args["then"]), build(node.args["other"])
    return lambda game, env: then(game, env) if cond(game, env) else other(game, env)


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
def mark(node, build):
    """A mark set on a card by `set` or `rank` (cleared when the card moves)."""
    of, name, default = build(node.args["of"]), node.args["name"], node.args["default"]

    def value(game, env):
        uid = of(game, env)
        return game.marks_of(uid).get(name, default) if uid is not None else default

    return value


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
def meets(node, build):
    """Whether `it` meets a condition printed on another card (e.g. what a card prefers)."""
    of, name = build(node.args["of"]), node.args["name"]
    return lambda game, env: game.condition(of(game, env), name)(game, env)


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
def player(node, build):
    """A seat relative to the acting player (left is the next seat clockwise) or a marker's holder."""
    rel = node.args["rel"]
    step = {"you": 0, "left": 1, "right": -1}.get(rel)
    if step is None:

        def holder(game, env):
            game.depends_on("@" + rel)
            return game.state.markers[rel]

        return holder
    return lambda game, env: (env["you"] + step) % game.state.players


@primitive(
    "players",
    "expression",
    template="the players",
    example="max(p.coins for p in players)",
    returns="players",
    form="name",
)
def players(node, build):
    """Every seat, in turn order from the first player: to compare players (most, none has more)."""

    def seats(game, env):
        game.depends_on("@first")
        n, first = game.state.players, game.state.markers["first"]
        return [(first + i) % n for i in range(n)]

    return seats


@primitive(
    "points",
    "expression",
    template="the score of {of}",
    example="you.score",
    returns="int",
    form="path",
    params=[Param("of", "player")],
)
def points(node, build):
    """The points a player has scored so far (e.g. to compare with a solitaire target)."""
    of = build(node.args["of"])

    def value(game, env):
        game.depends_on(SCORES)
        return game.state.scores[of(game, env)]

    return value


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
def where(node, build):
    """The cards of a collection that meet a condition (`it` is each card in turn)."""
    coll, cond, tests = (
        build(node.args["coll"]),
        build(node.args["cond"]),
        _face_test(node.args["cond"], build),
    )

    def select(game, env):
        items = pile_of(game, coll(game, env))
        test = tests(game, env) if tests else None
        if test is not None:
            faces, side = game.rules.faces, game.state.side
            return [uid for uid in items if test(faces[uid][side[uid]] if uid is not None else _NO_FACE)]
        saved, kept = env.get("it"), []
        for uid in items:
            env["it"] = uid
            if cond(game, env):
                kept.append(uid)
        env["it"] = saved
        return kept

    return select


@primitive(
    "union",
    "expression",
    template="{items}",
    example="hand + stored",
    returns="cards",
    form="arith",
    params=[Param("items", "list", joiner=" and ")],
)
def union(node, build):
    """Cards of several collections together (`a + b`), e.g. everything a cost may be paid from."""
    items = [build(item) for item in node.args["items"]]
    return lambda game, env: [uid for item in items for uid in pile_of(game, item(game, env))]


@primitive(
    "joined_spaces",
    "expression",
    template="{items}",
    example="adjacent(a) + adjacent(b)",
    returns="spaces",
    form="arith",
    params=[Param("items", "list", joiner=" and ")],
)
def joined_spaces(node, build):
    """Spaces of several lists together, each once, in the order first met (`adjacent(a) + adjacent(b)`)."""
    items = [build(item) for item in node.args["items"]]

    def every(game, env):
        found = (item(game, env) for item in items)
        return tuple(
            dict.fromkeys(
                key
                for keys in found
                if keys is not None
                for key in ((keys,) if isinstance(keys, Zone) else keys)
            )
        )

    return every


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
def contents(node, build):
    """Every card in some spaces (or piles), each pile from the bottom up."""
    places = build(node.args["spaces"])

    def every(game, env):
        found = places(game, env)
        keys = [found] if isinstance(found, Zone) else found or ()  # the cards in no space: none
        return [uid for key in keys for uid in game.pile(key)]

    return every


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
def count(node, build):
    """How many cards a collection holds, or how many items a list attribute has."""
    coll = build(node.args["coll"])
    return lambda game, env: len(pile_of(game, coll(game, env)))


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
def aggregate(node, build):
    """Sum, minimum or maximum of a value computed for each card or space of a collection
    (values that are nothing are left out; 0 when none is left)."""
    fn, expr, name, coll = (
        _AGGREGATES[node.args["fn"]],
        build(node.args["expr"]),
        node.args["var"],
        build(node.args["coll"]),
    )

    def total(game, env):
        inner = dict(env)
        values = []
        for uid in pile_of(game, coll(game, env)):
            inner[name] = uid
            values.append(expr(game, inner))
        values = [value for value in values if value is not None]  # e.g. the top of an empty space
        return fn(values) if values else 0

    return total


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
def extreme(node, build):
    """The smaller or larger of several numbers (those that are nothing left out; nothing if all are)."""
    fn, items = _AGGREGATES[node.args["fn"]], [build(item) for item in node.args["items"]]

    def value(game, env):
        found = [v for v in (item(game, env) for item in items) if v is not None]
        return fn(found) if found else None

    return value


@primitive(
    "list",
    "expression",
    template="[{items}]",
    example="[for, against]",
    returns="list",
    form="list",
    params=[Param("items", "list")],
)
def list_(node, build):
    """A list of values, e.g. the options of a choice or the awards of a ranking."""
    items = [build(item) for item in node.args["items"]]
    return lambda game, env: [item(game, env) for item in items]


_COMPARE = {
    "=": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def _existence(node):
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

    def compiled(build):
        coll, cond = build(role(counted, "items")), build(role(counted, "test"))
        tests = _face_test(role(counted, "test"), build)

        def found(game, env):
            items = pile_of(game, coll(game, env))
            test = tests(game, env) if tests else None
            if test is not None:
                faces, side = game.rules.faces, game.state.side
                hit = any(test(faces[uid][side[uid]] if uid is not None else _NO_FACE) for uid in items)
                return hit == wanted
            saved, hit = env.get("it"), False
            for uid in items:
                env["it"] = uid
                if cond(game, env):
                    hit = True
                    break
            env["it"] = saved
            return hit == wanted

        return found

    return compiled


@primitive(
    "compare",
    "expression",
    template="{left} {op} {right}",
    example="value >= 6",
    returns="bool",
    form="compare",
    params=[Param("op", "symbol"), Param("left", "value"), Param("right", "value")],
)
def compare(node, build):
    """Compare two values with =, !=, <, <=, > or >= (a card without the attribute is never < or >)."""
    exists = _existence(node)
    if exists is not None:
        return exists(build)
    op, left, right = node.args["op"], build(node.args["left"]), build(node.args["right"])
    fn = _COMPARE[op]
    if op in ("=", "!=") and has_role(node.args["right"], "literal"):  # `kind = plant`: asked of every card
        value, equal = role(node.args["right"], "literal"), op == "="
        return lambda game, env: (left(game, env) == value) is equal
    if op in ("=", "!="):
        return lambda game, env: fn(left(game, env), right(game, env))

    def ordered(game, env):
        a, b = left(game, env), right(game, env)
        return a is not None and b is not None and fn(a, b)

    return ordered


@primitive(
    "member",
    "expression",
    template="{item} is one of {items}",
    example="suit in [boreal, mangrove]",
    returns="bool",
    form="member",
    params=[Param("item", "value", arg=True), Param("items", "list", arg=True)],
)
def member(node, build):
    """Whether a value is one of a list."""
    item, items = build(node.args["item"]), build(node.args["items"])
    return lambda game, env: item(game, env) in items(game, env)


@primitive(
    "has",
    "expression",
    template="{items} include {item}",
    example="icons has leaf",
    returns="bool",
    form="has",
    params=[Param("items", "value", arg=True), Param("item", "value", arg=True)],
)
def has(node, build):
    """Whether a list attribute (such as icons) or a collection includes a value."""
    items, item = build(node.args["items"]), build(node.args["item"])

    def test(game, env):
        held = items(game, env)
        return item(game, env) in (
            game.pile(held) if isinstance(held, Zone) else held or ()
        )  # nothing has nothing

    return test


@primitive(
    "all_of",
    "expression",
    template="{items}",
    example="value > 3 and icons has leaf",
    returns="bool",
    form="and_",
    roles={"loose": "items"},
    params=[Param("items", "bool", arg="rest", joiner=" and ")],
)
def all_of(node, build):
    """True when every part is true (`and`)."""
    items = [build(item) for item in node.args["items"]]
    if len(items) == 2:  # the common case, without a generator per test
        first, second = items
        return lambda game, env: True if first(game, env) and second(game, env) else False
    return lambda game, env: all(item(game, env) for item in items)


@primitive(
    "any_of",
    "expression",
    template="{items}",
    example="suit = boreal or value = 1",
    returns="bool",
    form="or_",
    roles={"loose": "items"},
    params=[Param("items", "bool", arg="rest", joiner=" or ")],
)
def any_of(node, build):
    """True when at least one part is true (`or`)."""
    items = [build(item) for item in node.args["items"]]
    if len(items) == 2:
        first, second = items
        return lambda game, env: True if first(game, env) or second(game, env) else False
    return lambda game, env: any(item(game, env) for item in items)


@primitive(
    "negate",
    "expression",
    template="not {item}",
    example="not icons has water",
    returns="bool",
    form="not_",
    params=[Param("item", "bool", arg=True)],
    roles={"groups": "item"},
)
def negate(node, build):
    """True when the part is false (`not`)."""
    item = build(node.args["item"])
    return lambda game, env: not item(game, env)


_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.floordiv}


@primitive(
    "arith",
    "expression",
    template="{left} {op} {right}",
    example="count(hand) - 1",
    returns="int",
    form="arith",
    params=[Param("op", "symbol"), Param("left", "int"), Param("right", "int")],
)
def arith(node, build):
    """Whole-number arithmetic: +, -, * and / (division rounds down, as rulebooks do); with
    nothing on either side (the attribute of no card) the result is nothing. A result beyond
    ±10^18 stops the game with an error naming the rule."""
    fn, left, right = _ARITH[node.args["op"]], build(node.args["left"]), build(node.args["right"])

    def compute(game, env):
        a, b = left(game, env), right(game, env)
        return None if a is None or b is None else bounded(fn(a, b))

    return compute


# ---- grids: zones of named rows × columns of spaces, each space a pile (a stack) ----


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
def spaces(node, build):
    """Every space of a grid zone, row by row in the declared order (a map's: only those it lays)."""
    owner, name = owned_key(node, build), node.args["name"]

    def every(game, env):
        return game.rules.grid_spaces(name, parse_key(owner(game, env)).owner)

    return every


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
def adjacent(node, build):
    """The spaces orthogonally next to a space (same row, next column; same column, next row)."""
    space = build(node.args["space"])

    def bordering(game, env):
        key = space(game, env)
        return game.rules.bordering(key) if key is not None else ()

    return bordering


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
def neighbours(node, build):
    """The cards adjacent to a card in a grid: the others in its stack, and every card in the
    spaces sharing a border with its space (a card is not adjacent to itself)."""
    card = build(node.args["card"])

    def near(game, env):
        uid = card(game, env)
        key = game.state.location[uid] if uid is not None else None
        if key is None:
            return []
        game.depends_on(key)
        if not parse_key(key).space:
            return []
        same = [other for other in game.pile(key) if other != uid]
        return same + [other for space in game.rules.bordering(key) for other in game.pile(space)]

    return near


@primitive(
    "space_part",
    "expression",
    template="the {part} of {space}",
    example="space.row",
    form="path",
    returns=_row_or_column,
    params=[Param("space", "space"), Param("part", "word", words=("row", "column"))],
)
def space_part(node, build):
    """A space's row name or column number."""
    space, part = build(node.args["space"]), node.args["part"]

    def value(game, env):
        key = space(game, env)
        if key is None:  # the space of a card in no grid: nothing
            return None
        parts = parse_key(key)
        return parts.row if part == "row" else parts.column

    return value


@primitive(
    "space_attr",
    "expression",
    template="the {name} of {space}",
    example="space.colour",
    form="path",
    params=[Param("space", "space"), Param("name", "word", words="space attributes")],
    roles={"settable": "name", "space attribute": "name"},
)
def space_attr(node, build):
    """An attribute of a space: as the rules last set it, else as its map prints it (nothing when neither)."""
    space, name = build(node.args["space"]), node.args["name"]
    bound = role(node.args["space"], "bound name")
    if bound is not None:  # most reads: a bound space (`it.animal` asked of every space of a board)

        def of_bound(game, env):
            key = env[bound]
            return None if key is None else game.space_value(key, name)

        return of_bound

    def value(game, env):
        key = space(game, env)
        return None if key is None else game.space_value(key, name)

    return value


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
def top(node, build):
    """The top card of a pile or space, or the last card of a collection (nothing when it is empty);
    with a count, the top cards (fewer if there are not so many)."""
    if node.args.get("count") is None:
        return _end(build(node.args["zone"]), -1)
    zone, count = build(node.args["zone"]), build(node.args["count"])

    def some(game, env):
        found = zone(game, env)
        pile = game.pile(found) if isinstance(found, str) else pile_of(game, found)
        return list(pile[len(pile) - max(0, min(count(game, env), len(pile))) :][::-1])

    return some


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
def bottom(node, build):
    """The bottom card of a pile or space, or the first card of a collection (nothing when it is empty)."""
    return _end(build(node.args["zone"]), 0)


def _end(zone, index: int):
    def card(game, env):
        found = zone(game, env)
        pile = game.pile(found) if isinstance(found, str) else pile_of(game, found)
        return pile[index] if pile else None

    return card


@primitive(
    "space_of",
    "expression",
    template="the space of {card}",
    example="card.space",
    returns="space",
    form="path",
    params=[Param("card", "card")],
)
def space_of(node, build):
    """The space of a grid a card lies in (nothing when it is not in a grid)."""
    return _by_location(build(node.args["card"]), lambda game, key: key if parse_key(key).space else None)


def _by_location(card, read):
    """An expression of where a card lies: `read(game, key)` of its zone's key (nothing for no card)."""

    def value(game, env):
        uid = card(game, env)
        key = game.state.location[uid] if uid is not None else None
        if key is None:
            return None
        game.depends_on(key)
        return read(game, key)

    return value


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
def sides(node, build):
    """The names of a card's sides, in the order its kind declares them (`front` for a one-sided
    card; an empty list for no card): what a card split in halves may be played as."""
    card = build(node.args["card"])

    def names(game, env):
        uid = card(game, env)
        return [] if uid is None else [face["side"] for face in game.rules.faces[uid]]

    return names


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
def printed(node, build):
    """An attribute as printed on one side of a card, whichever side is face up (nothing for no
    card, a side it does not have, or an attribute that side lacks): a half of a split card
    read in hand, before it is played."""
    card, side, name = build(node.args["card"]), build(node.args["side"]), node.args["name"]

    def value(game, env):
        uid, wanted = card(game, env), side(game, env)
        if uid is None:
            return None
        face = next((face for face in game.rules.faces[uid] if face["side"] == wanted), _NO_FACE)
        return face.get(name)

    return value


@primitive(
    "holder",
    "expression",
    template="the card holding {card}",
    example="card.holder",
    returns="card",
    form="path",
    params=[Param("card", "card")],
)
def holder(node, build):
    """The card a card lies in an attached zone of (`per: card`: a slot, a tuck), nothing
    when it lies anywhere else."""
    return _by_location(build(node.args["card"]), lambda game, key: game.holder_of(key))


@primitive(
    "attached",
    "expression",
    template="the cards in the {name} of {cards}",
    example="tableau.slots",
    returns="cards",
    form="path",
    params=[Param("cards", "cards"), Param("name", "word", doc="a per-card zone")],
)
def attached(node, build):
    """Every card in one attached zone (`per: card`) of each of some cards, card by card, each
    zone bottom up: all the cards held by a tableau's cards."""
    holders, name = build(node.args["cards"]), node.args["name"]

    def every(game, env):
        return [
            uid for owner in pile_of(game, holders(game, env)) for uid in game.pile(zone_key(name, owner))
        ]

    return every


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
def distinct(node, build):
    """The different values of an expression over a collection, in the order first met (nothing
    left out): `count(distinct(…))` is how many different kinds of card there are."""
    expr, name, coll = build(node.args["expr"]), node.args["var"], build(node.args["coll"])

    def values(game, env):
        inner, found = dict(env), []
        for item in pile_of(game, coll(game, env)):
            inner[name] = item
            value = expr(game, inner)
            if value is not None and value not in found:  # few values, maybe unhashable (sets)
                found.append(value)
        return found

    return values


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
def nth(node, build):
    """The item at a place in a list, counted from 1 (nothing past either end): a value per
    player count, per round …"""
    items, n = build(node.args["items"]), build(node.args["n"])

    def pick(game, env):
        found, at = items(game, env), n(game, env)
        return found[at - 1] if found is not None and at is not None and 1 <= at <= len(found) else None

    return pick


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
def module_on(node, build):
    """Whether a module is switched on in this game (fixed when the game starts): setup that
    depends on the expansions in play."""
    name = node.args["module"]

    def on(game, env):
        return name in game.rules.modules

    return on


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
def option(node, build):
    """The value chosen for a setup option when the game started (`--set NAME=VALUE`), or its
    default: compare it with one of its values, `option(tier) = gold`."""
    name = node.args["option"]

    def chosen(game, env):
        return game.rules.options[name]

    return chosen


# ---- conditions on the printed face of the card in view ----
# A condition that reads nothing but the printed attributes of `it` and literals (`kind = plant`,
# a printed condition such as `value >= 6 or icons has leaf`) is compiled a second time, as a function of the
# card's face (the dict of its face-up side's attributes): `where` and `count(… where …) > 0`
# run it on each card without binding `it`. tests/test_face.py holds each form to its primitive.

_NO_FACE: dict = {}  # the face of no card: every attribute nothing


def on_face(node):
    """The expression as a function of the face of `it`, or None when it reads anything else."""
    primitive = REGISTRY.get(getattr(node, "op", ""))
    return primitive.face(node) if primitive is not None and primitive.face is not None else None


def _face_test(cond, build):
    """For a condition asked of each card: `(game, env) -> face test or None`, or None when it is
    never one. A printed condition of another card (`c.prefers`) is one when that card's is."""
    test = on_face(cond)
    if test is not None:
        return lambda game, env: test
    if has_role(cond, "printed condition") and "it" not in free_names(role(cond, "of card")):
        of, name = build(role(cond, "of card")), role(cond, "printed condition")
        return lambda game, env: game.condition_on_face(of(game, env), name)
    return None


def _parts_on_face(node, *names):
    parts = [on_face(node.args[name]) for name in names]
    return None if None in parts else parts


@face_form("const")
def _const_on_face(node):
    value = node.args["value"]
    return lambda face: value


@face_form("attr")
def _attr_on_face(node):
    name = node.args["name"]
    if role(node.args["of"], "bound name") != "it" or name in ("face", "effects"):  # state, not print
        return None
    return lambda face: face.get(name)


def _printed_and_literal(node, printed: str, literal: str):
    """(attribute name, value) when the part `printed` is a printed attribute of `it` and the part
    `literal` a literal (`kind = plant`, `icons has leaf`): tested with one closure, not three."""
    attribute, constant = node.args[printed], node.args[literal]
    if (
        on_face(attribute) is None
        or not has_role(attribute, "attribute")
        or not has_role(constant, "literal")
    ):
        return None
    return role(attribute, "attribute"), role(constant, "literal")


@face_form("compare")
def _compare_on_face(node):
    parts = _parts_on_face(node, "left", "right")
    if parts is None:
        return None
    (left, right), op = parts, node.args["op"]
    fn = _COMPARE[op]
    simple = _printed_and_literal(node, "left", "right")
    if simple is not None and op in ("=", "!="):
        (name, value), equal = simple, op == "="
        return lambda face: (face.get(name) == value) is equal
    if simple is not None and simple[1] is not None:
        name, value = simple

        def printed(face):
            a = face.get(name)
            return a is not None and fn(a, value)

        return printed
    if op in ("=", "!="):
        return lambda face: fn(left(face), right(face))

    def ordered(face):
        a, b = left(face), right(face)
        return a is not None and b is not None and fn(a, b)

    return ordered


@face_form("member")
def _member_on_face(node):
    parts = _parts_on_face(node, "item", "items")
    if parts is None:
        return None
    item, items = parts
    return lambda face: item(face) in items(face)


@face_form("has")
def _has_on_face(node):
    parts = _parts_on_face(node, "items", "item")
    if parts is None:
        return None
    items, item = parts
    simple = _printed_and_literal(node, "items", "item")
    if simple is not None:
        name, value = simple
        return lambda face: value in (face.get(name) or ())
    return lambda face: item(face) in (items(face) or ())


def _joined_on_face(every: bool, node):
    """`and` (every part true) or `or` (any part true), stopping at the first part that decides."""
    items = [on_face(item) for item in node.args["items"]]
    if None in items:
        return None
    if len(items) == 2:
        first, second = items
        if every:
            return lambda face: True if first(face) and second(face) else False
        return lambda face: True if first(face) or second(face) else False
    fn = all if every else any
    return lambda face: fn(item(face) for item in items)


@face_form("list")
def _list_on_face(node):
    items = [on_face(item) for item in node.args["items"]]
    if None in items:
        return None
    if all(has_role(item, "literal") for item in node.args["items"]):  # `suit in [boreal, temperate]`
        values = [role(item, "literal") for item in node.args["items"]]
        return lambda face: values
    return lambda face: [item(face) for item in items]


@face_form("negate")
def _negate_on_face(node):
    item = on_face(node.args["item"])
    return None if item is None else lambda face: not item(face)


@face_form("count")
def _count_on_face(node):
    coll = on_face(node.args["coll"])
    return None if coll is None else lambda face: len(pile_of(None, coll(face)))


@face_form("arith")
def _arith_on_face(node):
    parts = _parts_on_face(node, "left", "right")
    if parts is None:
        return None
    (left, right), fn = parts, _ARITH[node.args["op"]]

    def compute(face):
        a, b = left(face), right(face)
        return None if a is None or b is None else fn(a, b)

    return compute


face_form("all_of")(partial(_joined_on_face, True))
face_form("any_of")(partial(_joined_on_face, False))
