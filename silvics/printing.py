"""Print and play: card faces laid out on A4 or Letter pages with cut marks (`silvics print`).

Faces of one size share a page, in a grid of cards edge to edge, so one cut serves two cards;
the cut marks stand in the margins, in line with every edge of the grid. Each card is laid as
many times as its copies, each of its faces (a double-sided card's two sides one after the
other, to glue back to back). A page is an SVG document in mm; a PDF is the same pages drawn
by cairosvg (the optional extra `print`).
"""

from __future__ import annotations

import math
import os
from pathlib import Path

from silvics.compiler.faces import (
    FONT,
    FONTS,
    back_body,
    colour_legend,
    edge_colour,
    face_body,
    face_sides,
    icon_legend,
    template,
    xml_attribute,
    xml_text,
)
from silvics.errors import UsageError
from silvics.extras import require
from silvics.interpreter.ir import CardDef, GameIR

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # mm
MARGIN = 6.0  # mm kept clear at each edge of the paper (most printers print no closer)
MARK = (1.0, 4.0)  # a cut mark runs from 1 mm to 4 mm outside the grid
BACK_MARK = ' data-back="true"'  # on a card laid on a page of backs


def pages(
    ir: GameIR, cards: list[CardDef], paper: str, duplex: bool = False, bleed: float = 0.0
) -> list[str]:
    """The pages (SVG documents) laying out every face of the cards, each card `copies` times,
    then a page saying what their colours mean (when a template colours them by a value).
    `duplex`: each page of fronts is followed by the page of their backs (a double-sided card's
    other side, else its kind's back), laid mirrored so that printed on both sides of the paper
    (flipped on the long edge) each back falls behind its front. `bleed`: each card is laid with
    that many mm of its edge's colour around it, past the cut (cards then lie apart, each cut
    alone), as a print shop asks."""
    by_size: dict[tuple[int, int], list[tuple[CardDef, str, str | None]]] = {}  # (card, side, its back)
    for card in cards:
        face = template(ir, card)
        sides = face_sides(ir, card)
        if duplex:  # a card is laid once a copy: its first face in front, its second (or a back) behind
            each = [(card, sides[0][0], sides[1][0] if len(sides) > 1 else None)] * card.copies
        else:
            each = [(card, faces[0], None) for _ in range(card.copies) for faces in sides]
        by_size.setdefault((face.width, face.height), []).extend(each)
    width, height = PAPERS[paper]
    laid: list[tuple] = []  # a page each: (card width, height, columns, [(card, side)], whether backs)
    for (w, h), faces in by_size.items():
        columns = int((width - 2 * MARGIN) // (w + 2 * bleed))
        rows = int((height - 2 * MARGIN) // (h + 2 * bleed))
        if not columns or not rows:
            raise UsageError(
                f"a {w} × {h} mm card{f' with {bleed:g} mm of bleed' if bleed else ''} does not fit on a "
                f"{paper} page ({width - 2 * MARGIN:g} × {height - 2 * MARGIN:g} mm inside the margins)"
            )
        per_page = columns * rows
        for start in range(0, len(faces), per_page):
            laid.append((w, h, columns, [(card, side) for card, side, _ in faces[start : start + per_page]]))
            if duplex:
                laid.append(
                    (w, h, columns, [(card, back) for card, _, back in faces[start : start + per_page]], True)
                )
    kinds = {card.kind for card in cards}
    lines: list[tuple[str, str, str]] = []  # what the colours and icons of these cards mean
    for named, attribute, values in colour_legend(ir, kinds):
        lines += [
            ("heading", f"{named.capitalize()} cards, by {attribute}", ""),
            *(("colour", v, c) for v, c in values),
        ]
    for attribute, pictures in icon_legend(ir, kinds):
        lines += [("heading", f"Icons: {attribute}", ""), *(("picture", v, p) for v, p in pictures)]
    total = len(laid) + bool(lines)
    printed = [_page(ir, paper, bleed, number, total, *page) for number, page in enumerate(laid, 1)]
    return printed + ([_legend_page(ir.pack.name or ir.name, lines, paper, total)] if lines else [])


def _legend_page(title: str, lines: list[tuple[str, str, str]], paper: str, total: int) -> str:
    """The last page: what the cards' colours and icons mean, a swatch or an icon and its value
    per line, under a heading for each attribute."""
    width, height = PAPERS[paper]
    font = f'font-family="{FONT}"'
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}mm" height="{height:g}mm" '
        f'viewBox="0 0 {width:g} {height:g}">',
        f'<rect width="{width:g}" height="{height:g}" fill="#ffffff"/>',
        f'<text x="{MARGIN + 4:g}" y="{MARGIN + 12:g}" {font} font-size="6" font-weight="bold">'
        f"{xml_text(title)}: colours and icons</text>",
    ]
    x, y = MARGIN + 4, MARGIN + 24
    for what, text, shown in lines:
        if y > height - MARGIN - 8:  # the page is full: the next column
            x, y = x + (width - 2 * MARGIN) / 3, MARGIN + 24
        if what == "heading":
            y += 5 if y > MARGIN + 24 else 0
            out.append(
                f'<text x="{x:g}" y="{y:g}" {font} font-size="4" font-weight="bold">{xml_text(text)}</text>'
            )
        else:
            out.append(
                f'<rect x="{x:g}" y="{y - 4.5:g}" width="5" height="5" rx="1" fill="{shown}" '
                'stroke="#616161" stroke-width="0.3"/>'
                if what == "colour"
                else f'<image x="{x - 0.5:g}" y="{y - 5:g}" width="6" height="6" '
                f"href={xml_attribute(shown)}/>"
            )
            out.append(f'<text x="{x + 8:g}" y="{y:g}" {font} font-size="3.5">{xml_text(text)}</text>')
        y += 7
    out.append(
        f'<text x="{width - MARGIN:g}" y="{height - 2:g}" {font} font-size="2.2" fill="#9e9e9e" '
        f'text-anchor="end">page {total} of {total}</text></svg>'
    )
    return "".join(out)


