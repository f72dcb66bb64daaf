"""Card tables: a game's cards as CSV, one row a card, and a CSV back as a card file.

Columns: `id`, `name`, `kind`, `copies`, then every attribute of every kind (an attribute of a
kind with several sides once per side, as `side.attribute`, with `side.name`). A cell holds what
the YAML would: a number, a word, a list as `[a, b]`, an effect as its statement or, for several
steps, as a flow-style list. An empty cell leaves the attribute out. A text cell a spreadsheet
would run as a formula (one starting =, +, -, @, a tab or a carriage return) is written after a
`'`, as OWASP's advice on CSV injection has it; a number stays a number. Importing reads each
cell with the compiler's YAML reader (a guarded cell as its text) and reports a mistake at its
row and column.
"""

from __future__ import annotations

import csv
import io
import re
import tempfile
from pathlib import Path

from silvics.compiler.cardtext import as_written
from silvics.compiler.diagnostics import CompileError, Diagnostic
from silvics.compiler.files import Refused, read_bounded
from silvics.compiler.yamlload import YamlError, dumped, load
from silvics.errors import UsageError
from silvics.interpreter.ir import CardDef, GameIR

FIXED = ("id", "name", "kind", "copies")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # a spreadsheet runs a cell starting so


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
        writer.writerow(
            {name: _guarded(cell) for name, cell in _row(card, len(kinds[card.kind].sides) > 1).items()}
        )
    return out.getvalue()


def _guarded(cell):
    """A text cell as no spreadsheet runs it: after a ' if it would start a formula."""
    return f"'{cell}" if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) else cell


def _unguarded(cell: str) -> str | None:
    """The text of a cell `_guarded` wrote ('=x is the text =x); None for a cell to read as YAML
    ('=x', wholly in quotes, is YAML's quoted string)."""
    if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS) and not cell.endswith("'"):
        return cell[1:]
    return None


def _row(card: CardDef, sided: bool) -> dict:
    row: dict = {"id": card.id, "kind": card.kind, "copies": card.copies if card.copies != 1 else ""}
    for side in card.sides:
        prefix = f"{side.side}." if sided else ""
        row[f"{prefix}name"] = side.name
        for name, value in side.attributes.items():
            written = side.text.get(name, value)
            row[prefix + name] = (
                written  # a number stays a number (never guarded)
                if isinstance(written, (int, float))
                else as_written(list(written) if isinstance(written, tuple) else written)
            )
    return row


def read_table(path: Path) -> str:
    """A card table's text, read as every file is (a regular file, within the size limit); a
    spreadsheet's byte-order mark left out, lines ended as Python's text files end them."""
    try:
        text = read_bounded(path)
    except (OSError, UnicodeDecodeError) as error:
        raise UsageError(
            f"cannot read {path}: {getattr(error, 'strerror', None) or 'not UTF-8 text'}"
        ) from None
    except Refused as refused:
        raise UsageError(f"cannot read {path}: {refused.message}") from None
    return text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def import_csv(text: str, file: str) -> tuple[str, dict]:
    """A card file (YAML) holding the table's cards, and where each of its lines came from:
    line -> (row, column) in the CSV. CompileError, at row and column, for a cell that is not a
    value (or a row that names no id)."""
    reader = csv.reader(io.StringIO(text), strict=True)
    try:
        rows = list(reader)
    except csv.Error as error:  # a cell past the reader's limit, or a quote never closed
        if "field larger" in str(error):
            limit = f"{csv.field_size_limit():,}"
            problem = (
                reader.line_num,
                1,
                f"a cell is longer than the {limit} characters a cell may hold",
                "",
            )
        else:
            problem = (
                *_unclosed(text),
                "this quote is never closed",
                'end the cell with " (a quote in a cell is "")',
            )
        raise CompileError([Diagnostic(file, *problem[:2], "E0102", *problem[2:])]) from None
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
    problems += [
        Diagnostic(
            file,
            1,
            starts.get((1, index), 1),
            "E0201",
            "this column has no name",
            f"name it in the first row: {', '.join(FIXED)}, or an attribute",
        )
        for index, name in enumerate(header)
        if not name.strip() and any(index < len(row) and row[index].strip() for row in rows[1:])
    ]
    for number, row in enumerate(rows[1:], start=2):
        problems += [
            Diagnostic(
                file,
                number,
                starts.get((number, index), 1),
                "E0201",
                "this cell is past the columns the first row names",
                "name its column in the first row, or empty it",
            )
            for index in range(len(header), len(row))
            if row[index].strip()
        ]
        cells = []
        for index, (name, cell) in enumerate(zip(header, row)):
            if cell.strip() == "":
                continue
            where = (number, starts.get((number, index), 1))
            guarded = _unguarded(cell)
            try:
                cells.append((name, load(cell, file)[0] if guarded is None else guarded, where))
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
    if not cards and not problems:
        problems.append(
            Diagnostic(
                file,
                1,
                1,
                "E0201",
                "the table has no cards",
                "a row for each card, under the row naming the columns",
            )
        )
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


def _unclosed(text: str) -> tuple[int, int]:
    """The line and column of the quote that opens a cell never closed (the reader only says the
    text ended inside it)."""
    opened, quoted = (1, 1), False
    for number, line in enumerate(text.splitlines(), start=1):
        for position, char in enumerate(line, start=1):
            if char == '"':
                quoted = not quoted
                opened = (number, position) if quoted else opened
    return opened


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
    """Compile the imported cards with their game (`ir_of(path)` compiles the game, which
    compiles on its own, with the card file at `path` as its cards) and put each diagnostic of
    the table back at its row and column of the CSV. A diagnostic in the game's own files is
    left out: those files name cards the table leaves out (a table of a few cards is checked)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "imported.yaml"
        path.write_text(yaml_text, encoding="utf-8")
        try:
            ir_of(path)
        except CompileError as error:
            mistakes = [
                _placed(d, origin, file, path.name)
                for d in error.diagnostics
                if Path(d.file).name == path.name
            ]
            if mistakes:
                raise CompileError(mistakes) from None


def _placed(diagnostic: Diagnostic, origin: dict, file: str, written: str) -> Diagnostic:
    """A diagnostic of the card file written from the table, at the table's row and column (and
    a place of that file its hint names, "first used at …", too)."""
    row, col = origin.get(diagnostic.line, (1, 1))

    def in_table(place: re.Match) -> str:
        return "{}:{}:{}".format(file, *origin.get(int(place[1]), (1, 1)))

    hint = re.sub(rf"\S*{re.escape(written)}:(\d+):\d+", in_table, diagnostic.hint)
    return Diagnostic(file, row, col, diagnostic.code, diagnostic.message, hint, diagnostic.severity)
