"""The cache of generated code (interpreter/codecache.py): a set of rules' code is generated once
and imported by later processes, which play byte for byte as a fresh one; the key follows the
IR, its modules and the interpreter's source; a bad entry is generated afresh and rewritten; a
cache that cannot be written costs only time. Every test has its own cache folder."""
import ast
import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from silvics import games
from silvics.interpreter import codecache
from silvics.interpreter import ir as ir_module
from silvics.interpreter.agents import make_agent, play_on
from silvics.interpreter.game import Game, Rules

pytestmark = pytest.mark.usefixtures("cache_home")        # a cache folder of its own per test

PLAY = """
import hashlib, sys
from silvics import games
from silvics.interpreter.agents import make_agent, play_on
from silvics.interpreter.game import Game, compiled_rules
ir = games.load(sys.argv[1])
rules = compiled_rules(ir, tuple(sys.argv[2:]))
game = Game(rules, 2, 5)
play_on(game, [make_agent("random", 5, seat) for seat in range(2)])
print(rules.code.replayed, hashlib.sha256("\\n".join(game.log).encode()).hexdigest())
"""


def played(game_id: str, *modules: str) -> tuple[str, str]:
    """In a process of its own: whether the code came from the cache, and the game's log hashed."""
    run = subprocess.run([sys.executable, "-c", PLAY, game_id, *modules], capture_output=True, text=True,
                         env=os.environ.copy(), check=True)
    replayed, log = run.stdout.split()
    return replayed, log


def read(game_id: str) -> ir_module.GameIR:
    """The game's IR as read from its JSON text: one whose digest the process knows whatever it
    read before (it remembers the digests of its last 64 IRs, and earlier tests read many)."""
    return ir_module.loads(ir_module.dumps(games.load(game_id)))


def code_files(cache_home: Path) -> list[Path]:
    return sorted((cache_home / "code").glob("rules_*.py"))


def a_game(rules: Rules, seed: int = 2) -> list[str]:
    game = Game(rules, 2, seed)
    play_on(game, [make_agent("random", seed, seat) for seat in range(2)])
    return game.log


@pytest.mark.parametrize("game_id, modules", [("reforest", ()), ("forest-shuffle", ("alpine", "woodland-edge"))])
def test_a_later_process_imports_the_code_and_plays_the_same_game(cache_home, game_id, modules):
    assert played(game_id, *modules)[0] == "False"
    assert len(code_files(cache_home)) == 1
    pyc = list((cache_home / "code" / "__pycache__").glob("*.pyc"))
    assert len(pyc) == 1                                     # compiled beside it, as Python caches a module
    fresh = played(game_id, *modules)
    assert fresh == ("True", played(game_id, *modules)[1])
    with_other_modules = played(game_id)[0] if modules else played(game_id, "terrain")[0]
    assert with_other_modules == "False" and len(code_files(cache_home)) == 2   # a key per set of modules


def test_code_from_the_cache_plays_as_code_generated_afresh(cache_home):
    ir = read("renature")
    generated = Rules(ir)
    loaded = Rules(ir)
    assert (generated.code.replayed, loaded.code.replayed) == (False, True)
    assert a_game(loaded) == a_game(generated)
    assert loaded.code.source() == generated.code.source()   # compile --python reads the same text


def test_a_module_from_the_cache_hands_out_the_block_runners_compiled(cache_home, monkeypatch):
    """A block's runner is made by a maker generated for its shape (runners.py): the module keeps
    the makers with the rules' code, so rules built from the cache generate none, and a cached
    maker is checked against the shape asked for (a module whose shapes differ is stale)."""
    from silvics.interpreter import codegen, runners
    ir = read("forest-shuffle")
    generated = Rules(ir)
    shapes = [asked for _, asked in generated.code.handed if asked.split()[0] in ("block", "loop", "values")]
    assert shapes and "def block_runner" in generated.code.source()
    made, maker = [], runners.maker
    monkeypatch.setattr(runners, "maker", lambda *shape: made.append(shape))
    loaded = Rules(ir)
    assert loaded.code.replayed and made == []
    assert a_game(loaded) == a_game(generated)
    handed = list(loaded.code.namespace["HANDED"])
    at = next(i for i, (_, asked) in enumerate(handed) if asked.startswith("block "))
    handed[at] = (handed[at][0], "values " + handed[at][1].split()[1])  # a block's shape taken for a loop's
    stale = codegen.Module.replaying("rules", {**loaded.code.namespace, "HANDED": tuple(handed)}, None)
    monkeypatch.setattr(codecache, "module_for", lambda *_: stale)
    monkeypatch.setattr(runners, "maker", maker)          # (generated afresh, it makes them again)
    rebuilt = Rules(ir)
    assert not rebuilt.code.replayed                     # stale: generated afresh
    assert a_game(rebuilt) == a_game(generated)


