"""Modules that own cards and know their company, steps added before and after procedures, and
setup options, on the test game Harvest (tests/fixtures/games/harvest; its scenarios in
tests/scenarios/harvest/ show each rule played). Every attack ends in a diagnostic or a misuse
message naming what is wrong, never a traceback."""
from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path

import pytest

from conftest import run_cli as run
from silvics import cache, games
from silvics.cli import main
from silvics.compiler.build import compile_game
from silvics.compiler.diagnostics import CompileError
from silvics.interpreter import ir
from silvics.interpreter.game import Game, SetupError

FIXTURES = Path(__file__).parent / "fixtures"
HARVEST = FIXTURES / "games" / "harvest"
POSITION = """\
game: {game}
players: 2
{extra}position:
  players:
    - basket: [melon]
    - basket: [pumpkin]
"""


@pytest.fixture(scope="module")
def harvest() -> ir.GameIR:
    return compile_game(HARVEST)


@pytest.fixture
def copy(tmp_path) -> Path:
    """A copy of Harvest to spoil."""
    shutil.copytree(HARVEST, tmp_path / "harvest")
    return tmp_path / "harvest"


def edit(path: Path, old: str, new: str):
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new))


def diagnostics(folder: Path) -> list:
    with pytest.raises(CompileError) as raised:
        compile_game(folder)
    return raised.value.diagnostics


def only(found: list, code: str, message: str):
    """The one diagnostic, with its code and message."""
    assert [(d.code, d.message) for d in found] == [(code, message)], found
    return found[0]


# ---- cards a module owns -----------------------------------------------------------------------

def card_ids(game: Game) -> set:
    return {card.id for card in game.rules.defs}


def test_a_modules_cards_are_in_the_game_only_while_it_is_on(harvest):
    assert {c.id for c in harvest.cards} == {"strawberry", "melon", "pumpkin"}
    assert card_ids(Game(harvest, 2, 1, start=False)) == {"strawberry", "melon", "pumpkin"}
    on = Game(harvest, 2, 1, ["orchard", "rare"], start=False)
    assert card_ids(on) == {"strawberry", "melon", "pumpkin", "apple", "pear", "mango", "kiwi", "lychee"}
    assert len(on.rules.defs) == 13 + 5 + 3 and on.state.conservation_errors() == []


def test_a_module_named_twice_is_on_once(harvest):
    assert len(Game(harvest, 2, 1, ["orchard", "orchard"], start=False).rules.defs) == 13 + 5


def test_a_module_card_cannot_take_a_base_cards_id(copy):
    edit(copy / "cards" / "orchard.yaml", "id: pear", "id: melon")
    found = only(diagnostics(copy), "E0403", "card id 'melon' is used twice")
    assert found.file.endswith("cards/orchard.yaml") and found.hint.startswith("first used at ")


def test_two_modules_cannot_own_one_card_id(copy):
    edit(copy / "cards" / "vineyard.yaml", "id: grape", "id: apple")
    only(diagnostics(copy), "E0403", "card id 'apple' is used twice")


def test_a_module_reads_no_card_file_outside_the_games_folder(copy, tmp_path):
    (tmp_path / "secret.yaml").write_text("kind: fruit\ncards: [{id: secret, value: 9, grows: field}]\n")
    edit(copy / "modules" / "orchard.yaml", "cards: [../cards/orchard.yaml]", "cards: [../../secret.yaml]")
    found = only(diagnostics(copy), "E0101", "'../../secret.yaml' is outside the game's root folder")
    assert found.file.endswith("modules/orchard.yaml")


def test_a_pack_modules_cards_stay_inside_the_pack(tmp_path):
    pack = tmp_path / "pack"
    shutil.copytree(FIXTURES / "packs" / "mythic", pack)
    (tmp_path / "secret.yaml").write_text("kind: plant\ncards: []\n")
    module = pack / "modules" / "mythic-first.yaml"
    module.write_text(module.read_text().replace("procedures:", "cards: [../../secret.yaml]\nprocedures:"))
    status, _, err = run("check", pack)
    assert status == 1 and "'../../secret.yaml' is outside the pack's folder" in err


