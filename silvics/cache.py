"""The compiled-IR cache: a game is compiled once, and later commands load its saved IR.

Two entries per game file, `<sha256 of its path>.ir` and `.check` (what `check` found), in
`$XDG_CACHE_HOME/silvics` (or `~/.cache/silvics`): a header line, then the IR's JSON. The
header lists every source the compile read (game.yaml, modules, card files; for a pack its own
files and its base game's) with the SHA-256 of its contents, the `.yaml` names in each folder
whose files it globbed (a new module or card file counts), and a fingerprint of the toolchain
(the compiler's and the interpreter's source, the grammar, the schemas, the IR version). The
entry is used only when all of them are unchanged.

Contents are hashed, mtimes never trusted: hashing every source of Reforest and the
toolchain takes a few milliseconds, and a clock-based check misses edits that keep the
time (copies that preserve it, checkouts, coarse timestamps). An entry is written to a
temporary file and renamed into place, so no reader sees half of one; an entry that cannot
be read or makes no sense is ignored and rewritten, and a cache that cannot be written only
costs time.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import silvics.compiler
import silvics.interpreter
from silvics import bundled
from silvics.interpreter import ir
from silvics.interpreter.codecache import (
    folder,
)  # one cache folder, the interpreter's code cache beside the IR

FORMAT = 1  # of the header; bump when it changes


@dataclass
class Sources:
    """What a compile reads: files, and folders whose `.yaml` files it took all of."""

    files: list[Path]
    folders: list[Path]


def fetch(game_file: Path) -> ir.GameIR | None:
    """The cached IR of a game, or None when there is none or any of its sources changed."""
    text = _body(game_file, ".ir")
    try:
        return None if text is None else ir.loads(text)
    except Exception:  # corrupt, truncated, another IR version: compile afresh
        return None


def fetch_check(game_file: Path) -> dict | None:
    """What `check` found in a game whose sources are unchanged since: {summary, changes, warnings}."""
    text = _body(game_file, ".check")
    try:
        found = None if text is None else json.loads(text)
        return found if isinstance(found, dict) and set(found) == {"summary", "changes", "warnings"} else None
    except ValueError:
        return None


def snapshot(sources: Sources) -> dict:
    """The state of a game's sources, taken before compiling: an edit made meanwhile is seen."""
    return {
        "files": {str(path): _digest(path) for path in sources.files},
        "folders": {str(path): _yaml_names(path) for path in sources.folders},
    }


def store(game_file: Path, compiled: ir.GameIR, sources_before: dict) -> None:
    """Save a compiled IR with the snapshot of its sources taken before it was compiled."""
    _store(game_file, ".ir", ir.dumps(compiled), sources_before)


def store_check(game_file: Path, found: dict, sources_before: dict) -> None:
    """Save what `check` found (a game that compiled: its summary, module changes and warnings)."""
    _store(game_file, ".check", json.dumps(found), sources_before)


def _body(game_file: Path, suffix: str) -> str | None:
    """An entry's body, or None when there is none or any of its sources or the toolchain changed."""
    try:
        header, _, text = _entry(game_file, suffix).read_text(encoding="utf-8").partition("\n")
        recorded = json.loads(header)
        if recorded["format"] != FORMAT or recorded["toolchain"] != toolchain() or not _unchanged(recorded):
            return None
        return text
    except Exception:  # missing, unreadable, corrupt, truncated: compile afresh
        return None


def _store(game_file: Path, suffix: str, body: str, sources_before: dict) -> None:
    header = {"format": FORMAT, "toolchain": toolchain(), **sources_before}
    write_atomically(_entry(game_file, suffix), json.dumps(header) + "\n" + body)


@cache
def toolchain() -> str:
    """A hash of everything that decides what a compile produces besides the game's own files."""
    compiler = Path(silvics.compiler.__file__).parent
    return _hashed(
        [
            *sorted(compiler.glob("*.py")),
            *sorted(compiler.glob("*.lark")),
            *_interpreter_files(),
            *sorted(bundled.folder("schemas").glob("*.json")),
        ]
    )


def _interpreter_files() -> list[Path]:
    return sorted(Path(silvics.interpreter.__file__).parent.rglob("*.py"))


def _hashed(files: list[Path]) -> str:
    whole = hashlib.sha256(f"{FORMAT} {ir.IR_VERSION}".encode())
    for path in files:
        whole.update(f"{path.parent.name}/{path.name} {_digest(path)}".encode())
    return whole.hexdigest()


def _entry(game_file: Path, suffix: str) -> Path:
    return folder() / f"{hashlib.sha256(str(game_file).encode()).hexdigest()[:32]}{suffix}"


def _unchanged(recorded: dict) -> bool:
    return all(_digest(Path(file)) == digest for file, digest in recorded["files"].items()) and all(
        _yaml_names(Path(f)) == names for f, names in recorded["folders"].items()
    )


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _yaml_names(path: Path) -> list[str]:
    return sorted(p.name for p in path.glob("*.yaml"))


def write_atomically(path: Path, text: str) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    except OSError:  # a read-only or full disk: the game still runs, only compiled again next time
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)
