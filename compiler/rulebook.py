"""The rules reference players read: a game's components, setup, turn, end and scoring, and
what each module changes, worded from the IR in the game's own vocabulary (no effect-language
syntax; the designers' page, `docs.game_page`, keeps that).

Every procedure reached from setup, play and scoring gets a numbered list of its steps, in the
order the rules first call it; a procedure with no steps is left out, as are calls to it.
"""

from __future__ import annotations

from ..interpreter.ir import GameIR, Node, ZoneDecl
from ..interpreter.registry import REGISTRY, has_role, role
from .english import Wording, sentence
from .markdown import inline
from .walk import calls_in

SEEN_BY = {"public": "face up", "owner": "only its owner sees it", "hidden": "face down"}


def rules_page(ir: GameIR, gallery: str = "") -> str:
    """The whole page; `gallery`, the address of the card gallery, adds a link to it."""
    empty = frozenset(name for name, body in _all_procedures(ir).items() if not _steps(body))
    wording = Wording(ir.vocabulary, quiet=empty)
    lines = [
        f"# {inline(ir.name)}: the rules",
        "",
        f"For {_players(ir.min_players, ir.max_players)}. Generated from the game's rules and cards by "
        "`silvics docs`; the [rules as written](as-written.md) give the same rules in the designers' terms.",
        "",
    ]
    lines += _components(ir, wording, gallery)
    shown: set = set()
    lines += _section("Setup", ["setup"], ir.procedures, wording, shown)
    lines += _section("Playing", ["play"], ir.procedures, wording, shown)
    if ir.interrupts:
        lines += ["## At any moment", ""]
        lines += [f"- {inline(sentence(wording.say(node)))}" for node in ir.interrupts] + [""]
    lines += _section("End of the game and scoring", ["scoring"], ir.procedures, wording, shown)
    if ir.tiebreak:
        lines += [
            "Among players tied on points, the winner is the one with the most "
            + inline(", then the most ".join(wording.say(node) for node in ir.tiebreak))
            + ".",
            "",
        ]
    if ir.solo.won is not None:
        lines += [f"Playing alone, you win if {inline(wording.say(ir.solo.won))}.", ""]
    if ir.modules:
        lines += ["## Modules", ""]
        for module in ir.modules.values():
            lines += module_section(ir, module, wording)
    return "\n".join(lines)


def _players(low: int, high: int) -> str:
    return f"{low} player{'s' * (low > 1)}" if low == high else f"{low} to {high} players"


def _components(ir: GameIR, wording: Wording, gallery: str) -> list[str]:
    counts = _kind_counts(ir.cards)
    lines = [
        "## Components",
        "",
        f"- {sum(counts.values())} cards: "
        + inline(", ".join(f"{n} {_cards(wording, kind)}" for kind, n in counts.items()))
        + (f" ([every card]({gallery}))" if gallery else "")
        + ".",
    ]
    for zone in ir.zones:
        if zone.name != "box":
            lines.append(f"- {inline(sentence(_zone_line(zone, wording)))}")
    for counter in ir.counters:  # those players see (`shown:`); the rest is the rules' bookkeeping
        if not counter.shown:
            continue
        name = counter.shown[:1].upper() + counter.shown[1:]
        if counter.names:
            whose = "each player's own" if counter.per == "player" else "kept for all"
            said = f"{name}: {_listed(list(counter.names))} ({whose})"
        else:
            kept = "each player keeps" if counter.per == "player" else "kept for all"
            said = f"{name}: a number {kept}, from {counter.start}"
        lines.append(f"- {inline(sentence(said))}")
    return lines + [""]


def _listed(words: list[str]) -> str:
    return ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else "".join(words)


