"""Finding and compiling games: a bundled id, a game folder or game.yaml, or a saved IR (.json)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from silvics import bundled
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


def load(spec: str, base: Path | None = None) -> ir.GameIR:
    """The game's IR (compiled once per process and path)."""
    return _load(game_path(spec, base).resolve())


def compile_folder(folder: Path) -> ir.GameIR:
    """Compile a game or pack folder afresh (no cache: `check` wants today's files)."""
    return _compile(game_path(str(folder)).resolve())


@lru_cache(maxsize=None)
def _load(path: Path) -> ir.GameIR:
    if path.suffix == ".json":
        try:
            return ir.loads(path.read_text(encoding="utf-8"))
        except (ValueError, KeyError, TypeError) as error:
            raise GameNotFound(f"{path} is not a silvics IR file: {error}") from None
    return _compile(path)


def _compile(path: Path) -> ir.GameIR:
    from silvics.compiler.build import compile_game, compile_pack   # only needed for YAML
    if path.name == "pack.yaml":
        return compile_pack(path, lambda spec, base: game_path(spec, base))
    return compile_game(path)
