"""The one registry of primitives.

Each primitive is declared once, on its handler: its parameters (name, type, how each is
written), how the primitive is spelled in the rules, its result type, the names it binds,
its English, documentation and an example. The compiler's grammar keywords, lowerer, type
checker and binder analysis, the English renderer and the reference docs all read these
declarations; the interpreter builds each rule through the same handlers (an expression's
handler generates its code, codegen.py; an action's or flow step's returns a closure).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field

# Parameter types the compiler checks. "cards" accepts a zone or any collection of cards;
# "collection" cards, a list, spaces or players; "pile" a pile, a space or cards; "places" spaces
# or a pile; "numbers" a list of whole numbers. "word" takes one bare word from `words`: a fixed
# tuple, or a category the game declares ("marks", "sides", "markers"). "amount" is a number or
# `all` (from the top of a zone) or cards; "target" is a card's mark (card.name) or a counter.
# "symbol" is an operator (=, +, …); "binding" a name the primitive binds; "flag" a YAML true or
# false; "text" a string the compiler writes; "procedures" names of procedures, each maybe with a
# condition ("conditions"). A `per_card` parameter is computed once per card, as `it`: always
# (True), or when the parameter it names is given (e.g. "per").
TYPES = (
    "int",
    "bool",
    "value",
    "card",
    "cards",
    "zone",
    "player",
    "list",
    "word",
    "binding",
    "amount",
    "target",
    "block",
    "effect",
    "space",
    "spaces",
    "players",
    "collection",
    "pile",
    "places",
    "symbol",
    "procedures",
    "conditions",
    "numbers",
    "text",
    "flag",
)

# How a parameter is written, besides a statement's first value and its `prep` keyword:
#   key="do"          the YAML key that holds it in a flow step written as a mapping;
#   arg=True          an argument of a function call, or an operand of a grammar rule (in
#                     declaration order); arg="rest": all the others;
#   derived="…"       not written: "spelling" (which of the primitive's spellings was used),
#                     "compiler" (filled in by the compiler), or the name of the parameter it replaces.


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type: str
    prep: str | None = None  # keyword that introduces it in a statement; None: the first value
    required: bool = True
    doc: str = ""
    words: tuple | str = ()
    per_card: bool | str = False
    key: str | None = None
    arg: bool | str = False
    derived: str = ""
    default: str | None = None  # the text a flow step's key stands for when left out
    holds: tuple = ()  # a block that may hold only these flow steps (their keys), no statement
    joiner: str = ", "  # how the English of a list of parts is joined
    least: int | None = None  # a number written here below this is refused (a count is never negative)

    @property
    def written(self) -> bool:
        return not self.derived


@dataclass(frozen=True, slots=True)
class Binds:
    """A name a primitive brings into scope: `name` ("it", "you") or the name written in the
    parameter `var`; seen inside the parameter `within` ("" for the steps after this one). Its
    type: `type`, or the element of what the parameter `element_of` holds (cards → card), or
    the type of the parameter `type_of`. `printed`: seen by the printed effect the part names
    (lowered with its card), not by the part itself (`run c.reaction`: `c` is not `it`)."""

    within: str = ""
    name: str = ""
    var: str = ""
    type: str = ""
    element_of: str = ""
    type_of: str = ""
    printed: bool = False


@dataclass(frozen=True, slots=True)
class Primitive:
    name: str
    kind: str  # "action", "expression" or "flow"
    params: tuple[Param, ...]
    template: str  # English, with {param} holes
    doc: str
    example: str
    handler: Callable
    returns: str | Callable = ""  # the type of the value; or a function of the parts' types
    acting: bool = False  # needs an acting player (`you`): only inside `each player`
    spelled: tuple = ()  # the words that write it (see `form`)
    form: str = ""  # "statement", "call", "step" (a YAML mapping key) or a grammar rule's name
    binds: tuple = ()  # Binds
    reads: (
        tuple | Callable
    ) = ()  # names read from the surroundings besides its parts' ("@name": the name in that
    # part), or a function of the parts giving them (the acting player, when no owner is named)
    english: tuple = ()  # (condition, template) tried before `template`: {part: value} (IT, YOU, UNSAID)
    roles: dict = field(default_factory=dict)  # role -> part (or parts), for readers that look at IR shape
    prompt: str = ""  # a choice's question, filled with what is written (flow steps and choose)
    # a flow primitive that asks nothing, ends nothing and holds no action back (or a function of
    # its parts saying so): with parts that do neither, it runs without a frame (Rules.straight)
    straight: bool | Callable = False

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

    def args(self) -> list[Param]:
        """The parameters written as a call's arguments, in order."""
        return [p for p in self.params if p.arg]

    def bindings(self, within: str, given=()) -> list[Binds]:
        """What this primitive binds inside the part `within`, `given` the parts written (a
        per_card part binds `it`: always, or when the part it names is given)."""
        found = [b for b in self.binds if b.within == within and not b.printed]
        param = self.param(within)
        if param is not None and (param.per_card is True or (param.per_card and param.per_card in given)):
            found.append(Binds(within, name="it", type="card"))
        return found

    def result(self, kinds: dict) -> str:
        return self.returns(kinds) if callable(self.returns) else self.returns


IT = "@it"  # in an `english` condition: the part is the card in view (`it`)
UNSAID = "@unsaid"  # in an `english` condition: the part is a name its loop's body never says in its English
YOU = "@you"  # … the part is the acting player (`you`)

REGISTRY: dict[str, Primitive] = {}
KINDS = ("action", "expression", "flow")


