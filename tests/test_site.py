"""`silvics docs GAME|PACK -o DIR`: a standalone site for any game or pack, built strictly;
a bad folder, a missing -o or an unknown game is misuse that changes nothing; the balance
report is a page of the site; the progress bar is drawn on a terminal only."""
import html as htmllib
import io
import re
import sys
from pathlib import Path

import pytest
from silvics import bundled, games
from silvics.cli import main
from silvics.reference import GAME_PAGES, MARK

from cardtext_golden import SYNTAX
from conftest import run_captured as run

ROOT = Path(__file__).resolve().parent.parent
PACK = Path(__file__).parent / "fixtures" / "packs" / "mythic"

pytestmark = pytest.mark.usefixtures("cache_home")        # a cache folder of its own per test


def html(site: Path, page: str = "index.md") -> str:
    """The built HTML of a page (mkdocs puts `NAME.md` at `NAME/index.html`)."""
    stem = page.removesuffix(".md")
    return (site / "site" / ("" if stem == "index" else stem) / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("game", bundled.games())
def test_every_bundled_game_gets_a_site_that_builds_strictly(capsys, tmp_path, game):
    status, out, err = run(capsys, "docs", game, "-o", str(tmp_path / "site"), "--no-balance")
    assert status == 0, err
    ir = games.load(game)
    assert (tmp_path / "site" / "mkdocs.yml").read_text().startswith(MARK)
    assert sorted(p.name for p in (tmp_path / "site" / "docs").iterdir()) == sorted(
        [*(name for name, _, _ in GAME_PAGES), "fonts"])
    assert ir.name.replace("&", "&amp;") in html(tmp_path / "site")
    fonts = tmp_path / "site" / "site" / "fonts"                      # the faces' type, served with the pages
    assert 'href="../fonts/faces.css"' in html(tmp_path / "site", "cards.md")
    named = re.findall(r'url\("([^"]+)"\)', (fonts / "faces.css").read_text())
    assert len(named) == 3                                            # upright, bold, italic
    for name in named:
        assert (fonts / name).read_bytes().startswith(b"\x00\x01\x00\x00")   # a TrueType font
    assert (fonts / "LICENSE").is_file()
    assert "Balance" not in html(tmp_path / "site")
    for page in ("index.md", "cards.md"):                            # what players read: no effect language
        text = visible_text(html(tmp_path / "site", page))
        assert not SYNTAX.findall(text), (page, sorted(set(SYNTAX.findall(text)))[:20])


def visible_text(page: str) -> str:
    """A built page's text as a reader sees it: no scripts, styles or tags, entities decoded."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_a_pack_gets_a_site_with_its_cards_and_its_balance_report(capsys, tmp_path):
    status, out, err = run(capsys, "docs", str(PACK), "-o", str(tmp_path / "site"), "--balance", "3", "--workers", "1")
    assert status == 0, err
    cards = html(tmp_path / "site", "cards.md")
    assert cards.index("Krakens") < cards.index("Dryads") and "Sphinxes" in cards   # the pack's own first
    first = html(tmp_path / "site")                                     # about the pack: what it adds
    assert "<title>Mythic Creatures (a fan pack)</title>" in first
    assert "A pack for Four Forests. Two more double-sided creatures" in visible_text(first)
    assert "mythic-first" in visible_text(first) and "Krakens" in visible_text(first) and "Dryads" not in visible_text(first)
    report = (tmp_path / "site" / "site" / "balance" / "index.html").read_text(encoding="utf-8")
    assert "3 games of 2 players" in report and "Agent against agent" in report
    assert 'src="matrix.png"' in report and (tmp_path / "site" / "site" / "balance" / "matrix.png").is_file()
    assert 'href="balance/"' in html(tmp_path / "site")                # in the menu
    assert (tmp_path / "site" / "site" / "search" / "search_index.json").is_file()


def test_a_site_may_be_written_again_into_its_own_folder(capsys, tmp_path):
    out = tmp_path / "site"
    assert run(capsys, "docs", "four-forests", "-o", str(out), "--no-balance")[0] == 0
    (out / "docs" / "gone.md").write_text("a page an earlier version wrote")
    assert run(capsys, "docs", "four-forests", "-o", str(out), "--no-balance")[0] == 0
    assert not (out / "docs" / "gone.md").exists()


def test_a_folder_docs_did_not_write_is_refused_and_left_alone(capsys, tmp_path):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    (mine / "mkdocs.yml").write_text("site_name: my own site\n")
    status, _, err = run(capsys, "docs", "four-forests", "-o", str(mine), "--no-balance")
    assert status == 2 and "did not write" in err
    assert sorted(p.name for p in mine.iterdir()) == ["mkdocs.yml", "notes.txt"]
    assert (mine / "mkdocs.yml").read_text() == "site_name: my own site\n"


@pytest.mark.parametrize("target, message", [("a-file", "is a file"), ("a-file/below", "cannot write the site")])
def test_an_output_that_is_a_file_or_under_one_is_misuse(capsys, tmp_path, target, message):
    (tmp_path / "a-file").write_text("kept")
    status, _, err = run(capsys, "docs", "four-forests", "-o", str(tmp_path / target), "--no-balance")
    assert status == 2 and message in err
    assert (tmp_path / "a-file").read_text() == "kept"


def test_a_game_without_an_output_folder_is_misuse(capsys):
    status, _, err = run(capsys, "docs", "four-forests", "--no-balance")
    assert status == 2 and "-o DIR" in err


def test_an_unknown_game_is_misuse_and_writes_nothing(capsys, tmp_path):
    status, _, err = run(capsys, "docs", "no-such-game", "-o", str(tmp_path / "site"))
    assert status == 2 and "no game 'no-such-game'" in err
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("argv", [["--balance", "0"], ["--workers", "0"]])
def test_fewer_than_one_game_or_worker_is_misuse(capsys, tmp_path, argv):
    status, _, err = run(capsys, "docs", "four-forests", "-o", str(tmp_path / "site"), *argv)
    assert status == 2 and "must be at least 1" in err
    assert not (tmp_path / "site").exists()


def test_a_page_that_does_not_build_strictly_is_an_error(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr("silvics.reference.GAME_PAGES", GAME_PAGES + (
        ("broken.md", "Broken", lambda ir: "[a link to nowhere](nowhere.md)"),))
    status, _, err = run(capsys, "docs", "four-forests", "-o", str(tmp_path / "site"), "--no-balance")
    assert status == 1 and "mkdocs could not build the site" in err


def test_without_mkdocs_the_command_says_what_to_install_before_writing_anything(capsys, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "mkdocs", None)          # import fails
    status, _, err = run(capsys, "docs", "four-forests", "-o", str(tmp_path / "site"), "--no-balance")
    assert status == 2 and "docs needs mkdocs (silvics' docs extra): pip install " in err
    assert not (tmp_path / "site").exists()


class Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("terminal", [False, True])
def test_the_progress_bar_is_drawn_on_a_terminal_only(capsys, tmp_path, monkeypatch, terminal):
    stream = Terminal() if terminal else io.StringIO()
    monkeypatch.setattr("sys.stderr", stream)
    status = main(["docs", "four-forests", "-o", str(tmp_path / "site"), "--balance", "3", "--workers", "1"])
    assert status == 0
    drawn = stream.getvalue()
    assert ("Four Forests, balance: 15/15 games" in drawn) == terminal    # seats, gardener v random, 3 setups
    assert ("\r" in drawn) == terminal