def test_show_finds_a_modules_card_and_says_whose_it_is(capsys):
    status, out, _ = run("show", HARVEST, "pear")
    assert status == 0 and out.startswith("pear (fruit") and "only with the module orchard" in out


def test_check_says_what_each_module_changes():
    status, out, _ = run("check", HARVEST)
    assert status == 0
    assert "  module orchard: adds steps after: setup; adds cards: 2 (5 copies)\n" in out
    assert "  module rare-dealt: replaces procedures: deal; adds steps before: setup; requires: rare\n" in out
    assert ("  module alone: adds steps before: setup, play; adds steps after: scoring; "
            "requires: orchard (when vineyard on); options: challenge, tier\n") in out
    assert "  module rare-shuffled: adds steps before: setup; requires: rare; excludes: rare-dealt\n" in out


# ---- the company a module keeps ------------------------------------------------------------

@pytest.mark.parametrize("modules, message", [
    (["rare-shuffled"], "module 'rare-shuffled' needs module 'rare' on too"),
    (["rare", "rare-shuffled", "rare-dealt"], "modules 'rare-shuffled' and 'rare-dealt' cannot be on together"),
    (["rare", "rare-dealt", "rare-shuffled"], "modules 'rare-shuffled' and 'rare-dealt' cannot be on together"),
    (["alone", "vineyard"], "module 'alone' needs module 'orchard' on too when 'vineyard' is on"),
    (["orchad"], ("unknown module 'orchad'; Harvest (test game) has: alone, orchard, rare-dealt, rare-shuffled, "
                 "rare, vineyard (did you mean 'orchard'?)")),
])
def test_a_combination_the_modules_forbid_is_refused_by_the_game(harvest, modules, message):
    with pytest.raises(SetupError) as raised:
        Game(harvest, 1, 1, modules)
    assert str(raised.value) == message


@pytest.mark.parametrize("modules", [[], ["alone"], ["alone", "orchard"], ["alone", "orchard", "vineyard"],
                                     ["vineyard", "orchard", "alone"], ["rare", "rare-dealt"]])
def test_every_combination_the_rules_allow_plays(harvest, modules):
    game = Game(harvest, 1, 2, modules)
    while not game.over:
        game.apply(0)
    assert game.state.conservation_errors() == []


FORBIDDEN = ["--module", "rare", "--module", "rare-shuffled", "--module", "rare-dealt"]
NAMED = "modules 'rare-shuffled' and 'rare-dealt' cannot be on together"


@pytest.mark.parametrize("command", [["play", HARVEST, "--quiet"], ["simulate", HARVEST, "--games", "2"]])
def test_a_forbidden_combination_is_misuse_on_the_command_line(command):
    status, out, err = run(*command, *FORBIDDEN)
    assert status == 2 and out == "" and err == f"silvics: error: {NAMED}\n"


def test_a_forbidden_combination_is_misuse_for_score(tmp_path):
    position = tmp_path / "end.yaml"
    position.write_text(POSITION.format(game=HARVEST, extra="modules: [rare, rare-shuffled, rare-dealt]\n"))
    status, _, err = run("score", HARVEST, position)
    assert status == 2 and err == f"silvics: error: {NAMED}\n"


def test_a_forbidden_combination_fails_a_scenario_in_words(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"game: {HARVEST}\nplayers: 2\nmodules: [rare, rare-dealt, rare-shuffled]\n")
    status, out, _ = run("scenario", scenario)
    assert status == 1 and f"cannot set up: {NAMED}" in out


def test_check_says_a_scenarios_forbidden_combination_is_its_error(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"game: {HARVEST}\nplayers: 2\nmodules: [rare, rare-dealt, rare-shuffled]\n")
    status, _, err = run("check", scenario)
    assert status == 1 and err == f"error: {scenario}: cannot set up: {NAMED}\n"


