"""`silvics print`: card faces on pages with cut marks, as SVG pages or one PDF."""
from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from silvics import games
from silvics.compiler.faces import face_sides

from conftest import ROOT, run_cli
from test_faces import with_faces

SVG = "{http://www.w3.org/2000/svg}"
MYTHIC = ROOT / "tests" / "fixtures" / "packs" / "mythic"


def faces_of(ir, cards) -> int:
    return sum(card.copies * len(face_sides(ir, card)) for card in cards)


def svg_pages(tmp_path, *argv) -> list[ET.Element]:
    tmp_path.mkdir(exist_ok=True)
    status, out, err = run_cli("print", *argv, "-o", tmp_path / "sheet.svg")
    assert status == 0, err
    files = sorted(tmp_path.glob("sheet*.svg"), key=lambda p: int(re.sub(r"\D", "", p.stem) or 1))
    assert out == f"wrote {len(files)} page(s), a4: {', '.join(map(str, files))}\n"
    return [ET.parse(file).getroot() for file in files]          # each one well-formed


def laid_cards(pages) -> Counter:
    return Counter(card.get("data-card") for page in pages for card in page.iter(f"{SVG}svg") if card.get("data-card"))


def pdf_pages(data: bytes) -> int:
    """The pages of a PDF, counted from its page objects (cairo writes them uncompressed)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))


def test_a_pdf_has_a_page_for_every_nine_poker_cards(tmp_path):
    pytest.importorskip("cairosvg")
    ir = games.load("four-forests")
    expected = math.ceil(faces_of(ir, ir.cards) / 9) + 1            # 3 × 3 cards of 63 × 88 mm on A4, a legend
    status, out, err = run_cli("print", "four-forests", "-o", tmp_path / "sheet.pdf")
    assert (status, err) == (0, "")
    data = (tmp_path / "sheet.pdf").read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert pdf_pages(data) == expected == 11
    assert out == f"wrote {tmp_path / 'sheet.pdf'} (11 pages, a4)\n"
    if shutil.which("pdfinfo"):
        info = subprocess.run(["pdfinfo", tmp_path / "sheet.pdf"], capture_output=True, text=True).stdout
        assert re.search(r"Pages:\s+11", info)


def test_every_card_is_laid_as_many_times_as_its_copies_and_each_page_holds_one_size(tmp_path):
    ir = games.load("renature")                                      # dominoes, squares, boards; many copies
    pages = svg_pages(tmp_path, "renature")
    laid = laid_cards(pages)
    assert laid == Counter({card.id: card.copies for card in ir.cards})
    assert sum(laid.values()) == faces_of(ir, ir.cards) == 185
    *laid_out, legend = pages                                        # the last: what colours and icons mean
    for page in pages:
        assert (page.get("width"), page.get("height")) == ("210mm", "297mm")
    for page in laid_out:
        sizes = {(card.get("width"), card.get("height")) for card in page.iter(f"{SVG}svg") if card.get("data-card")}
        assert len(sizes) == 1
    said = ["".join(text.itertext()) for text in legend.iter(f"{SVG}text")]
    assert said[:2] == ["Renature: colours and icons", "Plant, player board cards, by colour"]
    assert said[2:7] == ["white", "black", "orange", "blue", "neutral"] and said[-1] == f"page {len(pages)} of {len(pages)}"
    assert said[7:9] == ["Icons: first", "butterfly"] and "Icons: form" in said
    assert len(list(legend.iter(f"{SVG}image"))) == 10 + 10 + 4      # each animal, first and second; each form


def test_duplex_lays_each_back_behind_its_front(tmp_path):
    """--duplex: each page of fronts, then the page of their backs, each row right to left, so
    that printed on both sides (flipped on the long edge) a back lies behind its front: a
    double-sided card's other side, another card's kind's back, the same for every card of a kind."""
    pages = svg_pages(tmp_path, "four-forests", "--duplex", "--card", "kapok-tree", "mahogany", "elves",
                      "--module", "first-game")
    fronts, backs, legend = pages
    def laid(page):
        return [(c.get("data-card"), float(c.get("x")), float(c.get("y")), c) for c in page.iter(f"{SVG}svg")
                if c.get("data-card")]
    front, back = laid(fronts), laid(backs)
    assert [card for card, *_ in front] == [card for card, *_ in back] == ["kapok-tree", "mahogany", "elves"]
    assert not any(c.get("data-back") for *_, c in front) and all(c.get("data-back") for *_, c in back)
    left, right = min(x for _, x, _, _ in front), max(x for _, x, _, _ in front)
    for (card, x, y, _), (_, bx, by, _) in zip(front, back):
        assert (bx, by) == (left + right - x, y), card                 # mirrored across the page's middle
    said = {card: "".join(c.itertext()) for card, _, _, c in back}
    assert "Prefers" in said["elves"] and "thorn" in said["elves"]    # its other side
    assert said["kapok-tree"] == said["mahogany"].replace("mahogany", "kapok-tree")
    assert "Four Forests: the back of a plant card" in said["kapok-tree"] and "Kapok" not in said["kapok-tree"]
    assert 'data-back' not in ET.tostring(legend, encoding="unicode")


