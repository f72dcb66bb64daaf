"""A card's printed text: its name, the numbers and words printed on it, and its effects,
conditions and scoring as sentences, one `SideText` per side.

Faces, the gallery, `silvics show` and `silvics print` all read a card through this module.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..interpreter.ir import CardDef, GameIR, Node
from .english import english


@dataclass(frozen=True)
class SideText:
    card: str                   # the card's id
    side: str                   # the side's name ("front" for a one-sided card)
    name: str                   # the name printed on the side
    kind: str
    printed: dict               # attribute -> its printed value (a number, a word, or a tuple of words)
    lines: tuple[str, ...]      # the rendered effects, conditions and scoring, one sentence each
    source: tuple[tuple[str, str], ...]    # (attribute, the text the designer wrote) for each line


def card_text(ir: GameIR, card: CardDef) -> tuple[SideText, ...]:
    """The printed text of each side of `card`."""
    return tuple(_side_text(card, side) for side in card.sides)


def _side_text(card: CardDef, side) -> SideText:
    printed, lines, source = {}, [], []
    for name, value in side.attributes.items():
        if isinstance(value, Node):
            lines.append(f"{name.replace('_', ' ').capitalize()}: {english(value)}.")
            written = side.text.get(name)
            source.append((name, written if isinstance(written, str) else english(value)))
        else:
            printed[name] = value
    return SideText(card.id, side.side, side.name or card.id, card.kind, printed, tuple(lines), tuple(source))
