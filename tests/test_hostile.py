"""Packs and data written by an attacker: each test is an attack that must end in a
diagnostic, quickly, without reading outside the pack, printing a stranger's file,
hanging, eating memory or showing a traceback."""
from __future__ import annotations

import csv
import functools
import gc
import os
import resource
import shutil
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import pytest
import yaml

from conftest import run_captured as run
from silvics import games
from silvics.cli import main
from silvics.compiler.build import compile_game
from silvics.compiler.diagnostics import CompileError
from silvics.interpreter.ir import GameIR

FIXTURES = Path(__file__).parent / "fixtures"
MYTHIC = FIXTURES / "packs" / "mythic"
MARKET = FIXTURES / "games" / "market"
SECRET = "hunter2-do-not-print"


def check(*paths) -> tuple[int, str]:
    """`silvics check PATHS`, in process: (status, everything printed)."""
    import contextlib
    import io
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["check", *map(str, paths)])
    return status, out.getvalue() + err.getvalue()


def silvics_child(*args, timeout=60) -> tuple[int, str]:
    """The CLI in a child process with 1.5 GB of address space and a time limit: an attack that
    hangs or eats memory fails the test instead of the machine."""
    def limits():
        resource.setrlimit(resource.RLIMIT_AS, (1536 * 2**20, 1536 * 2**20))
    try:
        done = subprocess.run([sys.executable, "-m", "silvics", *map(str, args)], capture_output=True, text=True,
                              timeout=timeout, preexec_fn=limits, env={**os.environ, "XDG_CACHE_HOME": "/nonexistent"})
    except subprocess.TimeoutExpired:
        pytest.fail(f"silvics {' '.join(map(str, args))} was still running after {timeout} s")
    return done.returncode, done.stdout + done.stderr


@pytest.fixture
def pack(tmp_path) -> Path:
    """A copy of the mythic pack, with a secret file beside it (outside the pack's folder)."""
    shutil.copytree(MYTHIC, tmp_path / "pack")
    (tmp_path / "secret.txt").write_text(f"password: {SECRET}\n")
    return tmp_path / "pack"


def list_cards(pack: Path, *entries: str):
    text = (pack / "pack.yaml").read_text().replace("cards: [cards/]", f"cards: [{', '.join(entries)}]")
    (pack / "pack.yaml").write_text(text)


def assert_refused(status, output, message, where="pack.yaml:5:"):
    assert status == 1, output
    assert message in output, output
    assert where in output, output
    assert SECRET not in output and "Traceback" not in output, output


# ---- 1. a pack reads only regular files inside its own folder --------------------------------

def test_a_path_climbing_out_of_the_pack_is_refused_unread(pack):
    list_cards(pack, "cards/", "../secret.txt")
    assert_refused(*check(pack), "'../secret.txt' is outside the pack's folder", "pack.yaml:5:17: error[E0101]")


def test_an_absolute_path_is_refused(pack):
    list_cards(pack, "cards/", str(pack.parent / "secret.txt"))
    assert_refused(*check(pack), "is outside the pack's folder")


def test_a_link_pointing_out_of_the_pack_is_refused(pack):
    (pack / "cards" / "leak.yaml").symlink_to(pack.parent / "secret.txt")
    assert_refused(*check(pack), "'leak.yaml' in 'cards/' is outside the pack's folder")


def test_a_linked_folder_pointing_out_of_the_pack_is_refused(pack):
    (pack.parent / "elsewhere").mkdir()
    (pack.parent / "elsewhere" / "more.yaml").write_text(f"kind: creature\ncards: {SECRET}\n")
    (pack / "more").symlink_to(pack.parent / "elsewhere")
    list_cards(pack, "cards/", "more/")
    assert_refused(*check(pack), "'more/' is outside the pack's folder")


def test_a_link_that_leads_back_to_itself_is_refused(pack, capsys):
    """A loop of links raised Python's "Symlink loop" as a traceback from every command."""
    (pack / "cards" / "loop.yaml").symlink_to("loop.yaml")
    assert_refused(*check(pack), "'loop.yaml' in 'cards/' is a link that leads back to itself")
    status, _, err = run(capsys, "export", pack, "--csv", "-o", pack.parent / "cards.csv")
    assert status == 1 and "is a link that leads back to itself" in err, err
    assert not (pack.parent / "cards.csv").exists()


def test_a_card_file_the_pack_does_not_read_is_checked_when_named(pack):
    """`check FILE` of a file in a pack's folder that pack.yaml does not list (a folder of its own,
    a .yml beside the .yaml files) said ok without reading it. It is checked with the pack, and
    the check says the pack does not read it."""
    (pack / "extra").mkdir()
    (pack / "extra" / "broken.yaml").write_text("kind: creature\ncards: [\n")
    status, output = check(pack / "extra" / "broken.yaml")
    assert status == 1 and "broken.yaml:3:1: error[E0102]" in output, output
    card = (pack / "cards" / "creatures.yaml").read_text()
    (pack / "cards" / "more.yml").write_text(card.replace("id: ", "id: more-"))
    status, output = check(pack / "cards" / "more.yml")
    assert status == 0 and "which does not read this file: list it under cards: in its pack.yaml" in output, output
    status, output = check(pack / "cards" / "creatures.yaml")
    assert status == 0 and "which does not read" not in output, output


