"""Finding and compiling games: a bundled id, a game folder or game.yaml, or a saved IR (.json)."""

from __future__ import annotations

import functools
import os
import re
from dataclasses import asdict
from pathlib import Path

from silvics import bundled, cache
from silvics.interpreter import ir


class GameNotFound(LookupError):
    pass


_offered: dict[str, Path] = {}  # game id -> game.yaml: games the user offers packs (silvics --base)


announce = None  # set by the command line: called with each game file loaded, to say which


def game_path(spec: str, here: Path = Path(".")) -> Path:
    """The game or pack file a name means, wherever a game is named: on the command line (`here`
    is then the current folder) or in a file's `game:` line (`here`: the file's folder). First a
    path from `here`: a game's or pack's folder or file, a project folder holding one game under
    rules/, or a compiled IR; else a game id: the project's own rules/<id>/, in `here` or the
    nearest parent that has one (the copy being edited); else the game installed with silvics."""
    found = _game_file(here / spec) or project_game(spec, here) or bundled.games().get(spec)
    if found is None:
        raise GameNotFound(
            f"no game '{spec}': bundled games are {', '.join(bundled.games())}; "
            "or give a game folder, a game.yaml, a pack folder or a compiled .json"
        )
    return found


def names(line: str, here: Path, path: Path, game_id: str) -> bool:
    """Whether a file's `game:` line names this game (its file `path`, its id `game_id`): by the
    id, or by a name that finds the same file from the file's folder `here`."""
    if line == game_id:
        return True
    try:
        return _absolute(game_path(line, here)) == _absolute(path)
    except GameNotFound:
        return False


def _game_file(path: Path) -> Path | None:
    """The game or pack file a path names: itself, the game.yaml or pack.yaml in it, or the one
    game under a project folder's rules/; None when it names none."""
    try:
        if path.is_file() and path.suffix in (".json", ".yaml"):
            return path
        for name in ("game.yaml", "pack.yaml"):
            if (path / name).is_file():
                return path / name
        inside = sorted(path.glob("rules/*/game.yaml")) if path.is_dir() else []
        return inside[0] if len(inside) == 1 else None  # a project folder holding one game
    except OSError:  # a name too long for the file system names no game either
        return None


