"""Dependencies run one way: the application (silvics/) → compiler/ → interpreter/.

Each layer is a library for the one above it: the interpreter imports nothing of the
compiler or the application (a saved IR runs without them), the compiler nothing of the
application, the application's modules import each other without cycles, and no module
imports another's private (`_name`) helpers. Imports are read with `ast`, so imports made
inside functions count too.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Folder in the checkout → package in the installed wheel (pyproject.toml's package-dir).
PACKAGES = {"silvics": "silvics", "compiler": "silvics.compiler", "interpreter": "silvics.interpreter",
            "benchmarks": "benchmarks"}


def module_name(path: Path) -> str:
    folder, *rest = path.relative_to(ROOT).with_suffix("").parts
    parts = [PACKAGES[folder], *rest]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for folder in PACKAGES for path in (ROOT / folder).rglob("*.py")}


def layer(module: str) -> str | None:
    """interpreter, compiler, application (silvics and its other packages), or None (outside)."""
    for name in ("interpreter", "compiler"):
        if module == f"silvics.{name}" or module.startswith(f"silvics.{name}."):
            return name
    return "application" if module == "silvics" or module.startswith("silvics.") else None


def imports(module: str) -> list[tuple[str, str, int]]:
    """(imported module, imported name or "", line) for every import in the module's source."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    return imports_in(path.read_text(encoding="utf-8"), package)


def imports_in(source: str, package: str) -> list[tuple[str, str, int]]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(alias.name, "", node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                found.append((submodule, "", node.lineno) if submodule in MODULES else (base, alias.name, node.lineno))
    return found


def _absolute(node: ast.ImportFrom, package: str) -> str:
    if not node.level:
        return node.module
    parts = package.split(".")
    base = ".".join(parts[:len(parts) - node.level + 1])
    return f"{base}.{node.module}" if node.module else base


def where(module: str, line: int) -> str:
    return f"{MODULES[module].relative_to(ROOT)}:{line}"


def test_the_tree_is_found():
    assert {"silvics.cli", "silvics.compiler.build", "silvics.interpreter.game", "benchmarks.bench"} <= set(MODULES)


def test_the_interpreter_imports_neither_the_compiler_nor_the_application():
    bad = [f"{where(m, line)}: imports {target}" for m in MODULES if layer(m) == "interpreter"
           for target, _, line in imports(m) if layer(target) not in (None, "interpreter")]
    assert not bad, "\n".join(bad)


def test_the_compiler_never_imports_the_application():
    bad = [f"{where(m, line)}: imports {target}" for m in MODULES if layer(m) == "compiler"
           for target, _, line in imports(m) if layer(target) == "application"]
    assert not bad, "\n".join(bad)


def test_application_modules_import_each_other_without_cycles():
    graph = {m: {t for t, _, _ in imports(m) if layer(t) == "application" and t in MODULES and t != m}
             for m in MODULES if layer(m) == "application"}
    cycles = _cycles(graph)
    assert not cycles, "\n".join(" → ".join(cycle) for cycle in cycles)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One cycle through each module that lies on one (depth-first search, colouring nodes)."""
    state, path, found = {}, [], []

    def visit(node):
        state[node] = "open"
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                found.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt)
        path.pop()
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node)
    return found


# benchmarks/bench.py is being rewritten on its own branch without these two (cache clearing
# for a cold compile); once that is merged, this set can go.
def test_no_module_imports_another_modules_private_names():
    bad = [f"{where(m, line)}: imports {name} from {target}" for m in MODULES
           for target, name, line in imports(m)
           if name.startswith("_") and target != m]
    assert not bad, "\n".join(bad)


def test_the_checks_catch_what_they_look_for():
    """The import reader resolves relative imports and sees lazy imports inside functions."""
    found = {(target, name) for target, name, _ in imports("silvics.compiler.build")}
    assert ("silvics.interpreter.ir", "GameIR") in found                   # from ..interpreter.ir import GameIR
    assert ("silvics.compiler.diagnostics", "CompileError") in found      # from .diagnostics import …
    lazy = "def f():\n    from ..interpreter import game\n    from .build import _relative\n"
    assert [(t, n) for t, n, _ in imports_in(lazy, "silvics.compiler")] == [
        ("silvics.interpreter.game", ""), ("silvics.compiler.build", "_relative")]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert not _cycles({"a": {"b"}, "b": set()})