def test_reforests_two_event_modes_exclude_each_other():
    status, _, err = run("play", "reforest", "--module", "events", "--module", "events-casual", "--quiet")
    assert status == 2 and err == "silvics: error: modules 'events-casual' and 'events' cannot be on together\n"


@pytest.mark.parametrize("module, old, new, code, message, hint", [
    ("rare-dealt", "requires: [rare]", "requires: [rar]", "E0401", "unknown module 'rar'", "did you mean 'rare'?"),
    ("alone", "when: vineyard", "when: vinyard", "E0401", "unknown module 'vinyard'", "did you mean 'vineyard'?"),
    ("rare-shuffled", "excludes: [rare-dealt]", "excludes: [rare-shuffled]", "E0501",
     "module 'rare-shuffled' names itself in excludes", ""),
    ("orchard", "cards:", "requires: [vineyard]\ncards:", None, None, None),
])
def test_the_company_named_is_checked_when_compiling(copy, module, old, new, code, message, hint):
    edit(copy / "modules" / f"{module}.yaml", old, new)
    if code is None:                                     # the orchard may require the vineyard
        compile_game(copy)
        return
    found = only(diagnostics(copy), code, message)
    assert found.hint == hint and found.file.endswith(f"modules/{module}.yaml")


def test_a_circle_of_requires_is_a_diagnostic(copy):
    edit(copy / "modules" / "orchard.yaml", "cards:", "requires: [vineyard]\ncards:")
    edit(copy / "modules" / "vineyard.yaml", "cards:", "requires: [alone]\ncards:")
    edit(copy / "modules" / "alone.yaml", "requires:\n", "requires:\n  - orchard\n")
    found = only(diagnostics(copy), "E0501", "modules 'alone', 'orchard', 'vineyard' require each other, so none "
                                             "can be on without the others")
    assert found.hint == "make them one module"


def test_a_module_that_can_never_be_on_is_a_diagnostic(copy):
    edit(copy / "modules" / "rare-dealt.yaml", "requires: [rare]", "requires: [rare, rare-shuffled]")
    only(diagnostics(copy), "E0501", "module 'rare-dealt' can never be on: with it 'rare-shuffled' and 'rare-dealt' "
                                     "must be on, and 'rare-shuffled' excludes 'rare-dealt'")


def test_a_company_entry_has_a_module_and_when(copy):
    edit(copy / "modules" / "alone.yaml", "{module: orchard, when: vineyard}", "{module: orchard, if: vineyard}")
    found = diagnostics(copy)
    assert [d.code for d in found] == ["E0201"] and found[0].file.endswith("modules/alone.yaml")


# ---- steps before and after a procedure ------------------------------------------------------

@pytest.mark.parametrize("modules, trail", [(["orchard", "vineyard"], 12), (["vineyard", "orchard"], 21),
                                            (["orchard", "alone", "vineyard"], 312), (["alone"], 3), ([], 0)])
def test_modules_extending_setup_all_run_in_module_order(harvest, modules, trail):
    game = Game(harvest, 1, 1, modules, start=False)
    game.run_procedure("setup")
    assert game.state.counters["trail"] == trail


def test_a_replaced_procedure_keeps_the_steps_other_modules_add_around_it(copy):
    edit(copy / "modules" / "vineyard.yaml", "after:", "procedures:\n  setup:\n    - set trail to trail * 10 + 7\nafter:")
    game = Game(compile_game(copy), 1, 1, ["alone", "vineyard", "orchard"], start=False)
    game.run_procedure("setup")
    assert game.state.counters["trail"] == 3721      # before (alone), the vineyard's setup, after (vineyard, orchard)


def test_steps_around_an_unknown_procedure_are_a_diagnostic(copy):
    edit(copy / "modules" / "orchard.yaml", "after:\n  setup:", "after:\n  setpu:")
    found = only(diagnostics(copy), "E0401", "unknown procedure 'setpu'")
    assert found.hint == "did you mean 'setup'?"