def test_a_card_file_a_listed_folder_does_not_stand_for_is_a_warning(pack):
    """A folder listed under `cards:` stands for the .yaml files directly in it: a .yml file, or a
    file in a folder inside it, was left out without a word (a pack's only card could vanish)."""
    card = (pack / "cards" / "creatures.yaml").read_text()
    (pack / "cards" / "more.yml").write_text(card.replace("id: ", "id: more-"))
    (pack / "cards" / "deeper").mkdir()
    (pack / "cards" / "deeper" / "most.yaml").write_text(card.replace("id: ", "id: most-"))
    status, output = check(pack)
    assert status == 0, output
    assert "more.yml:1:1: warning[W0107]: this file is not read: its name ends in .yml" in output, output
    assert "hint: rename it more.yaml" in output
    assert "most.yaml:1:1: warning[W0107]: this file is not read: it is in cards/deeper/" in output, output
    assert "hint: list cards/deeper/ too" in output
    assert check(pack, "--strict")[0] == 1
    status, output = check(pack)  # the second check answers from the cache, and still warns
    assert status == 0 and output.count("W0107") == 2, output
    list_cards(pack, "cards/", "cards/deeper/")   # a folder inside, listed too: read, not warned of
    status, output = check(pack)
    assert status == 0 and output.count("W0107") == 1 and "most.yaml" not in output, output


def test_a_link_to_nothing_is_named(pack):
    """A link whose file is gone was "cannot read 'cards/': No such file or directory"."""
    (pack / "cards" / "gone.yaml").symlink_to("nothing-here.yaml")
    assert_refused(*check(pack), "'gone.yaml' in 'cards/' is a link to a file that is not there")


def test_a_link_inside_the_pack_is_followed(pack):
    (pack / "cards" / "creatures.yaml").rename(pack / "real.yaml")
    (pack / "cards" / "creatures.yaml").symlink_to(pack / "real.yaml")
    status, output = check(pack)
    assert status == 0 and "77 cards" in output, output


def test_a_link_to_an_endless_device_is_refused_unopened(pack):
    (pack / "cards" / "zero.yaml").symlink_to("/dev/zero")
    status, output = silvics_child("check", pack)
    assert_refused(status, output, "'zero.yaml' in 'cards/' is outside the pack's folder")


def test_a_fifo_is_refused_unopened(pack):
    os.mkfifo(pack / "cards" / "pipe.yaml")
    for command in (["check", pack], ["play", pack, "--players", "2", "--quiet"]):   # play also fills the cache
        status, output = silvics_child(*command)
        assert_refused(status, output, "'pipe.yaml' in 'cards/' is not a regular file")


def test_a_fifo_named_to_check_as_a_card_file_does_not_hang(pack):
    os.mkfifo(pack / "cards" / "pipe.yaml")
    status, output = silvics_child("check", pack / "cards" / "pipe.yaml", timeout=20)
    assert status == 2 and output == f"silvics: error: {pack / 'cards' / 'pipe.yaml'} is not a regular file: " \
                                     "give a YAML file, not a device, a pipe or a socket\n", output


def test_a_fifo_given_as_pack_yaml_does_not_hang(pack):
    (pack / "pack.yaml").unlink()
    os.mkfifo(pack / "pack.yaml")
    status, output = silvics_child("check", pack)
    assert status == 2 and "error: no game" in output and "Traceback" not in output, output


def test_a_pack_yaml_linked_out_of_the_pack_is_refused_unread(pack):
    (pack / "pack.yaml").unlink()
    (pack / "pack.yaml").symlink_to(pack.parent / "secret.txt")
    for spec in (pack, pack / "pack.yaml"):
        assert_refused(*check(spec), "pack.yaml links to a file outside the pack's folder", f"{pack.name}:1:1:")


def test_a_game_yaml_linked_out_of_the_game_is_refused_unread(tmp_path):
    shutil.copytree(MARKET, tmp_path / "market")
    (tmp_path / "secret.txt").write_text(f"password: {SECRET}\n")
    (tmp_path / "market" / "game.yaml").unlink()
    (tmp_path / "market" / "game.yaml").symlink_to(tmp_path / "secret.txt")
    assert_refused(*check(tmp_path / "market"), "game.yaml links to a file outside the game's root folder",
                   "market:1:1:")


def test_a_game_reads_only_under_its_root(tmp_path):
    shutil.copytree(MARKET, tmp_path / "market")
    (tmp_path / "secret.txt").write_text(f"password: {SECRET}\n")
    game = tmp_path / "market" / "game.yaml"
    game.write_text(game.read_text().replace("cards: [cards.yaml]", "cards: [cards.yaml, ../secret.txt]"))
    assert_refused(*check(tmp_path / "market"), "'../secret.txt' is outside the game's root folder", "game.yaml:13:")


