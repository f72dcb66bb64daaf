"""Card faces (compiler/faces.py), their templates (`faces:`), and the gallery entries (docs.py)."""
from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape, quoteattr
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from silvics import games
from silvics.compiler.build import compile_game
from silvics.compiler.cardtext import card_text
from silvics.compiler.diagnostics import CompileError
from silvics.compiler.docs import card_entry, gallery_page
from silvics.compiler.faces import (
    _NOT_XML,
    _side_panels,
    BLACK,
    FONT_FILES,
    FONTS,
    PAPER,
    _advances,
    contrast,
    face_sides,
    face_svg,
    ink_on,
    overflows,
    template,
    xml_attribute,
    xml_text,
)
from silvics.interpreter import ir as ir_module

from conftest import ROOT

SVG = "{http://www.w3.org/2000/svg}"
GAMES = ("four-forests", "reforest", "forest-shuffle", "renature")
MARKET = ROOT / "tests" / "fixtures" / "games" / "market"


def every_card(ir) -> list:
    return list({c.id: c for cards in [ir.cards, *(m.cards for m in ir.modules.values())] for c in cards}.values())


def shown_texts(svg: str) -> list[str]:
    """What the face prints (its <text> elements, not its <title>), each without its spaces."""
    root = ET.fromstring(svg)
    return ["".join("".join(element.itertext()).split()) for element in root.iter(f"{SVG}text")]


