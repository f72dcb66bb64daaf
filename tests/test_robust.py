"""No tracebacks, ever: a rule that fails while running, and hostile command lines, end as a
one-line error (status 1) or a one-line misuse message (status 2), each naming what is wrong.
The games are tiny ones written here, each with one fault put in."""
import textwrap
from pathlib import Path

import pytest

from conftest import run_captured as run

RULES = """\
id: tiny
name: Tiny
players: {{min: 1, max: 3}}
cards: [cards.yaml]
kinds:
  chip:
    attributes:
      worth: {{type: int, default: 1}}
counters:
  total: {{start: 0}}
zones:
  pile: {{visibility: public}}
  hand: {{per: player, visibility: public}}
procedures:
  setup:
    - move box to pile face up
  play:
    - each player:
{play}
  scoring:
{scoring}
"""
CARDS = "kind: chip\ncards:\n  - {id: a}\n  - {id: b, worth: 2}\n"


def tiny(folder, play="- add 1 to total", scoring="[]"):
    """A tiny game in `folder`; `play` is each player's steps, `scoring` the scoring steps."""
    folder.mkdir(parents=True, exist_ok=True)
    indent = " " * 8
    scoring = "    []" if scoring == "[]" else textwrap.indent(textwrap.dedent(scoring), "    ")
    (folder / "game.yaml").write_text(RULES.format(play=textwrap.indent(textwrap.dedent(play), indent),
                                                   scoring=scoring))
    (folder / "cards.yaml").write_text(CARDS)
    return folder


def position(path, game=".", players=2, extra=""):
    path.write_text(f"game: {game}\nplayers: {players}\nposition:\n  zones: {{pile: [a]}}\n{extra}")
    return path


# ---- division by zero: a designer's bug, reported with the rule's source --------------------

DIVIDE_BY_EMPTY_HAND = "- add count(pile) / count(hand) to total"     # line 19 of game.yaml


@pytest.mark.parametrize("command", [
    ["play", "--quiet"], ["simulate", "--games", "3", "--workers", "1"], ["simulate", "--games", "3", "--workers", "2"],
])
def test_a_division_by_zero_while_playing_names_the_rule(capsys, tmp_path, command):
    game = tiny(tmp_path / "g", play=DIVIDE_BY_EMPTY_HAND)
    status, _, err = run(capsys, command[0], game, *command[1:])
    assert status == 1 and err.startswith("error: ")
    assert "game.yaml:19:11: rule failed:" in err and "division" in err and len(err.splitlines()) == 1


def test_a_division_by_zero_in_a_steps_condition_names_the_condition(capsys, tmp_path):
    """A flow step's own expression (an `if`'s condition), not an action: its fault is
    reported where the condition is written, by the generated code that works it out."""
    game = tiny(tmp_path, play="- if: count(pile) / count(hand) > 0\n  then: [add 1 to total]")
    status, _, err = run(capsys, "play", game, "--quiet")
    assert status == 1 and "game.yaml:19:15: rule failed:" in err and "division" in err
    assert len(err.splitlines()) == 1


def test_a_division_by_zero_while_scoring_names_the_rule(capsys, tmp_path):
    game = tiny(tmp_path, scoring="- add 1 / 0 to total")
    status, _, err = run(capsys, "score", game, position(tmp_path / "end.yaml"))
    assert status == 1 and "game.yaml:21:7: rule failed:" in err and "division" in err


def test_a_scenario_that_divides_by_zero_fails_and_the_next_file_still_runs(capsys, tmp_path):
    tiny(tmp_path / "g", play=DIVIDE_BY_EMPTY_HAND)
    tiny(tmp_path / "ok")
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "a-divides.yaml").write_text("game: ../g\nplayers: 2\nseed: 1\n")
    (tmp_path / "s" / "b-fine.yaml").write_text("game: ../ok\nplayers: 2\nseed: 1\nexpect: {counters: {total: 2}}\n")
    status, out, _ = run(capsys, "scenario", tmp_path / "s")
    lines = out.splitlines()
    assert status == 1 and lines[0].startswith("FAIL") and "a-divides.yaml" in lines[0]
    assert "game.yaml:19:11: rule failed:" in lines[1]
    assert lines[2].startswith("PASS") and "b-fine.yaml" in lines[2] and lines[-1] == "1 passed, 1 failed"


# ---- score: the position file ----------------------------------------------------------------

@pytest.mark.parametrize("name, message", [("missing.yaml", "no such file: "), ("folder", "is a folder, not a position"),
                                           ("/dev/zero", "/dev/zero is not a regular file: give a YAML file")])
