"""The engine: a game built from IR, advanced step by step, pausing at each Choice.

    game = Game(ir, players=4, seed=1)
    while not game.over:
        seat = game.pending.seat
        game.apply(agents[seat].choose(game.observe(seat)))     # agents.play_on does this

The state is plain data (see state.py); `copy()` is cheap, so agents can look ahead. The
closures the rules compile to follow the protocol in runtime.py.
"""

from __future__ import annotations

import contextlib
import hashlib
import struct
import sys
from collections import deque
from collections.abc import Callable, Collection, Iterable, Sequence
from functools import partial
from itertools import chain
from operator import itemgetter
from typing import NamedTuple

from . import codecache
from .codegen import Module, StaleCode
from .ir import GameIR, Node, SetupError, Span, nodes, player_count
from .observation import Observation
from .registry import REGISTRY, free_names, has_role, load_all, role
from .runtime import FAULTS, UNANSWERED, Choice, Frame, GameError, never, reason
from .state import (
    ATTRIBUTES,
    EVERYTHING,
    SCORES,
    WHOLE,
    Record,
    Said,
    State,
    parse_key,
    space_key,
    written,
    zone_key,
)
from .views import SEEN, picked_label

MAX_NESTING = 16  # cards held by cards held by cards …: deeper than any table (and than a cycle)

STEP_BUDGET = 1_000_000  # flow steps per game; rules that loop forever stop with an error
MEMO_LIMIT = 200_000  # remembered values per game lineage before they are forgotten wholesale
SAMPLED = 4_000  # values asked for in the first games of a set of rules, to judge which are worth remembering
SAMPLED_GAMES = 10  # or the values asked for in that many games, if fewer (a game may ask for 16 in all)
JUDGED = 40  # the least times a definition is asked for in them to be judged
NEVER_HELD = 20  # or this many, if its value never held in them (one keyed by a card just played)
WORTH = 0.25  # the least share of those times its remembered value must still hold
PLAIN_WORTH = 0.51  # the same, for a value worked out without asking for another one: see Worth
WHOLE_FROM = 32  # spaces: a smaller grid has no whole key (Wholes), its few keys are read as they are

__all__ = ["Game", "GameError", "Rules", "SetupError", "compiled_rules"]


