"""Lark trees → IR nodes: names resolved, types checked, every node with its span.

Name lookup, in order: bindings in scope (choose, for, repeat, `you`, `it`), definitions
(`define:`), attributes and marks of `it` and its attached zones (inside a condition),
zones, player words, then plain words (enum values, sides, card ids, option words).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import NoReturn, cast

from lark import Token, Tree

from ..interpreter.ir import Node, Span
from ..interpreter.registry import (
    REGISTRY,
    Binds,
    Param,
    Primitive,
    check_shape,
    free_names,
    has_role,
    role,
    spelled,
    spellings,
)
from .diagnostics import Diagnostic, did_you_mean
from .parse import EffectSyntaxError, Source, parse

PLAYER_WORDS = ("you", "left", "right")
ELEMENT = {"spaces": "space", "players": "player", "list": "value", "numbers": "int"}  # what `it` or a loop
#                                                     variable is, by collection (cards: a card)
BUILTIN_ATTRS = {
    "id": "word",
    "name": "word",
    "kind": "word",
    "side": "word",
    "face": "word",
    "effects": "list",
}
ATTR_TYPES = {
    "int": "int",
    "enum": "word",
    "set": "list",
    "condition": "cond",
    "effect": "effect",
    "number": "int",
    "numbers": "numbers",
    "text": "word",
}


class LowerError(Exception):
    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


@dataclass
class Decls:
    """What a game declares, for name resolution and type checks."""

    zones: dict = field(default_factory=dict)  # name -> ZoneDecl
    counters: dict = field(default_factory=dict)  # name -> CounterDecl
    attributes: dict = field(default_factory=dict)  # name -> AttrDecl (any kind)
    marks: dict = field(default_factory=dict)  # name -> AttrDecl
    defines: dict = field(default_factory=dict)  # name -> (text, Source, parameter names)
    procedures: set = field(default_factory=set)
    words: set = field(default_factory=set)  # enum values, side names, card ids, kinds
    markers: tuple = ("first",)
    sides: tuple = ()
    modules: tuple = ()  # module names
    options: dict = field(default_factory=dict)  # name -> OptionDecl (the game's and its modules')
    space_attributes: dict = field(
        default_factory=dict
    )  # name -> AttrDecl: what every space of a grid carries

    @property
    def categories(self) -> dict:
        """Word lists a primitive's parameter may draw from (see Param.words)."""
        return {
            "marks": tuple(self.marks),
            "markers": self.markers,
            "sides": self.sides + ("random",),
            "attributes": tuple(
                name for name, a in self.attributes.items() if a.type in ("int", "enum", "set")
            ),
            "events": tuple(sorted({a.on for a in self.attributes.values() if a.on})),
            "modules": self.modules,
            "options": tuple(self.options),
            "space attributes": tuple(self.space_attributes),
        }

    def known(self) -> set:
        return (
            set(self.zones)
            | set(self.counters)
            | set(self.attributes)
            | set(self.marks)
            | set(self.defines)
            | self.procedures
            | self.words
            | set(self.markers)
            | set(PLAYER_WORDS)
            | set(BUILTIN_ATTRS)
            | {"players"}
        )


@dataclass(frozen=True)
class Scope:
    names: dict = field(default_factory=dict)  # binding -> type
    expanding: tuple = ()  # definitions being expanded (catches cycles)
    passed: dict = field(default_factory=dict)  # a definition's parameter -> (hidden binding, type)
    holes: bool = False  # a phrase's pattern: a capitalised name is a hole
    about: str | None = None  # the card of the loop over cards its steps run in: its questions name it

    def bind(self, name: str, kind: str) -> Scope:
        return replace(self, names={**self.names, name: kind})