def _many(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _zone_line(zone: ZoneDecl, wording: Wording) -> str:
    node = Node("spaces" if zone.rows else "zone", {"name": zone.name, "per": zone.per})
    name = _named(wording.say(node)) if zone.per != "card" else _word(wording, zone.name)
    whose = {"player": "each player has one", "card": "under a card", "shared": "shared"}[zone.per]
    shape = (
        f"a board of {len(zone.map)} spaces"
        if zone.map
        else f"a grid of {_many(len(zone.rows), 'row')} by {_many(zone.columns, 'column')}"
        if zone.rows
        else ""
    )
    return f"{name}: " + ", ".join(x for x in (shape, whose, SEEN_BY[zone.visibility]) if x)


def _named(said: str) -> str:
    """A place or counter the vocabulary leaves unworded reads as its name's words (rounds_done:
    rounds done): a component is named on the page even where no rule says it to players."""
    return said.replace("_", " ")


def _word(wording: Wording, word: str) -> str:
    """A word of the game (a kind, a zone under a card) as its vocabulary says it, or as it is spelt."""
    said = wording.say(Node("const", {"value": word}))
    return said.replace("_", " ").replace("-", " ") if said == word else said


def _cards(wording: Wording, kind: str) -> str:
    """Cards of a kind: as the vocabulary says the kind's name, or '<kind> cards'."""
    said = _word(wording, kind)
    return f"{said} cards" if said == kind.replace("_", " ").replace("-", " ") else said


def _kind_counts(cards) -> dict:
    counts: dict = {}
    for card in cards:
        counts[card.kind] = counts.get(card.kind, 0) + card.copies
    return counts


def _section(title: str, roots: list, procedures: dict, wording: Wording, shown: set) -> list[str]:
    """A heading, then each procedure reached from `roots` not shown yet, in the order first called."""
    lines = [f"## {title}", ""]
    for name in _reached(roots, procedures):
        if name in shown or not _steps(procedures[name]):
            continue
        shown.add(name)
        if name not in roots:
            lines += [f"### {inline(_heading(wording, name))}", ""]
        steps = wording.steps(_steps(procedures[name]))
        lines += [f"{i}. {inline(sentence(text))}" for i, text in enumerate(steps, 1)] + [""]
    return lines


def _heading(wording: Wording, name: str) -> str:
    """A procedure named as its steps' heading: as its call reads, even where a call of it reads as
    nothing (a procedure with no steps in the base game, which a module fills)."""
    quiet, wording.quiet = wording.quiet, frozenset()
    try:
        said = wording.say(Node("call", {"name": name}))
    finally:
        wording.quiet = quiet
    return sentence(said.replace("_", " ") if said == name else said).rstrip(".")


def _reached(roots: list, procedures: dict) -> list[str]:
    """Procedures called from the roots, depth first, each once, in the order first called."""
    order, stack = [], list(reversed(roots))
    while stack:
        name = stack.pop()
        if name in order or name not in procedures:
            continue
        order.append(name)
        stack += reversed(calls_in(procedures[name]))
    return order


def module_section(ir: GameIR, module, wording: Wording) -> list[str]:
    """A module in the players' words: its name, what it says of itself, and what it changes."""
    lines = [f"### {inline(module.name)}", "", inline(module.description), ""]
    changes = [
        f"Before {_heading(wording, name).lower()}: {_joined(wording, body)}"
        for name, body in module.before.items()
    ]
    changes += [
        f"{_heading(wording, name)}, instead: {_joined(wording, body)}"  # the base game's steps replaced
        if name in ir.procedures and _steps(ir.procedures[name])
        else f"{_heading(wording, name)}: {_joined(wording, body)}"
        for name, body in module.procedures.items()
    ]
    changes += [
        f"After {_heading(wording, name).lower()}: {_joined(wording, body)}"
        for name, body in module.after.items()
    ]
    if module.cards:
        counts = _kind_counts(module.cards)
        changes.append("Adds " + ", ".join(f"{n} {_cards(wording, kind)}" for kind, n in counts.items()))
    if module.players:
        changes.append(f"For {_players(*module.players)}")
    if changes:
        lines += ["What changes:", ""] + [f"- {inline(sentence(change))}" for change in changes] + [""]
    return lines


def personas(ir: GameIR) -> list[str]:
    """The personas a simulation may give a seat (`--agents NAME`), each rule in words: for the
    designers' page (players never meet them)."""
    empty = frozenset(name for name, body in _all_procedures(ir).items() if not _steps(body))
    wording = Wording(ir.vocabulary, quiet=empty)
    lines = [
        "## Personas for simulation",
        "",
        "Seats played by the computer may follow these (`silvics play --agents NAME`): at each "
        "decision, each rule in turn narrows the options; the rest are picked among at random.",
        "",
    ]
    named, wording.named = wording.named, {**wording.named, "option": "the option"}
    for strategy in ir.strategies.values():
        lines += [f"### {inline(strategy.name)}", "", inline(sentence(strategy.doc)), ""]
        for rule in strategy.rules:
            procedure, _, question = rule.at.partition(":")
            where = (
                "Always: "
                if not rule.at
                else f"At {_heading(wording, procedure).lower()}"
                + (f", asked to {question.strip()}: " if question else ": ")
            )
            wants = [_preferred(wording, rule.prefer)] if rule.prefer is not None else []
            picks = [
                _heading(wording, label).lower() if label in ir.procedures else f"“{label}”"
                for label in rule.pick
            ]
            wants += [f"take {', else '.join(picks)}, when offered"] if picks else []
            lines.append(f"- {inline(where + '; '.join(wants))}.")
        lines.append("")
    wording.named = named
    return lines


def _preferred(wording: Wording, prefer: Node) -> str:
    """A persona's preference: for a condition, the options meeting it; for a number, the highest."""
    if REGISTRY[prefer.op].returns == "bool":
        return f"keep the options for which {wording.say(prefer)}"
    most, worth = "highest", prefer
    if (
        prefer.op == "arith"
        and prefer.args["op"] == "-"
        and has_role(prefer.args["left"], "literal")
        and role(prefer.args["left"], "literal") == 0
    ):
        most, worth = "lowest", prefer.args["right"]  # `0 - value`: the lowest value
    return f"keep the options with the {most} {_without_article(wording.say(worth))}"


def _without_article(said: str) -> str:
    return said[4:] if said.startswith("the ") else said


def _joined(wording: Wording, body: Node) -> str:
    return "; then ".join(wording.steps(_steps(body))) or "nothing"


def _steps(body: Node) -> tuple:
    return tuple(body.args.get("steps", ())) if body.op == "block" else (body,)


def _all_procedures(ir: GameIR) -> dict:
    found = dict(ir.procedures)
    for module in ir.modules.values():
        for name, body in module.procedures.items():
            found.setdefault(name, body)
    return found