def test_a_module_linked_out_of_the_game_is_refused(tmp_path):
    shutil.copytree(MARKET, tmp_path / "market")
    (tmp_path / "secret.txt").write_text(f"password: {SECRET}\n")
    (tmp_path / "market" / "modules").mkdir()
    (tmp_path / "market" / "modules" / "leak.yaml").symlink_to(tmp_path / "secret.txt")
    assert_refused(*check(tmp_path / "market"), "'leak.yaml' in 'modules' is outside the game's root folder",
                   "game.yaml:")


# ---- 2. a pack extends a bundled game by id, and what its modules change is shown --------------

def test_a_pack_cannot_put_its_own_copy_of_the_game_under_it(pack):
    shutil.copytree(FIXTURES.parent.parent / "rules" / "four-forests", pack / "rules" / "four-forests")
    shutil.copytree(FIXTURES.parent.parent / "cards" / "four-forests", pack / "cards" / "four-forests")
    text = (pack / "pack.yaml").read_text().replace("extends: four-forests", "extends: rules/four-forests")
    (pack / "pack.yaml").write_text(text)
    status, output = check(pack)
    assert status == 1 and "pack.yaml:4:10: error[E0201]" in output, output
    assert "a pack extends a bundled game by its id" in output


def test_a_pack_extending_an_unknown_game_is_told_the_bundled_ones(pack):
    (pack / "pack.yaml").write_text((pack / "pack.yaml").read_text().replace("four-forests", "five-forests"))
    status, output = check(pack)
    assert status == 1 and "error[E0401]: no game 'five-forests' to extend: a pack extends one of forest-shuffle, four-forests, reforest" in output, output


@pytest.fixture
def my_game(tmp_path, monkeypatch) -> Path:
    """A game of the user's own, not bundled: Four Forests copied under the id my-forests."""
    monkeypatch.setattr(games, "_offered", {})
    root = FIXTURES.parent.parent
    shutil.copytree(root / "rules" / "four-forests", tmp_path / "mine" / "rules" / "my-forests")
    shutil.copytree(root / "cards" / "four-forests", tmp_path / "mine" / "cards" / "four-forests")
    game = tmp_path / "mine" / "rules" / "my-forests" / "game.yaml"
    game.write_text(game.read_text().replace("id: four-forests", "id: my-forests"))
    return game.parent


def test_a_pack_extends_a_game_the_user_names_on_the_command_line(pack, my_game):
    (pack / "pack.yaml").write_text((pack / "pack.yaml").read_text().replace("four-forests", "my-forests"))
    status, output = check(pack)
    assert status == 1 and "no game 'my-forests' to extend" in output, output
    assert main(["--base", str(my_game), "check", str(pack)]) == 0


def test_base_takes_a_game(pack, my_game, capsys):
    assert main(["--base", str(pack), "check", str(pack)]) == 2
    assert "--base takes a game folder or game.yaml with an id" in capsys.readouterr().err


MODULE = """\
name: sea-scoring
description: Krakens count double.
procedures:
  scoring: []
  tide:
    - shuffle deck
"""


def test_check_lists_every_procedure_a_pack_module_replaces(pack):
    (pack / "modules" / "sea.yaml").write_text(MODULE)
    status, output = check(pack)
    assert status == 0, output
    assert ("4 modules)\n  module mythic-first: replaces procedures: deal_creatures\n"
            "  module sea-scoring: replaces procedures: scoring; adds procedures: tide\n") in output
    assert main(["play", str(pack), "--players", "2", "--module", "sea-scoring", "--quiet", "--no-cache"]) == 0


def test_a_pack_module_cannot_take_a_base_module_name(pack):
    (pack / "modules" / "sea.yaml").write_text(MODULE.replace("sea-scoring", "experienced"))
    status, output = check(pack)
    assert status == 1 and "sea.yaml:1:7: error[E0403]: module name 'experienced' is used twice" in output, output


def test_a_pack_module_outside_the_pack_is_refused(pack):
    (pack / "pack.yaml").write_text((pack / "pack.yaml").read_text().replace("[modules/]", "[../secret.txt]"))
    assert_refused(*check(pack), "'../secret.txt' is outside the pack's folder", "pack.yaml:6:")


# ---- 3. limits, checked with a diagnostic before the work is done ------------------------------

def market_copy(tmp_path, old="", new="", cards_extra="") -> Path:
    shutil.copytree(MARKET, tmp_path / "market")       # (makes tmp_path too)
    game = tmp_path / "market" / "game.yaml"
    assert old in game.read_text()
    game.write_text(game.read_text().replace(old, new, 1))
    with open(tmp_path / "market" / "cards.yaml", "a") as cards:
        cards.write(cards_extra)
    return tmp_path / "market"


