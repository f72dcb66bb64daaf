"""A person at the terminal: sees their seat's observation (what changed since their last
turn, then every zone with the cards they can see), and picks from numbered legal options."""

from __future__ import annotations

from silvics.compiler.cardtext import attribute_line
from silvics.interpreter.ir import Node
from silvics.interpreter.primitives.flow import ACTION_PROMPT as ACTIONS


class InputEnded(Exception):
    """The person's input ended at a question (the end of a file piped in, Ctrl-D)."""


class HumanAgent:
    name = "human"

    def __init__(
        self,
        seat: int,
        read=None,
        write=None,
        undo=None,
        wording=None,
        table: dict | None = None,
        asker=None,
        why=None,
        counters: dict | None = None,
    ):
        """`table`, shared by the people of one game played at one screen (hot seat), holds the
        seat that decided last: the screen is cleared and handed over between two people.
        `asker` (story.Asker) says questions and options in the game's words."""
        self.asker = asker
        self.seat = seat
        self.wording = wording  # the game's words: a card's effects shown as its printed text
        self.read = read or (lambda prompt: input(prompt))
        self.write = write or print
        self.undo = undo  # undo(seat) goes back to this seat's previous decision, or says why not
        self.why = why  # why(seat, name): the lines saying why NAME is not offered (silvics/why.py)
        self.counters = counters or {}  # name -> CounterDecl: the counters players see are shown
        self.table = table
        self.last: dict[str, list[str]] = {}

    def choose(self, observation) -> int:
        self._hand_over()
        zones = observation.zones
        seen = {label: [card.id for card in cards] for label, cards in zones.items()}
        prompt = observation.prompt
        self.write(f"\n--- P{self.seat + 1}, your turn: {self._question(observation)} ---")
        self.write("  " + status(observation, self.seat, self.counters))
        for line in changes(self.last, seen):
            self.write(f"  * {line}")
        self.last = seen
        for label, cards in zones.items():
            self.write(f"  {label:<20} {describe_pile(cards, self.wording)}")
        labels = observation.labels
        for number, label in enumerate(labels, 1):
            self.write(f"  [{number}] {self.asker.option(prompt, label) if self.asker else label}")
        while True:
            try:
                answer = self.read(f"P{self.seat + 1} > ").strip()
            except EOFError:
                raise InputEnded from None
            if answer == "undo" and self.undo:
                self.write(f"  {self.undo(self.seat)}")  # returns only when it cannot go back
                continue
            if answer.startswith("why") and self.why:
                asked = answer[3:].strip()
                for line in self.why(self.seat, asked) if asked else ["why what? type: why NAME"]:
                    self.write(f"  {line}")
                continue
            index = _index(answer, labels)
            if index is not None:
                return index
            self.write(f"  {self._hint(len(labels))}")

    def _question(self, observation) -> str:
        if self.asker is None:
            return observation.prompt
        return question(self.asker, observation.prompt, observation.labels, observation.still)

    def _hint(self, count: int) -> str:
        """What may be typed: a number or an option's words, and undo and why when offered."""
        others = [word for word, offered in (("undo", self.undo), ("why NAME", self.why)) if offered]
        said = "".join(f", or {word}" for word in others)
        return f"type a number from 1 to {count} or an option as written{said}"

    def _hand_over(self):
        """Between two people at one screen: hide what the last one saw, and wait until the
        next one, alone, is ready."""
        if self.table is None:
            return
        last, self.table["last"] = self.table.get("last"), self.seat
        if last is not None and last != self.seat:
            self.write(CLEAR + f"P{last + 1}'s view is hidden. Pass the game to P{self.seat + 1}.")
            try:
                self.read(f"P{self.seat + 1}, press Enter when only you can see the screen ")
            except EOFError:
                raise InputEnded from None


CLEAR = "\033[2J\033[H" + "\n" * 40  # clears a terminal; scrolls anything that ignores it out of sight


def question(asker, prompt: str, labels, still=None) -> str:
    """A question in the game's words: one offering actions names them; one asked again for each
    card of several says how many (or how much) are still wanted."""
    if prompt == ACTIONS:
        return "choose one: " + ", or ".join(asker.option(prompt, label) for label in labels)
    words = asker.words(prompt)
    if still is None:
        return words
    measure, amount = still
    return f"{words} ({amount} more)" if measure == "count" else f"{words} (worth {amount} more)"