def test_score_without_a_position_file_is_misuse(capsys, tmp_path, name, message):
    (tmp_path / "folder").mkdir()
    status, _, err = run(capsys, "score", tiny(tmp_path / "g"), tmp_path / name)   # (an absolute name stays itself)
    assert status == 2 and err.startswith("silvics: error: ") and message in err and len(err.splitlines()) == 1


def test_score_of_a_file_that_is_not_utf8_is_a_diagnostic(capsys, tmp_path):
    (tmp_path / "end.yaml").write_bytes(b"game: .\nplayers: \xff\xfe\n")
    status, _, err = run(capsys, "score", tiny(tmp_path / "g"), tmp_path / "end.yaml")
    assert status == 1 and "end.yaml:2:10: error[E0101]: file is not UTF-8 text: byte 0xff here" in err, err


def test_score_of_more_players_than_the_game_allows_is_an_error(capsys, tmp_path):
    status, _, err = run(capsys, "score", tiny(tmp_path), position(tmp_path / "end.yaml", players=5))
    assert status == 1 and err == "error: Tiny is for 1 to 3 players, not 5\n"


# ---- player counts and game counts -------------------------------------------------------------

@pytest.mark.parametrize("command", [["play", "--quiet"], ["simulate", "--games", "2", "--workers", "1"]])
@pytest.mark.parametrize("players", ["0", "-1", "4"])
def test_players_out_of_the_games_range_is_misuse(capsys, tmp_path, command, players):
    status, _, err = run(capsys, command[0], tiny(tmp_path), "--players", players, *command[1:])
    assert status == 2 and err == "silvics: error: Tiny is for 1 to 3 players\n"


@pytest.mark.parametrize("games", ["0", "-3"])
def test_simulate_needs_a_game_to_play(capsys, tmp_path, games):
    status, _, err = run(capsys, "simulate", tiny(tmp_path), "--games", games)
    assert status == 2 and err == "silvics: error: --games must be at least 1\n"


# ---- scenario: what the paths stand for ---------------------------------------------------------

def test_an_empty_scenario_folder_is_misuse(capsys, tmp_path):
    (tmp_path / "notes.txt").write_text("no scenarios here")
    status, out, err = run(capsys, "scenario", tmp_path)
    assert status == 2 and out == "" and err == f"silvics: error: no scenario files in {tmp_path} " \
                                              "(a folder stands for every .yaml file under it)\n"


@pytest.mark.parametrize("name, message", [("notes.txt", "is not a scenario"), ("missing.yaml", "no such file or folder")])
def test_a_scenario_path_that_is_neither_yaml_nor_a_folder_is_misuse(capsys, tmp_path, name, message):
    (tmp_path / "notes.txt").write_text("game: four-forests\n")
    status, out, err = run(capsys, "scenario", tmp_path / name)
    assert status == 2 and out == "" and err.startswith("silvics: error: ") and message in err


def test_a_scenario_file_that_is_not_utf8_fails_and_the_next_still_runs(capsys, tmp_path):
    tiny(tmp_path / "g")
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "a.yaml").write_bytes(b"\xff\xfe\x00")
    (tmp_path / "s" / "b.yaml").write_text("game: ../g\nplayers: 2\nseed: 1\nexpect: {counters: {total: 2}}\n")
    status, out, _ = run(capsys, "scenario", tmp_path / "s")
    assert status == 1 and "a.yaml:1:1: error[E0101]: file is not UTF-8 text" in out
    assert out.splitlines()[-1] == "1 passed, 1 failed"


def test_a_scenario_with_more_players_than_the_game_allows_fails(capsys, tmp_path):
    tiny(tmp_path / "g")
    (tmp_path / "s.yaml").write_text("game: g\nplayers: 9\nseed: 1\n")
    status, out, _ = run(capsys, "scenario", tmp_path / "s.yaml")
    assert status == 1 and "cannot set up: Tiny is for 1 to 3 players, not 9" in out


# ---- files that are not what the command line says they are -----------------------------------

@pytest.mark.parametrize("text", ["[1, 2]", '{"version": 3}', "[" * 100_000 + "]" * 100_000],
                         ids=["a list", "a version alone", "deep brackets"])
