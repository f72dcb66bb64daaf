"""The compiler's front door: a game folder (rules + cards + modules) → GameIR.

Stages: load YAML with positions → validate against the JSON Schemas → declare names →
lower cards and procedures (parsing every effect string) → GameIR. Every stage collects
all of its diagnostics; the run stops with a CompileError listing them all.
"""
from __future__ import annotations

import re
from dataclasses import fields, replace
from functools import lru_cache
from pathlib import Path

from ..interpreter.ir import AttrDecl, CardDef, CounterDecl, GameIR, KindDecl, Module, Node, SideDef, Span, ZoneDecl
from .diagnostics import CompileError, Diagnostic, did_you_mean
from .lower import Decls, Lowerer, LowerError, Scope
from .parse import Source
from .validate import validate, validate_block
from .yamlload import YamlError, load

FLOW_KEYS = ("each player", "repeat", "for", "if", "in any order", "one of", "until", "may")
CARD_FIELDS = ("id", "name", "kind", "copies", "sides")
DEFINITION = re.compile(r"(?P<name>[a-z_][a-z0-9_-]*)\s*(?:\((?P<params>\s*[a-z_][a-z0-9_]*\s*(?:,\s*[a-z_][a-z0-9_]*\s*)*)\))?", re.I)


class Document:
    """One loaded, schema-checked YAML file."""

    def __init__(self, path: Path, kind: str, diagnostics: list):
        self.path, self.data, self.located, self.text, self.skipped = path, None, None, "", set()
        file = _display(path)
        try:
            self.text = path.read_text(encoding="utf-8")
            self.data, self.located = load(self.text, file)
        except OSError as error:
            diagnostics.append(Diagnostic(file, 1, 1, "E0101", f"cannot read file: {error.strerror}"))
            return
        except UnicodeDecodeError:
            diagnostics.append(Diagnostic(file, 1, 1, "E0101", "file is not UTF-8 text"))
            return
        except YamlError as error:
            diagnostics.extend(error.diagnostics)
            return
        problems = validate(self.data, self.located, kind)
        diagnostics.extend(problems)
        self.skipped = set()      # card indices a schema error ruled out (the rest are still checked)
        if problems and kind == "cards" and isinstance(self.data, dict) and isinstance(self.data.get("cards"), list) \
                and all(self._card_index(d) is not None for d in problems):
            self.skipped = {self._card_index(d) for d in problems}
        elif problems:
            self.data = None

    def _card_index(self, diagnostic):
        """The card a diagnostic falls inside, if any (by line span of each card)."""
        starts = [self.located.at(("cards", i))[0] for i in range(len(self.data["cards"]))]
        inside = [i for i, start in enumerate(starts) if start <= diagnostic.line]
        return inside[-1] if inside else None

    def effect(self, path: tuple, text: str) -> tuple[str, Source]:
        """An effect string and where it sits. A block scalar (| or >) is parsed from its raw lines,
        dedented, so positions map back to the file even where > folds the lines together."""
        node = self.located.scalars.get(path)
        if node is None:
            return text, Source(self.located.file, *self.located.at(path))
        line, col = node.start_mark.line + 1, node.start_mark.column + 1
        if node.style in ("|", ">"):
            end = node.end_mark.line + (1 if node.end_mark.column else 0)   # the mark may sit on the next key
            raw = self.text.splitlines()[node.start_mark.line + 1:end]
            indent = min((len(r) - len(r.lstrip(" ")) for r in raw if r.strip()), default=0)
            return "\n".join(r[indent:] for r in raw), Source(self.located.file, line + 1, indent + 1, single_line=False)
        return text, Source(self.located.file, line, col + (1 if node.style in ("'", '"') else 0))

    def error(self, path: tuple, code: str, message: str, hint: str = "", *, at_key: bool = False) -> Diagnostic:
        return self.located.error(path, code, message, hint, at_key=at_key)


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path.resolve())


