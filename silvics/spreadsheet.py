"""Card tables: a game's cards as CSV, one row a card, and a CSV back as a card file.

Columns: `id`, `name`, `kind`, `copies`, then every attribute of every kind (an attribute of a
kind with several sides once per side, as `side.attribute`, with `side.name`). A cell holds what
the YAML would: a number, a word, a list as `[a, b]`, an effect as its statement or, for several
steps, as a flow-style list. An empty cell leaves the attribute out. Importing reads each cell
with the compiler's YAML reader and reports a mistake at its row and column.
"""

from __future__ import annotations

import csv
import io
import tempfile
from pathlib import Path

from silvics.compiler.cardtext import as_written
from silvics.compiler.diagnostics import CompileError, Diagnostic
from silvics.compiler.yamlload import YamlError, dumped, load
from silvics.interpreter.ir import CardDef, GameIR

FIXED = ("id", "name", "kind", "copies")


def columns(ir: GameIR) -> list[str]:
    """The table's columns: the fixed ones, then each kind's attributes (per side where it has several)."""
    found = list(FIXED)
    for kind in ir.kinds:
        names = [a.name for a in kind.attributes]
        names = (
            names
            if len(kind.sides) == 1
            else [f"{side}.{n}" for side in kind.sides for n in ("name", *names)]
        )
        found += [n for n in names if n not in found]
    return found


def export_csv(ir: GameIR, cards=None) -> str:
    """The cards (default: the game's own, those its rules list, not its modules') as CSV text."""
    cards = ir.cards if cards is None else cards
    kinds = {kind.name: kind for kind in ir.kinds}
    out = io.StringIO()
    writer = csv.DictWriter(out, columns(ir), lineterminator="\n")
    writer.writeheader()
    for card in cards:
        writer.writerow(_row(card, len(kinds[card.kind].sides) > 1))
    return out.getvalue()


def _row(card: CardDef, sided: bool) -> dict:
    row = {"id": card.id, "kind": card.kind, "copies": card.copies if card.copies != 1 else ""}
    for side in card.sides:
        prefix = f"{side.side}." if sided else ""
        row[f"{prefix}name"] = side.name
        for name, value in side.attributes.items():
            written = side.text.get(name, value)
            row[prefix + name] = as_written(list(written) if isinstance(written, tuple) else written)
    return row


def import_csv(text: str, file: str) -> tuple[str, dict]:
    """A card file (YAML) holding the table's cards, and where each of its lines came from:
    line -> (row, column) in the CSV. CompileError, at row and column, for a cell that is not a
    value (or a row that names no id)."""
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0] if rows else []
    if "id" not in header:
        raise CompileError(
            [
                Diagnostic(
                    file,
                    1,
                    1,
                    "E0201",
                    "the first row names the columns, and one is id",
                    f"columns of a card table: {', '.join(FIXED)}, then the attributes",
                )
            ]
        )
    starts, cards, problems = _cell_starts(text), [], []
    for number, row in enumerate(rows[1:], start=2):
        cells = []
        for index, (name, cell) in enumerate(zip(header, row)):
            if cell.strip() == "":
                continue
            where = (number, starts.get((number, index), 1))
            try:
                cells.append((name, load(cell, file)[0], where))
            except YamlError as error:
                problems += [
                    Diagnostic(file, *where, d.code, f"{name}: {d.message}", d.hint)
                    for d in error.diagnostics
                ]
        if cells and not any(name == "id" for name, _, _ in cells):
            problems.append(
                Diagnostic(file, number, 1, "E0201", "this row has no id", "every card needs an id")
            )
        elif cells:
            cards.append(cells)
    if problems:
        raise CompileError(problems)
    kinds = [value for cells in cards for name, value, _ in cells if name == "kind"]
    lines = [
        f"# cards imported from {Path(file).name} by `silvics import`",
        f"kind: {max(set(kinds), key=kinds.count) if kinds else 'card'}",
        "cards:",
    ]
    origin: dict = {}
    for cells in cards:
        _add_card(cells, lines, origin)
    return "\n".join(lines) + "\n", origin


def _add_card(cells: list, lines: list, origin: dict) -> None:
    """A card's YAML lines, one key a line (a side's keys under `sides:`); `origin` learns the
    (row, column) each line came from."""

    def add(text, where):
        lines.append(text)
        origin[len(lines)] = where

    plain = [(name, value, where) for name, value, where in cells if "." not in name]
    for index, (name, value, where) in enumerate(plain):
        add(("  - " if index == 0 else "    ") + f"{name}: {dumped(value, flow=True)}", where)
    sides: dict = {}
    for name, value, where in cells:
        side, dot, attribute = name.partition(".")
        if dot:
            sides.setdefault(side, []).append((attribute, value, where))
    if sides:
        add("    sides:", plain[0][2])
        for side, entries in sides.items():
            add(f"      {side}:", entries[0][2])
            for attribute, value, where in entries:
                add(f"        {attribute}: {dumped(value, flow=True)}", where)


def _cell_starts(text: str) -> dict:
    """(row, index) -> the column, counted in characters from 1, where each cell of a one-line
    row starts (quotes taken into account)."""
    found = {}
    for number, line in enumerate(text.splitlines(), start=1):
        index, quoted = 0, False
        found[number, 0] = 1
        for position, char in enumerate(line):
            if char == '"':
                quoted = not quoted
            elif char == "," and not quoted:
                index += 1
                found[number, index] = position + 2
    return found


def checked(ir_of, yaml_text: str, origin: dict, file: str):
    """Compile the imported cards with their game (`ir_of(path)` compiles the game with the card
    file at `path` as its cards) and put each diagnostic back at its row and column of the CSV."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "imported.yaml"
        path.write_text(yaml_text, encoding="utf-8")
        try:
            return ir_of(path)
        except CompileError as error:
            raise CompileError([_placed(d, path, origin, file) for d in error.diagnostics]) from None


def _placed(diagnostic: Diagnostic, path: Path, origin: dict, file: str) -> Diagnostic:
    if Path(diagnostic.file).name != path.name:
        return diagnostic
    row, col = origin.get(diagnostic.line, (1, 1))
    return Diagnostic(
        file, row, col, diagnostic.code, diagnostic.message, diagnostic.hint, diagnostic.severity
    )