class Rules:
    """The static half of a game: the card table and compiled procedures, shared by copies.
    Compiled once for many games, its card table lists the cards in the rules' order; each
    game takes a table of its own from it (`dealt`, in the secret_order of its uids).
    `modules` are switched on (layered on `ir`) and `options` chosen (name -> value; the
    others take their defaults); SetupError when the game does not allow them."""

    def __init__(self, ir: GameIR, modules=(), options=None):
        load_all()
        self.modules = ir.checked_modules(modules)
        self.options = ir.settings(self.modules, options or {})
        try:  # the expressions' and actions' generated code, from the cache if it holds it
            self._build(ir, codecache.module_for(ir, self.modules, ir.name))
        except StaleCode:
            self._build(ir, codecache.afresh(self.code))
        codecache.keep(self.code)

    def _build(self, base: GameIR, code: Module):
        self.code = code
        self.ir = ir = base.with_modules(self.modules)
        self._built: dict[int, tuple] = {}  # id(node) -> (node, closure): a shared body is built once
        self._steps: dict[int, tuple] = {}  # id(node) -> (node, step, the place it notes): Rules.step
        self._straight: dict[int, tuple] = {}  # id(node) -> (node, whether it runs straight through)
        self._inlining: set[str] = set()  # procedures being written into a caller's runner (flow.py)
        self.defs = [card for card in ir.cards for _ in range(card.copies)]
        self.zones = {zone.name: zone for zone in ir.zones}
        self.sight: dict[str, tuple] = {}  # zone key -> (visibility, owning seat): views.in_sight's
        sides = [side.attributes for card in ir.cards for side in card.sides]
        code.rules = (ir.procedures, sides, ir.interrupts, ir.tiebreak, ir.solo.won)  # all it builds
        self.procedures = {name: self.build(body) for name, body in ir.procedures.items()}
        conditions = {a.name for kind in ir.kinds for a in kind.attributes if a.type == "condition"}
        compiled = {
            card.id: [
                {
                    name: code.printed_condition(value) if name in conditions else self.build(value)
                    for name, value in side.attributes.items()
                    if isinstance(value, Node)
                }
                for side in card.sides
            ]
            for card in ir.cards
        }
        self.printed = [compiled[card.id] for card in self.defs]  # conditions and effects printed on cards
        leading = {
            card.id: [
                {
                    name: self.build(role(role(value, "sequence")[0], "branch on"))
                    for name, value in side.attributes.items()
                    if _single_if(value)
                }
                for side in card.sides
            ]
            for card in ir.cards
        }
        self.leading = [leading[card.id] for card in self.defs]  # effects that are one `if`: its condition
        faces = {
            card.id: Sides(
                {"id": card.id, "kind": card.kind, "side": side.side, "name": side.name, **side.attributes}
                for side in card.sides
            )
            for card in ir.cards
        }
        self.faces = [faces[card.id] for card in self.defs]  # what each side shows, builtins included
        self.reacting: dict[str, frozenset] = {}  # effect attribute -> the cards printing it (able_to)
        # the rules these were dealt from, the order, and its inverse (Rules.dealt)
        self.dealt_from: tuple[Rules, list[int], list[int] | None] | None = None
        # which definitions are worth remembering: shared by every game of these rules, and set in their code
        self.worth = Worth(code.forget)
        self.interrupts = [self.build(node) for node in ir.interrupts]  # Watched: cond, body, span
        self.attributes = {a.name: a for kind in ir.kinds for a in kind.attributes}
        self.listeners: dict[
            str, list
        ] = {}  # event -> [(effect attribute, zone it reacts within, owner's only)]
        for attribute in self.attributes.values():  # once each, however many kinds declare it
            if attribute.on:
                self.listeners.setdefault(attribute.on, []).append(
                    (attribute.name, attribute.within, attribute.by == "owner")
                )
        self.main = self.build(
            Node(
                "block",
                {"steps": tuple(Node("call", {"name": name}) for name in ("setup", "play", "scoring"))},
            )
        )
        self.tiebreak = [self.build(node) for node in ir.tiebreak]
        self.solo_won = self.build(ir.solo.won) if ir.solo.won is not None else None
        # the `draw` steps reading nothing but the space they draw: public drawings of grids,
        # which Observation.drawings works out as the board stands
        self.drawings = tuple(
            {
                id(node): node
                for body in ir.procedures.values()
                for node in nodes(body)
                if node.op == "draw" and not free_names(node)
            }.values()
        )
        self.space_defaults = {a.name: a.default for a in ir.spaces if a.default is not None}
        self.grids = _Lazy(lambda name: _Lazy(partial(self._grid, name)))  # zone -> seat -> its spaces
        self.borders = _Lazy(self._bordering)  # space key -> its neighbours (Rules.bordering)
        self.places = _Lazy(parse_key)  # zone key -> its parts (read in place: `places[key].row`)
        self._spaces: dict = {}  # space key -> (what it shows unless set, its attributes' stamp key)
        self.printed_spaces = _Lazy(self._printed)  # space key -> what it shows unless set
        self._showing: dict = {}  # (grid, seat, attribute) -> Rules.spaces_showing's index
        self._wholes: dict[int, Wholes] = {}  # players -> the grids of a game of that many
        self.code.finish()

    # ---- the spaces of grids (every row × column, or those a map lays) ----
    def grid_spaces(self, name: str, seat) -> tuple:
        """The spaces of a grid zone (of a seat's), row by row (generated code reads `grids` in place)."""
        return self.grids[name][seat]

    def _grid(self, name: str, seat) -> tuple:
        zone = self.zones[name]
        places = (
            [(s.row, s.column) for s in zone.map]
            if zone.map
            else [(row, column) for row in zone.rows for column in range(1, zone.columns + 1)]
        )
        return tuple(space_key(name, row, column, seat) for row, column in places)

    def bordering(self, key: str) -> tuple:
        """The spaces sharing a border with a space: same row next column, same column next row."""
        return self.borders[key]

    def _bordering(self, key: str) -> tuple:
        name, row, column, seat = parse_key(key)
        assert column is not None  # a space's key names its column (worked out once per space)
        rows, there = self.zones[name].rows, set(self.grid_spaces(name, seat))
        index = rows.index(row)
        places = [(index, column - 1), (index, column + 1), (index - 1, column), (index + 1, column)]
        return tuple(
            near
            for r, c in places
            if 0 <= r < len(rows) and (near := space_key(name, rows[r], c, seat)) in there
        )

    def wholes(self, players: int) -> Wholes:
        """The grids of a game of `players` (a grid of each player's per seat), for remembered
        values that read a whole one (Wholes)."""
        found = self._wholes.get(players)
        if found is None:
            families = []
            for zone in self.zones.values():
                for seat in _seats(zone.per, players) if zone.rows or zone.map else ():
                    grid, spaces = zone_key(zone.name, seat), self.grid_spaces(zone.name, seat)
                    families += [
                        (frozenset(spaces), WHOLE + grid),
                        (frozenset(ATTRIBUTES + key for key in spaces), WHOLE + ATTRIBUTES + grid),
                    ]
            found = self._wholes[players] = Wholes([f for f in families if len(f[0]) >= WHOLE_FROM])
        return found

    def printed_space(self, key: str) -> dict:
        """The attributes a space shows before the rules set any: as its map prints them, else
        each attribute's default."""
        return self.printed_spaces[key]

    def spaces_showing(self, name: str, seat, attribute: str, value) -> tuple:
        """The spaces of a grid whose map prints `value` for an attribute no rule sets
        (Module.settled), in the grid's order: from an index made once, for filters by it."""
        grid = (name, seat, attribute)
        if grid not in self._showing:
            self._showing[grid] = _indexed(self.grid_spaces(name, seat), self.printed_spaces, attribute)
        index = self._showing[grid]
        if index is not None:
            with contextlib.suppress(TypeError):  # a list asked for: looked for space by space
                return index.get(value, ())
        return tuple(
            key for key in self.grid_spaces(name, seat) if self.printed_spaces[key].get(attribute) == value
        )

    def reprinted(self, spaces: dict[str, dict]) -> Rules:
        """The same rules with some spaces printed otherwise (space key -> attributes): how a
        position sets an attribute no rule sets, which the code reads as printed (Module.settled)."""
        rules = self._shared()
        rules._spaces = {**self._spaces}
        rules.printed_spaces, rules._showing = _Lazy(rules._printed), {}
        for key, attributes in spaces.items():
            rules.printed_spaces[key] = {**self.printed_spaces[key], **attributes}
            rules._spaces[key] = (rules.printed_spaces[key], ATTRIBUTES + key)
        return rules

    def _printed(self, key: str) -> dict:
        return self._space(key)[0]

    def _space(self, key: str) -> tuple:
        parts = parse_key(key)
        printed = {(s.row, s.column): s.attributes for s in self.zones[parts.name].map}
        found = self._spaces[key] = (
            {**self.space_defaults, **printed.get((parts.row, parts.column), {})},
            ATTRIBUTES + key,
        )
        return found

    def dealt(self, order: list[int], inverse: list[int] | None = None) -> Rules:
        """The same rules with the cards dealt otherwise: card `uid` shows what card `order[uid]`
        shows here (a new game's secret_order; a guessed world: views.shuffled_unseen), and the
        card showing what card `c` shows here is `inverse[c]` (worked out when first asked, if
        not given). Everything else is shared."""
        rules = self._shared()
        tables: tuple[list, ...] = (self.defs, self.faces, self.printed, self.leading)
        rules.defs, rules.faces, rules.printed, rules.leading = _permuted(tables, order)
        rules.reacting, rules.dealt_from = {}, (self, order, inverse)
        return rules

    def zone_label(self, key: str, name=None) -> str:
        """A zone or counter key as files and logs spell it: deck, hand@2 (seat 2's), tucked@oak
        (attached to the card oak, named by `name(uid)`: its id unless given)."""
        parts = parse_key(key)
        if parts.owner is None:
            return parts.place
        zone = self.zones.get(parts.name)  # counters are labelled the same way as zones
        if zone and zone.per == "card":
            return f"{parts.place}@{name(parts.owner) if name else self.defs[parts.owner].id}"
        return f"{parts.place}@{parts.owner + 1}"

    def able_to(self, name: str) -> frozenset:
        """The cards printing effect `name` on some side (Game.reactors looks at no other)."""
        found = self.reacting.get(name)
        if found is None:
            if self.dealt_from is None:
                found = frozenset(
                    uid for uid, sides in enumerate(self.printed) if any(name in side for side in sides)
                )
            else:  # the cards showing what those of the rules dealt from showed: asked once per rules
                source, order, inverse = self.dealt_from
                if inverse is None:
                    inverse = _inverse(order)
                    self.dealt_from = (source, order, inverse)
                found = frozenset(map(inverse.__getitem__, source.able_to(name)))
            self.reacting[name] = found
        return found

    def with_options(self, options) -> Rules:
        """The same rules with other setup options chosen: closures read the options as they run
        (`option(NAME)`), so everything else is shared. SetupError as for Rules()."""
        rules = self._shared()
        rules.options = self.ir.settings(self.modules, options or {})
        return rules

    def _shared(self) -> Rules:
        rules = Rules.__new__(Rules)
        for name, value in self.__dict__.items():  # set one by one: a copy.copy's attributes are
            setattr(rules, name, value)  # slower to read, and rules read game.rules often
        return rules

    def build(self, node: Node):
        """The closure for a node, or for an expression its generated function. A node used in
        many places (a definition's body, shared by every use of one variant) is built once:
        neither keeps state of its own."""
        built = self._built.get(id(node))
        if built is not None and built[0] is node:
            return built[1]
        primitive = REGISTRY.get(node.op)
        if primitive is None:
            raise GameError(f"this interpreter has no primitive {node.op!r} ({node.span})")
        if primitive.kind == "flow":
            compiled, span = self.step(node)
            if span is not None:
                compiled = _noted(compiled, span)
        elif primitive.kind == "expression":
            compiled = self.code.function(node)
        else:
            compiled = self.code.action(node)
        self._built[id(node)] = (node, compiled)
        return compiled

    def step(self, node: Node) -> tuple[Callable, Span | None]:
        """A block's step, and the place it notes as it starts (None: none), apart: a block's runner
        notes its steps itself (flow._runner), and `build` gives the two as one. A flow step other
        than a block (or an interrupt's declaration) notes its place, as it may run long without an
        action (its actions note theirs), unless it runs straight through."""
        primitive = REGISTRY.get(node.op)
        if primitive is None or primitive.kind != "flow":
            return self.build(node), None
        known = self._steps.get(id(node))
        if known is not None and known[0] is node:
            return known[1], known[2]
        compiled = primitive.handler(node, FlowParts(self))
        noting = (
            node.span and callable(compiled) and not has_role(node, "sequence") and not self.straight(node)
        )
        noted = node.span if noting else None
        self._steps[id(node)] = (node, compiled, noted)
        return compiled, noted

    def straight(self, node: Node) -> bool:
        """Whether a node, once started, runs to its end at once: no part of it, no procedure it
        calls and no printed effect it carries out asks a question, ends the game or holds an
        action back (each flow primitive declares whether it may: `straight`), and the rules have
        no interrupt to cut in after an action. Such flow needs no frame: its steps run as plain
        calls, pass after pass (flow.py), and nothing can stop it half-way."""
        known = self._straight.get(id(node))
        if known is not None and known[0] is node:
            return known[1]
        self._straight[id(node)] = (node, False)  # while it is asked: a procedure calling itself is not
        found = self._straight_now(node)
        self._straight[id(node)] = (node, found)
        return found

    def _straight_now(self, node: Node) -> bool:
        primitive = REGISTRY.get(node.op)
        if primitive is None or primitive.kind != "flow":
            # an expression returns; so does an action, unless an interrupt may cut in after it
            return primitive is None or primitive.kind == "expression" or not self.ir.interrupts
        declared = primitive.straight
        if self.ir.interrupts or not (declared(node.args) if callable(declared) else declared):
            return False
        called, effect = role(node, "procedure"), role(node, "printed effect")
        if called is not None and not (
            called in self.ir.procedures and self.straight(self.ir.procedures[called])
        ):
            return False
        if effect is not None and not all(
            self.straight(printed)
            for card in self.ir.cards
            for side in card.sides
            if isinstance(printed := side.attributes.get(effect.args["name"]), Node)
        ):
            return False
        return all(self.straight(part) for part in _parts(node))

    def _build_named(self, node: Node):
        """A flow step's part: an expression's faults are reported where it is written."""
        primitive = REGISTRY.get(node.op)
        if node.span and primitive is not None and primitive.kind == "expression":
            return self.code.function(node, at=str(node.span))
        return self.build(node)  # (which names a primitive this interpreter lacks)


