"""The command line, end to end: exit statuses, outputs, and no tracebacks."""
import json
import re
import sys
from pathlib import Path

import pytest
from silvics.cli import main
from silvics.interpreter.ir import IR_VERSION

from conftest import run_captured as run

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = Path(__file__).parent / "scenarios" / "four-forests" / "ranking-example-1.yaml"
POSITION = Path(__file__).parent / "positions" / "four-forests-end.yaml"


def test_play_prints_a_whole_game_and_scores(capsys):
    status, out, _ = run(capsys, "play", "four-forests", "--players", "4", "--seed", "1", "--log", "full")
    assert status == 0
    assert out.count("choice P") >= 4 * 4 * 6          # 4 rounds × 4 seats × (1+3+1+1) choices
    assert "Final scores:" in out and "winner" in out


@pytest.mark.parametrize("argv, message", [
    (["--players", "5"], "is for 2 to 4 players"),
    (["--module", "expert"], "unknown module 'expert'"),
    (["--agents", "clever"], "--agents takes one of"),
    (["--human", "3", "--players", "2"], "no seat 3"),
])
def test_play_misuse_is_status_2(capsys, argv, message):
    status, _, err = run(capsys, "play", "four-forests", *argv)
    assert status == 2 and message in err


def test_simulate_summarises(capsys):
    status, out, _ = run(capsys, "simulate", "four-forests", "--games", "20", "--players", "3")
    assert status == 0
    assert "mean score" in out and "win rate" in out and "game length" in out
    rates = [float(line.split()[-1].rstrip("%")) for line in out.splitlines() if line.strip().startswith("P")]
    assert len(rates) == 3 and abs(sum(rates) - 100) < 0.5


def test_simulate_reports_cards(capsys):
    status, out, _ = run(capsys, "simulate", "four-forests", "--games", "10", "--players", "2", "--cards")
    assert status == 0
    assert "points earned by each card" in out and "points awarded by each card" in out
    awarding = [line.split()[0] for line in out.split("points awarded")[1].splitlines()[2:] if line.strip()]
    creatures = {"elves", "giants", "tortles", "gryphons", "dragons", "trolls", "fairies", "unicorns", "gnomes",
                 "dryads", "phoenixes"}
    assert awarding and set(awarding) <= creatures


def test_compile_then_play_the_saved_ir(capsys, tmp_path):
    saved = tmp_path / "ff.json"
    assert run(capsys, "compile", "four-forests", "-o", str(saved))[0] == 0
    assert json.loads(saved.read_text())["version"] == IR_VERSION
    status, out, _ = run(capsys, "play", str(saved), "--players", "2", "--seed", "5", "--quiet")
    assert status == 0 and "Final scores:" in out


def test_check_the_bundled_game(capsys):
    status, out, _ = run(capsys, "check", str(ROOT / "rules" / "four-forests"))
    assert status == 0
    assert "ok (Four Forests: 75 cards (75 copies), 9 procedures, 2 modules)" in out


def test_check_a_card_file_finds_its_game(capsys):
    status, out, _ = run(capsys, "check", str(ROOT / "cards" / "four-forests" / "plants.yaml"))
    assert status == 0 and "cards for Four Forests" in out


def test_check_json_lists_every_diagnostic(capsys):
    bad = Path(__file__).parent / "fixtures" / "diagnostics" / "several-errors-one-file" / "cards" / "four-forests"
    status, out, err = run(capsys, "check", str(bad / "plants.yaml"), "--format", "json")
    report = json.loads(out)
    assert status == 1 and err == "" and report["ok"] == []
    assert len(report["diagnostics"]) == 5
    assert {"file", "line", "col", "code", "message", "hint", "severity"} == set(report["diagnostics"][0])
    status, out, _ = run(capsys, "check", str(ROOT / "rules" / "four-forests"), "--format", "json")
    assert status == 0 and json.loads(out) == {"ok": [str(ROOT / "rules" / "four-forests")], "diagnostics": []}


