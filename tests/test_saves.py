"""Saved games (silvics/saves.py): `play --save`, `play --resume`, `replay`, and `undo` at the
terminal. A resumed game must end byte for byte as the game played without a break; a bad
save file is refused with one line and status 2, and is left as it was."""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from silvics import games, saves
from silvics.human import InputEnded
from silvics.cli import main
from silvics.interpreter.game import Game

from conftest import run_captured as run

ROOT = Path(__file__).resolve().parent.parent
GROVE = ROOT / "tests" / "fixtures" / "games" / "grove"


def stopped_after(monkeypatch, decisions: int):
    """Ctrl-C right after the save that holds `decisions` choices is written."""
    write = saves.write_file

    def write_then_stop(path, text):
        write(path, text)
        if len(json.loads(text)["choices"]) == decisions:
            raise KeyboardInterrupt
    monkeypatch.setattr(saves, "write_file", write_then_stop)


# ---- the engine's record ---------------------------------------------------------------------

def test_the_engine_records_every_choice_and_a_copy_keeps_its_own():
    game = Game(games.load("four-forests"), 2, 1)
    game.apply(2)
    trial = game.copy()
    trial.apply(0)
    game.apply(1)
    assert game.state.choices == [2, 1] and trial.state.choices == [2, 0]


# ---- resume: the same game as without a break ------------------------------------------------

GAMES = [   # both bundled games, with modules, random, greedy and Monte Carlo seats; the test games
    ["four-forests", "--players", "3", "--seed", "5", "--module", "experienced"],
    ["four-forests", "--players", "2", "--seed", "3", "--agents", "montecarlo,greedy"],
    ["reforest", "--players", "3", "--seed", "2", "--module", "terrain", "--module", "events"],
    ["reforest", "--players", "2", "--seed", "6", "--agents", "greedy,random", "--module", "events-casual"],
    ["reforest", "--players", "1", "--seed", "4", "--agents", "greedy", "--module", "hard"],
    [str(GROVE), "--players", "2", "--seed", "2", "--agents", "greedy,montecarlo"],
    [str(GROVE.parent / "market"), "--players", "3", "--seed", "2"],
    [str(GROVE.parent / "harvest"), "--players", "2", "--seed", "3", "--module", "orchard", "--set", "length=long"],
]