def test_a_huge_card_file_is_refused_by_its_size(pack):
    with open(pack / "cards" / "huge.yaml", "wb") as huge:
        huge.truncate(50 * 2**20)               # 50 MB (sparse: quick to make, slow to parse)
    started = time.perf_counter()
    status, output = check(pack)
    assert time.perf_counter() - started < 2
    assert_refused(status, output, "'huge.yaml' in 'cards/' is 52,428,800 bytes, more than the 5 MB a file may be")


def test_many_large_files_are_refused_by_their_total_size(pack):
    for i in range(5):
        with open(pack / "cards" / f"big{i}.yaml", "wb") as big:
            big.truncate(4 * 2**20)             # each under the limit, together over
    assert_refused(*check(pack), "the files listed come to more than 20 MB")


def test_a_huge_game_file_is_refused_by_its_size(tmp_path):
    folder = market_copy(tmp_path)
    with open(folder / "game.yaml", "a") as game:
        game.write("#" * (6 * 2**20))
    status, output = check(folder)
    assert status == 1 and "game.yaml:1:1: error[E0101]: this file is" in output, output


def test_a_document_with_too_many_values_is_refused_before_it_is_composed(tmp_path):
    from silvics.compiler.yamlload import MAX_VALUES, YamlError, load
    text = "kind: goods\ncards: [" + "0," * (1_500_000) + "0]\n"     # 3 MB of values
    tracemalloc.start()
    with pytest.raises(YamlError) as refused:
        load(text, "big.yaml")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert f"more than {MAX_VALUES} values" in refused.value.diagnostics[0].message
    assert peak < 100 * 2**20, f"{peak / 2**20:.0f} MB used to refuse it"


def test_deeply_nested_yaml_is_a_diagnostic(tmp_path):
    folder = market_copy(tmp_path, cards_extra="  - {id: gold, price: 1, junk: " + "[" * 900 + "]" * 900 + "}\n")
    status, output = check(folder)
    assert status == 1 and "cards.yaml:14:" in output and "nested more than 50 deep" in output, output


def test_an_effect_nested_300_deep_is_a_diagnostic_at_the_string(tmp_path):
    nots = "not " * 300 + "count(row) > 0"
    folder = market_copy(tmp_path, "    - add 1 to coins\n    - move 1",
                         f'    - if: "{nots}"\n      then: [add 1 to coins]\n    - move 1')
    status, output = check(folder)
    assert status == 1 and "game.yaml:54:" in output and "nested more than 100 deep" in output, output


def test_a_sum_of_3000_terms_is_a_diagnostic(tmp_path):
    folder = market_copy(tmp_path, "    - add 1 to coins\n", "    - add " + "+".join(["1"] * 3000) + " to coins\n")
    status, output = check(folder)
    assert status == 1 and "nested more than 100 deep" in output, output


@pytest.mark.parametrize("digits", [16, 5000])
def test_a_long_integer_in_yaml_is_a_diagnostic(tmp_path, digits):
    folder = market_copy(tmp_path, cards_extra="  - {id: gold, price: " + "9" * digits + "}\n")
    status, output = check(folder)
    assert status == 1 and "cards.yaml:14:23: error[E0102]: this number has more than 15 digits" in output, output


@pytest.mark.parametrize("digits", [16, 5000])
def test_a_long_integer_in_an_effect_is_a_diagnostic(tmp_path, digits):
    folder = market_copy(tmp_path, "    - add 1 to coins\n", "    - add " + "9" * digits + " to coins\n")
    status, output = check(folder)
    assert status == 1 and "game.yaml:54:11: error[E0301]: this number has more than 15 digits" in output, output


def test_players_are_bounded(tmp_path):
    folder = market_copy(tmp_path, "players: {min: 1, max: 3}", "players: {min: 1, max: 100000000}")
    status, output = check(folder)
    assert status == 1 and "players: max must be at most 16, got 100000000" in output, output


def test_copies_are_bounded(tmp_path):
    folder = market_copy(tmp_path, cards_extra="  - {id: gold, price: 1, copies: 100000000}\n")
    status, output = check(folder)
    assert status == 1 and "card 'gold': copies must be at most 1000, got 100000000" in output, output


@pytest.mark.parametrize("copies", ["2.0", "1.0e+3"])
def test_copies_written_as_a_decimal_are_refused(tmp_path, copies):
    """YAML's 2.0 is a float, which JSON Schema would take for the integer 2: it passed check, and
    dealing the card then failed with a traceback. Every whole number of the schemas is held so."""
    folder = market_copy(tmp_path, cards_extra=f"  - {{id: gold, price: 1, copies: {copies}}}\n")
    status, output = check(folder)
    assert status == 1 and f"card 'gold': copies must be a whole number, got {float(copies)}" in output, output
    assert "Traceback" not in output


