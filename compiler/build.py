"""The compiler's front door: a game folder (rules + cards + modules) → GameIR.

Stages: load YAML with positions → validate against the JSON Schemas → declare names
(declare.py) → lower cards (cards.py) and interrupts → lower procedures, each after its
callers (procedures.py), every step from its primitive's declaration (steps.py) → GameIR. Every stage collects
all of its diagnostics; the run stops with a CompileError listing them all.
"""

from __future__ import annotations

from dataclasses import fields, replace
from functools import lru_cache
from pathlib import Path

from ..interpreter.ir import (
    CardDef,
    GameIR,
    Module,
    Node,
    Pack,
    Phrase,
    SideDef,
    Solo,
    Span,
    Strategy,
    StrategyRule,
    Vocabulary,
    ZoneDecl,
)
from ..interpreter.registry import load_all, spelled
from .boards import read_map
from .budget import check_budget
from .cards import lower_cards
from .declare import declare
from .diagnostics import CompileError, Diagnostic, did_you_mean, suggestion_budget
from .document import Document, display
from .files import Fence, game_root, list_files, picture_budget
from .lint import lint, unfitting
from .lower import Lowerer, LowerError, Scope
from .modules import (
    SECTIONS,
    assembled,
    card_files,
    check_company,
    check_extended,
    module_changes,
    sections,
)
from .procedures import lower_procedures
from .steps import At, Call, Steps
from .strategies import strategies
from .templates import face_templates, icons, table_layout
from .vocabulary import bound_names, vocabulary
from .walk import every_rule
from .yamlload import dumped

SUGGESTION_COMPARISONS = 50_000  # "did you mean" for over a hundred misspellings; then no more hints


def compile_game(
    game_path, extra_cards=(), extra_modules=(), warnings: list | None = None, cards_instead=None
) -> GameIR:
    """Compile a game; `game_path` is a game.yaml or its folder. `extra_cards` and `extra_modules`
    are files vetted already: a pack's (inside the pack's folder) or one the user named.
    `warnings`, when given, receives the game's lint warnings (lint.py). `cards_instead`, when
    given, are the card files read in place of those the rules list (a card table to check)."""
    with picture_budget():
        return _compile_game(
            game_path, extra_cards, extra_modules, cards_instead=cards_instead, warnings=warnings
        )[0]


def _compile_game(
    game_path,
    extra_cards,
    extra_modules,
    fence: Fence | None = None,
    cards_instead=None,
    warnings: list | None = None,
) -> tuple[GameIR, list[str]]:
    """The game's IR, and the names of the modules read from `extra_modules` (whose card files
    must lie inside `fence`: the pack's folder; by default the game's root). Its pictures count
    against the budget of the compile it is part of (a game's, or a pack's and its game's)."""
    with suggestion_budget(SUGGESTION_COMPARISONS):
        return _compile_game_hinted(game_path, extra_cards, extra_modules, fence, cards_instead, warnings)


def _compile_game_hinted(
    game_path, extra_cards, extra_modules, fence, cards_instead=None, warnings: list | None = None
) -> tuple[GameIR, list[str]]:
    diagnostics: list[Diagnostic] = []
    game_path = Path(game_path) / "game.yaml" if Path(game_path).is_dir() else Path(game_path)
    own_fence = Fence.of_game(game_path)
    _check_inside(game_path, own_fence)
    game = _open(game_path, "game", diagnostics)
    path = game.path
    modules = [(Document(p, "module", diagnostics), own_fence) for p in _module_files(game, diagnostics)]
    added = [(Document(Path(p), "module", diagnostics), fence or own_fence) for p in extra_modules]
    files = (
        _card_files(game, extra_cards, diagnostics)
        if cards_instead is None
        else list(map(Path, cards_instead))
    )
    card_docs = [Document(p, "cards", diagnostics) for p in files]
    opened: dict = {}  # a card file two modules list is read once: its cards are in while either is on
    owned = {
        m: [
            c
            for c in (
                opened.get(p) or opened.setdefault(p, Document(p, "cards", diagnostics))
                for p in card_files(m, f, diagnostics)
            )
            if c.data
        ]
        for m, f in modules + added
        if m.data
    }  # each module's own cards
    fences = {m: f for m, f in modules + added}  # where each module may read (its maps, pictures)
    fences[game] = own_fence
    modules = list(owned)
    _check_players([game, *modules], diagnostics)
    _check_module_names(modules, diagnostics)
    check_company(modules, diagnostics)
    result = _lowered_within_depth(game, owned, [c for c in card_docs if c.data], fences, diagnostics)
    if result is not None and not diagnostics:
        check_budget(result, diagnostics)
    if result is None or diagnostics:  # no result comes with a diagnostic saying why
        raise CompileError(diagnostics)
    if warnings is not None:
        warnings += lint(game, result)
    return _relocated(result, game_root(path)), [m.data["name"] for m, _ in added if m.data]