def primitive(
    name: str,
    kind: str,
    *,
    template: str,
    example: str,
    params=(),
    returns="",
    acting: bool = False,
    spelled=(),
    form: str = "",
    binds=(),
    reads=(),
    english=(),
    roles=None,
    prompt: str = "",
    straight: bool | Callable = False,
):
    """Declare the decorated handler as the primitive `name`."""
    assert kind in KINDS, kind
    if kind == "action":
        spelled, form = spelled or (name,), form or "statement"
    spelled = (spelled,) if isinstance(spelled, str) else tuple(spelled)

    def register(handler: Callable) -> Callable:
        if name in REGISTRY:
            raise ValueError(f"primitive {name!r} declared twice")
        for param in params:
            assert param.type in TYPES, (name, param)
        doc = " ".join((handler.__doc__ or "").split())
        REGISTRY[name] = Primitive(
            name,
            kind,
            tuple(params),
            template,
            doc,
            example,
            handler,
            returns,
            acting,
            spelled,
            form,
            tuple(binds),
            reads if callable(reads) else tuple(reads),
            tuple(english),
            dict(roles or {}),
            prompt,
            straight,
        )
        return handler

    return register


@contextmanager
def scratch():
    """A copy of the registry to declare primitives in (tests): restored, whatever was added, on exit."""
    load_all()
    saved = dict(REGISTRY)
    try:
        yield REGISTRY
    finally:
        REGISTRY.clear()
        REGISTRY.update(saved)


def prepositions() -> list[str]:
    """Every keyword that introduces an action parameter (feeds the grammar)."""
    return sorted({p.prep for prim in REGISTRY.values() for p in prim.params if p.prep})


def spelled(word: str, form: str) -> list[Primitive]:
    """The primitives written with `word` in a form ("call", "statement", "step", …), as declared;
    with no word, those that are a grammar rule of their own (form "member": `x in list`)."""
    return [p for p in REGISTRY.values() if p.form == form and (word in p.spelled if word else not p.spelled)]


def spellings(form: str) -> list[str]:
    return sorted({word for p in REGISTRY.values() if p.form == form for word in p.spelled})


def role(node, name: str):
    """The part of a node that plays a declared role (e.g. the condition of a branch), or None
    when its primitive declares no such role."""
    primitive = REGISTRY.get(getattr(node, "op", ""))
    part = primitive.roles.get(name) if primitive else None
    return node.args.get(part) if part else None


def reasons(node) -> tuple:
    """The parts a node's value is explained by (`why`): those its primitive declares in the
    role "reasons" (a part's name, or several), lists of parts flattened."""
    primitive = REGISTRY.get(getattr(node, "op", ""))
    names = primitive.roles.get("reasons", ()) if primitive else ()
    found: list = []
    for name in (names,) if isinstance(names, str) else names:
        part = node.args.get(name)
        found.extend(part if isinstance(part, tuple | list) else () if part is None else (part,))
    return tuple(found)


def has_role(node, name: str) -> bool:
    primitive = REGISTRY.get(getattr(node, "op", ""))
    return bool(primitive and name in primitive.roles)


class ShapeError(AssertionError):
    """A node whose parts do not match its primitive's declaration: a compiler bug, not a designer's."""


def check_shape(op: str, args: dict) -> None:
    """Every part is a declared parameter, and every required one is there (or what replaces it)."""
    primitive = REGISTRY.get(op)
    if primitive is None:
        raise ShapeError(f"no primitive {op!r}")
    names = {p.name for p in primitive.params}
    unknown = set(args) - names
    if unknown:
        raise ShapeError(f"{op} has no part {', '.join(sorted(unknown))}")
    replaced = {p.derived for p in primitive.params if p.name in args}
    missing = [
        p.name
        for p in primitive.params
        if p.required and not p.derived and p.name not in args and p.name not in replaced
    ]
    if missing:
        raise ShapeError(f"{op} needs {', '.join(missing)}")


def free_names(node, _known: dict | None = None) -> frozenset:
    """The bindings an expression reads from its surroundings (names it binds itself left out),
    from each primitive's declared `reads` and `binds`. A node met again (a definition's body
    used twice) is looked up, not walked again: linear in the size of the IR, not its expansion."""
    known = {} if _known is None else _known
    if not hasattr(node, "op"):
        if not isinstance(node, tuple):
            return frozenset()
        return frozenset().union(*(free_names(item, known) for item in node))
    if id(node) in known:
        return known[id(node)][1]
    primitive, args = REGISTRY[node.op], node.args
    reads = primitive.reads(args) if callable(primitive.reads) else primitive.reads
    names = {args[r[1:]] if r.startswith("@") else r for r in reads}
    for part, value in args.items():
        names |= free_names(value, known) - _bound_names(primitive, part, args)
    known[id(node)] = (node, frozenset(names))  # the node is kept so its id is not reused meanwhile
    return known[id(node)][1]


def _bound_names(primitive: Primitive, part: str, args: dict) -> set[str | None]:
    bound: set[str | None] = set()  # None: an optional name left out (`repeat` without `as`)
    for binding in primitive.bindings(part, args):
        if binding.name:
            bound.add(binding.name)
        else:
            written = args.get(binding.var)
            bound |= set(written) if isinstance(written, tuple) else {written}
    return bound


def load_all() -> dict[str, Primitive]:
    """Import every primitive module so the registry is complete."""
    from .primitives import actions, expressions, flow  # noqa: F401  (registration side effect)

    return REGISTRY
