"""The intermediate representation: the only thing the compiler and the interpreter share.

A game is a `GameIR`: static tables (zones, card kinds, cards) plus named procedures
whose bodies are trees of `Node`s. Every node names a registered primitive (`op`) and
carries its arguments and the source span it came from, so runtime errors can point at
the designer's file. The IR is versioned and round-trips through JSON.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
import weakref
from dataclasses import dataclass, field, fields, replace

from .registry import REGISTRY, load_all, role

IR_VERSION = 13


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


def nodes(value):
    """Every node in a value (a node, or a tuple or dict of them), parents first."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Node):
            yield item
            stack.extend(reversed(list(item.args.values())))
        elif isinstance(item, (tuple, list)):
            stack.extend(reversed(item))
        elif isinstance(item, dict):
            stack.extend(reversed(list(item.values())))


@dataclass(frozen=True, slots=True)
class SpaceDef:
    """One space of a map: where it is, and the attributes its legend prints on it."""

    row: str
    column: int
    attributes: dict = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ZoneDecl:
    name: str
    per: str  # "shared", "player" or "card"
    visibility: str  # "public", "owner" or "hidden"
    rows: tuple = ()  # a grid: named rows of `columns` spaces, each space a pile of its own
    columns: int = 0
    map: tuple = ()  # a grid read from a map: only these SpaceDefs exist (every row × column otherwise)
    face_down: str = ""  # what players call a card lying face down here: "token" or "singular|plural"

    def mapped(self, spaces: tuple) -> ZoneDecl:
        """This grid laid out as a map: its rows r1, r2 … and columns as far as the spaces reach."""
        rows = tuple(f"r{n}" for n in range(1, max((int(s.row[1:]) for s in spaces), default=0) + 1))
        return replace(self, rows=rows, columns=max((s.column for s in spaces), default=0), map=spaces)


@dataclass(frozen=True, slots=True)
class CounterDecl:
    """A number kept by the game (a supply, a track, a token count): shared or one per player."""

    name: str
    per: str  # "shared" or "player"
    start: int = 0
    names: tuple = ()  # words for the values 0, 1, 2 … where it is shown to people
    shown: str = ""  # what players call it, where a person sees it; "": the rules' own bookkeeping


@dataclass(frozen=True, slots=True)
class AttrDecl:
    name: str
    type: str  # "int", "enum", "set", "condition", "effect", "number", "numbers" or "text"
    values: tuple = ()  # allowed values for enum and set
    on: str = ""  # an effect that reacts: the event it answers ("trigger EVENT on CARD")
    within: str = ""  # … while its card lies in this zone
    sees: tuple = ()  # a number: (name, type) bindings its expression reads besides it and you
    by: str = ""  # a reacting effect: "owner" when it answers only its card's owner's events
    default: object = (
        None  # a space's attribute: the value of every space that neither prints nor was set one
    )
    shown: str = ""  # a mark: what players call it, where a person sees it; "": the rules' bookkeeping


@dataclass(frozen=True, slots=True)
class KindDecl:
    name: str
    attributes: tuple[AttrDecl, ...]
    sides: tuple[str, ...] = ("front",)


@dataclass(frozen=True, slots=True)
class SideDef:
    side: str
    name: str
    attributes: dict  # attribute -> literal, or Node for condition attributes
    text: dict = field(default_factory=dict)  # condition attribute -> the source text
    art: str = ""  # the picture drawn in its face's art box: a data URI (images.py), or none


@dataclass(frozen=True, slots=True)
class CardDef:
    id: str
    kind: str
    copies: int
    sides: tuple[SideDef, ...]
    span: Span | None = None
    origin: str = ""  # the pack the card comes from ("" for the game's own and its modules')