def test_physical_cards_are_bounded(tmp_path):
    many = "".join(f"  - {{id: c{i}, price: 1, copies: 1000}}\n" for i in range(11))
    folder = market_copy(tmp_path, cards_extra=many)
    status, output = check(folder)
    assert status == 1 and "cards.yaml:23:5: error[E0501]: with this card the game has more than 10,000 cards" in output, output


def test_thousands_of_bad_cards_are_reported_in_linear_time(tmp_path):
    folder = market_copy(tmp_path, cards_extra="".join(f"  - {{id: c{i}, price: 1, copies: 0}}\n" for i in range(5000)))
    started = time.perf_counter()
    status, output = check(folder)
    assert status == 1 and output.endswith("5000 error(s)\n") and time.perf_counter() - started < 10


def test_thousands_of_misspellings_are_reported_in_linear_time(tmp_path):
    """Each "did you mean" compares with every known name (card ids too): past a budget for
    the whole compile, errors come without one. Ten times the misspellings take at most about ten
    times as long (measured against 300, on the same machine at the same moment: a quadratic
    cost would take a hundred times as long), and never minutes."""
    def checked(count: int) -> tuple[str, float]:
        typos = "".join(f'  - {{id: card-{i}, price: 1, on_buy: "add coinz{i} to coins"}}\n' for i in range(count))
        folder = market_copy(tmp_path / str(count), cards_extra=typos)
        started = time.perf_counter()
        status, output = check(folder)
        assert status == 1 and output.endswith(f"{count} error(s)\n")
        return output, time.perf_counter() - started
    _, few = checked(300)
    output, many = checked(3000)
    assert many < 30 * few + 1 and many < 60, (few, many)
    assert "did you mean 'coins'?" in output                       # the first ones still get their hint


# ---- 4. compile time is linear in the input --------------------------------------------------

def tower_game(tmp_path, height: int) -> Path:
    """Market with a tower of definitions, each using the one below twice, and a 30-term sum."""
    tower = "define:\n  t0: \"1\"\n" + "".join(f"  t{k}: \"t{k - 1} + t{k - 1}\"\n" for k in range(1, height + 1))
    folder = market_copy(tmp_path / str(height), "procedures:\n", tower + "procedures:\n")
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("    - add 1 to turns", f"    - add t{height} to turns")
                    .replace("    - add card.price to coins", "    - add " + "+".join(["card.price"] * 30) + " to coins"))
    return folder


def timed_compile(folder: Path):
    compile_game(MARKET)                        # the parser is built once per process: not timed
    started = time.perf_counter()
    try:
        return compile_game(folder), time.perf_counter() - started
    except CompileError as error:
        return error, time.perf_counter() - started


def test_long_sums_and_definition_towers_compile_in_linear_time(tmp_path):
    compiled, seconds = timed_compile(tower_game(tmp_path, 13))       # 2^13 uses of t0: under the budget
    assert isinstance(compiled, GameIR) and seconds < 2
    refused, seconds = timed_compile(tower_game(tmp_path, 25))        # 2^25: refused, by a linear check
    assert "the rules grow past 50,000 parts" in refused.diagnostics[0].message and seconds < 2


def test_a_tower_of_definitions_is_built_and_played_in_linear_time(tmp_path):
    """Each definition's body is built once, and its free names found once, however often
    it is used: 2^13 uses of t0 take about as long as one (they took seconds when each use was
    built, a thousand times as long). Measured against a tower of one at the same moment, with
    the collector held off: a loaded machine, or a full collection of a worker's heap, once
    took 0.7 s over a game that takes 0.04 s. The code generated for it is about as long too: a
    definition worked out where it is used, each floor of the tower written out twice in the one
    above, made 2^13 copies of t0 and took 20 times as long."""
    from silvics.interpreter.game import Game

    def built(height: int) -> tuple[float, int]:
        compiled, _ = timed_compile(tower_game(tmp_path, height))
        gc.collect()
        gc.disable()
        try:
            started = time.perf_counter()
            game = Game(compiled, 2, 0, start=False)
            return time.perf_counter() - started, len(game.rules.code.source())
        finally:
            gc.enable()
    (one, written), (tower, tower_written) = built(1), built(13)
    assert tower < 20 * one + 0.1 and tower < 5, (one, tower)
    assert tower_written < written + 2000, (written, tower_written)   # 13 definitions more, each a line or two


def test_limits_are_generous_for_the_bundled_games():
    from silvics.compiler import files as compiler_files
    assert compiler_files.MAX_FILE_BYTES > 50 * max(p.stat().st_size for p in (FIXTURES.parent.parent / "cards").rglob("*.yaml"))


def test_a_tower_of_definitions_too_big_to_build_is_refused(tmp_path):
    """The interpreter builds each use of a definition: 2^30 uses would never finish."""
    status, output = check(tower_game(tmp_path, 30))
    assert status == 1 and "game.yaml:47:9: error[E0501]: the rules grow past 50,000 parts here" in output, output


