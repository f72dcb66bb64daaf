"""The IR cache: a hit gives the IR a compile would, any change to a source is seen, a bad
entry is rewritten, --no-cache goes around it, and a cached play never loads the compiler's
libraries. Every test has its own cache folder (XDG_CACHE_HOME) and its own copy of a game."""
import json
import os
import shutil
import subprocess
import sys
from dataclasses import fields, is_dataclass, replace
from pathlib import Path

import pytest

from silvics import bundled, cache, games
from silvics.cli import main
from silvics.interpreter.ir import Span

ROOT = Path(__file__).resolve().parent.parent
PACK = Path(__file__).parent / "fixtures" / "packs" / "mythic"

pytestmark = pytest.mark.usefixtures("cache_home")        # a cache folder of its own per test


@pytest.fixture
def game(tmp_path) -> Path:
    """A copy of Four Forests (rules and cards, as in the checkout); returns its game.yaml."""
    for folder in ("rules", "cards"):
        shutil.copytree(ROOT / folder / "four-forests", tmp_path / "copy" / folder / "four-forests")
    return tmp_path / "copy" / "rules" / "four-forests" / "game.yaml"


def entries(cache_home: Path) -> list[Path]:
    return sorted(cache_home.glob("*.ir"))


def silvics(*argv, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "silvics", *argv], capture_output=True, text=True,
                          env={**os.environ, **(env or {})})


def test_a_hit_returns_the_ir_a_compile_gives(game, cache_home):
    compiled = games.load(str(game.parent))
    assert len(entries(cache_home)) == 1
    assert cache.fetch(game) == compiled
    assert cache.fetch(game) == games.load(str(game.parent), use_cache=False)


@pytest.mark.parametrize("edit", ["card value", "module", "game.yaml", "new module file", "card file removed"])
def test_any_change_to_a_source_is_seen(game, edit):
    games.load(str(game.parent))
    cards = game.parent.parent.parent / "cards" / "four-forests"
    if edit == "card value":
        (cards / "plants.yaml").write_text((cards / "plants.yaml").read_text().replace("value: 8", "value: 7", 1))
    elif edit == "module":
        module = game.parent / "modules" / "experienced.yaml"
        module.write_text(module.read_text() + "\n# a comment is a change too\n")
    elif edit == "game.yaml":
        game.write_text(game.read_text().replace("name: Four Forests", "name: Five Forests"))
    elif edit == "new module file":
        shutil.copy(game.parent / "modules" / "experienced.yaml", game.parent / "modules" / "another.yaml")
    else:
        (cards / "creatures.yaml").unlink()
    assert cache.fetch(game) is None


def test_a_pack_entry_covers_the_pack_and_its_base_game(game, tmp_path, monkeypatch):
    pack = tmp_path / "mythic"
    shutil.copytree(PACK, pack)
    monkeypatch.setattr(bundled, "games", lambda: {"four-forests": game})     # the copy stands in for the bundled game
    compiled = games.load(str(pack))
    assert cache.fetch(pack / "pack.yaml") == compiled
    shutil.copy(pack / "cards" / "creatures.yaml", pack / "cards" / "more.yaml")       # a new file in a listed folder
    assert cache.fetch(pack / "pack.yaml") is None
    (pack / "cards" / "more.yaml").unlink()
    assert cache.fetch(pack / "pack.yaml") == compiled
    plants = game.parent.parent.parent / "cards" / "four-forests" / "plants.yaml"
    plants.write_text(plants.read_text() + "\n")                                      # the base game's card file
    assert cache.fetch(pack / "pack.yaml") is None


def test_a_new_toolchain_is_a_miss(game, monkeypatch):
    games.load(str(game.parent))
    monkeypatch.setattr(cache, "toolchain", lambda: "another compiler")
    assert cache.fetch(game) is None