_COMPILED: dict = {}  # (id of IR, modules, options) -> (IR, Rules): games of one simulation share closures


def secret_order(count: int, seed) -> list[int]:
    """Which card of the rules (an index into `Rules.defs`) each of a new game's `count` uids
    is: a permutation drawn at random for each game, so a uid says nothing of its card to
    whoever lacks the game's own table. Its generator is seeded from the game's seed but is not
    the game's: the game draws the same numbers as it would without it. The box lays the cards
    out in the rules' order (State.new), so a game deals the same cards whatever their uids."""
    stream = hashlib.shake_256(f"{seed}/uids".encode()).digest(8 * count)
    keys = struct.unpack(f"<{count}Q", stream)  # a random number per uid
    return sorted(range(count), key=keys.__getitem__)


def _inverse(order: list[int]) -> list[int]:
    """The permutation that undoes `order`: `inverse[order[i]] == i` (half the time of sorting
    the indices by `order`, 1.6 µs against 3.3 for a deck of 75)."""
    inverse = [0] * len(order)
    for at, item in enumerate(order):
        inverse[item] = at
    return inverse


def _permuted(tables: tuple[list, ...], order: list[int]) -> list[list]:
    """Each table's items in `order` (`table[order[0]], table[order[1]], …`): one itemgetter
    call a table, where mapping `table.__getitem__` called a slot wrapper for each item, twice
    as long (a new game deals four tables; a search deals a world at each of its samples)."""
    if len(order) < 2:  # (itemgetter of one index gives the item, not a tuple of it)
        return [[table[i] for i in order] for table in tables]
    pick = itemgetter(*order)
    return [list(pick(table)) for table in tables]


def compiled_rules(ir: GameIR, modules=(), options=None) -> Rules:
    key = (id(ir), tuple(modules), tuple(sorted((options or {}).items())))
    if key not in _COMPILED or _COMPILED[key][0] is not ir:
        if len(_COMPILED) > 32:
            _COMPILED.clear()
        sibling = next(
            (
                rules
                for (same, on, _), (built, rules) in _COMPILED.items()
                if same == id(ir) and on == key[1] and built is ir
            ),
            None,
        )  # other options: share it
        _COMPILED[key] = (ir, sibling.with_options(options) if sibling else Rules(ir, modules, options))
    return _COMPILED[key][1]


def _noted(enter, span):
    """A flow step (a loop, a call, a branch …) that notes where it is written as it starts, so
    that a rule looping without any action is named by the step budget's error."""

    def noted(game, frame):
        game.recent.append(span)
        enter(game, frame)

    return noted