def test_the_key_follows_the_rules_and_the_generator(cache_home, monkeypatch):
    ir = read("four-forests")
    Rules(ir)
    edited = ir_module.loads(ir_module.dumps(ir).replace('"value":8', '"value":7', 1))
    assert not Rules(edited).code.replayed and len(code_files(cache_home)) == 2
    monkeypatch.setattr(codecache, "engine", lambda: hashlib.sha256(b"another interpreter").hexdigest())
    assert not Rules(ir).code.replayed and len(code_files(cache_home)) == 3


def test_rules_made_in_memory_are_generated_and_not_kept(cache_home):
    ir = read("four-forests")
    from dataclasses import replace
    in_memory = replace(ir, name="Four Forests, edited")     # no text it was read from
    assert ir_module.digest(in_memory) is None
    assert not Rules(in_memory).code.replayed and not Rules(in_memory).code.replayed
    assert code_files(cache_home) == []


def test_a_game_keeps_its_place_in_the_cache_however_many_games_are_read_after_it(cache_home):
    """An IR's digest (which names its code in the cache) lasts as long as the IR: a process that
    reads many games (a test worker, a server) does not lose it and generate the code again.
    (It was forgotten after 64 more: the cause of a test that failed now and then.)"""
    game = games.load("four-forests")
    others = [ir_module.loads(ir_module.dumps(game)) for _ in range(80)]
    assert ir_module.digest(game) is not None and all(ir_module.digest(other) for other in others)
    Rules(game)
    assert Rules(game).code.replayed
    count = len(ir_module._DIGESTS)
    del others
    assert len(ir_module._DIGESTS) <= count - 80 + 4              # theirs go with them (the last texts stay)


@pytest.mark.parametrize("damage", ["truncated", "not ours", "hands out otherwise", "empty", "a folder"])
def test_a_bad_entry_is_generated_afresh_and_rewritten(cache_home, damage):
    ir = read("reforest")
    expected = a_game(Rules(ir))
    [entry] = code_files(cache_home)
    text = entry.read_text()
    if damage == "truncated":
        entry.write_text(text[: len(text) // 2])
    elif damage == "not ours":
        entry.write_text("HANDED = 3\nNEXT = 'x'\n")
    elif damage == "hands out otherwise":                      # two requests of different primitives swapped
        lines = text.splitlines()
        at = next(number for number, line in enumerate(lines) if line.startswith("HANDED = "))
        handed = list(ast.literal_eval(lines[at].partition(" = ")[2]))
        other = next(number for number, (_, op) in enumerate(handed) if op != handed[0][1])
        handed[0], handed[other] = handed[other], handed[0]
        lines[at] = f"HANDED = {tuple(handed)!r}"
        entry.write_text("\n".join(lines) + "\n")
    elif damage == "empty":
        entry.write_text("")
    else:
        entry.unlink()
        entry.mkdir()
    for cached in (cache_home / "code" / "__pycache__").glob("*.pyc"):
        cached.unlink()                                       # (a pyc as new as its source is trusted)
    rules = Rules(ir)
    assert not rules.code.replayed and a_game(rules) == expected
    if damage != "a folder":
        assert entry.read_text() == text                      # rewritten
        assert Rules(ir).code.replayed


def test_a_cache_that_cannot_be_written_costs_only_time(tmp_path, monkeypatch):
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    ir = games.load("four-forests", use_cache=False)
    ir = ir_module.loads(ir_module.dumps(ir))
    assert a_game(Rules(ir)) == a_game(Rules(ir))
    assert not Rules(ir).code.replayed


def test_workers_import_the_code_the_first_of_them_kept(cache_home):
    from silvics.interpreter.simulate import simulate

    ir = read("reforest")
    first = simulate(ir, 2, games=4, workers=2)
    [entry] = code_files(cache_home)                          # the workers' rules (the IR's text as sent)
    kept_at = entry.stat().st_mtime_ns
    assert simulate(ir, 2, games=4, workers=2) == first
    assert entry.stat().st_mtime_ns == kept_at                # imported, not generated and kept again


def test_check_generates_no_code(cache_home, monkeypatch):
    from conftest import run_cli
    from silvics.interpreter import codegen

    generated = []
    monkeypatch.setattr(codegen.Module, "define", lambda *args: generated.append(args))
    for game in ("four-forests", "reforest"):  # one at a time: in this process (several are checked side by side)
        assert run_cli("check", game, "--no-cache")[0] == 0
    assert generated == [] and not (cache_home / "code").exists()
