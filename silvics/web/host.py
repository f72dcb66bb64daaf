"""A game hosted for people at browsers: who may do what, and the game moving on.

Each person's seat has a secret key (`secrets.token_urlsafe`), the whole of their link; at a
hot-seat table one key serves every person, and the screen shows one seat at a time, handed
over behind a "pass to P2" screen. Every request names the decision it answers (the number of
decisions made when its page was drawn): an answer to a question already answered, or not put
to that seat, is refused and changes nothing. The save file, when there is one, is rewritten
after every change, keys included, so a restarted server goes on with the same links.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from silvics import saves
from silvics.compiler.english import Wording
from silvics.human import Naming
from silvics.story import Asker, Chronicle, headings_only
from silvics.why import why

HOTSEAT = "hotseat"  # the key name of the one link a hot-seat table has
STORY = 60  # the story's last lines on a page


class Refusal(Exception):
    """A request that cannot be done, and why, in words for the person who made it."""


class Table:
    """One game, its seats and their keys. Not thread-safe: the server calls it under one lock."""

    def __init__(self, rules, save: saves.Save, game, path: Path | None, hotseat: bool = False):
        self.rules, self.save, self.game, self.path = rules, save, game, path
        self.people = [seat for seat, plays in enumerate(save.seats) if plays.agent == saves.PERSON]
        self.hotseat = HOTSEAT in save.keys if save.keys else hotseat  # a saved table as it was served
        self.keys = dict(save.keys) or _new_keys(self.people, self.hotseat)
        save.keys = self.keys
        self.bots = {
            seat: saves.bot(plays, seat)
            for seat, plays in enumerate(save.seats)
            if plays.agent != saves.PERSON
        }
        self.wording = Wording(self.rules.vocabulary)
        self.asker = Asker(self.rules, self.wording)
        self.naming = {seat: Naming(self.rules, seat) for seat in range(save.players)}
        self.stories = {seat: Chronicle(self.rules, save, [seat]) for seat in self.people}
        self.facing: int | None = None  # hot seat: the person whose view the screen shows (None: handed over)
        self.version = 0  # counts the changes: the pages are told of each
        self.said: dict[int, list[str]] = {}  # seat -> the answer to its last undo or "why not?"
        self._told: dict[int, tuple[list[int], list[str]]] = {}  # seat -> (the choices, its story then)

    # ---- who is asking ----
    def seats_of(self, key: str) -> list[int] | None:
        """The seats a key opens (every person's, for the hot-seat key); None for no key of ours."""
        for name, secret in self.keys.items():
            if secrets.compare_digest(secret.encode(), key.encode()):
                return list(self.people) if name == HOTSEAT else [int(name[1:]) - 1]
        return None

    def seat_shown(self, seats: list[int]) -> int | None:
        """The seat whose view a key's page shows: its own; at a hot seat, the person facing the
        screen, or None while it is being handed over to the next person to decide."""
        if not self.hotseat:
            return seats[0]
        asked = self.asked_person()
        if asked is not None and asked != self.facing:
            return None
        return self.facing if self.facing is not None else self.people[0]

    def asked_person(self) -> int | None:
        """The person the game waits on, if it waits on a person."""
        pending = self.game.pending
        return pending.seat if pending is not None and pending.seat in self.people else None

    # ---- what people do ----
    def choose(self, seat: int, decision: int, option: int) -> None:
        """`seat` answers the question it was shown at `decision` with `option` (from 0)."""
        self._check_asked(seat, decision)
        options = len(self.game.pending.options)
        if not 0 <= option < options:
            raise Refusal(f"there is no option {option + 1}: this question has {options}")
        self.game.apply(option)
        self.said.pop(seat, None)
        self._changed()

    def undo(self, seat: int, decision: int) -> None:
        """Go back to `seat`'s previous decision, or say why it cannot (saves.went_back)."""
        self._check_current(decision)
        try:
            self.game = saves.went_back(self.rules, self.save, self.game, seat)
        except saves.CannotUndo as refusal:
            self.said[seat] = [str(refusal)]
        else:
            self.said[seat] = ["Went back to your previous decision."]
            if self.hotseat:
                self.facing = seat
        self._changed()

    def why(self, seat: int, name: str) -> None:
        """Why NAME is not offered to `seat` now (silvics why), kept to show on its page."""
        if not name.strip():
            raise Refusal("why what? name a card, a step of the rules or an option")
        self.said[seat] = [f"Why not {name.strip()}?", *why(self.game, seat, name.strip(), self.wording)]
        self._changed(saved=False)

    def hand_over(self, seat: int) -> None:
        """Hot seat: the person the game waits on has the screen now."""
        if not self.hotseat:
            raise Refusal("this table has a screen for each person: there is nothing to hand over")
        if self.asked_person() != seat:
            raise Refusal(f"the game is not waiting on P{seat + 1}")
        self.facing = seat
        self._changed(saved=False)

    # ---- the bots ----
    def bot_to_play(self) -> int | None:
        """The bot the game waits on, if any."""
        pending = self.game.pending
        return pending.seat if pending is not None and pending.seat in self.bots else None

    def bot_choice(self, seat: int, trial) -> int:
        """What the bot of `seat` answers on `trial` (a copy of the game: it may think at length
        while people read the table)."""
        return self.bots[seat].choose(trial.observe(seat))

    def play_bot(self, seat: int, decision: int, option: int) -> bool:
        """The bot's answer, if the game is still where it thought (nobody went back meanwhile)."""
        if self.bot_to_play() != seat or len(self.game.state.choices) != decision:
            return False
        self.game.apply(option)
        self._changed()
        return True

    # ---- keeping it ----
    def _check_current(self, decision: int):
        made = len(self.game.state.choices)
        if decision != made:
            raise Refusal("the game has moved on since your page was drawn: it shows the table as it is now")

    def _check_asked(self, seat: int, decision: int):
        self._check_current(decision)
        pending = self.game.pending
        if pending is None:
            raise Refusal("the game is over")
        if pending.seat != seat:
            raise Refusal(f"it is P{pending.seat + 1}'s decision, not yours")

    def _changed(self, saved: bool = True):
        self.version += 1
        if saved:
            self.write()

    def write(self):
        """Rewrite the save file (the bots' generators, the choices, the keys)."""
        if self.path is None:
            return
        for seat, bot in self.bots.items():
            self.save.seats[seat].generator = saves.generator_text(bot.rng)
        self.save.choices = self.game.state.choices
        saves.write_file(self.path, saves.dumps(self.save))

    def story(self, seat: int) -> list[str]:
        """The story so far, as `seat` saw it: its last STORY lines (told again only once the
        game has moved)."""
        choices = self.game.state.choices
        told = self._told.get(seat)
        if told is None or told[0] != choices:
            chronicle = self.stories[seat]
            chronicle.follow(choices)
            lines = chronicle.teller.lines(final=self.game.over)[-STORY:]
            told = self._told[seat] = (list(choices), [] if headings_only(lines) else lines)
        return told[1]


def _new_keys(people: list[int], hotseat: bool) -> dict[str, str]:
    if hotseat:
        return {HOTSEAT: secrets.token_urlsafe(24)}
    return {f"P{seat + 1}": secrets.token_urlsafe(24) for seat in people}
