"""Flow: blocks, loops, turns, choices. Each handler returns a Step, `enter(game, frame)`.

Flow runs on an explicit stack of frames kept in the state (not on Python's stack), so a
game paused at a choice can be copied and resumed: search agents and replays rely on it.
A compound node pushes a frame whose `run(game, frame)` makes one step of progress each
time it is on top; leaves (actions and choices) run inside their parent's step. A choice
a frame asks for itself comes back as `frame.take_answer()`; see runtime.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from ..registry import REGISTRY, UNSAID, YOU, Binds, Param, has_role, primitive, role
from ..runtime import UNANSWERED, Choice, Expr, Frame, RuleError, Step
from ..state import Zone
from ..views import card_label
from .expressions import cards, pile_of, seat_order

ACTION_PROMPT = "choose an action"  # what `one of` asks: its options are the procedures offered
# a question's card: set by the compiler in a loop over cards whose card the question acts on
ABOUT = Param(
    "about",
    "binding",
    derived="compiler",
    required=False,
    doc="the card of the loop it is asked in (a loop over cards): the question names it",
)


def _guarded(node, build) -> tuple[tuple[str, Expr | None], ...]:
    """For `one of` and `in any order`: each step's name and its condition (None: a step written
    without one always applies)."""
    names = node.args["steps"]
    guards = [build(g) if g is not None else None for g in node.args.get("guards") or ()]
    return tuple(zip(names, guards + [None] * (len(names) - len(guards))))


def _enter_block(run):
    def enter(game, frame):
        game.push(run, frame)

    enter.runs = run  # type: ignore[attr-defined]  # what a frame handed over runs (one_of)
    return enter


def _runner(body, build, looping=None, first=None):
    """The `run` of a frame that carries out a block's steps from `frame.i` on, until one starts
    a nested flow or asks a question (back to Game.advance). A block's frame pops when its steps
    are done. A loop's frame runs its body's steps itself, pass after pass (they need no frame of
    their own): each pass begins with its names bound in a fresh `frame.env`, or the loop ends
    (the frame pops): by `begin(game, frame)` (`first`, looping "loop"), which says so with
    False, or, for a loop over values (looping "values"), by the runner itself, binding each
    value as the name `first` (runners._next_value). Each pass after the first is a step of its
    own, counted in the runner (Game.out_of_steps), so a loop that never ends meets the step
    budget. A step that notes where it is written as it starts is noted here (Rules.step: no
    wrapper to call at every step). The runner is generated for the block's shape (runners.py),
    with the steps of the procedures it calls written in where they may be (_written_in)."""
    parts = list(_written_in(role(body, "sequence"), build))
    shape = tuple((stops, span is not None, False) for _, span, stops, _ in parts)
    if looping is None and parts and parts[-1][2] and not parts[-1][3]:
        shape = (*shape[:-1], (True, shape[-1][1], True))  # the last step hands the frame over
    if looping == "values" and not any(binds for _, _, _, binds in parts):
        looping = "kept"  # no name a pass binds can outlive it: its value is bound in place
    arguments = [part for step, span, _, _ in parts for part in ((step,) if span is None else (step, span))]
    return build.runner(shape, looping)(first, *arguments)


def _written_in(steps, build):
    """A block's steps as its runner takes them: (the step, the place it notes, whether it may
    stop, whether it binds a name in the block's frame). A call of a procedure whose body binds
    no name for its own later steps is written in: the call announced (Game.on_call), then the
    procedure's steps, run in the caller's frame with the caller's bindings, as they would be in
    a frame of their own: no frame is pushed for them, nor run again through Game.advance. A call
    met while its procedure is being written in (a procedure calling itself, at any depth) stays
    a call."""
    for step in steps:
        name = role(step, "procedure")
        body = build.procedures.get(name) if isinstance(name, str) and name not in build.inlining else None
        inner = role(body, "sequence") if body is not None else None
        if inner is None or any(_binds_here(part) for part in inner):
            made, span = build.step(step)
            yield made, span, not build.straight(step), _binds_here(step)
            continue
        build.inlining.add(name)
        try:
            yield _announcing(name), build.step(step)[1], False, False
            yield from _written_in(inner, build)
        finally:
            build.inlining.discard(name)


def _straight_block(steps):
    """The `enter` of a block that runs straight through (Rules.straight): its steps in turn, as
    calls, in bindings of its own (names bound inside stay inside), with no frame on the stack."""

    def enter(game, frame):
        inner = frame.child()
        for step in steps:
            step(game, inner)

    return enter


def _straight_loop(loop, body, build, name=None):
    """A loop that runs straight through (Rules.straight): `passes(game, frame, values)` carries
    out its body's steps once per value, as calls, each pass binding `name` (if any) to the value
    in a copy of the bindings around the loop; each pass is a step of its own (Game.out_of_steps),
    so a loop that never ends meets the step budget, as in _runner, whose error names the loop
    (Game.recent: straight flow is not noted step by step, see Rules.build)."""
    steps, span = [build(step) for step in role(body, "sequence")], loop.span
    kept = not any(_binds_here(step) for step in role(body, "sequence"))  # (runners.Looping "kept")

    def passes(game, frame, values):
        if span is not None:  # (an IR made by hand may give a loop no place in a file)
            game.recent.append(span)
        if not values:
            return
        state, around = game.state, frame.env
        # one stand-in frame for every pass, its bindings fresh at each (or, when its steps bind
        # no name of their own, the same bindings, its value bound in them)
        own = dict(around) if kept else around
        inner = Frame(None, own, 0, None, UNANSWERED, frame.source, frame.heading, frame.held)
        for value in values:
            if not kept:
                inner.env = {**around, name: value} if name else dict(around)
            elif name:
                inner.env[name] = value
            for step in steps:
                step(game, inner)
            state.steps += 1  # a step of its own
            if state.steps > game.step_budget:
                game.out_of_steps()

    return passes


@primitive(
    "block",
    "flow",
    template="{steps}",
    example="[draft, trade]",
    roles={"sequence": "steps"},
    params=[Param("steps", "block", joiner="; then ")],
    straight=True,
)
def block(node, build):
    """Steps run in order; names bound inside stay inside."""
    steps = node.args["steps"]
    if len(steps) == 1 and not _binds_here(steps[0]):
        # nothing is left to resume after its one step, and no name to keep inside: the step
        # needs no frame of its own (from a third to over half the frames games pushed)
        return build(steps[0])
    if not steps:
        return _nothing
    if build.straight(node):
        return _straight_block([build(step) for step in role(node, "sequence")])
    return _framed(node, build)


def _framed(body, build):
    """A block's steps run in a frame of their own (see _runner)."""
    return _enter_block(_runner(body, build))