def test_steps_around_a_procedure_see_what_it_sees(copy):
    """`pick` is run inside `each player`: steps after it may use `you`; after `setup` they may not."""
    edit(copy / "modules" / "orchard.yaml", "after:", "after:\n  pick:\n    - move 1 from deck to hand\n")
    compile_game(copy)
    edit(copy / "modules" / "orchard.yaml", "  setup:\n    - set trail to trail * 10 + 1",
         "  setup:\n    - move 1 from deck to hand")
    only(diagnostics(copy), "E0402", "'hand' is one per player: say whose")


# ---- setup options ---------------------------------------------------------------------------------

def test_options_take_their_defaults_and_what_is_chosen(harvest):
    assert Game(harvest, 1, 1, ["alone"], start=False).rules.options == \
        {"length": "short", "challenge": "any-fruit", "tier": "bronze"}
    chosen = Game(harvest, 1, 1, ["alone"], options={"tier": "gold", "length": "long"}, start=False)
    assert chosen.rules.options == {"length": "long", "challenge": "any-fruit", "tier": "gold"}


@pytest.mark.parametrize("modules, options, message", [
    (["alone"], {"tier": "platinum"}, "option 'tier' cannot be 'platinum'; it can be: bronze, silver, gold"),
    (["alone"], {"tier": "gould"}, ("option 'tier' cannot be 'gould'; it can be: bronze, silver, gold "
                                   "(did you mean 'gold'?)")),
    (["alone"], {"tire": "gold"}, ("unknown option 'tire'; Harvest (test game) has: length, challenge, tier "
                                  "(did you mean 'tier'?)")),
    ([], {"tier": "gold"}, "option 'tier' belongs to module 'alone', which is not on"),
])
def test_an_option_the_game_does_not_declare_is_refused(harvest, modules, options, message):
    with pytest.raises(SetupError) as raised:
        Game(harvest, 1, 1, modules, options=options)
    assert str(raised.value) == message


@pytest.mark.parametrize("command", [["play", "--quiet"], ["simulate", "--games", "2"]])
@pytest.mark.parametrize("setting, message", [
    ("tier=platinum", "silvics: error: option 'tier' cannot be 'platinum'; it can be: bronze, silver, gold\n"),
    ("colour=red", "silvics: error: unknown option 'colour'; Harvest (test game) has: length, challenge, tier\n"),
])
def test_set_with_an_undeclared_option_or_value_is_misuse(command, setting, message):
    status, out, err = run(command[0], HARVEST, "--module", "alone", "--players", "1", "--set", setting, *command[1:])
    assert status == 2 and out == "" and err == message


@pytest.mark.parametrize("setting", ["tier", "=gold", "tier=", "tier = "])
def test_a_malformed_set_is_misuse(setting):
    with pytest.raises(SystemExit) as exited, contextlib.redirect_stderr(io.StringIO()) as err:
        main(["play", str(HARVEST), "--set", setting])
    assert exited.value.code == 2 and "argument --set: write NAME=VALUE" in err.getvalue()


def test_an_option_set_twice_is_misuse():
    status, _, err = run("play", HARVEST, "--set", "length=long", "--set", "length=short", "--quiet")
    assert status == 2 and err == "silvics: error: --set length is given twice\n"


def test_set_chooses_an_option_for_play_and_its_header_says_so():
    status, out, _ = run("play", HARVEST, "--players", "1", "--module", "alone", "--set", "tier=silver", "--log", "full",
                         "--set", "length=long")
    assert status == 0
    assert out.startswith("Harvest (test game): 1 player, seed 1, agents random, modules alone, tier=silver, "
                          "length=long\n")
    assert "Counters: target 10," in out and out.count("-> basket@1") == 3


