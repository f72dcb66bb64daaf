"""Scenario files: given a state, these choices, expect this.

A scenario names a game and a player count, starts from a seed (the whole game) or a
described position (see position.py), scripts each seat's choices by option label, and
lists what must hold afterwards. `run_file` returns the failures; none means it passed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from silvics import games
from silvics.compiler.boards import SpaceAttribute, laid_out
from silvics.compiler.diagnostics import CompileError, Diagnostic, did_you_mean
from silvics.compiler.document import Document
from silvics.interpreter.agents import ScriptedAgent, ScriptExhausted, decide, make_agent
from silvics.interpreter.game import Game, GameError
from silvics.position import (
    PositionError,
    counter_from_label,
    find_card,
    place,
    seat_of_label,
    space_value,
    zone_from_label,
)


@dataclass
class Outcome:
    file: str
    name: str
    failures: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)  # the game's full log, once it ran
    choices: list[str] = field(default_factory=list)  # every choice taken: asked, or automatic

    @property
    def passed(self) -> bool:
        return not self.failures


def read(path: Path) -> Document:
    """A scenario or position file, schema-checked; raises CompileError with diagnostics."""
    diagnostics: list = []
    document = Document(Path(path), "scenario", diagnostics)
    if diagnostics:
        raise CompileError(diagnostics)
    return document


def build(document: Document, base: Path, use_cache: bool = True, overrides: dict | None = None) -> Game:
    """The game a scenario starts from: a position laid out, or a fresh game from its seed.
    `overrides` replace the file's own top-level fields (a command line's game or options)."""
    data = {**document.data, **(overrides or {})}
    ir = games.load(data["game"], base, use_cache)
    low, high = ir.player_range(data.get("modules", ()))
    if not low <= data["players"] <= high:
        raise PositionError(f"{ir.name} is for {low} to {high} players, not {data['players']}")
    if "maps" in data.get("position", {}):
        ir = ir.with_maps(inline_maps(document, ir))
    start = "position" not in data and "run" not in data
    game = Game(
        ir,
        data["players"],
        data.get("seed", 0),
        data.get("modules", ()),
        options=data.get("options"),
        start=start,
    )
    if "position" in data:
        place(game, data["position"])
    return game


def inline_maps(document: Document, ir) -> dict:
    """The small boards a position lays out (`position: {maps: {ZONE: {legend, rows}}}`), read like
    map files: checked against the game's declared space attributes, at their line and column."""
    grids = {zone.name for zone in ir.zones if zone.rows and zone.per != "card"}
    attributes = {a.name: SpaceAttribute(a, optional=True) for a in ir.spaces}
    diagnostics: list[Diagnostic] = []
    maps = {}
    for zone in document.data["position"]["maps"]:
        if zone not in grids:
            hint = did_you_mean(zone, grids) or f"its grids: {', '.join(sorted(grids)) or 'none'}"
            raise PositionError(f"'{zone}' is not a grid of {ir.name}; {hint}")
        maps[zone] = laid_out(document, ("position", "maps", zone), attributes, diagnostics)
    if diagnostics:
        raise CompileError(diagnostics)
    return maps


def run_file(path, use_cache: bool = True, options=None) -> Outcome:
    """Run one scenario file; `options` (name -> value) are chosen over the file's own."""
    path = Path(path)
    outcome = Outcome(str(path), path.stem)
    try:
        document = read(path)
        data = document.data
        if options:
            data = {**data, "options": {**data.get("options", {}), **options}}
        outcome.name = data.get("name", path.stem)
        game = build(
            document, path.parent, use_cache, {"options": data.get("options", {})} if options else None
        )
    except CompileError as error:
        outcome.failures.append(error.render())
        return outcome
    except GameError as error:  # a rule failed while a seeded game set itself up
        outcome.failures.append(str(error))
        return outcome
    except (PositionError, games.GameNotFound, KeyError, ValueError) as error:
        reason = error.args[0] if isinstance(error, KeyError) else error  # str() of a KeyError adds quotes
        outcome.failures.append(f"{path}: cannot set up: {reason}")
        return outcome
    expect = data.get("expect", {})
    game.on_choice = lambda _, seat, prompt, answer, asked, cards: outcome.choices.append(
        f"P{seat + 1} {prompt}: {answer}" + ("" if asked else "  (automatic: the only option)")
    )
    stopped = _play(game, data)  # the error the run stopped with, if any
    outcome.log = game.log
    if "error" in expect:
        if stopped is None or expect["error"] not in stopped:
            outcome.failures.append(f"expected an error containing {expect['error']!r}, got {stopped!r}")
    elif stopped:
        outcome.failures.append(stopped)
    outcome.failures.extend(check(game, expect))
    return outcome


