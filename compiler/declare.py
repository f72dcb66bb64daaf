"""The first pass: every name a game declares (zones, counters, kinds and their attributes,
marks, definitions, procedures, words), before anything is lowered."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ..interpreter.ir import AttrDecl, CounterDecl, KindDecl, OptionDecl, SpaceDef, ZoneDecl
from .boards import SpaceAttribute, read_map
from .diagnostics import did_you_mean
from .files import Fence
from .lower import BUILTIN_ATTRS, Decls

_STAND_IN = (SpaceDef("r1", 1),)

DEFINITION = re.compile(
    r"(?P<name>[a-z_][a-z0-9_-]*)\s*(?:\((?P<params>\s*[a-z_][a-z0-9_]*\s*(?:,\s*[a-z_][a-z0-9_]*\s*)*)\))?",
    re.I,
)


@dataclass
class Declared:
    decls: Decls
    kinds: dict = field(default_factory=dict)  # name -> KindDecl
    optional: set = field(default_factory=set)  # attributes a card may leave out
    defaults: dict = field(default_factory=dict)  # (kind, attribute) -> the value a card may leave out
    spaces: dict = field(default_factory=dict)  # name -> SpaceAttribute: what a map's spaces carry


def declare(game, modules, card_docs, diagnostics) -> Declared:
    return _Declaring(game, diagnostics).run(modules, card_docs)


class _Declaring:
    def __init__(self, game, diagnostics):
        self.game, self.diagnostics = game, diagnostics
        self.found = Declared(Decls())

    def run(self, modules, card_docs) -> Declared:
        data, decls = self.game.data, self.found.decls
        self.found.spaces = {
            name: self.space_attribute(name, spec) for name, spec in data.get("spaces", {}).items()
        }
        decls.space_attributes = {name: s.attribute for name, s in self.found.spaces.items()}
        decls.zones = {name: self.zone(name, z) for name, z in data["zones"].items()}
        decls.zones.setdefault("box", ZoneDecl("box", "shared", "hidden"))
        decls.counters = {
            name: CounterDecl(
                name, c.get("per", "shared"), c.get("start", 0), tuple(c.get("names", ())), c.get("shown", "")
            )
            for name, c in data.get("counters", {}).items()
        }
        for kind, spec in data["kinds"].items():
            self.kind(kind, spec)
        decls.marks = {
            name: self.attribute(name, m, ("marks", name))
            for name, m in data.get("marks", {}).items()
            if not self._refused_as_builtin(("marks", name), name)
        }
        decls.defines = dict(self.definition(key, text) for key, text in data.get("define", {}).items())
        decls.procedures = set(data["procedures"]) | {
            n for m in modules for n in m.data.get("procedures", {})
        }
        decls.modules = tuple(m.data["name"] for m in modules)
        decls.options = self.options([self.game, *modules])
        self.check_within()
        self.check_names()
        self.words(card_docs)
        return self.found

    def zone(self, name: str, spec: dict) -> ZoneDecl:
        grid = spec.get("grid", {})
        zone = ZoneDecl(
            name,
            spec.get("per", "shared"),
            spec["visibility"],
            tuple(grid.get("rows", ())),
            grid.get("columns", 0),
            face_down=spec.get("face down", ""),
        )
        if "map" not in grid:
            if grid and not ("rows" in grid and "columns" in grid):
                self.diagnostics.append(
                    self.game.error(
                        ("zones", name, "grid"),
                        "E0201",
                        "a grid needs rows and columns, or a map",
                        "e.g. grid: {rows: [high, low], columns: 3}",
                    )
                )
            return zone
        if "rows" in grid or "columns" in grid:
            self.diagnostics.append(
                self.game.error(
                    ("zones", name, "grid", "map"),
                    "E0201",
                    "a grid laid out by a map takes its rows and columns from it",
                    "remove rows and columns",
                    at_key=True,
                )
            )
        spaces = read_map(
            grid["map"],
            self.game,
            ("zones", name, "grid", "map"),
            Fence.of_game(self.game.path),
            self.found.spaces,
            self.diagnostics,
        )
        return zone.mapped(spaces) if spaces else zone.mapped(_STAND_IN)  # (a map said wrong: still a grid)

    def space_attribute(self, name: str, spec: dict) -> SpaceAttribute:
        path = ("spaces", name)
        if spec["type"] not in ("int", "enum", "set"):
            self.diagnostics.append(
                self.game.error(
                    path + ("type",),
                    "E0402",
                    f"a space's '{name}' cannot be {spec['type']}",
                    "spaces carry int, enum or set attributes",
                )
            )
        attribute = replace(self.attribute(name, spec, path), default=spec.get("default"))
        return SpaceAttribute(attribute, bool(spec.get("optional")))

    def kind(self, kind: str, spec: dict):
        decls = self.found.decls
        attributes = tuple(
            self.attribute(name, a, ("kinds", kind, "attributes", name))
            for name, a in spec.get("attributes", {}).items()
            if not self._refused_as_builtin(("kinds", kind, "attributes", name), name)
        )
        for name, a in spec.get("attributes", {}).items():  # what a card of the kind may leave out
            if a.get("optional"):
                self.found.optional.add(name)
            if "default" in a:
                self.found.defaults[kind, name] = a["default"]
        self.found.kinds[kind] = KindDecl(kind, attributes, tuple(spec.get("sides", ("front",))))
        for attribute in attributes:
            known = decls.attributes.setdefault(attribute.name, attribute)
            if known != attribute:
                self.diagnostics.append(
                    self.game.error(
                        ("kinds", kind, "attributes", attribute.name),
                        "E0402",
                        f"attribute '{attribute.name}' is declared twice, differently",
                    )
                )

    def check_names(self):
        """An attribute or mark named like a kind would hide the kind's word wherever a card is in
        view: `kind = plant` would read the attribute."""
        for kind in self.found.kinds:
            for table, path in (
                (self.found.decls.attributes, None),
                (self.found.decls.marks, ("marks", kind)),
            ):
                if kind in table:
                    where = path or next(
                        ("kinds", k.name, "attributes", kind)
                        for k in self.found.kinds.values()
                        if any(a.name == kind for a in k.attributes)
                    )
                    self.diagnostics.append(
                        self.game.error(
                            where,
                            "E0403",
                            f"'{kind}' names both a kind and an attribute",
                            f"inside a condition, kind = {kind} would read the attribute: rename it",
                            at_key=True,
                        )
                    )

    def _refused_as_builtin(self, path: tuple, name: str) -> bool:
        """Whether `name` is what every card has (its id, name, kind, side, face, effects): then
        the attribute or mark declared at `path` is refused (it would never be read: `card.kind`
        reads the card's kind, and the generated code reads those in place) and left out."""
        if name not in BUILTIN_ATTRS:
            return False
        self.diagnostics.append(
            self.game.error(
                path,
                "E0403",
                f"'{name}' is every card's own: an attribute or mark cannot take its name",
                f"card.{name} reads the card's {name}; rename yours (e.g. printed_{name})",
                at_key=True,
            )
        )
        return True

    def check_within(self):
        zones = self.found.decls.zones
        for kind in self.found.kinds.values():
            for attribute in kind.attributes:
                if attribute.within and attribute.within not in zones:
                    self.diagnostics.append(
                        self.game.error(
                            ("kinds", kind.name, "attributes", attribute.name, "within"),
                            "E0401",
                            f"unknown zone '{attribute.within}'",
                            did_you_mean(attribute.within, zones),
                        )
                    )

    def words(self, card_docs):
        """Plain words a rule may use: enum values, sides, kinds, rows, faces and card ids."""
        decls, kinds = self.found.decls, self.found.kinds
        decls.sides = tuple(dict.fromkeys(s for k in kinds.values() for s in k.sides if len(k.sides) > 1))
        decls.words = {
            v
            for a in [*decls.attributes.values(), *decls.marks.values(), *decls.space_attributes.values()]
            for v in a.values
        }
        decls.words |= set(decls.sides) | set(kinds) | {row for z in decls.zones.values() for row in z.rows}
        decls.words |= {"up", "down", "front"}  # the values of every card's face; a one-sided card's side
        decls.words |= {value for option in decls.options.values() for value in option.values}
        decls.words |= {
            card["id"]
            for doc in card_docs
            for i, card in enumerate(doc.data["cards"])
            if i not in doc.skipped
        }

    def options(self, documents) -> dict:
        """The setup options the game and its modules declare, each name once; a default is
        one of the values (the first when none is given)."""
        found: dict[str, OptionDecl] = {}
        where: dict[str, str] = {}  # option -> the file first declaring it
        for doc in documents:
            for name, spec in doc.data.get("options", {}).items():
                path = ("options", name)
                if name in found:
                    self.diagnostics.append(
                        doc.error(
                            path,
                            "E0403",
                            f"option '{name}' is declared twice",
                            f"first declared in {where[name]}",
                            at_key=True,
                        )
                    )
                    continue
                values = tuple(spec["values"])
                default = spec.get("default", values[0])
                if default not in values:
                    self.diagnostics.append(
                        doc.error(
                            path + ("default",),
                            "E0402",
                            f"the default '{default}' is not one of the values",
                            did_you_mean(default, values) or f"it can be: {', '.join(values)}",
                        )
                    )
                description = " ".join(spec.get("description", "").split())
                found[name], where[name] = OptionDecl(name, values, default, description), doc.located.file
        return found

    def definition(self, key: str, text: str):
        """`name: text`, or `name(a, b): text` whose parameters stand for what each use passes."""
        found = DEFINITION.fullmatch(key)
        if found is None:
            self.diagnostics.append(
                self.game.error(
                    ("define", key),
                    "E0404",
                    f"cannot read the definition name '{key}'",
                    "write a name, or a name with parameters: near(a, b)",
                    at_key=True,
                )
            )
            return key, (*self.game.effect(("define", key), text), ())
        params = tuple(p.strip() for p in found["params"].split(",")) if found["params"] else ()
        return found["name"], (*self.game.effect(("define", key), text), params)

    def attribute(self, name, spec, path) -> AttrDecl:
        if spec["type"] in ("enum", "set") and not spec.get("values"):
            self.diagnostics.append(
                self.game.error(path, "E0201", f"{spec['type']} attribute '{name}' needs values")
            )
        if spec.get("on") and (spec["type"] != "effect" or not spec.get("within")):
            self.diagnostics.append(
                self.game.error(
                    path,
                    "E0201",
                    f"'{name}' reacts to an event: it must be "
                    "an effect, and say within which zone its card reacts",
                )
            )
        if spec.get("by") and not spec.get("on"):
            self.diagnostics.append(
                self.game.error(
                    path + ("by",),
                    "E0201",
                    f"'{name}' says whose events it answers, but reacts to none",
                    "add on: EVENT and within: ZONE",
                )
            )
        return AttrDecl(
            name,
            spec["type"],
            tuple(spec.get("values", ())),
            spec.get("on", ""),
            spec.get("within", ""),
            tuple(spec.get("sees", {}).items()),
            "owner" if spec.get("by") == "owner" else "",
            shown=spec.get("shown", ""),
        )
