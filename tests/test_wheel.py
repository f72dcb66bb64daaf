"""The wheel `pip install .` builds: every bundled rules and card file in it, declared so that
setuptools keeps them (no "Package would be ignored" warning, which a future setuptools makes
an error). One build of the wheel, as pip builds it (isolated, with the setuptools that
pyproject.toml asks for), from a copy of the sources in a temporary folder, so the checkout
gets no build/ or egg-info folder: about 10 s on two cores, most of it pip fetching setuptools
(cached by pip after the first run)."""
from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("pyproject.toml", "README.md", "silvics", "compiler", "interpreter", "rules", "cards", "schemas")


def test_the_wheel_holds_every_rules_and_card_file_and_setuptools_warns_of_none(tmp_path):
    source = tmp_path / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(ROOT / name, source / name)
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w", str(tmp_path / "dist"),
                            str(source)], capture_output=True, text=True, timeout=300)
    log = built.stdout + built.stderr
    assert built.returncode == 0, log[-3000:]
    ignored = [line.strip() for line in log.splitlines() if "absent from the `packages` configuration" in line]
    assert not ignored, "\n".join(ignored)
    [wheel] = (tmp_path / "dist").glob("silvics-*.whl")
    held = set(zipfile.ZipFile(wheel).namelist())
    for folder in ("rules", "cards", "compiler/fonts"):              # data, icons, and the faces' font
        files = [path for path in (ROOT / folder).rglob("*") if path.is_file() and "__pycache__" not in path.parts]
        assert files
        missing = [str(path.relative_to(ROOT)) for path in files
                   if f"silvics/{path.relative_to(ROOT).as_posix()}" not in held]
        assert not missing, f"not in the wheel: {missing}"
