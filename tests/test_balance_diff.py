"""`silvics balance GAME --against OTHER` (silvics/diff.py): what a change to the data did.

A card made much stronger is flagged in the expected direction; a version against itself has
identical games and says so; the interval flags no more than it should on fixed seeds; git:REV
reads a temporary repository without writing to it; another game, a revision that does not
exist or a folder that does not check is refused in one line before any game is played.
"""
import json
import random
import shutil
import subprocess

import pytest

from silvics import diff, games
from silvics.interpreter.simulate import simulate

from conftest import ROOT, run_cli

pytest.importorskip("matplotlib", reason="balance reports need the balance extra")


def copy_of_the_game(tmp_path, game="forest-shuffle"):
    """The bundled rules and cards, copied: rules/GAME is a game to edit."""
    for folder in ("rules", "cards"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    return tmp_path / "rules" / game


def edit(path, old: str, new: str):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def compared(tmp_path, game, games: int, *more) -> dict:
    """`balance GAME --against installed` into tmp_path/report: the report's figures."""
    status, out, err = run_cli("balance", game, "--against", "installed", "--games", str(games), "--workers", "1",
                               *more, "-o", tmp_path / "report")
    assert status == 0, err
    return json.loads((tmp_path / "report" / "figures.json").read_text())


def test_a_card_made_much_stronger_is_flagged_upward(tmp_path):
    game = copy_of_the_game(tmp_path)
    edit(tmp_path / "cards" / "forest-shuffle" / "trees.yaml", "    effect: draw\n    scoring: score 1\n",
         "    effect: draw\n    scoring: score 20\n")
    figures = compared(tmp_path, game, 40)
    assert figures["changes"] == ["Birch: scoring “1 point” → “20 points”"]
    birch = figures["cards"][0]
    assert birch["name"] == "Birch" and birch["changed"]
    assert birch["points"]["difference"] > 5 and birch["points"]["low"] > 0 and birch["points"]["flagged"]
    assert birch["wins_with"]["difference"] > 0                     # its holders win more often
    text = (tmp_path / "report" / "index.md").read_text()
    assert "- Birch: scoring" in text and "| Birch (changed) |" in text and (tmp_path / "report" / "differences.png").exists()


def test_a_change_that_alters_no_play_gives_identical_games(tmp_path):
    game = copy_of_the_game(tmp_path, "four-forests")
    edit(tmp_path / "cards" / "four-forests" / "plants.yaml", "name: Kapok Tree", "name: Kapok")
    figures = compared(tmp_path, game, 20)
    assert figures["changes"] == ["Kapok Tree: renamed Kapok"] and figures["identical"]
    assert "the change alters no play" in (tmp_path / "report" / "index.md").read_text()
    assert not any(row["points"]["flagged"] for row in figures["cards"] + figures["seats"])


def test_by_module_compares_each_setup_on_the_same_seeds(tmp_path):
    game = copy_of_the_game(tmp_path, "four-forests")
    edit(tmp_path / "cards" / "four-forests" / "plants.yaml", "name: Kapok Tree", "name: Kapok")
    figures = compared(tmp_path, game, 10, "--by", "module")
    assert [row["name"] for row in figures["by"]] == ["the base game", "+ experienced", "+ first-game"]
    before = [row["points"]["before"] for row in figures["by"]]
    assert len(set(before)) == 3                                    # each setup played: its own games
    assert all(row["points"]["difference"] == 0 for row in figures["by"])   # a rename: the same games in each
    assert "## By module" in (tmp_path / "report" / "index.md").read_text()


def test_the_docs_balance_page_holds_the_diff(tmp_path):
    game = copy_of_the_game(tmp_path, "four-forests")
    edit(tmp_path / "cards" / "four-forests" / "plants.yaml", "    value: 9\n", "    value: 1\n")
    status, out, err = run_cli("docs", game, "--against", "installed", "--balance", "10", "--workers", "1",
                               "-o", tmp_path / "site")
    assert status == 0, err
    page = (tmp_path / "site" / "docs" / "balance" / "index.md").read_text()
    assert "## Four Forests: this version against installed" in page and "- Kapok Tree: value 9 → 1" in page
    assert page.index("# Balance of Four Forests") < page.index("### What changed")
    status, out, err = run_cli("docs", "--against", "installed")
    assert status == 2 and "name the GAME" in err


def test_a_version_against_itself_with_its_seeds_drawn_apart_flags_few_seats():
    """The interval's coverage on fixed seeds: 20 comparisons of 2 seats (40), each side's seeds
    drawn apart, so every difference is noise: at most 4 flagged."""
    ir, rng = games.load("four-forests"), random.Random(29)
    flagged = 0
    for _ in range(20):
        first, second = rng.randrange(10_000), rng.randrange(10_000, 20_000)
        a = simulate(ir, 2, 40, first, ("random",), keep=True)
        b = simulate(ir, 2, 40, second, ("random",), keep=True)
        for seat in range(2):
            mean, half, _ = diff.paired([r.scores[seat] for r in a.results], [r.scores[seat] for r in b.results])
            flagged += half > 0 and (mean - half > 0 or mean + half < 0)
    assert flagged <= 4


def test_a_rule_changed_is_named_with_where_it_is_written(tmp_path):
    game = copy_of_the_game(tmp_path, "four-forests")
    edit(game / "game.yaml", "    - repeat: 4\n", "    - repeat: 3\n")
    plants = tmp_path / "cards" / "four-forests" / "plants.yaml"
    edit(plants, "  - id: kapok-tree\n", "  - id: ghost-orchid\n    name: Ghost Orchid\n    value: 2\n"
         "    suit: boreal\n    form: herb\n    icons: [leaf]\n  - id: kapok-tree\n")
    said = diff.changes(games.load("four-forests"), games.load(str(game)))
    assert said[0] == "new card: Ghost Orchid" and said[-1] == "rule changed: play (rules/four-forests/game.yaml:59)"


def test_benjamini_hochberg():
    assert diff.flagged([0.01, 0.04, 0.03, 0.5]) == [True, False, False, False]
    assert diff.flagged([0.001, 0.01, 0.02, 0.03]) == [True, True, True, True]
    assert diff.flagged([0.2, 0.3]) == [False, False]


def test_git_rev_reads_a_temporary_repository_and_writes_nothing_there(tmp_path):
    game = copy_of_the_game(tmp_path, "four-forests")
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git[:3], "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "as bundled"], check=True)
    edit(tmp_path / "cards" / "four-forests" / "plants.yaml", "    value: 9\n", "    value: 1\n")
    before = subprocess.run([*git, "status", "--porcelain"], capture_output=True, text=True).stdout
    status, out, err = run_cli("balance", game, "--against", "git:HEAD", "--games", "10", "--workers", "1",
                               "-o", tmp_path / "report")
    assert status == 0, err
    figures = json.loads((tmp_path / "report" / "figures.json").read_text())
    assert figures["changes"] == ["Kapok Tree: value 9 → 1"]
    after = subprocess.run([*git, "status", "--porcelain"], capture_output=True, text=True).stdout
    assert after == before + "?? report/\n"                         # the report, nothing else
    assert not list(tmp_path.glob("**/silvics-against-*"))
    status, out, err = run_cli("balance", game, "--against", "git:no-such-rev", "--games", "10", "-o", tmp_path / "r2")
    assert status == 2 and "no such revision" in err and not (tmp_path / "r2").exists()


def test_a_pack_against_another_version_of_it(tmp_path):
    pack = tmp_path / "mythic"
    shutil.copytree(ROOT / "tests" / "fixtures" / "packs" / "mythic", pack)
    edit(pack / "cards" / "creatures.yaml", "value >= 4", "value >= 2")
    status, out, err = run_cli("balance", "four-forests", "--pack", pack, "--against",
                               ROOT / "tests" / "fixtures" / "packs" / "mythic", "--games", "10", "-o", tmp_path / "r")
    assert status == 0, err
    changes = json.loads((tmp_path / "r" / "figures.json").read_text())["changes"]
    assert changes == ["Krakens: prefers “with a water icon and worth 4 or more” → “with a water icon and worth 2 or more”"]


def test_what_cannot_be_compared_is_refused_in_one_line(tmp_path):
    status, out, err = run_cli("balance", "four-forests", "--against", "reforest", "--games", "5", "-o", tmp_path / "r")
    assert status == 2 and "not a version of Four Forests" in err and not (tmp_path / "r").exists()
    broken = copy_of_the_game(tmp_path, "four-forests")
    edit(broken / "game.yaml", "zones:", "zonez:")
    status, out, err = run_cli("balance", "four-forests", "--against", broken, "--games", "5", "-o", tmp_path / "r")
    assert status == 2 and "does not check" in err and "game.yaml" in err and not (tmp_path / "r").exists()
    status, out, err = run_cli("balance", "four-forests", "--against", tmp_path / "nothing", "--games", "5",
                               "-o", tmp_path / "r")
    assert status == 2 and "no game" in err
