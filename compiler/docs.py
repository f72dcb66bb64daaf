"""The docs backend: Markdown reference pages generated from the registry and the games' IR.

It renders and runs nothing: a game site's balance report is played and written by the
application (`silvics docs`: silvics/reference.py and silvics/report.py). A test fails when the committed
pages under docs/reference/ differ from what the current code and data generate.
"""

from __future__ import annotations

from ..interpreter.ir import CardDef, GameIR
from ..interpreter.registry import REGISTRY, load_all
from .cardtext import card_text, describe_card
from .english import Wording, english
from .faces import (
    colour_legend,
    face_sides,
    face_svg,
    icon,
    icon_legend,
    modules_of,
    swatch,
    word,
    xml_attribute,
)
from .markdown import code as _code
from .markdown import fenced as _fenced
from .markdown import inline as _inline
from .rulebook import module_section, personas

KIND_TITLES = {"action": "Actions", "expression": "Expressions", "flow": "Flow"}


def primitives_page() -> str:
    load_all()
    lines = [
        "# Primitives",
        "",
        "Generated from the primitive registry by `silvics docs`; do not edit by hand.",
        "",
        "Every action, expression and flow step the interpreter knows: how it is written, its parts",
        "(how each is written, its type), what it gives and the names it binds. Parts introduced by a",
        "keyword (`from`, `to`, …) may come in any order after the action word and its first value.",
        "",
    ]
    for kind, title in KIND_TITLES.items():
        lines += [f"## {title}", ""]
        for primitive in sorted((p for p in REGISTRY.values() if p.kind == kind), key=lambda p: p.name):
            lines += _primitive_section(primitive)
    return "\n".join(lines)


def _primitive_section(primitive) -> list[str]:
    lines = [
        f"### `{primitive.name}`",
        "",
        primitive.doc,
        "",
        f"Written: {_spelling(primitive)}  ",
        f"Example: `{primitive.example}`  ",
        f"Reads as: *{primitive.template}*  ",
    ]
    if primitive.returns:
        returns = primitive.returns
        lines.append(f"Gives: {returns if isinstance(returns, str) else ' '.join(returns.__doc__.split())}  ")
    lines += [f"Binds: {_binding(b)}  " for b in primitive.binds]
    lines[-1] = lines[-1].rstrip()
    lines.append("")
    if primitive.params:
        lines += ["| part | written | type | required | notes |", "|---|---|---|---|---|"]
        for param in primitive.params:
            words = param.words if isinstance(param.words, str) else ", ".join(param.words)
            notes = "; ".join(
                x for x in (param.doc, f"one of: {words}" if words else "", _per_card(param.per_card)) if x
            )
            lines.append(
                f"| {param.name} | {_written(primitive, param)} | {param.type} | "
                f"{'yes' if param.required else 'no'} | {notes} |"
            )
        lines.append("")
    if primitive.acting:
        lines += ["Needs an acting player: use it inside `each player`.", ""]
    return lines


SPELLINGS = {
    "statement": "a statement starting with `{}`",
    "call": "a function: `{}(…)`",
    "step": "a flow step: `{}:`",
    "comprehension": "`{}(VALUE for NAME in CARDS)`",
}
FORMS = {
    "name": "a name",
    "path": "a part: `X.name`",
    "method": "a part with values: `X.name(a, b)`",
    "literal": "a number, a quoted word or a list",
    "definition": "a definition's name, maybe with values",
    "procedure": "a procedure's name",
    "interrupt": "an entry of `interrupts:`",
    "": "built by the compiler",
}


def _spelling(primitive) -> str:
    if primitive.form in SPELLINGS:
        return " or ".join(SPELLINGS[primitive.form].format(word) for word in primitive.spelled)
    return FORMS.get(primitive.form, f"the `{primitive.form.rstrip('_')}` form of the grammar")


def _written(primitive, param) -> str:
    if param.derived:
        return {"spelling": "the word it is spelled with", "compiler": "set by the compiler"}.get(
            param.derived, f"`{param.derived}`, when a number"
        )
    if param.key:
        return f"key `{param.key}`"
    if param.arg:
        part = "argument" if primitive.form == "call" else "operand"
        return f"the other {part}s" if param.arg == "rest" else f"{part} {primitive.args().index(param) + 1}"
    return f"keyword `{param.prep}`" if param.prep else "(first)"


def _per_card(per_card) -> str:
    if per_card is True:
        return "computed per card (as `it`)"
    return f"computed per card of `{per_card}` (as `it`) when that part is given" if per_card else ""