class Game:
    def __init__(
        self,
        ir_or_rules,
        players: int,
        seed: int = 0,
        modules=(),
        *,
        options=None,
        start: bool = True,
        _state=None,
        _memo=None,
    ):
        """A new game with these modules on and options chosen (name -> value); with start=False
        every card waits in the box and nothing runs yet. SetupError (a ValueError) for modules
        or options the game does not allow."""
        rules = (
            ir_or_rules if isinstance(ir_or_rules, Rules) else compiled_rules(ir_or_rules, modules, options)
        )
        fresh = _state is None
        if fresh:
            if not rules.ir.min_players <= players <= rules.ir.max_players:
                raise ValueError(
                    f"{rules.ir.name} is for {player_count(rules.ir.min_players, rules.ir.max_players)}"
                )
            if rules.worth.left > 0:
                rules.worth.began()
            order = secret_order(len(rules.defs), seed)
            box = _inverse(order)  # the uid of each card of the rules
            rules = rules.dealt(order, box)
            _state = State.new(players, box[:], seed)  # (the box is a pile: its list changes)
            _state.watch = [None] * len(rules.interrupts)
            for counter in rules.ir.counters:
                _state.counters.update(
                    {zone_key(counter.name, seat): counter.start for seat in _seats(counter.per, players)}
                )
        self.rules = rules  # this game's card table (secret_order), shared by its copies
        self.state = _state
        if not rules.interrupts:
            _state.alarm = False  # (no condition to work out: an action's code asks no more)
        self.wholes = rules.wholes(_state.players)
        if fresh:
            _state.whole_grid = self.wholes.of
        self.on_step: Callable[[Game], None] | None = None  # test hook: called after every action
        # called as on_call(game, name, bindings) as a procedure starts (a log's headings)
        self.on_call: Callable[[Game, str, dict], None] | None = None
        # called as on_choice(game, seat, prompt, answer, asked, cards) as a choice is taken, asked or
        # not (a single option is taken without asking)
        self.on_choice: Callable[[Game, int, str, str, bool, tuple], None] | None = None
        self.memo = {} if _memo is None else _memo  # shared by copies: stamps are unique to the process
        self.inherited: _Dealt | None = None  # a world's: what it may take from the game it was redealt from
        self.filters: dict[str, _Kept] = {}  # the answers of filters over fixed items (Game.kept)
        self.origin: _Origin | None = None  # a copy's or a world's: where its filters' answers may come from
        self._worlds: _Dealt | None = None  # what the worlds redealt from this state share (redealt)
        self.reads: set | None = None  # what the value being worked out has read so far
        self.seen_logs: dict = {}  # seat -> the log as it reads it (views.SeenLog)
        # spans of the last actions and flow steps run, to name a runaway loop
        self.recent: deque[Span | None] = deque(maxlen=4)
        self.step_budget = STEP_BUDGET  # (read as a game is made: a test may lower it)
        # in the first games of its rules: count how often a remembered value still holds (Worth)
        self.sampling = rules.worth.left > 0
        if fresh and start:
            self.begin()

    def begin(self):
        """Start a game made with start=False: run its rules to the first decision (hooks set
        in between see the setup)."""
        self._prime_interrupts()
        self.state.stack.append(Frame(_run_main(self.rules.main), {}))
        self.advance()

    # ---- driving the game ----
    @property
    def pending(self) -> Choice | None:
        return self.state.pending

    @property
    def over(self) -> bool:
        return not self.state.stack and self.state.pending is None

    def standings(self) -> list[tuple]:
        """Each seat's points, then the rules' tiebreak numbers for it (nothing counts 0): tuples
        that order the players, the highest first."""
        return [
            (score, *((number(self, {"you": seat}) or 0) for number in self.rules.tiebreak))
            for seat, score in enumerate(self.state.scores)
        ]

    def winners(self) -> list[int]:
        """The seats with the best standing: the most points, ties broken by the rules' tiebreak.
        Alone, the player wins by the rules' own criterion (`solo: won:`), where they give one."""
        if self.state.players == 1 and self.rules.solo_won is not None:
            return [0] if self.rules.solo_won(self, {"you": 0}) else []
        standings = self.standings()
        return [seat for seat, standing in enumerate(standings) if standing == max(standings)]

    def apply(self, index: int):
        state = self.state
        choice = state.pending
        if choice is None or not 0 <= index < len(choice.options):
            raise ValueError(
                f"{index} is not one of the {len(choice.options) if choice else 0} legal options"
            )
        state.pending = None
        picked = choice.options[index]
        if choice.bind is None:
            state.stack[-1].answer = picked
        else:
            state.stack[-1].env[choice.bind] = picked
        cards = choice.cards  # the card it names, if any (Choice.card, written out)
        card = picked if cards is True else cards(picked) if cards else choice.about
        if card is None:
            lay, label = None, choice.label(index)
        else:
            lay = (state.location[card], state.facedown[card], state.placer[card])
            if cards is True and choice._labels is None and self.rules.defs[card].copies == 1:
                # a card with no copies whose label is not worked out yet: said when the log is
                # read, from where it lay and whether its chooser had looked at it there (Said)
                marks = state.marks[card]
                label = (picked_label, self.rules, marks is not None and choice.seat in marks.get(SEEN, ()))
            else:
                label = choice.label(index)
        said = (choice.seat, choice.prompt, label, card, lay, bool(cards))
        state.log.append(("choice", (), Said(said)))  # (Game.note, written out)
        state.choices.append(index)
        if self.on_choice is not None:
            self.on_choice(
                self, choice.seat, choice.prompt, choice.label(index), True, () if card is None else (card,)
            )
        self.advance()

    def observe(self, seat: int) -> Observation:
        """What `seat` may know now: what agents decide from."""
        return Observation(self, seat)

    def advance(self):
        state = self.state
        while state.stack and state.pending is None:
            top = state.stack[-1]
            state.steps += 1
            if state.steps > self.step_budget:
                self.out_of_steps()
            try:
                top.run(self, top)
            except FAULTS as error:
                where = f"{self.recent[-1]} or after" if self.recent else "the start, before any action"
                raise GameError(f"rule failed near {where}: {reason(error)}") from error

    def out_of_steps(self):
        """Stop the game: `state.steps` went past the step budget. Each entry of `advance` is a
        step, and so is each pass of a loop after its first, counted where the loop runs (its
        generated runner, or flow._straight_loop), without going back to `advance`."""
        where = ", ".join(map(str, dict.fromkeys(self.recent))) or "nothing ran"
        raise GameError(
            f"step budget of {self.step_budget:,} exhausted: the rules loop (the last rules run: {where})"
        )

    def provisional_scores(self, in_place: bool = False) -> list[int]:
        """Scores if the game were scored now: on a copy, the game itself untouched; or `in_place`,
        on this game, which is then over (a search's world or trial, thrown away after)."""
        trial = self if in_place else self.copy()
        state = trial.state
        state.stack, state.pending = [], None
        state.scores, state.score_items = [0] * state.players, []
        state.stamp(SCORES)
        trial.run_procedure("scoring")
        return state.scores

    def start_procedure(self, name: str, seat: int | None = None):
        """Run a procedure from here until it ends or asks for a choice; `seat` acts in it (as `you`)."""
        if name not in self.rules.procedures:
            raise KeyError(f"no procedure {name!r}; this game has: {', '.join(self.rules.procedures)}")
        env = {} if seat is None else {"you": seat}
        self._prime_interrupts()
        self.state.stack.append(Frame(_run_main(self.rules.procedures[name]), env))
        self.advance()

    def run_procedure(self, name: str):
        """Run one procedure to its end (it must not ask for a choice)."""
        self.start_procedure(name)
        if self.state.pending is not None:
            raise GameError(f"procedure {name!r} stopped for a choice: {self.state.pending.prompt}")

    def copy(self) -> Game:
        copied = Game(self.rules, self.state.players, _state=self.state.copy(), _memo=self.memo)
        copied.inherited = self.inherited
        copied.origin = self._origin(copied, frozenset(), frozenset())
        return copied

    def _origin(self, other: Game, piles: frozenset, hidden: frozenset) -> _Origin:
        """What `other`, a copy or a world of this game made now, may take of its filters' answers."""
        state = self.state
        return _Origin(
            self.filters, state.serial, state.changed, len(state.changed), other.state.serial, piles, hidden
        )

    def redealt(self, order: list[int], unseen: Collection[int] | None = None) -> Game:
        """A copy in which card `uid` shows what card `order[uid]` shows here (Rules.dealt), with
        remembered values of its own. It takes from this game's, as it asks for them, those that
        hold however the `unseen` cards are dealt (the cards `order` may move; by default those it
        moves): values whose key names none of them and which read no pile holding one. A deal
        changes what a card shows, never where it lies, and what a value reads of a card it reads
        from a pile or its key. The worlds redealt from one state share such values too, each
        taken where it is good in the taker's state (_Dealt.shared)."""
        if unseen is None:
            unseen = [uid for uid, shown in enumerate(order) if shown != uid]
        world = Game(self.rules.dealt(order), self.state.players, _state=self.state.copy(), _memo={})
        hidden = frozenset(unseen)
        piles = frozenset(self.state.location[uid] for uid in hidden)
        piles |= {self.wholes.of[pile] for pile in piles if pile in self.wholes.of}  # read whole
        worlds = self._worlds
        if (
            worlds is None
            or worlds.piles != piles
            or worlds.hidden != hidden
            or worlds.clock != self.state.clock
        ):
            worlds = self._worlds = _Dealt(self.memo, piles, hidden, {}, {}, self.state.clock)
        world.inherited = worlds  # the worlds of one decision share it
        world.origin = self._origin(world, piles, hidden)
        return world

    def _inherit(self, key):
        """A value that holds in any deal (see `redealt`), good in this world's state, remembered
        under `key` by the game it was redealt from, or by another of that decision's worlds:
        now this world's too."""
        dealt = self.inherited
        assert dealt is not None  # (a world's)
        if _names_any(key, dealt.hidden):
            return None
        entry = dealt.memo.get(key)
        if type(entry) is list:
            reading = entry[1]
            free = dealt.free.get(reading)
            if free is None:
                free = dealt.free[reading] = dealt.piles.isdisjoint(reading.keys)
            if free and reading.stamps(self.state) == entry[2]:
                self.memo[key] = entry
                return entry
        entry = dealt.shared.get(key)  # (only values that hold in any deal)
        if entry is not None and entry[1].stamps(self.state) == entry[2]:
            self.memo[key] = entry
            return entry
        return None

    # ---- used by primitives: flow ----
    def push(self, run, parent: Frame, data=None):
        """Start a flow node: a frame that inherits the parent's bindings and context (a stand-in
        parent, which is not on the stack, hands over its bindings uncopied)."""
        env = parent.env if parent.run is None else dict(parent.env)
        self.state.stack.append(
            Frame(run, env, 0, data, UNANSWERED, parent.source, parent.heading, parent.held)
        )

    def end_now(self):
        """Stop every running step and go on to scoring (the `end game` statement)."""
        state = self.state
        state.stack.clear()
        self.note("end", [], "game")
        state.stack.append(Frame(_run_main(self.rules.procedures["scoring"]), {}))
        if self.on_call is not None:
            self.on_call(self, "scoring", {})

    def pop(self):
        self.state.stack.pop()

    def ask(self, choice: Choice):
        self.state.pending = choice

    def procedure(self, name: str):
        return self.rules.procedures[name]

    def hold(self, step, frame: Frame):
        """Keep an action step, with a copy of its bindings, in the queue of the simultaneous turn
        holding it back until every seat has chosen (then it runs, no longer held: Frame.held None)."""
        held = Frame(None, dict(frame.env), 0, None, UNANSWERED, frame.source, frame.heading, None)
        self.state.stack[frame.held].data.queue.append((step, held))

    def check_interrupts(self, prime: bool = False):
        """After every action: an interrupt whose condition has turned true runs its body at once
        (the interrupted flow resumes after it). Priming only records each condition. A check
        that fires nothing leaves the keys the conditions read in `state.alarming`: until one of
        them is stamped (State.alarm), every condition is as it was and nothing is worked out
        (most actions change nothing they read; an action's code looks at the alarm before it
        calls this)."""
        state = self.state
        if not (state.alarm or prime):
            return
        watch, fired, read = state.watch, False, set()
        for index, (cond, body, span) in enumerate(self.rules.interrupts):
            if prime and watch[index] is not None:
                continue
            outer, self.reads = self.reads, {EVERYTHING}
            try:
                now = bool(cond(self, {}))
            finally:
                read |= self.reads
                self.reads = outer
            was, watch[index] = watch[index], now
            if now and was is False:
                fired = True
                self.note("interrupt", [], str(span))
                body(self, Frame(None, {}))  # a flow started with no bindings
        if not (fired or prime):
            state.alarm, state.alarming = False, frozenset(read)

    def _prime_interrupts(self):
        """Record each interrupt's condition as the state now stands (a laid-out position), so the
        first action that makes one true fires it."""
        self.check_interrupts(prime=True)

    # ---- used by primitives: reading the state ----
    def pile(self, key: str) -> Sequence[int]:
        """The cards of a zone, bottom first (the live list: never change it; () for a zone
        never filled), noted as read. (A filter's generated code reads the pile in place when no
        read is being noted, `self.reads` None: expressions._items; and expressions.pile_of and
        cards_in write this out: change them together.)"""
        if self.reads is not None:
            self.reads.add(key)
        return self.state.zones.get(key, ())

    def depends_on(self, key: str):
        """Note that the value being worked out read `key` (a zone, "#counter", "@marker" …)."""
        if self.reads is not None:
            self.reads.add(key)

    def remembered(self, key, work, env):
        """`work(game, env, key)`, remembered under `key` until something it read changes (its
        stamps move on); worked out afresh when the key holds a collection (a list is no key).
        Reads nest: whatever a remembered value read, the value using it read too."""
        state = self.state
        try:
            entry = self.memo.get(key)
        except TypeError:  # unhashable
            return work(self, env, key)
        if entry is None and self.inherited is not None:
            entry = self._inherit(key)
        # entry: [value, the Reading of what it read, their stamps then, the clock when last found
        # good]; a state whose clock is that one has changed nothing since, so the stamps need no
        # second look
        if entry is not None and (entry[3] == state.clock or entry[1].stamps(state) == entry[2]):
            entry[3] = state.clock
            if self.reads is not None:
                self.reads |= entry[1].keys
            if self.sampling:
                self._sampled(key[0], True)
            return entry[0]
        if self.sampling:
            self._sampled(key[0], False)
            left = self.rules.worth.left  # (to tell whether it asks for other values)
        elif key[0] in self.rules.worth.skipped:  # seldom still good when asked again: not remembered
            # (a definition's uses skip even this call, Module.forgetting; a drawing's rows come here)
            return work(self, env, key)
        else:
            left = 0
        outer, self.reads = self.reads, {EVERYTHING}
        try:
            value = work(self, env, key)
        finally:
            read, self.reads = self.reads, outer
        if left and self.rules.worth.left < left:
            self.rules.worth.compound.add(key[0])
        if len(read) >= self.wholes.least:
            self.wholes.gathered(read)
        if outer is not None:
            outer |= read
        if len(self.memo) > MEMO_LIMIT:
            self.memo.clear()
        if entry is not None and entry[1].keys == read:  # worked out again, reading what it read before
            reading = entry[1]
        else:
            keys = frozenset(read)
            reading = self.memo.get(keys)  # the memo holds each set of keys read too, under itself
            if reading is None:
                reading = self.memo[keys] = Reading(keys)
        entry = self.memo[key] = [value, reading, reading.stamps(state), state.clock]
        dealt = self.inherited
        if dealt is not None and dealt.piles.isdisjoint(reading.keys) and not _names_any(key, dealt.hidden):
            if len(dealt.shared) > MEMO_LIMIT:
                dealt.shared.clear()
            dealt.shared[key] = entry  # it holds in any deal: for the decision's other worlds too
        return value

    def _sampled(self, token: str, held: bool):
        worth = self.rules.worth
        if worth.left > 0:
            worth.count(token, held)
        else:
            self.sampling = False

    def kept(self, token: str, items, work, env) -> list:
        """`[item for item in items if remembered((token, item), work, env)]` (a filter whose test
        is a remembered definition of the item alone), where the items are a fixed tuple (a grid's
        spaces) and this state asked last: then only the items whose value read a key stamped since
        are asked again, the others keep their answers (one space changed: its neighbours asked,
        not the whole board). What every item read is read by the filter too, as it would be."""
        state, found = self.state, self.filters.get(token)
        worth = self.rules.worth
        if worth.left > 0:
            worth.filtering.add(token)
        elif token in worth.skipped:
            return [item for item in items if work(self, env, (token, item))]
        if type(items) is not tuple:  # a live pile changes in place: no answer of it is kept
            return [item for item in items if self.remembered((token, item), work, env)]
        asked: Iterable[int]
        if found is None or found.items is not items or found.serial != state.serial:
            found, asked = self._kept_afresh(token, items)
        else:
            asked = sorted({at for key in state.changed[found.seen :] for at in found.readers.get(key, ())})
        for at in asked:
            found.answers[at] = bool(self.remembered((token, items[at]), work, env))
            if not found.read_by(at, self.memo.get((token, items[at]))):  # not remembered: not kept
                self.filters.pop(token, None)
                return [item for item in items if self.remembered((token, item), work, env)]
        found.seen = len(state.changed)
        if self.reads is not None:
            self.reads |= found.readers.keys()
        self.filters[token] = found
        return [item for item, answer in zip(items, found.answers) if answer]

    def _kept_afresh(self, token: str, items: tuple) -> tuple[_Kept, Iterable[int]]:
        """A filter's answers to start from in this state, and the items to ask: every item; or,
        in a copy or a world (its own state, not a copy of it), the last answers of the game it
        was made from, asking again only the items whose value may differ: those that read a key
        stamped since those answers (in that game before the copy, or here), and in a world those
        that read a pile holding a card dealt again, or name such a card (see `redealt`)."""
        origin, state = self.origin, self.state
        if origin is None or state.serial != origin.own:
            return _Kept(items, state.serial), range(len(items))
        given = origin.filters.get(token)
        if (
            given is None
            or given.items is not items
            or given.serial != origin.serial
            or given.seen > origin.seen
        ):
            return _Kept(items, state.serial), range(len(items))
        found = given.copied(state.serial)
        readers, since = given.readers, origin.changed[given.seen : origin.seen]  # (stamped before the copy)
        asked = {at for key in chain(origin.piles, since, state.changed) for at in readers.get(key, ())}
        if _names_any(items, origin.hidden):
            asked.update(at for at, item in enumerate(items) if _names_any((item,), origin.hidden))
        return found, sorted(asked)

    def note(self, what: str, uids, detail: str | Record):
        """Record a line of the game log (the full record: it shows hidden cards too). It is
        kept as its parts and written out only when read: most games are never printed. (`apply`
        and a move's generated code append their lines in place: change them together.)"""
        self.state.log.append((what, uids, detail))  # uids: a list nothing changes afterwards

    @property
    def log(self) -> list[str]:
        """The game log, a line per action, choice and interrupt: the full record, naming hidden
        cards too (views.seen_log is the log as one seat may read it)."""
        ids, label = self.card_id, self.zone_label
        return [written(what, uids, detail, ids, label) for what, uids, detail in self.state.log]

    def zone_label(self, key: str, name=None) -> str:
        """A zone or counter key as files and logs spell it (Rules.zone_label)."""
        return self.rules.zone_label(key, name)

    def holder_of(self, key: str) -> int | None:
        """The card an attached zone (`per: card`) belongs to; None for any other zone."""
        parts = parse_key(key)
        zone = self.rules.zones.get(parts.name)
        return parts.owner if zone is not None and zone.per == "card" else None

    def seat_of_zone(self, key: str) -> int | None:
        """The seat a zone belongs to: its owner's, or, for an attached zone, the seat of the zone
        its card lies in (a card in a slot of a card in seat 2's tableau is seat 2's); None when shared."""
        for _ in range(MAX_NESTING):
            parts = parse_key(key)
            zone = self.rules.zones.get(parts.name)
            if zone is None or zone.per != "card":
                return parts.owner if zone is not None and zone.per == "player" else None
            key = self.state.location[parts.owner]
        return None

    # ---- the card table ----
    def sides(self, uid: int):
        return self.rules.defs[uid].sides

    def card_id(self, uid: int) -> str:
        return self.rules.defs[uid].id

    def attribute(self, uid: int | None, name: str):
        """A card's attribute on its face-up side; nothing (None) for no card or no such attribute.
        (Generated code reads a card's kind and id, and how a card of a pile lies, in place:
        expressions.attr; change both together.)"""
        if uid is None:
            return None
        face = self.rules.faces[uid][self.state.side[uid]]
        if name in face:
            return face[name]
        if name == "face":
            self.depends_on(self.state.location[uid])
            return "down" if self.state.facedown[uid] else "up"
        if name == "effects":  # the effects and numbers printed on this side
            printed = self.rules.defs[uid].sides[self.state.side[uid]].attributes
            return tuple(n for n in printed if self.rules.attributes[n].type in ("effect", "number"))
        return None

    def space_value(self, key: str, name: str):
        """A space's attribute, noted as read: as the rules last set it, else as its map prints it
        (read apart from the space's cards: a value reading only printed attributes stays good)."""
        printed, stamped = self.rules._spaces.get(key) or self.rules._space(key)
        if self.reads is not None:
            self.reads.add(stamped)
        changed = self.state.spaced.get(key)
        if changed is not None and name in changed:
            return changed[name]
        return printed.get(name)

    def condition(self, uid: int, name: str):
        """The compiled condition printed on the card's face-up side, `f(game, env, it)` (never true
        if it has none). (Generated code looks it up in place for a card that is a name:
        expressions._printed_here; change both together.)"""
        return self.rules.printed[uid][self.state.side[uid]].get(name, never)

    def reactors(self, event: str, actor: int | None = None) -> list[tuple]:
        """(card, effect attribute, owner seat or None) for every card able to react now to the event
        caused by `actor` (an effect answering its owner only is left out when the actor is another)."""
        found = []
        state = self.state
        printed, side, location = self.rules.printed, state.side, state.location  # what self.printed reads
        for name, within, owner_only in self.rules.listeners.get(event, ()):
            able = self.rules.able_to(name)
            if not able:
                continue
            # the piles of zone `within` holding one (asking each pile whether it does reads all of it)
            lying = {key for key in {location[uid] for uid in able} if parse_key(key).name == within}
            if not lying:
                continue
            # in the zones' order, the order they react in (one pile needs no looking for it)
            for key in lying if len(lying) == 1 else [key for key in state.zones if key in lying]:
                owner = self.seat_of_zone(key)
                if owner_only and owner != actor:
                    continue
                found += [
                    (uid, name, owner)
                    for uid in state.zones[key]
                    if printed[uid][side[uid]].get(name) is not None
                ]
        return found

    def printed(self, uid: int, name: str):
        """The compiled effect or number printed on the card's face-up side, or None. (Generated
        code looks a number up in place before it puts together what the number sees:
        expressions._printed_here; change both together.)"""
        return self.rules.printed[uid][self.state.side[uid]].get(name)

    def leading_condition(self, uid: int, name: str):
        """The condition of an effect that is a single `if` on the card's face-up side, or None."""
        return self.rules.leading[uid][self.state.side[uid]].get(name)