def _relocated(value, root: Path, done: dict | None = None):
    """The IR with every span's file relative to the game's root (the folder holding rules/ and
    cards/), so the same data compiles to the same IR wherever the compiler runs. A definition's
    body is one object shared by its every use: it is relocated once (`done`, by id), which
    keeps the sharing and the work linear (a tower of definitions each using the one below
    twice would otherwise be walked 2^height times). Nodes, the bulk of the IR, are rebuilt
    directly rather than through `dataclasses.replace` (a third of `check`'s time otherwise)."""
    done = {} if done is None else done
    kind = type(value)
    if kind is Node:
        if id(value) not in done:
            args = {
                key: item if type(item) in _AS_IS else _relocated(item, root, done)
                for key, item in value.args.items()
            }
            span = value.span and Span(_relative(value.span.file, root), value.span.line, value.span.col)
            done[id(value)] = (value, Node(value.op, args, span))
        return done[id(value)][1]
    if kind in (CardDef, SideDef, Module, GameIR, Vocabulary, Phrase, Strategy, StrategyRule, Solo):
        if id(value) not in done:
            done[id(value)] = (
                value,
                replace(
                    value, **{f.name: _relocated(getattr(value, f.name), root, done) for f in fields(value)}
                ),
            )
        return done[id(value)][1]
    if kind is Span:
        return Span(_relative(value.file, root), value.line, value.col)
    if kind is tuple:
        return tuple(item if type(item) in _AS_IS else _relocated(item, root, done) for item in value)
    if kind is dict:
        return {key: _relocated(item, root, done) for key, item in value.items()}
    return value


_AS_IS = frozenset((str, int, bool, float, type(None)))  # parts with no span inside: not walked


@lru_cache(maxsize=256)
def _relative(file: str, root: Path) -> str:
    resolved = Path(file).resolve()
    return str(resolved.relative_to(root)) if resolved.is_relative_to(root) else str(resolved)


def compile_pack(
    pack_path,
    find_game,
    changes: list | None = None,
    warnings: list | None = None,
    extra_cards=(),
    cards_instead=None,
) -> GameIR:
    """Compile a pack on its base game, with the pack's cards and modules added. `extends:` is a
    game id and `find_game(id)` finds that game: where games come from is the application's
    choice, never the pack's. `changes`, when given, receives a line for each module of the pack
    naming the procedures it replaces (and adds), so that no rule changes unseen; `warnings`, the
    warnings about the pack's own cards (those whose text cannot fit their faces). `extra_cards`:
    card files inside the pack's folder that it does not list, checked with it all the same;
    `cards_instead`: card files read in place of the game's and the pack's (a card table to check)."""
    with picture_budget():  # the pack's pictures and its base game's, together
        return _compile_pack(pack_path, find_game, changes, warnings, extra_cards, cards_instead)


