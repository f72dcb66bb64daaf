"""Balance diff (`silvics balance GAME --against OTHER`): what a change to a game's data did.

Two versions of one game play the same seeds with the same agents (paired games: a seed deals
the same cards in both unless the change changes the deal, so the noise of the deal cancels
out). The report says what changed in the data, in words, then each figure's difference with a
95% interval on the per-seed differences, flagged when it excludes zero; the card table is
flagged with Benjamini–Hochberg at 5%, as it tests many cards at once.

OTHER is a folder, `installed` (the copy installed with silvics) or `git:REV` (the game's files at
a revision of the git repository they live in, read with `git archive` into a temporary
read-only folder, removed afterwards: nothing is written to the repository).
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path

from silvics import bundled, games
from silvics.errors import UsageError
from silvics.interpreter import ir as ir_module
from silvics.interpreter.ir import Node

Z = 1.96  # a 95% interval
LEVEL = 0.05  # Benjamini–Hochberg's false discovery rate over the card table


# ---- the other version ----
@contextlib.contextmanager
def other_version(spec: str, against: str, use_cache: bool = True) -> Iterator[ir_module.GameIR]:
    """The IR of the version `against` names, of the game `spec` names; UsageError, in one line,
    for another game, a revision that does not exist or a folder that does not check."""
    path = games.game_path(spec)
    if against == "installed":
        installed = bundled.games().get(games.load(spec, use_cache=use_cache).id)
        if installed is None:
            raise UsageError(
                f"{spec} is not a game installed with silvics: --against installed has nothing to compare"
            )
        yield _same_game(spec, games.load(str(installed), use_cache=use_cache), use_cache)
        return
    if against.startswith("git:"):
        with _at_revision(path, against[4:]) as other:
            yield _same_game(spec, _loaded(str(other), against, use_cache=False), use_cache)
        return
    yield _same_game(spec, _loaded(against, against, use_cache), use_cache)


def _loaded(spec: str, said: str, use_cache: bool) -> ir_module.GameIR:
    from silvics.compiler.diagnostics import CompileError

    try:
        return games.load(spec, use_cache=use_cache)
    except games.GameNotFound as error:
        raise UsageError(f"--against {said}: {error}") from None
    except CompileError as error:
        first = error.diagnostics[0]
        raise UsageError(
            f"--against {said} does not check ({len(error.diagnostics)} error(s)); the first: "
            f"{Path(first.file).name}:{first.line}:{first.col}: {first.message}"
        ) from None


def _same_game(spec: str, other: ir_module.GameIR, use_cache: bool) -> ir_module.GameIR:
    this = games.load(spec, use_cache=use_cache)
    if other.id != this.id:
        raise UsageError(
            f"--against names {other.name} ({other.id}), not a version of {this.name} ({this.id})"
        )
    return other


@contextlib.contextmanager
def _at_revision(game_file: Path, revision: str) -> Iterator[Path]:
    """The game's files at `revision`, in a temporary read-only folder: its game file there."""
    from silvics.compiler.files import game_root

    root = game_root(game_file)
    top = _git(root, "rev-parse", "--show-toplevel").strip()
    if not top:
        raise UsageError(f"--against git:{revision}: {root} is not in a git repository")
    if revision.startswith("-") or not _git(
        top, "rev-parse", "--verify", "--quiet", f"{revision}^{{commit}}"
    ):
        raise UsageError(f"--against git:{revision}: no such revision in {top}")
    inside = root.resolve().relative_to(Path(top).resolve())
    archive = subprocess.run(
        [
            "git",
            "-C",
            top,
            "archive",
            "--format=tar",
            revision,
            "--",
            str(inside) if str(inside) != "." else ".",
        ],
        capture_output=True,
        check=False,
    )
    if archive.returncode:
        raise UsageError(f"--against git:{revision}: the game's files are not in that revision")
    folder = Path(tempfile.mkdtemp(prefix="silvics-against-"))
    try:
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(folder, filter="data")  # no links out, no devices: a tar of our own making
        for place, _, names in os.walk(folder, topdown=False):  # a folder after what it holds
            for name in names:
                os.chmod(Path(place) / name, 0o444)
            os.chmod(place, 0o555)
        yield folder / game_file.resolve().relative_to(Path(top).resolve())
    finally:
        for place, _, _ in os.walk(folder):  # writable again, to be removed
            os.chmod(place, 0o755)
        shutil.rmtree(folder, ignore_errors=True)


