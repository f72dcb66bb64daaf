"""Where a random game's time goes, sampled. py-spy reads the interpreter's stack from outside
as it plays, a few hundred times a second, so nothing is traced: CPython's specialised
instructions stay on, unlike under cProfile or sys.settrace, whose counts put the time in the
wrong places (an opcode count once promised 1.3 % that Valgrind never found). Each function's
share of the samples is printed twice: its own (a call's overhead counts to its caller) and
with everything it calls. The rules' generated functions are listed by name, as `generated`.

    pip install -e '.[profile]'
    python benchmarks/samples.py forest-shuffle --games 1500

Valgrind (instructions.py) says how much a change gains; this says where to look first.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from instructions import ENVIRONMENT, PROBE

_FRAME = re.compile(r"(?P<name>.*?) \((?P<file>.*?)(?::\d+)?\)$")  # py-spy's raw "function (file:line)"


def shares(raw: str) -> tuple[Counter, Counter, int]:
    """Samples per function, its own and inclusive, from py-spy's raw output (a stack and a count a line)."""
    own, inclusive, total = Counter(), Counter(), 0
    for line in raw.splitlines():
        stack, count = line.rsplit(" ", 1)
        frames = [_function(frame) for frame in stack.split(";")]
        own[frames[-1]] += int(count)
        inclusive.update(dict.fromkeys(set(frames), int(count)))
        total += int(count)
    return own, inclusive, total


def _function(frame: str) -> str:
    found = _FRAME.match(frame)
    if found is None:
        return frame or "(no Python frame: the collector, or C code)"
    where = Path(found["file"]).name
    return f"{found['name']} [{'generated' if where.startswith('rules_') else where}]"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--rate", type=int, default=400, help="samples a second")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    if not shutil.which("py-spy"):
        raise SystemExit("this needs py-spy: pip install -e '.[profile]'")
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "samples.txt"
        play = [sys.executable, "-c", PROBE, args.game, str(args.players), str(args.games)]
        subprocess.run([*play[:-1], "0"], check=True, env=ENVIRONMENT)  # the rules' code generated, untimed
        subprocess.run(["py-spy", "record", "-r", str(args.rate), "-f", "raw", "-o", str(out), "--", *play],
                       check=True, env=ENVIRONMENT, capture_output=True)
        own, inclusive, total = shares(out.read_text())
    print(f"{args.game}, {args.players} players, {args.games} games: {total} samples")
    for title, counted in (("own", own), ("with what it calls", inclusive)):
        print(f"\n{title}:")
        for name, count in counted.most_common(args.top):
            print(f"{count / total:7.1%}  {name}")


if __name__ == "__main__":
    main()