def squeezed(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("game", GAMES)
def test_every_card_of_every_bundled_game_is_drawn_with_its_name_and_text(game):
    ir = games.load(game)
    for card in every_card(ir):
        texts = {text.side: text for text in card_text(ir, card)}
        face = template(ir, card)
        for sides in face_sides(ir, card):
            svg = face_svg(ir, card, sides[0])
            root = ET.fromstring(svg)                       # well-formed XML
            assert root.tag == f"{SVG}svg" and root.get("viewBox") == f"0 0 {face.width} {face.height}"
            shown = shown_texts(svg)
            for side in sides:
                assert squeezed(texts[side].name) in shown, (card.id, side)
                for line in texts[side].lines:
                    assert squeezed(line) in shown, (card.id, side, line)
                for name in face.corners:
                    value = texts[side].printed.get(name)
                    assert value is None or str(value) in shown, (card.id, name)
            for element in root.iter(f"{SVG}tspan"):       # the text is made small enough to stay on the card
                assert float(element.get("y")) <= face.height - 2.5, (card.id, sides)
        assert overflows(ir, card) == [], card.id          # and in its box, measured with the font's widths


@pytest.mark.parametrize("game", GAMES)
def test_a_badges_label_is_never_left_at_the_end_of_a_row_without_its_value(game):
    """The badges flow onto new rows: a label goes onto the next row with its first value rather
    than end a row alone (Reforest's Red Alder printed "icons" at the end of a row and its sprout
    under "elevation" on the next)."""
    ir = games.load(game)
    for card in every_card(ir):
        for side in face_sides(ir, card):
            for panel in _side_panels(ir, card, side[0] if side else None):
                places, _ = panel.badge_places(0.0)
                for at, (x, y, width, words, picture, valued) in enumerate(places):
                    if not valued:
                        following = places[at + 1]
                        assert following[5] and following[1] == y, (card.id, words, places)


def test_a_double_sided_card_has_a_face_per_side_and_a_split_card_one_face_with_its_halves():
    four_forests, forest_shuffle = games.load("four-forests"), games.load("forest-shuffle")
    elves = next(c for c in four_forests.cards if c.id == "elves")
    assert face_sides(four_forests, elves) == (("leaf",), ("thorn",))
    assert face_svg(four_forests, elves, "leaf") != face_svg(four_forests, elves, "thorn")
    split = next(c for c in forest_shuffle.cards if c.id == "bullfinch--common-toad")
    assert face_sides(forest_shuffle, split) == (("top_half", "bottom_half"),)
    shown = shown_texts(face_svg(forest_shuffle, split, "bottom_half"))
    assert "Bullfinch" in shown and "CommonToad" in shown
    with pytest.raises(ValueError, match="no side 'sideways'"):
        face_svg(forest_shuffle, split, "sideways")


def test_the_template_gives_the_size_colour_corners_and_badges():
    ir = games.load("four-forests")
    kapok = next(c for c in ir.cards if c.id == "kapok-tree")          # value 9, rainforest, tree, leaf + flower
    svg = face_svg(ir, kapok)
    root = ET.fromstring(svg)
    assert (root.get("width"), root.get("height")) == ("63mm", "88mm")
    assert 'fill="#2e7d32"' in svg                                     # the rainforest green of the template
    assert "9" in shown_texts(svg)
    assert {"form", "icons"} <= set(shown_texts(svg))                # each badge's label, and each value
    pictured = [image.findtext(f"{SVG}title") for image in root.iter(f"{SVG}image")]
    assert pictured == ["rainforest", "tree", "leaf", "flower"]         # by its icon: the art box's, the badges'
    icons = ir.icons
    assert [image.get("href") for image in root.iter(f"{SVG}image")] == [
        icons["suit"]["rainforest"], icons["form"]["tree"], icons["icons"]["leaf"], icons["icons"]["flower"]]
    assert shown_texts(svg)[-1] == "FourForests"                     # the footer: the game it comes from


def test_a_split_cards_lower_half_reads_from_the_other_edge_and_halves_side_by_side_stand():
    """As on the printed card: a vertical Forest Shuffle card's bottom half is drawn upside down
    (turned about its own centre); a horizontal card's halves, side by side, both upright."""
    ir = games.load("forest-shuffle")
    vertical = next(c for c in ir.cards if c.id == "bullfinch--common-toad")
    root = ET.fromstring(face_svg(ir, vertical))
    turned = [g for g in root.iter(f"{SVG}g") if g.get("transform", "").startswith("rotate(180 ")]
    assert len(turned) == 1
    assert "CommonToad" in ["".join("".join(t.itertext()).split()) for t in turned[0].iter(f"{SVG}text")]
    x, y = map(float, turned[0].get("transform")[len("rotate(180 "):-1].split())
    assert (x, y) == (31.5, round((88 - 3.5) * 3 / 4, 2))         # the centre of the lower half
    horizontal = next(c for c in ir.cards if template(ir, c).split == "columns")
    assert "rotate" not in face_svg(ir, horizontal)


def test_each_corner_number_is_labelled_with_what_it_is():
    ir = games.load("reforest")
    fir = next(c for c in ir.cards if c.id == "douglas-fir")       # cost 5, value 5, height 60
    assert {"5", "60", "cost", "value", "height"} <= set(shown_texts(face_svg(ir, fir)))


@pytest.mark.parametrize("colour", ["#ffffff", "#ffd54f", "#f9a825", "#777777", "#767676", "#7cb342", "#1b5e20",
                                    "#000000", "#ff0000", "#0000ff", "#00ff00"])
def test_a_name_band_is_written_in_the_ink_that_reads_best_on_it(colour):
    """Black or white, whichever contrasts more: never under 4.5 to 1 (WCAG AA), whatever colour
    the data gives a value."""
    ink = ink_on(colour)
    assert contrast(ink, colour) >= 4.5
    assert contrast(ink, colour) == max(contrast(BLACK, colour), contrast(PAPER, colour))


def test_forest_shuffle_colours_each_half_by_its_tree_symbol():
    ir = games.load("forest-shuffle")
    card = next(c for c in ir.cards if c.id == "bullfinch--common-toad")
    colours = next(f for f in ir.faces if f.kind == "vertical").colours
    svg = face_svg(ir, card)
    assert all(f'fill="{colours[text.printed["symbol"]]}"' in svg for text in card_text(ir, card))
    linden = face_svg(ir, next(c for c in ir.cards if c.id == "linden"))     # a light yellow: black type
    assert f'fill="{BLACK}" text-anchor="middle" font-weight="bold">Linden<' in linden


def test_a_module_draws_its_own_cards_and_the_footer_names_it():
    ir = games.load("forest-shuffle")
    cave = ir.modules["special-caves"].cards[0]
    assert template(ir, cave) == next(f for f in ir.modules["special-caves"].faces if f.kind == "cavern")
    assert squeezed("Forest Shuffle · special-caves") in shown_texts(face_svg(ir, cave))


def test_a_game_without_faces_gets_a_default_layout_showing_every_printed_attribute():
    ir = compile_game(MARKET)
    assert ir.faces == ()
    card = ir.cards[0]
    assert template(ir, card).badges == ("price",)
    assert (template(ir, card).width, template(ir, card).height) == (63, 88)
    assert "price" in shown_texts(face_svg(ir, card))


def test_a_packs_cards_name_the_pack_in_their_footer():
    ir = games.load(str(ROOT / "tests" / "fixtures" / "packs" / "mythic"))
    kraken = next(c for c in ir.cards if c.id == "krakens")
    assert kraken.origin == "Mythic Creatures (a fan pack)"
    assert all(not c.origin for c in ir.cards if c.id != kraken.id and c.id != "sphinxes")
    assert squeezed(kraken.origin) in shown_texts(face_svg(ir, kraken))


def hostile(ir):
    """The game with a card, its pack and the game named to break out of XML and HTML."""
    evil = '<script>&"\''
    card = ir.cards[0]
    sides = tuple(replace(side, name=evil) for side in card.sides)
    card = replace(card, sides=sides, origin='<b onload="x">pack</b>')
    return replace(ir, name="A & <B>", cards=(card, *ir.cards[1:])), card, evil


def test_names_and_texts_are_escaped():
    ir, card, evil = hostile(games.load("four-forests"))
    svg = face_svg(ir, card)
    assert "<script>" not in svg and "<b " not in svg
    root = ET.fromstring(svg)                                       # still well-formed
    assert root.get("aria-label") == evil
    assert root.find(f"{SVG}title").text == evil
    assert squeezed(evil) in shown_texts(svg) and squeezed('<b onload="x">pack</b>') in shown_texts(svg)
    entry = card_entry(ir, card)
    assert "<script>" not in entry and "<b " not in entry and "&lt;script&gt;" in entry


def test_faces_are_deterministic_and_the_same_from_a_saved_ir():
    ir = games.load("reforest")
    loaded = ir_module.loads(ir_module.dumps(ir))
    assert loaded.faces == ir.faces
    for card in ir.cards[:20]:
        assert face_svg(ir, card) == face_svg(ir, card) == face_svg(loaded, card)


def test_the_gallery_has_every_card_grouped_by_kind_with_its_anchor_face_and_text():
    ir = games.load("forest-shuffle")
    page = gallery_page(ir)
    cards = every_card(ir)
    for card in cards:
        assert page.count(f'<h3 id="{card.id}">') == 1, card.id
    colours, icons, *kinds = [line for line in page.splitlines() if line.startswith("## ")]
    assert (colours, icons) == ("## Colours", "## Icons")          # first, what the colours and icons mean
    assert kinds == [f"## {kind.name.capitalize()} ({sum(c.kind == kind.name for c in cards)})" for kind in ir.kinds]
    legend = page.split(f"{colours}\n")[1].split("\n## ")[0]
    assert legend.strip().startswith("- Tree, vertical, horizontal cards, by symbol: <svg")
    assert re.findall(r'fill="(#[0-9a-f]{6})"[^>]*/></svg> ([a-z ]+)', legend)[:3] == [
        ("#6d4c41", "beech"), ("#9e9d24", "birch"), ("#1b5e20", "douglas fir")]
    legend = page.split(f"{icons}\n")[1].split("\n## ")[0]
    assert [line.split(":")[0] for line in legend.strip().splitlines()] == ["- Symbol", "- Types"]
    assert re.findall(r'<img src="([^"]+)" alt="([a-z ]+)"', legend)[:2] == [
        (ir.icons["symbol"]["beech"], "beech"), (ir.icons["symbol"]["birch"], "birch")]
    entry = card_entry(ir, next(c for c in ir.cards if c.id == "bullfinch--common-toad"))
    assert entry.count("<svg") == 1                                 # halves share a face
    assert "**Top half: Bullfinch**" in entry and "**Bottom half: Common Toad**" in entry
    for text in card_text(ir, next(c for c in ir.cards if c.id == "bullfinch--common-toad")):
        for line in text.lines:
            assert f"- {line}" in entry.replace("\\_", "_")
    assert "in the game only with the module alpine" in card_entry(ir, ir.modules["alpine"].cards[0])


# ---- the templates, checked as they compile ---------------------------------------------------

def with_faces(tmp_path: Path, *lines: str) -> tuple[Path, int]:
    """A copy of Market with these lines added to its game.yaml, and the line number of the first."""
    game = tmp_path / "market"
    shutil.copytree(MARKET, game)
    text = (game / "game.yaml").read_text(encoding="utf-8")
    (game / "game.yaml").write_text(text + "".join(f"{line}\n" for line in lines), encoding="utf-8")
    return game, len(text.splitlines()) + 1


def diagnostics(game: Path) -> list[str]:
    with pytest.raises(CompileError) as raised:
        compile_game(game)
    return [f"{d.line}:{d.col}: {d.code}: {d.message} | {d.hint}" for d in raised.value.diagnostics]


def test_a_template_is_compiled_into_the_ir(tmp_path):
    game, _ = with_faces(tmp_path, "faces:", "  goods: {width: 50, height: 70, corners: [price], badges: [price]}")
    ir = compile_game(game)
    assert ir.faces == (ir_module.FaceDecl("goods", 50, 70, corners=("price",), badges=("price",)),)


@pytest.mark.parametrize("written,size", [
    ("{size: tarot}", (70, 120)), ("{size: mini, width: 50}", (50, 63)), ("{size: square}", (70, 70)),
    ("{}", (63, 88)), ("{size: bridge}", (57, 89))])
def test_a_card_size_is_named_or_given_in_mm(tmp_path, written, size):
    game, _ = with_faces(tmp_path, "faces:", f"  goods: {written}")
    [face] = compile_game(game).faces
    assert (face.width, face.height) == size


def test_a_card_without_art_shows_the_icons_its_template_pictures():
    ir = games.load("renature")
    domino = next(c for c in ir.cards if c.sides[0].name == "Owl–Fox domino")
    root = ET.fromstring(face_svg(ir, domino))
    images = [(image.findtext(f"{SVG}title"), float(image.get("width"))) for image in root.iter(f"{SVG}image")]
    assert [said for said, _ in images] == ["owl", "fox", "owl", "fox"]   # large in the art box, then the badges
    assert images[0][1] > 3 * images[2][1]
    reforest = games.load("reforest")
    salal = next(c for c in reforest.cards if c.id == "salal")         # no icon for its colour's value: a plain box
    widths = [float(image.get("width")) for image in ET.fromstring(face_svg(reforest, salal)).iter(f"{SVG}image")]
    assert widths and max(widths) < 4                                 # the badges' icons only


def test_flavour_text_closes_the_text_box_in_italics_and_is_printed_as_written():
    ir = games.load(str(ROOT / "examples" / "orchard"))
    fig = next(c for c in ir.cards if c.id == "fig")
    root = ET.fromstring(face_svg(ir, fig))
    [italic] = [t for t in root.iter(f"{SVG}text") if t.get("font-style") == "italic" and t.get("font-size") != "1.6"]
    assert "".join(italic.itertext()) == "Worth the wait, and the climb."
    assert card_text(ir, fig)[0].words == {"flavour": "Worth the wait, and the climb."}
    assert "flavour" not in card_text(ir, fig)[0].printed                # not a badge or a column: words
    assert "*Worth the wait, and the climb.*" in card_entry(ir, fig)


def test_text_is_written_as_words(tmp_path):
    shutil.copytree(ROOT / "examples" / "orchard", tmp_path / "orchard")
    fruit = tmp_path / "orchard" / "cards" / "orchard" / "fruit.yaml"
    fruit.write_text(fruit.read_text().replace("flavour: Worth the wait, and the climb.", "flavour: 42"))
    with pytest.raises(CompileError) as raised:
        compile_game(tmp_path / "orchard" / "rules" / "orchard")
    [found] = raised.value.diagnostics
    assert (found.line, found.code, found.message) == (14, "E0402", "flavour is text: write it in quotes")


def test_a_face_crowded_by_its_badges_drops_its_art_box_says_so_and_draws_nothing_negative():
    ir = games.load("reforest")                                       # plants have five badge attributes
    squat = tuple(replace(face, width=40, height=36, art=80) if face.kind == "plant" else face for face in ir.faces)
    ir = replace(ir, faces=squat)
    crowded = 0
    for card in (c for c in ir.cards if c.kind == "plant"):
        root = ET.fromstring(face_svg(ir, card))
        for shape in [*root.iter(f"{SVG}rect"), *root.iter(f"{SVG}image")]:
            assert float(shape.get("width")) >= 0 and float(shape.get("height")) >= 0, card.id
        crowded += bool(overflows(ir, card))
    assert crowded > 0                                                 # and check would warn of them


def test_unknown_kinds_and_attributes_in_a_template_are_errors_at_their_place(tmp_path):
    game, at = with_faces(tmp_path, "faces:", "  goods:", "    corners: [prise]", "    badges: [on_buy]",
                          "    colour: price", "  good: {}")
    assert diagnostics(game) == [
        f"{at + 2}:15: E0401: a goods has no attribute 'prise' | did you mean 'price'?",
        f"{at + 3}:14: E0402: 'on_buy' is an effect attribute | conditions and effects are printed as the card's text",
        f"{at + 4}:13: E0402: 'price' is an int attribute | a colour is picked by an enum attribute",
        f"{at + 5}:3: E0401: unknown card kind 'good' | did you mean 'goods'?",
    ]


def test_a_templates_colours_and_sizes_are_checked(tmp_path):
    game, at = with_faces(tmp_path, "faces:", "  goods:", "    width: 5", "    colours: {cheap: red}")
    assert diagnostics(game) == [
        f"{at + 2}:12: E0201: faces, goods: width must be at least 10, got 5 | ",
        f"{at + 3}:22: E0201: faces, goods, colours: cheap 'red' must be a colour written #rrggbb, e.g. #2e7d32 | "]
    game, at = with_faces(tmp_path / "pictured", "faces:", "  goods: {pictures: [price]}")
    assert diagnostics(game) == [
        f"{at + 1}:22: E0402: 'price' is an int attribute | pictures are the icons of words: enum or set attributes"]
    game, at = with_faces(tmp_path / "flavoured", "faces:", "  goods: {flavour: price}")
    assert diagnostics(game) == [f"{at + 1}:20: E0402: 'price' is an int attribute | flavour text is a text attribute"]
    game, at = with_faces(tmp_path / "sized", "faces:", "  goods: {size: jumbo}")
    assert diagnostics(game) == [
        f"{at + 1}:17: E0201: faces, goods: size cannot be 'jumbo' | it can be: poker, bridge, mini, tarot, square"]
    game, at = with_faces(tmp_path / "again", "faces:", "  goods:", "    colours: {cheap: '#ff0000'}", "    split: rows")
    assert diagnostics(game) == [
        f"{at + 2}:14: E0201: colours needs colour: the attribute whose values they colour | ",
        f"{at + 3}:12: E0402: a goods has one side: there are no halves to split | remove split:"]


def test_a_templates_colours_name_values_of_its_colour_attribute(tmp_path):
    shutil.copytree(ROOT / "rules" / "four-forests", tmp_path / "rules" / "four-forests")
    shutil.copytree(ROOT / "cards" / "four-forests", tmp_path / "cards" / "four-forests")
    game = tmp_path / "rules" / "four-forests" / "game.yaml"
    text = game.read_text().replace("colours: {rainforest:", "colours: {rainforst:")
    game.write_text(text.replace("  creature: {}", "  creature: {split: rows, corners: [prefers]}"))
    found = diagnostics(game.parent)
    assert any("E0402: 'rainforst' is not a value of suit | did you mean 'rainforest'?" in d for d in found)
    assert any("E0402: 'prefers' is a condition attribute | corners show numbers" in d for d in found)
    assert not any("split" in d for d in found)          # a creature has two sides: it may be split


# ---- the templates in a saved IR -------------------------------------------------------------

@pytest.mark.parametrize("spoil, message", [
    (lambda f: f.update(kind="dragon"), "faces[0].kind: no kind 'dragon' is declared"),
    (lambda f: f.update(corners=["valeu"]), "faces[0].corners: a plant has no attribute 'valeu'"),
    (lambda f: f["colours"].update(rainforest="red"),
     'faces[0].colours.rainforest: should be a colour written #rrggbb, not a string ("red")'),
    (lambda f: f["colours"].update(tundra="#000000"), "faces[0].colours.tundra: 'tundra' is not a value of suit"),
    (lambda f: f.update(split="diagonal"), 'faces[0].split: should be "" or "rows" or "columns"'),
])
def test_a_saved_irs_templates_are_checked_on_load(spoil, message):
    import json
    data = json.loads(ir_module.dumps(games.load("four-forests")))
    spoil(data["faces"][0])
    with pytest.raises(ir_module.IRError) as raised:
        ir_module.loads(json.dumps(data))
    assert str(raised.value).startswith(message)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab &<>\"'\n\r\t\x00\ufffe\u00e9"), max_size=12))