def test_definitions_nested_in_definitions_are_bounded(tmp_path):
    chain = "define:\n  d0: \"1\"\n" + "".join(f"  d{k}: \"" + "not " * 40 + f"d{k - 1} > 0\"\n" for k in range(1, 60))
    folder = market_copy(tmp_path, "procedures:\n", chain + "procedures:\n")
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("    - add 1 to turns", "    - if: d59\n          then: [add 1 to turns]"))
    status, output = check(folder)
    assert status == 1 and "error[E0501]" in output and "Traceback" not in output, output


def test_a_name_with_a_line_break_or_an_escape_sequence_is_refused(pack):
    (pack / "cards" / "odd.yaml").write_text('kind: creature\ncards:\n  - id: odd\n    sides:\n'
                                             '      leaf: {name: "Odd\\e]0;owned\\a", prefers: "value > 1"}\n'
                                             '      thorn: {name: "Two\\nlines", prefers: "value > 2"}\n')
    status, output = check(pack)
    assert status == 1 and "must be one line of printable text" in output and output.count("error[E0201]") == 2
    assert "\x1b" not in output, output


def test_a_name_turning_the_texts_direction_or_of_a_page_is_refused(pack):
    """A right-to-left override (U+202E) in a name passed, printed raw at terminals and into pages,
    where it turns the text after it around; a name of 100,000 characters passed too."""
    (pack / "cards" / "odd.yaml").write_text('kind: creature\ncards:\n  - id: odd\n    sides:\n'
                                             '      leaf: {name: "Käpök \\u202eevil", prefers: "value > 1"}\n'
                                             f'      thorn: {{name: "{"a" * 100_000}", prefers: "value > 2"}}\n')
    status, output = check(pack)
    assert status == 1 and "must be one line of printable text" in output, output
    assert "is 100,000 characters long, more than 100" in output and "at most 100 characters" in output
    assert "\u202e" not in output


def test_a_byte_that_is_not_utf8_or_a_nul_is_placed_where_it_is(pack):
    """A file that is not UTF-8, or holds a NUL, was said to be wrong at 1:1."""
    (pack / "cards" / "odd.yaml").write_bytes(b'kind: creature\ncards:\n  - id: odd\n    name: "Caf\xe9"\n')
    status, output = check(pack)
    assert status == 1 and "odd.yaml:4:15: error[E0101]: file is not UTF-8 text: byte 0xe9 here" in output, output
    (pack / "cards" / "odd.yaml").write_bytes(b'kind: creature\ncards:\n  - id: odd\n    name: "Ca\x00f"\n')
    status, output = check(pack)
    assert status == 1 and "odd.yaml:4:14: error[E0102]: YAML syntax error: this character (#x0000)" in output, output


def test_a_value_left_empty_is_said_to_be_empty(tmp_path):
    """`setup:` with nothing after it is YAML's null: the message said "got None", Python's word."""
    folder = market_copy(tmp_path, "procedures:\n  setup:\n", "procedures:\n  unused:\n  setup:\n")
    status, output = check(folder)
    assert status == 1 and "procedures: unused must be a list, is empty" in output and "None" not in output, output


def test_a_merge_key_is_one_error_at_the_key(pack):
    """`<<: *base` gave five errors (no attribute '<<', then each attribute missing), none saying
    that merge keys are not read."""
    card = "    name: A\n    prefers: \"value > 1\"\n"
    (pack / "cards" / "odd.yaml").write_text(f"kind: creature\ncards:\n  - &base\n    id: a\n{card}"
                                             "  - <<: *base\n    id: b\n")
    status, output = check(pack)
    assert status == 1 and "odd.yaml:7:5: error[E0102]: a merge key (<<) is not read here" in output, output
    assert output.count("error[") == 1, output


def test_control_characters_in_a_file_never_reach_the_terminal(pack):
    (pack / "cards" / "odd.yaml").write_bytes(b"kind: \x1b]0;owned\x07creature\ncards: []\n")
    status, output = check(pack)
    assert status == 1 and " 1 | kind: ?]0;owned?creature" in output, output
    assert "\x1b" not in output and "\x07" not in output


# ---- 5. names and texts from a pack are escaped in the generated pages -----------------------

HOSTILE_CARDS = '''\
kind: creature
cards:
  - id: scripted
    sides:
      leaf: {name: "<script>alert(1)</script>", prefers: "value > 1"}
      thorn: {name: "Fence ``` <img src=x onerror=alert(2)> # Owned", prefers: "value > 2"}
'''


