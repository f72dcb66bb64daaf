"""The designer's workshop (issue 13): the data a designer edits is the data checked, and a
mistake is reported in the designer's terms."""
from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator
from silvics import bundled, games
from silvics.cli import main
from silvics.compiler.build import compile_game
from silvics.compiler.gameschema import card_schema
from silvics.interpreter import ir as irmod

from conftest import run_cli

FIXTURES = Path(__file__).parent / "fixtures"


def copy(tmp_path, source: Path) -> Path:
    shutil.copytree(source, tmp_path / source.name)
    return tmp_path / source.name


def test_a_card_file_beside_its_game_is_checked_against_the_game(tmp_path):
    game = copy(tmp_path, FIXTURES / "games" / "market")
    status, out, _ = run_cli("check", game / "cards.yaml")
    assert status == 0 and "ok (cards for Market (test game), checked against" in out
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text().replace("price: 5", "price: 5\n    colour: red"))
    status, _, err = run_cli("check", cards)
    assert status == 1 and "error[E0401]: a goods has no attribute 'colour'" in err


def test_a_packs_card_file_is_checked_with_its_pack_on_its_game(tmp_path):
    pack = copy(tmp_path, FIXTURES / "packs" / "mythic")
    cards = pack / "cards" / "creatures.yaml"
    status, out, _ = run_cli("check", cards)
    assert status == 0 and "ok (cards for Four Forests, in the pack" in out
    cards.write_text(cards.read_text().replace("suit = mangrove", "suit = swamp"))
    status, _, err = run_cli("check", cards)
    assert status == 1 and "creatures.yaml:7:" in err and "unknown name 'swamp'" in err


def test_a_card_file_with_no_game_is_checked_by_its_schema_and_says_so(tmp_path):
    lone = tmp_path / "lone.yaml"
    shutil.copy(FIXTURES / "games" / "market" / "cards.yaml", lone)
    status, out, _ = run_cli("check", lone)
    assert status == 0 and "schema only: no game found for it" in out


def test_a_module_or_card_file_named_as_a_game_says_which_game_to_name(tmp_path):
    game = copy(tmp_path, FIXTURES / "games" / "harvest")
    module = next((game / "modules").glob("*.yaml"))
    status, _, err = run_cli("play", module, "--quiet")
    assert status == 2 and "is a module file: name its game (" in err and "--module" in err
    card_file = next((game / "cards").glob("*.yaml"))
    status, _, err = run_cli("simulate", card_file, "--games", "1")
    assert status == 2 and f"{card_file.name} is a card file: name its game (" in err


# ---- the data you edit is the data that runs ---------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


def said(capsys, *argv) -> tuple[int, str, str]:
    """A command run here, with its whole error output (the line naming the game included)."""
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def four_forests_project(tmp_path) -> Path:
    """A designer's project: a copy of Four Forests with a card of their own added."""
    for folder in ("rules", "cards"):
        shutil.copytree(ROOT / folder / "four-forests", tmp_path / "project" / folder / "four-forests")
    plants = tmp_path / "project" / "cards" / "four-forests" / "plants.yaml"
    plants.write_text(plants.read_text().replace("cards:\n", "cards:\n  - {id: dragon-fruit, name: Dragon Fruit, "
                                                 "value: 9, suit: rainforest, form: vine, icons: [flower]}\n", 1))
    (tmp_path / "project" / "notes").mkdir()
    return tmp_path / "project"


def test_a_game_named_by_id_is_the_projects_copy_and_the_command_says_so(tmp_path, monkeypatch, capsys):
    project = four_forests_project(tmp_path)
    monkeypatch.chdir(project / "notes")                   # anywhere inside the project
    status, out, err = said(capsys, "show", "four-forests", "dragon-fruit")
    assert status == 0 and out.startswith("Dragon Fruit (plant, id dragon-fruit)")
    assert err == f"silvics: game {project / 'rules' / 'four-forests' / 'game.yaml'}\n"
    monkeypatch.chdir(project)
    status, out, err = said(capsys, "play", "four-forests", "--players", "2", "--quiet")
    assert status == 0 and err == "silvics: game rules/four-forests/game.yaml\n"


