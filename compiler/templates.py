"""Face templates (`faces:` in game.yaml or a module): how each kind of card is drawn, checked
against the kinds the game declares. `faces.py` draws cards by them."""

from __future__ import annotations

from ..interpreter.ir import FaceDecl, KindDecl, TableLayout, ZoneDecl
from .diagnostics import did_you_mean
from .files import Refused, read_picture

# Card sizes by name, in mm (width, height): what card makers and sleeves call them.
SIZES = {"poker": (63, 88), "bridge": (57, 89), "mini": (44, 63), "tarot": (70, 120), "square": (70, 70)}

# What each part of a template may name, by the attribute's type.
NUMBERS = ("int", "number")
PRINTED = ("int", "enum", "set", "number", "numbers")  # condition and effect attributes are text lines


def face_templates(doc, kinds: dict[str, KindDecl], diagnostics) -> tuple[FaceDecl, ...]:
    """The templates a game or module file declares under `faces:`, each checked against its kind."""
    found = []
    for kind_name, spec in doc.data.get("faces", {}).items():
        kind = kinds.get(kind_name)
        if kind is None:
            diagnostics.append(
                doc.error(
                    ("faces", kind_name),
                    "E0401",
                    f"unknown card kind '{kind_name}'",
                    did_you_mean(kind_name, kinds) or f"kinds: {', '.join(kinds)}",
                    at_key=True,
                )
            )
            continue
        _Template(doc, kind, spec, diagnostics).check()
        found.append(
            FaceDecl(
                kind_name,
                spec.get("width", SIZES[spec.get("size", "poker")][0]),
                spec.get("height", SIZES[spec.get("size", "poker")][1]),
                spec.get("colour", ""),
                dict(spec.get("colours", {})),
                tuple(spec.get("corners", ())),
                tuple(spec.get("badges", ())),
                spec.get("split", ""),
                spec.get("art", 30),
                tuple(spec.get("pictures", ())),
                spec.get("flavour", ""),
            )
        )
    return tuple(found)


def table_layout(doc, zones: dict[str, ZoneDecl], diagnostics) -> TableLayout:
    """How the table in the browser arranges the zones (`table:` in game.yaml), each zone named
    checked to be one the rules declare (a module's too)."""
    spec = doc.data.get("table", {})
    for part in ("order", "hide"):
        for number, name in enumerate(spec.get(part, ())):
            if name not in zones:
                diagnostics.append(
                    doc.error(
                        ("table", part, number),
                        "E0401",
                        f"unknown zone '{name}'",
                        did_you_mean(name, zones) or f"zones: {', '.join(zones)}",
                    )
                )
    return TableLayout(tuple(spec.get("order", ())), tuple(spec.get("hide", ())))


def icons(docs, fences: dict, kinds: dict[str, KindDecl], diagnostics) -> dict:
    """The pictures of printed values that the game file and its modules' files declare under
    `icons:` (attribute -> value -> file), each read inside its file's fence as a data URI; a
    module's replace the game's for the same value."""
    values: dict[str, set] = {}  # each enum or set attribute -> its values, over every kind
    for kind in kinds.values():
        for attribute in kind.attributes:
            if attribute.type in ("enum", "set"):
                values.setdefault(attribute.name, set()).update(attribute.values)
    found: dict[str, dict] = {}
    for doc in docs:
        for name, pictures in doc.data.get("icons", {}).items():
            if name not in values:
                diagnostics.append(
                    doc.error(
                        ("icons", name),
                        "E0401",
                        f"no card has an enum or set attribute '{name}'",
                        did_you_mean(name, values)
                        or f"icons picture the values of: {', '.join(sorted(values))}",
                        at_key=True,
                    )
                )
                continue
            for value, entry in pictures.items():
                path = ("icons", name, value)
                if value not in values[name]:
                    diagnostics.append(
                        doc.error(
                            path,
                            "E0402",
                            f"'{value}' is not a value of {name}",
                            did_you_mean(value, values[name])
                            or f"it can be: {', '.join(sorted(values[name]))}",
                            at_key=True,
                        )
                    )
                    continue
                try:
                    found.setdefault(name, {})[value] = read_picture(str(entry), doc.path.parent, fences[doc])
                except Refused as refusal:
                    diagnostics.append(doc.error(path, "E0101", refusal.message, refusal.hint))
    return found


class _Template:
    def __init__(self, doc, kind: KindDecl, spec: dict, diagnostics):
        self.doc, self.kind, self.spec, self.diagnostics = doc, kind, spec, diagnostics
        self.attributes = {attribute.name: attribute for attribute in kind.attributes}

    def error(self, path: tuple, code: str, message: str, hint: str = "", at_key: bool = False):
        self.diagnostics.append(
            self.doc.error(("faces", self.kind.name, *path), code, message, hint, at_key=at_key)
        )

    def check(self):
        colour = self.spec.get("colour")
        if colour is not None and self.known(
            ("colour",), colour, ("enum",), "a colour is picked by an enum attribute"
        ):
            values = self.attributes[colour].values
            for value in self.spec.get("colours", {}):
                if value not in values:
                    self.error(
                        ("colours", value),
                        "E0402",
                        f"'{value}' is not a value of {colour}",
                        did_you_mean(value, values) or f"it can be: {', '.join(values)}",
                        at_key=True,
                    )
        elif colour is None and self.spec.get("colours"):
            self.error(("colours",), "E0201", "colours needs colour: the attribute whose values they colour")
        for index, name in enumerate(self.spec.get("corners", ())):
            self.known(("corners", index), name, NUMBERS, "corners show numbers: int or number attributes")
        for index, name in enumerate(self.spec.get("pictures", ())):
            self.known(
                ("pictures", index),
                name,
                ("enum", "set"),
                "pictures are the icons of words: enum or set attributes",
            )
        if "flavour" in self.spec:
            self.known(("flavour",), self.spec["flavour"], ("text",), "flavour text is a text attribute")
        for index, name in enumerate(self.spec.get("badges", ())):
            self.known(
                ("badges", index), name, PRINTED, "conditions and effects are printed as the card's text"
            )
        if self.spec.get("split") and len(self.kind.sides) < 2:
            self.error(
                ("split",),
                "E0402",
                f"a {self.kind.name} has one side: there are no halves to split",
                "remove split:",
            )

    def known(self, path: tuple, name: str, types: tuple, why: str) -> bool:
        """Whether `name` is an attribute of the kind, of one of `types` (else a diagnostic)."""
        attribute = self.attributes.get(name)
        if attribute is None:
            self.error(
                path,
                "E0401",
                f"a {self.kind.name} has no attribute '{name}'",
                did_you_mean(name, self.attributes)
                or f"its attributes: {', '.join(self.attributes) or 'none'}",
            )
            return False
        if attribute.type not in types:
            self.error(
                path,
                "E0402",
                f"'{name}' is {'an' if attribute.type[0] in 'aeiou' else 'a'} {attribute.type} attribute",
                why,
            )
            return False
        return True
