"""Tables served for the tests of `silvics serve` (test_serve, test_table_browser): a game set up
as the command sets it up, and what each seat may know, to catch a page telling more."""
from __future__ import annotations

import re
import threading
import time
from contextlib import contextmanager

import pytest

pytest.importorskip("starlette", reason="silvics serve needs the web extra: pip install -e '.[web]'")

from silvics import games, saves  # noqa: E402
from silvics.human import Naming  # noqa: E402
from silvics.interpreter.views import visible  # noqa: E402
from silvics.web.host import Table  # noqa: E402

PLAYERS = {"four-forests": 2, "reforest": 2, "forest-shuffle": 2, "renature": 2}


def new_table(game_id: str, people=(1,), seed: int = 1, path=None, hotseat: bool = False, agents="random",
              players: int = 2, modules=()) -> Table:
    """A table as `silvics serve GAME --human … [--module M]` sets one up."""
    rules = games.load(game_id)
    names = [saves.PERSON if seat + 1 in people else agents for seat in range(players)]
    save = saves.new(rules, game_id, players, seed, list(modules), {}, names, path is not None)
    table = Table(rules, save, saves.started(rules, save), path, hotseat=hotseat)
    table.write()
    return table


def resumed(path, hotseat: bool = False) -> Table:
    """The table a server restarted with --resume serves."""
    rules, save = saves.load(path)
    return Table(rules, save, saves.replay(rules, save, path), path, hotseat=hotseat)


class Secrets:
    """The printed names of the cards each seat has never seen, as the game goes on (looked at
    after every action of the rules: a card turned up and discarded at once was seen): a page for
    that seat may name none of them (a name it has seen may stay in its story)."""

    def __init__(self, table: Table):
        self.table = table
        cards = table.game.rules.defs
        self.names = {uid: self._names(card) for uid, card in enumerate(cards)}
        self.every = {name for names in self.names.values() for name in names}
        self.seen: dict[int, set[str]] = {seat: set() for seat in range(table.game.state.players)}
        # the cards whose names a seat has not all seen yet (once seen, a name stays seen)
        self.unseen = {seat: list(self.names) for seat in self.seen}
        self.hidden: dict[int, tuple] = {}   # seat -> (the size of what it has seen, the names hidden, their pattern)
        table.game.on_step = lambda game: self.update()
        self.update()

    def _names(self, card) -> set[str]:
        naming = Naming(self.table.rules, 0)
        return {naming.printed(card.id), *(side.name for side in card.sides if side.name)}

    def update(self):
        game = self.table.game
        for seat, seen in self.seen.items():
            for uid in self.unseen[seat]:
                if visible(game, seat, uid):
                    seen |= self.names[uid]
            self.unseen[seat] = [uid for uid in self.unseen[seat] if not self.names[uid] <= seen]

    def hidden_from(self, seat: int) -> set[str]:
        """The names no card this seat has seen bears (copies share a name)."""
        return self._hidden(seat)[1]

    def _hidden(self, seat: int) -> tuple[int, set[str], re.Pattern | None]:
        """The names hidden from `seat`, and a pattern finding them as words (the longest first:
        "Oak / Ivy" before "Oak"), worked out again only once the seat has seen more."""
        seen = self.seen[seat]
        if seat not in self.hidden or self.hidden[seat][0] != len(seen):
            hidden = {name for name in self.every - seen if not any(name in s for s in seen)}  # "Toad" of "Toad / Fireflies"
            words = "|".join(map(re.escape, sorted(hidden, key=len, reverse=True)))
            self.hidden[seat] = (len(seen), hidden, re.compile(rf"\b(?:{words})\b") if words else None)
        return self.hidden[seat]

    def leaked(self, seat: int, text: str) -> list[str]:
        """The names of cards `seat` never saw that `text` holds as words (one scan of the text)."""
        pattern = self._hidden(seat)[2]
        return [] if pattern is None else sorted(set(pattern.findall(text)))


@contextmanager
def served(table: Table, pace: float = 0.0, port: int = 0):
    """The table served by uvicorn on a free port of 127.0.0.1, in a thread: its base URL."""
    import socket

    from silvics.web.app import serving

    if not port:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
    server = serving(table, pace, "127.0.0.1", port)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def wait_for_person(table: Table, seconds: float = 60) -> None:
    """Until the game is over or waits on a person (the bots play meanwhile)."""
    deadline = time.monotonic() + seconds
    while not table.game.over and table.bot_to_play() is not None:
        assert time.monotonic() < deadline, "the bots did not play"
        time.sleep(0.005)
