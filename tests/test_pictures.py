"""Pictures on card faces: a pack's icons and art reach its faces and sheets; a picture outside
the pack's folder, an SVG that could run or fetch anything, or an image too large is refused
like any other bad file (file:line:col, nothing written); an IR file cannot smuggle one in."""
from __future__ import annotations

import base64
import json
import shutil
import struct
import zlib

import pytest

from silvics import games
from silvics.compiler.build import compile_pack
from silvics.compiler.diagnostics import CompileError
from silvics.compiler.faces import face_svg, overflows
from silvics.interpreter import irchecks
from silvics.interpreter.images import BadImage, checked_uri, data_uri, sanitised_svg
from silvics.interpreter.ir import dumps

from conftest import ROOT, run_cli

MYTHIC = ROOT / "tests" / "fixtures" / "packs" / "mythic"
ICON = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><title>water</title>' \
       b'<path d="M12 2 C8 9 5 12 5 15 a7 7 0 0 0 14 0 c0 -3 -3 -6 -7 -13z" fill="#1565c0"/></svg>'


def png(width: int, height: int) -> bytes:
    """A real PNG of one grey colour (its header says the size; the pixels are compressed rows)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def pack_with_pictures(tmp_path, art: str = "../art/kraken.png", icon: str = "icons/water.svg"):
    """The Mythic pack, copied, with art for the Krakens and an icon for the value water."""
    pack = tmp_path / "mythic"
    shutil.copytree(MYTHIC, pack)
    (pack / "art").mkdir()
    (pack / "art" / "kraken.png").write_bytes(png(30, 40))
    (pack / "icons").mkdir()
    (pack / "icons" / "water.svg").write_bytes(ICON)
    cards = pack / "cards" / "creatures.yaml"
    cards.write_text(cards.read_text().replace("  - id: krakens\n", f"  - id: krakens\n    art: {art}\n"))
    with open(pack / "pack.yaml", "a") as file:
        file.write(f"icons:\n  icons:\n    water: {icon}\n")
    return pack


def test_a_packs_art_and_icons_are_drawn_on_its_faces_and_printed(tmp_path):
    pack = pack_with_pictures(tmp_path)
    ir = compile_pack(pack, games.game_path)
    kraken = next(card for card in ir.cards if card.id == "krakens")
    art = data_uri(png(30, 40))
    assert all(side.art == art for side in kraken.sides)           # the card's art is each side's
    assert f'href="{art}"' in face_svg(ir, kraken)
    icon = ir.icons["icons"]["water"]
    assert base64.b64decode(icon.partition(",")[2]) == sanitised_svg(ICON)
    watery = next(card for card in ir.cards if "water" in card.sides[0].attributes.get("icons", ()))
    drawn = face_svg(ir, watery)
    assert f'href="{icon}"' in drawn and "<title>water</title>" in drawn   # the icon, named for a tooltip
    status, out, err = run_cli("print", pack, "-o", tmp_path / "sheet.svg")
    assert status == 0, err
    sheets = "".join(page.read_text() for page in tmp_path.glob("sheet*.svg"))
    assert art in sheets and icon in sheets


def test_the_same_pack_compiles_to_the_same_ir_and_loads_back(tmp_path):
    pack = pack_with_pictures(tmp_path)
    text = dumps(compile_pack(pack, games.game_path))
    assert text == dumps(compile_pack(pack, games.game_path))
    assert irchecks.decode(text).icons == json.loads(text)["icons"]


@pytest.mark.parametrize("art,icon,said,where", [
    ("../../outside.png", "icons/water.svg", "'../../outside.png' is outside the pack's folder", "creatures.yaml"),
    ("../art/kraken.png", "../outside.svg", "'../outside.svg' is outside the pack's folder", "pack.yaml"),
    ("../art/missing.png", "icons/water.svg", "no picture at '../art/missing.png'", "creatures.yaml"),
])
def test_a_picture_outside_the_pack_or_missing_is_refused_at_its_line(tmp_path, art, icon, said, where):
    (tmp_path / "outside.png").write_bytes(png(2, 2))
    (tmp_path / "outside.svg").write_bytes(ICON)
    pack = pack_with_pictures(tmp_path, art=art, icon=icon)
    with pytest.raises(CompileError) as error:
        compile_pack(pack, games.game_path)
    [found] = error.value.diagnostics
    assert found.code == "E0101" and said in found.message
    assert found.file.endswith(where) and found.line > 1


def test_a_link_out_of_the_pack_is_refused(tmp_path):
    secret = tmp_path / "secret.png"
    secret.write_bytes(png(2, 2))
    pack = pack_with_pictures(tmp_path)
    (pack / "art" / "kraken.png").unlink()
    (pack / "art" / "kraken.png").symlink_to(secret)
    with pytest.raises(CompileError) as error:
        compile_pack(pack, games.game_path)
    assert "'../art/kraken.png' is outside the pack's folder" in error.value.diagnostics[0].message


HOSTILE_SVG = [
    (b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "<script>"),
    (b'<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', "'onload'"),
    (b'<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(http://x/)</style></svg>', "<style>"),
    (b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="http://www.w3.org/1999/xlink">'
     b'<use x:href="http://evil.example/a.svg#b"/></svg>', "refers to 'http://evil.example"),
    (b'<svg xmlns="http://www.w3.org/2000/svg"><rect fill="url(https://evil.example/p)"/></svg>',
     "refers to 'https://evil.example"),
    (b'<svg xmlns="http://www.w3.org/2000/svg"><image href="file:///etc/passwd"/></svg>', "<image>"),
    (b'<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><p xmlns="http://www.w3.org/1999/xhtml">x</p>'
     b'</foreignObject></svg>', "<foreignObject>"),
    (b'<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>'
     b'<svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>', "document type"),
    (b'<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><rect/></a></svg>', "<a>"),
    (b'<svg xmlns="http://www.w3.org/2000/svg" style="background:url(http://x/)"/>', "'style'"),
    (b"<svg>no namespace</svg>", "root is not an <svg>"),
    (b'<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>', "not well-formed"),
]


@pytest.mark.parametrize("svg,said", HOSTILE_SVG, ids=[said for _, said in HOSTILE_SVG])
def test_an_svg_that_could_run_or_fetch_anything_is_refused_saying_what(svg, said):
    with pytest.raises(BadImage) as error:
        data_uri(svg)
    assert said in error.value.message


def test_a_hostile_icon_in_a_pack_is_refused_at_its_line_and_nothing_is_printed(tmp_path):
    pack = pack_with_pictures(tmp_path)
    (pack / "icons" / "water.svg").write_bytes(HOSTILE_SVG[0][0])
    status, out, err = run_cli("print", pack, "-o", tmp_path / "sheet.pdf")
    assert status == 1 and "pack.yaml:" in err and "error[E0101]" in err and "<script>" in err
    assert not (tmp_path / "sheet.pdf").exists()


def test_an_svg_of_drawing_elements_only_is_kept_as_written():
    kept = sanitised_svg(ICON)
    assert b"<path" in kept and b"<title>water</title>" in kept
    assert sanitised_svg(kept) == kept                                   # written out once and for all
    assert checked_uri(data_uri(ICON)) == data_uri(ICON)


@pytest.mark.parametrize("data,said", [
    (png(5000, 10), "5000×10 pixels"),                                 # a bomb: a huge image in a small file
    (b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
     b"\xff\xc0\x00\x11\x08\x30\x00\x30\x00\x03\x01\x22\x00", "12288×12288 pixels"),
    (b"GIF89a....", "not a PNG, JPEG or SVG"),
    (b"\x89PNG\r\n\x1a\n", "without its header"),
])
def test_an_image_too_large_or_of_another_kind_is_refused(data, said):
    with pytest.raises(BadImage, match=said):
        data_uri(data)


def test_an_ir_file_cannot_bring_a_picture_the_compiler_would_refuse(tmp_path):
    ir = json.loads(dumps(games.load("four-forests")))
    script = HOSTILE_SVG[0][0]
    for bad in ["data:image/svg+xml;base64," + base64.b64encode(script).decode(),
                "data:text/html;base64,PHNjcmlwdD4=", "javascript:alert(1)",
                "data:image/png;base64," + base64.b64encode(b"<svg/>").decode()]:
        ir["icons"] = {"icons": {"water": bad}}
        with pytest.raises(irchecks.IRError):
            irchecks.decode(json.dumps(ir))
        ir["icons"] = {}
        ir["cards"][0]["sides"][0]["art"] = bad
        with pytest.raises(irchecks.IRError):
            irchecks.decode(json.dumps(ir))
        del ir["cards"][0]["sides"][0]["art"]


def test_check_warns_of_a_card_whose_text_cannot_fit_naming_the_card_and_its_side(tmp_path):
    pack = pack_with_pictures(tmp_path)
    cards = pack / "cards" / "creatures.yaml"
    long = f"value in [{', '.join(map(str, range(1000, 2500)))}]"
    cards.write_text(cards.read_text().replace('"icons has water and value >= 4"', f'"{long}"'))
    ir = compile_pack(pack, games.game_path)
    kraken = next(card for card in ir.cards if card.id == "krakens")
    assert overflows(ir, kraken) == ["Krakens (leaf): its text runs past its box even at 1.2 mm"]
    status, out, err = run_cli("check", pack)
    assert status == 0 and "creatures.yaml:4:5: warning[W0106]: card 'krakens' does not fit its face" in err


def test_an_edited_picture_is_seen_by_the_cache(tmp_path, cache_home):
    pack = pack_with_pictures(tmp_path)
    games.load(str(pack))
    games._load.cache_clear()                                           # as in a new process: from the cache
    (pack / "icons" / "water.svg").write_bytes(ICON.replace(b"#1565c0", b"#00838f"))
    assert "#00838f" in base64.b64decode(games.load(str(pack)).icons["icons"]["water"].partition(",")[2]).decode()
    (pack / "icons" / "water.svg").write_bytes(HOSTILE_SVG[0][0])
    status, out, err = run_cli("check", pack)
    assert status == 1 and "<script>" in err                            # check sees it too: never "ok" from the cache


def test_each_compile_has_the_whole_picture_room_whatever_came_before(tmp_path):
    """CI once found a pack's compile refused at its game's first icon: a room left over in the
    worker's context by an earlier compile. Each compile starts with a room of its own."""
    from silvics.compiler import files
    token = files._picture_room.set([0])                              # a room used up, left behind
    try:
        assert compile_pack(pack_with_pictures(tmp_path), games.game_path).icons["icons"]["water"]
        assert files._picture_room.get() == [0]                      # and left as it was found
    finally:
        files._picture_room.reset(token)


def test_the_pictures_of_a_pack_and_its_game_together_are_bounded(tmp_path, monkeypatch):
    from silvics.compiler import files
    pack = pack_with_pictures(tmp_path)
    monkeypatch.setattr(files, "MAX_PICTURE_BYTES", 20_000)           # the game's 12 icons fit, not the pack's art
    (pack / "art" / "kraken.png").write_bytes(png(2, 2) + b"\0" * 30_000)
    with pytest.raises(CompileError) as error:
        compile_pack(pack, games.game_path)
    [found] = error.value.diagnostics                                   # the game's icons after it: not said again
    assert found.file.endswith("creatures.yaml") and found.line == 5
    assert found.message == "with '../art/kraken.png', the pictures come to more than 0 MB"