class Lowerer:
    def __init__(self, decls: Decls):
        self.decls = decls
        self.bodies: dict = {}  # definition bodies already lowered, by name and scope
        self.variants: dict = {}  # … and by name and the names (with their types) the body reads

    # ---- front doors ----
    def expression(self, text: str, source: Source, scope: Scope) -> tuple[Node, str]:
        return self.expr(self._parse(text, source, "expr"), source, scope)

    def statement(self, text: str, source: Source, scope: Scope, procedure: str = "") -> tuple[Node, Scope]:
        return self.stmt(self._parse(text, source, "statement"), source, scope, procedure)

    def typed_text(self, text: str, source: Source, scope: Scope, want: str) -> Node:
        """Parse and lower an expression string, checking it gives `want`."""
        return self.typed(self._parse(text, source, "expr"), source, scope, want)[0]

    def for_header(self, text: str, source: Source, scope: Scope) -> tuple[str, Node, str]:
        """`NAME in CARDS` (or SPACES) of a for step → (name, collection node, its type)."""
        tree = self._parse(text, source, "expr")
        if tree.data == "where" and tree.children[0].data == "member":  # c in cards where …: filter the cards
            member = tree.children[0]
            tree = Tree(
                "member",
                [member.children[0], Tree("where", [member.children[1], tree.children[1]], tree.meta)],
                member.meta,
            )
        if tree.data != "member" or tree.children[0].data != "name":
            self.fail(tree, source, "E0404", "write: NAME in CARDS", "e.g. c in pool")
        coll, kind = self.collection(tree.children[1], source, scope)
        return str(tree.children[0].children[0]), coll, kind

    def _parse(self, text, source, start):
        try:
            return parse(str(text), source, start)
        except EffectSyntaxError as error:
            raise LowerError(error.diagnostic) from None

    # ---- helpers ----
    def fail(self, where, source: Source, code: str, message: str, hint: str = "") -> NoReturn:
        span = self.span(where, source)
        raise LowerError(Diagnostic(span.file, span.line, span.col, code, message, hint))

    @staticmethod
    def span(where, source: Source) -> Span:
        if isinstance(where, Token):
            assert where.line is not None and where.column is not None  # the lexer places every token
            return source.span(where.line, where.column)
        meta = getattr(where, "meta", None)
        if meta is not None and not meta.empty:
            return source.span(meta.line, meta.column)
        return source.span(1, 1)

    def node(self, primitive, where, source, **args) -> Node:
        check_shape(primitive, args)  # a part its declaration lacks is a compiler bug
        return Node(primitive, args, self.span(where, source))

    def inner(self, primitive: Primitive, part: str, scope: Scope, kinds: dict, args: dict) -> Scope:
        """The scope a part is lowered in: the caller's, with the names the primitive binds there
        (a name written in a part that is left out, such as repeat's `as`, binds nothing)."""
        for binding in primitive.bindings(part, args):
            name = binding.name or args.get(binding.var)
            if name:
                scope = scope.bind(name, bound_type(binding, kinds))
                if primitive.roles.get("loop body") == part and scope.names[name] == "card":
                    scope = replace(scope, about=name)  # a question asked for each card names it
        return scope

    # ---- expressions: each returns (Node, type) ----
    def expr(self, tree, source: Source, scope: Scope) -> tuple[Node, str]:
        handler = getattr(self, f"expr_{tree.data}", None)
        if handler is not None:
            return handler(tree, source, scope)
        declared = spelled("", tree.data)
        if not declared:
            self.fail(tree, source, "E0301", f"'{tree.data}' cannot be used here")
        return self.operator(declared[0], tree, source, scope)

    def operator(self, primitive: Primitive, tree, source, scope) -> tuple[Node, str]:
        """A grammar rule a primitive declares as its form (`x in list`, `a and b`, `not c`): the
        rule's parts are its operands in order, each checked against its parameter's type."""
        args: dict[str, Node | tuple[Node, ...]] = {}  # a rest parameter's part: a tuple of operands
        kinds: dict[str, str] = {}
        for param, child in _matched(primitive, list(tree.children)):
            node, kinds[param.name] = self.typed(
                child, source, self.inner(primitive, param.name, scope, kinds, args), param.type
            )
            rest = param.arg == "rest"
            args[param.name] = (*cast(tuple, args.get(param.name, ())), node) if rest else node
        return self.node(primitive.name, tree, source, **args), primitive.result(kinds)

    def expr_number(self, tree, source, scope):
        return self.node("const", tree, source, value=int(tree.children[0])), "int"

    def expr_string(self, tree, source, scope):
        return self.node("const", tree, source, value=str(tree.children[0])[1:-1]), "word"

    def expr_neg(self, tree, source, scope):
        inner, kind = self.typed(tree.children[0], source, scope, "int")
        if isinstance(role(inner, "literal"), int):
            return self.node("const", tree, source, value=-inner.args["value"]), "int"
        return self.node("arith", tree, source, op="-", left=Node("const", {"value": 0}), right=inner), "int"

    def expr_list(self, tree, source, scope):
        items = tuple(self.expr(child, source, scope)[0] for child in tree.children if child is not None)
        if all(has_role(item, "literal") for item in items):
            values = tuple(item.args["value"] for item in items)
            numbers = all(isinstance(v, int) and not isinstance(v, bool) for v in values)
            return self.node("const", tree, source, value=values), "numbers" if numbers else "list"
        return self.node("list", tree, source, items=items), "list"

    def expr_name(self, tree, source, scope):
        token = tree.children[0]
        name = str(token)
        decls = self.decls
        if name in scope.passed:
            hidden, kind = scope.passed[name]
            return self.node("var", token, source, name=hidden), kind
        if name in scope.names:
            return self.node("var", token, source, name=name), scope.names[name]
        if scope.holes and HOLE.fullmatch(name):
            return self.node("hole", token, source, name=name), "any"
        if name in decls.defines:
            return self.define(name, token, source, scope)
        if "it" in scope.names:
            it = self.node("var", token, source, name="it")
            found = (
                self.space_field(it, name, token, source)
                if scope.names["it"] == "space"
                else self.field(it, name, token, source, scope)
            )
            if found:
                return found
        zone = decls.zones.get(name)
        if zone and zone.per != "card":
            if zone.per == "player" and "you" not in scope.names:
                self.fail(
                    token,
                    source,
                    "E0402",
                    f"'{name}' is one per player: say whose",
                    f"use it inside 'each player:', or write e.g. left.{name}",
                )
            if zone.rows:
                return self.node("spaces", token, source, name=name, per=zone.per), "spaces"
            return self.node("zone", token, source, name=name, per=zone.per), "cards"
        counter = decls.counters.get(name)
        if counter:
            if counter.per == "player" and "you" not in scope.names:
                self.fail(
                    token,
                    source,
                    "E0402",
                    f"'{name}' is one per player: say whose",
                    f"use it inside 'each player:', or write e.g. left.{name}",
                )
            return self.node("counter", token, source, name=name, per=counter.per), "int"
        if name == "players":
            return self.node("players", token, source), "players"
        if name in PLAYER_WORDS:
            if "you" not in scope.names:
                self.fail(
                    token, source, "E0402", f"'{name}' needs an acting player", "use it inside 'each player:'"
                )
            return self.node("player", token, source, rel=name), "player"
        if name in decls.markers:
            return self.node("player", token, source, rel=name), "player"
        if name in decls.words or name in decls.procedures or name == "all":
            return self.node("const", token, source, value=name), "int" if name == "all" else "word"
        if name in decls.attributes or name in decls.marks:
            self.fail(
                token,
                source,
                "E0401",
                f"'{name}' belongs to a card, and no card is in view here",
                f"write card.{name}, or use it in a condition (after where, or on a card)",
            )
        hint = did_you_mean(name, decls.known() | set(scope.names))
        self.fail(token, source, "E0401", f"unknown name '{name}'", hint)

    def define(self, name, token, source, scope, args=()):
        """A definition, expanded where it is used; its parameters stand for the parts passed."""
        if name in scope.expanding:
            self.fail(token, source, "E0501", f"definition '{name}' refers to itself")
        text, where, params = self.decls.defines[name]
        if len(args) != len(params):
            self.fail(
                token,
                source,
                "E0404",
                f"'{name}' takes {len(params)} part(s), got {len(args)}",
                f"write {name}({', '.join(params)})" if params else f"write {name} alone",
            )
        if not params:
            inner = replace(scope, expanding=scope.expanding + (name,))
            body, kind, variant = self.expanded(name, text, where, inner)
            return self.node(
                "let_in", token, source, define=name, variant=variant, names=(), values=(), body=body
            ), kind
        values = [self.expr(arg, source, scope) for arg in args]  # worked out where it is used
        hidden = [f"{name}:{param}" for param in params]  # names no text can spell
        acting = {"you": scope.names["you"]} if "you" in scope.names else {}
        inner = replace(
            scope,
            expanding=scope.expanding + (name,),  # it sees its parameters and you, not
            passed={p: (h, kind) for p, h, (_, kind) in zip(params, hidden, values)},  # the caller's names
            names={**acting, **{h: kind for h, (_, kind) in zip(hidden, values)}},
        )
        body, kind, variant = self.expanded(name, text, where, inner)
        return self.node(
            "let_in",
            token,
            source,
            define=name,
            variant=variant,
            names=tuple(hidden),
            values=tuple(v for v, _ in values),
            body=body,
        ), kind

    def expanded(self, name, text, where, scope) -> tuple[Node, str, int]:
        """A definition's body lowered in a scope, with a number for that variant: the same scope
        gives the same body, so each is lowered once however often the rules use it, and every use
        of one variant shares the values the interpreter remembers for it."""
        key = (name, tuple(sorted(scope.names.items())), tuple(sorted(scope.passed.items())))
        if key not in self.bodies:
            body, kind = self.expression(text, where, scope)
            # scopes that differ only in names the text does not read give the same body: one variant
            free = free_names(body)
            reads = tuple(sorted((n, scope.names[n]) for n in free if n in scope.names))
            same = (name, reads, tuple((p, h) for p, h in key[2] if h[0] in free))
            if same not in self.variants:
                self.variants[same] = (body, kind, len(self.variants))
            self.bodies[key] = self.variants[same]
        return self.bodies[key]

    def field(self, card: Node, name: str, token, source, scope=None):
        """`card.name`: an attribute, mark, attached zone or printed condition, or None."""
        decls = self.decls
        if name in BUILTIN_ATTRS:
            return self.node("attr", token, source, of=card, name=name), BUILTIN_ATTRS[name]
        if name == "space" and name not in decls.attributes:
            return self.node("space_of", token, source, card=card), "space"
        if name == "holder" and name not in decls.attributes:
            return self.node("holder", token, source, card=card), "card"
        if name in decls.attributes:
            declared = decls.attributes[name]
            kind = ATTR_TYPES[declared.type]
            if kind == "cond":
                return self.node("meets", token, source, of=card, name=name), "bool"
            if declared.type == "number":
                missing = [seen for seen, _ in declared.sees if scope is not None and seen not in scope.names]
                if missing:
                    self.fail(
                        token,
                        source,
                        "E0402",
                        f"'{name}' is worked out with {', '.join(missing)} in view, "
                        "and nothing is bound to it here",
                        f"choose or loop over {missing[0]} before reading {name}",
                    )
                return self.node("computed", token, source, of=card, name=name), "int"
            return self.node("attr", token, source, of=card, name=name), kind
        if name in decls.marks:
            mark = decls.marks[name]
            default = 0 if mark.type == "int" else None
            return self.node("mark", token, source, of=card, name=name, default=default), ATTR_TYPES[
                mark.type
            ]
        zone = decls.zones.get(name)
        if zone and zone.per == "card":
            return self.node("zone", token, source, name=name, per="card", of=card), "cards"
        return None

    def expr_path(self, tree, source, scope):
        base, token = tree.children
        node, kind = self.expr(base, source, scope)
        name = str(token)
        if kind == "any":  # a phrase's hole: it stands for whatever has this part
            found = next(
                filter(
                    None,
                    (self.part(node, has, name, token, source, scope) for has in ("card", "space", "player")),
                ),
                None,
            )
        elif kind in ("card", "space", "player") or (
            kind == "cards" and getattr(self.decls.zones.get(name), "per", None) == "card"
        ):
            found = self.part(node, kind, name, token, source, scope)
        else:
            self.fail(
                tree,
                source,
                "E0402",
                f"only a card, a player or a space has parts, but this is {_A.get(kind, kind)}",
            )
        if found is None and kind == "space":
            self.fail(
                token,
                source,
                "E0401",
                f"a space has no '{name}'",
                did_you_mean(name, self.decls.space_attributes)
                or f"a space has a row, a column and the attributes the rules declare under spaces: "
                f"({', '.join(self.decls.space_attributes) or 'none'}); for its top card's {name}, "
                f"write top(it).{name}",
            )
        if found is None:
            known = [*self.decls.attributes, *self.decls.marks, *self.decls.zones, *BUILTIN_ATTRS]
            self.fail(
                token, source, "E0401", f"{_A.get(kind, kind)} has no '{name}'", did_you_mean(name, known)
            )
        return found

    def part(self, node: Node, kind: str, name: str, token, source, scope):
        """`node.name` for a node of this kind (card, space, cards or player), or None."""
        if kind == "card":
            return self.field(node, name, token, source, scope)
        if kind == "space":
            return self.space_field(node, name, token, source)
        if kind == "cards":
            return self.node("attached", token, source, cards=node, name=name), "cards"  # tableau.slots
        if name == "score" and "score" not in self.decls.counters:
            return self.node("points", token, source, of=node), "int"
        zone, counter = self.decls.zones.get(name), self.decls.counters.get(name)
        if counter and counter.per == "player":
            return self.node("counter", token, source, name=name, per="player", of=node), "int"
        if zone and zone.per == "player":
            return (
                self.node("spaces" if zone.rows else "zone", token, source, name=name, per="player", of=node),
                "spaces" if zone.rows else "cards",
            )
        return None

    def space_field(self, space: Node, name: str, token, source):
        """`space.name`: its row or column, or an attribute its map prints (and the rules may set),
        or None."""
        declared = self.decls.space_attributes.get(name)
        if declared is not None:
            return self.node("space_attr", token, source, space=space, name=name), ATTR_TYPES[declared.type]
        if name in ("row", "column"):
            return (
                self.node("space_part", token, source, space=space, part=name),
                REGISTRY["space_part"].result({"part": name}),
            )
        return None

    def expr_method(self, tree, source, scope):
        """`p.discount(card, space)`: a number printed on a card, worked out with the names it sees."""
        base, token, *args = tree.children
        args = [arg for arg in args if arg is not None]
        card = self.typed(base, source, scope, "card")[0]
        declared = self.decls.attributes.get(str(token))
        if declared is None or declared.type != "number":
            numbers = [a.name for a in self.decls.attributes.values() if a.type == "number" and a.sees]
            self.fail(
                token,
                source,
                "E0401",
                f"'{token}' is not a number printed on cards that takes parts",
                did_you_mean(str(token), numbers) or f"such numbers: {', '.join(numbers) or 'none'}",
            )
        if len(args) != len(declared.sees):
            names = ", ".join(name for name, _ in declared.sees)
            self.fail(
                token,
                source,
                "E0404",
                f"'{token}' takes {len(declared.sees)} part(s), got {len(args)}",
                f"write {token}({names})",
            )
        given = tuple(self.typed(arg, source, scope, kind)[0] for arg, (_, kind) in zip(args, declared.sees))
        return self.node(
            "computed",
            tree,
            source,
            of=card,
            name=str(token),
            given=given,
            sees=tuple(name for name, _ in declared.sees),
        ), "int"

    def expr_if_else(self, tree, source, scope):
        then, cond, other = tree.children
        then_node, kind = self.expr(then, source, scope)
        other_node, other_kind = self.typed(
            other, source, scope, {"card": "value", "numbers": "list", "any": "value"}.get(kind, kind)
        )
        kind = other_kind if kind == "any" else kind  # a phrase's hole first: the other value tells
        node = self.node(
            "if_else",
            tree,
            source,
            cond=self.typed(cond, source, scope, "bool")[0],
            then=then_node,
            other=other_node,
        )
        then_kind = "list" if kind == "numbers" != other_kind else kind  # numbers or some other list: a list
        return node, REGISTRY["if_else"].result({"then": then_kind})

    def collection(self, tree, source, scope) -> tuple[Node, str]:
        """Something to filter or loop over: cards, the spaces of a grid, the players, or a list."""
        node, kind = self.expr(tree, source, scope)
        if kind in ELEMENT:
            return node, kind
        if not _fits(kind, "cards"):
            self.fail(tree, source, "E0402", f"expected cards, spaces or a list, got {_A.get(kind, kind)}")
        return node, kind

    def expr_where(self, tree, source, scope):
        where = REGISTRY["where"]
        coll, kind = self.collection(tree.children[0], source, scope)
        cond = self.typed(
            tree.children[1], source, self.inner(where, "cond", scope, {"coll": kind}, {}), "bool"
        )[0]
        return self.node("where", tree, source, coll=coll, cond=cond), where.result({"coll": kind})

    def expr_compare(self, tree, source, scope):
        left, op, right = tree.children
        lnode, lkind = self.expr(left, source, scope)
        rnode, rkind = self.expr(right, source, scope)
        if str(op) not in ("=", "!="):
            for node, kind in ((lnode, lkind), (rnode, rkind)):
                self._require_number(node, kind, op, source)
        for node, other in ((lnode, rnode), (rnode, lnode)):
            self._comparable(node, other, op, source)
        return self.node("compare", tree, source, op=str(op), left=lnode, right=rnode), "bool"

    def _declared(self, node):
        """The declaration of the attribute, mark or space attribute a node reads, or None."""
        if has_role(node, "space attribute"):
            return self.decls.space_attributes.get(role(node, "space attribute"))
        if has_role(node, "attribute"):
            name = role(node, "attribute")
            return self.decls.attributes.get(name) or self.decls.marks.get(name)
        return None

    def _comparable(self, node, other, op, source):
        """An attribute compared with a written value it can never have (`colour = 1`, `colour =
        reed` when colours are red and blue, `cost = red`) is a mistake: the test is never true."""
        declared, written = self._declared(node), role(other, "literal")
        if declared is None or written is None or not isinstance(written, int | str):
            return
        name, number = declared.name, isinstance(written, int) and not isinstance(written, bool)
        if declared.type == "enum" and number:
            self.fail(
                op,
                source,
                "E0402",
                f"'{name}' is a word, never the number {written}",
                f"{name} is one of: {', '.join(declared.values)}",
            )
        if declared.type == "enum" and written not in declared.values:
            self.fail(
                op,
                source,
                "E0402",
                f"'{name}' is never '{written}'",
                did_you_mean(str(written), declared.values)
                or f"{name} is one of: {', '.join(declared.values)}",
            )
        if declared.type == "int" and not number:
            self.fail(
                op,
                source,
                "E0402",
                f"'{name}' is a number, never the word '{written}'",
                "compare it with a number",
            )
        if declared.type == "set":
            self.fail(
                op,
                source,
                "E0402",
                f"'{name}' holds several words, so it never equals one",
                f"write {name} has {written}",
            )

    def _require_number(self, node, kind, op, source):
        declared = self.decls.attributes.get(node.args.get("name")) or self.decls.marks.get(
            node.args.get("name")
        )
        if has_role(node, "attribute") and declared and declared.type != "int":
            self.fail(
                op,
                source,
                "E0402",
                f"'{op}' compares numbers, but {declared.name} is not a number",
                f"{declared.name} is one of: {', '.join(declared.values)}; compare it with = or !=",
            )
        if kind not in ("int", "value", "any"):
            self.fail(
                op,
                source,
                "E0402",
                f"'{op}' compares numbers, but one side is {_A.get(kind, kind)}",
                "compare words with = or !=",
            )

    def expr_arith(self, tree, source, scope):
        left, op, right = tree.children
        lnode, lkind = self.expr(left, source, scope)  # once: lowering it again would be exponential
        if str(op) == "+" and lkind == "any":  # a phrase's hole: it adds up as the right side does
            rnode, rkind = self.expr(right, source, scope)
            joined = {
                "card": "union",
                "cards": "union",
                "space": "joined_spaces",
                "spaces": "joined_spaces",
            }.get(rkind)
            if joined:
                return self.node(joined, tree, source, items=(lnode, rnode)), REGISTRY[joined].result({})
            return self.node("arith", tree, source, op="+", left=lnode, right=rnode), "int"
        if str(op) == "+" and lkind in ("cards", "card"):  # hand + stored: one collection of both
            rnode = self.typed(right, source, scope, "cards")[0]
            return self.node("union", tree, source, items=(lnode, rnode)), "cards"
        if str(op) == "+" and lkind in ("spaces", "space"):  # adjacent(a) + adjacent(b): the spaces of both
            rnode = self.typed(right, source, scope, "spaces")[0]
            return self.node("joined_spaces", tree, source, items=(lnode, rnode)), "spaces"
        self.check(left, lkind, "int", source)
        return self.node(
            "arith", tree, source, op=str(op), left=lnode, right=self.typed(right, source, scope, "int")[0]
        ), "int"

    def expr_call(self, tree, source, scope):
        """`name(a, b)`: a definition, or the registered function of that name whose parameters
        fit the parts' types (adjacent(space) and adjacent(card) are two primitives)."""
        name, *args = tree.children
        args, word = [arg for arg in args if arg is not None], str(name)
        if word in self.decls.defines:
            return self.define(word, name, source, scope, args)
        candidates = [p for p in spelled(word, "call") if _takes(p, len(args))]
        if not candidates:
            self.fail(
                name,
                source,
                "E0401",
                f"unknown function '{name}' with {len(args)} part(s)",
                f"functions: {', '.join(_signatures())}",
            )
        parts = [self.call_part(candidates, args, i, source, scope) for i in range(len(args))]
        for primitive in candidates:
            matched = _matched(primitive, parts)
            if all(self.fits(node, kind, param.type) for param, (node, kind) in matched):
                return self.call(primitive, word, tree, source, matched)
        self.misfit(word, candidates, args, parts, source)

    def call_part(self, candidates, args, index, source, scope) -> tuple:
        """A call's part: a bare word where every form of the function takes a word there
        (`module(alpine)`, checked against the words the parameter allows), else an expression."""
        wanted = [_matched(p, args)[index][0] for p in candidates]
        if all(param.type == "word" for param in wanted):
            return self.word(wanted[0], args[index], source), "word"
        return self.expr(args[index], source, scope)

    def call(self, primitive, word, tree, source, matched):
        args: dict = {}
        kinds: dict = {}
        for param, (node, kind) in matched:
            self.at_least(param, node, tree, source)
            args[param.name] = (*args.get(param.name, ()), node) if param.arg == "rest" else node
            kinds[param.name] = kind
        args |= {p.name: word for p in primitive.params if p.derived == "spelling"}
        return self.node(primitive.name, tree, source, **args), primitive.result(kinds)

    def misfit(self, word, candidates, args, parts, source):
        """The first part no overload accepts: say what the function takes there."""
        for i, (tree, (node, kind)) in enumerate(zip(args, parts)):
            wanted = [param.type for p in candidates for param, _ in _matched(p, parts)[i : i + 1]]
            if not any(self.fits(node, kind, want) for want in wanted):
                takes = " or ".join(dict.fromkeys(_A[want] for want in wanted))
                self.fail(tree, source, "E0402", f"{word} needs {takes}, got {_A.get(kind, kind)}")
        self.fail(
            args[0],
            source,
            "E0402",
            f"no form of {word} takes these parts",
            f"functions: {', '.join(_signatures())}",
        )

    def fits(self, node, got: str, want: str) -> bool:
        if want == "places" and has_role(node, "pile"):  # cards(pile): the cards of a zone
            return True
        return _fits(got, want)

    def expr_comprehension(self, tree, source, scope):
        fn, body, var, coll = tree.children
        found = spelled(str(fn), "comprehension")
        if not found:
            self.fail(
                fn,
                source,
                "E0401",
                f"unknown function '{fn}'",
                did_you_mean(str(fn), spellings("comprehension")),
            )
        primitive = found[0]
        coll_node, kind = self.collection(coll, source, scope)
        inner = self.inner(primitive, "expr", scope, {"coll": kind}, {"var": str(var)})
        worked_out = primitive.param("expr")
        assert worked_out is not None, "a comprehension declares the value it works out for each item"
        body_node = self.typed(body, source, inner, worked_out.type)[0]
        return self.node(
            primitive.name, tree, source, fn=str(fn), expr=body_node, var=str(var), coll=coll_node
        ), primitive.result({})

    def typed(self, tree, source, scope, want: str) -> tuple[Node, str]:
        node, kind = self.expr(tree, source, scope)
        self.check(tree, kind, want, source)
        return node, kind

    def check(self, tree, kind: str, want: str, source):
        if not _fits(kind, want):
            self.fail(tree, source, "E0402", f"expected {_A[want]}, got {_A.get(kind, kind)}")

    # ---- statements: each returns (Node, scope after it) ----
    def stmt(self, tree, source: Source, scope: Scope, procedure: str = "") -> tuple[Node, Scope]:
        """A statement: a procedure's name, or a primitive spelled as a statement (`procedure`, the
        rule it is written in, names the questions it asks)."""
        verb, positional, *clauses = tree.children
        name = str(verb)
        parts = {str(clause.children[0]): clause for clause in clauses}
        if name in self.decls.procedures:
            if positional is not None or clauses:
                self.fail(
                    positional if positional is not None else clauses[0],
                    source,
                    "E0404",
                    f"'{name}' is a procedure: it takes no parts",
                    f"to run it, write its name alone: {name}",
                )
            return self.node("call", verb, source, name=name), scope
        found = spelled(name, "statement")
        if not found:
            self.fail(
                verb,
                source,
                "E0401",
                f"unknown action or procedure '{name}'",
                did_you_mean(name, spellings("statement") + sorted(self.decls.procedures)),
            )
        primitive = found[0]
        written = getattr(self, f"statement_{primitive.name}", None)  # a statement with a form of its own
        if written is not None:
            return written(primitive, verb, positional, parts, source, scope, procedure)
        return self.node(
            primitive.name, verb, source, **self.arguments(primitive, verb, positional, parts, source, scope)
        ), scope

    def statement_let(self, primitive, verb, positional, parts, source, scope, procedure):
        """`let NAME = VALUE`: a name for a value worked out now, for the steps after it."""
        if (
            positional is None
            or parts
            or positional.data != "compare"
            or str(positional.children[1]) != "="
            or positional.children[0].data != "name"
        ):
            self.fail(verb, source, "E0404", "write: let NAME = VALUE", "e.g. let covered = top(space)")
        var = str(positional.children[0].children[0])
        value, kind = self.expr(positional.children[2], source, scope)
        return self.node("let", verb, source, var=var, value=value), self.inner(
            primitive, "", scope, {"value": kind}, {"var": var}
        )

    def statement_choose(self, primitive, verb, positional, parts, source, scope, procedure):
        if (
            positional is None
            or positional.data != "name"
            or "from" not in parts
            or set(parts) - {"from", "count", "worth", "by"}
            or ("by" in parts and "worth" not in parts)
            or {"count", "worth"} <= set(parts)
        ):
            self.fail(
                verb,
                source,
                "E0404",
                "write: choose NAME from CARDS-OR-LIST [count N | worth N [by VALUE]]",
                "e.g. choose card from hand, choose way from [for, against], "
                "choose payment from hand count 2, "
                "choose paid from hand + stored worth 3 by it.energy",
            )
        if "you" not in scope.names:
            self.fail(
                verb, source, "E0402", "'choose' needs an acting player", "use it inside 'each player:'"
            )
        var = str(positional.children[0])
        origin, kind = self.expr(parts["from"].children[1], source, scope)
        if kind not in ("cards", "list", "numbers", "spaces", "players", "any"):  # any: a phrase's hole
            self.fail(
                parts["from"],
                source,
                "E0402",
                f"choose needs cards or a list to choose from, got {_A.get(kind, kind)}",
            )
        many = {}
        for part in ("count", "worth"):
            if part in parts:
                if kind != "cards":
                    self.fail(
                        parts[part], source, "E0402", f"choose … {part} N picks cards; choose from cards"
                    )
                many[part] = self.typed(parts[part].children[1], source, scope, "int")[0]
        if "by" in parts:
            many["by"] = self.typed(
                parts["by"].children[1], source, self.inner(primitive, "by", scope, {}, parts), "int"
            )[0]
        prompt = f"{procedure}: {primitive.prompt.format(var=var)}"
        node = self.node(
            "choose",
            verb,
            source,
            var=var,
            cards=kind == "cards",
            players=kind == "players",
            prompt=prompt,
            **{"from": origin},
            **many,
            **({"about": scope.about} if scope.about else {}),
        )
        element = "cards" if many else {"cards": "card", "any": "any", **ELEMENT}.get(kind, "value")
        return node, scope.bind(var, element)

    def arguments(self, primitive, verb, positional, parts, source, scope) -> dict:
        if primitive.acting and "you" not in scope.names:
            self.fail(
                verb,
                source,
                "E0402",
                f"'{primitive.name}' needs an acting player",
                "use it inside 'each player:'",
            )
        args = {}
        first = next((p for p in primitive.params if p.prep is None and p.written), None)
        if positional is not None:
            if first is None:
                self.fail(positional, source, "E0404", f"'{primitive.name}' takes no value before its parts")
            args.update(self.argument(primitive, first, positional, source, scope, parts))
        elif first is not None and first.required:
            self.fail(
                verb,
                source,
                "E0404",
                f"'{primitive.name}' needs its {first.name} right after it",
                f"e.g. {primitive.example}",
            )
        preps = {p.prep: p for p in primitive.params if p.prep}
        if not preps and parts:
            clause = next(iter(parts.values()))
            self.fail(
                clause.children[0],
                source,
                "E0404",
                f"'{primitive.name}' takes no parts",
                f"e.g. {primitive.example}",
            )
        for prep, clause in parts.items():
            if prep not in preps:
                self.fail(
                    clause.children[0],
                    source,
                    "E0404",
                    f"'{primitive.name}' has no '{prep}' part",
                    f"it takes: {', '.join(preps)}",
                )
            args.update(self.argument(primitive, preps[prep], clause.children[1], source, scope, parts))
        for param in primitive.params:
            if param.prep and param.required and param.prep not in parts:
                self.fail(
                    verb,
                    source,
                    "E0404",
                    f"'{primitive.name}' needs a '{param.prep}' part",
                    f"e.g. {primitive.example}",
                )
        self.check_setting(primitive, args, verb, source)
        return args

    def check_setting(self, primitive, args: dict, verb, source):
        """A word set on a mark or a space's attribute is one of its declared values
        (`set s.colour to big`: a word of the game, but not a colour)."""
        target = next((args[p.name] for p in primitive.params if p.type == "target" and p.name in args), None)
        value = next((args[p.name] for p in primitive.params if p.prep == "to" and p.name in args), None)
        if target is None or not isinstance(value, Node) or not has_role(value, "literal"):
            return
        if has_role(target, "space attribute"):
            declared = self.decls.space_attributes.get(role(target, "space attribute"))
        elif has_role(target, "attribute") and has_role(target, "settable"):  # a card's mark
            declared = self.decls.marks.get(role(target, "settable"))
        else:
            return  # a counter
        written = role(value, "literal")
        if (
            declared is not None
            and declared.type == "enum"
            and isinstance(written, str)
            and written not in declared.values
        ):
            self.fail(
                verb,
                source,
                "E0402",
                f"'{declared.name}' cannot be '{written}'",
                did_you_mean(written, declared.values) or f"it can be: {', '.join(declared.values)}",
            )

    def argument(self, primitive, param, tree, source, scope, given) -> dict:
        """Lower one parameter according to its declared type (`given`: the parts the statement has)."""
        kind = param.type
        scope = self.inner(primitive, param.name, scope, {}, given)
        if kind == "word":
            labels = next((p for p in primitive.params if p.derived == param.name and p.type == "list"), None)
            if labels and tree.data == "call":  # as area(a, c): the heading's name, then values
                name, *parts = [child for child in tree.children if child is not None]
                return {
                    param.name: self.word(param, Tree("name", [name]), source),
                    labels.name: tuple(self.expr(part, source, scope)[0] for part in parts),
                }
            named = next((p for p in primitive.params if p.derived == param.name and p.type == "value"), None)
            if named and tree.data == "name" and str(tree.children[0]) in scope.names:  # flip card to half
                return {named.name: self.expr(tree, source, scope)[0]}
            return {param.name: self.word(param, tree, source)}
        if kind == "list" and param.per_card:
            items = tree.children if tree.data == "list" else [tree]
            return {param.name: tuple(self.expr(item, source, scope)[0] for item in items)}
        node, got = self.expr(tree, source, scope)
        if kind == "target":
            if not has_role(node, "settable"):
                self.fail(
                    tree,
                    source,
                    "E0402",
                    "expected a counter, a card's mark or a space's attribute, e.g. card.stance",
                    f"counters: {', '.join(self.decls.counters) or 'none'}; "
                    f"marks: {', '.join(self.decls.marks) or 'none'}"
                    + (
                        f"; spaces: {', '.join(self.decls.space_attributes)}"
                        if self.decls.space_attributes
                        else ""
                    ),
                )
            return {param.name: node}
        if kind == "effect":
            if not has_role(node, "attribute") or got != "effect":
                self.fail(
                    tree,
                    source,
                    "E0402",
                    "expected an effect printed on a card, e.g. card.on_play",
                    "declare it in the rules: attributes: {on_play: {type: effect}}",
                )
            return {param.name: node}
        if kind == "amount":
            if got not in ("int", "cards", "card", "any"):
                self.fail(tree, source, "E0402", f"expected a number, all, or cards, got {_A.get(got, got)}")
            number = next(p.name for p in primitive.params if p.derived == param.name)  # move 2: a count
            counted = got == "int" or (
                got == "any" and node.args["name"].startswith("N")
            )  # a hole N…: a number
            if counted:
                self.at_least(primitive.param(number), node, tree, source)
            return {number if counted else param.name: node}
        if kind == "zone" and not has_role(node, "pile") and got not in ("space", "any"):
            self.fail(tree, source, "E0402", f"'{param.name}' must be a zone, got {_A.get(got, got)}")
        if not _fits(got, kind):
            self.fail(
                tree,
                source,
                "E0402",
                f"'{param.name}' expects {_A[kind]}, got {_A.get(got, got)}",
                _usage(primitive),
            )
        self.at_least(param, node, tree, source)
        return {param.name: node}

    def at_least(self, param, node, tree, source):
        complaint = below_least(param, role(node, "literal"))
        if complaint:
            self.fail(tree, source, "E0402", complaint)

    def word(self, param, tree, source) -> str:
        if tree.data != "name":
            self.fail(tree, source, "E0402", f"'{param.name}' takes a single word")
        word = str(tree.children[0])
        declared = isinstance(param.words, str)  # a category the game declares, maybe none
        allowed = self.decls.categories[param.words] if declared else param.words
        if (allowed or declared) and word not in allowed:
            self.fail(
                tree,
                source,
                "E0401",
                f"'{param.name}' cannot be '{word}'",
                did_you_mean(word, allowed)
                or (f"it can be: {', '.join(allowed)}" if allowed else f"the game declares no {param.words}"),
            )
        return word