def _binds_here(node) -> bool:
    """Whether a step binds a name for the steps after it in its block (`let`, `choose`)."""
    return any(not binds.within for binds in REGISTRY[node.op].binds)


def _nothing(game, frame):
    """An empty block."""


@primitive(
    "call",
    "flow",
    template="{name}",
    example="draft",
    form="procedure",
    roles={"procedure": "name"},
    params=[Param("name", "word")],
    straight=True,
)
def call(node, build):
    """Run a named procedure of the rules (each module may replace procedures by name)."""
    name = node.args["name"]
    announce = _announcing(name)

    def enter(game, frame):
        announce(game, frame)
        game.rules.procedures[name](game, frame)

    return enter


def _announcing(name: str):
    """What a call of procedure `name` does first: tell the game's hook (a log's headings)."""

    def announce(game, frame):
        if game.on_call is not None:
            game.on_call(game, name, frame.env)

    return announce


@dataclass(slots=True)
class _Passes:
    """A loop's progress: the bindings around it, the values its passes take (a list or a range
    of its own, never changed), the actions held back until every seat has chosen (simultaneous
    turns), and how many passes have begun."""

    around: dict
    values: object
    queue: list | None = None
    begun: int = 0

    def copy(self):
        return _Passes(self.around, self.values, None if self.queue is None else list(self.queue), self.begun)


def _looping(body, build, begin):
    """A loop's `run`, with its body's steps, each pass begun by `begin` (see _runner)."""
    return _runner(body, build, "loop", begin)


def _over_values(body, build, name: str | None):
    """The `run` of a loop over values (frame.data, a _Passes), each bound as `name` (if any) in
    a copy of the bindings around the loop (see _runner)."""
    return _runner(body, build, "values", name)


def _enter_loop(game, frame, run, values, queue: list | None = None, held: int | None = None):
    """Push a loop's frame (Game.push, written out): its passes bind their names in copies of the
    bindings around it, which a stand-in parent hands over uncopied; the frame's own bindings
    are those until its first pass begins. `held`: the stack index of the frame whose queue holds
    its actions back (a simultaneous turn's own)."""
    around = frame.env if frame.run is None else dict(frame.env)
    passes = _Passes(around, values, queue)
    frame = Frame(
        run, around, 0, passes, UNANSWERED, frame.source, frame.heading, frame.held if held is None else held
    )
    game.state.stack.append(frame)