def test_cut_marks_stand_in_the_margins_in_line_with_every_edge_of_the_grid(tmp_path):
    pages = svg_pages(tmp_path, "four-forests", "--card", "kapok-tree", "elves", "--module", "first-game")
    page, legend = pages                                # a plant and a creature's two sides: 3 faces, one row
    assert not [c for c in legend.iter(f"{SVG}svg") if c.get("data-card")]           # then what colours mean
    cards = [c for c in page.iter(f"{SVG}svg") if c.get("data-card")]
    assert [c.get("data-card") for c in cards] == ["kapok-tree", "elves", "elves"]
    xs = sorted({float(c.get("x")) for c in cards} | {float(c.get("x")) + 63 for c in cards})
    top, bottom = float(cards[0].get("y")), float(cards[0].get("y")) + 88
    [marks] = [g for g in page.iter(f"{SVG}g") if g.get("class") == "cut-marks"]
    lines = [tuple(float(line.get(k)) for k in ("x1", "y1", "x2", "y2")) for line in marks]
    assert len(lines) == 2 * (3 + 1) + 2 * (1 + 1)
    vertical = [line for line in lines if line[0] == line[2]]
    assert sorted({round(line[0], 2) for line in vertical}) == [round(x, 2) for x in xs]
    for x1, y1, x2, y2 in vertical:                     # above or below the cards, never across one
        assert max(y1, y2) < top or min(y1, y2) > bottom
    horizontal = [line for line in lines if line[1] == line[3]]
    assert sorted({round(line[1], 2) for line in horizontal}) == [round(top, 2), round(bottom, 2)]
    for x1, y1, x2, y2 in horizontal:
        assert max(x1, x2) < xs[0] or min(x1, x2) > xs[-1]


def test_with_bleed_each_card_carries_its_edge_colour_past_its_own_cuts(tmp_path):
    pages = svg_pages(tmp_path, "four-forests", "--card", "kapok-tree", "white-spruce", "--bleed", "3")
    page, _ = pages                                                  # two cards in a row, then the legend
    cards = [c for c in page.iter(f"{SVG}svg") if c.get("data-card")]
    assert [(c.get("width"), c.get("height"), c.get("viewBox")) for c in cards] == [("69", "94", "-3 -3 69 94")] * 2
    edges = [next(iter(c)).get("fill") for c in cards]               # the bleed: the colour at the card's edge
    assert edges == ["#2e7d32", "#1565c0"]                           # rainforest green, boreal blue
    xs = sorted(float(c.get("x")) + 3 + edge for c in cards for edge in (0, 63))     # each card's own cuts
    [marks] = [g for g in page.iter(f"{SVG}g") if g.get("class") == "cut-marks"]
    vertical = {round(float(line.get("x1")), 2) for line in marks if line.get("x1") == line.get("x2")}
    assert sorted(vertical) == [round(x, 2) for x in xs] and len(xs) == 4
    top = float(cards[0].get("y")) + 3
    horizontal = {round(float(line.get("y1")), 2) for line in marks if line.get("y1") == line.get("y2")}
    assert horizontal == {round(top, 2), round(top + 88, 2)}
    ir = games.load("four-forests")                                  # 6 a page (2 × 3), and the legend
    assert len(svg_pages(tmp_path / "all", "four-forests", "--bleed", "3")) == math.ceil(faces_of(ir, ir.cards) / 6) + 1


def test_modules_add_their_cards_and_a_pack_prints_its_own(tmp_path):
    ir = games.load("forest-shuffle")
    caves = {card.id for card in ir.modules["special-caves"].cards}
    assert not caves & set(laid_cards(svg_pages(tmp_path / "base", "forest-shuffle")))
    with_caves = laid_cards(svg_pages(tmp_path / "caves", "forest-shuffle", "--module", "special-caves"))
    assert caves <= set(with_caves)
    assert sum(with_caves.values()) == faces_of(ir, [*ir.cards, *ir.modules["special-caves"].cards])
    assert laid_cards(svg_pages(tmp_path / "pack", "four-forests", "--pack", MYTHIC)) == \
        Counter({"krakens": 2, "sphinxes": 2})                      # double-sided: both sides each


