"""Saved games: a game at any decision as versioned JSON, resumed, replayed or taken back.

A save holds what decides a game, never the engine's frames: where its rules come from and
their fingerprint, the player count, the seed, the modules, each seat's agent, and the option
taken at each decision so far (the engine's `state.choices`). The engine is deterministic,
so replaying the choices in a new game rebuilds the table exactly. A bot draws on a random
generator of its own, so its seat also records the generator's state: a resumed bot goes on
drawing where it stopped, without thinking again over the moves already made (that would
cost a Monte Carlo seat its whole thinking time so far: about 24 s for a Reforest game).

A `Session` plays a game at the command line: it asks each seat's agent in turn, and with a
save file rewrites it after every decision (so a game stopped at any moment, by Ctrl-C or a
crash, resumes from its last decision), and lets a person take a decision back (`undo`).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import re
import struct
from dataclasses import dataclass, field, replace
from pathlib import Path

from silvics import bundled, games, pace
from silvics.compiler.english import Wording
from silvics.errors import UsageError
from silvics.human import HumanAgent, Naming
from silvics.interpreter import ir as ir_module
from silvics.interpreter.agents import AGENTS, agent_known, agent_seed, build_agent
from silvics.interpreter.game import Game, SetupError
from silvics.interpreter.runtime import Choice
from silvics.interpreter.views import visible
from silvics.screen import Screen
from silvics.story import Asker, Chronicle
from silvics.why import why

FORMAT, VERSION = "silvics save", 1
PERSON = "human"  # the agent name of a seat a person plays
_WORDS = 625  # a random.Random's state: 624 words and a position


class SaveError(UsageError):
    """A save file that cannot be used (misuse, exit status 2); says why in one line."""


@dataclass
class Seat:
    agent: str  # an agent's name (agents.build_agent), or PERSON
    seed: int | None = None  # a bot's agent_seed: it was made as build_agent(agent, seed, seat)
    generator: str | None = None  # a bot's: its random generator's state when saved (base64)


@dataclass
class Save:
    game: str  # where the rules are: a bundled game's id, or a file's absolute path
    id: str  # the game's id and name, to say what a save is of
    name: str
    rules: str  # fingerprint(rules, modules)
    players: int
    seed: int
    modules: list[str]
    options: dict[str, str]  # the setup options chosen (name -> value)
    seats: list[Seat]
    choices: list[int] = field(default_factory=list)
    keys: dict[str, str] = field(default_factory=dict)  # a served game's links: P1 (or hotseat) -> key


_OPTIONAL = {"keys": dict}  # fields a save has only when used (a game played at the terminal has no keys)


STRATEGY_NAME = re.compile(
    r"[a-z][a-z0-9_-]{0,63}"
)  # a strategy's name, checked against the game's once loaded


# ---- the rules' fingerprint -----------------------------------------------------------------


def fingerprint(rules: ir_module.GameIR, modules) -> str:
    """SHA-256 of the rules in force: the compiled IR with the modules switched on layered in,
    the others left out. Source positions are blanked: a comment or a moved rule changes no
    play, and the same files compile to the same IR wherever they lie."""
    text = ir_module.dumps(replace(rules.with_modules(modules), modules={}))
    return hashlib.sha256(re.sub(r'\{"@":"[^"]*"\}', "{}", text).encode()).hexdigest()


def source(spec: str) -> str:
    """How a save names the game a command line named: a bundled id as it is, anything else
    (a folder, game.yaml, pack.yaml, an IR file) by its absolute path."""
    return spec if spec in bundled.games() else str(games.game_path(spec).absolute())


# ---- reading and writing ------------------------------------------------------------------


def read(path: Path) -> Save:
    """The save in a file, its every field checked (a save file is untrusted input)."""
    from silvics.compiler.files import Refused, read_bounded

    try:
        if path.is_dir():
            raise SaveError(f"{path} is a folder, not a save file")
        text = read_bounded(path)
    except FileNotFoundError:
        raise SaveError(f"no such file: {path}") from None
    except OSError as error:
        raise SaveError(f"{path} cannot be read: {error.strerror}") from None
    except Refused as refused:  # not a regular file, or too large
        raise SaveError(f"{path}: {refused.message}") from None
    except UnicodeDecodeError:
        raise SaveError(f"{path} is not a silvics save: not UTF-8 text") from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise SaveError(f"{path} is not a silvics save: not JSON (nested too deeply)") from None
    except ValueError as error:  # JSONDecodeError, or a number of thousands of digits
        raise SaveError(f"{path} is not a silvics save: not JSON ({error})") from None
    try:
        return _decoded(data)
    except ValueError as error:
        raise SaveError(f"{path} {error}") from None


_FIELDS = {
    "format": str,
    "version": int,
    "game": str,
    "id": str,
    "name": str,
    "rules": str,
    "players": int,
    "seed": int,
    "modules": list,
    "options": dict,
    "seats": list,
    "choices": list,
}
_SEAT_FIELDS = {"agent": str, "seed": int, "generator": str}


def _decoded(data) -> Save:
    """The Save in decoded JSON; ValueError naming the first problem (the version first: a
    save of another version may differ in any other way)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f'is not a silvics save (it has no "format": "{FORMAT}")')
    if data.get("version") != VERSION or type(data.get("version")) is not int:
        raise ValueError(f"is a version {data.get('version')!r} save; this silvics reads version {VERSION}")
    _check_fields(data, _FIELDS, "", "saves do not have", _OPTIONAL)
    if not data["game"]:
        raise ValueError("names no game")
    for number, value in enumerate(data["modules"]):
        _check(value, str, f"modules[{number}]")
    for name, value in data["options"].items():
        _check(value, str, f"options.{name}")
    for number, value in enumerate(data["choices"]):
        _check(value, int, f"choices[{number}]")
    for name, value in data.get("keys", {}).items():
        _check(value, str, f"keys.{name}")
    seats = [_seat(value, number) for number, value in enumerate(data["seats"])]
    if len(seats) != data["players"]:
        raise ValueError(f"has {len(seats)} seat{'s' * (len(seats) != 1)} for {data['players']} players")
    kept = (key for key in (*_FIELDS, *_OPTIONAL) if key not in ("format", "version"))
    recorded = {key: data[key] for key in kept if key in data}
    return Save(**{**recorded, "seats": seats})


