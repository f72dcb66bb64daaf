"""The engine: a game built from IR, advanced step by step, pausing at each Choice.

    game = Game(ir, players=4, seed=1)
    while not game.over:
        game.apply(agent_for(game.pending.seat).choose(game, game.pending))

The state is plain data (see state.py); `copy()` is cheap, so agents can look ahead.
"""
from __future__ import annotations

from collections import deque

from .ir import GameIR, Node
from .primitives.actions import RuleError
from .primitives.flow import Choice
from .registry import REGISTRY, load_all, role
from .state import Frame, State, zone_key, zone_name

STEP_BUDGET = 1_000_000   # flow steps per game; rules that loop forever stop with an error


class GameError(Exception):
    """A rule failed while running (names the rule's source)."""


class Rules:
    """The static half of a game: the card table and compiled procedures, shared by copies."""

    def __init__(self, ir: GameIR):
        load_all()
        self.ir = ir
        self.defs = [card for card in ir.cards for _ in range(card.copies)]
        self.zones = {zone.name: zone for zone in ir.zones}
        self.procedures = {name: self.build(body) for name, body in ir.procedures.items()}
        compiled = {card.id: [{name: self.build(value) for name, value in side.attributes.items()
                               if isinstance(value, Node)} for side in card.sides] for card in ir.cards}
        self.printed = [compiled[card.id] for card in self.defs]   # conditions and effects printed on cards
        leading = {card.id: [{name: self.build(role(role(value, "sequence")[0], "branch on"))
                              for name, value in side.attributes.items() if _single_if(value)}
                             for side in card.sides] for card in ir.cards}
        self.leading = [leading[card.id] for card in self.defs]     # effects that are one `if`: its condition
        self.interrupts = [self.build(node) for node in ir.interrupts]
        self.attributes = {a.name: a for kind in ir.kinds for a in kind.attributes}
        self.listeners: dict[str, list] = {}     # event -> [(effect attribute, zone it reacts within)]
        for kind in ir.kinds:
            for attribute in kind.attributes:
                if attribute.on:
                    self.listeners.setdefault(attribute.on, []).append((attribute.name, attribute.within))
        self.main = self.build(Node("block", {"steps": tuple(Node("call", {"name": name})
                                                            for name in ("setup", "play", "scoring"))}))

    def build(self, node: Node):
        primitive = REGISTRY.get(node.op)
        if primitive is None:
            raise GameError(f"this interpreter has no primitive {node.op!r} ({node.span})")
        compiled = primitive.handler(node, self.build)
        return _as_step(compiled, node) if primitive.kind == "action" else compiled


_COMPILED: dict = {}     # (id of IR, modules) -> (IR, Rules): games of one simulation share closures


def compiled_rules(ir: GameIR, modules=()) -> Rules:
    key = (id(ir), tuple(modules))
    if key not in _COMPILED or _COMPILED[key][0] is not ir:
        if len(_COMPILED) > 32:
            _COMPILED.clear()
        _COMPILED[key] = (ir, Rules(ir.with_modules(modules)))
    return _COMPILED[key][1]


def _as_step(act, node):
    """An action as a flow step: runs now, or is held back inside a simultaneous turn."""
    def step(game, frame):
        game.act(act, frame.env, node)
    return step