class Sides(list):
    """What each side of a card shows (builtins included), in the order its kind declares them,
    and by side name (`named`): `printed(card, side, name)` looks a side up by its name in place."""

    __slots__ = ("named",)

    def __init__(self, faces: Iterable[dict]):
        super().__init__(faces)
        self.named = {face["side"]: face for face in self}


class _Dealt(NamedTuple):
    """What the worlds redealt from one state of a game share (Game.redealt): that game's
    remembered values, the piles holding the cards dealt again, those cards, which of that
    game's readings read none of those piles, the values the worlds worked out that hold in any
    deal, and that state's clock."""

    memo: dict
    piles: frozenset
    hidden: frozenset
    free: dict
    shared: dict
    clock: int


class _Origin(NamedTuple):
    """Where a copy or a world may take its filters' answers from (Game._kept_afresh): the
    filters of the game it was made from, that game's state (its serial, the keys it stamped,
    and how many it had stamped then), the state made (its serial: a copy of it is another),
    and for a world the piles holding the cards dealt again and those cards."""

    filters: dict
    serial: int
    changed: list
    seen: int
    own: int
    piles: frozenset
    hidden: frozenset


class _Kept:
    """A filter's answers for a fixed tuple of items in one state (Game.kept): each item's
    answer, the keys its value read, and for each key the items that read it."""

    __slots__ = ("items", "serial", "seen", "answers", "keys", "readers", "lent")

    def __init__(self, items: tuple, serial: int):
        self.items, self.serial, self.seen = items, serial, 0
        self.answers = [False] * len(items)
        self.keys: list[frozenset] = [frozenset()] * len(items)
        self.readers: dict[str, set[int]] = {}  # key -> the items whose value read it
        self.lent: dict[str, set[int]] | None = None  # each key's readers when last shared (copied)

    def copied(self, serial: int) -> _Kept:
        """These answers, for another state to go on from (a copy's, a world's): each key's
        readers are shared by both until one of them changes them (`lent` lists every set that
        may be shared: either copies it before changing it)."""
        self.lent = dict(self.readers)
        found = _Kept(self.items, serial)
        found.answers, found.keys = self.answers.copy(), self.keys.copy()
        found.readers, found.lent = dict(self.readers), self.lent
        return found

    def read_by(self, at: int, entry) -> bool:
        """Note what item `at`'s remembered value read (False when it is not remembered: then
        no answer can be kept)."""
        if entry is None:
            return False
        keys, before = entry[1].keys, self.keys[at]
        if keys is not before:
            readers, lent = self.readers, self.lent
            for key in before - keys:
                if lent is not None and readers[key] is lent.get(key):  # shared: this state's own now
                    readers[key] = set(readers[key])
                readers[key].discard(at)
            for key in keys - before if before else keys:  # (a filter asked afresh: every item's keys)
                found = readers.get(key)
                if found is None:
                    readers[key] = {at}
                else:
                    if lent is not None and found is lent.get(key):
                        found = readers[key] = set(found)
                    found.add(at)
            self.keys[at] = keys
        return True


