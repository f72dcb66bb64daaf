"""The intermediate representation: the only thing the compiler and the interpreter share.

A game is a `GameIR`: static tables (zones, card kinds, cards) plus named procedures
whose bodies are trees of `Node`s. Every node names a registered primitive (`op`) and
carries its arguments and the source span it came from, so runtime errors can point at
the designer's file. The IR is versioned and round-trips through JSON.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, fields

from .registry import REGISTRY, load_all, role

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


class IRError(ValueError):
    """A file that is not a well-formed silvics IR; `path` is where (a JSON path)."""

    def __init__(self, problem: str):
        super().__init__(problem)
        self.problem = problem
        self.keys: list = []          # innermost first, added as the error leaves each container
        self.rooted = False

    def inside(self, key) -> "IRError":
        if not self.rooted:
            self.keys.append(key)
        return self

    def at(self, *keys) -> "IRError":
        """Inside these keys, outermost first."""
        for key in reversed(keys):
            self.inside(key)
        return self

    def root(self) -> "IRError":
        """The path is complete (a definition body's, named from the top of the file)."""
        self.rooted = True
        return self

    @property
    def path(self) -> str:
        """The JSON path, outermost first; a very deep one with its middle left out."""
        steps = [_path_step(key) for key in reversed(self.keys)]
        if len(steps) > 2 * _PATH_ENDS:
            steps = [*steps[:_PATH_ENDS], f" … {len(steps) - 2 * _PATH_ENDS} more … ", *steps[-_PATH_ENDS:]]
        return "".join(steps).lstrip(".")

    def __str__(self) -> str:
        return f"{self.path}: {self.problem}" if self.keys else self.problem


_PATH_ENDS = 12      # keys shown at each end of a deeper path


def _path_step(key) -> str:
    if isinstance(key, int):
        return f"[{key}]"
    return f".{key}" if re.fullmatch(r"[A-Za-z_][\w-]*", key) else f"[{json.dumps(key)}]"


# ---- JSON round trip -------------------------------------------------------------------

def _encode(value, bodies: dict):
    """Plain JSON data; a definition's body (one per variant, used in many places) is written
    once, in `bodies`, and referred to as {"$body": variant}."""
    variant = role(value, "body number")            # a definition used: its body is written once
    if variant is not None:
        shared = REGISTRY[value.op].roles["shared body"]
        if variant not in bodies:
            bodies[variant] = None                       # claimed first: bodies may use other definitions
            bodies[variant] = _encode(role(value, "shared body"), bodies)
        args = {key: (_encode(item, bodies) if key != shared else {"$body": variant}) for key, item in value.args.items()}
        return {"$": "Node", "op": value.op, "args": args, "span": _encode(value.span, bodies)}
    if isinstance(value, Span):
        return {"@": str(value)}                          # file:line:col, as diagnostics print it
    if hasattr(value, "__dataclass_fields__"):
        return {"$": type(value).__name__, **{f.name: _encode(getattr(value, f.name), bodies) for f in fields(value)}}
    if isinstance(value, dict):
        return {key: _encode(item, bodies) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_encode(item, bodies) for item in value]
    return value


def dumps(game: GameIR) -> str:
    load_all()                  # the roles that say which parts are shared bodies
    bodies: dict = {}
    data = _encode(game, bodies)
    data["definition_bodies"] = {str(variant): body for variant, body in sorted(bodies.items())}
    return json.dumps(data, separators=(",", ":"))


def loads(text: str) -> GameIR:
    """The GameIR in a JSON text, checked throughout first (an IR file is untrusted input);
    IRError, naming the place, when it is not well-formed."""
    from .irchecks import decode      # irchecks reads this module's classes
    return decode(text)
