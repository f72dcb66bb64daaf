"""How much the compiled rules ask of the interpreter, bounded before they are handed over.

A definition's body is one node shared by every use, so the IR stays small, but the
interpreter builds a closure for each use and nests them as deep as the parts nest: a tower
of definitions each using the one below twice is small to write and 2^height to build.
So the rules' expanded size (every use counted) and depth are measured here, in one
iterative pass over the shared nodes (linear in the IR), and refused past the limits.
"""

from __future__ import annotations

from ..interpreter.ir import GameIR, Node
from .diagnostics import Diagnostic

MAX_EXPANDED_PARTS = 50_000  # the bundled games need 5,631 at most
MAX_DEPTH = 150  # the bundled games: 11 and 31; the interpreter recurses on it
MAX_CARDS = 10_000  # physical cards, copies counted; the bundled games have 156 at most


def check_budget(ir: GameIR, diagnostics: list):
    """A diagnostic for the first rule past either limit (at the rule), and for the card that
    takes the game past MAX_CARDS, if any."""
    _check_cards(ir, diagnostics)
    _check_calls(ir, diagnostics)
    measured: dict[int, tuple[int, int]] = {}
    total = 0
    for root in _roots(ir):
        size, depth = _measure(root, measured)
        total += size
        if depth > MAX_DEPTH:
            diagnostics.append(
                _at(
                    root,
                    f"this rule nests {depth} parts deep, more than {MAX_DEPTH}",
                    "definitions used inside definitions nest too: flatten them",
                )
            )
            return
        if total > MAX_EXPANDED_PARTS:
            diagnostics.append(
                _at(
                    _where_it_grows(root, measured),
                    f"the rules grow past {MAX_EXPANDED_PARTS:,} "
                    "parts here, with every use of a definition counted in full",
                    "a definition using another twice doubles it: use fewer layers",
                )
            )
            return


def _check_cards(ir: GameIR, diagnostics: list):
    total = 0
    for card in ir.cards:
        total += card.copies
        if total > MAX_CARDS:
            span = card.span
            assert span is not None  # compiled from files: every card has its span
            diagnostics.append(
                Diagnostic(
                    span.file,
                    span.line,
                    span.col,
                    "E0501",
                    f"with this card the game has more than {MAX_CARDS:,} cards (copies counted)",
                    "every card is dealt, tracked and searched: use fewer",
                )
            )
            return


def _check_calls(ir: GameIR, diagnostics: list):
    """A diagnostic for procedures that call one another in a ring before doing anything else
    (`ping: [pong]`, `pong: [ping]`): each call is made before the last returns, so the ring
    never ends (at play, Python's recursion limit). Checked for the game's procedures and for
    each module's, with the steps it runs before a procedure first."""
    tables = [(ir.procedures, {})] + [
        ({**ir.procedures, **module.procedures}, module.before) for module in ir.modules.values()
    ]
    told: set = set()
    for procedures, before in tables:
        first = {
            name: call
            for name, body in procedures.items()
            if (call := _first_call(before.get(name), body)) is not None
        }
        for start in first:
            ring, name = [], start
            while name in first and name not in ring:
                ring.append(name)
                name = first[name].args["name"]
            if name not in ring or frozenset(ring) in told:
                continue
            ring = ring[ring.index(name) :]
            told.add(frozenset(ring))
            said = " → ".join(f"'{step}'" for step in [*ring, ring[0]])
            diagnostics.append(
                _at(
                    first[ring[0]],
                    f"procedure '{ring[0]}' calls itself before doing anything ({said}): it would never end",
                    "let something come first that can end it: an if, a choice, an action",
                )
            )


def _first_call(*blocks) -> Node | None:
    """The call a procedure makes first, before any other step (inside blocks too), if any."""
    for block in blocks:
        step = block
        while isinstance(step, Node) and step.op == "block" and step.args["steps"]:
            step = step.args["steps"][0]
        if isinstance(step, Node) and step.op != "block":
            return step if step.op == "call" else None
    return None


def _roots(ir: GameIR):
    yield from ir.procedures.values()
    for module in ir.modules.values():
        yield from module.procedures.values()
    yield from ir.interrupts
    for card in ir.cards:
        for side in card.sides:
            yield from (value for value in side.attributes.values() if isinstance(value, Node))


def _measure(root: Node, measured: dict) -> tuple[int, int]:
    """(expanded size, depth) of a node, each shared node measured once, without recursion."""
    stack = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in measured:
            continue
        children = _children(node)
        if children_done:
            measured[id(node)] = (
                1 + sum(measured[id(c)][0] for c in children),
                1 + max((measured[id(c)][1] for c in children), default=0),
            )
        else:
            stack.append((node, True))
            stack.extend((child, False) for child in children if id(child) not in measured)
    return measured[id(root)]


def _where_it_grows(node: Node, measured: dict) -> Node:
    """The innermost part that alone is past the limit (the rule itself when none is)."""
    while True:
        bigger = [child for child in _children(node) if measured[id(child)][0] > MAX_EXPANDED_PARTS]
        if not bigger:
            return node
        node = bigger[0]


def _children(node: Node) -> list[Node]:
    found, pending = [], list(node.args.values())
    while pending:
        value = pending.pop()
        if isinstance(value, Node):
            found.append(value)
        elif isinstance(value, (tuple, list)):
            pending.extend(value)
    return found


def _at(node: Node, message: str, hint: str) -> Diagnostic:
    span = node.span
    assert span is not None  # compiled from files: every rule has its span
    return Diagnostic(span.file, span.line, span.col, "E0501", message, hint)
