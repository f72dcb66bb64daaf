"""The tutorials work as written: every file they show is the file kept in the repository, and
every step of "Your first card" and "Your first game" gives what the page says."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from silvics.cli import main
from silvics.compiler.faces import contrast

ROOT = Path(__file__).resolve().parent.parent
TUTORIALS = sorted((ROOT / "docs").glob("tutorial-*.md"))
SHOWN = re.compile(r"<!-- file: (\S+) -->\n```yaml\n(.*?)```\n", re.S)


def run(capsys, *argv) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_every_file_a_tutorial_shows_is_the_file_kept():
    shown = [(page.name, path, text) for page in TUTORIALS for path, text in SHOWN.findall(page.read_text())]
    assert len(shown) >= 6, shown
    for page, path, text in shown:
        assert (ROOT / path).read_text() == text, f"{page} shows {path} otherwise than it is"


def test_your_first_card_step_by_step(tmp_path, monkeypatch, capsys):
    page = (ROOT / "docs" / "tutorial-first-card.md").read_text()
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "new", "pack", "four-forests", "my-plants")[0] == 0
    shutil.copytree(ROOT / "tests" / "fixtures" / "tutorial", tmp_path, dirs_exist_ok=True)
    status, out, _ = run(capsys, "check", "my-plants")
    assert status == 0 and out in page
    cards = tmp_path / "my-plants" / "cards" / "my-plants.yaml"
    cards.write_text(cards.read_text().replace("suit: rainforest", "suit: rainforrest"))
    status, _, err = run(capsys, "check", "my-plants")
    assert status == 1 and err in page
    cards.write_text(cards.read_text().replace("suit: rainforrest", "suit: rainforest"))
    status, out, err = run(capsys, "show", "my-plants", "cacao")
    assert status == 0 and (err + out) in page
    assert run(capsys, "play", "my-plants", "--players", "2", "--quiet")[0] == 0
    status, out, _ = run(capsys, "scenario", "scenarios/elves-prefer-cacao.yaml")
    assert status == 0 and out in page
    status, _, _ = run(capsys, "docs", "my-plants", "-o", "site", "--no-balance")
    assert status == 0 and "Cacao" in (tmp_path / "site" / "site" / "cards" / "index.html").read_text()


def test_your_first_game_checks_plays_and_passes_its_scenarios(capsys, monkeypatch):
    page = (ROOT / "docs" / "tutorial-first-game.md").read_text()
    monkeypatch.chdir(ROOT)
    status, out, _ = run(capsys, "check", "examples/orchard", "--strict")
    assert status == 0 and out in page
    status, out, _ = run(capsys, "play", "examples/orchard", "--players", "3", "--seed", "2", "--quiet")
    assert status == 0 and out in page
    status, out, _ = run(capsys, "play", "examples/orchard", "--players", "2", "--seed", "2")
    assert status == 0 and out in page and "P2's turn" in out
    status, out, _ = run(capsys, "scenario", *sorted(Path("examples/orchard/scenarios").glob("*.yaml")))
    assert status == 0 and out in page


@pytest.mark.parametrize("players", [2, 3, 4])
def test_orchard_plays_at_every_player_count(players, capsys):
    assert run(capsys, "play", ROOT / "examples" / "orchard", "--players", players, "--quiet")[0] == 0


def test_printing_your_cards_as_the_page_says(capsys, monkeypatch, tmp_path):
    """"Printing your cards": its template is the one Orchard has, its picture of the Windfall is
    what `show --svg` draws today, its print, warning and refusals are what the commands say."""
    page = (ROOT / "docs" / "tutorial-card-faces.md").read_text()
    rules = (ROOT / "examples" / "orchard" / "rules" / "orchard" / "game.yaml").read_text()
    template = re.search(r"```yaml\n(# How the cards are drawn.*?)```\n", page, re.S).group(1)
    assert rules.endswith(template)
    assert "  - {id: apple, name: Apple, value: 1, colour: red, copies: 6, art: art/apple.svg}\n" in page
    monkeypatch.chdir(ROOT)
    status, _, _ = run(capsys, "show", "examples/orchard", "Windfall", "--svg", tmp_path / "windfall.svg")
    assert status == 0
    assert (tmp_path / "windfall.svg").read_text() == (ROOT / "docs" / "images" / "orchard-windfall.svg").read_text()
    drawn = (tmp_path / "windfall.svg").read_text()                  # the worked example's numbers
    boxes = re.findall(r'<rect x="2.5" y="[\d.]+" width="58" height="([\d.]+)"', drawn)
    assert boxes == ["52.91", "10.45"] and "58 × 52.9 mm" in page and "10.45 mm high" in page
    assert 'font-size="4.5" fill="#000000"' in drawn and "#f9a825" in drawn and "`#f9a825` for yellow" in page
    said = f"a contrast of {contrast('#000000', '#f9a825'):.1f} to 1 on that yellow, white at {contrast('#ffffff', '#f9a825'):.1f}"
    assert said in page and "least share would have been 25.35 mm" in page and round((88 - 3.5) * 0.3, 2) == 25.35
    status, out, _ = run(capsys, "print", "examples/orchard", "-o", tmp_path / "orchard.pdf")
    assert status == 0 and out.replace(str(tmp_path / "orchard.pdf"), "orchard.pdf") in page
    # the warning and the refusals, on a copy laid out as the repository is
    copy = tmp_path / "copy"
    shutil.copytree(ROOT / "examples" / "orchard", copy / "examples" / "orchard")
    monkeypatch.chdir(copy)
    fruit = copy / "examples" / "orchard" / "cards" / "orchard" / "fruit.yaml"
    said = fruit.read_text()
    effect = "move 1 from crate to basket face up"
    fruit.write_text(said.replace(effect, f"[{', '.join([effect] * 60)}]"))
    status, out, err = run(capsys, "check", "examples/orchard")
    assert status == 0 and "warning[W0106]" in err and out + err in page
    fruit.write_text(said.replace("art: art/fig.svg", "art: ../../../../secret.png"))
    (fruit.parent / "icons" / "red.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" onload="fetch(\'https://example.com/\')">'
        '<circle cx="12" cy="12" r="9"/></svg>\n')
    status, _, err = run(capsys, "check", "examples/orchard")
    assert status == 1 and err in page