@dataclass(frozen=True, slots=True)
class TableLayout:
    """How the table in the browser arranges the zones (`table:`): these first, in this order,
    in each player's area and the shared one; those hidden never drawn (zones set aside at setup).
    Zones left out follow in the order the rules declare them."""

    order: tuple[str, ...] = ()
    hide: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FaceDecl:
    """How the cards of a kind are drawn (`faces:`): their size in mm, the attribute whose value
    picks their colour, the printed numbers in their corners, the attributes shown as badges, and
    whether their sides are halves printed on one face (`split`) rather than faces of their own."""

    kind: str
    width: int = 63
    height: int = 88
    colour: str = ""  # an enum attribute
    colours: dict = field(default_factory=dict)  # its value -> "#rrggbb"
    corners: tuple[str, ...] = ()
    badges: tuple[str, ...] = ()
    split: str = ""  # "rows": the sides one above the other; "columns": side by side
    art: int = 30  # the art box's share of a face's height, in percent (0: none)
    pictures: tuple[str, ...] = ()  # attributes whose values' icons fill the art box of a card without art
    flavour: str = ""  # a text attribute printed in italics under the card's text


@dataclass(frozen=True, slots=True)
class OptionDecl:
    """A setup option chosen before the game starts (`--set NAME=VALUE`): one of `values`."""

    name: str
    values: tuple[str, ...]
    default: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class Company:
    """A module that must be on (in `requires`) or off (in `excludes`) while the module declaring
    it is on, whenever every module in `when` is on too (always, when `when` is empty)."""

    module: str
    when: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Module:
    name: str
    description: str
    procedures: dict  # procedure name -> Node replacing the base game's
    before: dict = field(default_factory=dict)  # procedure name -> block run before it
    after: dict = field(default_factory=dict)  # procedure name -> block run after it
    cards: tuple[CardDef, ...] = ()  # cards in the game only while the module is on
    requires: tuple[Company, ...] = ()
    excludes: tuple[Company, ...] = ()
    options: tuple[OptionDecl, ...] = ()
    players: tuple[int, ...] = ()  # (min, max) while it is on, instead of the game's
    maps: dict = field(default_factory=dict)  # grid zone name -> the SpaceDefs of the map it lays instead
    written: dict = field(
        default_factory=dict
    )  # "NAME", "before NAME", "after NAME" -> its steps as written (YAML)
    faces: tuple[FaceDecl, ...] = ()  # how its own cards are drawn, where not as the game's


@dataclass(frozen=True, slots=True)
class Phrase:
    """How a piece of the rules reads in the game's own words: wherever `pattern` (steps, or one
    expression, with `hole`s for any part) matches, the text is `text` with each {HOLE} filled."""

    pattern: tuple[Node, ...]
    text: str
    span: Span | None = None


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """The words a game gives its rules and cards in the rules reference (read, never run):
    `labels` introduce each attribute on a card ("When played: {}"), `phrases` word the rest;
    `headings` are what a play log prints as a procedure starts ("Round {round}")."""

    labels: dict = field(default_factory=dict)  # attribute -> a template with one {}
    phrases: tuple[Phrase, ...] = ()
    headings: dict = field(default_factory=dict)  # procedure -> a text with {name} holes for what it sees


@dataclass(frozen=True, slots=True)
class Pack:
    """A fan pack compiled on its base game: its name and what it says of itself (pack.yaml), and
    the modules it adds (its cards say `origin`). A game's own IR has none (name "")."""

    name: str = ""
    description: str = ""
    modules: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Solo:
    """How a game played alone is won: `won`, a condition worked out at the end (the player as
    you); `result`, a counter whose final value names how well (a challenge's tier)."""

    won: Node | None = None
    result: str = ""


@dataclass(frozen=True, slots=True)
class StrategyRule:
    """One rule of a strategy: at the decisions of procedure `at` (any decision when empty),
    keep the options labelled as in `pick` (the first of them offered), or the options whose
    `prefer` (a number or a condition, worked out with the option as `it`) is highest."""

    at: str = ""
    prefer: Node | None = None
    pick: tuple[str, ...] = ()
    span: Span | None = None


@dataclass(frozen=True, slots=True)
class Strategy:
    """A persona an agent plays by: rules tried in order at every decision, each narrowing the
    options the one before kept; what is left is picked among at random."""

    name: str
    doc: str
    rules: tuple[StrategyRule, ...]