def status(observation, seat: int, declared: dict | None = None) -> str:
    """The scores, the markers, and the counters players see (`declared`: name -> CounterDecl),
    the shared ones and the seat's own, on one line."""
    scores = "  ".join(f"P{number + 1} {points}" for number, points in enumerate(observation.scores))
    markers = [f"{name} P{holder + 1}" for name, holder in sorted(observation.markers.items())]
    counters = []
    for label, value in sorted(observation.counters.items()):
        name, _, owner = label.partition("@")
        if not owner or int(owner) == seat + 1:
            counters += shown_counter(declared or {}, name, value)
    return " · ".join([f"scores: {scores}", *markers, *counters])


def shown_counter(declared: dict, name: str, value: int, whose: str = "") -> list[str]:
    """A counter as players read it: by the words its declaration shows it by (`shown:`), with the
    word its value stands for (`names:`); nothing for the rules' own bookkeeping (no `shown:`) or
    for a counter still at its start (there is nothing to tell)."""
    counter = declared.get(name)
    if counter is None or not counter.shown or value == counter.start:
        return []
    said = counter.names[value] if 0 <= value < len(counter.names) else value
    return [f"{whose}{counter.shown} {said}"]


def _index(answer: str, labels) -> int | None:
    """The option a typed answer picks: its number, or its label; None for anything else
    (int() refuses '²' and numbers thousands of digits long, which isdigit() lets through)."""
    try:
        number = int(answer)
    except ValueError:
        number = 0
    if 1 <= number <= len(labels):
        return number - 1
    return labels.index(answer) if answer in labels else None


def describe_pile(cards, wording=None) -> str:
    """A zone's cards (observation.Seen) in words: those the seat sees, then how many it cannot."""
    shown = [describe(card, wording) for card in cards if card.card is not None or card.marks]
    hidden = sum(1 for card in cards if card.card is None and not card.marks)
    if hidden:
        shown.append(f"{hidden} card{'s' if hidden > 1 else ''} you cannot see")
    return "; ".join(shown)


def describe(seen, wording=None) -> str:
    """A card as it lies: its face-up side's name and printed attributes (its effects as the
    card prints them, given the game's `wording`), and its marks (each copy its own: two copies
    of a card may lie on different sides, with different marks). A card the seat cannot see
    shows its marks alone."""
    card, marks = seen.card, [f"{name} {_printed(value)}" for name, value in seen.marks.items()]
    if card is None:
        return f"a card you cannot see [{', '.join(marks)}]"
    side = card.sides[seen.side]
    parts = [
        attribute_line(name, value, wording)
        if wording and isinstance(value, Node)
        else f"{name}: {side.text[name]}"
        if name in side.text
        else f"{name} {_printed(value)}"
        for name, value in side.attributes.items()
    ] + marks
    label = f"{side.name or card.id}" + (f" ({side.side})" if len(card.sides) > 1 else "")
    return f"{label} [{', '.join(parts)}]" if parts else label


def _printed(value) -> str:
    """An attribute's value in words: a set or a list of numbers joined by slashes; a rule
    without its source text (none is printed on the bundled cards) by its primitive's name."""
    if isinstance(value, (tuple, list, set, frozenset)):
        return "/".join(map(_printed, value)) or "(none)"
    if isinstance(value, Node):
        return f"({value.op})"
    return str(value)


def changes(before: dict, after: dict) -> list[str]:
    """What this seat could see change since its last decision (zones by label, cards by id or ?)."""
    if not before:
        return []
    lines = []
    for label in sorted(set(before) | set(after)):
        old, new = before.get(label, []), after.get(label, [])
        added = [c for c in new if c != "?" and c not in old]
        gone = [c for c in old if c != "?" and c not in new]
        if added:
            lines.append(f"{label}: now has {', '.join(added)}")
        if gone:
            lines.append(f"{label}: no longer has {', '.join(gone)}")
        if new.count("?") != old.count("?"):
            lines.append(f"{label}: {old.count('?')} -> {new.count('?')} unseen cards")
    return lines