def test_set_on_scenario_and_score_is_chosen_over_the_files_options(tmp_path):
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"game: {HARVEST}\nplayers: 1\nseed: 1\nmodules: [alone]\noptions: {{tier: gold}}\n"
                        "others: random\nexpect: {counters: {target: 12}}\n")
    assert run("scenario", scenario)[0] == 0
    status, out, _ = run("scenario", scenario, "--set", "tier=bronze")
    assert status == 1 and "target: expected 12, got 8" in out
    status, out, _ = run("scenario", scenario, "--set", "tier=golden")
    assert status == 1 and "cannot set up: option 'tier' cannot be 'golden'" in out
    position = tmp_path / "end.yaml"
    position.write_text(POSITION.format(game=HARVEST, extra="modules: [alone, orchard]\n"
                                        "options: {challenge: only-trees}\n"))
    assert run("score", HARVEST, position, "--set", "tier=gold")[0] == 0
    status, _, err = run("score", HARVEST, position, "--set", "length=medium")
    assert status == 2 and err.startswith("silvics: error: option 'length' cannot be 'medium'")


@pytest.mark.parametrize("old, new, code, message, hint", [
    ("default: bronze", "default: platinum", "E0402",
     "the default 'platinum' is not one of the values", "it can be: bronze, silver, gold"),
    ("  tier:\n", "  length: {values: [short]}\n  tier:\n", "E0403", "option 'length' is declared twice", None),
    ("values: [bronze, silver, gold]", "values: [bronze, bronze]", "E0201", None, None),
])
def test_an_option_is_declared_once_with_its_default_among_its_values(copy, old, new, code, message, hint):
    edit(copy / "modules" / "alone.yaml", old, new)
    found = diagnostics(copy)
    assert [d.code for d in found] == [code], found
    assert message is None or found[0].message == message
    assert hint is None or found[0].hint == hint


@pytest.mark.parametrize("old, new, message, hint", [
    ("module(orchard)", "module(orchad)", "'module' cannot be 'orchad'", "did you mean 'orchard'?"),
    ("option(length)", "option(lenght)", "'option' cannot be 'lenght'", "did you mean 'length'?"),
    ("option(length) = long", "option(length) = lnog", "unknown name 'lnog'", "did you mean 'long'?"),
])
def test_rules_name_modules_and_options_the_game_has(copy, old, new, message, hint):
    edit(copy / "game.yaml", old, new)
    assert only(diagnostics(copy), "E0401", message).hint == hint


def test_a_game_without_modules_or_options_says_so(copy):
    shutil.rmtree(copy / "modules")
    edit(copy / "game.yaml", "options:\n  length:\n    values: [short, long]\n", "")
    edit(copy / "game.yaml", "    description: a short game has 2 rounds, a long one 3\n", "")
    found = {(d.message, d.hint) for d in diagnostics(copy)}
    assert found == {("'module' cannot be 'orchard'", "the game declares no modules"),
                     ("'option' cannot be 'length'", "the game declares no options")}


# ---- the IR --------------------------------------------------------------------------------------

def test_the_ir_of_modules_round_trips_and_layers(harvest):
    assert ir.loads(ir.dumps(harvest)) == harvest
    layered = harvest.with_modules(["rare", "rare-dealt", "alone", "orchard"])
    assert ir.loads(ir.dumps(layered)) == layered
    assert layered.with_modules(["rare", "rare-dealt", "alone", "orchard"]) == layered     # layered once only


def spoilt(harvest, change) -> str:
    data = json.loads(ir.dumps(harvest))
    change(data)
    with pytest.raises(ir.IRError) as raised:
        ir.loads(json.dumps(data))
    return str(raised.value)