@pytest.mark.parametrize("damage", ["garbage", "empty", "truncated", "header only", "not utf-8"])
def test_a_damaged_entry_is_ignored_and_rewritten(game, cache_home, damage):
    compiled = games.load(str(game.parent))
    entry, = entries(cache_home)
    whole = entry.read_bytes()
    entry.write_bytes({"garbage": b"{]", "empty": b"", "truncated": whole[:len(whole) // 2],
                       "header only": whole.split(b"\n")[0], "not utf-8": b"\xff\xfe" + whole}[damage])
    assert cache.fetch(game) is None
    result = silvics("play", str(game.parent), "--players", "2", "--quiet")
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert cache.fetch(game) == compiled


def test_no_cache_neither_reads_nor_writes_the_cache(game, cache_home, capsys):
    assert main(["compile", str(game.parent), "--no-cache"]) == 0
    assert entries(cache_home) == [] and '"name":"Four Forests"' in capsys.readouterr().out
    compiled = games.load(str(game.parent), use_cache=False)
    cache.store(game, replace(compiled, name="Poisoned"), cache.snapshot(cache.Sources([game], [])))
    assert cache.fetch(game).name == "Poisoned"              # so an entry that was read would show
    result = silvics("compile", str(game.parent), "--no-cache")
    assert result.returncode == 0 and '"name":"Four Forests"' in result.stdout
    assert '"name":"Poisoned"' in silvics("compile", str(game.parent)).stdout


def test_check_always_compiles_afresh(game, capsys):
    compiled = games.load(str(game.parent), use_cache=False)
    cache.store(game, replace(compiled, name="Poisoned"), cache.snapshot(cache.Sources([game], [])))
    assert main(["check", str(game.parent)]) == 0
    assert "ok (Four Forests:" in capsys.readouterr().out


def test_an_unwritable_cache_only_costs_time(game, tmp_path, monkeypatch):
    (tmp_path / "a-file").write_text("")
    result = silvics("play", str(game.parent), "--players", "2", "--quiet", env={"XDG_CACHE_HOME": str(tmp_path / "a-file")})
    assert result.returncode == 0 and "Final scores:" in result.stdout      # no warning, only the game it loaded:
    assert result.stderr == f"silvics: game {game}\n"


def test_the_cache_folder_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.folder() == tmp_path / "silvics"
    for unset in ("", "relative/path"):                      # XDG: only an absolute path counts
        monkeypatch.setenv("XDG_CACHE_HOME", unset)
        assert cache.folder() == Path.home() / ".cache" / "silvics"


@pytest.mark.parametrize("game_id", ["four-forests", "reforest"])
def test_a_cached_play_never_imports_lark_jsonschema_or_yaml(game_id):
    assert silvics("play", game_id, "--players", "2", "--quiet").returncode == 0         # fills the cache
    script = ("import sys\nfrom silvics.cli import main\n"
              f"status = main(['play', {game_id!r}, '--players', '2', '--quiet'])\n"
              "print(status, sorted(m for m in ('lark', 'jsonschema', 'yaml') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.stdout.splitlines()[-1] == "0 []", result.stderr


def test_every_file_the_ir_comes_from_is_a_recorded_source(cache_home, tmp_path):
    """The cache finds a game's sources the way the compiler's build does: every file named in
    the IR's spans must be among them, or an edit to it would go unseen."""
    for game_id in ("four-forests", "reforest"):
        for folder in ("rules", "cards"):          # a copy: a path this process has not loaded yet
            shutil.copytree(ROOT / folder / game_id, tmp_path / folder / game_id)
        game_file = (tmp_path / "rules" / game_id / "game.yaml").resolve()
        named = {(tmp_path / file).resolve() for file in span_files(games.load(str(game_file)))}
        header, = [json.loads(p.read_text().partition("\n")[0]) for p in entries(cache_home)
                   if str(game_file) in p.read_text().partition("\n")[0]]
        recorded = {Path(file).resolve() for file in header["files"]}
        assert len(named) > 3 and named <= recorded, named - recorded


def span_files(value) -> set[str]:
    """Every file a span anywhere in the IR names."""
    if isinstance(value, Span):
        return {value.file}
    if is_dataclass(value):
        return set().union(*(span_files(getattr(value, f.name)) for f in fields(value)))
    if isinstance(value, (tuple, list)):
        return set().union(*map(span_files, value))
    return set().union(*map(span_files, value.values())) if isinstance(value, dict) else set()


def test_check_reprints_an_unchanged_game_without_compiling_it(game, cache_home, capsys, monkeypatch):
    """The designer's loop: after one game is edited, the others are not compiled again, and what
    check prints of them (summary, module changes, warnings) is what a compile would print."""
    module = game.parent / "modules" / "experienced.yaml"
    (game.parent / "game.yaml").write_text(game.read_text().replace("id: four-forests", "id: four-forest", 1))
    assert main(["check", str(game.parent)]) == 0
    first = capsys.readouterr()
    assert "warning[W0104]" in first.err and sorted(cache_home.glob("*.check"))

    def no_compiling(*_, **__):
        raise AssertionError("compiled again")
    monkeypatch.setattr(games, "check_folder", no_compiling)
    assert main(["check", str(game.parent)]) == 0
    assert capsys.readouterr() == first
    with pytest.raises(AssertionError, match="compiled again"):
        main(["check", str(game.parent), "--no-cache"])
    module.write_text(module.read_text() + "\n# a comment is a change too\n")
    with pytest.raises(AssertionError, match="compiled again"):
        main(["check", str(game.parent)])


def test_a_warning_check_remembers_is_shown_from_where_check_runs_now(game, capsys, monkeypatch):
    """Checked from the game's folder, then from its project: the remembered warning names the
    file as seen from the second folder, with its line shown, as a compile would."""
    (game.parent / "game.yaml").write_text(game.read_text().replace("id: four-forests", "id: four-forest", 1))
    monkeypatch.chdir(game.parent)
    assert main(["check", "."]) == 0 and "game.yaml:" in capsys.readouterr().err
    monkeypatch.chdir(game.parent.parent.parent)
    assert main(["check", "rules/four-forests"]) == 0
    cached = capsys.readouterr().err
    assert main(["check", "rules/four-forests", "--no-cache"]) == 0
    assert cached == capsys.readouterr().err
    assert "rules/four-forests/game.yaml:" in cached and "id: four-forest" in cached


def test_several_games_are_checked_side_by_side_and_reported_in_order(tmp_path, capsys, monkeypatch):
    """Four copies, the second with an error, the last with a warning and the most YAML: compiled
    on the cores at once, the largest first (so that it does not run alone at the end), reported
    in the order given, exactly as checking each alone reports it."""
    folders = []
    for n in range(4):
        for part in ("rules", "cards"):
            shutil.copytree(ROOT / part / "four-forests", tmp_path / f"p{n}" / part / "four-forests")
        folders.append(str(tmp_path / f"p{n}" / "rules" / "four-forests"))
    plants = tmp_path / "p1" / "cards" / "four-forests" / "plants.yaml"
    plants.write_text(plants.read_text().replace("value: 8", "value: eight", 1))
    last = Path(folders[3]) / "game.yaml"
    last.write_text(last.read_text().replace("id: four-forests", "id: four-forest", 1) + "#\n" * 5000)
    alone = []
    for folder in folders:
        main(["check", "--no-cache", folder])
        alone.append(capsys.readouterr())
    import concurrent.futures
    pools = []

    class Counted(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, *args, **kwargs):
            pools.append(args)
            super().__init__(*args, **kwargs)

        def map(self, fn, specs, *rest):
            pools.append(list(specs))
            return super().map(fn, specs, *rest)
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Counted)
    assert main(["check", "--no-cache", *folders]) == 1
    assert pools[0] == (2,)                                       # compiled by a pool of 2 processes,
    assert pools[1][0] == folders[3] and sorted(pools[1]) == sorted(folders)  # the largest game first
    together = capsys.readouterr()
    assert together.out == "".join(a.out for a in alone)
    for each in alone:                    # every diagnostic, less each run's count line
        assert each.err.rsplit("\n", 2)[0] in together.err
    assert together.err.index("value must be a whole number") < together.err.index("warning[W0104]")
    assert together.err.endswith("1 error(s), 1 warning(s)\n")
    assert main(["check", *folders, str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().out == ""                          # misuse: nothing checked


def test_check_compiles_a_game_with_errors_every_time(game, cache_home, capsys):
    plants = game.parent.parent.parent / "cards" / "four-forests" / "plants.yaml"
    plants.write_text(plants.read_text().replace("value: 8", "value: eight", 1))
    for _ in range(2):
        assert main(["check", str(game.parent)]) == 1
        assert "value must be a whole number, got 'eight'" in capsys.readouterr().err
    assert not sorted(cache_home.glob("*.check"))