def test_a_json_file_that_is_not_a_saved_game_is_misuse(capsys, tmp_path, text):
    (tmp_path / "ir.json").write_text(text)
    status, _, err = run(capsys, "play", tmp_path / "ir.json")
    assert status == 2 and err.startswith(f"silvics: error: {tmp_path / 'ir.json'} is not a valid silvics IR file: ")
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize("output", ["missing/ir.json", "."])
def test_compile_to_a_path_that_cannot_be_written_is_misuse(capsys, tmp_path, output):
    status, _, err = run(capsys, "compile", tiny(tmp_path / "g"), "-o", tmp_path / output)
    assert status == 2 and err.startswith(f"silvics: error: cannot write {tmp_path / output}: ")


def test_docs_into_a_file_is_misuse_before_any_work(capsys, tmp_path):
    (tmp_path / "file").write_text("")
    status, out, err = run(capsys, "docs", "--out", tmp_path / "file" / "pages")
    assert status == 2 and out == "" and err == f"silvics: error: cannot write the pages to {tmp_path / 'file' / 'pages'}: " \
                                              "Not a directory\n"


@pytest.mark.parametrize("what, length", [("game", 240), ("pack", 251)])
def test_a_new_name_too_long_for_a_file_name_is_misuse_and_makes_nothing(capsys, tmp_path, monkeypatch, what, length):
    """A folder may have the name, not the files named after it (NAME-cards.schema.json, NAME.yaml)."""
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, "new", what, *(["four-forests"] if what == "pack" else []), "a" * length)
    assert status == 2 and out == "" and err.startswith(f"silvics: error: a name of {length} characters is too long"), err
    assert len(err.splitlines()) == 1 and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("output, message", [("file", "-o {out} is a file: give a folder for the report"),
                                             ("file/report", "cannot write the report to {out}: Not a directory")])
def test_balance_onto_a_file_is_misuse_before_any_game(capsys, tmp_path, monkeypatch, output, message):
    from silvics import report
    monkeypatch.setattr(report, "balance", lambda *args, **kwargs: pytest.fail("games were played"))
    (tmp_path / "file").write_text("mine\n")
    status, out, err = run(capsys, "balance", tiny(tmp_path / "g"), "-o", tmp_path / output)
    assert status == 2 and out == "" and err == f"silvics: error: {message.format(out=tmp_path / output)}\n"
    assert (tmp_path / "file").read_text() == "mine\n"


# ---- scenario files that name what the game does not have ---------------------------------------

@pytest.mark.parametrize("lines, failure", [
    ("seed: 1\nexpect: {zones: {hand@x: []}}", "'@x' names no seat: write a seat number from 1 to 2"),
    ("seed: 1\nexpect: {counters: {total@x: 1}}", "'total' is shared: write it without @"),
    ("position: {zones: {pile: [{card: a, tag: x}]}}", "cannot set up: a: tag must be a whole number, got 'x'"),
    ("position: {zones: {pile: [{card: a, colour: 7}]}}", "cannot set up: a: colour cannot be 7; it is one of: red, blue"),
    ("modules: [nosuch]\nseed: 1", "cannot set up: unknown module 'nosuch'; Tiny has no modules"),
])
def test_a_scenario_naming_what_the_game_lacks_fails_in_words(capsys, tmp_path, lines, failure):
    game = tiny(tmp_path / "g")
    rules = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(rules.replace("counters:", "marks:\n  tag: {type: int}\n"
                                                  "  colour: {type: enum, values: [red, blue]}\ncounters:"))
    (tmp_path / "s.yaml").write_text(f"game: g\nplayers: 2\n{lines}\n")
    status, out, _ = run(capsys, "scenario", tmp_path / "s.yaml")
    assert status == 1 and out.splitlines()[1].strip().endswith(failure), out