_A = {
    "any": "a hole",
    "numbers": "a list",
    "collection": "cards or a list",
    "places": "spaces or a pile",
    "pile": "a pile, a space or cards",
    "int": "a number",
    "bool": "a condition",
    "value": "a value",
    "word": "a word",
    "card": "a card",
    "cards": "cards",
    "player": "a player",
    "list": "a list",
    "cond": "a condition",
    "zone": "a zone",
    "effect": "an effect",
    "space": "a space",
    "spaces": "spaces",
    "players": "players",
}


# What each wanted type accepts besides itself.
ACCEPTS = {
    "cards": {"card", "space"},
    "zone": {"cards", "space"},
    "list": {"cards", "spaces", "value", "numbers"},
    "bool": {"cond", "value", "effect"},
    "int": {"value"},
    "card": {"value"},
    "collection": {"cards", "list", "numbers", "space", "spaces", "players"},
    "pile": {"space", "cards"},
    "places": {"space", "spaces"},
    "spaces": {"space"},
}


def below_least(param: Param, written) -> str:
    """What is wrong with a number written below the least its parameter takes (`move -3 from
    deck to hand`: at run time it would quietly do nothing), or ""."""
    number = isinstance(written, int) and not isinstance(written, bool)
    if param.least is None or not number or written >= param.least:
        return ""
    return f"{param.name} cannot be {written}: it is {param.least} or more"


