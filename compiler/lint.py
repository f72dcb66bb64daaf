"""Warnings: what compiles but is probably a mistake. A warning never stops a game; `silvics
check` prints them and exits 0, unless `--strict`.

W0101 a zone, counter, mark or kind declared and never used
W0102 cards that no rule ever takes out of the box
W0103 a procedure no rule calls
W0104 a game id that differs from its folder's name
W0105 counters of which players see none (no `shown:`)
"""

from __future__ import annotations

from ..interpreter.ir import GameIR, Node
from ..interpreter.registry import REGISTRY, has_role, role
from ..interpreter.state import BOX
from .diagnostics import Diagnostic
from .faces import overflows
from .walk import calls_in, every_rule, nodes

ROOTS = ("setup", "play", "scoring")  # the procedures a game runs by itself


def lint(game, ir: GameIR) -> list[Diagnostic]:
    """The warnings for a compiled game; `game` is its rules' Document (for places in the file)."""
    rules = every_rule(ir)
    named = {node.args["name"] for node in nodes(rules) if isinstance(node.args.get("name"), str)}
    warnings = [
        _unused(game, table, name)
        for table, names in (
            ("zones", [z.name for z in ir.zones if z.name != BOX]),
            ("counters", [c.name for c in ir.counters]),
            ("marks", [m.name for m in ir.marks]),
        )
        for name in names
        if name not in named
    ]
    cards = (*ir.cards, *(c for m in ir.modules.values() for c in m.cards))
    kinds = {card.kind for card in cards}
    warnings += [
        _warning(
            game,
            ("kinds", kind.name),
            "W0101",
            f"no card is a {kind.name}",
            "remove the kind, or add its cards",
        )
        for kind in ir.kinds
        if kind.name not in kinds
    ]
    leaving = _kinds_leaving_the_box(rules)
    warnings += [
        _warning(
            game,
            ("kinds", kind),
            "W0102",
            f"no rule takes a {kind} out of the box: its {sum(c.copies for c in cards if c.kind == kind)} "
            "card(s) never reach the game",
            f"e.g. move box where kind = {kind} to deck",
        )
        for kind in sorted(kinds)
        if leaving is not None and kind not in leaving
    ]
    called = set(ROOTS) | {name for rule in rules for name in calls_in(rule)}
    warnings += [
        _warning(
            game,
            ("procedures", name),
            "W0103",
            f"procedure '{name}' is never called",
            "call it from a rule, or remove it",
        )
        for name in ir.procedures
        if name not in called
    ]
    if ir.counters and not any(counter.shown for counter in ir.counters):
        warnings.append(
            _warning(
                game,
                ("counters",),
                "W0105",
                "players see none of the game's counters: a person's screen shows no round, track or tally",
                f"add the words players call it by to each counter they follow ({ir.counters[0].name}: "
                f"{{shown: {ir.counters[0].name.replace('_', ' ')}}}); the rest stay the rules' own, "
                "seen only with --log full",
            )
        )
    warnings += unfitting(ir, cards)
    folder = game.path.resolve().parent.name
    if game.path.name == "game.yaml" and ir.id != folder:
        warnings.append(
            _warning(
                game,
                ("id",),
                "W0104",
                f"the game's id '{ir.id}' differs from its folder '{folder}'",
                f"a game is named by its id: rename the folder to {ir.id}, or the id to {folder}",
            )
        )
    return warnings


def unfitting(ir: GameIR, cards) -> list[Diagnostic]:
    """A warning, at the card, for each of its faces' boxes whose text cannot be made to fit."""
    return [
        Diagnostic(
            card.span.file,
            card.span.line,
            card.span.col,
            "W0106",
            f"card '{card.id}' does not fit its face: {problem}",
            "shorten its text, or give its kind a larger card (faces: width:, height:) or a smaller "
            "art box (faces: art:)",
            severity="warning",
        )
        for card in cards
        if card.span
        for problem in overflows(ir, card)
    ]


def _unused(game, table: str, name: str) -> Diagnostic:
    what = {"zones": "zone", "counters": "counter", "marks": "mark"}[table]
    return _warning(
        game,
        (table, name),
        "W0101",
        f"{what} '{name}' is declared and never used",
        "remove it, or use it in a rule",
    )


def _warning(game, path: tuple, code: str, message: str, hint: str) -> Diagnostic:
    found = game.error(path, code, message, hint, at_key=True)
    return Diagnostic(found.file, found.line, found.col, code, message, hint, severity="warning")


def _kinds_leaving_the_box(rules) -> set | None:
    """The kinds some rule may take out of the box (None: any card): a rule that moves cards of
    the box elsewhere, or names cards of the box for later steps (for: m in box …, choose)."""
    kinds: set = set()
    for node in nodes(rules):
        primitive = REGISTRY[node.op]
        moves = any(p.name == "to" for p in primitive.params)
        if not (moves or primitive.binds) or _is_box(node.args.get("to")):
            continue
        parts = [
            value
            for p in primitive.params
            if p.name != "to" and p.type != "block"
            for value in [node.args.get(p.name)]
            if value is not None
        ]
        if not any(_is_box(n) for n in nodes(parts)):
            continue
        named = {kind for n in nodes(parts) for kind in _kind_tested(n)}
        if not named:
            return None
        kinds |= named
    return kinds


def _is_box(node) -> bool:
    return role(node, "pile") == BOX


def _kind_tested(node: Node) -> tuple:
    """The kinds a test of a card's kind names: kind = K, or kind in [K, …]."""
    parts = [v for v in node.args.values() if isinstance(v, Node)]
    if not any(role(p, "attribute") == "kind" for p in parts):
        return ()
    values = [role(p, "literal") for p in parts if has_role(p, "literal")]
    return tuple(v for value in values for v in (value if isinstance(value, tuple) else (value,)))
