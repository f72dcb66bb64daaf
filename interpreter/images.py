"""Pictures a game or pack ships (icons of printed values, a card's art), held in the IR as data
URIs, so that a face drawn from the IR needs no file: `data:image/png;base64,…`.

A picture comes from a stranger's folder and ends up on a web page and a printed sheet, so it
is checked before it is taken, and again when an IR file is loaded:
- PNG and JPEG by their first bytes and their size in pixels, read from the header (a small
  file may claim a huge image, which would be decoded in full by whatever draws it);
- SVG parsed as XML with no document type (so no entities, which could grow without bound) and
  taken only when every element, attribute and reference is on a short list of drawing ones:
  no script, no event handler, no style sheet, no reference outside the picture itself. It is
  refused, never silently cleaned, so the designer learns what was wrong.
Faces draw a picture as an `<image>`, which browsers show without running anything in it.
"""

from __future__ import annotations

import base64
import binascii
import re
import struct
from xml.etree import ElementTree

MAX_IMAGE_BYTES = 2 * 1024 * 1024  # a card's art at print resolution is well under this
MAX_PIXELS = 4096  # along either side
SVG_NS = "http://www.w3.org/2000/svg"
TYPES = {"png": "image/png", "jpeg": "image/jpeg", "svg": "image/svg+xml"}

# What an SVG may hold: shapes, groups, text and paint servers (gradients, patterns, clip paths)
_ELEMENTS = frozenset(
    "svg g path circle ellipse rect line polyline polygon text tspan title desc defs symbol use "  # noqa: SIM905
    "linearGradient radialGradient stop clipPath mask pattern".split()
)
_ATTRIBUTES = frozenset(
    "id class d cx cy r rx ry x y x1 y1 x2 y2 dx dy width height points viewBox preserveAspectRatio "  # noqa: SIM905
    "transform fill fill-opacity fill-rule stroke stroke-width stroke-linecap stroke-linejoin "
    "stroke-miterlimit stroke-dasharray stroke-dashoffset stroke-opacity opacity color display "
    "visibility clip-path clip-rule mask font-family font-size font-weight font-style text-anchor "
    "dominant-baseline letter-spacing offset stop-color stop-opacity gradientUnits "
    "gradientTransform spreadMethod fx fy fr patternUnits patternContentUnits patternTransform "
    "clipPathUnits maskUnits maskContentUnits version baseProfile href".split()
)
_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
_URL = re.compile(r"url\(\s*(['\"]?)(.*?)\1\s*\)", re.I)


ElementTree.register_namespace("", SVG_NS)  # an SVG is written out without a prefix


class BadImage(ValueError):
    """A picture refused, and why (said to the designer), with a hint."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.message, self.hint = message, hint


def data_uri(data: bytes) -> str:
    """The picture as a data URI, once checked (BadImage when it is refused)."""
    kind = kind_of(data)
    if kind == "svg":
        data = sanitised_svg(data)
    else:
        _check_pixels(kind, data)
    return f"data:{TYPES[kind]};base64,{base64.b64encode(data).decode('ascii')}"


def checked_uri(uri: str) -> str:
    """A data URI read from an IR file, checked as the picture it holds was when compiled."""
    head, _, encoded = uri.partition(";base64,")
    kind = next((k for k, media in TYPES.items() if head == f"data:{media}"), None)
    if kind is None or not encoded:
        raise BadImage("not a picture: a PNG, JPEG or SVG as a base64 data URI")
    try:
        data = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise BadImage("a picture's data is not base64") from None
    if len(data) > MAX_IMAGE_BYTES:
        raise BadImage(f"a picture of {len(data):,} bytes, more than {MAX_IMAGE_BYTES:,}")
    if kind_of(data) != kind:
        raise BadImage(f"a picture said to be {TYPES[kind]} is not")
    if data_uri(data) != uri:
        raise BadImage("an SVG picture that is not as the compiler writes it")
    return uri


def kind_of(data: bytes) -> str:
    """png, jpeg or svg, from the first bytes (BadImage for anything else)."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if b"<svg" in data[:4096].lower():
        return "svg"
    raise BadImage("not a PNG, JPEG or SVG file", "pictures are PNG, JPEG or SVG")


def _check_pixels(kind: str, data: bytes):
    width, height = _png_size(data) if kind == "png" else _jpeg_size(data)
    if not (0 < width <= MAX_PIXELS and 0 < height <= MAX_PIXELS):
        raise BadImage(
            f"the {kind.upper()} is {width}×{height} pixels, more than {MAX_PIXELS} a side",
            "scale it down: a card's art needs about 750×1050 pixels",
        )


def _png_size(data: bytes) -> tuple[int, int]:
    if len(data) < 24 or data[12:16] != b"IHDR":
        raise BadImage("a PNG file without its header", "save the picture again as a PNG")
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def _jpeg_size(data: bytes) -> tuple[int, int]:
    """The size a JPEG's frame header gives (the first SOFn marker)."""
    at = 2
    while at + 9 < len(data):
        if data[at] != 0xFF:
            break
        marker = data[at + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # markers without a length
            at += 2
            continue
        length = struct.unpack(">H", data[at + 2 : at + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return width, height
        at += 2 + length
    raise BadImage("a JPEG file without a frame header", "save the picture again as a JPEG")


def sanitised_svg(data: bytes) -> bytes:
    """The SVG as the faces draw it (parsed and written out again), or BadImage naming what it
    holds that a picture may not."""
    if b"<!DOCTYPE" in data.upper() or b"<!ENTITY" in data.upper():
        raise BadImage("the SVG has a document type", "remove its <!DOCTYPE …> (entities are not read)")
    try:
        root = ElementTree.fromstring(data)
    except ElementTree.ParseError as error:
        raise BadImage(f"the SVG is not well-formed XML ({error})") from None
    if root.tag != f"{{{SVG_NS}}}svg":
        raise BadImage("the file's root is not an <svg> element", f'an SVG starts <svg xmlns="{SVG_NS}"')
    for element in root.iter():
        _check_element(element)
    return ElementTree.tostring(root, encoding="utf-8", xml_declaration=False)


def _check_element(element):
    namespace, _, name = str(element.tag).rpartition("}")
    if namespace != "{" + SVG_NS or name not in _ELEMENTS:
        raise BadImage(
            f"the SVG holds a <{name}> element", "a picture may hold shapes, text and gradients only"
        )
    for attribute, value in element.attrib.items():
        if attribute == _XLINK_HREF:
            attribute = "href"
        if attribute not in _ATTRIBUTES:
            raise BadImage(
                f"the SVG's <{name}> has the attribute {attribute.rpartition('}')[2]!r}",
                "a picture may not run scripts or style sheets: draw with presentation attributes",
            )
        inside = [value] if attribute == "href" else [m.group(2) for m in _URL.finditer(value)]
        outside = next((ref for ref in inside if not ref.startswith("#")), None)
        if outside is not None:
            raise BadImage(
                f"the SVG's <{name}> refers to {outside[:60]!r}",
                "a picture refers only to its own parts (#name): nothing outside it",
            )