def _seat(value, number: int) -> Seat:
    where = f"seats[{number}]"
    _check(value, dict, where)
    if value.get("agent") == PERSON:
        _check_fields(value, {"agent": str}, where, "a person's seat does not have")
        return Seat(PERSON)
    _check_fields(value, _SEAT_FIELDS, where, "seats do not have")
    if not agent_known(str(value["agent"])) and not STRATEGY_NAME.fullmatch(str(value["agent"])):
        raise ValueError(
            f"is not usable: seat {number + 1} is played by {value['agent']!r}, "
            f"which is not one of {', '.join([*AGENTS, PERSON])} or a strategy of the game"
        )
    _words(value["generator"], where)
    return Seat(**value)


def _check_fields(data: dict, shapes: dict, where: str, unknown: str, optional: dict | None = None):
    """Every field of `shapes` present and of its type, those of `optional` of theirs where
    present, and no other (`unknown` says so)."""
    prefix = f"{where} " if where else ""
    for key in shapes:
        if key not in data:
            raise ValueError(f'{prefix}has no "{key}"')
    known = {**shapes, **(optional or {})}
    for key, value in data.items():
        if key not in known:
            raise ValueError(f'{prefix}has a field "{key}" that {unknown}')
        _check(value, known[key], f"{where}.{key}" if where else key)


_NAMES = {str: "a string", int: "a whole number", list: "a list", dict: "an object"}


def _check(value, shape: type, where: str):
    """`value` is of JSON type `shape` (a whole number is never a bool, a fraction or NaN)."""
    if type(value) is not shape:
        raise ValueError(f"is not usable: {where} must be {_NAMES[shape]}")


def _words(generator: str, where: str) -> tuple:
    """The state a seat's generator text stands for: 625 words, the last a position up to 624."""
    try:
        words = struct.unpack(f"<{_WORDS}I", base64.b64decode(generator, validate=True))
    except (ValueError, struct.error):
        words = ()
    if not words or words[-1] > _WORDS - 1:
        raise ValueError(f"is not usable: {where}.generator is not a random generator's state")
    return words


def dumps(save: Save) -> str:
    """The save as JSON text, a field a line."""
    data = {"format": FORMAT, "version": VERSION, **vars(save)}
    if not save.keys:
        del data["keys"]
    data["seats"] = [
        {key: value for key, value in vars(seat).items() if value is not None} for seat in save.seats
    ]
    return (
        "{\n"
        + ",\n".join(f" {json.dumps(key)}: {json.dumps(value)}" for key, value in data.items())
        + "\n}\n"
    )


def check_replaceable(path: Path):
    """Refuse to save over anything but a silvics save or an empty file: the save is renamed
    into place, so a game's game.yaml, a device or a FIFO there would be lost."""
    if not os.path.lexists(path) or (path.is_file() and path.stat().st_size == 0):
        return
    try:
        read(path)
    except SaveError:
        raise SaveError(
            f"cannot write {path}: it is not a silvics save (--save replaces a save, nothing else)"
        ) from None