def _compile_pack(
    pack_path, find_game, changes: list | None, warnings: list | None, extra_cards, cards_instead
) -> GameIR:
    diagnostics: list[Diagnostic] = []
    pack_path = Path(pack_path) / "pack.yaml" if Path(pack_path).is_dir() else Path(pack_path)
    fence = Fence.of_pack(pack_path)
    _check_inside(pack_path, fence)
    pack = _open(pack_path, "pack", diagnostics)
    cards = _listed_files(pack, "cards", fence, diagnostics) + [Path(p) for p in extra_cards]
    for extra in cards[len(cards) - len(extra_cards) :]:
        _check_inside(extra, fence)
    modules = _listed_files(pack, "modules", fence, diagnostics)
    try:
        base = find_game(pack.data["extends"])
    except LookupError as error:
        diagnostics.append(pack.error(("extends",), "E0401", str(error)))
    if diagnostics:
        raise CompileError(diagnostics)
    ir, added = _compile_game(base, cards, modules, fence, cards_instead)
    own = icons([pack], {pack: fence}, {kind.name: kind for kind in ir.kinds}, diagnostics)
    if diagnostics:
        raise CompileError(diagnostics)
    ir = replace(
        ir,
        icons={name: {**ir.icons.get(name, {}), **own.get(name, {})} for name in sorted({*ir.icons, *own})},
    )
    if changes is not None:
        changes += [module_changes(ir, name) for name in added]
    base_file = Path(base) / "game.yaml" if Path(base).is_dir() else Path(base)
    about = Pack(pack.data["name"], str(pack.data.get("description") or ""), tuple(added))
    ir = _from_pack(ir, about, fence, game_root(base_file))
    if warnings is not None:
        everything = (*ir.cards, *(card for module in ir.modules.values() for card in module.cards))
        warnings += unfitting(ir, [card for card in everything if card.origin])
    return ir


def _from_pack(ir: GameIR, about: Pack, fence: Fence, root: Path) -> GameIR:
    """The IR with the pack's cards (those read from its folder, its modules' too) saying so, for
    the footers of their faces, and the pack itself (its reference site is about it)."""
    name = about.name

    def marked(cards):
        return tuple(
            replace(card, origin=name)
            if card.span and (root / card.span.file).resolve().is_relative_to(fence.root)
            else card
            for card in cards
        )

    return replace(
        ir,
        cards=marked(ir.cards),
        modules={key: replace(m, cards=marked(m.cards)) for key, m in ir.modules.items()},
        pack=about,
    )


def _check_inside(top_file: Path, fence: Fence):
    """pack.yaml (game.yaml) itself may be a link: it must point inside the pack's folder (the
    game's root). Said at the folder, as a diagnostic at the file would show a line of wherever
    the link points."""
    if not top_file.resolve().is_relative_to(fence.root):
        folder = display(top_file.absolute().parent)
        raise CompileError(
            [
                Diagnostic(
                    folder,
                    1,
                    1,
                    "E0101",
                    f"{top_file.name} links to a file outside {fence.place}",
                    fence.hint,
                )
            ]
        )


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
    if not document.data:
        raise CompileError(diagnostics)
    return document


def _listed_files(doc: Document, key: str, fence: Fence, diagnostics) -> list[Path]:
    """The files a document lists under `key` (a folder stands for every .yaml in it), each
    checked to lie inside the fence and to be a regular file before anything opens it."""
    listing = list_files(doc.data.get(key, []), doc.path.parent, fence, key.rstrip("s"))
    diagnostics += [doc.error((key, i), "E0101", message, hint) for i, message, hint in listing.refused]
    return listing.files


def _module_files(game: Document, diagnostics) -> list[Path]:
    """A game's modules/*.yaml, checked like listed files (a refusal is reported on game.yaml:
    the refused file itself is never opened, not even to show a line of it)."""
    if not (game.path.parent / "modules").exists():
        return []
    listing = list_files(["modules"], game.path.parent, Fence.of_game(game.path), "module")
    diagnostics += [game.error((), "E0101", message, hint) for _, message, hint in listing.refused]
    return listing.files


def _check_module_names(modules, diagnostics):
    seen = set()
    for module in modules:
        name = module.data["name"]
        if name in seen:
            diagnostics.append(
                module.error(
                    ("name",),
                    "E0403",
                    f"module name '{name}' is used twice",
                    "a pack's module needs a name of its own: rename it",
                )
            )
        seen.add(name)


def _card_files(game: Document, extra, diagnostics) -> list[Path]:
    files = _listed_files(game, "cards", Fence.of_game(game.path), diagnostics)
    for extra_path in map(Path, extra):
        if all(extra_path.resolve() != f.resolve() for f in files):
            files.append(extra_path)
    return files


