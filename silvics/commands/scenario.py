"""`silvics scenario`: run scenario files and report pass or fail for each."""

from __future__ import annotations

from pathlib import Path

from silvics.errors import DATA_ERROR, OK, UsageError

from .common import chosen_options, named, setting_option

NAME = "scenario"
HELP = "run scenario files and report pass/fail per file"


def arguments(parser):
    parser.add_argument(
        "paths", nargs="+", metavar="FILE", help="a scenario file, or a folder: every .yaml file under it"
    )
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="print each run's log and every choice taken, asked or automatic",
    )
    setting_option(parser, " (over the files' own options)")


def run(args) -> int:
    from silvics import scenarios  # reads YAML: imported only by the commands that need it

    files = [file for spec in args.paths for file in _scenario_files(spec)]
    failed, options = 0, chosen_options(args)
    for file in files:
        outcome = scenarios.run_file(file, use_cache=not args.no_cache, options=options)
        print(f"{'PASS' if outcome.passed else 'FAIL'}  {file}  {outcome.name}")
        for failure in outcome.failures:
            print("      " + failure.replace("\n", "\n      "))
        if args.verbose:
            print(
                "    log:",
                *(f"      {line}" for line in outcome.log or ["(the run did not start)"]),
                sep="\n",
            )
            print("    choices:", *(f"      {line}" for line in outcome.choices or ["(none)"]), sep="\n")
        failed += not outcome.passed
    print(f"{len(files) - failed} passed, {failed} failed")
    return DATA_ERROR if failed else OK


def _scenario_files(spec: str) -> list[Path]:
    """The scenario files a path stands for: itself, or every .yaml file under a folder."""
    path = named(spec)
    if path.is_dir():
        files = sorted(path.rglob("*.yaml"))
        if not files:
            raise UsageError(f"no scenario files in {spec} (a folder stands for every .yaml file under it)")
        return files
    if not path.exists():
        raise UsageError(f"no such file or folder: {spec}")
    if path.suffix != ".yaml":
        raise UsageError(f"{spec} is not a scenario: give a .yaml file or a folder of them")
    return [path]