def compile_game(game_path, extra_cards=()) -> GameIR:
    """Compile a game; `game_path` is a game.yaml or its folder."""
    diagnostics: list[Diagnostic] = []
    game = _open(game_path, "game", diagnostics)
    path = game.path
    modules = [Document(p, "module", diagnostics) for p in sorted(path.parent.glob("modules/*.yaml"))]
    card_docs = [Document(p, "cards", diagnostics) for p in _card_files(game, extra_cards, diagnostics)]
    compiler = _GameCompiler(game, [m for m in modules if m.data], [c for c in card_docs if c.data], diagnostics)
    result = compiler.run()
    if diagnostics:
        raise CompileError(diagnostics)
    return _relocated(result, path.resolve().parent.parent.parent)


def _relocated(value, root: Path):
    """The IR with every span's file relative to the game's root (the folder holding rules/ and
    cards/), so the same data compiles to the same IR wherever the compiler runs."""
    if isinstance(value, Span):
        return replace(value, file=_relative(value.file, root))
    if isinstance(value, (Node, CardDef, SideDef, Module, GameIR)):
        return replace(value, **{f.name: _relocated(getattr(value, f.name), root) for f in fields(value)})
    if isinstance(value, tuple):
        return tuple(_relocated(item, root) for item in value)
    if isinstance(value, dict):
        return {key: _relocated(item, root) for key, item in value.items()}
    return value


@lru_cache(maxsize=256)
def _relative(file: str, root: Path) -> str:
    resolved = Path(file).resolve()
    return str(resolved.relative_to(root)) if resolved.is_relative_to(root) else str(resolved)


def compile_pack(pack_path, find_game) -> GameIR:
    """Compile a pack's base game with the pack's cards added; `find_game(spec, base)` locates the base."""
    diagnostics: list[Diagnostic] = []
    pack = _open(pack_path, "pack", diagnostics)
    files = _listed_files(pack, diagnostics)
    try:
        base = find_game(pack.data["extends"], pack.path.parent)
    except LookupError as error:
        diagnostics.append(pack.error(("extends",), "E0401", str(error)))
    if diagnostics:
        raise CompileError(diagnostics)
    return compile_game(base, extra_cards=files)


def check_card_file(path) -> None:
    """Check a card file on its own: YAML and schema only (no game to check names against)."""
    diagnostics: list[Diagnostic] = []
    Document(Path(path), "cards", diagnostics)
    if diagnostics:
        raise CompileError(diagnostics)


def _open(path, kind: str, diagnostics) -> Document:
    """A game.yaml or pack.yaml (or the folder holding it); stops the run if it is unusable."""
    path = Path(path)
    document = Document(path / f"{kind}.yaml" if path.is_dir() else path, kind, diagnostics)
    if document.data is None:
        raise CompileError(diagnostics)
    return document


def _listed_files(doc: Document, diagnostics) -> list[Path]:
    """The card files a document lists under `cards:` (a folder stands for every .yaml in it)."""
    files: list[Path] = []
    for i, entry in enumerate(doc.data.get("cards", [])):
        target = doc.path.parent / entry
        if target.is_dir():
            files.extend(sorted(target.glob("*.yaml")))
        elif target.is_file():
            files.append(target)
        else:
            diagnostics.append(doc.error(("cards", i), "E0101", f"no card file or folder at '{entry}'"))
    return files


def _card_files(game: Document, extra, diagnostics) -> list[Path]:
    files = _listed_files(game, diagnostics)
    for extra_path in map(Path, extra):
        if all(extra_path.resolve() != f.resolve() for f in files):
            files.append(extra_path)
    return files