@primitive(
    "each_player",
    "flow",
    template="each player{simultaneously}, from the first player clockwise: ({body})",
    example="each player: [choose card from hand, move card to tableau face up]",
    spelled="each player",
    form="step",
    binds=[Binds("body", name="you", type="player")],
    english=(
        ({"simultaneously": True}, "every player at the same time: ({body})"),
        ({"reverse": True}, "each player, from the last player counter-clockwise: ({body})"),
    ),
    params=[
        Param("body", "block", key="each player"),
        Param(
            "simultaneously",
            "flag",
            required=False,
            key="simultaneously",
            doc="every seat chooses before any action takes effect",
        ),
        Param(
            "reverse",
            "flag",
            required=False,
            key="reverse",
            doc="in reverse playing order: from the last player, counter-clockwise",
        ),
    ],
    straight=lambda args: not args.get("simultaneously"),  # a simultaneous turn holds its actions back
)
def each_player(node, build):
    """Each seat in turn from the first player clockwise (`you` is that seat), or, in reverse, from
    the last player counter-clockwise; simultaneously, every seat makes its choices against the same
    state and the actions then take effect in seat order."""
    simultaneous, reverse = bool(node.args.get("simultaneously")), bool(node.args.get("reverse"))

    def seats(game) -> tuple[int, ...]:
        state = game.state
        return seat_order(state.players, state.markers["first"], reverse)

    if build.straight(node):
        passes = _straight_loop(node, node.args["body"], build, "you")
        return lambda game, frame: passes(game, frame, seats(game))
    run = _over_values(node.args["body"], build, "you")

    def enter(game, frame):
        if simultaneous:  # its actions wait in its own queue
            _enter_loop(game, frame, run, seats(game), [], len(game.state.stack))
        else:
            _enter_loop(game, frame, run, seats(game))

    return enter


@primitive(
    "repeat",
    "flow",
    template="{count} times[ (counting them as {as})]: ({body})",
    example="repeat: 4, as: round",
    spelled="repeat",
    form="step",
    binds=[Binds("body", var="as", type="int")],
    english=(({"as": UNSAID}, "{count} times: ({body})"),),
    params=[
        Param("count", "int", key="repeat", least=0),
        Param("as", "binding", required=False, key="as"),
        Param("body", "block", key="do"),
    ],
    straight=True,
)
def repeat(node, build):
    """Run the body a number of times, worked out when the loop starts (nothing or less than
    one: not at all), binding the pass number (1, 2, …)."""
    count, name = build(node.args["count"]), node.args.get("as")
    if build.straight(node):
        passes = _straight_loop(node, node.args["body"], build, name)
        return lambda game, frame: passes(game, frame, range(1, (count(game, frame.env) or 0) + 1))
    run = _over_values(node.args["body"], build, name)

    def enter(game, frame):
        times = count(game, frame.env) or 0
        if times > 0:  # (no pass: no frame to push and pop again)
            _enter_loop(game, frame, run, range(1, times + 1))

    return enter


@primitive(
    "for_each",
    "flow",
    template="for each {var} in {coll}: ({body})",
    example="for: c in pool",
    spelled="for",
    form="step",
    binds=[Binds("body", var="var", element_of="coll")],
    english=(({"var": UNSAID}, "for each of {coll}: ({body})"),),
    roles={"loop name": "var", "loop over": "coll", "loop body": "body"},
    params=[
        Param("var", "binding", key="for", doc="written NAME in CARDS"),
        Param("coll", "cards", key="for"),
        Param("body", "block", key="do"),
    ],
    straight=True,
)
def for_each(node, build):
    """Run the body once per card (or space) of a collection, as it stood when the loop began."""
    name, coll = node.args["var"], build(node.args["coll"])
    if build.straight(node):
        passes = _straight_loop(node, node.args["body"], build, name)
        return lambda game, frame: passes(game, frame, cards(game, coll(game, frame.env)))
    run = _over_values(node.args["body"], build, name)

    def enter(game, frame):
        values = cards(game, coll(game, frame.env))
        if values:  # (no pass: no frame to push and pop again)
            _enter_loop(game, frame, run, values)

    return enter


@primitive(
    "when",
    "flow",
    template="if {cond}: {then}[; otherwise: {else}]",
    example="if: round < 4",
    spelled="if",
    form="step",
    roles={"branch on": "cond", "otherwise": "else"},
    params=[
        Param("cond", "bool", key="if"),
        Param("then", "block", key="then"),
        Param("else", "block", required=False, key="else"),
    ],
    straight=True,
)
def when(node, build):
    """Run one block or the other."""
    cond, then = build(node.args["cond"]), build(node.args["then"])
    other = build(node.args["else"]) if node.args.get("else") else None

    def enter(game, frame):
        if cond(game, frame.env):
            then(game, frame)
        elif other:
            other(game, frame)

    return enter