class Worth:
    """Which definitions are worth remembering, judged on the first SAMPLED values the games of
    a set of rules ask for (or those of their first SAMPLED_GAMES games, if fewer). Remembering a
    value costs more than the value is often worth (what it read is noted, their stamps kept and
    looked up again): a definition whose value still holds less than WORTH of the times it is
    asked for (JUDGED times at least), or never held in NEVER_HELD (what reacts to the card just
    played, keyed by it), is worked out afresh from then on. One whose value is worked out without asking
    for another (a pile filtered) costs about as much to work out as to remember, and must
    still hold PLAIN_WORTH of the times (measured in benchmarks/README.md: a value asked twice
    in a state changed in between, held half the times, is cheaper worked out; one held 61 %
    or 63 % of the times is not, and a bar just over half keeps a sample's chance from
    deciding). A filter's test (Game.kept) stays remembered: the filter asks only the items a
    change touched, so its tests rarely hold when asked, yet save it asking the rest. Whether
    a value is remembered never changes what it is (test_memo plays whole games both ways)."""

    __slots__ = ("left", "games", "asked", "compound", "filtering", "skipped", "_forget")

    def __init__(self, forget: Callable[[frozenset[str]], None]):
        self.left, self.games = SAMPLED, 0
        self.asked: dict[str, list[int]] = {}  # definition -> [times asked, times still good]
        self.compound: set[str] = set()  # those whose values asked for others as they were worked out
        self.filtering: set[str] = set()  # the tests of filters (Game.kept)
        self.skipped: frozenset[str] = frozenset()  # those not worth it (set by `skip`)
        self._forget = forget  # tells the rules' code (codegen.Module.forget)

    def skip(self, tokens: frozenset[str]) -> None:
        """From now on, these definitions are not remembered: their uses work them out at once."""
        self.skipped = tokens
        self._forget(tokens)

    def began(self):
        """A game of these rules begins while they are sampled."""
        self.games += 1
        if self.games > SAMPLED_GAMES:
            self.judge()

    def count(self, token: str, held: bool):
        counts = self.asked.get(token)
        if counts is None:
            counts = self.asked[token] = [0, 0]
        counts[0] += 1
        counts[1] += held
        self.left -= 1
        if self.left == 0:
            self.judge()

    def judge(self):
        """End the sampling: skip the definitions not worth remembering."""
        self.left = 0
        self.skip(
            frozenset(
                token
                for token, (asked, good) in self.asked.items()
                if token not in self.filtering
                and (
                    (asked >= JUDGED and good < (WORTH if token in self.compound else PLAIN_WORTH) * asked)
                    or (asked >= NEVER_HELD and good == 0)
                )
            )
        )