def test_escaping_says_what_saxutils_says(text):
    """xml_text and xml_attribute are written out (the library's import is slow): for text XML
    allows they escape as xml.sax.saxutils' escape and quoteattr do, and what it forbids becomes
    U+FFFD, so the SVG still parses and reads the text back."""
    allowed = _NOT_XML.sub("\ufffd", text)
    assert xml_text(text) == escape(allowed)
    assert xml_attribute(text) == quoteattr(allowed)
    element = ET.fromstring(f"<t a={xml_attribute(text)}>{xml_text(text)}</t>")
    read_back = allowed.replace("\r\n", "\n").replace("\r", "\n")  # XML reads every line end as \n
    assert element.get("a") == allowed and (element.text or "") == read_back


@pytest.mark.parametrize("bold", [False, True])
def test_the_fonts_widths_are_read_as_fonttools_reads_them(bold):
    """faces.py reads the bundled font's advances itself (fontTools' import and parse cost each
    `check` worker a twenty-fifth of a second): every character fontTools maps, to its glyph's
    advance in ems, and nothing else."""
    from fontTools.ttLib import TTFont

    font = TTFont(FONTS / FONT_FILES[bold], lazy=True)
    per_em, metrics = font["head"].unitsPerEm, font["hmtx"].metrics
    table, missing = _advances(bold)
    assert table == {code: metrics[glyph][0] / per_em for code, glyph in font.getBestCmap().items()}
    assert len(table) > 5000 and missing == metrics[font.getBestCmap()[ord("M")]][0] / per_em