@pytest.mark.parametrize("argv", [["scenario", ""], ["score", "four-forests", ""]])
def test_an_empty_path_is_misuse_not_the_current_folder(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and err == "silvics: error: an empty path names no file or folder\n"


def test_an_interrupt_whose_condition_divides_by_zero_names_it(capsys, tmp_path):
    game = tiny(tmp_path)
    rules = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(rules.replace("procedures:", "interrupts:\n  - when: 1 / count(pile) = 0\n"
                                                  "    do: [nothing]\nprocedures:\n  nothing: []"))
    status, _, err = run(capsys, "play", game, "--quiet")
    assert status == 1 and "game.yaml:15:" in err       # the interrupt's `when:`


# ---- a fault in what a flow step works out is reported where it is written ------------------

@pytest.mark.parametrize("step, line", [
    ("- let share = 10 / count(hand)", 19),                 # a let's value
    ("- if: 10 / count(hand) > 1\n  then: [add 1 to total]", 19),          # an if's condition
    ("- for: c in pile where 10 / count(hand) > 1\n  do: [add 1 to total]", 19),   # a loop's collection
    ("- until: 10 / count(hand) > 1\n  do: [add 1 to total]", 19),        # an until's condition
])
def test_a_fault_in_what_a_flow_step_works_out_names_that_step(capsys, tmp_path, step, line):
    status, _, err = run(capsys, "play", tiny(tmp_path, play=step), "--quiet")
    assert status == 1 and f"game.yaml:{line}:" in err and "by zero" in err, err


# ---- nothing where a number is wanted -------------------------------------------------------

@pytest.mark.parametrize("step, total", [
    ("- repeat: nth([2], 5)\n  do: [add 1 to total]", 0),          # a count that is nothing: not at all
    ("- repeat: 0 - 3\n  do: [add 1 to total]", 0),                 # less than one: not at all
    ("- repeat: count(pile)\n  do: [move top(pile) to hand, add 1 to total]", 2),   # worked out once, at the start
    ("- add nth([2], 5) to total", 0),                              # adding nothing adds nothing
    ("- set total to min(nth([2], 5), 7)", 7),                      # min and max leave nothing out
    ("- set total to 1 + max(nth([2], 5), nth([3], 9))", None),     # … and are nothing when all are
])
def test_nothing_where_a_number_is_wanted_is_defined(tmp_path, step, total):
    from silvics.compiler.build import compile_game
    from silvics.interpreter.game import Game
    game = Game(compile_game(tiny(tmp_path, play=step)), 1, 0)
    assert game.over and game.state.counters["total"] == total


# ---- numbers that grow without bound: stopped at once, naming the rule ---------------------

@pytest.mark.parametrize("step", [
    "- until: total < 0\n  do: [set total to total * total + 2]",        # squared: 34 digits after 6 passes
    "- until: total < 0\n  do: [add total + 1 to total]",                 # doubled: past 10^18 after 60 passes
])
def test_a_number_growing_without_bound_stops_the_game_at_its_rule(capsys, tmp_path, step):
    game = tiny(tmp_path / "g", play=step)
    status, _, err = run(capsys, "play", game, "--quiet")                # today: hangs on ever larger numbers
    assert status == 1 and "grew beyond ±10^18" in err
    assert err.startswith("error: game.yaml:20:")       # a game in a folder of its own: files named from there


@pytest.fixture
def small_budget(monkeypatch):
    """A step budget of 20,000: a runaway loop is caught in milliseconds rather than seconds."""
    from silvics.interpreter import game
    monkeypatch.setattr(game, "STEP_BUDGET", 20_000)


def test_a_loop_without_any_action_is_named_by_the_step_budget(capsys, tmp_path, small_budget):
    """The loop's body only asks a question; the budget's error named the last action run before
    the loop began (setup's move, line 15), not the loop. It names the loop: a loop that runs
    straight through notes where it is written as it starts (its steps are not noted one by one)."""
    game = tiny(tmp_path / "g", play="- until: total < 0\n  do:\n    - if: total > 5\n      then: [add 1 to total]")
    status, _, err = run(capsys, "play", game, "--quiet")
    assert status == 1 and "step budget" in err
    assert err.rstrip().endswith("(the last rules run: game.yaml:19:11)")    # the `until` loop itself


def test_a_chain_of_reactions_is_named_by_the_step_budget(capsys, tmp_path, small_budget):
    """Two cards that each answer `ping` with another `ping` echo each other forever: the
    budget's error names the reaction printed on the cards, not the last action before it."""
    (tmp_path / "game.yaml").write_text(
        "id: echo\nname: Echo\nplayers: {min: 1, max: 1}\ncards: [cards.yaml]\n"
        "kinds:\n  chip:\n    attributes:\n      echo: {type: effect, optional: true, on: ping, within: pile}\n"
        "zones:\n  pile: {visibility: public}\n"
        "procedures:\n  setup: [move box to pile face up]\n  play: [trigger ping on top(pile)]\n  scoring: []\n")
    (tmp_path / "cards.yaml").write_text("kind: chip\ncards:\n  - {id: a, echo: [trigger ping on it]}\n"
                                         "  - {id: b, echo: [trigger ping on it]}\n")
    status, _, err = run(capsys, "play", tmp_path, "--quiet")
    assert status == 1 and "step budget" in err
    assert "cards.yaml:3:" in err and "cards.yaml:4:" in err and "game.yaml:15:" not in err


@pytest.mark.parametrize("procedures, ring", [
    ("  ping: [ping]\n", "'ping' → 'ping'"),
    ("  ping: [pong]\n  pong: [ping]\n", "'ping' → 'pong' → 'ping'"),
])
@pytest.mark.parametrize("command", [["check"], ["play", "--quiet"]])
def test_procedures_calling_one_another_before_anything_else_are_refused(capsys, tmp_path, procedures, ring, command):
    """A procedure whose first step calls itself (or one that calls it back) never reaches a step
    the budget counts: `check` passed it, and play ended on a traceback of 2,000 lines."""
    game = tiny(tmp_path / "g", play="- ping")
    with open(game / "game.yaml", "a") as rules:
        rules.write(procedures)
    status, _, err = run(capsys, *command[:1], game, *command[1:])
    assert status == 1 and "game.yaml:22:10: error[E0501]: procedure 'ping' calls itself before doing anything" in err, err
    assert f"({ring}): it would never end" in err


@pytest.mark.parametrize("command", [["play", "--quiet"], ["simulate", "--games", "2", "--workers", "1"]])
def test_a_ring_of_calls_two_modules_make_together_names_the_rule(capsys, tmp_path, command):
    """Each module replaces one procedure, and only the two together make a ring of calls: `check`
    looks at each module alone. Play ended on Python's RecursionError (a traceback of 2,000
    lines); it ends on "rule failed" at the rule."""
    game = tiny(tmp_path / "g", play="- ping")
    with open(game / "game.yaml", "a") as rules:
        rules.write("  ping: [add 1 to total]\n  pong: [add 1 to total]\n")
    (game / "modules").mkdir()
    (game / "modules" / "a.yaml").write_text("name: a\nprocedures:\n  ping: [pong]\n")
    (game / "modules" / "b.yaml").write_text("name: b\nprocedures:\n  pong: [ping]\n")
    assert run(capsys, "check", game)[0] == 0
    status, _, err = run(capsys, *command[:1], game, "--module", "a", "--module", "b", *command[1:])
    assert status == 1 and "rule failed" in err and "procedures that call one another without end" in err, err
    assert "near modules/" in err, err


@pytest.mark.parametrize("step", [
    '- "add 1\\t+ valeu to total"',                   # an escape: two characters of the file, one of the text
    '- "add \\u0031 + valeu to total"',                # six, one
    "- 'add (1 if ''x'' = ''x'' else 0) + valeu to total'",  # '' is one '
    "- add 1 +\n  valeu to total",                     # a plain string folded over two lines
    '- "add 1 +\n  valeu to total"',                   # a quoted one
])
def test_a_mistake_in_a_quoted_or_folded_effect_is_placed_where_it_is_written(capsys, tmp_path, step):
    """Positions in an effect were counted from its first character as if the text were the file's
    own: an escape moved the caret left by its extra characters, and a string folded over lines
    was placed on its first line, past its end."""
    game = tiny(tmp_path / "g", play=step)
    lines = (game / "game.yaml").read_text().splitlines()
    line = next(n for n, text in enumerate(lines, 1) if "valeu" in text)
    status, _, err = run(capsys, "check", game)
    assert status == 1 and f"game.yaml:{line}:{lines[line - 1].index('valeu') + 1}: error[E0401]: unknown name 'valeu'" in err, err


@pytest.mark.parametrize("sign, meant", [("≥", ">="), ("×", "*"), ("−", "-")])
def test_a_sign_a_word_processor_puts_is_told_as_the_language_writes_it(capsys, tmp_path, sign, meant):
    """`total ≥ 6` (pasted from a rulebook) had the hint "expected one of: …" with no word of >=."""
    game = tiny(tmp_path / "g", play=f"- if: total {sign} 6\n  then: [add 1 to total]")
    status, _, err = run(capsys, "check", game)
    assert status == 1 and f"unexpected character '{sign}'" in err and f"hint: write {meant} for {sign}" in err, err


def test_unknown_keys_of_several_types_in_one_mapping_are_a_diagnostic(capsys, tmp_path):
    # Found by tests/test_fuzz.py: `1:` and `zz:` beside each other in a card file could not be
    # sorted to name the first, and the comparison reached the designer as a traceback.
    cards = tmp_path / "bad.yaml"
    cards.write_text("kind: plant\n1: x\nzz: y\ncards: []\n")
    rules = Path(__file__).resolve().parent.parent / "rules" / "four-forests"
    status, out, err = run(capsys, "check", rules, cards)
    assert status == 1 and "bad.yaml:2:1: error[E0201]: '1' is not allowed in the file" in out + err