@pytest.mark.parametrize("argv", GAMES, ids=" ".join)
def test_a_resumed_game_ends_exactly_as_the_game_played_through(capsys, monkeypatch, tmp_path, argv):
    whole = tmp_path / "whole.json"
    status, played, _ = run(capsys, "play", *argv, "--save", whole)
    decisions = len(json.loads(whole.read_text())["choices"])
    assert status == 0 and decisions > 5
    for stop in (0, 1, decisions // 3, 2 * decisions // 3, decisions - 1):
        save = tmp_path / f"stopped-{stop}.json"
        with monkeypatch.context() as patch:
            stopped_after(patch, stop)
            assert run(capsys, "play", *argv, "--save", save)[0] == 130
        assert len(json.loads(save.read_text())["choices"]) == stop
        status, resumed, err = run(capsys, "play", "--resume", save)
        assert status == 0, err
        assert resumed == played, f"resumed after {stop} decisions"
        assert save.read_text() == whole.read_text()         # and the save now holds the whole game


def test_a_resumed_game_can_be_saved_elsewhere_and_resumed_again(capsys, monkeypatch, tmp_path):
    argv = ["reforest", "--players", "2", "--seed", "1", "--quiet"]
    played = run(capsys, "play", *argv)[1]
    first, second = tmp_path / "first.json", tmp_path / "second.json"
    with monkeypatch.context() as patch:
        stopped_after(patch, 50)
        run(capsys, "play", *argv, "--save", first)
    with monkeypatch.context() as patch:
        stopped_after(patch, 120)
        assert run(capsys, "play", "--resume", first, "--save", second)[0] == 130
    assert len(json.loads(first.read_text())["choices"]) == 50      # untouched: saving went elsewhere
    assert run(capsys, "play", "--resume", second, "--quiet")[1] == played


def test_a_finished_game_resumes_to_its_end(capsys, tmp_path):
    save = tmp_path / "game.json"
    played = run(capsys, "play", "four-forests", "--players", "2", "--save", save)[1]
    assert run(capsys, "play", "--resume", save) == (0, played, "")


def test_resume_takes_the_setup_from_the_save(capsys, tmp_path):
    save = tmp_path / "game.json"
    run(capsys, "play", "four-forests", "--players", "2", "--save", save)
    for option in (["--seed", "2"], ["--players", "3"], ["--agents", "greedy"], ["--module", "experienced"],
                   ["--human", "1"]):
        status, _, err = run(capsys, "play", "--resume", save, *option)
        assert status == 2 and "--resume plays on the saved game as it was set up" in err


def test_a_game_name_too_long_for_a_file_name_is_no_game(capsys):
    status, _, err = run(capsys, "play", "a" * 5000)
    assert status == 2 and "no game 'aaaa" in err


def test_play_needs_a_game_or_a_save(capsys):
    status, _, err = run(capsys, "play")
    assert status == 2 and "play needs a GAME" in err


@pytest.mark.parametrize("where", ["no/such/folder.json", "a" * 5000, "."])
def test_a_save_that_cannot_be_written_stops_before_the_game(capsys, tmp_path, where):
    status, out, err = run(capsys, "play", "four-forests", "--save", tmp_path / where)
    assert status == 2 and "cannot write" in err and out == ""
    assert sorted(path.name for path in tmp_path.iterdir()) == []      # nor leaves a file behind


@pytest.mark.parametrize("what", ["game.yaml", "a FIFO", "a link to a device", "other JSON"])
def test_a_save_never_replaces_what_is_not_a_save(capsys, tmp_path, what):
    """--save renames the save into place: over a game's rules or a device that would be lost."""
    game = shutil.copytree(GROVE, tmp_path / "grove")
    target = {"game.yaml": game / "game.yaml", "a FIFO": tmp_path / "fifo",
              "a link to a device": tmp_path / "null", "other JSON": tmp_path / "notes.json"}[what]
    if what == "a FIFO":
        os.mkfifo(target)
    elif what == "a link to a device":
        target.symlink_to("/dev/null")
    elif what == "other JSON":
        target.write_text('{"mine": true}')
    before = sorted((path.name, path.is_symlink(), path.is_fifo()) for path in tmp_path.iterdir())
    rules = (game / "game.yaml").read_text()
    status, out, err = run(capsys, "play", game, "--players", "2", "--save", target)
    assert status == 2 and out == "" and err == (
        f"silvics: error: cannot write {target}: it is not a silvics save (--save replaces a save, nothing else)\n")
    assert sorted((path.name, path.is_symlink(), path.is_fifo()) for path in tmp_path.iterdir()) == before
    assert (game / "game.yaml").read_text() == rules
    if what == "other JSON":
        assert target.read_text() == '{"mine": true}'


def test_a_save_or_an_empty_file_is_replaced(capsys, tmp_path):
    save, empty = tmp_path / "game.json", tmp_path / "empty.json"
    run(capsys, "play", "four-forests", "--players", "2", "--seed", "1", "--save", save)
    empty.touch()
    for target in (save, empty):
        assert run(capsys, "play", "four-forests", "--players", "3", "--save", target)[0] == 0
        assert json.loads(target.read_text())["players"] == 3


# ---- a long game is announced ------------------------------------------------------------------

def announced(*argv, timeout: float = 60) -> str:
    """What a run says on standard error of its expected time before it starts ("" when it says
    nothing, within `timeout` s); the run is stopped then, by Ctrl-C."""
    started = subprocess.Popen([sys.executable, "-m", "silvics", *map(str, argv)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    timer = threading.Timer(timeout, started.kill)
    timer.start()
    try:
        return next((line for line in started.stderr if "should take about" in line), "")
    finally:
        timer.cancel()
        started.send_signal(signal.SIGINT)
        started.wait(timeout=20)


def test_a_budget_at_the_cap_is_announced_with_the_time_it_will_take(tmp_path):
    line = announced("play", "four-forests", "--players", "2", "--agents", "montecarlo:100000,random",
                     "--save", tmp_path / "game.json")
    # over a minute, said in minutes, hours or days (how many follows the machine's speed)
    assert re.fullmatch(r"silvics: this game should take about \d+ (min|h \d+ min|days \d+ h) \(P1 montecarlo:100000 "
                        r"\S+ (s|min|h).* a decision, measured on this game\); Ctrl-C stops\n", line), line
    assert json.loads((tmp_path / "game.json").read_text())["choices"] == []       # said before any decision


def test_a_budget_edited_into_a_save_is_announced_when_it_resumes(capsys, monkeypatch, tmp_path):
    save = tmp_path / "game.json"
    with monkeypatch.context() as patch:
        stopped_after(patch, 2)
        run(capsys, "play", "four-forests", "--players", "2", "--agents", "random", "--save", save)
    data = json.loads(save.read_text())
    data["seats"][1]["agent"] = "montecarlo:100000"
    save.write_text(json.dumps(data))
    assert "P2 montecarlo:100000" in announced("play", "--resume", save)


def test_a_game_of_a_few_seconds_is_not_announced(capsys):
    status, _, err = run(capsys, "play", "four-forests", "--players", "2", "--agents", "greedy,montecarlo:2",
                         "--quiet")
    assert status == 0 and err == ""


# ---- replay ----------------------------------------------------------------------------------

def test_replay_prints_the_game_as_play_did(capsys, tmp_path):
    save = tmp_path / "game.json"
    played = run(capsys, "play", "reforest", "--players", "2", "--seed", "3", "--module", "terrain",
                 "--agents", "greedy,random", "--save", save)[1]
    assert run(capsys, "replay", save) == (0, played, "")
    assert run(capsys, "replay", save, "--quiet")[1] == played[played.index("\nFinal scores:"):]


def test_replay_of_an_unfinished_game_says_who_is_to_choose(capsys, monkeypatch, tmp_path):
    save = tmp_path / "game.json"
    with monkeypatch.context() as patch:
        stopped_after(patch, 7)
        run(capsys, "play", "four-forests", "--players", "2", "--save", save)
    status, out, _ = run(capsys, "replay", save, "--log", "full")
    assert status == 0 and out.count("\n  choice P") == 7
    assert "Scores so far:" in out and "Final scores:" not in out
    assert "\nWaiting for P2: vote: choose way\n" in out and "winner" not in out


def test_replay_can_take_the_rules_from_another_place(capsys, tmp_path):
    save, ir = tmp_path / "game.json", tmp_path / "ff.json"
    played = run(capsys, "play", "four-forests", "--players", "2", "--save", save)[1]
    run(capsys, "compile", "four-forests", "-o", ir)
    assert run(capsys, "replay", save, "--game", ir)[1] == played


# ---- the rules' fingerprint ------------------------------------------------------------------

def copy_game(tmp_path: Path, name: str) -> Path:
    for folder in ("rules", "cards"):
        shutil.copytree(ROOT / folder / "four-forests", tmp_path / name / folder / "four-forests")
    return tmp_path / name / "rules" / "four-forests"


def test_the_same_rules_compiled_anywhere_have_one_fingerprint(tmp_path):
    cached = games.load("four-forests")
    fresh = games.load(str(copy_game(tmp_path, "elsewhere")), use_cache=False)
    assert cached is not fresh
    assert saves.fingerprint(cached, ["experienced"]) == saves.fingerprint(fresh, ["experienced"])
    assert saves.fingerprint(cached, []) != saves.fingerprint(cached, ["experienced"])


def test_moving_the_rules_in_their_file_keeps_the_fingerprint(tmp_path):
    """Comments and blank lines move every source position, which no rule reads."""
    copy = copy_game(tmp_path, "commented")
    game_yaml = copy / "game.yaml"
    game_yaml.write_text("# a comment\n\n" + game_yaml.read_text())
    assert saves.fingerprint(games.load(str(copy), use_cache=False), []) == \
        saves.fingerprint(games.load("four-forests"), [])


def test_a_save_from_changed_rules_is_refused(capsys, tmp_path):
    save = tmp_path / "game.json"
    run(capsys, "play", copy_game(tmp_path, "mine"), "--players", "2", "--save", save)
    changed = copy_game(tmp_path, "changed")          # (a process loads a game's files once: a copy, edited)
    plants = changed.parent.parent / "cards" / "four-forests" / "plants.yaml"
    plants.write_text(plants.read_text().replace("value: 8", "value: 7", 1))
    before = save.read_text()
    for argv in (["play", changed, "--resume", save], ["replay", save, "--game", changed]):
        status, out, err = run(capsys, *argv)
        assert status == 2 and out == ""
        assert "the rules of Four Forests have changed since this game was saved" in err
    assert save.read_text() == before
    assert run(capsys, "replay", save)[0] == 0          # with the rules it was played with


def test_a_save_is_refused_for_another_game(capsys, tmp_path):
    save = tmp_path / "game.json"
    run(capsys, "play", "four-forests", "--players", "2", "--save", save)
    status, _, err = run(capsys, "play", "reforest", "--resume", save)
    assert status == 2 and "is a save of Four Forests (four-forests), not of Reforest: Old Growth" in err


# ---- bad save files: one line, status 2, the file untouched -----------------------------------

@pytest.fixture(scope="module")
def good_save(tmp_path_factory) -> dict:
    path = tmp_path_factory.mktemp("good") / "game.json"
    main(["play", "four-forests", "--players", "2", "--seed", "1", "--agents", "greedy,random", "--quiet",
          "--save", str(path)])
    return json.loads(path.read_text())


def spoilt(good: dict, **changes) -> str:
    data = {**good, **changes}
    return json.dumps({key: value for key, value in data.items() if value is not ...})


def seats(good, **seat_changes):
    return [{**good["seats"][0], **seat_changes}, good["seats"][1]]


ATTACKS = {   # name -> (the file's text, or a function of the good save giving it; words of the message)
    "not JSON": ("this is not json", "is not a silvics save: not JSON"),
    "empty": ("", "is not a silvics save: not JSON"),
    "truncated": (lambda good: spoilt(good)[:-40], "is not a silvics save: not JSON"),
    "a list": ("[1, 2, 3]", "is not a silvics save"),
    "other JSON": ('{"hello": "world"}', "is not a silvics save"),
    "an IR file": (lambda good: json.dumps({"$": "GameIR", "version": 3}), "is not a silvics save"),
    "wrong version": (lambda good: spoilt(good, version=2), "is a version 2 save; this silvics reads version 1"),
    "version not a number": (lambda good: spoilt(good, version="1"), "is a version '1' save"),
    "missing field": (lambda good: spoilt(good, choices=...), "has no \"choices\""),
    "unknown field": (lambda good: spoilt(good, extra=1), "has a field \"extra\" that saves do not have"),
    "choice out of range": (lambda good: spoilt(good, choices=[0, 99]),
                            "decision 2 has 4 options, but the save took option 99"),
    "negative choice": (lambda good: spoilt(good, choices=[-1]), "decision 1 has 4 options, but the save took option -1"),
    "choice not a number": (lambda good: spoilt(good, choices=[0, "1"]), "choices[1] must be a whole number"),
    "choice true": (lambda good: spoilt(good, choices=[True]), "choices[0] must be a whole number"),
    "choice fraction": (lambda good: spoilt(good, choices=[1.5]), "choices[0] must be a whole number"),
    "too many choices": (lambda good: spoilt(good, choices=good["choices"] + [0]),
                         "the game is over after {n} decisions, but the save has {n1}"),
    "unknown agent": (lambda good: spoilt(good, seats=seats(good, agent="clever")),
                      "seat 1 is played by 'clever', which is not one of random, greedy, montecarlo, ismcts, human"),
    "agent not a string": (lambda good: spoilt(good, seats=seats(good, agent=7)), "seats[0].agent must be a string"),
    "seat not an object": (lambda good: spoilt(good, seats=[1, 2]), "seats[0] must be an object"),
    "seat with no seed": (lambda good: spoilt(good, seats=[{"agent": "greedy"}, good["seats"][1]]),
                          "seats[0] has no \"seed\""),
    "human with a generator": (lambda good: spoilt(good, seats=seats(good, agent="human")),
                               "seats[0] has a field \"seed\" that a person's seat does not have"),
    "bad generator": (lambda good: spoilt(good, seats=seats(good, generator="!!!")),
                      "seats[0].generator is not a random generator's state"),
    "short generator": (lambda good: spoilt(good, seats=seats(good, generator="AAAA")),
                        "seats[0].generator is not a random generator's state"),
    "seats for other players": (lambda good: spoilt(good, seats=good["seats"][:1]),
                                "has 1 seat for 2 players"),
    "too many players": (lambda good: spoilt(good, players=9, seats=good["seats"] * 4 + good["seats"][:1]),
                         "Four Forests is for 2 to 4 players, not 9"),
    "unknown module": (lambda good: spoilt(good, modules=["expert"]), "unknown module 'expert'"),
    "modules not a list": (lambda good: spoilt(good, modules="experienced"), "modules must be a list"),
    "seed a string": (lambda good: spoilt(good, seed="1"), "seed must be a whole number"),
    "unknown game": (lambda good: spoilt(good, game="no-such-game"), "no game 'no-such-game'"),
    "game name too long": (lambda good: spoilt(good, game="a" * 5000), "is a save of a game that cannot be found"),
    "wrong game": (lambda good: spoilt(good, game="reforest"),
                   "is a save of Four Forests (four-forests), not of Reforest: Old Growth"),
    "rules hash changed": (lambda good: spoilt(good, rules="0" * 64), "the rules of Four Forests have changed"),
    "deeply nested": ("[" * 100_000 + "]" * 100_000, "is not a silvics save: not JSON"),
    "huge number": ('{"format": "silvics save", "version": 1' + "1" * 5000 + "}", "is not a silvics save: not JSON"),
    "NaN": (lambda good: spoilt(good).replace('"seed": 1,', '"seed": NaN,', 1), "seed must be a whole number"),
}


def attack_text(good, case) -> str:
    text = ATTACKS[case][0]
    return text(good) if callable(text) else text


@pytest.mark.parametrize("command", ["play", "replay"])
@pytest.mark.parametrize("case", sorted(ATTACKS))
def test_a_bad_save_is_refused_in_one_line(capsys, tmp_path, good_save, command, case):
    path = tmp_path / "bad.json"
    path.write_text(attack_text(good_save, case))
    before = path.read_bytes()
    argv = ["play", "--resume", path] if command == "play" else ["replay", path]
    status, out, err = run(capsys, *argv)
    message = ATTACKS[case][1].format(n=len(good_save["choices"]), n1=len(good_save["choices"]) + 1)
    assert status == 2 and out == "", err
    assert err.startswith("silvics: error: ") and err.count("\n") == 1 and message in err, err
    assert path.read_bytes() == before


@pytest.mark.parametrize("command", ["play", "replay"])
@pytest.mark.parametrize("case", ["missing", "a folder", "not UTF-8", "huge", "a FIFO", "a name too long"])
def test_a_save_that_cannot_be_read_is_refused_in_one_line(capsys, tmp_path, command, case):
    import os
    path = tmp_path / "save.json"
    if case == "a name too long":
        path = tmp_path / ("a" * 5000)
    elif case == "a folder":
        path.mkdir()
    elif case == "not UTF-8":
        path.write_bytes(b'{"format": "silvics save", "game": "\xff\xfe"}')
    elif case == "huge":
        with path.open("wb") as file:
            file.truncate(6 * 1024 * 1024)
    elif case == "a FIFO":
        os.mkfifo(path)
    argv = ["play", "--resume", path] if command == "play" else ["replay", path]
    status, out, err = run(capsys, *argv)
    expected = {"missing": "no such file", "a folder": "is a folder, not a save file",
                "not UTF-8": "is not a silvics save: not UTF-8 text", "huge": "more than the 5 MB",
                "a FIFO": "not a regular file", "a name too long": "cannot be read: File name too long"}[case]
    assert status == 2 and out == "" and err.startswith("silvics: error: ") and expected in err, err


# ---- undo at the terminal ----------------------------------------------------------------------

class Terminal:
    """A person typing the given answers, one per prompt (and Enter when a hot seat hands over);
    what the game writes is kept."""

    def __init__(self, answers):
        self.answers, self.lines = list(answers), []

    def read(self, prompt: str) -> str:
        self.lines.append(prompt)
        if "press Enter" in prompt:
            return ""
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)

    def write(self, line: str):
        self.lines.append(line)


def grove_session(answers, players=1, humans=(0,), path=None):
    """Grove for people at one terminal (the others random): each turn choose a card, choose a
    space, and may draw."""
    terminal = Terminal(answers)
    names = ["human" if seat in humans else "random" for seat in range(players)]
    session = saves.Session.new(games.load(str(GROVE)), str(GROVE), players, 3, [], {}, names, path,
                                terminal=(terminal.read, terminal.write))
    return session, terminal


def decided(game) -> list[str]:
    return [line for line in game.log if line.startswith("choice ")]


def test_undo_goes_back_to_the_persons_previous_decision():
    # Grove, one player: choose a card, choose a space, may draw; three turns
    direct, _ = grove_session(["2", "1", "no", "1", "1", "no", "1", "1", "no"])
    undone, terminal = grove_session(["1", "undo", "2", "1", "no", "1", "1", "undo", "undo", "1", "1", "no",
                                      "1", "1", "no"])
    assert decided(undone.play()) == decided(direct.play())
    assert undone.game.log == direct.game.log and undone.game.state.choices == direct.game.state.choices
    assert terminal.lines.count("  went back to your previous decision") == 3


def test_undo_is_refused_once_a_card_was_revealed():
    session, terminal = grove_session(["1", "1", "yes", "undo", "1", "1", "no", "1", "1", "no"])
    game = session.play()
    assert game.over and len(game.state.choices) == 9
    assert "  cannot undo: you have seen 1 card since your previous decision (what is revealed cannot be taken back)" \
        in terminal.lines


def test_undo_at_the_first_decision_has_nothing_to_take_back():
    session, terminal = grove_session(["undo", "1", "1", "no", "1", "1", "no", "1", "1", "no"])
    assert session.play().over
    assert "  nothing to undo: this is your first decision" in terminal.lines


def test_undo_is_refused_when_another_person_decided_since():
    session, terminal = grove_session(["1", "1", "no"] * 2 + ["undo"] + ["1", "1", "no"] * 4, players=2, humans=(0, 1))
    assert session.play().over
    assert "  cannot undo: P2 has decided since your previous decision" in terminal.lines


def test_after_an_undo_the_save_holds_the_game_as_it_now_stands(tmp_path):
    path = tmp_path / "grove.json"
    session, _ = grove_session(["1", "1", "undo"], path=path)
    with pytest.raises(InputEnded):
        session.play()                      # no more input, at the prompt after the undo
    assert json.loads(path.read_text())["choices"] == [0]
    rest = Terminal(["2", "no", "1", "1", "no", "1", "1", "no"])
    resumed = saves.resume(path, terminal=(rest.read, rest.write)).play()
    direct = grove_session(["1", "2", "no", "1", "1", "no", "1", "1", "no"])[0].play()
    assert resumed.log == direct.log


def test_undo_at_the_command_line(capsys, monkeypatch, tmp_path):
    answers = iter(["1", "1", "undo", "2", "no", "1", "1", "no", "1", "1", "no"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    save = tmp_path / "grove.json"
    status, out, _ = run(capsys, "play", GROVE, "--players", "1", "--seed", "3", "--human", "1", "--save", save)
    assert status == 0 and "went back to your previous decision" in out
    replayed = run(capsys, "replay", save)[1]       # the header, the story and the scores, as play printed them
    assert replayed.startswith("Grove (test game)") and out.endswith(replayed.split("\n", 1)[1])


def test_ctrl_c_at_a_prompt_says_where_the_game_is_saved_and_how_to_resume(tmp_path, monkeypatch):
    from conftest import run_cli

    answers = iter(["1"])

    def typed(prompt):
        answer = next(answers, None)
        if answer is None:
            raise KeyboardInterrupt  # Ctrl-C at the second question
        return answer

    monkeypatch.setattr("builtins.input", typed)
    saved = tmp_path / "my game.json"
    status, _, err = run_cli("play", "four-forests", "--players", "2", "--human", "1", "--save", saved)
    assert status == 130
    assert err.strip().splitlines() == [
        f"stopped after 2 decisions; saved in {saved}: resume with",  # P1's and the bot's
        f"  silvics play --resume '{saved}'",
    ]
    status, _, err = run_cli("play", "four-forests", "--players", "2", "--human", "1")
    assert status == 130 and "not saved (play with --save FILE to be able to resume)" in err


def test_input_that_runs_out_says_where_the_game_is_saved(tmp_path, monkeypatch):
    from conftest import run_cli

    def ended(prompt):
        raise EOFError

    monkeypatch.setattr("builtins.input", ended)
    saved = tmp_path / "game.json"
    status, _, err = run_cli("play", "four-forests", "--players", "2", "--human", "2", "--save", saved)
    assert status == 1 and err.strip().splitlines()[0] == f"no more input: stopped after 1 decision; saved in {saved}: resume with"
