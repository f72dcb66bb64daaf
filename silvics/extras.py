"""The optional extras (pyproject.toml's optional-dependencies: docs, print, balance, ray): a
command checks the modules it will need before doing any work, and a missing one is misuse,
said in one line with the command that installs it, as silvics was installed: from a clone
(`pip install '.[docs]'` there, `-e` kept for an editable install) or from a package index
(`pip install 'silvics[docs]'`)."""

from __future__ import annotations

import importlib
import json
import os
from pathlib import Path
from urllib.parse import unquote, urlparse

from silvics.errors import UsageError


def require(extra: str, *modules: str, what: str, instead: str = "") -> None:
    """UsageError, naming how to install `extra`, unless each of `modules` imports (`what`
    names the command or part that needs them, `instead` what else would do)."""
    for module in modules:
        try:
            importlib.import_module(module)
        except (ImportError, OSError):  # OSError: a wrapper without its C library (cairocffi's cairo)
            raise UsageError(
                f"{what} needs {module} (silvics' {extra} extra): {install_line(extra)}"
                + (f"; or {instead}" if instead else "")
            ) from None


def install_line(extra: str) -> str:
    """The command that installs `extra` for the silvics running: from the folder it was
    installed from (its clone), or the folder it runs from if never installed, else by name."""
    origin = _origin()
    if origin is None:  # never installed: run from its clone
        return f"pip install '{_shown(Path(__file__).resolve().parent.parent)}[{extra}]'"
    url = origin.get("url", "")
    if url.startswith("file://"):
        editable = "-e " if origin.get("dir_info", {}).get("editable") else ""
        return f"pip install {editable}'{_shown(Path(unquote(urlparse(url).path)))}[{extra}]'"
    return f"pip install 'silvics[{extra}]'"


def _origin() -> dict | None:
    """Where the installed silvics came from (PEP 610's direct_url.json: {} when from an
    index), or None when it is not installed."""
    from importlib import metadata  # only on the way to an error: it costs a command's start

    try:
        text = metadata.distribution("silvics").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return None
    try:
        found = json.loads(text or "{}")
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def _shown(folder: Path) -> str:
    return "." if folder == Path.cwd() else os.fspath(folder)
