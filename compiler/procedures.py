"""Procedures → IR, each lowered once, with the names bound wherever it is called from.

A procedure sees the names bound at every place it is called from (`you` inside `each
player`, a chosen card, `it` in a card's effect), keeping those that all of its callers bind,
so steps can be shared as procedures. The calls are read from the YAML before anything is
lowered (a step naming a procedure, the items of `one of` and `in any order`), so each
procedure is lowered after every procedure that calls it, once, with what its callers bind
known. Only calls that can run count: from `setup`, `play`, `scoring`, the interrupts or a
card's effect (those are lowered first). A procedure nothing runs is checked with a card
effect's names (LIBRARY). Procedures calling one another in a cycle are lowered again until
what they see settles.
"""

from __future__ import annotations

from collections import defaultdict, deque

from ..interpreter.ir import Node
from ..interpreter.registry import spelled, spellings
from .diagnostics import Diagnostic
from .lower import Scope
from .steps import At, Call, Steps

LIBRARY = {
    "you": "player",
    "it": "card",
}  # what a procedure nothing runs yet is checked with: a card effect's names
ENTRIES = ("setup", "play", "scoring")


def lower_procedures(sources, steps: Steps, diagnostics, calls: list) -> list[dict]:
    """The procedures of each source, lowered: a source is (document, section, {name: steps}), the
    game's procedures, then each module's procedures and its steps before and after procedures
    (lowered with what the procedure they extend sees, and counted as calls it makes). `calls`
    holds the calls already lowered (card effects, interrupts) as (procedure, caller, names);
    the procedures' own calls are added to it."""
    return _Procedures(sources, steps, calls).run(diagnostics)


class _Procedures:
    def __init__(self, sources, steps: Steps, calls):
        self.sources, self.steps, self.calls = sources, steps, calls
        self.names = steps.procedures
        # procedure -> caller -> [names in scope at each call]
        self.callers: defaultdict[str, dict[str, list[dict]]] = defaultdict(dict)
        for callee, caller, names in calls:
            self.callers[callee].setdefault(caller, []).append(names)
        self.graph = self.call_graph(calls)
        self.reached = self.reachable(calls)
        self.lowered: dict[tuple[int, str], Node] = {}  # (source, name) -> its block
        self.seen: dict[str, dict] = {}  # name -> the scope it was lowered with
        self.found: dict[str, list[Diagnostic]] = {}  # name -> its diagnostics
        self.made: dict[str, list[Call]] = {}  # name -> the calls it makes

    def run(self, diagnostics) -> list[dict]:
        for name in self.order():
            self.lower(name)
        for _ in range(len(self.names)):  # cycles only: callers lowered after their callees
            stale = [
                name for name in sorted(self.reached & self.names) if self.scope(name) != self.seen[name]
            ]
            if not stale:
                break
            for name in stale:
                self.lower(name)
        for name in sorted(self.names - self.reached):
            self.lower(name)
        for name in sorted(self.found):
            diagnostics.extend(self.found[name])
        self.calls.extend(call for name in sorted(self.made) for call in self.made[name])
        return [
            {name: self.lowered[i, name] for name in procedures}
            for i, (*_, procedures) in enumerate(self.sources)
        ]

    def call_graph(self, calls) -> dict[str, set[str]]:
        """Which procedures each rule may call, read from the YAML (no lowering needed)."""
        graph: defaultdict[str, set[str]] = defaultdict(set)
        for *_, procedures in self.sources:
            for name, body in procedures.items():
                graph[name] |= called(body, self.names)
        for callee, caller, _ in calls:
            graph[caller].add(callee)
        return graph

    def reachable(self, calls) -> set:
        """Procedures run from the game's entry points, its interrupts or a card's effect; a call
        from a procedure nothing runs does not narrow what its callee sees."""
        roots = {caller for _, caller, _ in calls if caller not in self.names} | set(ENTRIES)
        reached, frontier = set(roots), deque(roots)
        while frontier:
            for callee in self.graph.get(frontier.popleft(), ()):
                if callee not in reached:
                    reached.add(callee)
                    frontier.append(callee)
        return reached

    def order(self) -> list[str]:
        """The procedures that can run, each after every procedure that calls it (in a cycle,
        the first declared goes first)."""
        todo = [name for *_, procedures in self.sources for name in procedures if name in self.reached]
        todo = list(dict.fromkeys(todo))
        callers = defaultdict(set)
        for caller, callees in self.graph.items():
            if caller in self.reached and caller in self.names:
                for callee in callees:
                    callers[callee].add(caller)
        waiting = {name: callers[name] - {name} for name in todo}
        ready, done = deque(n for n in todo if not waiting[n]), set()
        order: list[str] = []
        while len(order) < len(todo):
            name = ready.popleft() if ready else next(n for n in todo if n not in done)
            if name in done:
                continue
            done.add(name)
            order.append(name)
            for callee in sorted(self.graph[name]):  # sorted: the same IR whatever the hash seed
                if callee in waiting and callee not in done:
                    waiting[callee].discard(name)
                    if not waiting[callee]:
                        ready.append(callee)
        return order

    def scope(self, name: str) -> dict:
        if name not in self.reached:
            return LIBRARY
        return _common(
            [
                names
                for caller, sites in self.callers[name].items()
                if caller in self.reached
                for names in sites
            ]
        )

    def lower(self, name: str):
        """Every version of a procedure (the game's, modules' replacements and steps around it), with
        what its callers bind."""
        for callee, caller, names in self.made.get(
            name, ()
        ):  # a second lowering replaces the calls of the first
            self.callers[callee][caller].remove(names)
        self.seen[name] = seen = self.scope(name)
        found: list[Diagnostic] = []
        calls: list[Call] = []
        for i, (doc, section, procedures) in enumerate(self.sources):
            if name in procedures:
                at = At(doc, name, found, calls)  # choices are prompted as "procedure: choose name"
                self.lowered[i, name] = self.steps.block(
                    at, procedures[name], (section, name), Scope(dict(seen))
                )
        self.found[name], self.made[name] = found, calls
        for callee, caller, names in calls:
            self.callers[callee].setdefault(caller, []).append(names)


def called(steps, procedures) -> set:
    """The procedures some steps name, in every nested block (flow steps read by their declarations)."""
    found = set()
    for step in steps if isinstance(steps, list) else ():
        if isinstance(step, str):
            found |= {step.strip()} & procedures
            continue
        key = next((k for k in spellings("step") if k in step), None) if isinstance(step, dict) else None
        for param in spelled(key, "step")[0].params if key else ():
            value = step.get(param.key)
            if param.type == "block":
                found |= called(value, procedures)
            elif param.type == "procedures":
                found |= {item if isinstance(item, str) else next(iter(item)) for item in value or ()}
    return found


def _common(scopes: list[dict]) -> dict:
    """The bindings (name and type) that every one of the scopes has."""
    if not scopes:
        return {}
    first, *rest = scopes
    return {name: kind for name, kind in first.items() if all(other.get(name) == kind for other in rest)}
