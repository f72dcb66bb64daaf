"""Balance reports (`silvics balance`): seeded games between agents, summarised for a designer
asking "is this card too strong?", "does the first player win too often?", "how much does
skill matter?". A report is a folder: `index.md` (Markdown a docs site can include), PNG
plots drawn with matplotlib, and `figures.json` holding every number. Every figure follows
from the seed printed at the top: the same command gives the same report.

Intervals are 95%: Wilson's for a rate (a win share counts ties as fractions: close enough
for a report), mean ± 1.96 standard errors for a mean score.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from silvics.compiler.markdown import code, inline
from silvics.errors import UsageError
from silvics.human import Naming
from silvics.interpreter.ir import SetupError
from silvics.interpreter.simulate import simulate

Z = 1.96  # the normal quantile of a 95% interval


@dataclass
class Rate:
    """A share of wins among `n` tries, with its 95% interval."""

    wins: float
    n: int

    @property
    def value(self) -> float:
        return self.wins / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        if not self.n:
            return 0.0, 1.0
        p, n = self.value, self.n
        centre, spread = p + Z * Z / (2 * n), Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
        return max(0.0, (centre - spread) / (1 + Z * Z / n)), min(1.0, (centre + spread) / (1 + Z * Z / n))

    def __str__(self) -> str:
        low, high = self.interval
        return f"{self.value:.1%} ({low:.1%}–{high:.1%})"


def mean_interval(values: list) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval."""
    n = len(values)
    mean = sum(values) / n
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return mean, Z * spread / math.sqrt(n)


@dataclass
class Report:
    title: str
    lines: list = field(default_factory=list)
    figures: dict = field(default_factory=dict)
    plots: dict = field(default_factory=dict)  # file name -> a function drawing it on a matplotlib Axes


def balance(
    ir,
    players: int,
    games: int,
    seed: int,
    agents: list[str],
    modules=(),
    options=None,
    workers: int = 1,
    progress=None,
    runner=None,
    by: str | None = None,
) -> Report:
    """The report of `games` games per study: the seats (the first agent in every seat); with
    several agents, each against each (its seat turning game by game); with `by` ("module", or
    an option's name), the first agent's games under each module or each value of the option.
    `runner` plays them elsewhere (simulate's); `progress(done)` counts over every study."""
    rows = study_rows(ir, players, modules, options or {}, by) if by else []
    play = _batches(
        ir,
        players,
        dict(modules=tuple(modules), options=options, workers=workers, keep=True, runner=runner),
        progress,
    )
    report = Report(f"Balance of {ir.name}")
    seats = play(games, seed, (agents[0],))
    report.lines += [
        f"# {inline(report.title)}",
        "",
        f"{games} games of {players} player{'s' * (players > 1)}, seeds {seed}–{seed + games - 1}"
        + inline(
            (f", modules {', '.join(modules)}" if modules else "")
            + (f", options {', '.join(f'{k}={v}' for k, v in options.items())}" if options else "")
            + f"; agents {', '.join(agents)}"
        )
        + ". Every figure follows from these: "
        + code(
            f"silvics balance {ir.id} --players {players} --games {games} --seed {seed} "
            f"--agents {','.join(agents)}{_setup_options(modules, options)}{f' --by {by}' if by else ''}"
        )
        + " gives this report again. Intervals are 95%.",
        "",
    ]
    _seats(report, seats, agents[0])
    if len(agents) > 1 and players > 1:
        _matrix(report, play, players, games, seed, agents)
    if by:
        _by(report, play, games, seed, agents[0], by, rows)
    _cards(report, seats, Naming(ir, 0).printed)
    return report


def planned(games: int, agents: list[str], players: int, rows: int = 0) -> int:
    """How many games `balance` plays: the seat study, the pairs of agents, a study per row of `by`."""
    pairs = len(agents) * (len(agents) - 1) // (2 if players == 2 else 1) if players > 1 else 0
    return games * (1 + pairs + rows)


