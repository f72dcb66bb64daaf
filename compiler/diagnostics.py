"""Diagnostics: the one error type designers see, rendered gcc-style.

    cards/four-forests/plants.yaml:12:11: error[E0102]: value must be a whole number, got 'two'
       12 |     value: two
          |            ^
       = hint: ...
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path

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
}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    file: str
    line: int
    col: int
    code: str
    message: str
    hint: str = ""

    def render(self, source_lines: list[str] | None = None) -> str:
        text = f"{self.file}:{self.line}:{self.col}: error[{self.code}]: {self.message}"
        if source_lines and 0 < self.line <= len(source_lines):
            gutter = " " * len(str(self.line))
            text += (f"\n {self.line} | {source_lines[self.line - 1].rstrip()}"
                     f"\n {gutter} | {' ' * (self.col - 1)}^")
        if self.hint:
            text += f"\n = hint: {self.hint}"
        return text


class CompileError(Exception):
    """Raised with every diagnostic of a run once a stage cannot go on."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__(f"{len(diagnostics)} error(s)")
        self.diagnostics = sorted(set(diagnostics), key=lambda d: (d.file, d.line, d.col, d.code, d.message))

    def render(self) -> str:
        cache: dict[str, list[str] | None] = {}

        def lines(file):
            if file not in cache:
                try:
                    cache[file] = Path(file).read_text(encoding="utf-8").splitlines()
                except OSError:
                    cache[file] = None
            return cache[file]
        return "\n".join(d.render(lines(d.file)) for d in self.diagnostics)


def did_you_mean(name: str, known) -> str:
    close = difflib.get_close_matches(str(name), [str(k) for k in known], n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""
