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
        self._lines: list[str] | None = None
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
        except UnicodeDecodeError as error:
            data = error.object[: error.start]
            line_start = data.rfind(b"\n") + 1
            line, col = data.count(b"\n") + 1, len(data[line_start:].decode("utf-8", "replace")) + 1
            byte = error.object[error.start : error.start + 1].hex()
            diagnostics.append(
                Diagnostic(
                    file,
                    line,
                    col,
                    "E0101",
                    f"file is not UTF-8 text: byte 0x{byte} here is not a character",
                    'save the file as UTF-8 (an editor\'s "encoding" setting)',
                )
            )
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

    def lines(self) -> list[str]:
        """The file's lines (split once: each effect of the file may look at them)."""
        if self._lines is None:
            self._lines = self.text.splitlines()
        return self._lines

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
        places = _places(self, node, text)
        if places is not None:
            breaks = tuple(at for at, char in enumerate(text) if char == "\n")
            return text, Source(self.located.file, line, col, places=places, breaks=breaks)
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


_ESCAPE_LENGTH = {"x": 4, "u": 6, "U": 10}  # of \xXX, \uXXXX, \UXXXXXXXX; any other escape is 2


def _places(document: Document, node, text: str) -> tuple[tuple[int, int], ...] | None:
    """Where each character of a quoted or plain scalar's `text` sits in the file (1-based line
    and column), when some do not sit where the text alone would put them (an escape, a fold
    over lines); None when they all do, or when the scan does not give back `text` (then
    positions are counted from the scalar's start, as before)."""
    quote = node.style if node.style in ("'", '"') else ""
    line, col = node.start_mark.line, node.start_mark.column + len(quote)
    lines = document.lines()
    if line == node.end_mark.line and line < len(lines):
        raw = lines[line][node.start_mark.column : node.end_mark.column]
        if "\\" not in raw and "''" not in raw:
            return None  # on one line, nothing escaped: one to one (the common case, said at once)
    end = (node.end_mark.line, node.end_mark.column - len(quote))
    chars: list[str | None] = []
    places: list[tuple[int, int]] = []
    while (line, col) < end and line < len(lines):
        row = lines[line]
        if col >= len(row):  # a line break: folded to a space, or kept for each empty line after it
            while chars and chars[-1] in (" ", "\t"):  # (an escaped one is None: kept)
                chars.pop(), places.pop()
            blank = 0
            line += 1
            while line < end[0] and not lines[line].strip():
                blank, line = blank + 1, line + 1
            at = (line + 1, 1)
            chars += ["\n"] * blank or [" "]
            places += [at] * (blank or 1)
            col = len(lines[line]) - len(lines[line].lstrip(" \t")) if line < len(lines) else 0
            continue
        char = row[col]
        if quote == '"' and char == "\\" and col + 1 < len(row):
            length = _ESCAPE_LENGTH.get(row[col + 1], 2)
            chars.append(None)  # (whatever it stands for: one character)
            places.append((line + 1, col + 1))
            col += length
            continue
        if quote == "'" and char == "'" and row[col + 1 : col + 2] == "'":
            col += 1  # '' is one '
        chars.append(char)
        places.append((line + 1, col + 1))
        col += 1
    if len(chars) != len(text) or any(c is not None and c != t for c, t in zip(chars, text)):
        return None
    start = (node.start_mark.line + 1, node.start_mark.column + 1 + len(quote))
    if all(place == (start[0], start[1] + at) for at, place in enumerate(places)):
        return None  # one to one with the text
    return tuple(places)