def shown(path: Path) -> str:
    """A path as a command prints it: from here when it is below, else as it is."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def project_game(game_id: str, here: Path | None = None) -> Path | None:
    """rules/<id>/game.yaml in the current folder or the nearest parent that has one: the copy of
    a game the designer is editing, which is what they mean by its id."""
    if not re.fullmatch(r"[a-z][a-z0-9-]*", game_id):
        return None
    here = (here or Path.cwd()).resolve()
    try:
        return next(
            (
                folder / "rules" / game_id / "game.yaml"
                for folder in (here, *here.parents)
                if (folder / "rules" / game_id / "game.yaml").is_file()
            ),
            None,
        )
    except OSError:  # a name too long for the file system names no game
        return None


def where_from(path: Path) -> str:
    """A loaded game file as the one line that says which: relative to here when it is below,
    and marked when it is the copy installed with silvics."""
    installed = (
        path.resolve().is_relative_to(bundled.folder("rules").resolve())
        and project_game(path.parent.name) is None
    )
    return f"{shown(path)} (installed with silvics)" if installed else shown(path)


def base_game(game_id: str) -> Path:
    """The game a pack extends, by id: one the user offered with `--base`, or a bundled game.
    A pack never chooses a path, so it cannot put a changed copy of the rules under its name."""
    games = {**bundled.games(), **_offered}
    if game_id not in games:
        raise GameNotFound(
            f"no game '{game_id}' to extend: a pack extends one of {', '.join(games)}, "
            "or a game you name with silvics --base"
        )
    return games[game_id]


def offer_base(spec: str) -> None:
    """Let packs extend this game (a folder or game.yaml the user names) by its id."""
    path = _absolute(game_path(spec))
    try:
        game_id = _yaml(path)["id"] if path.name == "game.yaml" else None
    except Exception:  # unreadable: say so here; compiling it would report the details
        game_id = None
    if not isinstance(game_id, str):
        raise GameNotFound(f"--base takes a game folder or game.yaml with an id, not '{spec}'")
    _offered[game_id] = path


def load(spec: str, here: Path = Path("."), use_cache: bool = True) -> ir.GameIR:
    """The game's IR, the game named as `game_path` says: compiled once per process and path,
    and between runs kept in the IR cache (cache.py) unless `use_cache` is False."""
    # a cache entry does not record which game --base offered: with one, compile afresh
    path = _absolute(game_path(spec, here))
    if path.suffix == ".yaml" and path.name not in ("game.yaml", "pack.yaml"):
        _refuse_a_part_of_a_game(path)
    if announce is not None:
        announce(path)
    return _load(path, use_cache and not _offered)


def _refuse_a_part_of_a_game(path: Path) -> None:
    """A module or card file named where a game is wanted: say which game it belongs to."""
    try:
        data = _yaml(path)
    except Exception:  # unreadable: compiling it says why, at its line and column
        return
    if not isinstance(data, dict) or "id" in data or "extends" in data:
        return
    game = next((folder for folder in path.parents if (folder / "game.yaml").is_file()), None)
    named = f" ({os.path.relpath(game)})" if game else ""
    if "kind" in data and "cards" in data:
        raise GameNotFound(f"{path.name} is a card file: name its game{named} instead")
    if "name" in data:
        raise GameNotFound(
            f"{path.name} is a module file: name its game{named} and add --module {data['name']}"
        )


def compile_folder(folder: Path) -> ir.GameIR:
    """Compile a game or pack folder afresh (no cache: `check` wants today's files)."""
    return check_folder(folder)[0]


def check_folder(folder: Path, warnings: list | None = None) -> tuple[ir.GameIR, list[str]]:
    """Compile a game or pack folder afresh, with a line saying what each module changes (for a
    pack, each of its own): `check` shows them, so nothing a module changes goes unseen.
    `warnings`, when given, receives a game's lint warnings."""
    from silvics.compiler.modules import module_changes

    changes: list[str] = []
    path = _absolute(game_path(str(folder)))
    compiled = _compile(path, changes, warnings)
    if path.name != "pack.yaml":
        changes = [module_changes(compiled, name) for name in compiled.modules]
    return compiled, changes


def checked(folder: Path, warnings: list, use_cache: bool = True) -> tuple[str, list[str]]:
    """What `check` says of a game or pack folder: a summary line and a line per module change;
    its lint warnings go to `warnings`. A folder whose sources and toolchain are unchanged since
    it last compiled cleanly is not compiled again (the designer's loop re-checks every game
    after editing one); a folder that failed is always compiled, to show its errors."""
    from silvics.compiler.diagnostics import Diagnostic
    from silvics.compiler.document import display

    path = _absolute(game_path(str(folder)))
    sources = _sources(path) if use_cache else None
    found = _remembered_check(path, sources)
    if found is None:
        before = cache.snapshot(sources) if sources else None
        mine: list = []
        compiled, changes = _reading(before, lambda: check_folder(folder, mine))
        copies = sum(card.copies for card in compiled.cards)
        found = {
            "summary": f"{compiled.name}: {len(compiled.cards)} cards ({copies} copies), "
            f"{len(compiled.procedures)} procedures, {len(compiled.modules)} modules",
            "changes": changes,
            "warnings": [{**asdict(w), "file": str(Path(w.file).resolve())} for w in mine],
        }
        if before is not None:
            cache.store_check(path, found, before)
    warnings += [
        Diagnostic(**{**w, "file": display(Path(w["file"]))}) for w in found["warnings"]
    ]  # as seen from here
    warnings += _unread(sources or _sources(path))  # (looked for afresh: the cache sees only what is read)
    return found["summary"], found["changes"]


def _unread(sources: cache.Sources | None) -> list:
    """A warning at each YAML file in a listed folder that the compile did not read: one named
    .yml (a folder stands for its .yaml files), or one in a folder inside it."""
    from silvics.compiler.diagnostics import Diagnostic
    from silvics.compiler.document import display

    if sources is None:
        return []
    found = []  # (the file, why it is not read, what to do)
    for folder in sources.folders:
        for path in sorted(folder.iterdir()) if folder.is_dir() else ():  # (a game's modules/ may be absent)
            if path.is_dir() and not path.name.startswith("."):
                found += [
                    (
                        inner,
                        f"it is in {inner.parent.relative_to(folder.parent)}/, inside {folder.name}/",
                        f"list {inner.parent.relative_to(folder.parent)}/ too",
                    )
                    for inner in sorted(path.rglob("*.yaml"))
                ]
            elif path.suffix.lower() in (".yml", ".yaml") and path.suffix != ".yaml":
                found.append((path, f"its name ends in {path.suffix}", f"rename it {path.stem}.yaml"))
    return [
        Diagnostic(
            display(path),
            1,
            1,
            "W0107",
            f"this file is not read: {why}, and a folder listed stands for the .yaml files directly in it",
            hint,
            severity="warning",
        )
        for path, why, hint in found
        if path.resolve() not in sources.files  # (a folder inside may be listed too)
    ]


def check_is_cached(folder: Path) -> bool:
    """Whether `checked` would answer for this game or pack folder from the cache."""
    path = _absolute(game_path(str(folder)))
    # the entry first: a cold cache has none, and its absence answers without reading the sources
    return cache.fetch_check(path) is not None and _sources(path) is not None


def _remembered_check(path: Path, sources) -> dict | None:
    """What check last found in a game whose sources (None: not to be cached) are unchanged since."""
    return cache.fetch_check(path) if sources else None


def _absolute(path: Path) -> Path:
    """The path with its folder resolved but not the file itself: a pack.yaml that is a link
    stays a pack.yaml, for the compiler to refuse if it points out of the pack's folder."""
    return path.absolute().parent.resolve() / path.name


@functools.cache
def _load(path: Path, use_cache: bool) -> ir.GameIR:
    if path.suffix == ".json":
        return _saved_ir(path)
    if not use_cache:
        return _compile(path)
    return cache.fetch(path) or _compile_and_store(path)


def _saved_ir(path: Path) -> ir.GameIR:
    """An IR file written by `silvics compile`; anything else (other JSON, text, binary) is misuse."""
    try:
        return ir.loads(path.read_text(encoding="utf-8"))
    except (ir.IRError, UnicodeDecodeError) as error:  # loads checks the whole file first
        raise GameNotFound(f"{path} is not a valid silvics IR file: {error}") from None
    except OSError as error:
        raise GameNotFound(f"{path} cannot be read: {error.strerror}") from None


def _compile_and_store(path: Path) -> ir.GameIR:
    sources = _sources(path)
    before = cache.snapshot(sources) if sources else None
    compiled = _reading(before, lambda: _compile(path))
    if before is not None:
        cache.store(path, compiled, before)
    return compiled


def _reading(before: dict | None, compile):
    """`compile()`, with the pictures it reads added to the snapshot of its sources taken before
    (with the hash of the bytes read: an edit made meanwhile is seen)."""
    from silvics.compiler.files import recording_pictures  # only needed for YAML

    with recording_pictures() as pictures:
        compiled = compile()
    if before is not None:
        before["files"].update(pictures)
    return compiled


def _compile(path: Path, changes: list | None = None, warnings: list | None = None) -> ir.GameIR:
    from silvics.compiler.build import compile_game, compile_pack  # only needed for YAML

    if path.name == "pack.yaml":
        return compile_pack(path, base_game, changes, warnings)
    return compile_game(path, warnings=warnings)


def read_by(path: Path) -> list[Path] | None:
    """The files a compile of this game.yaml or pack.yaml reads (None: one is refused)."""
    sources = _sources(_absolute(path))
    return None if sources is None else sources.files


def _sources(path: Path) -> cache.Sources | None:
    """The files a compile of this game.yaml or pack.yaml reads, listed by the compiler's own
    checks (its modules/ folder, the files and folders listed under `cards:`, a pack's `modules:`
    and base game, each module's `cards:`); None when any is refused or the file cannot be read:
    then nothing is hashed or cached, and the compile says why."""
    from silvics.compiler.files import Fence, list_files

    try:
        data, pack = _yaml(path), path.name == "pack.yaml"
        fence = Fence.of_pack(path) if pack else Fence.of_game(path)
        sources = cache.Sources([path], [] if pack else [path.parent / "modules"])
        lists = [("cards", data.get("cards", []))]
        lists += (
            [("modules", data.get("modules", []))]
            if pack
            else [("modules", ["modules"])]
            if (path.parent / "modules").exists()
            else []
        )
        for key, entries in lists:
            listing = list_files(entries, path.parent, fence, key)
            if listing.refused:
                return None
            sources.files += listing.files
            sources.folders += listing.folders
            if key == "modules":  # a module's own card files, listed relative to it
                for module in listing.files:
                    cards = list_files(_yaml(module).get("cards", []), module.parent, fence, "cards")
                    if cards.refused:
                        return None
                    sources.files += cards.files
                    sources.folders += cards.folders
        if pack:
            base = _sources(_absolute(base_game(data["extends"])))
            if base is None:
                return None
            sources.files += base.files
            sources.folders += base.folders
        return sources
    except Exception:  # bad YAML, a missing base…: not cached; the compile reports it properly
        return None


def _yaml(path: Path) -> dict:
    from silvics.compiler.files import read_bounded
    from silvics.compiler.yamlload import load as load_yaml

    data, _ = load_yaml(read_bounded(path), str(path))
    return data
