"""The reference site comes from the same data: the committed generated pages must match
what the code and data generate now, and the whole site must build with --strict.
After changing a primitive or a game, run `silvics docs` and commit docs/reference/."""
import subprocess
import sys
from pathlib import Path

import pytest
from silvics import balance, bundled
from silvics.reference import write_game_reference, write_primitives_page

from conftest import workers

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "reference"


@pytest.mark.parametrize("game_id", bundled.games())
def test_generated_reference_is_up_to_date(tmp_path, game_id):
    """Every page and balance report of a game, as the code and data make them now. A report's
    games are played on every core, or in this process under xdist (the same figures on any
    number of workers); its plots are drawn from its figures.json, compared here, so only their
    presence is checked (their bytes follow matplotlib's version)."""
    made = lambda ir: balance.reference_report(ir, workers=workers())      # noqa: E731
    written = write_game_reference(tmp_path, game_id, made)
    for page in written:
        name = page.relative_to(tmp_path)
        committed = REFERENCE / name
        assert committed.exists(), f"{name} is not committed: run `silvics docs`"
        if page.suffix != ".png":
            assert committed.read_text() == page.read_text(), f"{name} is stale: run `silvics docs`"
    left = {p.relative_to(REFERENCE) for p in (REFERENCE / game_id).rglob("*") if p.is_file()}
    assert left == {p.relative_to(tmp_path) for p in written}, "files no run writes: delete them"


def test_the_reference_holds_the_primitives_page_and_the_bundled_games_only(tmp_path):
    page = write_primitives_page(tmp_path)
    assert (REFERENCE / page.name).read_text() == page.read_text(), "primitives.md is stale: run `silvics docs`"
    assert {p.name for p in REFERENCE.iterdir()} == {"primitives.md", *bundled.games()}, \
        "files no run writes: delete them"


def test_every_primitive_is_documented(tmp_path):
    from silvics.interpreter.registry import REGISTRY, load_all
    text = (ROOT / "docs" / "reference" / "primitives.md").read_text()
    for name in load_all():
        assert f"### `{name}`" in text
        assert REGISTRY[name].doc in text


def test_site_builds_strictly(tmp_path):
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_diagnostics_page_shows_what_check_reports_of_a_score_no_player_can_take(tmp_path):
    """docs/diagnostics.md: adding `- score 1` to Reforest's `end_round` (a procedure an interrupt
    runs) is reported as the page shows, line and column included: they follow the rules file."""
    import shutil

    from conftest import run_cli
    page = (ROOT / "docs" / "diagnostics.md").read_text()
    said = page.split("is reported by `silvics check rules/reforest` as\n\n```text\n", 1)[1].split("```", 1)[0]
    shutil.copytree(ROOT / "rules" / "reforest", tmp_path / "rules" / "reforest")
    shutil.copytree(ROOT / "cards" / "reforest", tmp_path / "cards" / "reforest")
    rules = tmp_path / "rules" / "reforest" / "game.yaml"
    rules.write_text(rules.read_text().replace("  end_round:\n", "  end_round:\n    - score 1\n", 1))
    status, out, err = run_cli("check", str(rules.parent))
    assert status == 1
    assert said.replace("rules/reforest", str(rules.parent)) in out + err