@primitive(
    "any_order",
    "flow",
    template="{steps}, in an order chosen by {chooser} as the round goes",
    example="in any order: [draft, trade, refill]",
    spelled="in any order",
    form="step",
    params=[
        Param("steps", "procedures", key="in any order"),
        Param("chooser", "player", key="chooser"),
        Param(
            "guards",
            "conditions",
            required=False,
            key="in any order",
            doc="per step, a condition under which it still applies (`- reactions: …`)",
        ),
    ],
)
def any_order(node, build):
    """Run every named procedure once, the chooser picking the next one each time; a step whose
    condition no longer holds when the next is picked is left out (a single one left runs
    without asking)."""
    names, chooser = tuple(node.args["steps"]), build(node.args["chooser"])
    guards = dict(_guarded(node, build))

    def run(game, frame):
        picked = frame.take_answer()
        if picked is UNANSWERED:
            env = frame.env
            frame.data[:] = [
                name for name in frame.data if (guard := guards[name]) is None or guard(game, env)
            ]
            if len(frame.data) > 1:
                seat = chooser(game, frame.env)
                return game.ask(Choice(seat, "next step", tuple(frame.data), tuple(frame.data), node))
            if not frame.data:
                return game.pop()
            picked = frame.data[0]
        frame.data.remove(picked)
        game.procedure(picked)(game, frame)

    return lambda game, frame: game.push(run, frame, list(names))


@primitive(
    "run",
    "flow",
    template="carry out {effect}[ about {on}][, scoring as {as}]",
    example="run card.on_buy",
    acting=True,
    spelled="run",
    form="statement",
    roles={"printed effect": "effect", "about": "on"},
    binds=[
        Binds("effect", name="it", type="card", printed=True),
        Binds("effect", name="subject", type="card", printed=True),
    ],
    params=[
        Param("effect", "effect", doc="card.NAME, an effect attribute"),
        Param(
            "on",
            "card",
            prep="on",
            required=False,
            doc="for a reacting effect: the card it reacts to (its subject)",
        ),
        Param(
            "as",
            "word",
            prep="as",
            required=False,
            doc="the heading its points are listed under (and the card, even when it scores nothing)",
        ),
    ],
    straight=True,
)
def run_effect(node, build):
    """Carry out an effect printed on a card's face-up side (nothing if that side has none),
    with `it` bound to the card: how rules give cards their when-played, reaction or scoring text.
    Points it scores are awarded by the card."""
    target = node.args["effect"].args
    of, name = build(target["of"]), target["name"]
    subject = build(node.args["on"]) if node.args.get("on") else None
    heading = node.args.get("as") or None

    def enter(game, frame):
        uid = of(game, frame.env)
        effect = game.printed(uid, name) if uid is not None else None
        if heading and uid is not None and frame.env.get("you") is not None:
            # an itemised score lists every card it runs: one that scores nothing with 0
            game.state.add_points([(frame.env["you"], -1, 0, uid, heading)])
        if effect is not None:
            names = {"it": uid, "subject": subject(game, frame.env)} if subject else {"it": uid}
            effect(game, frame.child(names, source=uid, heading=heading))

    return enter


@primitive(
    "let",
    "flow",
    template="let {var} be {value}",
    example="let covered = top(space)",
    spelled="let",
    form="statement",
    binds=[Binds(var="var", type_of="value")],
    params=[Param("var", "binding", doc="written NAME = VALUE"), Param("value", "value")],
    straight=True,
)
def let(node, build):
    """Name a value worked out now, for the steps after it (in the same block)."""
    name, value = node.args["var"], build(node.args["value"])

    def enter(game, frame):
        frame.env[name] = value(game, frame.env)

    return enter


@primitive(
    "trigger",
    "flow",
    template="every card that reacts to {event} does so, about {on}",
    example="trigger bought on card",
    spelled="trigger",
    form="statement",
    params=[
        Param("event", "word", words="events"),
        Param("on", "card", prep="on", doc="the event's subject"),
    ],
)
def trigger(node, build):
    """Announce an event about a card: every other card whose printed effect answers that event
    (an effect attribute declared with `on: EVENT, within: ZONE`) and that lies in its zone
    carries it out, one after another, with `it` the reacting card, `subject` the event's card and
    `you` the reacting card's owner (the acting player for a shared zone); an effect declared
    `by: owner` answers only the events its owner causes (the acting player)."""
    event, subject = node.args["event"], build(node.args["on"])

    def run(game, frame):
        about, reactors = frame.data.subject, frame.data.reactors
        if not reactors:
            return game.pop()
        uid, name, owner = reactors.pop(0)
        effect = game.printed(uid, name)
        if effect is not None:
            seat = frame.env.get("you") if owner is None else owner
            effect(game, frame.child({"it": uid, "subject": about, "you": seat}))

    def enter(game, frame):
        about = subject(game, frame.env)
        reactors = [r for r in game.reactors(event, frame.env.get("you")) if r[0] != about]
        if reactors:  # (none: no frame to push and pop again)
            game.push(run, frame, _Reactions(about, reactors))

    return enter


