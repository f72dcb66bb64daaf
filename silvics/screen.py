"""What a person at the terminal sees at each decision: one compact screen of the table as
their seat sees it. Their own hidden cards (a hand) as a table whose columns are what the
cards print in their corners and badges (the game's `faces:`), each card's text beneath the
first time it is shown (`show NAME` gives it again); the cards lying in sight as one line per
place, named, with the marks players see on them, and said to lie face down as their place
calls it (a stored energy card); the cards of a place they cannot see counted on its line, or
said as face-down cards when everyone sees their marks (a vote turned for or against); the
places of cards they cannot see at all as counts; the spaces of a grid that hold cards, a line per
grid. Nothing here knows a game: it reads the observation, the faces and the vocabulary.

`Screen.blocks` gives the screen as blocks (lines of text, tables, pictures of grids); `plain`
writes them as lines of text (a file, a pipe, a test), `rich` prints them with rich's tables at
a terminal.
"""

from __future__ import annotations

from typing import NamedTuple

from silvics.compiler.cardtext import attribute_line
from silvics.interpreter.ir import Node
from silvics.interpreter.primitives.actions import Drawing
from silvics.interpreter.state import parse_key

INDENT = "  "
NAMED = 12  # the cards of a place named on its line, at most (then how many more)
TEXT = 96  # a card's text is cut to this width on the screen (`show NAME` gives it whole)


class Table(NamedTuple):
    """Cards as rows: a title, the column headings, and for each card its cells and its text."""

    title: str
    columns: tuple[str, ...]
    rows: list[tuple[tuple[str, ...], list[str]]]


class Picture(NamedTuple):
    """A grid drawn as the rules draw it: a title, then its lines as they are (never wrapped)."""

    title: str
    lines: tuple[str, ...]