def test_check_misuse_is_status_2(capsys):
    assert run(capsys, "check", "no/such/file.yaml")[0] == 2
    with pytest.raises(SystemExit) as exit_:
        main(["frobnicate"])
    assert exit_.value.code == 2


def test_unknown_game_is_misuse(capsys):
    status, _, err = run(capsys, "play", "no-such-game")
    assert status == 2 and "bundled games are" in err


def test_scenario_reports_pass(capsys):
    status, out, _ = run(capsys, "scenario", str(EXAMPLE))
    assert status == 0 and out.startswith("PASS") and "1 passed, 0 failed" in out


def test_score_itemises_a_position(capsys):
    # Tokens as in Ranking Example 1: dragons (value > 7) 4, trolls (shrub) 3, elves (leaf icon) 2,
    # gryphons (tree) -1. white-spruce: 9, tree, leaf → 4 + 2 - 1; rhododendron: shrub, leaf → 3 + 2.
    status, out, _ = run(capsys, "score", "four-forests", str(POSITION))
    assert status == 0
    rows = [line.split() for line in out.splitlines() if line.startswith("  ")]
    assert ["White", "Spruce", "5", "+4", "Dragons,", "+2", "Elves,", "-1", "Gryphons"] in rows
    assert ["Rhododendron", "5", "+3", "Trolls,", "+2", "Elves"] in rows
    assert ["Crowberry", "3", "+3", "Trolls"] in rows
    assert ["total", "13"] in rows and ["total", "2"] in rows
    assert "Total over all players: 15" in out


def test_score_itemises_a_reforest_region_by_heading(capsys):
    """Plant values (understory included), scoring effects of the canopy and terrains, stored energy
    (a stored visitor 3), visitors, elevation bonus and hand: the sums worked out in the file."""
    status, out, _ = run(capsys, "score", "reforest", str(POSITION.parent / "reforest-end.yaml"))
    assert status == 0
    rows = [line.split() for line in out.splitlines()]
    for heading in (["plant", "values", "13"], ["scoring", "effects", "5"], ["stored", "energy", "5"],
                    ["visitors", "6"], ["elevation", "bonus", "4"], ["cards", "in", "hand", "1"], ["total", "34"]):
        assert heading in rows, heading
    assert ["Salal", "2", "+2"] in rows                              # covered, half-sun: still scores
    assert ["Deer", "Fern", "2", "+1", "Sword", "Fern,", "+1", "Fog", "Belt"] in rows
    assert ["total", "2"] in rows and "Total over all players: 36" in out


def test_score_lists_every_card_of_a_forest_with_halves_named_by_species(capsys):
    """docs/forest-shuffle.md's example: two Beeches (0 without four), a Chaffinch on a Beech (5),
    Moss (0 below 10 trees), one hare (1), a sapling; 2 in the cave. P2's lone Linden is the most
    Lindens of any forest: 3. Cards that score nothing are listed with 0; the Beeches by where they lie."""
    status, out, _ = run(capsys, "score", "forest-shuffle", str(POSITION.parent / "forest-shuffle-end.yaml"))
    assert status == 0
    rows = [line.split() for line in out.splitlines()]
    for row in (["cards", "6"], ["Chaffinch", "5", "+5"], ["Moss", "0"], ["European", "Hare", "1", "+1"],
                ["cave", "2"], ["total", "8"], ["Linden", "3", "+3"], ["total", "3"],
                ["Beech", "(forest", "1)", "0"], ["Beech", "(forest", "2)", "0"]):
        assert row in rows, row
    assert "Total over all players: 11" in out


