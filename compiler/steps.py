"""Steps written in YAML → IR: statements (effect-language strings) and flow steps
(mappings such as `each player:` or `repeat:`), each lowered from its primitive's declaration.

A flow step's primitive is found by its key; each declared parameter reads the YAML key it
is written under (`Param.key`), by type: a block of steps, an expression, a name, a flag, a
`NAME in CARDS` header, or procedure names with conditions. Names a primitive binds are in
scope in the parameters it declares (`Binds`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..interpreter.ir import Node, Span
from ..interpreter.registry import REGISTRY, Primitive, check_shape, free_names, role, spelled, spellings
from .diagnostics import Diagnostic, did_you_mean
from .lower import Lowerer, LowerError, Scope, below_least

if TYPE_CHECKING:  # document.py reads the schema, which validate.py builds from the steps here
    from .document import Document


Call = tuple[str, str, dict]  # (procedure called, rule calling it, names in scope there: name -> type)


@dataclass(frozen=True)
class At:
    """Where steps are lowered: the document, the rule they belong to (choices are prompted
    "rule: choose card", calls are counted from it), and where diagnostics and calls go."""

    doc: Document
    rule: str
    diagnostics: list[Diagnostic]
    calls: list[Call]

    def span(self, path) -> Span:
        return Span(self.doc.located.file, *self.doc.located.at(path))


class Steps:
    def __init__(self, lowerer: Lowerer):
        self.lowerer = lowerer
        self.procedures = lowerer.decls.procedures

    def block(self, at: At, steps, path, scope: Scope) -> Node:
        nodes = []
        for i, step in enumerate(steps):
            node, scope = self.step(at, step, path + (i,), scope)
            if node is not None:
                nodes.append(node)
        return Node("block", {"steps": _about_read(nodes)}, at.span(path))

    def step(self, at: At, step, path, scope: Scope):
        if isinstance(step, str):
            return self.statement(at, step, path, scope)
        key = next(k for k in spellings("step") if k in step)  # the schema lets one through
        primitive = spelled(key, "step")[0]
        if primitive.acting and "you" not in scope.names:
            at.diagnostics.append(
                at.doc.error(
                    path + (key,),
                    "E0402",
                    f"'{key}' needs an acting player",
                    "use it inside 'each player:' or a turn procedure",
                )
            )
        return self.mapping(at, primitive, step, path, scope), scope

    def statement(self, at: At, text: str, path, scope: Scope):
        try:
            node, after = self.lowerer.statement(*at.doc.effect(path, text), scope, at.rule)
        except LowerError as error:
            at.diagnostics.append(error.diagnostic)
            return None, self.guessed(text, scope)
        callee = role(node, "procedure")
        if callee is not None:
            at.calls.append((callee, at.rule, scope.names))
        return node, after

    @staticmethod
    def guessed(text: str, scope: Scope) -> Scope:
        """After a statement that failed, the name it would have bound (as a card), so the steps
        after it do not report knock-on errors."""
        words = text.split()
        binds = any(not b.within for p in spelled(words[0], "statement") for b in p.binds) if words else False
        return scope.bind(words[1], "card") if binds and len(words) > 1 else scope

    def mapping(self, at: At, primitive: Primitive, spec: dict, path, scope: Scope) -> Node | None:
        """A primitive written as a YAML mapping: each parameter read from its key."""
        args: dict[str, object] = {}
        kinds: dict[str, str] = {}
        for key, params in _keys(primitive):
            if key not in spec and params[0].default is None:
                continue
            read = SHAPES[tuple(p.type for p in params)][0]
            inner = scope
            for param in params:
                inner = self.lowerer.inner(primitive, param.name, inner, kinds, args)
            found = read(self, at, params, spec.get(key, params[0].default), path + (key,), inner)
            if found is None:
                return None
            for param, (value, kind) in zip(params, found):
                if value is not None or param.required:
                    args[param.name], kinds[param.name] = value, kind
        if primitive.prompt:
            written = {p.name: _first(spec.get(p.key)) for p in primitive.params if p.key}
            args["prompt"] = f"{at.rule}: {primitive.prompt.format(**written)}"
            if scope.about and any(param.name == "about" for param in primitive.params):
                args["about"] = scope.about  # asked for each card of a loop: the question names it
        check_shape(primitive.name, args)
        return Node(primitive.name, args, at.span(path))

    def expr(self, at: At, text, path, scope, want):
        try:
            return self.lowerer.typed_text(*at.doc.effect(path, text), scope, want)
        except LowerError as error:
            at.diagnostics.append(error.diagnostic)
            return None

    # ---- readers: one per shape of value a key holds; each gives (value, type) per parameter ----
    def read_block(self, at, params, steps, path, scope):
        return [(self.block(at, steps, path, scope), "block")]

    def read_expression(self, at, params, text, path, scope):
        want = params[0].type
        if isinstance(text, int) and not isinstance(text, bool):
            if below_least(params[0], text):
                at.diagnostics.append(at.doc.error(path, "E0402", below_least(params[0], text)))
                return None
            return [(Node("const", {"value": text}, at.span(path[:-1])), want)]
        return [(self.expr(at, text, path, scope, want), want)]

    def read_name(self, at, params, word, path, scope):
        return [(word, params[0].type)]

    def read_header(self, at, params, text, path, scope):
        """`NAME in CARDS`: the name, and what it takes in turn."""
        try:
            written, source = at.doc.effect(path, text)
            var, coll, kind = self.lowerer.for_header(written, source, scope)
        except LowerError as error:
            at.diagnostics.append(error.diagnostic)
            return None
        return [(var, "binding"), (coll, kind)]

    def read_procedures(self, at, params, items, path, scope):
        """Procedure names, each maybe with a condition (`- grow: CONDITION`); the conditions
        only when any is given."""
        names = tuple(item if isinstance(item, str) else next(iter(item)) for item in items)
        for i, name in enumerate(names):
            if name not in self.procedures:
                at.diagnostics.append(
                    at.doc.error(
                        path + (i,),
                        "E0401",
                        f"unknown procedure '{name}'",
                        did_you_mean(name, self.procedures),
                    )
                )
        guards = tuple(
            None
            if isinstance(item, str)
            else self.expr(at, next(iter(item.values())), path + (i, names[i]), scope, "bool")
            for i, item in enumerate(items)
        )
        at.calls.extend((name, at.rule, scope.names) for name in names)
        return [
            (names, params[0].type),
            (guards if any(g is not None for g in guards) else None, "conditions"),
        ]


def _about_read(steps: list[Node]) -> tuple[Node, ...]:
    """A block's steps, each question asked for each card of a loop (`about`: Scope.about) naming
    the card only when it, or a step after it in its block, reads it: "discard it?" and "place it
    in one of your rows" are about the card, a cloud action offered while tokens are taken one by
    one is not."""
    kept = list(steps)
    for at, step in enumerate(steps):
        about = step.args.get("about")
        if about and about not in free_names(tuple(steps[at:])):
            kept[at] = Node(step.op, {k: v for k, v in step.args.items() if k != "about"}, step.span)
    return tuple(kept)


# Each shape of value a key holds: how the compiler reads it, and how the published step
# schema (schemas/game.schema.json, for designers' editors and for validation) describes it.
_PROCEDURES = {
    "type": "array",
    "minItems": 2,
    "items": {
        "oneOf": [
            {"type": "string"},
            {
                "type": "object",
                "minProperties": 1,
                "maxProperties": 1,
                "additionalProperties": {"type": "string"},
                "description": "a procedure with its condition",
            },
        ]
    },
}
SHAPES = {
    ("block",): (Steps.read_block, {"$ref": "#/$defs/block"}),
    ("bool",): (Steps.read_expression, {"type": "string"}),
    ("int",): (Steps.read_expression, {"type": ["integer", "string"]}),
    ("player",): (Steps.read_expression, {"type": "string"}),
    ("binding",): (Steps.read_name, {"$ref": "#/$defs/word"}),
    ("flag",): (Steps.read_name, {"type": "boolean"}),
    ("binding", "cards"): (Steps.read_header, {"type": "string", "description": "NAME in CARDS"}),
    ("procedures", "conditions"): (Steps.read_procedures, _PROCEDURES),
}


def step_schema() -> dict:
    """The schema of a step, from the flow steps' declarations: a statement, or a mapping
    keyed as one flow step is (its required keys are those with neither a default nor a
    "required: False"). It replaces the `step` definition of schemas/game.schema.json."""
    steps = [p for p in REGISTRY.values() if p.form == "step"]
    branches = {p.spelled[0]: _branch(p, {}) for p in steps}
    branches = {p.spelled[0]: _branch(p, branches) for p in steps}  # blocks that hold only some steps
    return {
        "oneOf": [
            {"type": "string", "description": "A statement of the effect language, or a procedure's name."},
            *branches.values(),
        ]
    }


def _branch(primitive: Primitive, branches: dict) -> dict:
    keys = _keys(primitive)
    return {
        "type": "object",
        "description": primitive.doc,
        "required": [key for key, params in keys if params[0].required and params[0].default is None],
        "additionalProperties": False,
        "properties": {
            key: _holding(params[0].holds, branches)
            if params[0].holds and branches
            else SHAPES[tuple(p.type for p in params)][1]
            for key, params in keys
        },
    }


def _holding(keys: tuple, branches: dict) -> dict:
    """A block that may hold only the flow steps written with these keys."""
    held = [branches[key] for key in keys]
    return {"type": "array", "minItems": 1, "items": held[0] if len(held) == 1 else {"oneOf": held}}


def _keys(primitive: Primitive) -> list[tuple[str, list]]:
    """The YAML keys of a primitive, in declaration order, each with the parameters it holds."""
    keys: dict[str, list] = {}
    for param in primitive.params:
        if param.key:
            keys.setdefault(param.key, []).append(param)
    return list(keys.items())


def _first(value) -> str:
    """How a written value is quoted in a prompt: a list by its first step."""
    if isinstance(value, list):
        return value[0] if value and isinstance(value[0], str) else "…"
    return str(value)