@dataclass(slots=True)
class _Reactions:
    subject: int
    reactors: list  # (card, effect attribute, owner) still to react

    def copy(self):
        return _Reactions(self.subject, list(self.reactors))


@primitive(
    "end",
    "flow",
    template="the game ends at once",
    example="end game",
    spelled="end",
    form="statement",
    params=[Param("what", "word", words=("game",))],
)
def end(node, build):
    """End the game at once, wherever the rules are (a turn, a card's effect, an interrupt):
    every step still running stops, and the game goes on to its `scoring` procedure."""
    return lambda game, frame: game.end_now()


@primitive(
    "may",
    "flow",
    template="you may: ({body})",
    example="may: [move 1 from deck to hand]",
    acting=True,
    spelled="may",
    form="step",
    prompt="you may: {body}",
    params=[
        Param("body", "block", key="may"),
        Param("prompt", "text", derived="compiler"),
        ABOUT,
    ],
    roles={"optional": "body"},
)
def may(node, build):
    """The acting seat decides whether to carry out the steps (all of them, or none): optional
    effects, and "up to N" actions as N optional steps. When the steps carry out one printed
    effect, the question names the card, and is not asked when the card has no such effect or
    when the effect is a single `if` whose condition does not hold (it would do nothing). Asked
    in a loop over cards, it names the loop's card (`about`)."""
    body, prompt = build(node.args["body"]), node.args.get("prompt") or "may"
    effect = _single_effect(node.args["body"], build)

    def enter(game, frame):
        seat, asked, uid = frame.env["you"], prompt, None
        if effect is not None:
            uid = effect(game, frame.env)
            if uid is None:  # nothing to ask: no frame to push
                return
            asked = f"{prompt} ({card_label(game, seat, uid)})"
        game.push(answered, frame)  # the frame the answer is handed to
        game.ask(Choice(seat, asked, ("yes", "no"), ("yes", "no"), node, about=uid))

    def answered(game, frame):
        game.pop()
        if frame.take_answer() == "yes":
            body(game, frame)

    return _naming(enter, node)


@primitive(
    "may_repeat",
    "flow",
    template="as many times as you like[, while {while}]: ({body})",
    example="may repeat: [choose card from hand, move card to discard]",
    acting=True,
    spelled="may repeat",
    form="step",
    prompt="you may, again: {body}",
    params=[
        Param("body", "block", key="may repeat"),
        Param("while", "bool", key="while", required=False, doc="offered only while this holds"),
        Param("prompt", "text", derived="compiler"),
    ],
    roles={"optional": "body", "repeated": "body"},
)
def may_repeat(node, build):
    """ "Any number of times": before each pass the acting seat is asked yes or no, and `no` ends
    it; with `while`, it also ends (without asking) once the condition fails. Play any number of
    cards from hand, put any number into a pile."""
    body, prompt = build(node.args["body"]), node.args.get("prompt") or "may repeat"
    guard = build(node.args["while"]) if node.args.get("while") is not None else None

    def run(game, frame):
        answer = frame.take_answer()
        if answer is UNANSWERED:
            if guard is not None and not guard(game, frame.env):
                return game.pop()
            return game.ask(Choice(frame.env["you"], prompt, ("yes", "no"), ("yes", "no"), node))
        if answer == "no":
            return game.pop()
        body(game, frame)  # on top of this frame: when the pass is over, it asks again

    return lambda game, frame: game.push(run, frame)


def _single_effect(block, build):
    """For steps that are one `run CARD.EFFECT [on SUBJECT]`: a function giving the card whose
    effect would apply now, or None when it has none or its leading condition fails."""
    steps = role(block, "sequence")
    if len(steps) != 1 or role(steps[0], "printed effect") is None:
        return None
    target, on = role(steps[0], "printed effect").args, role(steps[0], "about")
    of, name, subject = build(target["of"]), target["name"], build(on) if on else None

    def applies(game, env):
        uid = of(game, env)
        if uid is None or game.printed(uid, name) is None:
            return None
        condition = game.leading_condition(uid, name)
        if condition is not None:
            about = {"subject": subject(game, env)} if subject else {}
            if not condition(game, {**env, **about, "it": uid}):
                return None
        return uid

    return applies