def _git(folder, *argv: str) -> str:
    try:
        done = subprocess.run(["git", "-C", str(folder), *argv], capture_output=True, text=True, check=False)
    except FileNotFoundError:
        raise UsageError("--against git:REV needs git") from None
    return done.stdout if done.returncode == 0 else ""


# ---- what changed, in words ----
def changes(old: ir_module.GameIR, new: ir_module.GameIR) -> list[str]:
    """What differs between two versions of a game's data, a line each: cards added, removed or
    with a printed value changed, copies changed, and rules (procedures, definitions) changed."""
    from silvics.compiler.english import Wording
    from silvics.human import Naming

    lines, words = [], (Wording(old.vocabulary), Wording(new.vocabulary))
    named = (Naming(old, 0), Naming(new, 0))
    before = {card.id: card for card in _cards(old)}
    after = {card.id: card for card in _cards(new)}
    for card_id, card in after.items():
        was = before.get(card_id)
        name = named[1].printed(card_id)  # as the tables name it (a split card by its halves)
        if was is None:
            lines.append(f"new card: {name}")
            continue
        if was.copies != card.copies:
            lines.append(f"{name}: copies {was.copies} → {card.copies}")
        for side, old_side in zip(card.sides, was.sides):
            for attribute in dict.fromkeys((*old_side.attributes, *side.attributes)):
                then, now = old_side.attributes.get(attribute), side.attributes.get(attribute)
                if _plain(then) != _plain(now):
                    lines.append(f"{name}: {attribute} {_said(then, words[0])} → {_said(now, words[1])}")
            if old_side.name != side.name:
                lines.append(f"{old_side.name or card_id}: renamed {side.name}")
    lines += [f"card removed: {named[0].printed(card_id)}" for card_id in before if card_id not in after]
    for name in sorted({*old.procedures, *new.procedures}):
        if _plain(old.procedures.get(name)) != _plain(new.procedures.get(name)):
            where = _where(new.procedures.get(name)) or _where(old.procedures.get(name))
            lines.append(f"rule changed: {name}" + (f" ({where})" if where else ""))
    for (name, _, text), (_, _, was) in zip(new.definitions, old.definitions):
        if text != was:
            lines.append(f"definition changed: {name}")
    return lines


def _cards(ir) -> list:
    return [*ir.cards, *(card for module in ir.modules.values() for card in module.cards)]


def _plain(value):
    """A value compared without where it is written (a moved rule or a comment changes no play)."""
    if isinstance(value, Node):
        return (value.op, tuple((key, _plain(v)) for key, v in sorted(value.args.items()) if key != "@"))
    if isinstance(value, tuple | list):
        return tuple(_plain(v) for v in value)
    if isinstance(value, dict):
        return tuple((key, _plain(v)) for key, v in sorted(value.items()))
    return value


def _said(value, wording) -> str:
    """A printed value in words: a rule as its version's vocabulary says it ("score 20")."""
    if value is None:
        return "(none)"
    if isinstance(value, Node):
        return f"“{wording.say(value)}”"
    if isinstance(value, tuple | list):
        return "/".join(_said(one, wording) for one in value) or "(none)"
    return str(value)


def _where(node) -> str:
    """Where a rule is written, as `file:line`, the file from the game's root (the same in both
    versions, wherever each lies)."""
    span = node.span if isinstance(node, Node) else None
    return f"{span.file}:{span.line}" if span else ""