def paused(document: Document, base: Path, use_cache: bool = True, overrides: dict | None = None) -> Game:
    """A scenario's game run with its scripted choices until it stops at a question none answers
    (as a scenario pinning `expect: choice` does); PositionError when it never stops at one."""
    game = build(document, base, use_cache, overrides)
    data = document.data
    stopped = _play(game, {**data, "expect": {**data.get("expect", {}), "choice": True}})
    if stopped is not None:
        raise PositionError(stopped)
    if game.pending is None:
        raise PositionError("its run ends without stopping at a question: nothing to ask why of")
    return game


def _play(game: Game, data: dict) -> str | None:
    """Run the scenario's procedures with its scripted choices; returns an error message or None.
    A choice nobody is scripted to answer stops the run there: a failure, unless expect.choice pins it
    (else a scenario whose rules ask a question they should not would pass unseen)."""
    seats = game.state.players
    choices = {str(seat): answers for seat, answers in data.get("choices", {}).items()}  # 1: and "1": alike
    unknown = sorted(set(choices) - {str(seat + 1) for seat in range(seats)})
    if unknown:
        return f"choices for seat {unknown[0]}, but the game has {seats} seats"
    scripted = [ScriptedAgent(choices.get(str(seat + 1), [])) for seat in range(seats)]
    fallback = (
        [make_agent("random", data.get("seed", 0), seat) for seat in range(seats)]
        if data.get("others") == "random"
        else None
    )
    procedures = data.get("run", ["scoring"] if "position" in data else [None])
    try:
        for name in procedures:
            if name:
                procedure, _, seat = name.partition("@")  # plant@2: seat 2 acts in plant
                game.start_procedure(procedure, seat_of_label(game, seat) if seat else None)
            if not _answer(game, scripted, fallback):
                if "choice" in data.get("expect", {}):
                    return None  # stopping at that question is the point
                pending = game.pending
                assert pending is not None  # _answer gives up only at a question
                return (
                    f"the run stopped at a question no scripted choice answers: P{pending.seat + 1} "
                    f"{pending.prompt} ({', '.join(pending.labels)}); script it, or pin it with expect.choice"
                )
    except PositionError as error:
        return f"run: {name}: {error}"
    except (GameError, ValueError, KeyError) as error:
        return error.args[0] if isinstance(error, KeyError) else str(error)
    unused = [f"P{seat + 1}: {agent.answers}" for seat, agent in enumerate(scripted) if agent.answers]
    return f"scripted choices never asked for: {'; '.join(unused)}" if unused else None


def _answer(game, scripted, fallback) -> bool:
    """Answer choices until the running procedure ends (True) or no one can answer (False)."""
    while game.pending:
        try:
            decide(game, scripted)
        except ScriptExhausted:
            if fallback is None:
                return False
            decide(game, fallback)
    return True