def test_play_shows_a_counter_by_the_word_its_rules_name_for_its_value(capsys):
    # Forest Shuffle's solo result: stars 0..3 are none, bronze, silver, gold; won is no or yes. The
    # full log ends with every counter by its key; the short ending with those players see only
    status, out, _ = run(capsys, "play", "forest-shuffle", "--players", "1", "--module", "alone-in-the-forest",
                         "--quiet", "--seed", "4", "--log", "full")
    counters = dict(item.rsplit(" ", 1) for item in out.split("Counters: ")[1].splitlines()[0].split(", "))
    assert status == 0 and counters["stars"] in ("none", "bronze", "silver", "gold") and counters["won"] in ("no", "yes")
    wanted = "you meet the challenge's goal and minimum score for the tier you aimed for"
    assert out.rstrip().endswith(f"Won: {wanted}.") or f"\nLost: to win, {wanted}:\n  " in out
    assert counters["turns"].isdigit()                              # a counter without names: its number
    status, out, _ = run(capsys, "play", "forest-shuffle", "--players", "1", "--module", "alone-in-the-forest",
                         "--quiet", "--seed", "4")
    assert status == 0 and "turns" not in out and "draw_next" not in out   # the rules' bookkeeping


def test_a_counter_players_see_is_said_by_its_words_once_it_moves():
    from silvics.human import shown_counter
    from silvics.interpreter.ir import CounterDecl
    declared = {"stars": CounterDecl("stars", "shared", 0, ("none", "bronze", "silver"), "best tier reached"),
                "owed": CounterDecl("owed", "player", 0, (), "turns owed"),
                "draws": CounterDecl("draws", "shared", 0)}
    assert shown_counter(declared, "stars", 2) == ["best tier reached silver"]
    assert shown_counter(declared, "owed", 1, "P2 ") == ["P2 turns owed 1"]
    assert shown_counter(declared, "owed", 0) == []                  # still at its start: nothing to tell
    assert shown_counter(declared, "draws", 2) == []                 # bookkeeping: never shown


def test_show_renders_a_card_in_english(capsys):
    status, out, _ = run(capsys, "show", "four-forests", "dragons")
    assert status == 0 and "leaf side: Dragons" in out and "Prefers plants worth more than 7." in out
    status, _, err = run(capsys, "show", "four-forests", "kapok")
    assert status == 2 and "did you mean 'kapok-tree'" in err
    status, out, _ = run(capsys, "show", "four-forests", "Kapok tree")      # by its name, in any case
    assert status == 0 and out.startswith("Kapok Tree (plant, id kapok-tree)")


def test_show_by_a_name_several_cards_carry_prints_each_of_them(capsys, tmp_path):
    """Forest Shuffle prints the European Hare on many cards (each with another half, another tree
    symbol): asked by that name, `show` says how many and prints every one, not one picked at
    random; `--svg` then asks for an id. An id names one card."""
    from silvics import games
    ir = games.load("forest-shuffle")
    hares = [card.id for card in ir.cards if any(side.name == "European Hare" for side in card.sides)]
    assert len(hares) > 1
    status, out, _ = run(capsys, "show", "forest-shuffle", "european hare")
    assert status == 0 and out.startswith(f"{len(hares)} cards carry the name European Hare:\n")
    assert re.findall(r"\(horizontal, id (\S+)\)", out) == hares
    status, _, err = run(capsys, "show", "forest-shuffle", "European Hare", "--svg", tmp_path / "hare.svg")
    assert status == 2 and f"{len(hares)} cards carry the name European Hare: --svg draws one" in err
    assert not (tmp_path / "hare.svg").exists()
    status, out, _ = run(capsys, "show", "forest-shuffle", hares[0])
    assert status == 0 and out.count("(horizontal, id ") == 1