def study_rows(ir, players: int, modules, options: dict, by: str) -> list[tuple[str, tuple, dict]]:
    """The setups `--by` compares, as (label, modules, options): the modules as given, then each
    other module the game allows on with them at this number of players; or each value of an
    option. SetupError for an option the game (with these modules) does not have."""
    modules = tuple(modules)
    if by == "module":
        rows = [("as set up" if modules else "the base game", modules, options)]
        for name in ir.modules:
            if name not in modules and _allowed(ir, players, (*modules, name)):
                rows.append((f"+ {name}", (*modules, name), options))
        return rows
    owned = {o.name: o for o in ir.options} | {o.name: o for m in modules for o in ir.modules[m].options}
    if by not in owned:
        elsewhere = next((m.name for m in ir.modules.values() for o in m.options if o.name == by), None)
        raise SetupError(
            f"option {by!r} belongs to module {elsewhere!r}: switch it on with --module {elsewhere}"
            if elsewhere
            else f"--by takes module or an option of the game with its modules on "
            f"({', '.join(['module', *owned])}), not {by!r}"
        )
    return [(value, modules, {**options, by: value}) for value in owned[by].values]


def _allowed(ir, players: int, modules: tuple) -> bool:
    try:
        ir.checked_players(players, ir.checked_modules(modules))
        return True
    except SetupError:
        return False


def _batches(ir, players: int, setup: dict, progress):
    """simulate() for the studies of one report, `progress` counting the games of all of them."""
    played = [0]

    def play(games: int, seed: int, names: tuple, **changed):
        before = played[0]
        counted = (lambda done: progress(before + done)) if progress else None
        summary = simulate(ir, players, games, seed, names, progress=counted, **{**setup, **changed})
        played[0] += games
        return summary

    return play


def _setup_options(modules, options) -> str:
    return "".join(f" --module {m}" for m in modules) + "".join(
        f" --set {k}={v}" for k, v in (options or {}).items()
    )


def _seats(report: Report, summary, agent: str):
    players, results = summary.players, summary.results
    rows, numbers = [], []
    for seat in range(players):
        scores = [result.scores[seat] for result in results]
        mean, half = mean_interval(scores)
        if players > 1:
            won = Rate(sum(result.share[seat] for result in results), len(results))
            rows.append(f"| P{seat + 1} | {mean:.2f} ± {half:.2f} | {won} |")
            numbers.append(
                {
                    "seat": seat + 1,
                    "mean": mean,
                    "interval": half,
                    "wins": won.value,
                    "win_interval": won.interval,
                }
            )
        else:  # alone: won by the rules' own criterion (solo: won:), if they give one
            won = Rate(sum(result.share[seat] for result in results), len(results))
            rows.append(f"| P{seat + 1} | {mean:.2f} ± {half:.2f} | {won} |")
            numbers.append(
                {
                    "seat": seat + 1,
                    "mean": mean,
                    "interval": half,
                    "wins": won.value,
                    "win_interval": won.interval,
                }
            )
    tally = _tally([result.result for result in results if result.result])
    if tally:
        rows += [
            "",
            "| result | games |",
            "|---|---|",
            *(f"| {inline(name)} | {share} |" for name, share in tally.items()),
        ]
        report.figures["results"] = {name: rate.value for name, rate in tally.items()}
    lengths = [result.length for result in results]
    report.lines += [
        f"## Seats ({inline(agent)} in every seat)",
        "",
        "Does the first player win too often? Each seat's mean score and share of the wins "
        "(ties share a win)."
        if players > 1
        else "Played alone: the score, and the share of games won by the game's own criterion "
        "(its `solo: won:` condition; a game that gives none is always won).",
        "",
        "| seat | mean score | win rate |",
        "|---|---|---|",
        *rows,
        "",
        "![scores by seat](scores.png)",
        "",
        f"Game length: {sum(lengths) / len(lengths):.1f} decisions on average "
        f"(min {min(lengths)}, max {max(lengths)}).",
        "",
        "![game length](lengths.png)",
        "",
    ]
    report.figures["seats"] = numbers
    report.figures["lengths"] = lengths
    report.plots["scores.png"] = lambda axes: _histograms(
        axes,
        [[r.scores[s] for r in results] for s in range(players)],
        [f"P{s + 1}" for s in range(players)],
        "score",
    )
    report.plots["lengths.png"] = lambda axes: _histograms(axes, [lengths], ["games"], "decisions")


def _tally(results: list[str]) -> dict:
    """How often each result (a tier) came, with its interval, in order of first appearance."""
    return {name: Rate(results.count(name), len(results)) for name in dict.fromkeys(results)}


