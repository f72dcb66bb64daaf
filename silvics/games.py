"""Finding and compiling games: a bundled id, a game folder or game.yaml, or a saved IR (.json)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from silvics import bundled, cache
from silvics.interpreter import ir


class GameNotFound(LookupError):
    pass


def game_path(spec: str, base: Path | None = None) -> Path:
    games = bundled.games()
    if spec in games:
        return games[spec]
    path = Path(spec) if base is None or Path(spec).is_absolute() else base / spec
    if path.is_file() and path.suffix in (".json", ".yaml"):
        return path
    for name in ("game.yaml", "pack.yaml"):
        if (path / name).is_file():
            return path / name
    raise GameNotFound(f"no game '{spec}': bundled games are {', '.join(games)}; "
                       "or give a game folder, a game.yaml, a pack folder or a compiled .json")


def load(spec: str, base: Path | None = None, use_cache: bool = True) -> ir.GameIR:
    """The game's IR: compiled once per process and path, and between runs kept in the IR
    cache (cache.py) unless `use_cache` is False."""
    return _load(game_path(spec, base).resolve(), use_cache)


def compile_folder(folder: Path) -> ir.GameIR:
    """Compile a game or pack folder afresh (no cache: `check` wants today's files)."""
    return _compile(game_path(str(folder)).resolve())


@lru_cache(maxsize=None)
def _load(path: Path, use_cache: bool) -> ir.GameIR:
    if path.suffix == ".json":
        try:
            return ir.loads(path.read_text(encoding="utf-8"))
        except (ir.IRError, UnicodeDecodeError) as error:      # loads checks the whole file first
            raise GameNotFound(f"{path} is not a valid silvics IR file: {error}") from None
    if not use_cache:
        return _compile(path)
    return cache.fetch(path) or _compile_and_store(path)


def _compile_and_store(path: Path) -> ir.GameIR:
    sources = _sources(path)
    before = cache.snapshot(sources) if sources else None
    compiled = _compile(path)
    if before is not None:
        cache.store(path, compiled, before)
    return compiled


def _compile(path: Path) -> ir.GameIR:
    from silvics.compiler.build import compile_game, compile_pack   # only needed for YAML
    if path.name == "pack.yaml":
        return compile_pack(path, lambda spec, base: game_path(spec, base))
    return compile_game(path)


def _sources(path: Path) -> cache.Sources | None:
    """The files a compile of this game.yaml or pack.yaml reads, found the way the compiler's
    build finds them (its modules/ folder, the card files and folders listed under `cards:`,
    a pack's base game); None when the file cannot be read (the compile will say why)."""
    try:
        data = _yaml(path)
        sources = cache.Sources([path], [])
        if path.name == "game.yaml":
            sources.folders.append(path.parent / "modules")
            sources.files += sorted((path.parent / "modules").glob("*.yaml"))
        for entry in data.get("cards", []):
            target = path.parent / entry
            sources.folders += [target] if target.is_dir() else []
            sources.files += sorted(target.glob("*.yaml")) if target.is_dir() else [target]
        if path.name == "pack.yaml":
            base = _sources(game_path(data["extends"], path.parent).resolve())
            sources.files += base.files
            sources.folders += base.folders
        return sources
    except Exception:       # bad YAML, a missing base…: not cached; the compile reports it properly
        return None


def _yaml(path: Path) -> dict:
    from silvics.compiler.yamlload import load as load_yaml
    data, _ = load_yaml(path.read_text(encoding="utf-8"), str(path))
    return data
