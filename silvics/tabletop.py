"""A Tabletop Simulator deck from the card faces (`silvics export GAME --tts -o DIR`).

TTS builds a custom deck from sheets of card images, 10 across and up to 7 down (the last
place of a full sheet holds the card shown face down in the hand), and a saved object that
lists each card by its place on a sheet. We draw every face (one a card: its first side; a
double-sided card's other side is its back of its own) as a sheet of PNG images with cairosvg,
and write `deck.json`, which TTS loads from its Saved Objects folder. Each card is in the deck
as many times as its copies, named and described by its printed text. The deck names its images
by where they are: files on this computer, or with a base URL the address they are hosted at,
which makes a deck others can load.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

from silvics.compiler.cardtext import card_text
from silvics.compiler.english import Wording
from silvics.compiler.faces import back_svg, face_body, face_sides, template
from silvics.errors import UsageError
from silvics.interpreter.ir import CardDef, GameIR
from silvics.printing import use_bundled_font

ACROSS, DOWN = 10, 7  # TTS's largest sheet of a custom deck (69 cards and the hidden one)
PIXELS_PER_MM = 6  # 63 mm cards become 378 pixels wide: sharp at table zoom
MISSING = "a Tabletop Simulator deck draws PNG images with cairosvg: pip install 'silvics[print]'"


def write_deck(ir: GameIR, cards: list[CardDef], folder: Path, base_url: str | None = None) -> list[Path]:
    """The sheets and deck.json in `folder` (made if need be); the paths written. The deck names
    each image by its file's address on this computer, or by `base_url` and its file's name."""
    address = _addresses(base_url)
    use_bundled_font()
    try:
        import cairosvg
    except ImportError:
        raise UsageError(MISSING) from None
    faces = [(card, sides[0]) for card in cards for sides in face_sides(ir, card)[:1]]
    if not faces:
        raise UsageError(f"{ir.name} has no cards to put in a deck")
    width, height = _size(ir, cards)
    folder.mkdir(parents=True, exist_ok=True)
    written, decks, back = [], {}, folder / "back.png"
    per_sheet = ACROSS * DOWN - 1
    for number, start in enumerate(range(0, len(faces), per_sheet), start=1):
        sheet = folder / f"faces-{number}.png"
        cairosvg.svg2png(
            bytestring=_sheet(ir, faces[start : start + per_sheet], width, height).encode(),
            write_to=str(sheet),
            output_width=ACROSS * width * PIXELS_PER_MM,
        )
        decks[str(number)] = {
            "FaceURL": address(sheet),
            "BackURL": address(back),
            "NumWidth": ACROSS,
            "NumHeight": DOWN,
            "BackIsHidden": True,
            "UniqueBack": False,
        }
        written.append(sheet)
    cairosvg.svg2png(
        bytestring=back_svg(ir, faces[0][0]).encode(), write_to=str(back), output_width=width * PIXELS_PER_MM
    )
    deck = folder / "deck.json"
    deck.write_text(
        json.dumps(_saved_object(ir, faces, decks, per_sheet), indent=1, ensure_ascii=False), encoding="utf-8"
    )
    return written + [back, deck]


def _addresses(base_url: str | None):
    """How the deck names an image file: its file:// address, or the hosted folder's address and its name."""
    if base_url is None:
        return lambda path: path.resolve().as_uri()
    parts = urlsplit(base_url)
    if parts.scheme not in ("https", "http") or not parts.netloc or parts.query or " " in base_url:
        raise UsageError(
            f"--base-url takes the web address of the folder the images are uploaded to "
            f"(https://…/), not '{base_url}'"
        )
    folder = base_url.rstrip("/") + "/"
    return lambda path: folder + path.name


def _size(ir: GameIR, cards: list[CardDef]) -> tuple[int, int]:
    """One size for the whole deck (TTS cuts a sheet into equal cells): the cards' own, if they share one."""
    sizes = {(template(ir, card).width, template(ir, card).height) for card in cards}
    if len(sizes) > 1:
        raise UsageError(
            f"a deck's cards share one size, and these have {len(sizes)}: "
            "export one kind at a time with --kind"
        )
    return sizes.pop()


def _sheet(ir: GameIR, faces: list, width: int, height: int) -> str:
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{ACROSS * width}mm" height="{DOWN * height}mm" '
        f'viewBox="0 0 {ACROSS * width} {DOWN * height}">'
    ]
    for index, (card, side) in enumerate(faces):
        x, y = (index % ACROSS) * width, (index // ACROSS) * height
        out.append(
            f'<svg x="{x}" y="{y}" width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
            f"{face_body(ir, card, side)}</svg>"
        )
    return "".join(out) + "</svg>"


def _saved_object(ir: GameIR, faces: list, decks: dict, per_sheet: int) -> dict:
    wording, cards, ids = Wording(ir.vocabulary), [], []
    for index, (card, _) in enumerate(faces):
        deck_id = (index // per_sheet + 1) * 100 + index % per_sheet
        text = card_text(ir, card, wording)[0]
        for _ in range(card.copies):
            ids.append(deck_id)
            printed = ", ".join(
                f"{name.replace('_', ' ')} {', '.join(map(str, v)) if isinstance(v, tuple) else v}"
                for name, v in text.printed.items()
            )
            cards.append(
                {
                    "Name": "Card",
                    "Nickname": text.name,
                    "Description": "\n".join([printed, *text.lines]),
                    "CardID": deck_id,
                    "CustomDeck": {str(deck_id // 100): decks[str(deck_id // 100)]},
                    "Transform": _transform(),
                }
            )
    return {
        "SaveName": ir.name,
        "ObjectStates": [
            {
                "Name": "DeckCustom",
                "Nickname": ir.name,
                "Transform": _transform(),
                "DeckIDs": ids,
                "CustomDeck": decks,
                "ContainedObjects": cards,
            }
        ],
    }


def _transform() -> dict:
    return {
        "posX": 0,
        "posY": 1,
        "posZ": 0,
        "rotX": 0,
        "rotY": 180,
        "rotZ": 180,
        "scaleX": 1,
        "scaleY": 1,
        "scaleZ": 1,
    }