def _matrix(report: Report, play, players: int, games: int, seed: int, agents: list[str]):
    """Each agent against each other: the row agent in one seat (seat k for the games of seed
    ≡ k), the column agent in the others. At two players a pair's games answer both ways round
    (the column agent's share of each game is the rest of it)."""
    rates: dict[tuple[str, str], Rate] = {}
    for mine in agents:
        for theirs in agents:
            if mine == theirs:
                continue
            if players == 2 and (theirs, mine) in rates:
                rates[mine, theirs] = Rate(games - rates[theirs, mine].wins, games)
                continue
            won = 0.0
            for seat in range(players):
                count = len(range(seat, games, players))
                if not count:
                    continue
                names = [theirs] * players
                names[seat] = mine
                won += play(count, seed + seat * games, tuple(names)).wins[seat]
            rates[mine, theirs] = Rate(won, games)
    header = "| against → | " + " | ".join(map(inline, agents)) + " |"
    rows = [
        "| "
        + inline(mine)
        + " | "
        + " | ".join("—" if mine == theirs else str(rates[mine, theirs]) for theirs in agents)
        + " |"
        for mine in agents
    ]
    report.lines += [
        "## Agent against agent",
        "",
        f"How much does skill matter? The row agent's win rate in one seat (turning seat by seat "
        f"over {games} games), the column agent in the other{'s' * (players > 2)}.",
        "",
        header,
        "|---|" + "---|" * len(agents),
        *rows,
        "",
        "![win rates](matrix.png)",
        "",
    ]
    report.figures["matrix"] = {
        f"{mine} vs {theirs}": {"wins": rate.value, "interval": rate.interval, "games": rate.n}
        for (mine, theirs), rate in rates.items()
    }
    report.plots["matrix.png"] = lambda axes: _heatmap(axes, agents, rates)


def _by(report: Report, play, games: int, seed: int, agent: str, by: str, rows: list):
    """The first agent's games (the seat study's seeds) under each setup of `--by`: the mean score,
    the first seat's win rate (alone: the share won), the results (tiers), if the game tallies
    any, and the game length."""
    numbers, firsts, means = [], [], []
    for label, modules, options in rows:
        summary = play(games, seed, (agent,), modules=modules, options=options)
        results = summary.results
        mean, half = mean_interval([score for result in results for score in result.scores])
        first = Rate(sum(result.share[0] for result in results), len(results))
        tally = _tally([result.result for result in results if result.result])
        numbers.append(
            {
                "setup": label,
                "mean": mean,
                "interval": half,
                "first_seat_wins": first.value,
                "first_seat_interval": first.interval,
                "length": sum(summary.lengths) / len(summary.lengths),
                "results": {name: rate.value for name, rate in tally.items()},
            }
        )
        firsts.append(first)
        means.append((label, mean, half))
    alone = len(results[0].scores) == 1  # the last row's games: every row has as many players
    tiers = any(row["results"] for row in numbers)
    lines = [
        "| "
        + " | ".join(
            [
                inline(row["setup"]),
                f"{row['mean']:.2f} ± {row['interval']:.2f}",
                str(first),
                *[", ".join(f"{inline(name)} {share:.0%}" for name, share in row["results"].items()) or "—"]
                * tiers,
                f"{row['length']:.1f}",
            ]
        )
        + " |"
        for row, first in zip(numbers, firsts)
    ]
    report.lines += [
        f"## By {inline(by)}",
        "",
        f"The seat study's games ({inline(agent)} in every seat, the same seeds) under each "
        + ("module the game allows with this setup" if by == "module" else f"value of {inline(by)}")
        + ": the mean score of a seat, "
        + ("the share of games won by the game's own criterion" if alone else "the first seat's win rate")
        + (", the results (the tiers reached)" if tiers else "")
        + " and the game length in decisions.",
        "",
        f"| {inline(by)} | mean score | {'won' if alone else 'P1 win rate'} |"
        + " results |" * tiers
        + " length |",
        "|---|---|---|" + "---|" * tiers + "---|",
        *lines,
        "",
        "![mean score by setup](by.png)",
        "",
    ]
    report.figures["by"] = {"study": by, "rows": numbers}
    report.plots["by.png"] = lambda axes: _bars(axes, means, "mean score")