def check(game: Game, expect: dict) -> list[str]:
    """What does not hold, in words."""
    failures = []
    state = game.state

    def ids(key):
        return [game.card_id(uid) for uid in state.zones.get(key, [])]

    try:
        if "scores" in expect and state.scores != expect["scores"]:
            failures.append(f"scores: expected {expect['scores']}, got {state.scores}")
        for label, want in expect.get("zones", {}).items():
            got = ids(zone_from_label(game, label))
            if got != want:
                failures.append(f"{label}: expected {want}, got {got}")
        for label, want in expect.get("contains", {}).items():
            got = ids(zone_from_label(game, label))
            missing = [card for card in want if card not in got]
            if missing:
                failures.append(f"{label}: expected to contain {missing}, it holds {got}")
        for label, want in expect.get("counts", {}).items():
            got = len(state.zones.get(zone_from_label(game, label), []))
            if got != want:
                failures.append(f"{label}: expected {want} cards, got {got}")
        for card, marks in expect.get("marks", {}).items():
            uid = find_card(game, card)
            for name, want in marks.items():
                got = (state.marks[uid] or {}).get(name)
                if got != want:
                    failures.append(f"{card}.{name}: expected {want!r}, got {got!r}")
        for label, want in expect.get("spaces", {}).items():
            key = zone_from_label(game, label)
            for name, value in want.items():
                space_value(game, label, name, value)  # a value the rules could give it
                got = game.space_value(key, name)
                if got != value:
                    failures.append(f"{label}.{name}: expected {value!r}, got {got!r}")
        for label, want in expect.get("counters", {}).items():
            got = state.counters.get(counter_from_label(game, label), 0)
            if got != want:
                failures.append(f"{label}: expected {want}, got {got}")
        for card, want in expect.get("cards", {}).items():
            failures.extend(_check_card(game, card, want))
        for card, want in expect.get("sides", {}).items():
            got = game.attribute(find_card(game, card), "side")
            if got != want:
                failures.append(f"{card} side: expected {want}, got {got}")
        if "winners" in expect and [seat + 1 for seat in game.winners()] != sorted(expect["winners"]):
            failures.append(
                f"winners: expected {sorted(expect['winners'])}, "
                f"got {[seat + 1 for seat in game.winners()]} (standings {game.standings()})"
            )
        if "first" in expect and state.markers["first"] + 1 != expect["first"]:
            failures.append(f"first player: expected P{expect['first']}, got P{state.markers['first'] + 1}")
        failures.extend(_check_log(game.log, expect.get("log", [])))
        if "choice" in expect:
            failures.extend(_check_choice(game, expect["choice"]))
        if "why" in expect:
            failures.extend(_check_why(game, expect["why"]))
    except PositionError as error:
        failures.append(str(error))
    conservation = state.conservation_errors()
    return failures + [f"conservation: {e}" for e in conservation]


def _check_log(log: list[str], lines: list[str]) -> list[str]:
    """The expected lines must appear in the log in this order (other lines may come between)."""
    position = 0
    for line in lines:
        try:
            position = log.index(line, position) + 1
        except ValueError:
            where = "at all" if line not in log else "after the lines before it"
            return [f"log has no line {line!r} {where}"]
    return []


def _check_card(game, card: str, want: dict) -> list[str]:
    uid, state = find_card(game, card), game.state
    got = {
        "zone": game.zone_label(state.location[uid]),
        "face": "down" if state.facedown[uid] else "up",
        "by": state.placer[uid] + 1 if state.placer[uid] >= 0 else None,
        "side": game.attribute(uid, "side"),
    }
    return [
        f"{card} {key}: expected {value!r}, got {got[key]!r}"
        for key, value in want.items()
        if got[key] != value
    ]


def _check_why(game, wanted: dict) -> list[str]:
    """Each `why NAME` answer at the question the run stopped at holds the texts, in order."""
    from silvics.compiler.english import Wording
    from silvics.why import why

    pending = game.pending
    if pending is None:
        return ["why: expected the game to wait for a choice, but it does not"]
    wording, failures = Wording(game.rules.ir.vocabulary), []
    for name, texts in wanted.items():
        said, at = "\n".join(why(game, pending.seat, str(name), wording)), 0
        for text in texts:
            found = said.find(text, at)
            if found < 0:
                failures.append(f"why {name}: expected {text!r} (after the texts before it) in:\n{said}")
                break
            at = found + len(text)
    return failures


def _check_choice(game, want) -> list[str]:
    pending = game.pending
    if pending is None:
        return ["expected the game to wait for a choice, but it does not"]
    failures = []
    if "seat" in want and pending.seat + 1 != want["seat"]:
        failures.append(f"choice: expected seat {want['seat']} to choose, got seat {pending.seat + 1}")
    if "options" in want and sorted(map(str, want["options"])) != sorted(pending.labels):
        failures.append(
            f"choice options: expected {sorted(map(str, want['options']))}, got {sorted(pending.labels)}"
        )
    return failures