def _lowered_within_depth(game: Document, owned: dict, card_docs, fences: dict, diagnostics) -> GameIR | None:
    """The passes recurse as deep as the rules nest; the limits on each string and file keep that
    shallow, and definitions nested in definitions are caught here, as a diagnostic."""
    try:
        return _lowered(game, owned, card_docs, fences, diagnostics)
    except RecursionError:
        diagnostics.append(
            game.error(
                (),
                "E0501",
                "the rules nest too deeply to compile",
                "definitions used inside definitions nest too: flatten them",
            )
        )
        return None


def _lowered(game: Document, owned: dict, card_docs, fences: dict, diagnostics) -> GameIR:
    """The passes, each with one job: declare names; lower cards (the game's and its modules', in
    one pass: an id is used once in all) and interrupts (which call procedures); lower
    procedures, each after its callers, with what they bind (a module's steps before and after
    a procedure with that procedure's); assemble."""
    load_all()
    modules, module_cards = list(owned), list(dict.fromkeys(doc for docs in owned.values() for doc in docs))
    declared = declare(game, modules, card_docs + module_cards, diagnostics)
    steps = Steps(Lowerer(declared.decls))
    calls: list[Call] = []  # every call of a procedure, as its steps are lowered
    fence_of = _fence_of(set(fences.values()), fences[game])
    cards = lower_cards(card_docs + module_cards, declared, steps, diagnostics, calls, fence_of)
    interrupts = _interrupts(game, steps, diagnostics, calls)
    names = declared.decls.procedures
    check_extended(modules, names, diagnostics)
    sources = [(game, "procedures", game.data["procedures"])]
    sources += [(m, section, written) for m in modules for section, written in sections(m, names)]
    procedures, *lowered = lower_procedures(sources, steps, diagnostics, calls)
    own = {m: {card["id"] for doc in docs for card in doc.data["cards"]} for m, docs in owned.items()}
    parts = iter(lowered)  # each module's sections, in order
    built = [
        assembled(
            m,
            {section: next(parts) for section in SECTIONS},
            tuple(c for c in cards if c.id in own[m]),
            declared.decls.options,
        )
        for m in modules
    ]
    built = [
        replace(
            module,
            maps=_maps(doc, fences[doc], declared, diagnostics),
            faces=face_templates(doc, declared.kinds, diagnostics),
        )
        for module, doc in zip(built, modules)
    ]
    theirs = set().union(*own.values())
    tiebreak = _tiebreak(game, steps.lowerer, diagnostics)
    ir = _assembled(
        game,
        declared,
        tuple(c for c in cards if c.id not in theirs),
        interrupts,
        procedures,
        built,
        tiebreak,
        face_templates(game, declared.kinds, diagnostics),
    )
    ir = replace(
        ir,
        icons=icons([game, *modules], fences, declared.kinds, diagnostics),
        table=table_layout(game, declared.decls.zones, diagnostics),
    )
    rules, typed = every_rule(ir), _typed(calls)
    words = vocabulary([game, *modules], declared.decls, steps, diagnostics, rules, typed, _seen(calls))
    personas = strategies(
        [game, *modules],
        steps.lowerer,
        declared.decls,
        bound_names(rules, declared.decls, typed),
        diagnostics,
    )
    return replace(
        ir,
        vocabulary=words,
        strategies=personas,
        solo=_solo(game, steps.lowerer, declared, diagnostics),
        written={name: dumped(steps) for name, steps in game.data["procedures"].items()},
    )


def _fence_of(fences: set, game: Fence):
    """The fence a card file's pictures must lie in: the innermost folder holding it of the
    pack's and the game's (a pack kept under the game's root reads only its own folder)."""
    inner_first = sorted(fences, key=lambda fence: len(fence.root.parts), reverse=True)

    def fence_of(path: Path) -> Fence:
        resolved = Path(path).resolve()
        return next((fence for fence in inner_first if resolved.is_relative_to(fence.root)), game)

    return fence_of


def _typed(calls) -> dict:
    """The one type each name the rules bind has where procedures are called (a phrase may name it)."""
    kinds: dict = {}
    for _, _, names in calls:
        for name, kind in names.items():
            kinds.setdefault(name, set()).add(kind)
    return {name: next(iter(found)) for name, found in kinds.items() if len(found) == 1}