@pytest.mark.parametrize("page", ["as written", "rules", "what it adds"])
def test_a_packs_html_and_markdown_stay_text_in_the_generated_page(pack, page):
    import markdown

    from silvics import games
    from silvics.compiler.docs import game_page, pack_page
    from silvics.compiler.rulebook import rules_page
    (pack / "cards" / "hostile.yaml").write_text(HOSTILE_CARDS)
    described = (pack / "pack.yaml").read_text().replace(
        "description: Two", "description: \"<img src=x onerror=alert(6)> [z](javascript:alert(7)) # Two\"\n# ")
    (pack / "pack.yaml").write_text(described)
    (pack / "modules" / "m.yaml").write_text('name: sneaky\ndescription: "[click](javascript:alert(3)) <b>x</b> `code`'
                                             '\\n\\n# Owned\\n```\\n<img src=x onerror=alert(4)>"\n'
                                             'procedures:\n  scoring: [{each player: [score 1]}]\n'
                                             'vocabulary:\n  phrases:\n    "score N": "<script>alert(5)</script> `x` [y](z)"\n')
    ir = games.load(str(pack), use_cache=False)
    text = {"as written": game_page, "rules": rules_page, "what it adds": pack_page}[page](ir)
    html = markdown.markdown(text, extensions=["toc", "tables", "fenced_code"])   # as mkdocs renders it
    assert "<script" not in html and "<img" not in html and "<b>" not in html, html
    ours = ('<a href="as-written.md">', '<a href="index.md">', '<a href="rules.md">', '<a href="cards.md">')
    assert "<a " not in functools.reduce(lambda page, link: page.replace(link, ""), ours, html)  # no link of theirs
    assert "<code>code</code>" not in html and "<code>x</code>" not in html      # no code span opened
    shown = "&lt;script&gt;alert(5)&lt;/script&gt;" if page == "rules" else "&lt;script&gt;alert(1)&lt;/script&gt;"
    assert shown in html                                              # shown as text
    assert "<h1" in html and html.count("<h1") == 1                 # no heading smuggled in
    assert page != "what it adds" or "&lt;img src=x onerror=alert(6)&gt;" in html   # the pack's own words


def test_a_games_name_stays_text_in_its_balance_report(tmp_path):
    import markdown

    from silvics import games, report
    for part in ("rules", "cards"):
        shutil.copytree(FIXTURES.parent.parent / part / "four-forests", tmp_path / part / "four-forests")
    game = tmp_path / "rules" / "four-forests" / "game.yaml"
    game.write_text(game.read_text().replace("name: Four Forests", 'name: "<script>alert(6)</script> `x` | # [y](z)"', 1))
    made = report.balance(games.compile_folder(game.parent), 2, 2, 1, ["random", "gardener"])
    html = markdown.markdown("\n".join(made.lines), extensions=["toc", "tables", "fenced_code"])
    assert "<script" not in html and "<a " not in html and html.count("<h1") == 1, html
    assert "&lt;script&gt;alert(6)&lt;/script&gt;" in html


# ---- card tables: a spreadsheet's file, however it comes -----------------------------------------

def test_a_cell_past_the_csv_readers_limit_is_a_diagnostic_at_its_row(tmp_path, capsys):
    table = tmp_path / "cards.csv"
    table.write_text("id,name\nbig," + "x" * 200_000 + "\n")
    status, out, err = run(capsys, "import", table)
    assert status == 1 and out == "", err
    assert err.startswith(f"{table}:2:1: error[E0102]: a cell is longer than the 131,072 characters a cell may hold")


@pytest.mark.parametrize("what", ["too large", "a FIFO"])
def test_a_card_table_that_is_too_large_or_no_file_is_refused_unread(tmp_path, what):
    table = tmp_path / "cards.csv"
    if what == "a FIFO":
        os.mkfifo(table)
    else:
        table.write_text("id,name\n" + "card,Card\n" * 600_000)          # 6 MB of rows
    status, output = silvics_child("import", table, timeout=20)
    reason = "this is not a regular file" if what == "a FIFO" else "this file is 6,000,008 bytes, more than the 5 MB"
    assert status == 2 and output.startswith(f"silvics: error: cannot read {table}: {reason}"), output


def test_a_table_saved_as_csv_utf8_with_a_byte_order_mark_imports(tmp_path, capsys):
    table = tmp_path / "cards.csv"
    table.write_bytes(b"\xef\xbb\xbfid,name,kind,price\r\npear,Pear,goods,3\r\n")    # a spreadsheet's "CSV UTF-8"
    status, out, err = run(capsys, "import", table, "--game", MARKET)
    assert status == 0 and "  - id: pear\n    name: Pear\n    kind: goods\n    price: 3\n" in out, err


def test_a_table_of_some_cards_is_checked_on_its_own_rows(tmp_path, capsys):
    """The bundled modules name cards the table leaves out: not the table's mistakes."""
    table = tmp_path / "cards.csv"
    run(capsys, "export", "four-forests", "--csv", "-o", table)
    header, row = table.read_text().splitlines()[:2]
    table.write_text(f"{header}\n{row}\n")
    status, out, err = run(capsys, "import", table, "--game", "four-forests")
    assert status == 0 and out.count("  - id: ") == 1 and err == "", err
    table.write_text(f"{header}\n{row.replace(',rainforest,', ',rainforst,')}\n")
    status, out, err = run(capsys, "import", table, "--game", "four-forests")
    assert status == 1 and err.startswith(f"{table}:2:") and "suit cannot be 'rainforst'" in err
    assert err.endswith("\n1 error(s)\n"), err