class SetupError(ValueError):
    """A game set up with modules or options its rules do not allow (a misuse, not a rule failing)."""


def player_count(low: int, high: int) -> str:
    """How many play, in words: "1 player", "2 to 4 players"."""
    return f"{low} player{'s' * (low != 1)}" if low == high else f"{low} to {high} players"


@dataclass(frozen=True, slots=True, weakref_slot=True)  # weakly referred to: ir.digest
class GameIR:
    id: str
    name: str
    min_players: int
    max_players: int
    zones: tuple[ZoneDecl, ...]
    kinds: tuple[KindDecl, ...]
    marks: tuple[AttrDecl, ...]
    cards: tuple[CardDef, ...]
    procedures: dict  # name -> Node; "setup", "play" and "scoring" are required
    modules: dict = field(default_factory=dict)  # name -> Module
    counters: tuple[CounterDecl, ...] = ()
    interrupts: tuple[Node, ...] = ()  # "interrupt" nodes, watched after every action
    definitions: tuple = ()  # (name, parameters, text) of each `define:`, for the reference pages
    options: tuple[OptionDecl, ...] = ()  # the game's setup options (a module may declare more)
    spaces: tuple[
        AttrDecl, ...
    ] = ()  # the attributes every space of a grid carries (a map's legend prints them)
    tiebreak: tuple[Node, ...] = ()  # numbers per player (as you) that order players tied on points
    vocabulary: Vocabulary = Vocabulary()  # the game's and its modules' words, for the rules reference
    written: dict = field(
        default_factory=dict
    )  # procedure name -> its steps as written (YAML), for designers
    faces: tuple[FaceDecl, ...] = ()  # how each kind of card is drawn (kinds left out: a default layout)
    icons: dict = field(
        default_factory=dict
    )  # attribute -> {value -> a picture's data URI}, the modules' too
    strategies: dict = field(default_factory=dict)  # name -> Strategy: personas agents play by
    table: TableLayout = TableLayout()  # how the table in the browser arranges the zones
    solo: Solo = Solo()  # how a game played alone is won (none: the player alone always is)
    pack: Pack = Pack()  # the pack this IR is compiled from, on its base game (none: the game itself)
    version: int = IR_VERSION

    def with_modules(self, names) -> GameIR:
        """The game with the named modules layered on, in order (a name given twice counts once):
        their cards join the game's; a module's procedures replace the game's of the same name
        (the last module wins); each module's steps before and after a procedure wrap whichever
        body is in force, in module order; a module's map lays out the grid it names (the last
        module's wins). The modules layered on keep their procedures only
        (the rest is the game's now), so layering them again changes nothing. A module that says
        how many players it is for sets the game's range (the last such module wins). SetupError for a
        module the game lacks, or a combination the modules' `requires` and `excludes` forbid."""
        layered = [self.modules[name] for name in self.checked_modules(names)]
        procedures = dict(self.procedures)
        for module in layered:
            procedures.update(module.procedures)
        procedures = {
            name: _extended(
                body,
                [m.before[name] for m in layered if name in m.before],
                [m.after[name] for m in layered if name in m.after],
            )
            for name, body in procedures.items()
        }
        merged = {
            m.name: replace(m, before={}, after={}, cards=(), maps={}) for m in layered
        }  # now the game's own
        cards = {
            c.id: c for c in (*self.cards, *(c for m in layered for c in m.cards))
        }  # a shared card file: once
        maps = {zone: spaces for m in layered for zone, spaces in m.maps.items()}  # the last module's wins
        low, high = self.player_range(names)
        return replace(
            self,
            procedures=procedures,
            cards=tuple(cards.values()),
            min_players=low,
            max_players=high,
            modules={**self.modules, **merged},
            zones=_laid_out(self.zones, maps),
        )

    def with_maps(self, maps: dict) -> GameIR:
        """The game with these grids (zone name -> SpaceDefs) laid out by these maps, whatever
        map a module would lay on them (a position's own small board)."""
        modules = {
            name: replace(m, maps={z: s for z, s in m.maps.items() if z not in maps})
            for name, m in self.modules.items()
        }
        return replace(self, zones=_laid_out(self.zones, maps), modules=modules)

    def player_range(self, modules=()) -> tuple[int, int]:
        """(min, max) players with these modules on: the last on that says how many, else the game's."""
        layered = [self.modules[name] for name in self.checked_modules(modules)]
        return next((m.players for m in reversed(layered) if m.players), (self.min_players, self.max_players))

    def checked_players(self, players: int, modules=()) -> int:
        """The number of players, when the game with these modules on is for that many; else
        SetupError, naming the modules that make the game for other numbers."""
        low, high = self.player_range(modules)
        if not low <= players <= high:
            setting = next((m.name for m in reversed([self.modules[n] for n in modules]) if m.players), None)
            others = [
                f"{player_count(*m.players)} with module {m.name!r}"
                for m in self.modules.values()
                if m.players and m.name not in modules
            ]
            with_module = f" with module {setting!r}" if setting else ""
            raise SetupError(
                f"{self.name}{with_module} is for {player_count(low, high)}"
                + (f" ({'; '.join(others)})" if others else "")
            )
        return players

    def checked_modules(self, names) -> tuple[str, ...]:
        """The names, once each, when they make a combination the game allows; else SetupError."""
        on = tuple(dict.fromkeys(names))
        for name in on:
            if name not in self.modules:
                has = f"has: {', '.join(self.modules)}" if self.modules else "has no modules"
                raise SetupError(f"unknown module {name!r}; {self.name} {has}" + _near(name, self.modules))
        for name in on:
            module = self.modules[name]
            for company in module.requires:
                if company.module not in on and set(company.when) <= set(on):
                    raise SetupError(
                        f"module {name!r} needs module {company.module!r} on too" + _when(company)
                    )
            for company in module.excludes:
                if company.module in on and set(company.when) <= set(on):
                    raise SetupError(
                        f"modules {name!r} and {company.module!r} cannot be on together" + _when(company)
                    )
        return on

    def settings(self, modules, chosen: dict) -> dict:
        """The value of every option, the game's and its modules': as `chosen` (name -> value), or
        its default. SetupError for an unknown option or value, or an option whose module is off."""
        owners = {option.name: (option, "") for option in self.options}
        owners |= {
            option.name: (option, module.name)
            for module in self.modules.values()
            for option in module.options
        }
        for name, value in chosen.items():
            if name not in owners:
                has = f"has: {', '.join(owners)}" if owners else "has no options"
                raise SetupError(f"unknown option {name!r}; {self.name} {has}" + _near(name, owners))
            option, owner = owners[name]
            if owner and owner not in modules:
                raise SetupError(f"option {name!r} belongs to module {owner!r}, which is not on")
            if value not in option.values:
                raise SetupError(
                    f"option {name!r} cannot be {value!r}; it can be: {', '.join(option.values)}"
                    + _near(value, option.values)
                )
        return {name: chosen.get(name, option.default) for name, (option, _) in owners.items()}


