"""Where the bundled rules, cards and schemas are: beside this package in a wheel, at the
top of the checkout in a source tree."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent


def folder(name: str) -> Path:
    for candidate in (_HERE / name, _HERE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"bundled folder {name!r} is missing from this installation")


def games() -> dict[str, Path]:
    """Bundled games: id -> game.yaml."""
    return {path.parent.name: path for path in sorted(folder("rules").glob("*/game.yaml"))}