class Reading:
    """The keys of the state that some remembered values read (exactly these, and no others),
    shared by all of them: the keys' stamps are looked up once per state, not once per value.
    Looked at a second time in the same state, a Reading listens to it (State.readers): from
    then on it looks its stamps up again only once the state has told it that one of its keys
    was stamped, and most actions change nothing a value read. It does not listen at its first
    look in a state: a search's worlds are asked once of most Readings, and would pay for
    telling them what they never ask again."""

    __slots__ = ("keys", "clock", "now", "serial", "listening", "stale")

    def __init__(self, keys: frozenset):
        self.clock: int | None  # None: the stamps are yet to be looked up
        self.now: tuple[int | None, ...]
        self.keys, self.clock, self.now = keys, None, ()
        self.serial = 0  # the state they were looked up in
        self.listening = self.stale = False  # whether it listens to that state, and was told of a change

    def stamps(self, state: State) -> tuple[int | None, ...]:
        """The keys' stamps in this state: looked up again when its clock has moved and it is
        another state, or the second look in this one, or the state told of a change."""
        if self.clock != state.clock:
            if self.serial != state.serial:
                self.serial, self.listening = state.serial, False
                self.now = tuple(map(state.stamps.get, self.keys))
            elif not self.listening:  # a second look in this state: from now on, told
                self.listening, self.stale = True, False
                readers = state.readers
                for key in self.keys:
                    found = readers.get(key)
                    if found is None:
                        readers[key] = {self}
                    else:
                        found.add(self)
                self.now = tuple(map(state.stamps.get, self.keys))
            else:
                if state.told_up_to != len(state.changed):
                    state.tell_readers()
                if self.stale:
                    self.now, self.stale = tuple(map(state.stamps.get, self.keys)), False
            self.clock = state.clock
        return self.now