def _seen(calls) -> dict:
    """The names each procedure sees, with their types: those bound at every place it is called
    from (a name bound with different types there is "any")."""
    seen: dict = {}
    for callee, _, names in calls:
        before = seen.get(callee, names)
        seen[callee] = {
            name: kind if before[name] == kind else "any" for name, kind in names.items() if name in before
        }
    return seen


def _maps(module: Document, fence: Fence, declared, diagnostics) -> dict:
    """The maps a module lays on the game's grids instead of theirs."""
    found = {}
    for zone, entry in module.data.get("maps", {}).items():
        path = ("maps", zone)
        if not declared.decls.zones.get(zone, ZoneDecl("", "card", "")).rows:
            grids = [z.name for z in declared.decls.zones.values() if z.rows and z.per != "card"]
            diagnostics.append(
                module.error(
                    path,
                    "E0401",
                    f"'{zone}' is not a grid zone of the game",
                    did_you_mean(zone, grids) or f"grids: {', '.join(grids) or 'none'}",
                    at_key=True,
                )
            )
            continue
        found[zone] = read_map(entry, module, path, fence, declared.spaces, diagnostics)
    return found


def _tiebreak(game: Document, lowerer: Lowerer, diagnostics) -> tuple:
    """The numbers that order players tied on points, each worked out for a player (as you)."""
    lowered = []
    for index, text in enumerate(game.data.get("tiebreak", [])):
        try:
            lowered.append(
                lowerer.typed_text(
                    *game.effect(("tiebreak", index), str(text)), Scope({"you": "player"}), "int"
                )
            )
        except LowerError as error:
            diagnostics.append(error.diagnostic)
    return tuple(lowered)


def _solo(game: Document, lowerer: Lowerer, declared, diagnostics) -> Solo:
    """How the game is won alone: a condition (as you), and a counter naming the result."""
    written = game.data.get("solo") or {}
    won, result = None, str(written.get("result", ""))
    if "won" in written:
        try:
            won = lowerer.typed_text(
                *game.effect(("solo", "won"), str(written["won"])), Scope({"you": "player"}), "bool"
            )
        except LowerError as error:
            diagnostics.append(error.diagnostic)
    if result and result not in declared.decls.counters:
        diagnostics.append(
            game.error(
                ("solo", "result"),
                "E0401",
                f"no counter '{result}'",
                did_you_mean(result, declared.decls.counters)
                or "result: names a counter whose value says how well the game went",
            )
        )
    return Solo(won, result)


def _assembled(game: Document, declared, cards, interrupts, procedures, modules, tiebreak, faces) -> GameIR:
    data, decls = game.data, declared.decls
    return GameIR(
        id=data["id"],
        name=data["name"],
        min_players=data["players"]["min"],
        max_players=data["players"]["max"],
        zones=tuple(decls.zones.values()),
        kinds=tuple(declared.kinds.values()),
        marks=tuple(decls.marks.values()),
        cards=cards,
        procedures=procedures,
        modules={m.name: m for m in modules},
        counters=tuple(decls.counters.values()),
        interrupts=interrupts,
        definitions=tuple(
            (name, params, " ".join(str(text).split())) for name, (text, _, params) in decls.defines.items()
        ),
        options=tuple(decls.options[name] for name in data.get("options", {}) if name in decls.options),
        spaces=tuple(decls.space_attributes.values()),
        tiebreak=tiebreak,
        faces=faces,
    )


def _check_players(documents, diagnostics):
    """The game's player range, and each module's that says one, runs from min up to max."""
    for document in documents:
        players = document.data.get("players")
        if players and players["min"] > players["max"]:
            diagnostics.append(
                document.error(
                    ("players", "min"),
                    "E0501",
                    f"players: min {players['min']} is more than max {players['max']}",
                )
            )


def _interrupts(game: Document, steps: Steps, diagnostics, calls) -> tuple:
    """Each entry of `interrupts:`, lowered with no bindings in scope (its choices prompt as "interrupt")."""
    at, [interrupt] = At(game, "interrupt", diagnostics, calls), spelled("", "interrupt")
    return tuple(
        steps.mapping(at, interrupt, spec, ("interrupts", i), Scope())
        for i, spec in enumerate(game.data.get("interrupts", []))
    )