def _binding(binding) -> str:
    name = f"`{binding.name}`" if binding.name else f"the name written in `{binding.var}`"
    kind = binding.type or (
        f"an item of `{binding.element_of}`" if binding.element_of else f"as `{binding.type_of}`"
    )
    where = f"in `{binding.within}`" if binding.within else "for the steps after it"
    where = f"in the effect `{binding.within}` names" if binding.printed else where
    return f"{name} ({kind}) {where}"


def game_page(ir: GameIR) -> str:
    """A game's rules as written, for designers: its definitions and procedures in the effect
    language, each module's changes, and every card with its source. Every name and text from the
    data (a pack's too) is escaped: it can add no HTML, code, link, heading or line of its own."""
    wording = Wording(ir.vocabulary)
    lines = [
        f"# {_inline(ir.name)}: the rules as written",
        "",
        "Generated from the game's rules and cards by `silvics docs`, for designers; the "
        f"[rules]({'rules.md' if ir.pack.name else 'index.md'}) say the same for players.",
        "",
        f"Players: {ir.min_players} to {ir.max_players}. Cards: {sum(c.copies for c in ir.cards)}.",
        "",
        *_options(ir.options),
    ]
    if ir.definitions:
        lines += ["## Definitions", "", "| name | means |", "|---|---|"]
        lines += [
            f"| {_code(name + ('(' + ', '.join(params) + ')' if params else ''))} | {_code(text)} |"
            for name, params, text in ir.definitions
        ]
        lines.append("")
    lines += ["## Procedures", ""]
    for name, body in ir.procedures.items():
        lines += [f"**{_inline(name)}**", ""] + _fenced("yaml", [ir.written.get(name) or english(body)])
    if ir.strategies:
        lines += personas(ir)
    if ir.modules:
        lines += ["## Modules", ""]
        for module in ir.modules.values():
            lines += _module_section(ir, module, wording)
    for kind in ir.kinds:
        cards = [card for card in ir.cards if card.kind == kind.name]
        if not cards:  # a kind only modules bring: listed under each module
            continue
        lines += [f"## {_inline(kind.name.capitalize())} cards ({len(cards)})", ""]
        lines += _fenced("text", [describe_card(ir, card, written=True, wording=wording) for card in cards])
    return "\n".join(lines)


def gallery_page(ir: GameIR) -> str:
    """Every card of the game and of its modules, grouped by kind, each drawn and its text given;
    a pack's own cards first."""
    every = {card.id: card for cards in [ir.cards, *(m.cards for m in ir.modules.values())] for card in cards}
    own = [card for card in every.values() if ir.pack.name and card.origin == ir.pack.name]
    lines = [
        f"# {_inline(ir.pack.name or ir.name)}: the cards",
        "",
        f"Every card of the game and its modules ({len(every)} cards, "
        f"{sum(c.copies for c in every.values())} copies), as printed by `silvics print`"
        + (f"; the pack's own {len(own)} first." if own else "."),
        "",
    ]
    colours = [
        (f"{kinds.capitalize()} cards, by {attribute}", [(swatch(colour), value) for value, colour in values])
        for kinds, attribute, values in colour_legend(ir)
    ]
    icons = [
        (attribute.capitalize(), [(icon(picture, value), value) for value, picture in values])
        for attribute, values in icon_legend(ir)
    ]
    lines += _legend("Colours", colours) + _legend("Icons", icons)
    first = {card.id for card in own}
    if own:
        lines += [
            f"## {_inline(ir.pack.name)} ({len(own)})",
            "",
            *(card_entry(ir, card, False) for card in own),
        ]
    for kind in ir.kinds:
        cards = [card for card in every.values() if card.kind == kind.name and card.id not in first]
        if cards:
            lines += [f"## {_inline(kind.name.replace('_', ' ').capitalize())} ({len(cards)})", ""]
            lines += [card_entry(ir, card, False) for card in cards]
    return "\n".join(lines)


def pack_page(ir: GameIR) -> str:
    """A pack's first page: what it says of itself, what each of its modules changes, and its own
    cards, each drawn (the rules and every card follow on pages of their own)."""
    pack = ir.pack
    own = [
        card
        for cards in [ir.cards, *(m.cards for m in ir.modules.values())]
        for card in cards
        if card.origin == pack.name
    ]
    lines = [
        f"# {_inline(pack.name)}",
        "",
        f"A pack for {_inline(ir.name)}. " + _inline(pack.description),
        "",
        "The [rules](rules.md) are the game's with this pack's modules; [every card](cards.md) "
        "lists the pack's own first.",
        "",
    ]
    if pack.modules:
        wording = Wording(ir.vocabulary)
        lines += ["## What it changes", ""]
        for name in pack.modules:
            lines += module_section(ir, ir.modules[name], wording)
    if own:
        unique = list({card.id: card for card in own}.values())
        lines += [f"## Its cards ({len(unique)})", "", *(card_entry(ir, card) for card in unique)]
    return "\n".join(lines)