def _cards(report: Report, summary, name):
    """Per card (said by `name`, as printed; figures.json keeps its id): how often a player had
    it in play at the end, the points it earned, and the win rate of the players who had it
    against those who did not; outliers flagged."""
    results, players = summary.results, summary.players
    counts: dict = {}
    for result in results:
        for card in result.held:
            counts[card] = counts.get(card, 0) + 1
    rows, numbers = [], {}
    for card in sorted(counts, key=lambda c: (-counts[c], c)):
        with_it, without = Rate(0, 0), Rate(0, 0)
        for result in results:
            holders = result.held.get(card, [])
            for seat in range(players):
                rate = with_it if seat in holders else without
                rate.wins += result.share[seat]
                rate.n += 1
        stats = summary.earned.get(card)
        mean_points = stats.points / stats.games if stats and stats.games else 0.0
        apart = (
            players > 1
            and with_it.n
            and without.n
            and (with_it.interval[0] > without.interval[1] or with_it.interval[1] < without.interval[0])
        )
        numbers[card] = {
            "games": counts[card],
            "mean_points": mean_points,
            "wins_with": with_it.value,
            "wins_without": without.value,
            "outlier": bool(apart),
        }
        rows.append(
            f"| {inline(name(card))} | {counts[card] / len(results):.0%} | {mean_points:.2f} | "
            + (f"{with_it} | {without} | {'**outlier**' if apart else ''} |" if players > 1 else "— | — | |")
        )
    report.lines += [
        "## Cards",
        "",
        "Is this card too strong? For each card: the share of games in which a player had it in "
        "play at the end (face up in their own places), the points it earned when it earned any, "
        "and the win rate of the players who had it against those who did not; an **outlier** "
        "is a card whose two intervals do not overlap.",
        "",
        "| card | in play | mean points | win rate with | win rate without | |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
    ]
    report.figures["cards"] = numbers
    awarding = sorted(summary.awarded.items(), key=lambda item: (-item[1].points / item[1].games, item[0]))
    if awarding:
        report.lines += [
            "Cards that award points for other cards (the `by` of a score that names another card, "
            "as a creature scores the cards voting on it): in how many games they awarded any, and "
            "how many points on average then.",
            "",
            "| card | games | mean points awarded |",
            "|---|---|---|",
            *(
                f"| {inline(name(card))} | {stats.games} | {stats.points / stats.games:.2f} |"
                for card, stats in awarding
            ),
            "",
        ]
        report.figures["awarded"] = {
            card: {"games": stats.games, "mean_points": stats.points / stats.games}
            for card, stats in awarding
        }


def _histograms(axes, series: list, labels: list, what: str):
    low, high = min(min(s) for s in series), max(max(s) for s in series)
    bins = range(int(low), int(high) + 2, max(1, (int(high) - int(low)) // 30 + 1))
    for values, label in zip(series, labels):
        axes.hist(values, bins=bins, alpha=0.5, label=label)
    axes.set_xlabel(what)
    axes.set_ylabel("games")
    if len(series) > 1:
        axes.legend()


def _bars(axes, rows: list, what: str):
    """One bar per (label, value, half-width of its interval), top to bottom."""
    labels = [label for label, _, _ in rows]
    axes.barh(
        range(len(rows)), [value for _, value, _ in rows], xerr=[half for _, _, half in rows], color="#4c72b0"
    )
    axes.set_yticks(range(len(rows)), labels)
    axes.invert_yaxis()
    axes.set_xlabel(what)


def _heatmap(axes, agents: list, rates: dict):
    grid = [[rates[a, b].value if a != b else 0.5 for b in agents] for a in agents]
    axes.imshow(grid, vmin=0, vmax=1, cmap="RdBu")
    axes.set_xticks(range(len(agents)), agents)
    axes.set_yticks(range(len(agents)), agents)
    axes.set_xlabel("against (the other seats)")
    axes.set_ylabel("agent (in one seat)")
    axes.set_title("the row agent's win rate")
    for i, row in enumerate(grid):
        for j, value in enumerate(row):
            axes.text(j, i, "—" if i == j else f"{value:.0%}", ha="center", va="center")


def make_folder(folder: Path):
    """Make the report's folder before any game is played: a path that cannot be one (a file,
    or under a file) is misuse at once, not after the games."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"-o {folder} is a file: give a folder for the report")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"cannot write the report to {folder}: {error.strerror}") from None


def write(report: Report, folder: Path) -> list[Path]:
    """The report's files in `folder`: index.md, figures.json and the plots (PNG)."""
    import matplotlib

    matplotlib.use("Agg")  # no display: files only
    from matplotlib import pyplot

    folder.mkdir(parents=True, exist_ok=True)
    written = [folder / "index.md", folder / "figures.json"]
    written[0].write_text("\n".join(report.lines).rstrip() + "\n", encoding="utf-8")
    written[1].write_text(json.dumps(report.figures, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    for name, draw in report.plots.items():
        figure, axes = pyplot.subplots(figsize=(6, 3.5), dpi=100)
        draw(axes)
        figure.tight_layout()
        figure.savefig(
            folder / name, metadata={"Software": None}
        )  # no version stamp: the same bytes each run
        pyplot.close(figure)
        written.append(folder / name)
    return written