DONE = "done"  # the option of `may in any order` that leaves the items not yet carried out
NOTHING = "nothing"  # what a choice taken without asking took, when nothing was left to take


@primitive(
    "may_each",
    "flow",
    template="you may carry out, one at a time in the order you pick: ({loops})",
    example="may in any order: [{for: c in stall, do: [run c.on_buy]}, {for: c in row, do: [...]}]",
    acting=True,
    spelled="may in any order",
    form="step",
    prompt="you may, in any order",
    params=[
        Param(
            "loops",
            "block",
            key="may in any order",
            holds=("for",),
            doc="`for:` steps: each card of each loop is one item, carried out with that loop's steps",
        ),
        Param("prompt", "text", derived="compiler"),
    ],
)
def may_each(node, build):
    """The acting seat picks which item to carry out next, one at a time, or `done` to leave the
    rest: an item is one card of one of the `for:` loops (their cards as they stood when the step
    began), carried out at most once. As with `may`, an item whose steps carry out one printed
    effect is offered only while it would do something; when no item is left to offer, the step
    ends. Options are labelled by card, and a card offered by several loops also by the effect
    (or the loop number): `silk (on_buy)`, `silk (loop 1)`. For optional effects that resolve in
    an order the player picks ("activate any relevant effects in any order")."""
    loops = [_Loop.of(step, i, build) for i, step in enumerate(role(node.args["loops"], "sequence"))]
    prompt = node.args.get("prompt") or "may in any order"

    def offered(game, env, left: list) -> list:
        return [(i, uid) for i, uid in left if loops[i].applies(game, env, uid)]

    def run(game, frame):
        picked = frame.take_answer()
        if picked is UNANSWERED:
            items = offered(game, frame.env, frame.data)
            if not items:
                return game.pop()
            seat = frame.env["you"]
            return game.ask(
                Choice(
                    seat,
                    prompt,
                    (*items, DONE),
                    _item_labels(game, items, loops),
                    cards=_item_card,
                    asked_by=node,
                )
            )
        if picked == DONE:
            return game.pop()
        frame.data.remove(picked)
        loop, uid = loops[picked[0]], picked[1]
        loop.body(game, frame.child({loop.name: uid}))

    def enter(game, frame):
        items = [(i, uid) for i, loop in enumerate(loops) for uid in cards(game, loop.over(game, frame.env))]
        game.push(run, frame, items)

    return enter


class _Loop(NamedTuple):
    """One `for:` step of `may in any order`, compiled: its cards, its steps, and whether an item
    of it would do something now."""

    name: str
    over: Expr  # the cards
    body: Step
    effect: Expr | None  # for steps that carry out one printed effect: the card it applies to now, or None
    called: str  # how an option names this loop when its card is offered twice

    @classmethod
    def of(cls, step, index: int, build):
        body = role(step, "loop body")
        if body is None:
            raise RuleError(f"may in any order takes for: steps, not {step.op}")
        steps = role(body, "sequence")
        printed = role(steps[0], "printed effect") if len(steps) == 1 else None
        called = printed.args["name"] if printed is not None else f"loop {index + 1}"
        return cls(
            role(step, "loop name"),
            build(role(step, "loop over")),
            build(body),
            _single_effect(body, build),
            called,
        )

    def applies(self, game, env, uid) -> bool:
        return self.effect is None or self.effect(game, {**env, self.name: uid}) is not None


def _item_card(option) -> int | None:
    return None if option == DONE else option[1]


def _item_labels(game, items: list, loops: list):
    """Each option in words: its card as a seat may see it, and its loop when the card is offered twice."""

    def label(option, viewer: int) -> str:
        if option == DONE:
            return DONE
        index, uid = option
        text = card_label(game, viewer, uid, [other for _, other in items])
        twice = sum(1 for _, other in items if other == uid) > 1
        return f"{text} ({loops[index].called})" if twice else text

    return label


@primitive(
    "interrupt",
    "flow",
    template="whenever {cond} becomes true: ({body}), then carry on",
    example="interrupts: [{when: count(deck) = 0, do: [end_round]}]",
    form="interrupt",
    params=[Param("cond", "bool", key="when"), Param("body", "block", key="do")],
)
def interrupt(node, build):
    """Declared beside the procedures: after every action, when the condition turns from false to
    true, the body runs at once and whatever was interrupted then resumes."""
    # its body always has a frame, even of one step: the action it interrupts finishes first
    return Watched(build(node.args["cond"]), _framed(node.args["body"], build), node.span)