def card_entry(ir: GameIR, card: CardDef, with_id: bool = True) -> str:
    """One card: a heading whose anchor is its id, its face(s) as inline SVG, then its printed text
    as text (each side's, named, for a card of several sides), its copies and its module; and its
    id (`with_id`: on the designers' page, not the players')."""
    texts = card_text(ir, card)
    title = " / ".join(dict.fromkeys(text.name for text in texts))
    faces = "".join(face_svg(ir, card, sides[0]) for sides in face_sides(ir, card))
    lines = [
        f"<h3 id={xml_attribute(card.id)}>{_html(title)}</h3>",
        "",
        f'<div class="card-faces">{faces}</div>',
        "",
    ]
    for text in texts:
        said = [
            ", ".join(f"{_label(name)} {_value(value)}" for name, value in text.printed.items()),
            *text.lines,
        ]
        said = [_inline(line) for line in said if line] + [
            f"*{_inline(words)}*" for words in text.words.values()
        ]
        if len(texts) > 1:
            lines.append(
                f"**{_inline(text.side.replace('_', ' ').capitalize())}: {_inline(text.name)}**"
                + ("" if said else ": no text")
            )
        lines += [f"- {line}" for line in said] + [""]
    modules = modules_of(ir, card)
    where = f", in the game only with the module {' or '.join(map(_inline, modules))}" if modules else ""
    copies = f"{card.copies} {'copy' if card.copies == 1 else 'copies'}{where}."
    lines += [f"Id {_code(card.id)}, {copies}" if with_id else copies[:1].upper() + copies[1:], ""]
    return "\n".join(lines)


def _label(name: str) -> str:
    return name.replace("_", " ")


def _value(value) -> str:
    return ", ".join(map(word, value)) if isinstance(value, tuple) else word(value)


def _legend(title: str, entries: list[tuple[str, list[tuple[str, str]]]]) -> list[str]:
    """A section saying what the faces' colours (icons) mean: a line per attribute, each value's
    swatch (icon) and its words; nothing when there are none."""
    if not entries:
        return []
    lines = [f"## {title}", ""]
    lines += [
        f"- {_inline(heading)}: " + ", ".join(f"{shown} {_html(value)}" for shown, value in values)
        for heading, values in entries
    ]
    return lines + [""]


def _html(text) -> str:
    """Data text inside an HTML element of a page: shown, never run."""
    return " ".join(str(text).split()).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _options(options) -> list[str]:
    """Setup options: each with its values (the default first) and what it is for."""
    lines = [
        f"Option {_code(o.name)} (`--set {_inline(o.name)}=…`): "
        + ", ".join(_code(v) + (" (default)" if v == o.default else "") for v in o.values)
        + (f": {_inline(o.description)}" if o.description else "")
        for o in options
    ]
    return [line for option in lines for line in (option, "")]


def _module_section(ir: GameIR, module, wording: Wording) -> list[str]:
    lines = [f"### {_inline(module.name)}", "", _inline(module.description), ""]
    for title, companies in (("Needs", module.requires), ("Cannot be played with", module.excludes)):
        if companies:
            lines += [
                f"{title}: "
                + ", ".join(
                    _code(c.module)
                    + (
                        f" when {', '.join(map(_code, c.when))} {'is' if len(c.when) == 1 else 'are'} on"
                        if c.when
                        else ""
                    )
                    for c in companies
                )
                + ".",
                "",
            ]
    lines += _options(module.options)
    sections = [
        (f"Before **{_inline(name)}**:", module.written.get(f"before {name}"), body)
        for name, body in module.before.items()
    ]
    sections += [
        (f"**{_inline(name)}** becomes:", module.written.get(name), body)
        for name, body in module.procedures.items()
    ]
    sections += [
        (f"After **{_inline(name)}**:", module.written.get(f"after {name}"), body)
        for name, body in module.after.items()
    ]
    for title, written, body in sections:
        lines += [title, ""] + _fenced("yaml", [written or english(body)])
    if module.cards:
        lines += [f"Its cards ({sum(c.copies for c in module.cards)}), in the game only with the module:", ""]
        lines += _fenced(
            "text", [describe_card(ir, card, written=True, wording=wording) for card in module.cards]
        )
    return lines