@pytest.mark.parametrize("argv, message", [
    (["four-forests", "-o", "sheet.png"], "-o takes a .pdf or .svg file, not '{tmp}/sheet.png'"),
    (["four-forests", "--pack", "nowhere", "-o", "sheet.svg"],
     "no pack 'nowhere': give a pack folder or its pack.yaml"),
    (["four-forests", "--pack", "rules/reforest", "-o", "sheet.svg"],
     "no pack 'rules/reforest': give a pack folder or its pack.yaml"),
    (["reforest", "--pack", "tests/fixtures/packs/mythic", "-o", "sheet.svg"],
     "the pack 'tests/fixtures/packs/mythic' extends four-forests, not reforest"),
    (["four-forests", "--module", "expert", "-o", "sheet.svg"],
     "unknown module 'expert'; Four Forests has: experienced, first-game"),
    (["four-forests", "--card", "kapok", "-o", "sheet.svg"],
     "Four Forests has no card 'kapok'; did you mean 'kapok-tree'?"),
    (["four-forests", "--bleed", "11", "-o", "sheet.svg"], "--bleed takes 0 to 10 mm, not 11"),
    (["four-forests", "--bleed", "-1", "-o", "sheet.svg"], "--bleed takes 0 to 10 mm, not -1"),
])
def test_misuse_is_one_line_and_writes_nothing(tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(ROOT)
    argv = [str(tmp_path / a) if a.startswith("sheet") else a for a in argv]
    status, out, err = run_cli("print", *argv)
    assert (status, out, err) == (2, "", f"silvics: error: {message.format(tmp=tmp_path)}\n")
    assert not list(tmp_path.iterdir())


def test_a_pdf_that_cannot_be_written_is_misuse(tmp_path):
    pytest.importorskip("cairosvg")
    status, out, err = run_cli("print", "four-forests", "-o", tmp_path / "nowhere" / "sheet.pdf")
    assert (status, out, err) == (2, "", f"silvics: error: cannot write {tmp_path / 'nowhere' / 'sheet.pdf'}: "
                                         "No such file or directory\n")


def test_without_cairosvg_a_pdf_is_refused_in_one_line(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)              # import cairosvg raises ImportError
    monkeypatch.setitem(sys.modules, "cairosvg.parser", None)
    status, out, err = run_cli("print", "four-forests", "-o", tmp_path / "sheet.pdf")
    assert (status, out) == (2, "")
    assert re.fullmatch(r"silvics: error: writing PDF needs cairosvg \(silvics' print extra\): "
                        r"pip install (-e )?'\S+\[print\]'; or write the pages as \.svg\n", err), err
    assert not list(tmp_path.iterdir())


def test_a_card_larger_than_the_page_is_refused(tmp_path):
    game, _ = with_faces(tmp_path, "faces:", "  goods: {width: 250, height: 100}")
    status, out, err = run_cli("print", game, "--paper", "letter", "-o", tmp_path / "sheet.svg")
    assert (status, err) == (2, "silvics: error: a 250 × 100 mm card does not fit on a letter page "
                                "(203.9 × 267.4 mm inside the margins)\n")
    assert not list(tmp_path.glob("sheet*"))


def test_characters_xml_forbids_never_reach_a_page(tmp_path):
    """U+FFFF and U+FFFE may be written in YAML (as escapes) but not in XML: each becomes U+FFFD
    wherever data text reaches a page (names, titles, the footer)."""
    game = shutil.copytree(ROOT / "tests" / "fixtures" / "games" / "market", tmp_path / "market")
    rules, cards = game / "game.yaml", game / "cards.yaml"
    rules.write_text(rules.read_text().replace("name: Market (test game)", 'name: "Market\\uFFFE"', 1))
    cards.write_text(cards.read_text().replace("{id: apple,", '{id: apple, name: "Apple\\uFFFF",', 1))
    pages = svg_pages(tmp_path / "pages", game)                        # each one parsed: well-formed
    text = "".join(page_text for page in pages for page_text in page.itertext())
    assert "Apple\ufffd" in text and "Market\ufffd" in text
    assert not re.search("[\ufffe\uffff\ud800-\udfff]", text)


def test_the_pdf_embeds_the_bundled_font_even_on_a_machine_without_fonts(tmp_path):
    """The faces are measured with the font in compiler/fonts: a machine whose fontconfig knows no
    font at all (an empty configuration) still prints with it, so text fits as measured."""
    pytest.importorskip("cairosvg")
    (tmp_path / "empty.conf").write_text('<?xml version="1.0"?>\n<fontconfig></fontconfig>\n')
    env = {key: value for key, value in os.environ.items() if key != "SILVICS_FONTS"}
    env.update(FONTCONFIG_FILE=str(tmp_path / "empty.conf"), XDG_CACHE_HOME=str(tmp_path / "xdg"))
    made = subprocess.run([sys.executable, "-m", "silvics", "print", "four-forests", "-o", str(tmp_path / "s.pdf")],
                          env=env, capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    fonts = set(re.findall(rb"/BaseFont\s*/[A-Z]{6}\+([A-Za-z-]+)", (tmp_path / "s.pdf").read_bytes()))
    assert fonts == {b"DejaVuSansCondensed", b"DejaVuSansCondensed-Bold", b"DejaVuSansCondensed-Oblique"}
