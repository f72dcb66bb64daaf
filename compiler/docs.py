"""The docs backend: Markdown reference pages generated from the registry and the games' IR.

It renders what it is given and runs nothing: the balance figures come from the caller
(`silvics docs`, silvics/reference.py, plays the games). A test fails when the committed
pages under docs/reference/ differ from what the current code and data generate.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..interpreter.ir import GameIR
from ..interpreter.registry import REGISTRY, load_all
from .english import describe_card, english

if TYPE_CHECKING:
    from ..interpreter.simulate import Summary

KIND_TITLES = {"action": "Actions", "expression": "Expressions", "flow": "Flow"}


def primitives_page() -> str:
    load_all()
    lines = ["# Primitives", "",
             "Generated from the primitive registry by `silvics docs`; do not edit by hand.", "",
             "Every action, expression and flow step the interpreter knows, with its parameters.",
             "Parameters introduced by a keyword (`from`, `to`, …) may come in any order after",
             "the action word and its first value.", ""]
    for kind, title in KIND_TITLES.items():
        lines += [f"## {title}", ""]
        for primitive in sorted((p for p in REGISTRY.values() if p.kind == kind), key=lambda p: p.name):
            lines += [f"### `{primitive.name}`", "", primitive.doc, "",
                      f"Example: `{primitive.example}`  ", f"Reads as: *{primitive.template}*", ""]
            if primitive.params:
                lines += ["| part | keyword | type | required | notes |", "|---|---|---|---|---|"]
                for param in primitive.params:
                    words = param.words if isinstance(param.words, str) else ", ".join(param.words)
                    notes = "; ".join(x for x in (param.doc, f"one of: {words}" if words else "",
                                                  _per_card(param.per_card)) if x)
                    lines.append(f"| {param.name} | {param.prep or '(first)'} | {param.type} | "
                                 f"{'yes' if param.required else 'no'} | {notes} |")
                lines.append("")
            if primitive.acting:
                lines += ["Needs an acting player: use it inside `each player`.", ""]
    return "\n".join(lines)


def _per_card(per_card) -> str:
    if per_card is True:
        return "computed per card (as `it`)"
    return f"computed per card of `{per_card}` (as `it`) when that part is given" if per_card else ""


def game_page(ir: GameIR, balance: Summary | None = None) -> str:
    """A game's reference page; `balance`, a simulation summary, adds its Balance section."""
    lines = [f"# {ir.name}", "", "Generated from the game's rules and cards by `silvics docs`.", "",
             f"Players: {ir.min_players} to {ir.max_players}. Cards: {sum(c.copies for c in ir.cards)}.", "",
             ]
    if ir.definitions:
        lines += ["## Definitions", "", "| name | means |", "|---|---|"]
        lines += [f"| `{name}{'(' + ', '.join(params) + ')' if params else ''}` | `{text}` |"
                  for name, params, text in ir.definitions]
        lines.append("")
    lines += ["## Procedures", ""]
    for name, body in ir.procedures.items():
        lines += [f"**{name}**: {english(body)}", ""]
    if ir.modules:
        lines += ["## Modules", ""]
        for module in ir.modules.values():
            lines += [f"### {module.name}", "", module.description, ""]
            for name, body in module.procedures.items():
                lines += [f"**{name}** becomes: {english(body)}", ""]
    if balance is not None:
        lines += balance_section(balance)
    for kind in ir.kinds:
        cards = [card for card in ir.cards if card.kind == kind.name]
        lines += [f"## {kind.name.capitalize()} cards ({len(cards)})", "", "```text"]
        lines += [describe_card(card, kind) for card in cards]
        lines += ["```", ""]
    return "\n".join(lines)


def balance_section(summary: Summary) -> list[str]:
    """Per-card figures from seeded random games: designers see which cards pull their weight."""
    lines = ["## Balance", "",
             f"From {summary.games} seeded games between random agents at {summary.players} players "
             "(`silvics simulate --cards` gives the same for any setup). Seat win rates: "
             + ", ".join(f"P{seat + 1} {wins / summary.games:.0%}" for seat, wins in enumerate(summary.wins)) + ".", ""]
    tables = (("Cards that earned points (mean points in the games where they scored; how often their "
               "player won)", summary.earned, True),
              ("Cards that awarded points (mean points handed out, over all players, in the games where they did)",
               summary.awarded, False))
    for title, table, with_wins in tables:
        if not table:
            continue
        ranked = sorted(table.items(), key=lambda item: (-item[1].points / item[1].games, item[0]))
        lines += [f"**{title}**", "", "| card | games | mean points |" + (" player won |" if with_wins else ""),
                  "|---|---|---|" + ("---|" if with_wins else "")]
        for row in (ranked if len(ranked) <= 12 else ranked[:6] + [None] + ranked[-6:]):
            if row is None:
                lines.append("| … | | |" + (" |" if with_wins else ""))
                continue
            card, stats = row
            lines.append(f"| {card} | {stats.games} | {stats.points / stats.games:.2f} |"
                         + (f" {stats.wins / stats.games:.0%} |" if with_wins else ""))
        lines.append("")
    return lines
