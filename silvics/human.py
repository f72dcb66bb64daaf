"""A person at the terminal: sees their seat's view, picks from numbered legal options."""
from __future__ import annotations

import sys

from silvics.interpreter.views import view


class HumanAgent:
    name = "human"

    def __init__(self, seat: int, read=None, write=None):
        self.seat = seat
        self.read = read or (lambda prompt: input(prompt))
        self.write = write or print

    def choose(self, game, choice) -> int:
        self.write(f"\n--- P{self.seat + 1}, your turn: {choice.prompt} ---")
        for label, cards in view(game, self.seat).items():
            self.write(f"  {game.zone_label(label):<22} {', '.join(self._describe(game, c) for c in cards)}")
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

    @staticmethod
    def _describe(game, card_id: str) -> str:
        return card_id
