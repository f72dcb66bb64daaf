"""One YAML file of a game, loaded with the place of every value and checked against its schema."""

from __future__ import annotations

from bisect import bisect_right
from pathlib import Path
from typing import Any

from .diagnostics import Diagnostic
from .files import Refused, read_bounded
from .parse import Source
from .validate import validate
from .yamlload import Located, YamlError, load


class Document:
    """One loaded, schema-checked YAML file."""

    def __init__(self, path: Path, kind: str, diagnostics: list):
        file = display(path)
        # its YAML, once checked (every schema wants a mapping with keys): empty if it failed
        self.data: dict[str, Any] = {}
        self.located = Located(file)  # where each value sits (none does in a file that cannot be read)
        self.path, self.text = path, ""
        self.skipped: set[int] = set()  # card indices a schema error ruled out (the rest are still checked)
        try:
            self.text = read_bounded(path)
            data, self.located = load(self.text, file)
        except OSError as error:
            diagnostics.append(Diagnostic(file, 1, 1, "E0101", f"cannot read file: {error.strerror}"))
            return
        except Refused as refusal:
            diagnostics.append(Diagnostic(file, 1, 1, "E0101", refusal.message, refusal.hint))
            return
        except UnicodeDecodeError:
            diagnostics.append(Diagnostic(file, 1, 1, "E0101", "file is not UTF-8 text"))
            return
        except YamlError as error:
            diagnostics.extend(error.diagnostics)
            return
        problems = validate(data, self.located, kind, self.text)
        diagnostics.extend(problems)
        cards = (
            problems and kind == "cards" and isinstance(data, dict) and isinstance(data.get("cards"), list)
        )
        indices = self._card_indices(problems, len(data["cards"])) if cards else None
        if indices is not None:
            self.skipped = set(indices)
        if not problems or indices is not None:  # sound, or sound but for the cards skipped
            self.data = data

    def _card_indices(self, problems, cards: int) -> list[int] | None:
        """The card each diagnostic falls inside (by the line each of the `cards` starts on), or None
        if one falls before every card. A binary search each: a file of many bad cards stays linear."""
        starts = [self.located.at(("cards", i))[0] for i in range(cards)]
        indices = [bisect_right(starts, diagnostic.line) - 1 for diagnostic in problems]
        return None if min(indices) < 0 else indices

    def effect(self, path: tuple, text: str) -> tuple[str, Source]:
        """An effect string and where it sits. A block scalar (| or >) is parsed from its raw lines,
        dedented, so positions map back to the file even where > folds the lines together."""
        node = self.located.scalars.get(path)
        if node is None:
            return text, Source(self.located.file, *self.located.at(path))
        line, col = node.start_mark.line + 1, node.start_mark.column + 1
        if node.style in ("|", ">"):
            end = node.end_mark.line + (1 if node.end_mark.column else 0)  # the mark may sit on the next key
            raw = self.text.splitlines()[node.start_mark.line + 1 : end]
            indent = min((len(r) - len(r.lstrip(" ")) for r in raw if r.strip()), default=0)
            return "\n".join(r[indent:] for r in raw), Source(
                self.located.file, line + 1, indent + 1, single_line=False
            )
        return text, Source(self.located.file, line, col + (1 if node.style in ("'", '"') else 0))

    def error(
        self, path: tuple, code: str, message: str, hint: str = "", *, at_key: bool = False
    ) -> Diagnostic:
        return self.located.error(path, code, message, hint, at_key=at_key)


def display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path.resolve())