def test_a_cell_a_spreadsheet_would_run_as_a_formula_is_exported_guarded_and_read_back(tmp_path, capsys):
    """OWASP's advice on CSV injection: a text cell starting =, +, -, @, a tab or a carriage
    return gets a leading ' (a number stays a number); import reads either form."""
    game = shutil.copytree(MARKET, tmp_path / "market")
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text()
                     .replace("{id: apple, price: 1,", '{id: apple, name: "=HYPERLINK(\\"http://x\\")", price: -1,')
                     .replace("id: cheese\n", "id: cheese\n    name: \"@SUM(1+1)*cmd|' /C calc'!A0\"\n")
                     .replace("id: silk\n", "id: silk\n    name: '-2+3'\n"))
    names = ['=HYPERLINK("http://x")', "@SUM(1+1)*cmd|' /C calc'!A0", "-2+3"]
    table = tmp_path / "cards.csv"
    assert run(capsys, "export", game, "--csv", "-o", table)[0] == 0
    rows = list(csv.DictReader(table.open()))
    assert [row["name"] for row in rows] == [f"'{name}" for name in names]
    assert rows[0]["price"] == "-1" and rows[2]["on_buy"] == "add 2 to coins"
    status, out, err = run(capsys, "import", table)
    assert status == 0, err
    read_back = yaml.safe_load(out)["cards"]
    assert [card["name"] for card in read_back] == names
    assert read_back[0]["price"] == -1 and read_back[2]["on_buy"] == "add 2 to coins"
    plain = tmp_path / "plain.csv"          # without the guards, as typed (YAML reads no plain @, so no cheese)
    plain.write_text("".join(line.replace(",'", ",").replace('"\'', '"')
                             for line in table.read_text().splitlines(keepends=True) if not line.startswith("cheese")))
    status, out, err = run(capsys, "import", plain)
    assert status == 0, err
    assert [(card["name"], card["price"]) for card in yaml.safe_load(out)["cards"]] == [(names[0], -1), (names[2], 5)]


# ---- maps: read like every other file, and bounded ----------------------------------------------

POND = FIXTURES / "games" / "pond"


def pond_beside_a_secret(tmp_path) -> Path:
    shutil.copytree(POND, tmp_path / "pond")
    (tmp_path / "secret.txt").write_text(f"password: {SECRET}\n")
    return tmp_path / "pond"


def test_a_map_outside_the_game_is_refused_unread(tmp_path):
    game = pond_beside_a_secret(tmp_path) / "game.yaml"
    game.write_text(game.read_text().replace("grid: {map: board.yaml}", "grid: {map: ../secret.txt}"))
    assert_refused(*check(tmp_path / "pond"), "'../secret.txt' is outside the game's root folder", "game.yaml:")


def test_a_map_linked_out_of_the_game_is_refused_unread(tmp_path):
    pond_beside_a_secret(tmp_path)
    (tmp_path / "pond" / "board.yaml").unlink()
    (tmp_path / "pond" / "board.yaml").symlink_to(tmp_path / "secret.txt")
    assert_refused(*check(tmp_path / "pond"), "'board.yaml' is outside the game's root folder", "game.yaml:")


def test_a_map_of_a_million_spaces_is_refused_quickly(tmp_path):
    shutil.copytree(POND, tmp_path / "pond")
    rows = "".join(f'  - "{"~" * 1000}"\n' for _ in range(1000))
    (tmp_path / "pond" / "board.yaml").write_text(f'legend:\n  "~": {{ground: water}}\nrows:\n{rows}')
    started = time.perf_counter()
    status, output = check(tmp_path / "pond")
    assert status == 1 and "the map has 1,000,000 spaces, more than 10,000" in output, output
    assert time.perf_counter() - started < 20


def test_a_map_row_of_200000_characters_is_cut_in_its_diagnostic(tmp_path):
    """The row is the value the message quotes and the line shown: each cut, with an ellipsis."""
    shutil.copytree(POND, tmp_path / "pond")
    board = tmp_path / "pond" / "board.yaml"
    board.write_text(board.read_text().replace('  - "', '  - "' + "~" * 200_000, 1))
    status, output = check(tmp_path / "pond")
    assert status == 1 and "rows #1 is 200,007 characters long, more than 1000" in output and "~…\n" in output, output[:1000]
    assert len(output) < 1000, f"{len(output)} characters"


def test_a_long_source_line_is_shown_around_the_caret():
    from silvics.compiler.diagnostics import Diagnostic
    line = "~" * 150_000 + "Q" + "~" * 50_000
    for col in (1, 150_001, len(line)):
        shown, caret = Diagnostic("f.yaml", 1, col, "E0201", "unknown").render([line]).splitlines()[1:]
        assert len(shown) < 200 and "…" in shown
        assert shown[caret.index("^")] == line[col - 1]                  # the caret under its character