class _GameCompiler:
    def __init__(self, game: Document, modules, card_docs, diagnostics):
        self.game, self.modules, self.card_docs, self.diagnostics = game, modules, card_docs, diagnostics
        self.decls = self.declare()
        self.lowerer = Lowerer(self.decls)
        self.inherited, self.calls, self.procedure = {}, {}, ""

    # ---- names ----
    def declare(self) -> Decls:
        data, decls = self.game.data, Decls()
        self.optional: set[str] = set()
        self.defaults: dict[tuple, object] = {}      # (kind, attribute) -> the value a card may leave out
        decls.zones = {name: ZoneDecl(name, z.get("per", "shared"), z["visibility"],
                                      tuple(z.get("grid", {}).get("rows", ())), z.get("grid", {}).get("columns", 0))
                       for name, z in data["zones"].items()}
        decls.zones.setdefault("box", ZoneDecl("box", "shared", "hidden"))
        decls.counters = {name: CounterDecl(name, c.get("per", "shared"), c.get("start", 0))
                          for name, c in data.get("counters", {}).items()}
        self.kinds = {}
        for kind, spec in data["kinds"].items():
            attributes = tuple(self.attribute(name, a, ("kinds", kind, "attributes", name), kind)
                               for name, a in spec.get("attributes", {}).items())
            self.kinds[kind] = KindDecl(kind, attributes, tuple(spec.get("sides", ("front",))))
            for attribute in attributes:
                known = decls.attributes.setdefault(attribute.name, attribute)
                if known != attribute:
                    self.diagnostics.append(self.game.error(("kinds", kind, "attributes", attribute.name), "E0402",
                                                            f"attribute '{attribute.name}' is declared twice, differently"))
        decls.marks = {name: self.attribute(name, m, ("marks", name)) for name, m in data.get("marks", {}).items()}
        decls.defines = dict(self.definition(key, text) for key, text in data.get("define", {}).items())
        decls.procedures = set(data["procedures"]) | {n for m in self.modules for n in m.data["procedures"]}
        for kind in self.kinds.values():
            for attribute in kind.attributes:
                if attribute.within and attribute.within not in decls.zones:
                    self.diagnostics.append(self.game.error(("kinds", kind.name, "attributes", attribute.name, "within"),
                                                            "E0401", f"unknown zone '{attribute.within}'",
                                                            did_you_mean(attribute.within, decls.zones)))
        decls.sides = tuple(dict.fromkeys(s for k in self.kinds.values() for s in k.sides if len(k.sides) > 1))
        decls.words = {v for a in [*decls.attributes.values(), *decls.marks.values()] for v in a.values}
        decls.words |= set(decls.sides) | set(self.kinds) | {row for z in decls.zones.values() for row in z.rows}
        decls.words |= {"up", "down"}            # the values of every card's face
        decls.words |= {card["id"] for doc in self.card_docs for i, card in enumerate(doc.data["cards"])
                        if i not in doc.skipped}
        return decls

    def definition(self, key: str, text: str):
        """`name: text`, or `name(a, b): text` whose parameters stand for what each use passes."""
        found = DEFINITION.fullmatch(key)
        if found is None:
            self.diagnostics.append(self.game.error(("define", key), "E0404", f"cannot read the definition name '{key}'",
                                                    "write a name, or a name with parameters: near(a, b)", at_key=True))
            return key, (*self.game.effect(("define", key), text), ())
        params = tuple(p.strip() for p in found["params"].split(",")) if found["params"] else ()
        return found["name"], (*self.game.effect(("define", key), text), params)

    def attribute(self, name, spec, path, kind: str = "") -> AttrDecl:
        if spec.get("optional"):
            self.optional.add(name)
        if "default" in spec:
            self.defaults[kind, name] = spec["default"]
        if spec["type"] in ("enum", "set") and not spec.get("values"):
            self.diagnostics.append(self.game.error(path, "E0201", f"{spec['type']} attribute '{name}' needs values"))
        if spec.get("on") and (spec["type"] != "effect" or not spec.get("within")):
            self.diagnostics.append(self.game.error(path, "E0201", f"'{name}' reacts to an event: it must be "
                                                    "an effect, and say within which zone its card reacts"))
        return AttrDecl(name, spec["type"], tuple(spec.get("values", ())), spec.get("on", ""), spec.get("within", ""),
                        tuple(spec.get("sees", {}).items()))

    def run(self) -> GameIR:
        players = self.game.data["players"]
        if players["min"] > players["max"]:
            self.diagnostics.append(self.game.error(("players", "min"), "E0501",
                                                    f"players: min {players['min']} is more than max {players['max']}"))
        cards = self.cards()
        self.find_inherited()
        procedures = self.procedures(self.game, self.game.data["procedures"])
        modules = {m.data["name"]: Module(m.data["name"], " ".join(m.data.get("description", "").split()),
                                          self.procedures(m, m.data["procedures"]))
                   for m in self.modules}
        data = self.game.data
        interrupts = self.interrupts()
        return GameIR(id=data["id"], name=data["name"], min_players=data["players"]["min"],
                      max_players=data["players"]["max"], zones=tuple(self.decls.zones.values()),
                      kinds=tuple(self.kinds.values()), marks=tuple(self.decls.marks.values()),
                      cards=cards, procedures=procedures, modules=modules,
                      counters=tuple(self.decls.counters.values()), interrupts=interrupts,
                      definitions=tuple((name, params, " ".join(str(text).split()))
                                        for name, (text, _, params) in self.decls.defines.items()))

    def interrupts(self) -> tuple:
        self.procedure = "interrupt"
        return tuple(self.interrupt(i, spec) for i, spec in enumerate(self.game.data.get("interrupts", [])))

    def interrupt(self, index: int, spec: dict) -> Node:
        path = ("interrupts", index)
        cond = self.expr(self.game, spec["when"], path + ("when",), Scope(), "bool")
        body = self.block(self.game, spec["do"], path + ("do",), Scope())
        return Node("interrupt", {"cond": cond, "body": body}, Span(self.game.located.file, *self.game.located.at(path)))

    def lowered(self, fn, *args):
        try:
            return fn(*args)
        except LowerError as error:
            self.diagnostics.append(error.diagnostic)
            return None

    # ---- cards ----
    def cards(self) -> tuple[CardDef, ...]:
        seen: dict[str, str] = {}
        result: dict[str, CardDef] = {}
        for doc in self.card_docs:
            for i, card in enumerate(doc.data["cards"]):
                path = ("cards", i)
                if i in doc.skipped:
                    continue
                if card["id"] in seen:
                    self.diagnostics.append(doc.error(path + ("id",), "E0403", f"card id '{card['id']}' is used twice",
                                                      f"first used at {seen[card['id']]}"))
                    continue
                seen[card["id"]] = "{}:{}:{}".format(doc.located.file, *doc.located.at(path))
                compiled = self.card(doc, card, path)
                if compiled:
                    result[card["id"]] = compiled
        return tuple(result.values())

    def card(self, doc: Document, card: dict, path) -> CardDef | None:
        kind_name = card.get("kind", doc.data["kind"])
        kind = self.kinds.get(kind_name)
        if kind is None:
            where = path + ("kind",) if "kind" in card else ("kind",)
            self.diagnostics.append(doc.error(where, "E0401", f"unknown card kind '{kind_name}'",
                                              did_you_mean(kind_name, self.kinds)))
            return None
        stray = [k for k in card if k not in CARD_FIELDS] if len(kind.sides) > 1 else \
            (["sides"] if "sides" in card else [])
        if stray:
            where = "inside one of its sides" if len(kind.sides) > 1 else "on the card itself: it has one side"
            self.diagnostics.append(doc.error(path + (stray[0],), "E0402",
                                              f"'{stray[0]}' is not read here: a {kind.name}'s attributes go {where}",
                                              f"a {kind.name} has the sides: {', '.join(kind.sides)}"
                                              if len(kind.sides) > 1 else "remove sides:", at_key=True))
            return None
        if len(kind.sides) > 1:
            faces = card.get("sides", {})
            if set(faces) != set(kind.sides):
                strange = [face for face in faces if face not in kind.sides]
                where = path + ("sides", strange[0]) if strange else path + ("sides",)
                self.diagnostics.append(doc.error(where, "E0402", f"a {kind.name} card has the sides {', '.join(kind.sides)}",
                                                  f"this one has: {', '.join(faces) or 'none'}", at_key=bool(strange)))
                return None
            sides = tuple(self.side(doc, kind, s, faces[s], path + ("sides", s)) for s in kind.sides)
        else:
            fields = {k: v for k, v in card.items() if k not in CARD_FIELDS}
            sides = (self.side(doc, kind, kind.sides[0], {"name": card.get("name", card["id"]), **fields}, path),)
        line, col = doc.located.at(path)
        return CardDef(card["id"], kind.name, card.get("copies", 1), sides, Span(doc.located.file, line, col))

    def side(self, doc, kind: KindDecl, side: str, face: dict, path) -> SideDef:
        values, texts, meant = {}, {}, set()
        declared = {a.name: a for a in kind.attributes}
        defaults = {name: value for (of, name), value in self.defaults.items() if of == kind.name and name not in face}
        for name, value in {**face, **defaults}.items():
            if name == "name":
                continue
            if name not in declared:
                hint = did_you_mean(name, declared)
                meant |= {known for known in declared if hint == f"did you mean '{known}'?"}
                self.diagnostics.append(doc.error(path + (name,), "E0401", f"a {kind.name} has no attribute '{name}'",
                                                  hint or f"it has: {', '.join(declared)}", at_key=True))
                continue
            checked = self.value(doc, declared[name], value, path + (name,))
            if checked is not None:
                values[name] = checked
                if isinstance(checked, Node):
                    texts[name] = _frozen(value)
        for name in declared:
            if name not in face and name not in meant and name not in self.optional and (kind.name, name) not in self.defaults:
                self.diagnostics.append(doc.error(path, "E0402", f"this {kind.name} has no '{name}'",
                                                  f"every {kind.name} needs: {', '.join(declared)}"))
        return SideDef(side, face.get("name", ""), values, texts)

    def value(self, doc, attribute: AttrDecl, value, path):
        kind, where = attribute.type, attribute.name
        if kind == "int" and (not isinstance(value, int) or isinstance(value, bool)):
            return self.bad(doc, path, f"{where} must be a whole number, got {'nothing' if value is None else repr(value)}")
        if kind == "enum":
            if value not in attribute.values:
                return self.bad(doc, path, f"{where} cannot be {value!r}",
                                did_you_mean(value, attribute.values) or f"it can be: {', '.join(attribute.values)}")
        if kind == "set":
            if not isinstance(value, list):
                return self.bad(doc, path, f"{where} must be a list, e.g. [{attribute.values[0]}]")
            for i, item in enumerate(value):
                if item not in attribute.values:
                    return self.bad(doc, path + (i,), f"{where} cannot include {item!r}",
                                    did_you_mean(item, attribute.values) or f"it can be: {', '.join(attribute.values)}")
                if item in value[:i]:
                    self.diagnostics.append(doc.error(path + (i,), "E0201", f"{where} lists {item!r} twice"))
                    return None
            return tuple(value)
        if kind == "effect":
            steps = [value] if isinstance(value, str) else value
            if not isinstance(steps, list):
                return self.bad(doc, path, f"{where} must be an effect: a statement, or a list of steps")
            problems = validate_block(steps, doc.located, path)
            if problems:
                self.diagnostics.extend(problems)
                return None
            self.procedure = where
            scope = Scope({"you": "player", "it": "card", **({"subject": "card"} if attribute.on else {})})
            return self.block(doc, steps, path, scope) if isinstance(value, list) else \
                Node("block", {"steps": tuple(n for n in [self.step(doc, value, path, scope)[0]] if n)})
        if kind == "number":
            if isinstance(value, int) and not isinstance(value, bool):
                return Node("const", {"value": value})
            if not isinstance(value, str):
                return self.bad(doc, path, f"{where} must be a whole number or an expression in quotes, "
                                           f"e.g. \"count(adjacent(it))\"")
            scope = Scope({"it": "card", "you": "player", **dict(attribute.sees)})
            return self.lowered(self.lowerer.typed_text, *doc.effect(path, value), scope, "int")
        if kind == "numbers":
            if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
                return self.bad(doc, path, f"{where} must be a list of whole numbers, e.g. [3, 4, 5]")
            return tuple(value)
        if kind == "condition":
            if not isinstance(value, str):
                return self.bad(doc, path, f"{where} must be a condition in quotes, e.g. \"value >= 6\"")
            scope = Scope({"it": "card"})
            node = self.lowered(self.lowerer.typed_text, *doc.effect(path, value), scope, "bool")
            return node
        return value

    def bad(self, doc, path, message, hint=""):
        self.diagnostics.append(doc.error(path, "E0402", message, hint))
        return None

    # ---- procedures ----
    def procedures(self, doc: Document, procedures: dict) -> dict:
        lowered = {}
        for name, body in procedures.items():
            self.procedure = name        # choices are prompted as "procedure: choose name"
            lowered[name] = self.block(doc, body, ("procedures", name), Scope(self.inherited.get(name, LIBRARY)))
        return lowered

    def find_inherited(self):
        """A procedure sees the names bound at every place it is called from (`you` inside
        `each player`, a chosen card, `it` in a card's effect), so steps can be shared as
        procedures. Each pass lowers every procedure with what the last pass found at its call
        sites; the passes stop when nothing changes (at most one per procedure, the longest chain)."""
        sources = [(self.game, self.game.data["procedures"])] + [(m, m.data["procedures"]) for m in self.modules]
        kept, self.diagnostics = self.diagnostics, []
        from_cards = {name: list(sites) for name, sites in self.calls.items()}
        for _ in range(len(self.decls.procedures) + 1):
            self.calls = {name: list(sites) for name, sites in from_cards.items()}
            for doc, procedures in sources:
                self.procedures(doc, procedures)
            self.interrupts()
            reached = self.reachable()
            inherited = {name: _common([names for caller, names in self.calls.get(name, ()) if caller in reached])
                         for name in reached}
            if inherited == self.inherited:
                break
            self.inherited = inherited
        self.diagnostics = kept

    def called(self, names, scope):
        for name in names:
            self.calls.setdefault(name, []).append((self.procedure, scope.names))

    def reachable(self) -> set:
        """Procedures run from the game's entry points, its interrupts or a card's effect; a call
        from a procedure nothing runs does not narrow what its callee sees."""
        roots = {caller for sites in self.calls.values() for caller, _ in sites
                 if caller not in self.decls.procedures} | {"setup", "play", "scoring"}
        reached, frontier = set(), roots
        while frontier:
            reached |= frontier
            frontier = {name for name, sites in self.calls.items()
                        if name not in reached and any(caller in reached for caller, _ in sites)}
        return reached

    def block(self, doc, steps, path, scope: Scope) -> Node:
        nodes = []
        for i, step in enumerate(steps):
            node, scope = self.step(doc, step, path + (i,), scope)
            if node is not None:
                nodes.append(node)
        return Node("block", {"steps": tuple(nodes)}, Span(doc.located.file, *doc.located.at(path)))

    def step(self, doc, step, path, scope):
        if isinstance(step, str):
            try:
                node, scope = self.lowerer.statement(*doc.effect(path, step), scope)
                if node.op == "call":
                    self.called([node.args["name"]], scope)
                if node.op == "choose":
                    node = Node("choose", {**node.args, "prompt": f"{self.procedure}: choose {node.args['var']}"},
                                node.span)
                return node, scope
            except LowerError as error:
                self.diagnostics.append(error.diagnostic)
                words = step.split()
                if len(words) > 1 and words[0] == "choose":   # keep the name bound to avoid knock-on errors
                    scope = scope.bind(words[1], "card")
                return None, scope
        key = next(k for k in FLOW_KEYS if k in step)
        span = Span(doc.located.file, *doc.located.at(path))
        return getattr(self, "flow_" + key.replace(" ", "_"))(doc, step, path, scope, span), scope

    def expr(self, doc, text, path, scope, want):
        return self.lowered(self.lowerer.typed_text, *doc.effect(path, text), scope, want)

    def flow_each_player(self, doc, step, path, scope, span):
        body = self.block(doc, step["each player"], path + ("each player",), scope.bind("you", "player"))
        return Node("each_player", {"body": body, "simultaneously": step.get("simultaneously", False)}, span)

    def flow_repeat(self, doc, step, path, scope, span):
        count = step["repeat"]
        count = Node("const", {"value": count}, span) if isinstance(count, int) else \
            self.expr(doc, count, path + ("repeat",), scope, "int")
        inner = scope.bind(step["as"], "int") if "as" in step else scope
        return Node("repeat", {"count": count, "as": step.get("as"), "body": self.block(doc, step["do"], path + ("do",), inner)}, span)

    def flow_for(self, doc, step, path, scope, span):
        header = self.lowered(self.lowerer.for_header, *doc.effect(path + ("for",), step["for"]), scope)
        if header is None:
            return None
        var, coll, element = header
        body = self.block(doc, step["do"], path + ("do",), scope.bind(var, element))
        return Node("for_each", {"var": var, "coll": coll, "body": body}, span)

    def flow_if(self, doc, step, path, scope, span):
        cond = self.expr(doc, step["if"], path + ("if",), scope, "bool")
        then = self.block(doc, step["then"], path + ("then",), scope)
        other = self.block(doc, step["else"], path + ("else",), scope) if "else" in step else None
        return Node("when", {"cond": cond, "then": then, "else": other}, span)

    def flow_one_of(self, doc, step, path, scope, span):
        """`one of: [gather, play: CONDITION]`: a step written with a condition is offered only when it holds."""
        names, guards = self.guarded_steps(doc, step["one of"], path + ("one of",), scope)
        chooser = self.expr(doc, step.get("chooser", "you"), path + ("chooser",), scope, "player")
        return Node("one_of", {"steps": names, "chooser": chooser, **guards}, span)

    def guarded_steps(self, doc, items, path, scope) -> tuple[tuple, dict]:
        """Procedure names, each maybe with a condition (`- grow: CONDITION`); the conditions as
        a `guards` argument when any is given."""
        names = self.procedure_names(doc, [item if isinstance(item, str) else next(iter(item)) for item in items], path)
        guards = tuple(None if isinstance(item, str) else
                       self.expr(doc, next(iter(item.values())), path + (i, names[i]), scope, "bool")
                       for i, item in enumerate(items))
        self.called(names, scope)
        return names, ({"guards": guards} if any(g is not None for g in guards) else {})

    def flow_may(self, doc, step, path, scope, span):
        if "you" not in scope.names:
            self.diagnostics.append(doc.error(path + ("may",), "E0402", "'may' needs an acting player",
                                              "use it inside 'each player:' or a turn procedure"))
        steps = step["may"]
        first = steps[0] if steps and isinstance(steps[0], str) else "…"
        body = self.block(doc, steps, path + ("may",), scope)
        return Node("may", {"body": body, "prompt": f"{self.procedure}: you may: {first}"}, span)

    def flow_until(self, doc, step, path, scope, span):
        cond = self.expr(doc, step["until"], path + ("until",), scope, "bool")
        return Node("until", {"cond": cond, "body": self.block(doc, step["do"], path + ("do",), scope)}, span)

    def procedure_names(self, doc, names, path) -> tuple:
        for i, name in enumerate(names):
            if name not in self.decls.procedures:
                self.diagnostics.append(doc.error(path + (i,), "E0401", f"unknown procedure '{name}'",
                                                  did_you_mean(name, self.decls.procedures)))
        return tuple(names)

    def flow_in_any_order(self, doc, step, path, scope, span):
        names, guards = self.guarded_steps(doc, step["in any order"], path + ("in any order",), scope)
        chooser = self.expr(doc, step["chooser"], path + ("chooser",), scope, "player")
        return Node("any_order", {"steps": tuple(names), "chooser": chooser, **guards}, span)


def _frozen(value):
    """Written text kept in the IR as JSON gives it back (lists as tuples), so the IR round-trips exactly."""
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    if isinstance(value, dict):
        return {key: _frozen(item) for key, item in value.items()}
    return value


LIBRARY = {"you": "player", "it": "card"}   # what a procedure nothing runs yet is checked with: a card effect's names


def _common(scopes: list[dict]) -> dict:
    """The bindings (name and type) that every one of the scopes has."""
    if not scopes:
        return {}
    first, *rest = scopes
    return {name: kind for name, kind in first.items() if all(other.get(name) == kind for other in rest)}