class Game:
    def __init__(self, ir_or_rules, players: int, seed: int = 0, modules=(), *, start: bool = True, _state=None):
        """A new game; with start=False every card waits in the box and nothing runs yet."""
        rules = ir_or_rules if isinstance(ir_or_rules, Rules) else compiled_rules(ir_or_rules, modules)
        if _state is None and not rules.ir.min_players <= players <= rules.ir.max_players:
            raise ValueError(f"{rules.ir.name} is for {rules.ir.min_players} to {rules.ir.max_players} players")
        self.rules = rules
        self.state = _state or State.new(players, len(rules.defs), seed)
        if _state is None:
            self.state.watch = [None] * len(rules.interrupts)
            for counter in rules.ir.counters:
                seats = range(players) if counter.per == "player" else (None,)
                self.state.counters.update({zone_key(counter.name, seat): counter.start for seat in seats})
        self.on_step = None     # test hook: called after every action
        self._memo, self._memo_version = {}, -1
        self.recent = deque(maxlen=4)   # spans of the last actions, to name a runaway loop
        if _state is None and start:
            self._prime_interrupts()
            self.state.stack.append(Frame(_run_main(rules.main), 0, {}))
            self.advance()

    # ---- driving the game ----
    @property
    def pending(self) -> Choice | None:
        return self.state.pending

    @property
    def over(self) -> bool:
        return not self.state.stack and self.state.pending is None

    def apply(self, index: int):
        choice = self.state.pending
        if choice is None or not 0 <= index < len(choice.options):
            raise ValueError(f"{index} is not one of the {len(choice.options) if choice else 0} legal options")
        self.state.pending = None
        self.state.stack[-1].env[choice.var] = choice.options[index]
        self.note("choice", [], f"P{choice.seat + 1} {choice.prompt}: {choice.label(index)}")
        self.advance()

    def advance(self):
        state = self.state
        while state.stack and state.pending is None:
            top = state.stack[-1]
            state.steps += 1
            if state.steps > STEP_BUDGET:
                where = ", ".join(map(str, self.recent)) or "no action ran"
                raise GameError(f"step budget of {STEP_BUDGET:,} exhausted: the rules loop (last actions: {where})")
            try:
                top.run(self, top)
            except (KeyError, IndexError, TypeError, ValueError, AttributeError, RuleError) as error:
                where = f"{self.recent[-1]} or after" if self.recent else "the start, before any action"
                raise GameError(f"rule failed near {where}: {_reason(error)}") from error

    def provisional_scores(self) -> list[int]:
        """Scores if the game were scored now (on a copy; the game itself is untouched)."""
        trial = self.copy()
        state = trial.state
        state.stack, state.pending = [], None
        state.scores, state.score_items = [0] * state.players, []
        trial.run_procedure("scoring")
        return state.scores

    def start_procedure(self, name: str, seat: int | None = None):
        """Run a procedure from here until it ends or asks for a choice; `seat` acts in it (as `you`)."""
        if name not in self.rules.procedures:
            raise KeyError(f"no procedure {name!r}; this game has: {', '.join(self.rules.procedures)}")
        env = {} if seat is None else {"you": seat}
        self._prime_interrupts()
        self.state.stack.append(Frame(_run_main(self.rules.procedures[name]), 0, env))
        self.advance()

    def _prime_interrupts(self):
        """Record each interrupt's condition as the state now stands (a laid-out position), so the
        first action that makes one true fires it."""
        for index, check in enumerate(self.rules.interrupts):
            if self.state.watch[index] is None:
                check(self, index)           # with nothing recorded yet, a check only records

    def run_procedure(self, name: str):
        """Run one procedure to its end (it must not ask for a choice)."""
        self.start_procedure(name)
        if self.state.pending is not None:
            raise GameError(f"procedure {name!r} stopped for a choice: {self.state.pending.prompt}")

    def copy(self) -> "Game":
        return Game(self.rules, self.state.players, _state=self.state.copy())

    # ---- used by primitives ----
    def push(self, run, env, data=None):
        self.state.stack.append(Frame(run, 0, dict(env), data))

    def pop(self):
        self.state.stack.pop()

    def ask(self, choice: Choice):
        self.state.pending = choice

    def procedure(self, name: str):
        return self.rules.procedures[name]

    def act(self, act, env, node):
        held = env.get("_held_by")      # stack index of the simultaneous turn holding actions back
        if held is not None:
            self.state.stack[held].data.queue.append((act, {**env, "_held_by": None}, node))
            return
        self.recent.append(node.span)
        try:
            act(self, env)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, RuleError) as error:
            raise GameError(f"{node.span}: rule failed: {_reason(error)}") from error
        finally:
            self.state.version += 1
        if self.rules.interrupts:
            for index, check in enumerate(self.rules.interrupts):
                check(self, index)
        if self.on_step:
            self.on_step(self)

    def memo(self) -> dict:
        """Values worked out since the state last changed (see let_in)."""
        if self._memo_version != self.state.version:
            self._memo, self._memo_version = {}, self.state.version
        return self._memo

    def note(self, what: str, uids, detail: str):
        """Append a line to the game log (the full record: it shows hidden cards too)."""
        names = ", ".join(self.card_id(uid) for uid in uids)
        self.state.log.append(f"{what} {names} -> {detail}" if names else f"{what} {detail}")

    def zone_label(self, key: str) -> str:
        """A zone or counter key as files and logs spell it: deck, hand@2 (seat 2's), tucked@oak (attached to the card oak)."""
        name, _, owner = key.partition("/")
        if not owner:
            return name
        zone = self.rules.zones.get(zone_name(key))      # counters are labelled the same way as zones
        return f"{name}@{self.card_id(int(owner))}" if zone and zone.per == "card" else f"{name}@{int(owner) + 1}"

    # ---- the card table ----
    def sides(self, uid: int):
        return self.rules.defs[uid].sides

    def card_id(self, uid: int) -> str:
        return self.rules.defs[uid].id

    def attribute(self, uid: int | None, name: str):
        """A card's attribute on its face-up side; nothing (None) for no card or no such attribute."""
        if uid is None:
            return None
        card = self.rules.defs[uid]
        side = card.sides[self.state.side[uid]]
        if name in side.attributes:
            return side.attributes[name]
        if name == "face":
            return "down" if self.state.facedown[uid] else "up"
        if name == "effects":      # the effects and numbers printed on this side
            return tuple(n for n in side.attributes if self.rules.attributes[n].type in ("effect", "number"))
        return {"id": card.id, "kind": card.kind, "side": side.side, "name": side.name}.get(name)

    def condition(self, uid: int, name: str):
        """The compiled condition printed on the card's face-up side (never true if it has none)."""
        return self.rules.printed[uid][self.state.side[uid]].get(name, _never)

    def reactors(self, event: str) -> list[tuple]:
        """(card, effect attribute, owner seat or None) for every card able to react to the event now."""
        found = []
        for name, within in self.rules.listeners.get(event, ()):
            for key, pile in self.state.zones.items():
                if pile and zone_name(key) == within:
                    owner = key.partition("/")[2]
                    per_player = self.rules.zones[within].per == "player"
                    found += [(uid, name, int(owner) if per_player else None) for uid in pile
                              if self.printed(uid, name) is not None]
        return found

    def printed(self, uid: int, name: str):
        """The compiled effect or number printed on the card's face-up side, or None."""
        return self.rules.printed[uid][self.state.side[uid]].get(name)

    def leading_condition(self, uid: int, name: str):
        """The condition of an effect that is a single `if` on the card's face-up side, or None."""
        return self.rules.leading[uid][self.state.side[uid]].get(name)


def _single_if(value) -> bool:
    """An effect whose text is a single `if` without `else` (it does nothing when the condition fails)."""
    steps = role(value, "sequence")
    if steps is None or len(steps) != 1:
        return False
    return role(steps[0], "branch on") is not None and role(steps[0], "otherwise") is None


def _reason(error) -> str:
    if isinstance(error, KeyError):
        return f"nothing is bound to {error.args[0]!r} here"
    return str(error)


def _never(game, env):
    return False


def _run_main(main):
    def run(game, frame):
        game.pop()
        main(game, frame)
    return run