# ---- the figures: paired differences ----
def paired(befores: list[float], afters: list[float]) -> tuple[float, float, float]:
    """The mean of the per-seed differences (after − before), the half-width of its 95% interval
    (the differences' standard error × 1.96), and its two-sided p-value (normal)."""
    diffs = [a - b for a, b in zip(afters, befores, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    error = sd / math.sqrt(n)
    if error == 0:
        return mean, 0.0, 1.0 if mean == 0 else 0.0
    return mean, Z * error, math.erfc(abs(mean / error) / math.sqrt(2))


def flagged(p_values: list[float], level: float = LEVEL) -> list[bool]:
    """Benjamini–Hochberg: which of these tests stand at false discovery rate `level`."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    largest = -1
    for rank, index in enumerate(order, 1):
        if p_values[index] <= level * rank / len(p_values):
            largest = rank
    stands = [False] * len(p_values)
    for rank, index in enumerate(order, 1):
        stands[index] = rank <= largest
    return stands


# ---- the report ----
def report(old, new, label: str, players: int, count: int, seed: int, names: tuple, play, setups=(), by=""):
    """The diff report (report.Report): what changed, then the seats' and the cards' figures in
    both versions with their paired differences. `play(ir, modules, options)` plays the `count`
    games of one version, from `seed`, and returns its Summary with each game's result kept;
    `setups` are the setups `--by` compares, (label, modules, options), the one as given first."""
    from silvics.compiler.markdown import inline
    from silvics.human import Naming
    from silvics.report import Report

    (_, modules, options), *others = setups
    before, after = play(old, modules, options), play(new, modules, options)
    said = changes(old, new)
    made = Report(f"{new.name}: this version against {label}")
    made.lines += [
        f"# {inline(new.name)}: this version against {inline(label)}",
        "",
        f"{count} games of each version, seeds {seed} to {seed + count - 1}, {players} players, agents "
        f"{', '.join(names)}: the same seeds and agents in both (paired games).",
        "",
        "## What changed",
        "",
        *([f"- {inline(line)}" for line in said] or ["- nothing in the data"]),
        "",
    ]
    same = [a.scores for a in after.results] == [b.scores for b in before.results]
    if same:
        made.lines += [
            "Every game ended with the same scores in both versions: the change alters no play.",
            "",
        ]
    naming = Naming(new, 0)
    seats = _seat_rows(before, after, players)
    cards = _card_rows(before, after, said, naming)
    made.lines += _table("Seats", "seat", seats) + _table("Cards", "card", cards)
    made.figures = {"changes": said, "identical": same, "seats": seats, "cards": cards}
    if others:
        compared = [{**seats[0], "name": setups[0][0]}] + [  # the setup as given is played once
            {**_seat_rows(play(old, *setup), play(new, *setup), players)[0], "name": row_label}
            for row_label, *setup in others
        ]
        made.lines += _table(f"By {by}", "setup", compared)
        made.figures["by"] = compared
    shown = [row for row in cards if row["points"]["difference"] or row["changed"]][:20]
    if shown:
        made.plots["differences.png"] = lambda axes: _forest(axes, shown)
        made.lines += ["![The cards' differences in mean points a game](differences.png)", ""]
    return made


def _seat_rows(before, after, players: int) -> list[dict]:
    rows = []
    for seat in range(players):
        wins = paired([r.share[seat] for r in before.results], [r.share[seat] for r in after.results])
        points = paired([r.scores[seat] for r in before.results], [r.scores[seat] for r in after.results])
        rows.append(
            {
                "name": f"P{seat + 1}",
                "wins": _figure(before.wins[seat] / before.games, after.wins[seat] / after.games, wins),
                "points": _figure(
                    before.totals[seat] / before.games, after.totals[seat] / after.games, points
                ),
            }
        )
    return rows


def _card_rows(before, after, said: list[str], naming) -> list[dict]:
    """Per card that earned points or lay in play in either version: its mean points a game and
    the share of games a player had it in play at the end, in both versions, with the paired
    differences, flagged with Benjamini–Hochberg over the whole table; changed cards first."""
    seen = {card for s in (before, after) for r in s.results for card in (*r.earned, *r.held)}
    rows = []
    for card in sorted(seen):
        name = naming.printed(card)
        row = {"name": name, "id": card}
        row["changed"] = any(line.startswith((f"{name}:", f"new card: {name}")) for line in said)
        for figure, (then, now) in (
            ("points", [[r.earned.get(card, [0])[0] for r in s.results] for s in (before, after)]),
            ("in_play", [[float(card in r.held) for r in s.results] for s in (before, after)]),
            ("wins_with", _holders_wins(card, before, after)),
        ):
            if then:
                row[figure] = _figure(sum(then) / len(then), sum(now) / len(now), paired(then, now))
        rows.append(row)
    tests = [row[figure] for row in rows for figure in ("points", "in_play", "wins_with") if figure in row]
    for test, stand in zip(tests, flagged([test["p"] for test in tests]) if tests else []):
        test["flagged"] = stand
    rows.sort(key=lambda row: (not row["changed"], -abs(row["points"]["difference"]), row["name"]))
    return rows


def _holders_wins(card: str, before, after) -> tuple[list[float], list[float]]:
    """The mean share of the win of the players who had the card in play at the end, in each
    version, over the seeds where a player had it in both (the pairs a paired difference needs)."""
    then, now = [], []
    for old, new in zip(before.results, after.results, strict=True):
        if old.held.get(card) and new.held.get(card):
            then.append(sum(old.share[seat] for seat in old.held[card]) / len(old.held[card]))
            now.append(sum(new.share[seat] for seat in new.held[card]) / len(new.held[card]))
    return then, now


def _figure(then: float, now: float, difference: tuple[float, float, float]) -> dict:
    mean, half, p = difference
    return {
        "before": then,
        "after": now,
        "difference": mean,
        "low": mean - half,
        "high": mean + half,
        "p": p,
        "flagged": half > 0 and (mean - half > 0 or mean + half < 0) or (half == 0 and mean != 0),
    }


def _table(title: str, what: str, rows: list[dict]) -> list[str]:
    from silvics.compiler.markdown import inline

    if not rows:
        return []
    lines = [f"## {title}", ""]
    if what == "setup":
        lines += ["The first seat's figures under each setup, on the same seeds.", ""]
    if what in ("seat", "setup"):
        lines += [
            f"| {what} | win rate before | after | difference (95%) "
            "| mean points before | after | difference (95%) |",
            "|---|---|---|---|---|---|---|",
        ]
        lines += [
            f"| {inline(row['name'])} | {_cells(row['wins'], '.1%')} | {_cells(row['points'], '.2f')} |"
            for row in rows
        ]
    else:
        lines += [
            "Each card's mean points a game, the share of games in which a player had it in play at the "
            "end, and the win rate of the players who had it (over the seeds where a player had it in "
            "both versions); changed cards first, then the largest differences in points; in bold where "
            "the difference stands when the whole table is tested at once (Benjamini–Hochberg, 5%).",
            "",
            "| card | points before | after | difference (95%) | in play before | after | difference (95%) "
            "| win rate with it before | after | difference (95%) |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        lines += [
            f"| {inline(row['name'])}{' (changed)' * row['changed']} | "
            f"{_cells(row['points'], '.2f')} | {_cells(row['in_play'], '.0%')} | "
            + (_cells(row["wins_with"], ".0%") if "wins_with" in row else "— | — | —")
            + " |"
            for row in rows
        ]
    return lines + [""]


def _cells(figure: dict, form: str) -> str:
    """A figure's three cells: before, after, and the difference with its interval."""
    return f"{figure['before']:{form}} | {figure['after']:{form}} | {_interval(figure, '+' + form)}"


def _interval(figure: dict, form: str) -> str:
    said = f"{figure['difference']:{form}} ({figure['low']:{form}} to {figure['high']:{form}})"
    return f"**{said}**" if figure["flagged"] else said


def _forest(axes, rows: list[dict]):
    """The cards' differences with their intervals, changed cards on top."""
    names = [row["name"] for row in rows][::-1]
    points = [row["points"] for row in rows][::-1]
    for y, figure in enumerate(points):
        colour = "#c62828" if figure["flagged"] else "#546e7a"
        axes.plot([figure["low"], figure["high"]], [y, y], color=colour, linewidth=2)
        axes.plot([figure["difference"]], [y], "o", color=colour)
    axes.axvline(0, color="#999", linewidth=1)
    axes.set_yticks(range(len(names)), names, fontsize=7)
    axes.set_xlabel("difference in mean points a game (after − before), 95%")


def reference_diff(new, other, label: str, count: int, workers: int = 1, use_cache: bool = True):
    """The diff report of a game's reference site (`silvics docs GAME --against OTHER`): its
    reference setup (balance.reference_setup), the first agent in every seat, seeds from 1."""
    from silvics.balance import SEED, cached_runner, reference_setup
    from silvics.interpreter.simulate import simulate

    players, agents, _ = reference_setup(new)

    def play(version, modules, options):
        runner = cached_runner(version, workers, use_cache=use_cache)
        return simulate(
            version,
            players,
            count,
            SEED,
            (agents[0],),
            modules,
            workers,
            options=options,
            keep=True,
            runner=runner,
        )

    return report(
        other, new, label, players, count, SEED, (agents[0],) * players, play, [("as set up", (), {})]
    )


def appended(base, diff):
    """The balance report `base` with the diff report after it, as a section of its page."""
    lines = [("#" + line) if line.startswith("#") else line for line in diff.lines]
    base.lines += ["", *lines]
    base.figures["against"] = diff.figures
    base.plots.update(diff.plots)
    return base