def write_file(path: Path, content: str):
    """Replace the file at once (written beside it, then renamed): a game stopped while saving
    leaves the previous save whole."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(content, encoding="utf-8")
        os.replace(temporary, path)
    except OSError as error:
        raise SaveError(f"cannot write {path}: {error.strerror}") from None
    finally:
        with contextlib.suppress(OSError):
            temporary.unlink(missing_ok=True)  # there only if the write failed or was stopped


# ---- the rules a save is of, and the game it holds ---------------------------------------------


def load(path: Path, spec: str | None = None, use_cache: bool = True) -> tuple[ir_module.GameIR, Save]:
    """A save and its rules (from `spec`, a game as the command line names one, or else from
    where the save says), checked to be the very rules it was played with."""
    save = read(path)
    try:
        rules = games.load(spec or save.game, use_cache=use_cache)
    except games.GameNotFound as error:
        if spec:
            raise
        raise SaveError(f"{path} is a save of a game that cannot be found: {error}") from None
    if rules.id != save.id:
        raise SaveError(f"{path} is a save of {save.name} ({save.id}), not of {rules.name} ({rules.id})")
    unknown = [name for name in save.modules if name not in rules.modules]
    if unknown:
        raise SaveError(
            f"{path} is not usable: unknown module {unknown[0]!r}; {rules.name} has: "
            f"{', '.join(rules.modules) or 'none'}"
        )
    try:
        rules.settings(rules.checked_modules(save.modules), save.options)
    except SetupError as error:
        raise SaveError(f"{path} is not usable: {error}") from None
    strangers = [
        (n, seat.agent)
        for n, seat in enumerate(save.seats, 1)
        if seat.agent != PERSON and not agent_known(seat.agent, rules.strategies)
    ]
    if strangers:
        raise SaveError(
            f"{path} is not usable: seat {strangers[0][0]} is played by {strangers[0][1]!r}, which is "
            f"not one of {', '.join([*AGENTS, PERSON, *rules.strategies])}"
        )
    low, high = rules.player_range(save.modules)
    if not low <= save.players <= high:
        raise SaveError(
            f"{path} is not usable: {rules.name} is for {low} to {high} players, not {save.players}"
        )
    if fingerprint(rules, save.modules) != save.rules:
        raise SaveError(
            f"{path}: the rules of {rules.name} have changed since this game was saved; "
            "it can be resumed or replayed only with the rules it was played with"
        )
    return rules, save


def replay(rules: ir_module.GameIR, save: Save, path: Path | str = "the save") -> Game:
    """The game after the save's choices, each checked against the options it was taken from."""
    game = started(rules, save)
    for number, index in enumerate(save.choices, 1):
        if game.over:
            raise SaveError(
                f"{path} is not usable: the game is over after {number - 1} decisions, "
                f"but the save has {len(save.choices)}"
            )
        options = len(_asked(game).options)
        if not 0 <= index < options:
            raise SaveError(
                f"{path} is not usable: decision {number} has {options} options, "
                f"but the save took option {index}"
            )
        game.apply(index)
    return game


def started(rules, save: Save) -> Game:
    return Game(rules, save.players, save.seed, save.modules, options=save.options)


# ---- a game played at the command line --------------------------------------------------------


def new(rules, spec: str, players: int, seed: int, modules, options: dict, names, kept: bool) -> Save:
    """The save of a new game: `names` holds each seat's agent (PERSON for a person), `spec`
    where the rules come from; `kept`: it will be written to a file (with the rules' fingerprint)."""
    seats = [
        Seat(PERSON) if name == PERSON else Seat(name, agent_seed(seed, number))
        for number, name in enumerate(names)
    ]
    printed = fingerprint(rules, modules) if kept else ""  # read only from a save file
    return Save(
        source(spec), rules.id, rules.name, printed, players, seed, list(modules), dict(options), seats
    )


class WentBack(Exception):
    """Raised through a person's prompt once the game has gone back to an earlier decision."""


