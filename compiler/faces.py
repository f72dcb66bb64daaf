"""Card faces: each card drawn as a self-contained SVG (in mm) from its kind's face template
(`faces:`, compiled to `FaceDecl`s) and its printed text (`cardtext.card_text`).

A face shows the name on a band of the card's colour, the main numbers in the corners, the
badges (labelled words and numbers), the card's text wrapped to its width (the type made
smaller until it fits) and a footer naming where the card comes from. Every name and text is
XML-escaped (`xml_text`, `xml_attribute`), and a character XML 1.0 forbids is drawn as U+FFFD;
the output depends on nothing but the IR (the same card gives the same bytes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from struct import iter_unpack, unpack_from
from typing import NamedTuple

from ..interpreter.ir import CardDef, FaceDecl, GameIR
from .cardtext import SideText, card_text
from .templates import PRINTED

# Colours for values (and kinds) the template gives none: dark enough for white type on them.
PALETTE = (
    "#2e7d32",
    "#1565c0",
    "#c62828",
    "#6a1b9a",
    "#ef6c00",
    "#00838f",
    "#5d4037",
    "#ad1457",
    "#455a64",
    "#827717",
)
# The type: DejaVu Sans Condensed, bundled (fonts/, its licence beside it) so that text is measured
# with the widths it prints with, wherever it prints (printing.py hands it to cairo; the site
# serves it); the names after it are for a viewer without it.
FONT = "'DejaVu Sans Condensed', 'DejaVu Sans', Arial, sans-serif"
FONTS = Path(__file__).parent / "fonts"  # the font files, their licence, and faces.css naming them
FONT_FILES = {False: "DejaVuSansCondensed.ttf", True: "DejaVuSansCondensed-Bold.ttf"}  # by bold
INK, GREY, PAPER, BLACK = "#212121", "#616161", "#ffffff", "#000000"
TEXT_SIZES = [round(3.0 - 0.1 * step, 1) for step in range(19)]  # mm, largest first: 3.0 … 1.2
BADGE_SIZE = 1.9  # mm, the type of a badge
CORNER_LABEL = 1.4  # mm, the type naming a corner's number
MARGIN = 2.5  # mm, between the card's edge and what is drawn on it


def template(ir: GameIR, card: CardDef) -> FaceDecl:
    """The template the card is drawn by: its module's for its kind, else the game's, else a default
    (a poker card showing every printed attribute as a badge)."""
    modules = modules_of(ir, card)
    for faces in ((ir.modules[modules[0]].faces if modules else ()), ir.faces):
        found = next((face for face in faces if face.kind == card.kind), None)
        if found:
            return found
    kind = next(k for k in ir.kinds if k.name == card.kind)
    return FaceDecl(card.kind, badges=tuple(a.name for a in kind.attributes if a.type in PRINTED))


def modules_of(ir: GameIR, card: CardDef) -> list[str]:
    """The modules that bring the card (none for the game's own; two may share a card file)."""
    found = _BROUGHT.get(id(ir))
    if found is None or found[0] is not ir:  # indexed once per IR: a page asks for every card it shows
        if len(_BROUGHT) >= IRS_KEPT:
            _BROUGHT.clear()
        brought: dict[str, list[str]] = {}
        for name, module in ir.modules.items():
            for each in dict.fromkeys(c.id for c in module.cards):
                brought.setdefault(each, []).append(name)
        found = _BROUGHT[id(ir)] = (ir, brought)
    return list(found[1].get(card.id, ()))


IRS_KEPT = 16  # games indexed at once (a process seldom holds more than the bundled four)
_BROUGHT: dict[int, tuple[GameIR, dict[str, list[str]]]] = {}  # id(ir) -> (ir, card id -> its modules)


def face_sides(ir: GameIR, card: CardDef) -> tuple[tuple[str, ...], ...]:
    """The card's faces, each as the sides it shows: one per side, or, for a kind whose sides are
    halves (`split`), one face showing them all."""
    sides = tuple(side.side for side in card.sides)
    return (sides,) if template(ir, card).split else tuple((side,) for side in sides)


_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")  # what XML 1.0 forbids


def xml_text(text: str) -> str:
    """Data text (a name, a card's text) as an SVG's text: XML-escaped, and each character XML 1.0
    forbids (a control, U+FFFE, U+FFFF, a lone surrogate: YAML may hold them as escapes) as U+FFFD.
    (Written out rather than taken from xml.sax.saxutils, whose import, of urllib.request and
    http.client, cost each worker of a `check` a hundredth of a second.)"""
    return _NOT_XML.sub("\ufffd", text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def xml_attribute(text: str) -> str:
    """Data text as a quoted attribute value, as `xml_text` makes it, its line breaks and tabs as
    character references: in double quotes, or in single quotes when it holds a double quote and
    no single one (saxutils.quoteattr's choice)."""
    text = xml_text(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in text:
        return f'"{text}"'
    return f"'{text}'" if "'" not in text else '"' + text.replace('"', "&quot;") + '"'


def face_svg(ir: GameIR, card: CardDef, side: str | None = None) -> str:
    """The face showing `side` (default: the first side) as a standalone SVG document."""
    face = template(ir, card)
    return _document(face.width, face.height, _title(card, _shown(ir, card, side)), face_body(ir, card, side))


def back_svg(ir: GameIR, card: CardDef) -> str:
    """The back of a card of its kind (`back_body`) as a standalone SVG document."""
    face = template(ir, card)
    return _document(face.width, face.height, f"the back of a {_label(card.kind)} card", back_body(ir, card))


def card_faces_svg(ir: GameIR, card: CardDef, gap: float = 5.0) -> str:
    """Every face of a card (a double-sided card's sides) side by side in one SVG document."""
    face, faces = template(ir, card), face_sides(ir, card)
    width = len(faces) * face.width + (len(faces) - 1) * gap
    drawn = "".join(
        f'<g transform="translate({_mm(i * (face.width + gap))} 0)">{face_body(ir, card, sides[0])}</g>'
        for i, sides in enumerate(faces)
    )
    return _document(width, face.height, _title(card, tuple(s.side for s in card.sides)), drawn)


def _document(width: float, height: float, label: str, body: str) -> str:
    """A standalone SVG document in mm, labelled for screen readers."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_mm(width)}mm" height="{_mm(height)}mm" '
        f'viewBox="0 0 {_mm(width)} {_mm(height)}" role="img" aria-label={xml_attribute(label)}>{body}</svg>'
    )


def overflows(ir: GameIR, card: CardDef) -> list[str]:
    """What does not fit its box on any face of the card, in words naming the side ([] when all
    fits): for `silvics check` to warn of, as text smaller than the smallest size is unreadable.
    The faces are laid out, not drawn (a check lays out every card of a game)."""
    found = []
    for sides in face_sides(ir, card):
        for panel in _side_panels(ir, card, sides[0]):
            panel.laid_out()
            found += panel.problems()
    return found


def face_body(ir: GameIR, card: CardDef, side: str | None = None) -> str:
    """The elements of the face showing `side`, drawn from (0, 0) to the template's size in mm (a
    sheet of faces places them)."""
    face, shown = template(ir, card), _shown(ir, card, side)
    panels = _side_panels(ir, card, side)
    out = [
        f"<title>{xml_text(_title(card, shown))}</title>",
        _rect(0.25, 0.25, face.width - 0.5, face.height - 0.5, PAPER, stroke=panels[0].colour, rx=3),
    ]
    for index, panel in enumerate(panels):
        drawn = "".join(panel.draw(len(card.sides) > 1))
        if index and face.split == "rows":  # a lower half reads from the card's other edge, as printed
            x, y, w, h = panel.x, panel.y, panel.w, panel.h
            drawn = f'<g transform="rotate(180 {_mm(x + w / 2)} {_mm(y + h / 2)})">{drawn}</g>'
        out.append(drawn)
    for panel in panels[1:]:  # the cut between halves
        x, y, w, h = panel.x, panel.y, panel.w, panel.h
        line = (x, y, x + w, y) if face.split == "rows" else (x, y, x, y + h)
        out.append(
            '<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" '
            'stroke-width="0.3" stroke-dasharray="1 1"/>'.format(*map(_mm, line), GREY)
        )
    out.append(_text(face.width / 2, face.height - 1.6, _footer(ir, card), 1.6, fill=GREY, anchor="middle"))
    return "".join(out)


def _side_panels(ir: GameIR, card: CardDef, side: str | None) -> list[_Panel]:
    """The face showing `side` as its panels, a side's in each (its box, text and colour)."""
    face, texts, shown = (
        template(ir, card),
        {text.side: text for text in card_text(ir, card)},
        _shown(ir, card, side),
    )
    art = {side.side: side.art for side in card.sides}
    return [
        _Panel(face, texts[name], _colour(ir, face, texts[name]), x, y, w, h, ir.icons, art[name])
        for name, (x, y, w, h) in zip(shown, _panels(face, len(shown), footer=3.5))
    ]


def edge_colour(ir: GameIR, card: CardDef, side: str | None) -> str:
    """The colour at the edge of the face showing `side` (None: the card's back), which a sheet
    printed with bleed carries past the cut."""
    if side is None:
        return PAPER  # a back's edge: the white frame around its colour
    face, shown = template(ir, card), _shown(ir, card, side)
    return _colour(ir, face, next(t for t in card_text(ir, card) if t.side == shown[0]))


def back_body(ir: GameIR, card: CardDef) -> str:
    """The back of a card of one face: the same for every card of its kind (a colour by value
    would tell what the card is), the kind's colour with the game's (or pack's) name and the kind."""
    face = template(ir, card)
    colour = _kind_colour(ir, card.kind)
    ink, middle = ink_on(colour), face.width / 2
    title = card.origin or ir.name
    return "".join(
        [
            f"<title>{xml_text(f'{title}: the back of a {_label(card.kind)} card')}</title>",
            _rect(0.25, 0.25, face.width - 0.5, face.height - 0.5, colour, stroke=PAPER, rx=3),
            _rect(2.5, 2.5, face.width - 5, face.height - 5, colour, stroke=ink, rx=2, stroke_width=0.4),
            _text(
                middle, face.height / 2, title, _fitting(title, face.width - 10, 6, True), ink, "middle", True
            ),
            _text(middle, face.height / 2 + 6, _label(card.kind), 3, ink, "middle", italic=True),
        ]
    )


def _shown(ir: GameIR, card: CardDef, side: str | None) -> tuple[str, ...]:
    """The sides on the face that shows `side` (None: the first face)."""
    faces = face_sides(ir, card)
    if side is None:
        return faces[0]
    found = next((sides for sides in faces if side in sides), None)
    if found is None:
        raise ValueError(f"card {card.id!r} has no side {side!r}")
    return found


def _panels(face: FaceDecl, count: int, footer: float) -> list[tuple[float, float, float, float]]:
    """Where each shown side is drawn: the card less its footer, cut in rows or columns."""
    width, height = face.width, face.height - footer
    if face.split == "columns":
        return [(i * width / count, 0, width / count, height) for i in range(count)]
    return [(0, i * height / count, width, height / count) for i in range(count)]


def _title(card: CardDef, shown: tuple[str, ...]) -> str:
    return " / ".join(dict.fromkeys(s.name or card.id for s in card.sides if s.side in shown))


def _footer(ir: GameIR, card: CardDef) -> str:
    """Where the card comes from: the pack (or the game), and the modules that bring it."""
    modules = modules_of(ir, card)
    return " · ".join([card.origin or ir.name] + ([", ".join(modules)] if modules else []))


def ink_on(colour: str) -> str:
    """The type colour, white or black, that reads best on a background: the larger WCAG contrast
    ratio, which for white and black is at least 4.58 to 1 whatever the background (AA: 4.5)."""
    return PAPER if contrast(PAPER, colour) >= contrast(BLACK, colour) else BLACK


def contrast(first: str, second: str) -> float:
    """The WCAG 2 contrast ratio of two "#rrggbb" colours, 1 to 21."""
    lighter, darker = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _colour(ir: GameIR, face: FaceDecl, text: SideText) -> str:
    """The colour the template gives the side's value of its colour attribute, else one of the
    palette's (by the value's place among the attribute's values; without one, the kind's place)."""
    if face.colour and face.colour in text.printed:
        return _value_colour(ir, face, text.printed[face.colour])
    return _kind_colour(ir, face.kind)


def _kind_colour(ir: GameIR, kind: str) -> str:
    return PALETTE[[k.name for k in ir.kinds].index(kind) % len(PALETTE)]


def _value_colour(ir: GameIR, face: FaceDecl, value) -> str:
    if value in face.colours:
        return face.colours[value]
    values = _values(ir, face)
    return PALETTE[values.index(value) % len(PALETTE)] if value in values else PALETTE[0]


def _values(ir: GameIR, face: FaceDecl) -> tuple:
    return next(
        a.values for k in ir.kinds if k.name == face.kind for a in k.attributes if a.name == face.colour
    )


def colour_legend(ir: GameIR, kinds=None) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """What the colours mean, for a legend: (the kinds, the attribute picking their colour, [(a
    value in words, its colour)]) for the templates coloured by a value, the game's and its
    modules' (kinds coloured alike together); only those of `kinds`, when given."""
    faces = [*ir.faces, *(face for module in ir.modules.values() for face in module.faces)]
    alike: dict[tuple, list[str]] = {}  # (attribute, its values' colours) -> the kinds coloured so
    for face in faces:
        if face.colour and (kinds is None or face.kind in kinds):
            colours = tuple((word(v), _value_colour(ir, face, v)) for v in _values(ir, face))
            named = alike.setdefault((_label(face.colour), colours), [])
            named += [] if _label(face.kind) in named else [_label(face.kind)]
    return [(", ".join(named), attribute, list(colours)) for (attribute, colours), named in alike.items()]


def icon_legend(ir: GameIR, kinds=None) -> list[tuple[str, list[tuple[str, str]]]]:
    """What the icons mean, for a legend: (an attribute in words, [(a value in words, its
    picture)]) for each attribute with icons that a template shows (as its colour or a badge),
    the game's and its modules', of `kinds` when given; values in the order the game declares."""
    faces = [*ir.faces, *(face for module in ir.modules.values() for face in module.faces)]
    shown = dict.fromkeys(
        name
        for face in faces
        if kinds is None or face.kind in kinds
        for name in (face.colour, *face.badges)
        if name in ir.icons
    )
    declared = {a.name: a.values for k in ir.kinds for a in k.attributes}
    return [
        (_label(name), [(word(v), ir.icons[name][v]) for v in declared.get(name, ()) if v in ir.icons[name]])
        for name in shown
    ]


def icon(picture: str, said: str, size: float = 6.0) -> str:
    """An icon as an HTML image of its own (for a legend on a page), named for a screen reader."""
    return f'<img src={xml_attribute(picture)} alt={xml_attribute(said)} width="{round(size * 96 / 25.4)}">'


def swatch(colour: str, size: float = 4.0) -> str:
    """A small square of a colour, as an SVG of its own (for a legend on a page)."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_mm(size)}mm" height="{_mm(size)}mm" '
        f'viewBox="0 0 10 10" aria-hidden="true">{_rect(0.5, 0.5, 9, 9, colour, GREY, 1.5, 0.5)}</svg>'
    )


ART_LEAST = 32.0  # mm: a panel less tall than this has no art box


class _Layout(NamedTuple):
    """Where a panel's parts go: its name band's height, its corner numbers and their circles'
    radius, the top of the kind's line, the text's type size and its box's height, and the art
    box's height (None: no art box)."""

    band: float
    corners: list
    radius: float
    kind_line: float
    size: float
    needed: float
    art: float | None


TEXT_BOX = "#f3f3f0"  # the text box's paper, a little off the card's white


@dataclass
class _Panel:
    """One side drawn in a box of the card, top to bottom: the name band with the first two
    corner numbers, the kind, the art box (the side's art, or a pale box of its colour showing
    the icons the template pictures), the badges (an icon for each value that has one, else the
    value's word), the text box, the last two corner numbers."""

    face: FaceDecl
    text: SideText
    colour: str
    x: float
    y: float
    w: float
    h: float
    icons: dict  # attribute -> value -> a picture's data URI (GameIR.icons)
    art: str  # the side's picture, or ""
    overflows: list[str] = field(default_factory=list)  # what did not fit its box, in words

    def draw(self, multi: bool) -> list[str]:
        at = self.laid_out()
        band, corners, radius = at.band, at.corners, at.radius
        out = [_rect(self.x + 1, self.y + 1, self.w - 2, band, self.colour, rx=2)]
        room = self.w - 2 * MARGIN - (4 * radius + 2 if corners else 0)
        size = _fitting(self.text.name, room, band * 0.5, bold=True)
        out.append(
            _text(
                self.x + self.w / 2,
                self.y + 1 + band * 0.5 + size * 0.36,
                self.text.name,
                size,
                fill=ink_on(self.colour),
                anchor="middle",
                bold=True,
            )
        )
        out += self.corners(corners, band, radius)
        kind = self.text.kind.replace("_", " ") + (f" · {self.text.side.replace('_', ' ')}" if multi else "")
        middle = self.x + self.w / 2
        out.append(_text(middle, at.kind_line + 1.2, kind, 1.6, fill=GREY, anchor="middle", italic=True))
        top = at.kind_line + 2.5
        if at.art is not None:
            out += self.art_box(top + 0.4, at.art)
            top += at.art + 1.6
        badges, top = self.badges(top)
        return out + badges + self.text_box(top + 0.8, at.needed, at.size)

    def laid_out(self) -> _Layout:
        """Where the panel's parts go (what `draw` draws, and what `overflows` needs: `text_fit`
        notes text that does not fit)."""
        band = min(9.0, max(5.5, min(self.w, self.h) * 0.2))
        corners = [
            (name, self.text.printed[name])
            for name in self.face.corners
            if isinstance(self.text.printed.get(name), int)
        ]
        radius = band * 0.38
        kind_line = self.y + band + (3.4 if corners else 2.2)  # (below the labels of the band's numbers)
        top = kind_line + 2.5
        # above the foot's numbers and their labels, if any
        bottom = self.y + self.h - (2 * radius + 1.6 + CORNER_LABEL * 1.4 if len(corners) > 2 else 0.8)
        # the text takes the room it needs (in the largest type that fits beside the art box's
        # least share), the art box the rest: a short text leaves a large picture
        room = bottom - top - (self.badge_places(0.0)[1] + 0.8)
        art = self.h >= ART_LEAST and self.face.art > 0
        least = min(self.h * self.face.art / 100, room * 0.45) + 1.6 if art else 0.0
        size, needed = self.text_fit(self.w - 2 * MARGIN - 1.6, room - least)
        height = room - needed - 1.6
        art_box = height if art and height >= 2 else None  # (badges that crowd out the text leave none)
        return _Layout(band, corners, radius, kind_line, size, needed, art_box)

    def problems(self) -> list[str]:
        """What did not fit, in words naming the side (once laid out)."""
        return [f"{self.text.name} ({_label(self.text.side)}): {problem}" for problem in self.overflows]

    def art_box(self, top: float, height: float) -> list[str]:
        """The side's art, filling the box; without art, a pale box of the side's colour with the
        icons of the values the template pictures (by default its colour's), side by side."""
        x, width = self.x + MARGIN, self.w - 2 * MARGIN
        out = [_rect(x, top, width, height, _tint(self.colour), stroke=self.colour, rx=1.5, stroke_width=0.3)]
        if self.art:
            return out + [
                _image(x + 0.3, top + 0.3, width - 0.6, height - 0.6, self.art, self.text.name, "slice")
            ]
        shown = self.pictured()
        side = min(height * 0.7, width / max(len(shown), 1) * 0.8)
        gap = (width - side * len(shown)) / (len(shown) + 1)
        for at, (picture, said) in enumerate(shown):
            out.append(
                _image(x + gap + at * (side + gap), top + (height - side) / 2, side, side, picture, said)
            )
        return out

    def pictured(self) -> list[tuple[str, str]]:
        """(icon, value in words) of each value of the template's `pictures:` attributes (else of
        its colour attribute) that has an icon, in order."""
        found = []
        for name in self.face.pictures or (self.face.colour,):
            value = self.text.printed.get(name)
            for one in value if isinstance(value, tuple) else (value,):
                picture = self.icons.get(name, {}).get(one) if isinstance(one, str) else None
                found += [(picture, word(one))] if picture else []
        return found

    def corners(self, corners, band: float, radius: float) -> list[str]:
        """Up to four numbers: top left, top right (in the name band), bottom left, bottom right."""
        out = []
        spots = [
            (self.x + 1 + radius + 0.6, self.y + 1 + band / 2),
            (self.x + self.w - 1.6 - radius, self.y + 1 + band / 2),
            (self.x + 1 + radius + 0.6, self.y + self.h - radius - 1),
            (self.x + self.w - 1.6 - radius, self.y + self.h - radius - 1),
        ]
        for index, ((name, value), (cx, cy)) in enumerate(zip(corners, spots)):
            out.append(
                f'<circle cx="{_mm(cx)}" cy="{_mm(cy)}" r="{_mm(radius)}" fill="{PAPER}" '
                f'stroke="{self.colour}" stroke-width="0.5"><title>{xml_text(_label(name))}</title></circle>'
            )
            # a number in the name band is labelled under the band, one at the foot above it
            below = index < 2
            out.append(
                _text(
                    cx,
                    self.y + 1 + band + CORNER_LABEL * 1.1 if below else cy - radius - CORNER_LABEL * 0.4,
                    _label(name),
                    _fitting(_label(name), radius * 3, CORNER_LABEL),
                    fill=GREY,
                    anchor="middle",
                )
            )
            out.append(
                _text(
                    cx,
                    cy + radius * 0.42,
                    str(value),
                    _fitting(str(value), radius * 1.7, radius * 1.2, True),
                    fill=INK,
                    anchor="middle",
                    bold=True,
                )
            )
        return out

    def badges(self, top: float) -> tuple[list[str], float]:
        """The badges drawn from `top` down (badge_places), and where they end."""
        out: list[str] = []
        places, bottom = self.badge_places(top)
        pill = BADGE_SIZE * 1.6
        for x, y, width, words, picture, value in places:
            if picture:
                out.append(_image(x, y - pill * 0.075, width, width, picture, words))
            elif value:
                out.append(_rect(x, y, width, pill, PAPER, stroke=self.colour, rx=pill / 2, stroke_width=0.3))
            if not picture:
                out.append(
                    _text(
                        x + (0.8 if value else 0), y + pill * 0.7, words, BADGE_SIZE, INK if value else GREY
                    )
                )
        return out, bottom

    def badge_places(self, top: float) -> tuple[list[tuple], float]:
        """The badge attributes, each a label and its values, flowing onto new rows: a value with
        an icon as the icon (its word as its tooltip), any other as its word in a pill. Each as
        (x, y, width, words, picture or None, whether a value), and where they end."""
        places: list[tuple] = []
        x, left, right = self.x + MARGIN, self.x + MARGIN, self.x + self.w - MARGIN
        pill = BADGE_SIZE * 1.6
        if not any(name in self.text.printed for name in self.face.badges):
            return places, top
        for name in self.face.badges:
            if name not in self.text.printed or not isinstance(self.text.printed[name], (int, str, tuple)):
                continue
            value = self.text.printed[name]
            values = list(value) if isinstance(value, tuple) else [value]
            items = [(_label(name), "label")] + [(v, "value") for v in values or ["none"]]
            drawn = []  # (width, words, picture, whether a value) of each item
            for said, what in items:
                picture = self.icons.get(name, {}).get(said) if what == "value" else None
                words = said if what == "label" else word(said)
                width = (
                    pill * 1.15 if picture else _width(words, BADGE_SIZE) + (1.6 if what == "value" else 0.8)
                )
                drawn.append((width, words, picture, what == "value"))
            for at, (width, words, picture, valued) in enumerate(drawn):
                kept = width + (0.6 + drawn[1][0] if at == 0 else 0)  # a label stays with its first value
                if x + kept > right and x > left:
                    x, top = left, top + pill + 0.6
                places.append((x, top, width, words, picture, valued))
                x += width + 0.6
            x += 1.0
        return places, top + pill

    def paragraphs(self) -> list[tuple[str, bool]]:
        """What the text box holds: each line of the card's text, then its flavour text, in
        italics (as (words, italic))."""
        flavour = self.text.words.get(self.face.flavour) if self.face.flavour else None
        return [(line, False) for line in self.text.lines] + ([(flavour, True)] if flavour else [])

    def text_box(self, top: float, height: float, size: float) -> list[str]:
        """The card's text on its box, each paragraph wrapped to the width, at `size`."""
        if not self.paragraphs():
            return []
        x, width = self.x + MARGIN, self.w - 2 * MARGIN
        out, y = [_rect(x, top, width, height, TEXT_BOX, rx=1.5)], top + 0.5
        for words, italic in self.paragraphs():
            spans = []
            for row in _wrapped(words, width - 1.6, size):
                y += size * 1.2
                spans.append(f'<tspan x="{_mm(x + 0.8)}" y="{_mm(y)}">{xml_text(row)}</tspan>')
            style = f' font-style="italic" fill="{GREY}"' if italic else f' fill="{INK}"'
            out.append(f'<text font-family="{FONT}" font-size="{_mm(size)}"{style}>{"".join(spans)}</text>')
            y += size * 0.45
        return out

    def text_fit(self, width: float, room: float) -> tuple[float, float]:
        """The largest type size at which the text fits `room` mm of height at this width, and the
        height of its box then (the smallest size, and the room, when none fits: `overflows` says)."""
        paragraphs = [words for words, _ in self.paragraphs()]
        if not paragraphs:
            return TEXT_SIZES[0], 0.0
        for size in TEXT_SIZES:
            needed = _height([_wrapped(words, width, size) for words in paragraphs], size) + 1.0
            if needed <= room:
                return size, needed
        problem = "its badges leave no room for its text" if room < 2 else "its text runs past its box"
        self.overflows.append(f"{problem} even at {TEXT_SIZES[-1]} mm")
        return TEXT_SIZES[-1], max(room, 0.0)


def _tint(colour: str, paper: float = 0.86) -> str:
    """The colour mixed with white (`paper` of it): the art box's ground."""
    channels = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(c + (255 - c) * paper):02x}" for c in channels)


def _image(x, y, w, h, picture: str, said: str, fit: str = "meet") -> str:
    """A picture (a checked data URI: images.py) in the box, named for a tooltip: whole (`meet`),
    or filling the box, its overflow cut away (`slice`, for art)."""
    return (
        f'<image x="{_mm(x)}" y="{_mm(y)}" width="{_mm(w)}" height="{_mm(h)}" '
        f'preserveAspectRatio="xMidYMid {fit}" href={xml_attribute(picture)}>'
        f"<title>{xml_text(said)}</title></image>"
    )


def _height(paragraphs: list[list[str]], size: float) -> float:
    return sum(len(rows) for rows in paragraphs) * size * 1.2 + len(paragraphs) * size * 0.45 + size * 0.3


def _wrapped(text: str, width: float, size: float) -> list[str]:
    """The text in rows no wider than `width` at this size, broken between words (and inside a word
    only when it is wider than a row). A row's advance is carried from piece to piece, adding each
    character's in order: the very sum `_width` makes of the whole row, in one pass."""
    table, missing = _advances(False)
    rows, row, advance = [], "", 0.0
    for piece in (piece for word in text.split() for piece in _pieces(word, width, size)):
        if not row:
            row, advance = piece, _advance(piece)
            continue
        longer = advance
        for char in " " + piece:
            longer += table.get(ord(char), missing)
        if longer * size > width:
            rows.append(row)
            row, advance = piece, _advance(piece)
        else:
            row, advance = f"{row} {piece}", longer
    return rows + [row] if row else rows


def _pieces(word: str, width: float, size: float) -> list[str]:
    """A word in pieces that fit a row (a single character at least), in one pass over it."""
    if _width(word, size) <= width:
        return [word]
    pieces, piece, used = [], "", 0.0
    for char in word:
        wide = _width(char, size)
        if piece and used + wide > width:
            pieces.append(piece)
            piece, used = "", 0.0
        piece, used = piece + char, used + wide
    return pieces + [piece]


@cache
def _advances(bold: bool) -> tuple[dict[int, float], float]:
    """Each character's advance in ems in the bundled font (its glyph's), and the advance of a
    character it lacks (drawn by another font, about as wide as a capital). Read once, when the
    first face is drawn, from four of the font's tables: `head` (units per em), `hhea` (how many
    glyphs have an advance of their own: the rest share the last), `hmtx` (the advances) and
    the `cmap`'s map of all Unicode (format 12: runs of characters with consecutive glyphs)."""
    font = (FONTS / FONT_FILES[bold]).read_bytes()
    tables = {
        font[at : at + 4]: unpack_from(">I", font, at + 8)[0]
        for at in range(12, 12 + 16 * unpack_from(">H", font, 4)[0], 16)
    }
    per_em = unpack_from(">H", font, tables[b"head"] + 18)[0]
    widths = unpack_from(">H", font, tables[b"hhea"] + 34)[0]
    advances = unpack_from(f">{2 * widths}H", font, tables[b"hmtx"])[::2]  # (advance, left bearing) each
    cmap = tables[b"cmap"]
    maps = {
        unpack_from(">HH", font, at): cmap + unpack_from(">I", font, at + 4)[0]
        for at in range(cmap + 4, cmap + 4 + 8 * unpack_from(">H", font, cmap + 2)[0], 8)
    }
    at = maps.get((3, 10)) or maps[(0, 4)]  # Windows' and Unicode's full map, as fontTools prefers them
    if unpack_from(">H", font, at)[0] != 12:
        raise ValueError(f"{FONT_FILES[bold]}: its map of all Unicode is not of format 12")
    table = {}
    for first, last, glyph in iter_unpack(
        ">3I", font[at + 16 : at + 16 + 12 * unpack_from(">I", font, at + 12)[0]]
    ):
        for code in range(first, last + 1):
            table[code] = advances[min(glyph + code - first, widths - 1)] / per_em
    return table, table[ord("M")]


def _width(text: str, size: float, bold: bool = False) -> float:
    """The text's width in mm at this size, as the bundled font sets it (no kerning: a little wide)."""
    return _advance(text, bold) * size


@lru_cache(maxsize=8192)
def _advance(text: str, bold: bool = False) -> float:
    """The text's advance in ems: its characters' advances added in order (a row wrapped piece by
    piece adds them in the same order, to the same sum)."""
    table, missing = _advances(bold)
    return sum(table.get(ord(c), missing) for c in text)


def _fitting(text: str, room: float, largest: float, bold: bool = False) -> float:
    """The largest type size, at most `largest`, at which the text fits in `room` mm."""
    width = _width(text, 1.0, bold)
    return round(min(largest, room / width if width else largest), 2)


def _label(name: str) -> str:
    return name.replace("_", " ")


def word(value) -> str:
    """A printed value as players read it: a word of several parts in words ("horse chestnut")."""
    text = str(value)
    return text.replace("-", " ").replace("_", " ") if re.fullmatch(r"[a-z]+(?:[-_][a-z]+)+", text) else text


def _mm(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _rect(x, y, w, h, fill, stroke=None, rx=0.0, stroke_width=0.5) -> str:
    line = f' stroke="{stroke}" stroke-width="{_mm(stroke_width)}"' if stroke else ""
    return (
        f'<rect x="{_mm(x)}" y="{_mm(y)}" width="{_mm(w)}" height="{_mm(h)}" '
        f'rx="{_mm(rx)}" fill="{fill}"{line}/>'
    )


def _text(
    x, y, text: str, size: float, fill: str = INK, anchor: str = "start", bold=False, italic=False
) -> str:
    style = (' font-weight="bold"' if bold else "") + (' font-style="italic"' if italic else "")
    return (
        f'<text x="{_mm(x)}" y="{_mm(y)}" font-family="{FONT}" font-size="{_mm(size)}" fill="{fill}" '
        f'text-anchor="{anchor}"{style}>{xml_text(text)}</text>'
    )
