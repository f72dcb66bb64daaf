"""A card's printed text: its name, the numbers and words printed on it, and its effects,
conditions and scoring as sentences in the game's own words, one `SideText` per side.

Faces, the gallery, `silvics show` and `silvics print` all read a card through this module.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..interpreter.ir import CardDef, GameIR, Node
from ..interpreter.registry import has_role
from .english import Wording


@dataclass(frozen=True)
class SideText:
    card: str  # the card's id
    side: str  # the side's name ("front" for a one-sided card)
    name: str  # the name printed on the side
    kind: str
    printed: dict  # attribute -> its printed value (a number, a word, or a tuple of words)
    lines: tuple[str, ...]  # the rendered effects, conditions and scoring, one line each
    written: tuple[tuple[str, object], ...]  # (attribute, the designer's text as loaded) for each line
    words: dict = field(default_factory=dict)  # text attribute -> its words (flavour), printed as they are

    @property
    def source(self) -> tuple[tuple[str, str], ...]:
        """(attribute, the text the designer wrote) for each line: written out only when read (a
        face, drawn for every card by `check`, never reads it)."""
        return tuple((name, as_written(text)) for name, text in self.written)


def card_text(ir: GameIR, card: CardDef, wording: Wording | None = None) -> tuple[SideText, ...]:
    """The printed text of each side of `card` (pass one `Wording` of the game for many cards).
    In the game's own words (no `wording`), worked out once per card: a face, its gallery entry,
    its search text and its lint all read it."""
    own = wording is None
    found = _TEXTS.get(id(card)) if own else None
    if found is not None and found[0] is card and found[1] is ir:
        return found[2]
    wording = wording or Wording(ir.vocabulary)
    texts = {a.name for k in ir.kinds if k.name == card.kind for a in k.attributes if a.type == "text"}
    said = tuple(_side_text(card, side, wording, texts) for side in card.sides)
    if own:
        if len(_TEXTS) >= TEXTS_KEPT:
            _TEXTS.clear()
        _TEXTS[id(card)] = (card, ir, said)
    return said


TEXTS_KEPT = 4096
_TEXTS: dict[int, tuple[CardDef, GameIR, tuple[SideText, ...]]] = {}  # id(card) -> (card, its IR, card_text)


def _side_text(card: CardDef, side, wording: Wording, texts: set) -> SideText:
    printed, lines, written, words = {}, [], [], {}
    for name, value in side.attributes.items():
        if name in texts:
            words[name] = value
        elif isinstance(value, Node):
            lines.append(attribute_line(name, value, wording))
            written.append((name, side.text.get(name, "")))
        else:
            printed[name] = value
    return SideText(
        card.id, side.side, side.name or card.id, card.kind, printed, tuple(lines), tuple(written), words
    )


def attribute_line(name: str, value: Node, wording: Wording) -> str:
    """One effect, condition or number of a card, introduced by the game's label for it."""
    text = wording.sentences(value) if has_role(value, "sequence") else wording.say(value)
    label = wording.labels.get(name) or f"{name.replace('_', ' ').capitalize()}: {{}}"
    return label.replace("{}", text, 1)


def as_written(text) -> str:
    """The designer's text: a string or a number as it is, a list of steps in YAML's flow style."""
    if isinstance(text, (str, int)):
        return str(text)
    from .yamlload import dumped  # here: a game played from the cache never loads PyYAML

    return dumped(text, flow=True)


def describe_card(ir: GameIR, card: CardDef, written: bool = False, wording: Wording | None = None) -> str:
    """A card as `silvics show` prints it: its name, what is printed on it, and its text; with
    `written`, each line's source under it too."""
    lines = [
        f"{card.sides[0].name or card.id} ({card.kind}, id {card.id}"
        + (f", {card.copies} copies)" if card.copies > 1 else ")")
    ]
    for side in card_text(ir, card, wording):
        indent = "  "
        if len(card.sides) > 1:
            lines.append(f"  {side.side} side: {side.name}")
            indent = "    "
        if side.printed:
            lines.append(
                indent
                + " · ".join(
                    f"{name.replace('_', ' ')} {_shown(value)}" for name, value in side.printed.items()
                )
            )
        for line, (name, source) in zip(side.lines, side.source):
            lines.append(indent + line)
            if written:
                lines.append(f"{indent}  as written: {name}: {source}")
        lines += [f"{indent}“{words}”" for words in side.words.values()]
    return "\n".join(lines)


def _shown(value) -> str:
    if isinstance(value, tuple):
        return ", ".join(map(str, value)) or "none"
    return str(value) if value != "" else "none"