def test_show_writes_a_cards_faces_as_an_svg_drawn_as_everywhere(capsys, tmp_path):
    """`--svg`: the faces the site and the printed sheets draw, a double-sided card's side by side."""
    import xml.etree.ElementTree as ET

    from silvics import games
    from silvics.compiler.faces import face_body
    status, _, err = run(capsys, "show", "four-forests", "elves", "--svg", tmp_path / "elves.svg")
    assert status == 0 and f"wrote {tmp_path / 'elves.svg'}" in err
    svg = (tmp_path / "elves.svg").read_text(encoding="utf-8")
    root = ET.fromstring(svg)
    assert (root.get("width"), root.get("height")) == ("131mm", "88mm")        # 63 + 5 + 63
    ir = games.load("four-forests")
    elves = next(c for c in ir.cards if c.id == "elves")
    assert face_body(ir, elves, "leaf") in svg and face_body(ir, elves, "thorn") in svg
    status, _, err = run(capsys, "show", "four-forests", "elves", "--svg", tmp_path / "no" / "such" / "x.svg")
    assert status == 2 and err.startswith("silvics: error: cannot write") and len(err.splitlines()) == 1


def test_human_sees_only_their_view(capsys, monkeypatch):
    from silvics import games
    from silvics.interpreter.game import Game
    opening = Game(games.load("four-forests"), 2, 3)
    their_hand = [opening.rules.defs[uid].sides[0].name for uid in opening.state.zones["hand/1"]]
    my_hand = [opening.rules.defs[uid].sides[0].name for uid in opening.state.zones["hand/0"]]
    monkeypatch.setattr("builtins.input", lambda prompt="": "1")
    status, out, _ = run(capsys, "play", "four-forests", "--players", "2", "--seed", "3", "--human", "1", "--quiet")
    assert status == 0
    first_turn = out.split("--- P1, your turn: place a card from your hand face up in your forest ---")[1].split("--- P1")[0]
    assert re.search(r"^  Cards you cannot see: .*\bP2's hand 4\b", first_turn, re.M)
    assert not any(card in first_turn for card in their_hand)
    assert all(f"] {card}" in first_turn for card in my_hand)      # the numbered options


def test_a_rule_failing_in_a_worker_is_one_line_not_a_traceback(capsys, tmp_path):
    """The error crosses back from the worker process and is reported as in `play`."""
    import shutil
    shutil.copytree(ROOT / "rules" / "four-forests", tmp_path / "rules" / "four-forests")
    shutil.copytree(ROOT / "cards" / "four-forests", tmp_path / "cards" / "four-forests")
    game = tmp_path / "rules" / "four-forests" / "game.yaml"
    game.write_text(game.read_text().replace("    - shuffle deck\n", "    - shuffle deck\n    - flip deck to leaf\n", 1))
    status, _, err = run(capsys, "simulate", str(game.parent), "--games", "4", "--players", "2", "--workers", "2")
    assert status == 1 and err.startswith("error: ") and "rule failed" in err and "has no side 'leaf'" in err


@pytest.mark.parametrize("option", ["--games", "--workers"])
def test_simulate_needs_at_least_one_game_and_worker(capsys, option):
    argv = {"--games": ["--games", "0"], "--workers": ["--games", "2", "--workers", "0"]}[option]
    status, _, err = run(capsys, "simulate", "four-forests", *argv)
    assert status == 2 and f"{option} must be at least 1" in err


def test_a_scenario_whose_run_stops_at_an_unscripted_question_fails_unless_it_pins_it(tmp_path):
    from silvics.scenarios import run_file

    market = Path(__file__).parent / "fixtures" / "games" / "market"
    base = (f"game: {market}\nplayers: 2\nposition:\n  zones:\n    row: [silk, apple]\nrun: [buy@1]\n")
    stopped = tmp_path / "stopped.yaml"
    stopped.write_text(base)
    assert run_file(stopped).failures == [
        "the run stopped at a question no scripted choice answers: P1 buy: choose card (silk, apple); "
        "script it, or pin it with expect.choice"]
    pinned = tmp_path / "pinned.yaml"
    pinned.write_text(base + "expect:\n  choice: {seat: 1, options: [silk, apple]}\n")
    assert run_file(pinned).passed


def test_every_option_and_argument_of_every_command_says_what_it_does():
    import argparse
    from silvics.cli import _parser
    parsers = [_parser()]
    missing = []
    while parsers:
        parser = parsers.pop()
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                parsers += action.choices.values()
            if not action.help and not isinstance(action, argparse._HelpAction):
                missing.append(f"{parser.prog} {action.option_strings or action.dest}")
    assert not missing


