"""A person at the terminal: sees their seat's view (what changed since their last turn,
then every zone they can see), and picks from numbered legal options."""
from __future__ import annotations

import sys

from silvics.interpreter.views import view


class HumanAgent:
    name = "human"

    def __init__(self, seat: int, read=None, write=None):
        self.seat = seat
        self.read = read or (lambda prompt: input(prompt))
        self.write = write or print
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
            if answer.isdigit() and 1 <= int(answer) <= len(choice.options):
                return int(answer) - 1
            if answer in choice.labels:
                return choice.labels.index(answer)
            self.write(f"  type a number from 1 to {len(choice.options)}")


def describe_pile(game, key: str, cards: list[str]) -> str:
    hidden = cards.count("?")
    shown = [describe(game, key, card) for card in cards if card != "?"]
    if hidden:
        shown.append(f"{hidden} card{'s' if hidden > 1 else ''} you cannot see")
    return "; ".join(shown)


def describe(game, key: str, card_id: str) -> str:
    """A card as it lies in a zone: its face-up side's name and printed attributes."""
    uid = next(u for u in game.state.zones[key] if game.card_id(u) == card_id)
    card = game.rules.defs[uid]
    side = card.sides[game.state.side[uid]]
    parts = []
    for name, value in side.attributes.items():
        if name in side.text:
            parts.append(f"{name}: {side.text[name]}")
        else:
            parts.append(f"{name} {'/'.join(value) if isinstance(value, tuple) else value}")
    marks = game.state.marks[uid] or {}
    parts += [f"{name} {value}" for name, value in marks.items()]
    label = f"{side.name or card.id}" + (f" ({side.side})" if len(card.sides) > 1 else "")
    return f"{label} [{', '.join(parts)}]" if parts else label


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
