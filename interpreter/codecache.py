"""The generated code of a set of rules, cached the way Python caches a module.

A set of rules' module (codegen.Module) is written as Python source to
`$XDG_CACHE_HOME/silvics/code/<key>.py` (or `~/.cache/silvics/code`) and compiled beside it into
`__pycache__/` as any module is; a later process, a worker's too, imports it through importlib
instead of generating it. No pickle: the source holds the code's constants, and its prelude
imports the runtime helpers and makes the zone keys it names. The source's `HANDED` lists the
function handed out for each of the rules' requests, in the order the rules are built (the
same IR and the same interpreter make the same requests in the same order).

The key hashes the text the IR was read from, the modules layered on, and the interpreter's
own source (the generator and every code builder: any change is a new key). An IR made in
memory (a position's own board, a test's rules) has no text at hand, and hashing one written
out would cost more than generating its code: it is generated afresh. A cache that cannot be
written or read only costs time.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import py_compile
from functools import cache
from pathlib import Path

from . import ir as ir_module
from .codegen import Module

__all__ = ["afresh", "engine", "folder", "keep", "module_for"]


def folder() -> Path:
    """$XDG_CACHE_HOME/silvics, or ~/.cache/silvics when that is unset or not absolute (XDG)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    return (Path(base) if os.path.isabs(base) else Path.home() / ".cache") / "silvics"


@cache
def engine() -> str:
    """A hash of the interpreter's source: what decides how a compiled game plays, and what code
    it generates."""
    whole = hashlib.sha256(f"{ir_module.IR_VERSION}".encode())
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        whole.update(
            f"{path.parent.name}/{path.name} {hashlib.sha256(path.read_bytes()).hexdigest()}".encode()
        )
    return whole.hexdigest()


def module_for(ir: ir_module.GameIR, modules: tuple, label: str) -> Module:
    """The module of these rules: loaded from the cache when it holds it, else a fresh one to
    generate (and to `keep` once the rules are built)."""
    digest = ir_module.digest(ir)
    if digest is None:
        return Module(label)
    key = hashlib.sha256(f"{digest} {modules} {engine()}".encode()).hexdigest()[:32]
    path = folder() / "code" / f"rules_{key}.py"
    namespace = _imported(path)
    if namespace is not None:
        with contextlib.suppress(KeyError, TypeError, ValueError):  # not one of ours: generate afresh
            return Module.replaying(label, namespace, path)
    module = Module(label)
    module.cache_path = path
    return module


def afresh(stale: Module) -> Module:
    """A module to generate in place of a cached one that did not hand out what its rules asked
    for (codegen.StaleCode): kept in its place once built."""
    module = Module(stale.label)
    module.cache_path = stale.cache_path
    return module


def keep(module: Module) -> None:
    """Write a freshly generated module to its place in the cache, and compile it there."""
    path = module.cache_path
    if path is None or module.replayed:
        return
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(module.source(), encoding="utf-8")
        os.replace(temporary, path)  # no reader sees half a module
        py_compile.compile(str(path), doraise=True)  # its .pyc, whether or not Python writes bytecode
    except (OSError, py_compile.PyCompileError):
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)


def _imported(path: Path) -> dict | None:
    """The namespace of a cached module, or None when there is none (or it cannot be imported)."""
    if not path.is_file():
        return None
    try:
        spec = importlib.util.spec_from_file_location(f"silvics_rules_{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except Exception:  # truncated, corrupt, from another version: generate afresh
        return None
    return vars(module)
