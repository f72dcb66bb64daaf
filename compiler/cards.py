"""Cards → CardDefs: each card's sides and attribute values checked against its kind, its
printed conditions, numbers and effects lowered (the calls its effects make are counted, with
the names they see, for the procedures they run)."""

from __future__ import annotations

from dataclasses import replace

from ..interpreter.ir import AttrDecl, CardDef, KindDecl, Node, SideDef, Span
from .diagnostics import did_you_mean
from .files import Refused, read_picture
from .lower import LowerError, Scope
from .steps import At, Steps
from .validate import validate_block

CARD_FIELDS = ("id", "name", "kind", "copies", "sides", "art")
SIDE_FIELDS = ("name", "art")  # a side's, besides its attributes


def lower_cards(card_docs, declared, steps: Steps, diagnostics, calls: list, fence_of) -> tuple[CardDef, ...]:
    """The cards of the files; `fence_of(path)` is the Fence a file's pictures must lie in."""
    return _Cards(declared, steps, diagnostics, calls, fence_of).cards(card_docs)


class _Cards:
    def __init__(self, declared, steps: Steps, diagnostics, calls, fence_of):
        self.declared, self.steps, self.diagnostics, self.calls = declared, steps, diagnostics, calls
        self.fence_of = fence_of

    def lowered(self, fn, *args):
        try:
            return fn(*args)
        except LowerError as error:
            self.diagnostics.append(error.diagnostic)
            return None

    def cards(self, card_docs) -> tuple[CardDef, ...]:
        seen: dict[str, str] = {}
        result: dict[str, CardDef] = {}
        for doc in card_docs:
            for i, card in enumerate(doc.data["cards"]):
                path = ("cards", i)
                if i in doc.skipped:
                    continue
                if card["id"] in seen:
                    self.diagnostics.append(
                        doc.error(
                            path + ("id",),
                            "E0403",
                            f"card id '{card['id']}' is used twice",
                            f"first used at {seen[card['id']]}",
                        )
                    )
                    continue
                seen[card["id"]] = "{}:{}:{}".format(doc.located.file, *doc.located.at(path))
                compiled = self.card(doc, card, path)
                if compiled:
                    result[card["id"]] = compiled
        return tuple(result.values())

    def card(self, doc, card: dict, path) -> CardDef | None:
        kind_name = card.get("kind", doc.data["kind"])
        kind = self.declared.kinds.get(kind_name)
        if kind is None:
            where = path + ("kind",) if "kind" in card else ("kind",)
            self.diagnostics.append(
                doc.error(
                    where,
                    "E0401",
                    f"unknown card kind '{kind_name}'",
                    did_you_mean(kind_name, self.declared.kinds)
                    or f"the game's kinds: {', '.join(self.declared.kinds)}",
                )
            )
            return None
        stray = (
            [k for k in card if k not in CARD_FIELDS]
            if len(kind.sides) > 1
            else (["sides"] if "sides" in card else [])
        )
        if stray:
            where = (
                "inside one of its sides" if len(kind.sides) > 1 else "on the card itself: it has one side"
            )
            self.diagnostics.append(
                doc.error(
                    path + (stray[0],),
                    "E0402",
                    f"'{stray[0]}' is not read here: a {kind.name}'s attributes go {where}",
                    f"a {kind.name} has the sides: {', '.join(kind.sides)}"
                    if len(kind.sides) > 1
                    else "remove sides:",
                    at_key=True,
                )
            )
            return None
        if len(kind.sides) > 1:
            faces = card.get("sides", {})
            if set(faces) != set(kind.sides):
                strange = [face for face in faces if face not in kind.sides]
                where = path + ("sides", strange[0]) if strange else path + ("sides",)
                self.diagnostics.append(
                    doc.error(
                        where,
                        "E0402",
                        f"a {kind.name} card has the sides {', '.join(kind.sides)}",
                        f"this one has: {', '.join(faces) or 'none'}",
                        at_key=bool(strange),
                    )
                )
                return None
            sides = tuple(self.side(doc, kind, s, faces[s], path + ("sides", s)) for s in kind.sides)
        else:
            fields = {k: v for k, v in card.items() if k not in CARD_FIELDS}
            sides = (
                self.side(doc, kind, kind.sides[0], {"name": card.get("name", card["id"]), **fields}, path),
            )
        if "art" in card:  # the card's art: on each side that has none of its own
            art = self.picture(doc, card["art"], path + ("art",))
            sides = tuple(side if side.art else replace(side, art=art) for side in sides)
        line, col = doc.located.at(path)
        return CardDef(card["id"], kind.name, card.get("copies", 1), sides, Span(doc.located.file, line, col))

    def side(self, doc, kind: KindDecl, side: str, face: dict, path) -> SideDef:
        values, texts, meant = {}, {}, set()
        declared = {a.name: a for a in kind.attributes}
        defaults = {
            name: value
            for (of, name), value in self.declared.defaults.items()
            if of == kind.name and name not in face
        }
        for name, value in {**face, **defaults}.items():
            if name in SIDE_FIELDS:
                continue
            if name not in declared:
                hint = did_you_mean(name, declared)
                meant |= {hint.word} if hint.word else set()
                self.diagnostics.append(
                    doc.error(
                        path + (name,),
                        "E0401",
                        f"a {kind.name} has no attribute '{name}'",
                        hint or (f"it has: {', '.join(declared)}" if declared else "its kind declares none"),
                        at_key=True,
                    )
                )
                continue
            checked = self.value(doc, declared[name], value, path + (name,))
            if checked is not None:
                values[name] = checked
                if isinstance(checked, Node):
                    texts[name] = _frozen(value)
        for name in declared:
            optional = name in self.declared.optional or (kind.name, name) in self.declared.defaults
            if name not in face and name not in meant and not optional:
                self.diagnostics.append(
                    doc.error(
                        path,
                        "E0402",
                        f"this {kind.name} has no '{name}'",
                        f"every {kind.name} needs: {', '.join(declared)}",
                    )
                )
        art = self.picture(doc, face["art"], path + ("art",)) if "art" in face else ""
        return SideDef(side, face.get("name", ""), values, texts, art)

    def picture(self, doc, entry, path) -> str:
        """The picture a card names, as a data URI ("" after a diagnostic)."""
        try:
            return read_picture(str(entry), doc.path.parent, self.fence_of(doc.path))
        except Refused as refusal:
            self.diagnostics.append(doc.error(path, "E0101", refusal.message, refusal.hint))
            return ""

    def value(self, doc, attribute: AttrDecl, value, path):
        """A printed value checked (and lowered) by its attribute's type; None when it is wrong."""
        read = getattr(self, f"value_{attribute.type}", None)
        return read(doc, attribute, value, path) if read else value

    def value_int(self, doc, attribute, value, path):
        if not isinstance(value, int) or isinstance(value, bool):
            got = "nothing" if value is None else repr(value)
            quoted = isinstance(value, str) and value.strip().lstrip("-").isdigit()
            return self.bad(
                doc,
                path,
                f"{attribute.name} must be a whole number, got {got}",
                f"remove the quotes: {attribute.name}: {str(value).strip()}" if quoted else "",
            )
        return value

    def value_text(self, doc, attribute, value, path):
        if not isinstance(value, str):
            return self.bad(doc, path, f"{attribute.name} is text: write it in quotes")
        return value

    def value_enum(self, doc, attribute, value, path):
        if value not in attribute.values:
            return self.bad(doc, path, f"{attribute.name} cannot be {value!r}", _choices(value, attribute))
        return value

    def value_set(self, doc, attribute, value, path):
        where = attribute.name
        if not isinstance(value, list):
            return self.bad(doc, path, f"{where} must be a list, e.g. [{attribute.values[0]}]")
        for i, item in enumerate(value):
            if item not in attribute.values:
                return self.bad(
                    doc, path + (i,), f"{where} cannot include {item!r}", _choices(item, attribute)
                )
            if item in value[:i]:
                self.diagnostics.append(doc.error(path + (i,), "E0201", f"{where} lists {item!r} twice"))
                return None
        return tuple(value)

    def value_effect(self, doc, attribute, value, path):
        steps = [value] if isinstance(value, str) else value
        if not isinstance(steps, list):
            return self.bad(doc, path, f"{attribute.name} must be an effect: a statement, or a list of steps")
        problems = validate_block(steps, doc.located, path, doc.data)
        if problems:
            self.diagnostics.extend(problems)
            return None
        at = At(doc, attribute.name, self.diagnostics, self.calls)  # a printed effect's choices name it
        scope = Scope({"you": "player", "it": "card", **({"subject": "card"} if attribute.on else {})})
        if isinstance(value, list):
            return self.steps.block(at, steps, path, scope)
        return Node("block", {"steps": tuple(n for n in [self.steps.step(at, value, path, scope)[0]] if n)})

    def value_number(self, doc, attribute, value, path):
        if isinstance(value, int) and not isinstance(value, bool):
            return Node("const", {"value": value})
        if not isinstance(value, str):
            return self.bad(
                doc,
                path,
                f"{attribute.name} must be a whole number or an expression in quotes, "
                f'e.g. "count(adjacent(it))"',
            )
        scope = Scope({"it": "card", "you": "player", **dict(attribute.sees)})
        return self.lowered(self.steps.lowerer.typed_text, *doc.effect(path, value), scope, "int")

    def value_numbers(self, doc, attribute, value, path):
        if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        ):
            return self.bad(doc, path, f"{attribute.name} must be a list of whole numbers, e.g. [3, 4, 5]")
        return tuple(value)

    def value_condition(self, doc, attribute, value, path):
        if not isinstance(value, str):
            return self.bad(doc, path, f'{attribute.name} must be a condition in quotes, e.g. "value >= 6"')
        return self.lowered(
            self.steps.lowerer.typed_text, *doc.effect(path, value), Scope({"it": "card"}), "bool"
        )

    def bad(self, doc, path, message, hint=""):
        self.diagnostics.append(doc.error(path, "E0402", message, hint))
        return None


def _choices(value, attribute: AttrDecl) -> str:
    return did_you_mean(value, attribute.values) or f"it can be: {', '.join(attribute.values)}"


def _frozen(value):
    """Written text kept in the IR as JSON gives it back (lists as tuples), so the IR round-trips exactly."""
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    if isinstance(value, dict):
        return {key: _frozen(item) for key, item in value.items()}
    return value