def test_outside_a_project_the_installed_copy_is_used_and_named(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    status, _, err = said(capsys, "show", "four-forests", "dragon-fruit")
    assert status == 2 and "has no card 'dragon-fruit'" in err
    assert err.startswith("silvics: game ") and "(installed with silvics)" in err.splitlines()[0]


def test_the_installed_silvics_plays_its_own_data_from_outside_any_checkout(tmp_path):
    """The data the wheel ships stays tested: in CI, silvics is installed, not linked, into .venv-ci."""
    result = subprocess.run([sys.executable, "-m", "silvics", "play", "reforest", "--players", "2", "--quiet"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "Final scores:" in result.stdout, result.stderr
    [line] = result.stderr.splitlines()
    assert line.startswith("silvics: game ") and line.endswith("rules/reforest/game.yaml (installed with silvics)")


# ---- completion and checks in the editor -----------------------------------------------------------

def card_files(ir) -> set[Path]:
    """The files a game's cards (its modules' too) were read from."""
    cards = (*ir.cards, *(c for m in ir.modules.values() for c in m.cards))
    return {ROOT / card.span.file for card in cards}


@pytest.mark.parametrize("game_id", ["four-forests", "reforest", "forest-shuffle", "renature"])
def test_every_bundled_card_file_fits_its_games_schema(game_id):
    ir = games.load(game_id)
    validator = Draft202012Validator(card_schema(ir))
    files = card_files(ir)
    assert files and all(path.is_file() for path in files)
    for path in files:
        errors = [e.message for e in validator.iter_errors(yaml.safe_load(path.read_text()))]
        assert not errors, f"{path}: {errors[:3]}"


def test_the_schema_knows_the_games_attributes_and_values():
    schema = card_schema(games.load("four-forests"))
    validator = Draft202012Validator(schema)
    good = {"kind": "plant", "cards": [{"id": "x", "value": 3, "suit": "boreal", "form": "tree", "icons": ["leaf"]}]}
    assert not list(validator.iter_errors(good))
    misspelt = {"kind": "plant", "cards": [{"id": "x", "vaule": 3, "suit": "boreal"}]}
    assert any("'vaule' was unexpected" in e.message for e in validator.iter_errors(misspelt))
    swamp = {"kind": "plant", "cards": [{"id": "x", "suit": "swamp"}]}
    assert any("'swamp' is not one of" in e.message for e in validator.iter_errors(swamp))
    sided = {"kind": "creature", "cards": [{"id": "x", "sides": {"leaf": {"name": "X", "prefers": "value > 1"},
                                                                 "thorn": {"name": "X", "perfers": "value > 1"}}}]}
    assert any("'perfers' was unexpected" in e.message for e in validator.iter_errors(sided))
    assert schema["$defs"]["plant"]["properties"]["suit"]["enum"] == ["rainforest", "boreal", "temperate", "mangrove"]


def test_schema_writes_a_games_schema_or_silvics_own(tmp_path, capsys):
    status, out, _ = said(capsys, "schema", "four-forests", "-o", tmp_path / "ff.json")
    assert status == 0 and json.loads((tmp_path / "ff.json").read_text())["title"] == "A card file of Four Forests"
    status, out, _ = said(capsys, "schema", "--of", "module")
    assert status == 0 and json.loads(out)["$id"].endswith("module.schema.json")
    status, _, err = said(capsys, "schema")
    assert status == 2 and "name a game" in err and "not both" not in err   # neither was given
    status, _, err = said(capsys, "schema", "four-forests", "--of", "module")
    assert status == 2 and "not both" in err


# ---- the edit-check loop ------------------------------------------------------------------------

def test_the_pre_commit_hook_checks_the_repository_it_runs_in(tmp_path, capsys):
    [hook] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert {"id", "name", "entry", "language"} <= hook.keys() and hook["language"] == "python"
    assert hook["entry"] == "silvics check" and hook["pass_filenames"] is False
    project = four_forests_project(tmp_path)
    status, out, _ = said(capsys, *hook["entry"].split()[1:], *(str(project / a) for a in hook["args"]))  # at its top
    assert status == 0 and "rules/four-forests: ok (Four Forests: 76 cards" in out
    plants = project / "cards" / "four-forests" / "plants.yaml"
    plants.write_text(plants.read_text().replace("suit: rainforest, form: vine", "suit: swamp, form: vine"))
    status, _, err = said(capsys, "check", project)
    assert status == 1 and "suit cannot be 'swamp'" in err


def test_a_file_found_sound_is_checked_against_its_schema_again_only_once_it_changes(tmp_path, monkeypatch):
    """In one process (check --watch), a file whose text was found sound is not checked against
    its schema again; an edit that breaks it is reported at once, and its mending seen."""
    from silvics.compiler import validate
    from silvics.compiler.diagnostics import CompileError
    for part in ("rules", "cards"):
        shutil.copytree(ROOT / part / "four-forests", tmp_path / part / "four-forests")
    game, plants = tmp_path / "rules" / "four-forests", tmp_path / "cards" / "four-forests" / "plants.yaml"
    validate.forget()
    checked, made = [], validate._validators

    class Counted(dict):
        def __getitem__(self, kind):
            checked.append(kind)
            return super().__getitem__(kind)

    monkeypatch.setattr(validate, "_validators", lambda: Counted(made()))
    compile_game(game)
    files = [kind for kind in checked if kind != "block"]   # (a printed effect's steps: not a file)
    assert files.count("cards") == 2 and "game" in files
    checked.clear()
    compile_game(game)
    assert [kind for kind in checked if kind != "block"] == []
    sound = plants.read_text()
    plants.write_text(sound + "colour: red\n")
    with pytest.raises(CompileError) as refused:
        compile_game(game)
    assert "'colour' is not allowed" in refused.value.render()
    assert [kind for kind in checked if kind != "block"] == ["cards"]
    plants.write_text(sound)
    compile_game(game)


def test_check_watch_checks_again_when_a_file_changes(tmp_path):
    game = copy(tmp_path, FIXTURES / "games" / "market")
    # Ctrl-C as at a terminal: a suite started in the background (bash's `&`) ignores SIGINT,
    # and a child would inherit that; the watcher starts with the default, as a user's does
    watcher = subprocess.Popen([sys.executable, "-m", "silvics", "check", "--watch", str(game)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in watcher.stdout], daemon=True).start()
    try:
        assert "market: ok (Market (test game)" in read_until(lines, "ok (")
        cards = game / "cards.yaml"
        cards.write_text(cards.read_text().replace("price: 5", "price: five"))
        assert "changed: checking again" in read_until(lines, "error(s)")
        cards.write_text(cards.read_text().replace("price: five", "price: 5"))
        assert "market: ok (" in read_until(lines, "ok (")
    finally:
        watcher.send_signal(signal.SIGINT)
        assert watcher.wait(timeout=20) == 0                 # Ctrl-C is how a watch ends, not a failure


def start_watch(path, cwd=None) -> tuple[subprocess.Popen, queue.Queue]:
    """`silvics check --watch PATH` in a child process, SIGINT at its default as at a terminal
    (see above), and a queue of the lines it prints."""
    watcher = subprocess.Popen([sys.executable, "-m", "silvics", "check", "--watch", str(path)], cwd=cwd,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in watcher.stdout], daemon=True).start()
    return watcher, lines


def test_check_watch_of_a_path_that_is_not_there_is_misuse_at_once(tmp_path):
    done = subprocess.run([sys.executable, "-m", "silvics", "check", "--watch", tmp_path / "no" / "such"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr


@pytest.mark.parametrize("change", ["game.yaml turned into a FIFO", "the folder watched from inside removed"])
def test_check_watch_says_what_it_cannot_check_and_watches_on(tmp_path, change):
    source = FIXTURES / "games" / "market"
    game = copy(tmp_path, source)
    fifo = change.startswith("game.yaml")
    watcher, lines = start_watch(game if fifo else ".", cwd=game)
    try:
        assert "ok (Market (test game)" in read_until(lines, "ok (")
        if fifo:
            (game / "game.yaml").unlink()
            os.mkfifo(game / "game.yaml")
        else:
            shutil.rmtree(game)
        assert "changed: checking again" in read_until(lines, "error: ")
        time.sleep(3)
        assert watcher.poll() is None, "the watch ended"                 # still watching
        if fifo:                                                          # and sees the game come back
            (game / "game.yaml").unlink()
            shutil.copy(source / "game.yaml", game / "game.yaml")
            assert "market: ok (" in read_until(lines, "ok (")
    finally:
        watcher.send_signal(signal.SIGINT)
        assert watcher.wait(timeout=20) == 0


def read_until(lines: queue.Queue, marker: str, timeout: float = 60) -> str:
    """Lines a process printed, up to the first holding `marker` (an error after `timeout` s)."""
    seen, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            seen.append(lines.get(timeout=max(0.0, deadline - time.monotonic())))
        except queue.Empty:
            break
        if marker in seen[-1]:
            return "".join(seen)
    raise AssertionError(f"no {marker!r} within {timeout} s:\n{''.join(seen)}")


# ---- lint warnings ----------------------------------------------------------------------------------

def test_warnings_are_printed_but_pass_unless_strict(capsys):
    game = FIXTURES / "diagnostics" / "lint-warnings" / "rules" / "stall"
    status, out, err = said(capsys, "check", game)
    assert status == 0 and "ok (Stall" in out
    assert [line.split(": ", 2)[1] for line in err.splitlines() if ": warning[" in line] == [
        "warning[W0104]", "warning[W0102]", "warning[W0101]", "warning[W0101]", "warning[W0105]", "warning[W0101]",
        "warning[W0103]"]
    assert err.endswith("7 warning(s)\n")
    assert said(capsys, "check", game, "--strict")[0] == 1


@pytest.mark.parametrize("game_id", ["four-forests", "reforest", "forest-shuffle", "renature"])
def test_the_bundled_games_have_no_warnings(game_id, capsys):
    status, _, err = said(capsys, "check", ROOT / "rules" / game_id, "--strict")
    assert status == 0 and "warning" not in err


# ---- start from something ---------------------------------------------------------------------------

def test_new_game_makes_a_project_that_checks_plays_and_points_its_editor_at_schemas(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    status, out, _ = said(capsys, "new", "game", "my-garden")
    assert status == 0 and "then: cd my-garden && silvics play my-garden" in out
    monkeypatch.chdir(tmp_path / "my-garden")
    status, out, err = said(capsys, "check", ".", "--strict")
    assert status == 0 and "rules/my-garden: ok (My Garden" in out, err
    status, out, _ = said(capsys, "play", "my-garden", "--quiet")
    assert status == 0 and "Final scores:" in out
    for path in [Path("rules/my-garden/game.yaml"), Path("cards/my-garden/cards.yaml")]:
        modeline = path.read_text().splitlines()[0]
        schema = (path.parent / modeline.split("$schema=")[1]).resolve()
        assert schema.is_file(), modeline
        data = yaml.safe_load(path.read_text())
        assert not list(Draft202012Validator(json.loads(schema.read_text())).iter_errors(data))
    status, out, err = said(capsys, "check", "rules/")   # the folder of the games: each of them
    assert status == 0 and "rules/my-garden: ok (My Garden" in out, err
    monkeypatch.chdir(tmp_path)
    assert said(capsys, "new", "game", "my-garden")[0] == 2                      # never overwrites


def test_a_new_pack_of_a_pack_is_misuse(tmp_path, monkeypatch, capsys):
    """A pack named as the game a new pack extends: the new pack extended the game alone and
    dropped the first pack's cards without a word."""
    monkeypatch.chdir(tmp_path)
    status, _, err = said(capsys, "new", "pack", FIXTURES / "packs" / "mythic", "more")
    assert status == 2 and "is a pack, and a pack extends a game: name the game, four-forests" in err, err
    assert not (tmp_path / "more").exists()


@pytest.mark.parametrize("command", [["new", "pack", "four-forests", "taken"],
                                     ["export", "four-forests", "--tts", "--kind", "plant", "-o", "taken"]])
def test_a_folder_to_make_where_a_file_is_is_misuse(tmp_path, monkeypatch, capsys, command):
    """A pack's folder, or an export's, named where a file lies: Python's FileExistsError was a
    traceback. It is misuse (status 2), said in a line, and the file is left as it was."""
    monkeypatch.chdir(tmp_path)
    Path("taken").write_text("mine\n")
    status, _, err = said(capsys, *command)
    assert status == 2 and "silvics: error: taken is a file" in err and "Traceback" not in err, err
    assert Path("taken").read_text() == "mine\n"


@pytest.mark.parametrize("game_id", ["four-forests", "reforest", "forest-shuffle", "renature"])
def test_new_pack_and_a_new_card_of_every_kind_check_and_play(game_id, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert said(capsys, "new", "pack", game_id, "extra")[0] == 0
    ir = games.load(game_id)
    for kind in {card.kind for card in (*ir.cards, *(c for m in ir.modules.values() for c in m.cards))}:
        status, _, err = said(capsys, "new", "card", game_id, kind, "--id", f"new-{kind}".replace("_", "-"), "-o",
                              f"extra/cards/new-{kind}.yaml")
        assert status == 0, err
    status, out, err = said(capsys, "check", "extra")
    assert status == 0 and "module extra: changes nothing" in out, err
    status, out, _ = said(capsys, "play", "extra", "--module", "extra", "--quiet")
    assert status == 0 and "Final scores:" in out


def test_new_refuses_a_bad_name_a_kind_the_game_lacks_and_an_existing_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    status, _, err = said(capsys, "new", "game", "My Game")
    assert status == 2 and "cannot name a game" in err and not list(tmp_path.iterdir())
    status, _, err = said(capsys, "new", "card", "reforest", "tree")
    assert status == 2 and "its kinds are plant, visitor, terrain, event" in err
    (tmp_path / "taken.yaml").write_text("mine\n")
    status, _, err = said(capsys, "new", "card", "reforest", "plant", "-o", "taken.yaml")
    assert status == 2 and "exists already" in err and (tmp_path / "taken.yaml").read_text() == "mine\n"


def test_new_card_takes_any_id_a_card_may_have_but_not_one_the_game_has(tmp_path, monkeypatch, capsys):
    """A card's id may start with a digit (the card schema's pattern), unlike a game's name; an id
    the game's cards have was written all the same, and the file then failed its check (E0403)."""
    monkeypatch.chdir(tmp_path)
    status, out, err = said(capsys, "new", "card", "four-forests", "plant", "--id", "7-sisters")
    assert status == 0 and "- id: 7-sisters" in out, err
    status, _, err = said(capsys, "new", "card", "four-forests", "plant", "--id", "kapok-tree", "-o", "k.yaml")
    assert status == 2 and "Four Forests has a card 'kapok-tree' already" in err and "such as kapok-tree-2" in err
    assert not (tmp_path / "k.yaml").exists()
    status, _, err = said(capsys, "new", "card", "four-forests", "plant", "--id", "Kapok Tree")
    assert status == 2 and "'Kapok Tree' cannot be a card's id" in err


# ---- spreadsheets -----------------------------------------------------------------------------------

@pytest.mark.parametrize("game_id", ["four-forests", "reforest", "forest-shuffle", "renature"])
def test_a_card_table_round_trips(game_id, tmp_path, capsys):
    """export --csv, then import --game: the same cards, attribute for attribute, effects included."""
    table, cards = tmp_path / "cards.csv", tmp_path / "cards.yaml"
    assert said(capsys, "export", game_id, "--csv", "-o", table)[0] == 0
    status, out, err = said(capsys, "import", table, "--game", game_id, "-o", cards)
    assert status == 0 and "checked against" in out, err
    ir = games.load(game_id)
    again = compile_game(games.game_path(game_id), cards_instead=[cards])
    assert unplaced(again.cards) == unplaced(ir.cards)


def unplaced(cards) -> list:
    """Cards as JSON data without a single source position: what they are, not where they were read."""
    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "span"}
        return [strip(v) for v in value] if isinstance(value, list) else value
    return strip(json.loads(irmod.dumps(replace(games.load("four-forests"), cards=tuple(cards))))["cards"])


def test_a_mistake_in_a_card_table_is_reported_at_its_row_and_column(tmp_path, capsys):
    table = tmp_path / "cards.csv"
    said(capsys, "export", "four-forests", "--csv", "-o", table)
    lines = table.read_text().splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("giant-sequoia,"))
    lines[row] = lines[row].replace(",temperate,", ",temprate,")
    lines.append('broken,,plant,,"[1, 2"')
    table.write_text("\n".join(lines) + "\n")
    status, _, err = said(capsys, "import", table)
    assert status == 1 and f"cards.csv:{len(lines)}:16: error[E0102]: value: YAML syntax error" in err
    lines.pop()
    table.write_text("\n".join(lines) + "\n")
    status, _, err = said(capsys, "import", table, "--game", "four-forests", "-o", tmp_path / "out.yaml")
    column = lines[row].index("temprate") + 1
    assert status == 1 and f"cards.csv:{row + 1}:{column}: error[E0402]: suit cannot be 'temprate'" in err
    assert "did you mean 'temperate'?" in err and not (tmp_path / "out.yaml").exists()


HEADER = "id,name,kind,copies,value,suit,form,icons"
ZED = "zz-1,Zed,plant,,9,rainforest,tree,[leaf]"


@pytest.mark.parametrize("table, said_at", [
    (f"{HEADER}\n{ZED},EXTRA\n", "t.csv:2:42: error[E0201]: this cell is past the columns the first row names"),
    (f"{HEADER}\nzz-1,\"Zed,plant,,9\n", "t.csv:2:6: error[E0102]: this quote is never closed"),
    (f"id,,{HEADER[8:]}\n{ZED}\n", "t.csv:1:4: error[E0201]: this column has no name"),
    (f"{HEADER}\n", "t.csv:1:1: error[E0201]: the table has no cards"),
    (f"{HEADER}\n{ZED}\n{ZED}\n", "t.csv:3:1: error[E0403]: card id 'zz-1' is used twice"),
])
def test_a_careless_card_table_is_said_at_its_row_and_column(tmp_path, capsys, table, said_at):
    """An extra cell was dropped without a word; a quote never closed was "unknown card kind
    'card'" at 1:1; a column with no name, an internal YAML error; a table with no rows, "cards
    must be a list, got None"; a card twice, first used at a temporary file's line."""
    (tmp_path / "t.csv").write_text(table)
    status, _, err = said(capsys, "import", tmp_path / "t.csv", "--game", "four-forests", "-o", tmp_path / "t.yaml")
    assert status == 1 and said_at in err and "Traceback" not in err, err
    assert "hint: first used at" not in err or f"hint: first used at {tmp_path / 't.csv'}:2:1" in err, err
    assert not (tmp_path / "t.yaml").exists()


def test_a_card_table_is_checked_against_a_pack(tmp_path, capsys):
    """`import --game` took only a game: a pack's author could not check a table of the pack's
    cards against it. The table's cards stand in for the game's and the pack's."""
    pack = FIXTURES / "packs" / "mythic"
    table = tmp_path / "cards.csv"
    assert said(capsys, "export", pack, "--csv", "-o", table)[0] == 0
    status, out, err = said(capsys, "import", table, "--game", pack, "-o", tmp_path / "ok.yaml")
    assert status == 0 and "checked against" in out and "pack.yaml" in out, err
    lines = table.read_text().splitlines()
    row = next(i for i, line in enumerate(lines) if ",temperate," in line)
    lines[row] = lines[row].replace(",temperate,", ",temprate,", 1)
    table.write_text("\n".join(lines) + "\n")
    status, _, err = said(capsys, "import", table, "--game", pack, "-o", tmp_path / "bad.yaml")
    assert status == 1 and f"cards.csv:{row + 1}:{lines[row].index('temprate') + 1}: error[E0402]" in err, err
    assert not (tmp_path / "bad.yaml").exists()


def test_a_tabletop_simulator_deck_holds_every_copy_on_sheets_of_faces(tmp_path, capsys):
    pytest.importorskip("cairosvg", reason="TTS sheets are drawn with cairosvg, the print extra (.ci/run installs it)")
    status, out, err = said(capsys, "export", "four-forests", "--tts", "--kind", "plant", "-o", tmp_path / "tts")
    assert status == 0, err
    [deck] = json.loads((tmp_path / "tts" / "deck.json").read_text())["ObjectStates"]
    plants = [card for card in games.load("four-forests").cards if card.kind == "plant"]
    assert len(deck["DeckIDs"]) == sum(card.copies for card in plants) == len(deck["ContainedObjects"])
    assert deck["ContainedObjects"][0]["Nickname"] == plants[0].sides[0].name
    assert "suit rainforest" in deck["ContainedObjects"][0]["Description"]
    sheet = Path(deck["CustomDeck"]["1"]["FaceURL"].removeprefix("file://"))
    header = sheet.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(header[16:20], "big") == 10 * 63 * 6        # 10 faces across, 63 mm at 6 px a mm
    status, _, err = said(capsys, "export", "renature", "--tts", "-o", tmp_path / "mixed")
    assert status == 2 and "export one kind at a time with --kind" in err


def test_scenario_verbose_prints_the_log_and_every_choice_asked_or_automatic(tmp_path):
    """P2 holds one card: it is placed without asking, and -v says so beside the choice asked of P1."""
    scenario = tmp_path / "one-card.yaml"
    scenario.write_text(
        "name: one card in hand is placed without asking\ngame: four-forests\nplayers: 2\n"
        "position:\n  zones:\n    creatures:\n      - {card: dragons, side: leaf}\n"
        "  players:\n    - hand: [kapok-tree, mahogany]\n    - hand: [tamarack]\n"
        "run: [cultivate]\nchoices:\n  '1': [mahogany]\n"
        "expect:\n  zones:\n    forest@1: [mahogany]\n    forest@2: [tamarack]\n")
    status, out, _ = run_cli("scenario", "-v", scenario)
    assert status == 0, out
    choices = out.split("    choices:\n")[1].splitlines()
    assert choices[:2] == ["      P1 cultivate: choose card: mahogany",
                           "      P2 cultivate: choose card: tamarack  (automatic: the only option)"]
    log = out.split("    log:\n")[1].split("    choices:")[0]
    assert "      move tamarack -> forest@2" in log.splitlines()
    status, quiet, _ = run_cli("scenario", scenario)
    assert status == 0 and "choices:" not in quiet


def test_a_tabletop_simulator_deck_to_share_names_its_images_by_the_address_they_are_hosted_at(tmp_path, capsys):
    pytest.importorskip("cairosvg", reason="TTS sheets are drawn with cairosvg, the print extra (.ci/run installs it)")
    status, out, err = said(capsys, "export", "four-forests", "--tts", "--kind", "creature", "-o", tmp_path / "tts",
                            "--base-url", "https://example.org/decks/four-forests/")
    assert status == 0, err
    text = (tmp_path / "tts" / "deck.json").read_text()
    [deck] = json.loads(text)["ObjectStates"]
    assert deck["CustomDeck"]["1"]["FaceURL"] == "https://example.org/decks/four-forests/faces-1.png"
    assert deck["CustomDeck"]["1"]["BackURL"] == "https://example.org/decks/four-forests/back.png"
    assert "file:" not in text and "upload" in out and "https://example.org/decks/four-forests/" in out
    status, _, err = said(capsys, "export", "four-forests", "--tts", "--kind", "creature", "-o", tmp_path / "no",
                          "--base-url", "decks/four-forests")
    assert status == 2 and "--base-url" in err and "https://" in err and not (tmp_path / "no").exists()


# ---- one way to name a game, for every command (issue 24, points 13 and 14) ------------------------

def test_score_and_scenario_find_a_game_by_id_as_play_does_and_check_takes_a_games_name(tmp_path, monkeypatch,
                                                                                         capsys):
    """In a project the game named by id is its own copy, for score and a scenario's `game:` line as
    for play; check takes the name too."""
    project = four_forests_project(tmp_path)
    (project / "end.yaml").write_text("game: four-forests\nplayers: 2\nposition:\n  players:\n"
                                      "    - forest: [dragon-fruit]\n    - forest: [monstera]\n")
    monkeypatch.chdir(project / "notes")
    status, out, err = said(capsys, "score", "four-forests", project / "end.yaml")
    assert status == 0, err
    assert err == f"silvics: game {project / 'rules' / 'four-forests' / 'game.yaml'}\n"
    monkeypatch.chdir(tmp_path)                         # a scenario's game: line is looked up from its file
    status, out, err = said(capsys, "scenario", project / "end.yaml")
    assert status == 0 and out.startswith("PASS"), out
    monkeypatch.chdir(project)
    status, out, err = said(capsys, "check", "four-forests")
    assert status == 0 and out.startswith("rules/four-forests: ok (Four Forests: 76 cards"), out + err
    monkeypatch.chdir(tmp_path)
    status, out, err = said(capsys, "check", "four-forests")
    installed = bundled.games()["four-forests"].parent                 # the installed copy, wherever it lies
    assert status == 0 and out.startswith(f"{installed}: ok (Four Forests: 75 cards"), out + err
    status, out, err = said(capsys, "check", "no-such-game")
    assert status == 2 and err == "silvics: error: no such file or folder, nor a game: no-such-game\n"


def test_score_in_a_project_made_by_new_game_finds_the_game_by_its_id(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert said(capsys, "new", "game", "my-game")[0] == 0
    monkeypatch.chdir(tmp_path / "my-game")
    Path("end.yaml").write_text("game: my-game\nplayers: 2\nposition:\n  players:\n    - patch: [clover]\n")
    status, out, err = said(capsys, "score", "my-game", "end.yaml")
    assert status == 0 and "Total over all players: 2" in out, err


def test_score_says_when_the_position_is_of_another_game_than_the_one_named(tmp_path, capsys):
    position = tmp_path / "end.yaml"
    position.write_text("game: reforest\nplayers: 2\nposition:\n  players:\n    - hand: [salal]\n")
    status, out, err = said(capsys, "score", "four-forests", position)
    assert status == 2 and out == ""
    assert err.splitlines()[-1] == (f"silvics: error: {position} is a position of 'reforest' (its game: line), "
                                    "not of Four Forests: score it with that game, or change the line")