def test_the_loader_checks_what_modules_name(harvest):
    def requires_nothing(d):
        d["modules"]["rare-dealt"]["requires"][0]["module"] = "nothing"
    assert spoilt(harvest, requires_nothing) == "modules.rare-dealt.requires[0]: no module 'nothing'"

    def extends_nothing(d):
        d["modules"]["orchard"]["after"]["nothing"] = d["modules"]["orchard"]["after"].pop("setup")
    assert spoilt(harvest, extends_nothing) == ("modules.orchard.after.nothing: no procedure 'nothing' in the rules "
                                                "or any module")

    def bad_default(d):
        d["options"][0]["default"] = "medium"
    assert spoilt(harvest, bad_default) == "options[0].default: the default 'medium' is not one of the values"

    def clashing_card(d):
        d["modules"]["orchard"]["cards"][0]["id"] = "melon"
    assert spoilt(harvest, clashing_card) == "modules.orchard.cards[0].id: card 'melon' is defined twice"

    def option_twice(d):
        d["options"].append(d["modules"]["alone"]["options"][1])
    assert spoilt(harvest, option_twice) == "modules.alone.options[1].name: option 'tier' is declared twice"


def test_the_loader_checks_the_words_module_and_option_take(harvest):
    text = ir.dumps(harvest)
    assert '"module":"rare-shuffled"' in text
    with pytest.raises(ir.IRError) as raised:
        ir.loads(text.replace('"module":"rare-shuffled"', '"module":"nothing"'))
    assert "should be one of alone, orchard, rare, rare-dealt, rare-shuffled, vineyard, not a string" in str(raised.value)


# ---- the cache sees a module's own card files -----------------------------------------------------

def test_a_change_to_a_modules_card_file_is_seen_by_the_cache(copy, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    games.load(str(copy))
    assert cache.fetch(copy / "game.yaml") is not None
    edit(copy / "cards" / "orchard.yaml", "value: 3", "value: 4")
    assert cache.fetch(copy / "game.yaml") is None


def test_two_modules_may_list_one_card_file_whose_cards_are_in_while_either_is_on(copy):
    # Forest Shuffle's two Around the Globe modes bring the same new and rare cards: each lists
    # them, so each works alone, and neither needs a third module to own them.
    for mode in ("rare-dealt", "rare-shuffled"):
        edit(copy / "modules" / f"{mode}.yaml", "requires: [rare]", "cards: [../cards/rare.yaml]")
    game = compile_game(copy)
    rare = {card.id for card in game.modules["rare"].cards}
    assert rare and rare == {card.id for card in game.modules["rare-dealt"].cards}
    for on in (["rare-dealt"], ["rare-shuffled"], ["rare", "rare-dealt"]):
        ids = [card.id for card in game.with_modules(on).cards]
        assert rare <= set(ids) and len(ids) == len(set(ids)), on
    assert not rare & {card.id for card in game.with_modules([]).cards}


def test_a_module_may_say_how_many_players_the_game_is_for_while_it_is_on(copy):
    # Forest Shuffle is for 2 to 5 players, and for 1 with its solo module: the count is checked
    # with the modules on, and the message names the module that allows another count.
    edit(copy / "game.yaml", "players: {min: 1, max: 3}", "players: {min: 2, max: 3}")
    edit(copy / "modules" / "alone.yaml", "name: alone\n", "name: alone\nplayers: {min: 1, max: 1}\n")
    assert run("play", copy, "--players", "1") == (
        2, "", "silvics: error: Harvest (test game) is for 2 to 3 players (1 player with module 'alone')\n")
    status, out, _ = run("play", copy, "--players", "1", "--module", "alone", "--quiet")
    assert status == 0 and "Final scores" in out
    status, _, err = run("play", copy, "--players", "2", "--module", "alone")
    assert status == 2 and "Harvest (test game) with module 'alone' is for 1 player" in err
    status, out, _ = run("play", copy, "--module", "alone", "--quiet")       # the default: the module's most
    assert status == 0 and "P2" not in out
    assert compile_game(copy).player_range(["alone"]) == (1, 1)


def test_a_module_whose_players_run_backwards_is_an_error(copy):
    edit(copy / "modules" / "alone.yaml", "name: alone\n", "name: alone\nplayers: {min: 2, max: 1}\n")
    only(diagnostics(copy), "E0501", "players: min 2 is more than max 1")