class Screen:
    """The screen of one seat, worded with the game's vocabulary and names (human.Naming)."""

    def __init__(self, ir, seat: int, naming, wording):
        self.ir, self.seat, self.naming, self.wording = ir, seat, naming, wording
        self.faces = {face.kind: face for face in ir.faces}
        self.zones = {zone.name: zone for zone in ir.zones}
        self.texts_shown: set[str] = set()  # the cards whose text this seat has been shown

    def blocks(self, observation) -> list[str | Table | Picture]:
        """The seat's own hidden places as tables, then the places in sight, then what it cannot see."""
        tables: list[Table] = []
        seen: list[str] = []
        grids: dict[str, list[tuple]] = {}  # a grid's words -> (its place, its words) of spaces holding cards
        unseen: list[str] = []
        for label, cards in observation.zones.items():
            parts = parse_key(_key(label))
            zone = self.zones.get(parts.name)
            where = self.naming.zone(label)
            # a card in sight, or one hidden but for marks everyone sees (a vote face down, turned for)
            shown = [card for card in cards if card.card is not None or self.naming.marks(card.marks)]
            hidden = len(cards) - len(shown)
            down = zone is not None and zone.visibility == "public" and bool(zone.face_down)  # said in sight
            if zone is not None and zone.visibility == "owner" and parts.owner == self.seat and shown:
                tables.append(self.table(where, shown, label))
            elif shown or (down and hidden):
                said = face_down(zone, hidden)
                if shown:
                    more = f", and {said}" if down and hidden else _more(hidden)
                    said = f"{self._names(shown, label, zone)}{more}"
                if zone is not None and (zone.rows or zone.map):
                    space = space_words(str(parts.row), parts.column)
                    place = (zone.rows.index(parts.row) if parts.row in zone.rows else 0, parts.column or 0)
                    grids.setdefault(self.naming.zone(parts.name + _owner(label)), []).append(
                        (place, f"{space} — {said}")
                    )
                else:
                    seen.append(f"{_capital(where)}: {said}")
                    seen += self._new_texts([card for card in shown if card.card is not None], label)
            elif hidden:
                unseen.append(f"{where} {hidden}")
        blocks: list[str | Table | Picture] = [*tables, *seen]
        drawn = self._drawn(observation)
        blocks += [
            f"{_capital(grid)}: {'; '.join(said for _, said in sorted(spaces))}"  # in the grid's order
            for grid, spaces in grids.items()
            if grid not in drawn
        ]
        for grid, lines in drawn.items():
            blocks.append(Picture(f"{_capital(grid)}:", tuple(lines)))
        if unseen:
            blocks.append("Cards you cannot see: " + " · ".join(unseen))
        return blocks

    def _drawn(self, observation) -> dict[str, list[str]]:
        """The grids whose spaces the question offers, as the rules draw them (Observation.drawings,
        laid out as the story's drawings are): a grid's words -> its lines, the column numbers
        first, then a row a line."""
        drawings = observation.drawings
        offered = {_key(label) for label in observation.labels} & drawings.keys()
        drawn = {}
        for grid in {(parts.name, parts.owner) for parts in map(parse_key, offered)}:
            rows: dict = {}  # row -> its spaces' keys and texts, in the drawing's order
            for key, text in drawings.items():
                parts = parse_key(key)
                if (parts.name, parts.owner) == grid:
                    keys, texts = rows.setdefault(parts.row, ([], []))
                    keys.append(key)
                    texts.append(text)
            lines = Drawing(tuple(rows.values())).text(None).splitlines()[1:]  # its label said here
            name, owner = grid
            drawn[self.naming.zone(name + ("" if owner is None else f"@{owner + 1}"))] = lines
        return drawn

    def table(self, where: str, cards, label: str) -> Table:
        """A place's cards, a row each: the attributes printed in the corners and as badges."""
        columns: list[str] = []
        for card in cards:
            for name in self._printed(card.card):
                if name not in columns:
                    columns.append(name)
        rows = []
        for card in cards:
            sides = card.card.sides if self._whole(card, label) else [card.card.sides[card.side]]
            cells = tuple(
                " / ".join(dict.fromkeys(self._value(side.attributes.get(name)) for side in sides)).strip(
                    " /"
                )
                for name in columns
            )
            new = card.card.id not in self.texts_shown  # its text is given once: `show NAME` gives it again
            self.texts_shown.add(card.card.id)
            named = self.naming.card(card, label)
            rows.append(((named, *cells), self._text(sides, named) if new else []))
        return Table(_capital(where), ("card", *(name.replace("_", " ") for name in columns)), rows)

    def _new_texts(self, cards, label: str) -> list[str]:
        """The text of each card of a place in sight that the seat is shown for the first time."""
        lines = []
        for card in cards:
            if card.card.id in self.texts_shown or card.down:
                continue
            self.texts_shown.add(card.card.id)
            sides = card.card.sides if self._whole(card, label) else [card.card.sides[card.side]]
            lines += [INDENT + line for line in self._text(sides, self.naming.card(card, label))]
        return lines

    def _printed(self, card) -> tuple[str, ...]:
        """The attributes a card shows in its columns: its corners and badges (`faces:`), or
        without a layout every attribute that is not text."""
        face = self.faces.get(card.kind)
        if face is not None:
            return (*face.corners, *face.badges)
        names = (name for side in card.sides for name, value in side.attributes.items())
        return tuple(
            dict.fromkeys(
                name
                for name in names
                if not any(isinstance(side.attributes.get(name), Node) for side in card.sides)
            )
        )

    def card(self, card, label: str) -> list[str]:
        """A card the seat sees, with all it prints (`show NAME`): each side shown, its corners
        and badges by name, and its whole text; then the marks players see on it."""
        whole = self._whole(card, label)
        sides = card.card.sides if whole else [card.card.sides[card.side]]
        lines = [self.naming.card(card, label)]
        for side in sides:
            printed = [
                f"{name.replace('_', ' ')} {self._value(side.attributes[name])}"
                for name in self._printed(card.card)
                if name in side.attributes
            ]
            head = f"{side.name}: " if len(sides) > 1 else ""
            lines.append(INDENT + head + " · ".join(printed))
            lines += [
                INDENT * 2 + attribute_line(name, value, self.wording)
                for name, value in side.attributes.items()
                if isinstance(value, Node)
            ]
        lines += [INDENT + mark for mark in self.naming.marks(card.marks)]
        return [line for line in lines if line.strip()]

    def _whole(self, card, label: str) -> bool:
        """Whether the card shows all its sides (a split card in hand), not its face-up one."""
        halves = self.naming.halves.get(card.card.id)
        return halves is not None and self.naming.card(card, label) == halves

    def _value(self, value) -> str:
        if value is None:
            return ""
        if isinstance(value, tuple | list | set | frozenset):
            return ", ".join(self._value(item) for item in value)
        said = self.wording.say(Node("const", {"value": value})).replace("-", " ")
        return said.removeprefix("the ")  # a value as a word in a column: "low row", not "the low row"

    def _text(self, sides, name: str) -> list[str]:
        """What the sides print as text (their effects, in the game's words), a line a side,
        each led by its name (the card's, `name`, when it shows one side)."""
        said = []
        for side in sides:
            lines = [
                attribute_line(name, value, self.wording)
                for name, value in side.attributes.items()
                if isinstance(value, Node)
            ]
            text = f"{side.name if len(sides) > 1 else name}: " + " ".join(lines)
            if lines:
                said.append(text if len(text) <= TEXT else text[: TEXT - 1].rsplit(" ", 1)[0] + " …")
        return said

    def _names(self, cards, label: str, zone) -> str:
        listed = counted([self._named(card, label, zone) for card in cards])
        return ", ".join(listed[:NAMED]) + (f" and {len(listed) - NAMED} more" if len(listed) > NAMED else "")

    def _named(self, card, label: str, zone) -> str:
        """A card on a place's line: by name, and that it lies face down (as its place calls a
        card so: "Salal (stored energy card)"); or, hidden, as its place calls a face-down card;
        with the marks players see ("a vote (vote against)", "Joker marker (joker animal owl)").
        A mark that says the face-down word already says it alone (as the web table's captions)."""
        marks = self.naming.marks(card.marks)
        if card.card is None:
            return f"{face_down(zone, 1, article=True)} ({', '.join(marks)})"
        word = _down_word(zone) if card.down else ""
        said = [word] if word and not any(mark.startswith(f"{word} ") for mark in marks) else []
        named = self.naming.card(card, label)
        return f"{named} ({', '.join(said + marks)})" if said + marks else named


