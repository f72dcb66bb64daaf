"""A person at the terminal: sees their seat's view (what changed since their last turn,
then every zone they can see), and picks from numbered legal options."""
from __future__ import annotations

import sys

from silvics.interpreter.ir import Node
from silvics.interpreter.views import view


class HumanAgent:
    name = "human"

    def __init__(self, seat: int, read=None, write=None, undo=None):
        self.seat = seat
        self.read = read or (lambda prompt: input(prompt))
        self.write = write or print
        self.undo = undo      # undo(seat) goes back to this seat's previous decision, or says why not
        self.last: dict[str, list[str]] = {}

    def choose(self, game, choice) -> int:
        seen = view(game, self.seat)
        self.write(f"\n--- P{self.seat + 1}, your turn: {choice.prompt} ---")
        for line in changes(game, self.last, seen):
            self.write(f"  * {line}")
        self.last = seen
        for key, cards in seen.items():
            self.write(f"  {game.zone_label(key):<20} {describe_pile(game, key, cards)}")
        for number, label in enumerate(choice.labels, 1):
            self.write(f"  [{number}] {label}")
        while True:
            try:
                answer = self.read(f"P{self.seat + 1} > ").strip()
            except EOFError:
                sys.exit("no more input: game abandoned")
            if answer == "undo" and self.undo:
                self.write(f"  {self.undo(self.seat)}")      # returns only when it cannot go back
                continue
            index = _index(answer, choice)
            if index is not None:
                return index
            self.write(f"  type a number from 1 to {len(choice.options)}" + (", or undo" if self.undo else ""))


def _index(answer: str, choice) -> int | None:
    """The option a typed answer picks: its number, or its label; None for anything else
    (int() refuses '²' and numbers thousands of digits long, which isdigit() lets through)."""
    try:
        number = int(answer)
    except ValueError:
        number = 0
    if 1 <= number <= len(choice.options):
        return number - 1
    return choice.labels.index(answer) if answer in choice.labels else None


def describe_pile(game, key: str, cards: list[str]) -> str:
    hidden = cards.count("?")
    uids = game.state.zones[key]             # the view lists this zone's cards in the same order
    shown = [describe(game, uid) for uid, card in zip(uids, cards) if card != "?"]
    if hidden:
        shown.append(f"{hidden} card{'s' if hidden > 1 else ''} you cannot see")
    return "; ".join(shown)


def describe(game, uid: int) -> str:
    """A card as it lies: its face-up side's name and printed attributes, and its marks (each
    copy its own: two copies of a card may lie on different sides, with different marks)."""
    card = game.rules.defs[uid]
    side = card.sides[game.state.side[uid]]
    parts = [f"{name}: {side.text[name]}" if name in side.text else f"{name} {_printed(value)}"
             for name, value in side.attributes.items()]
    marks = game.state.marks[uid] or {}
    parts += [f"{name} {_printed(value)}" for name, value in marks.items() if not name.startswith("_")]
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


def changes(game, before: dict, after: dict) -> list[str]:
    """What this seat could see change since its last decision."""
    if not before:
        return []
    lines = []
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key, []), after.get(key, [])
        added = [c for c in new if c != "?" and c not in old]
        gone = [c for c in old if c != "?" and c not in new]
        label = game.zone_label(key)
        if added:
            lines.append(f"{label}: now has {', '.join(added)}")
        if gone:
            lines.append(f"{label}: no longer has {', '.join(gone)}")
        if new.count("?") != old.count("?"):
            lines.append(f"{label}: {old.count('?')} -> {new.count('?')} unseen cards")
    return lines
