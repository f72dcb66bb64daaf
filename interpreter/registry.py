"""The one registry of primitives.

Each primitive is declared once, on its handler, with its parameters, English template,
documentation and an example. The compiler's type checker and English renderer, the
grammar's keyword list and the reference docs all read these declarations; the
interpreter builds closures through the same handlers. Adding a primitive means writing
one decorated handler (and, for new syntax, one grammar rule).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

# Parameter types the compiler checks. "cards" accepts a zone or any collection of cards;
# "cond" and "each" are evaluated once per card with `it` bound to that card.
# "word" takes one bare word from `words`: a fixed tuple, or a category the game declares
# ("marks", "sides", "markers"). "amount" is a number or `all` (from the top of a zone) or cards;
# "target" is a card's mark (card.name) or a counter. A `per_card` parameter is computed once per
# card, as `it`: always (True), or when the parameter it names is given (e.g. "per").
TYPES = ("int", "bool", "value", "card", "cards", "zone", "player", "list", "word", "binding",
         "amount", "target", "block", "effect", "space", "spaces", "players")


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type: str
    prep: str | None = None      # keyword that introduces it in the effect language; None: positional
    required: bool = True
    doc: str = ""
    words: tuple | str = ()
    per_card: bool | str = False


@dataclass(frozen=True, slots=True)
class Primitive:
    name: str
    kind: str                    # "action", "expression" or "flow"
    params: tuple[Param, ...]
    template: str                # English, with {param} holes
    doc: str
    example: str
    handler: Callable
    returns: str = ""            # for expressions: the type of the value
    acting: bool = False         # needs an acting player (`you`): only inside `each player`

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)


REGISTRY: dict[str, Primitive] = {}
KINDS = ("action", "expression", "flow")


def primitive(name: str, kind: str, *, template: str, example: str, params=(), returns: str = "",
              acting: bool = False):
    """Declare the decorated handler as the primitive `name`."""
    assert kind in KINDS, kind

    def register(handler: Callable) -> Callable:
        if name in REGISTRY:
            raise ValueError(f"primitive {name!r} declared twice")
        for param in params:
            assert param.type in TYPES, (name, param)
        doc = " ".join((handler.__doc__ or "").split())
        REGISTRY[name] = Primitive(name, kind, tuple(params), template, doc, example, handler, returns, acting)
        return handler
    return register


def prepositions() -> list[str]:
    """Every keyword that introduces an action parameter (feeds the grammar)."""
    return sorted({p.prep for prim in REGISTRY.values() for p in prim.params if p.prep})


def load_all() -> dict[str, Primitive]:
    """Import every primitive module so the registry is complete."""
    from .primitives import actions, expressions, flow  # noqa: F401  (registration side effect)
    return REGISTRY