def space_words(row: str, column) -> str:
    """A space of a grid as a person says it: "low row, column 1"; a row named by no word, as a
    drawing labels it: "row r5, column 14"."""
    return f"{row} row, column {column}" if row.isalpha() else f"row {row}, column {column}"


def counted(names: list[str]) -> list[str]:
    """Names, each once in the order first named, with how many there are: Linden ×2, Oak."""
    copies = {name: names.count(name) for name in names}
    return [name + (f" ×{n}" if n > 1 else "") for name, n in copies.items()]


def face_down(zone, n: int, article: bool = False) -> str:
    """n cards lying face down in a zone, as its players call them (its `face down:` words):
    "1 sapling", "2 saplings", "a face-down card"."""
    words = zone.face_down if zone is not None and zone.face_down else "face-down card"
    one, _, many = words.partition("|")
    if n == 1:
        return f"{'an' if one[:1] in 'aeiou' else 'a'} {one}" if article else f"1 {one}"
    return f"{n} {many or one + 's'}"


def _down_word(zone) -> str:
    """A card lying face down in the zone, as its players call one (its `face down:` words)."""
    return zone.face_down.partition("|")[0] if zone is not None and zone.face_down else "face down"


def plain(blocks) -> list[str]:
    """The blocks as lines of text: a table's columns aligned, each card's text beneath it."""
    lines = []
    for block in blocks:
        if isinstance(block, str):
            lines.append(INDENT + block)
            continue
        if isinstance(block, Picture):
            lines += [INDENT + block.title, *(INDENT * 2 + line for line in block.lines)]
            continue
        cells = [block.columns, *(row for row, _ in block.rows)]
        widths = [max(len(row[i]) for row in cells) for i in range(len(block.columns))]
        lines.append(f"{INDENT}{block.title}:")
        for number, row in enumerate(cells):
            lines.append(
                (INDENT * 2 + "  ".join(f"{c:<{w}}" for c, w in zip(row, widths, strict=True))).rstrip()
            )
            lines += [INDENT * 3 + text for text in (block.rows[number - 1][1] if number else ())]
    return lines


