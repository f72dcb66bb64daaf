"""The intermediate representation: the only thing the compiler and the interpreter share.

A game is a `GameIR`: static tables (zones, card kinds, cards) plus named procedures
whose bodies are trees of `Node`s. Every node names a registered primitive (`op`) and
carries its arguments and the source span it came from, so runtime errors can point at
the designer's file. The IR is versioned and round-trips through JSON.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field, fields

IR_VERSION = 3


@dataclass(frozen=True, slots=True)
class Span:
    file: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True, slots=True)
class Node:
    """One use of a primitive: `op` names it, `args` holds literals, Nodes or tuples of them."""
    op: str
    args: dict = field(default_factory=dict)
    span: Span | None = None


@dataclass(frozen=True, slots=True)
class ZoneDecl:
    name: str
    per: str            # "shared", "player" or "card"
    visibility: str     # "public", "owner" or "hidden"
    rows: tuple = ()    # a grid: named rows of `columns` spaces, each space a pile of its own
    columns: int = 0


@dataclass(frozen=True, slots=True)
class CounterDecl:
    """A number kept by the game (a supply, a track, a token count): shared or one per player."""
    name: str
    per: str            # "shared" or "player"
    start: int = 0


@dataclass(frozen=True, slots=True)
class AttrDecl:
    name: str
    type: str           # "int", "enum", "set", "condition", "effect", "number" or "numbers"
    values: tuple = ()  # allowed values for enum and set
    on: str = ""        # an effect that reacts: the event it answers ("trigger EVENT on CARD")
    within: str = ""    # … while its card lies in this zone
    sees: tuple = ()    # a number: (name, type) bindings its expression reads besides it and you


@dataclass(frozen=True, slots=True)
class KindDecl:
    name: str
    attributes: tuple[AttrDecl, ...]
    sides: tuple[str, ...] = ("front",)


@dataclass(frozen=True, slots=True)
class SideDef:
    side: str
    name: str
    attributes: dict     # attribute -> literal, or Node for condition attributes
    text: dict = field(default_factory=dict)   # condition attribute -> the source text


@dataclass(frozen=True, slots=True)
class CardDef:
    id: str
    kind: str
    copies: int
    sides: tuple[SideDef, ...]
    span: Span | None = None


@dataclass(frozen=True, slots=True)
class Module:
    name: str
    description: str
    procedures: dict     # procedure name -> Node replacing the base game's


@dataclass(frozen=True, slots=True)
class GameIR:
    id: str
    name: str
    min_players: int
    max_players: int
    zones: tuple[ZoneDecl, ...]
    kinds: tuple[KindDecl, ...]
    marks: tuple[AttrDecl, ...]
    cards: tuple[CardDef, ...]
    procedures: dict     # name -> Node; "setup", "play" and "scoring" are required
    modules: dict = field(default_factory=dict)   # name -> Module
    counters: tuple[CounterDecl, ...] = ()
    interrupts: tuple[Node, ...] = ()     # "interrupt" nodes, watched after every action
    definitions: tuple = ()               # (name, parameters, text) of each `define:`, for the reference pages
    version: int = IR_VERSION

    def with_modules(self, names) -> "GameIR":
        """The game with the named modules layered on, in order."""
        procedures = dict(self.procedures)
        for name in names:
            if name not in self.modules:
                raise KeyError(f"unknown module {name!r}; this game has: {', '.join(self.modules) or 'none'}")
            procedures.update(self.modules[name].procedures)
        return GameIR(**{**{f.name: getattr(self, f.name) for f in fields(self)}, "procedures": procedures})


# ---- JSON round trip -------------------------------------------------------------------

_CLASSES = {cls.__name__: cls for cls in (Span, Node, ZoneDecl, CounterDecl, AttrDecl, KindDecl, SideDef, CardDef, Module, GameIR)}


def _encode(value):
    if hasattr(value, "__dataclass_fields__"):
        return {"$": type(value).__name__, **{f.name: _encode(getattr(value, f.name)) for f in fields(value)}}
    if isinstance(value, dict):
        return {key: _encode(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_encode(item) for item in value]
    return value


def _decode(value):
    if isinstance(value, dict):
        kind = value.get("$")
        decoded = {key: _decode(item) for key, item in value.items() if key != "$"}
        return _CLASSES[kind](**decoded) if kind else decoded
    if isinstance(value, list):
        return tuple(_decode(item) for item in value)
    return value


def dumps(game: GameIR) -> str:
    return json.dumps(_encode(game), indent=1, sort_keys=False)


def loads(text: str) -> GameIR:
    data = json.loads(text)
    if data.get("version") != IR_VERSION:
        raise ValueError(f"IR version {data.get('version')} is not supported (this silvics reads version {IR_VERSION})")
    return _decode(data)