class Wholes:
    """The grids of a game, for remembered values that read a whole one: the cards on every
    space, or every space's attributes (a map of 300 spaces: 300 keys). Such a value reads the
    grid's one WHOLE key instead, stamped with each of those (State.whole_grid): it goes stale
    exactly when it did, and its keys are a few to look up, copy, hash and hand on to the values
    using it, not hundreds."""

    __slots__ = ("families", "least", "of")

    def __init__(self, families: list[tuple[frozenset, str]]):
        self.families = families  # (the keys of a grid's spaces, or of their attributes; its whole key)
        self.least = min((len(keys) for keys, _ in families), default=sys.maxsize)
        self.of = {key: whole for keys, whole in families for key in keys}  # State.whole_grid

    def gathered(self, read: set) -> None:
        """Read each whole grid in `read` as its one key (`read` changes in place)."""
        for keys, whole in self.families:
            if keys <= read:
                read -= keys
                read.add(whole)


class _Lazy(dict):
    """key -> `work(key)`, each worked out when first read: generated code reads such a table
    with no call (`game.rules.borders[key]`)."""

    def __init__(self, work: Callable):
        super().__init__()
        self._work = work

    def __missing__(self, key):
        found = self[key] = self._work(key)
        return found


def _indexed(keys, printed, attribute: str) -> dict | None:
    """The keys by the value `printed[key]` gives `attribute`, in order; None when one is not
    hashable (a list): Rules.spaces_showing then looks through them all."""
    index: dict = {}
    try:
        for key in keys:
            index.setdefault(printed[key].get(attribute), []).append(key)
    except TypeError:
        return None
    return {value: tuple(found) for value, found in index.items()}


def _seats(per: str, players: int) -> tuple:
    """The owners of a zone or counter declared `per` (a card's zones have none to name: left out)."""
    return tuple(range(players)) if per == "player" else (None,) if per == "shared" else ()


def _names_any(key: tuple, cards: frozenset) -> bool:
    """Whether a remembered value's key names one of the cards (a number that could be one; a
    True or 1.0 passes for 1, which costs no more than a value worked out again)."""
    if not cards.isdisjoint(key):
        return True
    for part in key:  # noqa: SIM110 (a loop: any() of a generator makes one more frame a key)
        if type(part) is tuple and _names_any(part, cards):
            return True
    return False


class FlowParts:
    """What a flow primitive's handler builds with (the rules being built): called on a part, the
    part built (a closure, or an expression's generated function); `straight(part)`, whether that
    part runs to its end at once and so needs no frame (Rules.straight); `step(part)`, a block's
    step and the place it notes, apart (Rules.step); `procedures`, the rules' procedures as
    written (name -> body), and `inlining`, those whose steps a block's runner is writing in now
    (flow._written_in); `runner(shape, looping)`, the maker of a block's runner (runners.py), kept
    with the rules' generated code."""

    __slots__ = ("_build", "straight", "step", "procedures", "inlining", "runner")

    def __init__(self, rules: Rules):
        self._build, self.straight, self.step = rules._build_named, rules.straight, rules.step
        self.procedures, self.inlining, self.runner = rules.ir.procedures, rules._inlining, rules.code.runner

    def __call__(self, node: Node):
        return self._build(node)


def _parts(node: Node) -> Iterable[Node]:
    """The nodes among a node's parts (a part, or each of a list of them)."""
    for value in node.args.values():
        if isinstance(value, Node):
            yield value
        elif isinstance(value, (list, tuple)):
            yield from (item for item in value if isinstance(item, Node))


def _single_if(value) -> bool:
    """An effect whose text is a single `if` without `else` (it does nothing when the condition fails)."""
    steps = role(value, "sequence")
    if steps is None or len(steps) != 1:
        return False
    return role(steps[0], "branch on") is not None and role(steps[0], "otherwise") is None


def _run_main(main):
    def run(game, frame):
        game.pop()
        main(game, frame)

    return run