def rich(blocks, console) -> None:
    """The blocks printed with rich at a terminal `console.width` wide: a table's cells drawn as a
    table, each word whole (a card's name on one line), the new cards' text after it. A table
    whose words cannot all stand whole in that width is printed a card a line instead ("name:
    column value · column value", its text beneath it), and a line too long for the width wraps
    under its own indent; a picture of a grid is printed as drawn."""
    from rich import box
    from rich.table import Table as RichTable

    width = console.width
    for block in blocks:
        if isinstance(block, str):
            wrapped(console, INDENT + block, width)
            continue
        if isinstance(block, Picture):  # as drawn: a row wrapped would not line up
            for line in [INDENT + block.title, *(INDENT * 2 + line for line in block.lines)]:
                console.print(line, highlight=False, markup=False, soft_wrap=True)
            continue
        widest = [
            _longest_word([column, *(row[at] for row, _ in block.rows)])
            for at, column in enumerate(block.columns)
        ]
        widest[0] = max(len(row[0]) for row, _ in block.rows)  # a card's name is never cut
        if sum(widest) + 2 * len(widest) <= width:  # (a cell's padding: a space each side)
            table = RichTable(title=block.title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
            for at, column in enumerate(block.columns):
                table.add_column(
                    column, style="bold" if at == 0 else "", min_width=widest[at], no_wrap=at == 0
                )
            for row, _ in block.rows:
                table.add_row(*row)
            console.print(table)
            for _, texts in block.rows:
                for text in texts:
                    wrapped(console, INDENT * 2 + text, width, style="dim")
            continue
        wrapped(console, f"{INDENT}{block.title}:", width)
        for row, texts in block.rows:
            # (a no-break space before each dot: a line breaks after it, never before)
            said = "\u00a0· ".join(
                f"{column} {cell}" for column, cell in zip(block.columns[1:], row[1:]) if cell
            )
            wrapped(console, f"{INDENT * 2}{row[0]}" + (f": {said}" if said else ""), width)
            for text in texts:
                wrapped(console, INDENT * 3 + text, width, style="dim")


def _longest_word(cells) -> int:
    return max((len(word) for cell in cells for word in cell.split()), default=0)


def wrapped(console, line: str, width: int | None = None, style: str = "") -> None:
    """A line printed wrapped at spaces to the width (the console's), its later lines indented
    two steps (INDENT) more than its first (rich would wrap it at the margin); each line of a
    text of several on its own."""
    import textwrap

    width = width or console.width
    for each in line.replace(" — ", "\u00a0— ").split("\n"):  # (a dash stays with the word before it)
        indent = each[: len(each) - len(each.lstrip())] + INDENT * 2
        for part in textwrap.wrap(each, width - 1, subsequent_indent=indent) or [""]:
            console.print(part, style=style, highlight=False, markup=False, soft_wrap=True)


def _key(label: str) -> str:
    """A zone's label as a key parse_key reads: the owner's seat as written (hand@2) is the key's."""
    name, _, owner = label.partition("@")
    return f"{name}/{int(owner) - 1}" if owner.isdigit() else name


def _owner(label: str) -> str:
    owner = label.partition("@")[2]
    return f"@{owner}" if owner else ""


def _more(hidden: int) -> str:
    return f", and {hidden} card{'s' * (hidden != 1)} you cannot see" if hidden else ""


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
