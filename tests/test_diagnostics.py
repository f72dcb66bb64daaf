"""The bad-input corpus: every folder under fixtures/diagnostics/ is one case.

A case folder holds the input (a small game tree, a card file beside its game, or nothing
at all for misuse) and `expected.txt`, which starts with header lines:

    # exit: 1
    # run: silvics check cards/four-forests/plants.yaml

followed by exactly what the command must print on standard error. The command runs with
the case folder as the working directory, so the printed paths are relative to it.
Whatever the input, the output must never be a Python traceback.

To add a case: make the folder, run the command from inside it, read the output as a
designer would, and save it (after the two header lines) as expected.txt.
"""
from __future__ import annotations

import shlex
import traceback
from pathlib import Path

import pytest

from silvics import cli

CORPUS = Path(__file__).resolve().parent / "fixtures" / "diagnostics"
CASES = sorted(p.name for p in CORPUS.iterdir() if (p / "expected.txt").is_file())


def read_expected(case: Path) -> tuple[int, list[str], str]:
    """(exit status, command-line arguments after `silvics`, expected standard error)."""
    lines = case.joinpath("expected.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    headers = {}
    while lines and lines[0].startswith("# ") and ":" in lines[0]:
        key, _, value = lines.pop(0)[2:].partition(":")
        headers[key.strip()] = value.strip()
    assert "exit" in headers, f"{case.name}/expected.txt must start with '# exit: N'"
    assert "run" in headers, f"{case.name}/expected.txt needs a '# run: silvics ...' line"
    argv = shlex.split(headers["run"])
    assert argv[:1] == ["silvics"], f"{case.name}: the run line must start with 'silvics'"
    return int(headers["exit"]), argv[1:], "".join(lines)


def run_silvics(argv: list[str]) -> tuple[int, str]:
    """Run the CLI in-process; a crash is turned into output so the comparison shows it."""
    crash = ""
    try:
        status = cli.main(argv)
    except SystemExit as exit_:          # argparse's own usage errors
        status = exit_.code if isinstance(exit_.code, int) else 1
    except Exception:                    # noqa: BLE001 - a traceback is exactly what we look for
        status, crash = -1, traceback.format_exc()
    return status, crash


@pytest.mark.parametrize("case", CASES)
def test_diagnostics(case, monkeypatch, capsys):
    folder = CORPUS / case
    status_wanted, argv, stderr_wanted = read_expected(folder)
    monkeypatch.chdir(folder)
    monkeypatch.setenv("COLUMNS", "100")     # argparse wraps its usage line to the terminal
    monkeypatch.setenv("NO_COLOR", "1")
    status, crash = run_silvics(argv)
    out, err = capsys.readouterr()
    err += crash
    assert "Traceback" not in err and "Traceback" not in out, f"a traceback reached the designer:\n{err}"
    assert err == stderr_wanted
    assert status == status_wanted


def test_corpus_is_not_empty():
    assert len(CASES) >= 30, CASES


def test_every_diagnostic_code_is_declared_and_exercised():
    """compiler/diagnostics.CODES lists every code; the corpus shows each one at least once."""
    import re

    from silvics.compiler.diagnostics import CODES
    used = {code for case in CASES
            for code in re.findall(r"(?:error|warning)\[([EW]\d{4})\]", (CORPUS / case / "expected.txt").read_text())}
    assert used <= set(CODES), used - set(CODES)
    assert set(CODES) <= used, f"no fixture shows {sorted(set(CODES) - used)}"