def _page(
    ir: GameIR,
    paper: str,
    bleed: float,
    number: int,
    total: int,
    w: int,
    h: int,
    columns: int,
    faces: list,
    backs=False,
) -> str:
    """A page of faces in a grid of cells, each a card and its bleed (`backs`: the backs of the
    page before, each row right to left, on the same grid, so that each lies behind its front
    once the sheet is turned over)."""
    width, height = PAPERS[paper]
    cell_w, cell_h = w + 2 * bleed, h + 2 * bleed
    used_columns, used_rows = min(columns, len(faces)), math.ceil(len(faces) / columns)
    left, top = (width - used_columns * cell_w) / 2, (height - used_rows * cell_h) / 2
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}mm" height="{height:g}mm" '
        f'viewBox="0 0 {width:g} {height:g}">',
        f'<rect width="{width:g}" height="{height:g}" fill="#ffffff"/>',
    ]
    for index, (card, side) in enumerate(faces):
        column = used_columns - 1 - index % columns if backs else index % columns
        x, y = left + column * cell_w, top + (index // columns) * cell_h
        back = backs and side is None
        drawn = back_body(ir, card) if back else face_body(ir, card, side)
        if bleed:
            edge = edge_colour(ir, card, None if back else side)  # the bleed: the edge's colour past the cut
            drawn = f'<rect x="{-bleed:g}" y="{-bleed:g}" width="{cell_w:g}" height="{cell_h:g}" ' + (
                f'fill="{edge}"/>{drawn}'
            )
        out.append(
            f'<svg x="{x:.2f}" y="{y:.2f}" width="{cell_w:g}" height="{cell_h:g}" '
            f'viewBox="{-bleed:g} {-bleed:g} {cell_w:g} {cell_h:g}" '
            f"data-card={xml_attribute(card.id)}{BACK_MARK if backs else ''}>{drawn}</svg>"
        )
    out.append(_cut_marks(left, top, w, h, bleed, used_columns, used_rows))
    out.append(
        f'<text x="{width - MARGIN:g}" y="{height - 2:g}" font-family="{FONT}" '
        f'font-size="2.2" fill="#9e9e9e" text-anchor="end">page {number} of {total}</text></svg>'
    )
    return "".join(out)


def _cut_marks(left: float, top: float, w: int, h: int, bleed: float, columns: int, rows: int) -> str:
    """Short lines in the margins, in line with each cut: each edge of the grid of cards
    (without bleed, two cards side by side share a cut), drawn over the bleed."""
    near, far = MARK
    right, bottom = left + columns * (w + 2 * bleed), top + rows * (h + 2 * bleed)
    cuts_x = dict.fromkeys(
        round(left + bleed + i * (w + 2 * bleed) + edge, 3) for i in range(columns) for edge in (0, w)
    )
    cuts_y = dict.fromkeys(
        round(top + bleed + j * (h + 2 * bleed) + edge, 3) for j in range(rows) for edge in (0, h)
    )
    lines = []
    for x in cuts_x:
        lines += [(x, top - near, x, top - far), (x, bottom + near, x, bottom + far)]
    for y in cuts_y:
        lines += [(left - near, y, left - far, y), (right + near, y, right + far, y)]
    drawn = "".join(f'<line x1="{a:.2f}" y1="{b:.2f}" x2="{c:.2f}" y2="{d:.2f}"/>' for a, b, c, d in lines)
    return f'<g class="cut-marks" stroke="#000000" stroke-width="0.2">{drawn}</g>'


def page_files(output: Path, count: int) -> list[Path]:
    """Where SVG pages go: the file named, then NAME-2.svg, NAME-3.svg … beside it."""
    return [output] + [output.with_name(f"{output.stem}-{n}{output.suffix}") for n in range(2, count + 1)]


def need_pdf() -> None:
    """Writing PDF needs cairosvg, the print extra: misuse when it is missing."""
    require("print", "cairosvg", what="writing PDF", instead="write the pages as .svg")


def use_bundled_font() -> None:
    """Let cairo find the font the faces are measured with (compiler/fonts): fontconfig, which
    cairo asks for fonts, reads the file FONTCONFIG_FILE names, so before cairo first looks for
    a font that becomes a file of ours holding the one it would have read (the system's) and
    our fonts folder. Without a writable cache folder, the system's fonts are used as they are."""
    from silvics.cache import folder, write_atomically

    if os.environ.get("SILVICS_FONTS") == str(FONTS):  # done in this process (or its parent)
        return
    system = os.environ.get("FONTCONFIG_FILE", "/etc/fonts/fonts.conf")
    config = folder() / "fonts.conf"
    write_atomically(
        config,
        '<?xml version="1.0"?>\n<fontconfig>\n'
        f'  <include ignore_missing="yes">{xml_text(system)}</include>\n'
        f"  <dir>{xml_text(str(FONTS))}</dir>\n</fontconfig>\n",
    )
    if config.is_file():
        os.environ["FONTCONFIG_FILE"], os.environ["SILVICS_FONTS"] = str(config), str(FONTS)


def write_pdf(svg_pages: list[str], paper: str, output: Path) -> None:
    """The pages as one PDF, drawn by cairosvg onto one cairo PDF surface, a page each."""
    need_pdf()
    use_bundled_font()
    import cairocffi
    from cairosvg.parser import Tree
    from cairosvg.surface import PDFSurface

    width, height = (mm / 25.4 * 72 for mm in PAPERS[paper])  # points
    try:
        stream = open(output, "wb")
    except OSError as error:
        raise UsageError(f"cannot write {output}: {error.strerror}") from None
    with stream:
        target = cairocffi.PDFSurface(stream, width, height)

        class Page(PDFSurface):  # cairosvg's hook for subclasses: draw on our surface, not a new one
            def _create_surface(self, width, height):
                return target, width, height

        for svg in svg_pages:
            Page(Tree(bytestring=svg.encode("utf-8")), None, 96)
            target.show_page()
        target.finish()