def test_version_and_the_agents_list(capsys):
    from silvics.interpreter.agents import AGENTS
    from silvics.interpreter.ir import IR_VERSION
    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0
    assert re.fullmatch(rf"silvics \S+ \(IR version {IR_VERSION}\)\n", capsys.readouterr().out)
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert f"comma-separated: {', '.join(AGENTS)}, or a strategy of the game; a search agent may take a budget" \
        in help_text


# ---- optional extras: a missing one is said before any work -------------------------------------

@pytest.mark.parametrize("argv, blocked, extra", [
    (["balance", "four-forests", "--games", "2", "-o", "report"], "matplotlib", "balance"),
    (["docs", "four-forests", "-o", "site"], "matplotlib", "docs"),
    (["docs", "four-forests", "-o", "site", "--no-balance"], "mkdocs", "docs"),
    (["docs", "-o", "pages"], "matplotlib", "docs"),
    (["print", "four-forests", "-o", "sheet.pdf"], "cairosvg", "print"),
    (["serve", "four-forests"], "starlette", "web"),
    (["simulate", "four-forests", "--games", "2", "--backend", "ray"], "ray", "ray"),
], ids=lambda value: " ".join(value) if isinstance(value, list) else value)
def test_a_missing_extra_is_said_in_one_line_before_any_work(capsys, monkeypatch, tmp_path, argv, blocked, extra):
    """Before any game is loaded (--backend ray: checked with the other options, once the game is)."""
    from silvics import games
    from silvics.commands import simulate
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, blocked, None)                # as if it were not installed
    if extra == "ray":
        monkeypatch.setattr(simulate, "run_simulation", lambda *args, **kwargs: pytest.fail("games were played"))
    else:
        monkeypatch.setattr(games, "load", lambda *args, **kwargs: pytest.fail("work was done: a game was loaded"))
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and list(tmp_path.iterdir()) == []
    assert re.fullmatch(rf"silvics: error: .* needs {blocked} \(silvics' {extra} extra\): "
                        rf"pip install (-e )?'\S+\[{extra}\]'(; or .*)?\n", err), err


@pytest.mark.parametrize("origin, line", [
    ({"url": f"file://{ROOT}", "dir_info": {"editable": True}}, "pip install -e '.[docs]'"),     # a clone, -e
    ({"url": "file:///home/me/silvics", "dir_info": {}}, "pip install '/home/me/silvics[docs]'"),  # pip install .
    ({}, "pip install 'silvics[docs]'"),                                                          # from an index
    (None, "pip install '.[docs]'"),                         # run from a clone never installed (from its folder)
])
def test_the_install_line_fits_how_silvics_was_installed(monkeypatch, origin, line):
    from silvics import extras
    monkeypatch.chdir(ROOT if origin else Path(extras.__file__).resolve().parent.parent)
    monkeypatch.setattr(extras, "_origin", lambda: origin)
    assert extras.install_line("docs") == line


def test_a_long_simulation_or_balance_is_announced_before_it_starts(tmp_path):
    from test_saves import announced
    line = announced("simulate", "four-forests", "--players", "2", "--games", "10", "--workers", "1",
                     "--agents", "montecarlo:100000,random")
    assert re.fullmatch(r"silvics: these 10 games should take about \d+ (h|days).* \(P1 montecarlo:100000 \d+ "
                        r"(min|h).* a decision, measured on this game\); Ctrl-C stops\n", line), line
    line = announced("balance", "four-forests", "--games", "4", "--agents", "random,ismcts:100000", "--no-cache",
                     "-o", tmp_path / "report")
    assert re.fullmatch(r"silvics: these 8 games should take about \d+ (min|h|days).* \(ismcts:100000 \d+ (min|h|days).* "
                        r"a game, measured on this game\); Ctrl-C stops\n", line), line