def _usage(primitive) -> str:
    """What a primitive does and how it is written, for a statement whose parts do not fit it
    (`draw 1 from deck` is `draw`, which pictures a grid; drawing cards is `move`)."""
    what = re.split(r"(?<!e\.g)\.(?:\s|$)|[:;]\s", " ".join(primitive.doc.split()), maxsplit=1)[0]
    if what.count("(") > what.count(")"):  # (the sentence went on inside brackets)
        what = what[: what.rindex("(")].rstrip()
    word = primitive.spelled[0] if primitive.spelled else primitive.name
    return f"'{word}' means: {what[:1].lower()}{what[1:]}, as in: {primitive.example}"


def _fits(got: str, want: str) -> bool:
    return want in ("value", "any") or got == want or got == "any" or got in ACCEPTS.get(want, ())


HOLE = re.compile(r"[A-Z][A-Z0-9]*")  # a hole in a phrase: capital letters (and digits)


def bound_type(binding: Binds, kinds: dict) -> str:
    """The type of a name a primitive binds, from the types of its parts (see Binds)."""
    if binding.element_of:
        return ELEMENT.get(kinds.get(binding.element_of, ""), "card")
    return kinds[binding.type_of] if binding.type_of else binding.type


def _takes(primitive: Primitive, count: int) -> bool:
    """Whether a function takes that many parts (a `rest` part takes two or more)."""
    args = primitive.args()
    fixed = [p for p in args if p.arg != "rest"]
    if any(p.arg == "rest" for p in args):
        return count >= len(fixed) + 2
    return sum(p.required for p in fixed) <= count <= len(fixed)


def _matched(primitive: Primitive, parts: list) -> list:
    """(parameter, part) pairs, a `rest` parameter standing for every part left."""
    params = primitive.args()
    rest = [p for p in params if p.arg == "rest"]
    return [
        (params[i] if i < len(params) and params[i].arg != "rest" else rest[0], part)
        for i, part in enumerate(parts)
    ]


def _signatures() -> list[str]:
    """How each function is written, for the hint of an unknown one."""

    def parts(p):
        names = [f"{a.name}, …" if a.arg == "rest" else a.name for a in p.args()]
        required = [n for n, a in zip(names, p.args()) if a.required]
        optional = names[len(required) :]
        return ", ".join(required) + (f"[, {', '.join(optional)}]" if optional else "")

    calls = [f"{word}({parts(p)})" for p in REGISTRY.values() if p.form == "call" for word in p.spelled]
    comprehensions = [  # every comprehension's parameters are named so
        f"{'/'.join(p.spelled)}(expr for var in coll)" for p in REGISTRY.values() if p.form == "comprehension"
    ]
    return calls + comprehensions