class Watched(NamedTuple):
    """A compiled interrupt: the game checks `cond` after every action (Game.check_interrupts)."""

    cond: object  # Expr
    body: object  # Step
    span: object


@primitive(
    "one_of",
    "flow",
    template="{chooser} chooses one: {steps}",
    example="one of: [take, pass]",
    english=(({"chooser": YOU}, "choose one: {steps}"),),
    spelled="one of",
    form="step",
    params=[
        Param("steps", "procedures", key="one of", joiner=", or "),
        Param("chooser", "player", key="chooser", default="you"),
        Param(
            "guards",
            "conditions",
            required=False,
            key="one of",
            doc="per step, a condition under which it is offered (`- play: count(hand) > 0`)",
        ),
    ],
)
def one_of(node, build):
    """The chooser picks one of several procedures (e.g. a turn's actions) whose conditions hold,
    and it runs (a single one runs without asking; none: nothing happens)."""
    chooser, guarded = build(node.args["chooser"]), _guarded(node, build)

    def enter(game, frame):
        env = frame.env
        offered = tuple([name for name, guard in guarded if guard is None or guard(game, env)])
        if len(offered) > 1:  # a frame to hand the answer to
            game.push(answered, frame)
            return game.ask(Choice(chooser(game, frame.env), ACTION_PROMPT, offered, offered, node))
        picked = offered[0] if offered else None
        if game.on_choice is not None:
            game.on_choice(game, chooser(game, frame.env), ACTION_PROMPT, picked or NOTHING, False, ())
        if picked is not None:
            game.procedure(picked)(game, frame.child())

    def answered(game, frame):
        enter = game.procedure(frame.take_answer())
        runs = getattr(enter, "runs", None)
        if runs is not None:  # a procedure run in a frame of its own: this one, handed over
            frame.run = runs
            return
        game.pop()
        enter(game, frame)

    return enter


@primitive(
    "until",
    "flow",
    template="until {cond}, repeat: ({body})",
    example="until: count(deck) = 0",
    spelled="until",
    form="step",
    params=[Param("cond", "bool", key="until"), Param("body", "block", key="do")],
    straight=True,
)
def until(node, build):
    """Run the body again and again, checking the condition before each pass (bounded by the step budget)."""
    cond = build(node.args["cond"])
    if build.straight(node):
        passes = _straight_loop(node, node.args["body"], build)

        def again(game, frame):
            while not cond(game, frame.env):
                passes(game, frame, (None,))

        return again

    def begin(game, frame):
        passes = frame.data
        if passes.begun and cond(game, passes.around):  # (the first pass was checked by enter)
            game.pop()
            return False
        passes.begun = 1
        frame.env = dict(passes.around)
        return True

    run = _looping(node.args["body"], build, begin)

    def enter(game, frame):
        if not cond(game, frame.env):  # (done before the first pass: no frame to push and pop again)
            _enter_loop(game, frame, run, None)

    return enter


