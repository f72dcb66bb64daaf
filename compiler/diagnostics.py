"""Diagnostics: the one error type designers see, rendered gcc-style.

cards/mygame/cards.yaml:12:11: error[E0102]: value must be a whole number, got 'two'
   12 |     value: two
      |            ^
   = hint: ...
"""

from __future__ import annotations

import difflib
import re
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from .files import Refused, read_bounded

# Codes: E01xx file and YAML, E02xx schema, E03xx effect syntax, E04xx names and types,
# E05xx game structure.
CODES = {
    "E0101": "file cannot be read",
    "E0102": "YAML syntax error",
    "E0103": "duplicate key in a YAML mapping",
    "E0201": "schema violation",
    "E0301": "effect language syntax error",
    "E0401": "unknown name",
    "E0402": "wrong type",
    "E0403": "duplicate id",
    "E0404": "wrong number of parts",
    "E0501": "game structure error",
    "W0101": "declared and never used",
    "W0102": "cards never taken out of the box",
    "W0103": "procedure never called",
    "W0104": "game id differs from its folder",
    "W0105": "no counter shown to players",
}
LINE_WIDTH = 160  # characters of a source line shown under a diagnostic; a longer one is cut around the caret
VALUE_WIDTH = 80  # characters of a quoted value shown in a message; a longer one is cut


@dataclass(frozen=True, slots=True)
class Diagnostic:
    file: str
    line: int
    col: int
    code: str
    message: str
    hint: str = ""
    severity: str = "error"  # or "warning" (compiles, but is probably a mistake: W codes)

    def render(self, source_lines: list[str] | None = None) -> str:
        text = (
            f"{self.file}:{self.line}:{self.col}: {self.severity}[{self.code}]: {_cut_values(self.message)}"
        )
        if source_lines and 0 < self.line <= len(source_lines):
            gutter = " " * len(str(self.line))
            shown, caret = _around(source_lines[self.line - 1].rstrip(), self.col - 1)
            text += f"\n {self.line} | {_printable(shown)}\n {gutter} | {' ' * caret}^"
        if self.hint:
            text += f"\n = hint: {self.hint}"
        return text


_LONG = f"{{{VALUE_WIDTH + 1},}}"  # a regular expression's count: more than VALUE_WIDTH
_QUOTED = re.compile(rf"(?<!\w)('[^'\n]{_LONG}'|\"[^\"\n]{_LONG}\")")


def _cut_values(message: str) -> str:
    """The message with each long quoted value (a map row of thousands of characters) cut short."""
    return _QUOTED.sub(lambda quoted: f"{quoted[0][: VALUE_WIDTH + 1]}…{quoted[0][-1]}", message)


def _around(line: str, caret: int) -> tuple[str, int]:
    """A long line's part around the caret, an ellipsis where it is cut, and the caret's place in it."""
    if len(line) <= LINE_WIDTH:
        return line, caret
    start = max(0, min(caret - LINE_WIDTH // 2, len(line) - LINE_WIDTH))
    head = "…" if start else ""
    tail = "…" if start + LINE_WIDTH < len(line) else ""
    return head + line[start : start + LINE_WIDTH] + tail, caret - start + len(head)


_CONTROLS = {code: "?" for code in [*range(0x00, 0x09), *range(0x0A, 0x20), 0x7F]}


def _printable(line: str) -> str:
    """A source line as it may reach a terminal: a control character (an escape sequence could
    retitle or rewrite the terminal) shown as '?', one for one, so the caret stays in place."""
    return line.translate(_CONTROLS)


class CompileError(Exception):
    """Raised with every diagnostic of a run once a stage cannot go on."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__(f"{len(diagnostics)} error(s)")
        self.diagnostics = sorted(set(diagnostics), key=lambda d: (d.file, d.line, d.col, d.code, d.message))

    def render(self) -> str:
        cache: dict[str, list[str] | None] = {}

        def lines(file):
            if file not in cache:
                try:  # bounded: never hang on a pipe or load a huge file to show one line
                    cache[file] = read_bounded(Path(file)).splitlines()
                except (OSError, UnicodeDecodeError, Refused):
                    cache[file] = None
            return cache[file]

        return "\n".join(d.render(lines(d.file)) for d in self.diagnostics)


class Suggestion(str):
    """A hint that names the word meant (`word`, None for no suggestion); it reads as the hint."""

    word: str | None

    def __new__(cls, word: str | None):
        hint = super().__new__(cls, f"did you mean '{word}'?" if word is not None else "")
        hint.word = word
        return hint


# Comparisons a compile may spend on suggestions (None: no limit). Each compares a misspelling
# with every known name, so thousands of misspellings among thousands of card ids would take
# minutes; past the budget, errors come without a suggestion and the compile stays linear.
_comparisons_left: ContextVar[int | None] = ContextVar("comparisons_left", default=None)


@contextmanager
def suggestion_budget(comparisons: int):
    token = _comparisons_left.set(comparisons)
    try:
        yield
    finally:
        _comparisons_left.reset(token)


def did_you_mean(name: str, known) -> Suggestion:
    """The known word nearest to a misspelling: fewest edits (a swap of two letters is one),
    then the most similar by difflib; "" when none is near. Public: the application words its
    own hints (an unknown card or zone on the command line, in a position) the same way."""
    left = _comparisons_left.get()
    if left is not None:
        if left < len(known):
            return Suggestion(None)
        _comparisons_left.set(left - len(known))
    name, known = str(name), set(map(str, known))
    scored = [
        (_edits(name, k), -difflib.SequenceMatcher(None, name, k).ratio(), k)
        for k in known
        if _may_be_near(name, k)
    ]
    scored = [
        s
        for s in scored
        if s[0] <= max(1, len(name) // 3) or -s[1] >= 0.75 or (len(name) >= 3 and s[2].startswith(name))
    ]
    return Suggestion(min(scored)[2] if scored else None)


def _may_be_near(name: str, known: str) -> bool:
    """False when the lengths alone rule `known` out (the edits are at least the difference in
    length, and difflib's ratio at most 2 * shorter / both), so that no time is spent on it."""
    shorter, both = min(len(name), len(known)), len(name) + len(known)
    return (
        abs(len(name) - len(known)) <= max(1, len(name) // 3)
        or 2 * shorter >= 0.75 * both
        or (len(name) >= 3 and known.startswith(name))
    )


def _edits(a: str, b: str) -> int:
    """Optimal string alignment distance (Levenshtein plus adjacent transpositions)."""
    previous2, previous = None, list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if previous2 and i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                current[j] = min(current[j], previous2[j - 2] + 1)
        previous2, previous = previous, current
    return previous[-1]