def _laid_out(zones: tuple, maps: dict) -> tuple:
    """The zones, each grid that `maps` names (zone name -> SpaceDefs) laid out by its map."""
    return tuple(zone.mapped(maps[zone.name]) if zone.name in maps else zone for zone in zones)


def _extended(body: Node, before: list, after: list) -> Node:
    """A procedure's body with blocks of steps run before and after it (each block keeps its
    own bindings: a `let` in one is not seen by the others)."""
    if not before and not after:
        return body
    load_all()
    part = REGISTRY[body.op].roles["sequence"]
    return Node(body.op, {**body.args, part: (*before, *body.args[part], *after)}, body.span)


def _when(company: Company) -> str:
    if not company.when:
        return ""
    names = " and ".join(repr(name) for name in company.when)
    return f" when {names} {'is' if len(company.when) == 1 else 'are'} on"


def _near(word: str, known) -> str:
    close = difflib.get_close_matches(str(word), list(map(str, known)), n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""


class IRError(ValueError):
    """A file that is not a well-formed silvics IR; `path` is where (a JSON path)."""

    def __init__(self, problem: str):
        super().__init__(problem)
        self.problem = problem
        self.keys: list = []  # innermost first, added as the error leaves each container
        self.rooted = False

    def inside(self, key) -> IRError:
        if not self.rooted:
            self.keys.append(key)
        return self

    def at(self, *keys) -> IRError:
        """Inside these keys, outermost first."""
        for key in reversed(keys):
            self.inside(key)
        return self

    def root(self) -> IRError:
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


_PATH_ENDS = 12  # keys shown at each end of a deeper path


def _path_step(key) -> str:
    if isinstance(key, int):
        return f"[{key}]"
    return f".{key}" if re.fullmatch(r"[A-Za-z_][\w-]*", key) else f"[{json.dumps(key)}]"


# ---- JSON round trip -------------------------------------------------------------------


def _encode(value, bodies: dict):
    """Plain JSON data; a definition's body (one per variant, used in many places) is written
    once, in `bodies`, and referred to as {"$body": variant}."""
    variant = role(value, "body number")  # a definition used: its body is written once
    if variant is not None:
        shared = REGISTRY[value.op].roles["shared body"]
        if variant not in bodies:
            bodies[variant] = None  # claimed first: bodies may use other definitions
            bodies[variant] = _encode(role(value, "shared body"), bodies)
        args = {
            key: (_encode(item, bodies) if key != shared else {"$body": variant})
            for key, item in value.args.items()
        }
        return {"$": "Node", "op": value.op, "args": args, "span": _encode(value.span, bodies)}
    if isinstance(value, Span):
        return {"@": str(value)}  # file:line:col, as diagnostics print it
    if hasattr(value, "__dataclass_fields__"):
        return {
            "$": type(value).__name__,
            **{f.name: _encode(getattr(value, f.name), bodies) for f in fields(value)},
        }
    if isinstance(value, dict):
        return {key: _encode(item, bodies) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_encode(item, bodies) for item in value]
    return value


def dumps(game: GameIR) -> str:
    """The IR as JSON text; the same IR asked again gives the text kept from the last time (a
    balance report hands its IR to the workers of each study: 0.18 s a time for a large game)."""
    kept = _TEXTS.get(id(game))
    if kept is not None and kept[0] is game:
        return kept[1]
    load_all()  # the roles that say which parts are shared bodies
    bodies: dict = {}
    data = _encode(game, bodies)
    data["definition_bodies"] = {str(variant): body for variant, body in sorted(bodies.items())}
    text = json.dumps(data, separators=(",", ":"))
    _remember(game, text)
    return text


def loads(text: str) -> GameIR:
    """The GameIR in a JSON text, checked throughout first (an IR file is untrusted input);
    IRError, naming the place, when it is not well-formed."""
    from .irchecks import decode  # irchecks reads this module's classes

    game = decode(text)
    _remember(game, text)
    return game


# id -> (a weak reference to the IR, the SHA-256 of its text), while the IR lives: however many
# IRs a process reads after it (a test run reads thousands), a game it keeps keeps its digest, and
# with it its generated code's place in the cache (codecache.module_for)
_DIGESTS: dict[int, tuple[weakref.ref, str]] = {}
_TEXTS: dict[int, tuple[GameIR, str]] = {}  # id -> (IR, its text), the last few (texts are large)


def digest(game: GameIR) -> str | None:
    """The SHA-256 of the JSON text an IR was read from or written as, or None for one made in
    memory since (writing it out only to hash it would cost 40–130 ms)."""
    found = _DIGESTS.get(id(game))
    return found[1] if found is not None and found[0]() is game else None


def _remember(game: GameIR, text: str) -> None:
    if len(_TEXTS) >= 4:
        _TEXTS.clear()
    if id(game) not in _DIGESTS:
        weakref.finalize(game, _DIGESTS.pop, id(game), None)  # forgotten as the IR goes
    _DIGESTS[id(game)] = (weakref.ref(game), hashlib.sha256(text.encode()).hexdigest())
    _TEXTS[id(game)] = (game, text)