@primitive(
    "choose",
    "flow",
    template=(
        "choose {var} from {from}[, {count} of them][, until they are worth {worth}][ (each worth {by})]"
    ),
    example="choose card from hand",
    spelled="choose",
    form="statement",
    prompt="choose {var}",
    binds=[Binds(var="var", element_of="from")],
    params=[
        Param("var", "binding"),
        Param("from", "value", prep="from", doc="cards or a list of values"),
        Param(
            "count",
            "int",
            prep="count",
            required=False,
            doc="pick this many cards one after another (fewer if they run out); binds them all",
        ),
        Param(
            "worth",
            "int",
            prep="worth",
            required=False,
            doc="pick cards one after another until they are worth this much together "
            "(all of them if they are worth less); binds them all",
        ),
        Param(
            "by",
            "int",
            prep="by",
            required=False,
            per_card=True,
            doc="with worth: what each card is worth (as it); 1 if not given",
        ),
        Param("cards", "flag", derived="compiler", doc="whether it chooses among cards"),
        Param("players", "flag", derived="compiler", doc="whether it chooses among players"),
        Param("prompt", "text", derived="compiler", doc="the question, naming the procedure"),
        ABOUT,
    ],
)
def choose(node, build):
    """Ask the acting seat to pick one card or value; a single option is taken without asking,
    and no option binds nothing (actions on it do nothing). With `count`, several cards; with
    `worth`, cards until their worth reaches an amount (a cost paid with cards of different value)."""
    name, source, of_cards = node.args["var"], build(node.args["from"]), node.args.get("cards", True)
    of_players = node.args.get("players", False)
    prompt = node.args.get("prompt") or f"choose {name}"

    def options(game, env, taken=()):
        found = source(game, env)
        found = pile_of(game, found) if of_cards else found
        return tuple(o for o in found if o not in taken) if taken else tuple(found)

    def words(game, choices, option, viewer: int) -> str:
        """An option in words, as `viewer` may know it (a Choice's labels, worked out when read)."""
        if of_cards:
            return card_label(game, viewer, option, choices)
        if of_players:
            return f"P{option + 1}"
        return game.zone_label(option) if isinstance(option, Zone) else str(option)

    of_a_zone = of_cards and has_role(node.args["from"], "pile")  # the source gives a zone's key

    def enter(game, frame):
        env = frame.env
        found = source(game, env)
        if of_a_zone:  # (pile_of, written out)
            found = tuple(game.state.zones.get(found, ()) if game.reads is None else game.pile(found))
        else:
            found = tuple(pile_of(game, found) if of_cards else found)
        if len(found) > 1:  # asked here, not through a call: one costs about 1 % of a game of choices
            game.state.pending = Choice(
                env["you"],
                prompt,
                found,
                lambda option, viewer: words(game, found, option, viewer),
                node,
                name,
                of_cards,
            )
            return
        env[name] = found[0] if found else None
        if game.on_choice is not None:
            game.on_choice(
                game,
                env["you"],
                prompt,
                _said(game, found, of_cards, of_players),
                False,
                found if of_cards else (),
            )

    if node.args.get("worth"):
        still = _worth(build(node.args["worth"]), build(node.args["by"]) if node.args.get("by") else None)
    elif node.args.get("count"):
        count = build(node.args["count"])
        still = lambda game, env, picked: count(game, env) - len(picked)  # noqa: E731
    else:
        return _naming(enter, node)
    measure = "worth" if node.args.get("worth") else "count"  # what a person is told is still wanted

    def run_many(game, frame):
        picked = frame.data
        answer = frame.take_answer()
        if answer is not UNANSWERED:
            picked.append(answer)
        left = options(game, frame.env, picked)
        wanted = still(game, frame.env, picked)
        if wanted <= 0 or not left:
            game.pop()
            game.state.stack[-1].env[name] = list(picked)  # bound in the block that chose
            return
        if len(left) == 1 or (
            left and still(game, frame.env, picked + list(left)) >= 0
        ):  # every card left is needed
            picked.extend(left)
            if game.on_choice is not None:
                game.on_choice(
                    game,
                    frame.env["you"],
                    prompt,
                    _said(game, left, of_cards, of_players),
                    False,
                    tuple(left) if of_cards else (),
                )
            return
        game.ask(
            Choice(
                frame.env["you"],
                prompt,
                left,
                lambda option, viewer: words(game, left, option, viewer),
                node,
                None,
                of_cards,
                None,
                (measure, wanted),
            )
        )

    asks = _naming(run_many, node)
    return lambda game, frame: game.push(asks, frame, [])


def _naming(step, node):
    """`step` (a `choose` or `may:`, or what it runs in a frame of its own), naming in the
    question it asks the card of the loop it is asked in (`about`, which the compiler sets in a
    loop over cards when the question acts on that card): "discard it? (Seep Spring)". Only such
    a question pays for it: a choice is made at every decision."""
    about = node.args.get("about")
    if about is None:
        return step

    def named(game, frame):
        step(game, frame)
        asked, uid = game.state.pending, frame.env.get(about)
        if asked is not None and asked.asked_by is node and asked.about is None and uid is not None:
            asked.prompt, asked.about = f"{asked.prompt} ({card_label(game, asked.seat, uid)})", uid

    return named


def _said(game, taken, of_cards: bool, of_players: bool) -> str:
    """What a choice taken without asking took, in the log's words (for Game.on_choice)."""
    if not taken:
        return NOTHING
    return ", ".join(
        game.card_id(item)
        if of_cards
        else f"P{item + 1}"
        if of_players
        else game.zone_label(item)
        if isinstance(item, Zone)
        else str(item)
        for item in taken
    )


def _worth(amount, by):
    """How much is still wanted once `picked` are chosen, each worth `by` (1 when not given)."""

    def still(game, env, picked):
        if by is None:
            return amount(game, env) - len(picked)
        saved, total = env.get("it"), 0
        for uid in picked:
            env["it"] = uid
            total += by(game, env) or 0
        env["it"] = saved
        return amount(game, env) - total

    return still