class Session:
    """A game between agents (and people) that keeps its save file up to date."""

    def __init__(self, rules, save: Save, path: Path | None, game: Game, terminal=None):
        self.rules, self.save, self.path, self.game = rules, save, path, game
        read, write = terminal or (None, None)
        wording = Wording(rules.vocabulary)
        people = sum(seat.agent == PERSON for seat in save.seats)
        table: dict | None = {} if people > 1 else None  # people sharing one screen: hot seat
        asker = Asker(rules, wording) if people else None
        # the story as it goes, told for the people at the table
        people_seats = [number for number, seat in enumerate(save.seats) if seat.agent == PERSON]
        self.chronicle = Chronicle(rules, save, people_seats) if people else None
        self.agents = [
            HumanAgent(
                number,
                read,
                write,
                undo=self.undo,
                wording=wording,
                table=table,
                asker=asker,
                why=lambda seat, name: why(self.game, seat, name, wording),
                counters={counter.name: counter for counter in rules.counters},
                naming=(naming := Naming(rules, number)),
                screen=Screen(rules, number, naming, wording),
                since=lambda seat: self._since(seat),
            )
            if seat.agent == PERSON
            else bot(seat, number)
            for number, seat in enumerate(save.seats)
        ]

    def _since(self, seat: int) -> list[str]:
        assert self.chronicle is not None, "a person is at the table"
        return self.chronicle.since(seat, self.game.state.choices)

    @classmethod
    def new(
        cls,
        rules,
        spec: str,
        players: int,
        seed: int,
        modules,
        options: dict,
        names,
        path: Path | None = None,
        terminal=None,
    ) -> Session:
        """A new game: `names` holds each seat's agent (PERSON for a person), `spec` where the
        rules come from, `terminal` the people's (read, write), by default the console."""
        save = new(rules, spec, players, seed, modules, options, names, path is not None)
        return cls(rules, save, path, started(rules, save), terminal)

    def play(self) -> Game:
        """Play on to the end of the game, saving after each decision (and before the first,
        so a file that cannot be written stops the game before anyone has played)."""
        if self.path is not None:
            check_replaceable(self.path)
        self.write()
        pace.announce_game(self.game, [seat.agent for seat in self.save.seats])  # a long game is said
        while not self.game.over:
            seat = _asked(self.game).seat
            try:
                index = self.agents[seat].choose(self.game.observe(seat))
            except WentBack:
                continue
            self.game.apply(index)
            self.write()
        return self.game

    def write(self):
        if self.path is None:
            return
        for seat, agent in zip(self.save.seats, self.agents):
            if not isinstance(agent, HumanAgent):
                seat.generator = generator_text(agent.rng)
        self.save.choices = self.game.state.choices
        write_file(self.path, dumps(self.save))

    def undo(self, seat: int) -> str:
        """Go back to `seat`'s previous decision (raises WentBack), or say why it cannot
        (went_back)."""
        try:
            self.game = went_back(self.rules, self.save, self.game, seat)
        except CannotUndo as refusal:
            return str(refusal)
        self.write()
        self.agents[seat].write("  went back to your previous decision")
        raise WentBack


class CannotUndo(Exception):
    """Why a seat cannot go back to its previous decision, in words."""


def went_back(rules, save: Save, game: Game, seat: int) -> Game:
    """The game at `seat`'s previous decision, rebuilt by replaying the choices up to it; or
    CannotUndo: nothing before, another person has decided since, or the seat has seen a card
    it could not see then (a draw cannot be taken back). The bots' generators are not wound
    back: they may answer differently."""
    choices = game.state.choices
    replayed, earlier, deciders = started(rules, save), None, []
    for number, index in enumerate(choices):
        asked = _asked(replayed)
        if asked.seat == seat:
            earlier = (number, replayed.copy())
        deciders.append(asked.seat)
        replayed.apply(index)
    if earlier is None:
        raise CannotUndo("nothing to undo: this is your first decision")
    number, then = earlier
    since = deciders[number:]
    people = sorted({other for other in since if other != seat and save.seats[other].agent == PERSON})
    if people:
        raise CannotUndo(f"cannot undo: P{people[0] + 1} has decided since your previous decision")
    seen = sum(
        visible(game, seat, uid) and not visible(then, seat, uid) for uid in range(len(game.state.location))
    )
    if seen:
        raise CannotUndo(
            f"cannot undo: you have seen {seen} card{'s' * (seen > 1)} since your previous decision "
            "(what is revealed cannot be taken back)"
        )
    return then


def resume(
    path: Path, spec: str | None = None, use_cache: bool = True, save_to: Path | None = None, terminal=None
) -> Session:
    """The session of a saved game, at its last decision; it goes on saving to `save_to`,
    or else to the file it was resumed from."""
    rules, save = load(Path(path), spec, use_cache)
    game = replay(rules, save, path)
    return Session(rules, save, Path(save_to or path), game, terminal)


def _asked(game: Game) -> Choice:
    """The choice a game that is not over waits on (one is always pending between decisions)."""
    assert game.pending is not None, "a game not over waits on a choice"
    return game.pending


def bot(seat: Seat, number: int):
    assert seat.seed is not None, "a bot's seat records the seed its agent was made with"
    agent = build_agent(seat.agent, seat.seed, number)
    if seat.generator is not None:
        agent.rng.setstate((3, _words(seat.generator, "generator"), None))  # 3: random.Random's VERSION
    return agent


def generator_text(rng) -> str:
    """A generator's state as text (the Gaussian spare, which no agent draws, is left out)."""
    return base64.b64encode(struct.pack(f"<{_WORDS}I", *rng.getstate()[1])).decode()
