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

from silvics.interpreter.simulate import simulate

Z = 1.96          # the normal quantile of a 95% interval


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
    plots: dict = field(default_factory=dict)        # file name -> a function drawing it on a matplotlib Axes


def balance(ir, players: int, games: int, seed: int, agents: list[str], modules=(), options=None,
            workers: int = 1, progress=None, runner=None) -> Report:
    """The report of `games` games per study: the seats (the first agent in every seat), and,
    with several agents, each against each (its seat turning game by game). `runner` plays
    them elsewhere (simulate's)."""
    setup = dict(modules=tuple(modules), options=options, workers=workers, keep=True, runner=runner)
    report = Report(f"Balance of {ir.name}")
    seats = simulate(ir, players, games, seed, (agents[0],), progress=progress, **setup)
    report.lines += [f"# {report.title}", "",
                     f"{games} games of {players} player{'s' * (players > 1)}, seeds {seed}–{seed + games - 1}"
                     + (f", modules {', '.join(modules)}" if modules else "")
                     + (f", options {', '.join(f'{k}={v}' for k, v in (options or {}).items())}" if options else "")
                     + f"; agents {', '.join(agents)}. Every figure follows from these: "
                     f"`silvics balance {ir.id} --players {players} --games {games} --seed {seed} "
                     f"--agents {','.join(agents)}{_setup_options(modules, options)}` gives this report again. "
                     "Intervals are 95%.", ""]
    _seats(report, seats, agents[0])
    if len(agents) > 1 and players > 1:
        _matrix(report, ir, players, games, seed, agents, setup)
    _cards(report, seats)
    return report


def _setup_options(modules, options) -> str:
    return "".join(f" --module {m}" for m in modules) + "".join(f" --set {k}={v}" for k, v in (options or {}).items())


def _seats(report: Report, summary, agent: str):
    players, results = summary.players, summary.results
    rows, numbers = [], []
    for seat in range(players):
        scores = [result.scores[seat] for result in results]
        mean, half = mean_interval(scores)
        if players > 1:
            won = Rate(sum(result.share[seat] for result in results), len(results))
            rows.append(f"| P{seat + 1} | {mean:.2f} ± {half:.2f} | {won} |")
            numbers.append({"seat": seat + 1, "mean": mean, "interval": half, "wins": won.value,
                            "win_interval": won.interval})
        else:                   # alone: won by the rules' own criterion (solo: won:), if they give one
            won = Rate(sum(result.share[seat] for result in results), len(results))
            rows.append(f"| P{seat + 1} | {mean:.2f} ± {half:.2f} | {won} |")
            numbers.append({"seat": seat + 1, "mean": mean, "interval": half, "wins": won.value,
                            "win_interval": won.interval})
    tally = _tally([result.result for result in results if result.result])
    if tally:
        rows += ["", "| result | games |", "|---|---|", *(f"| {name} | {share} |" for name, share in tally.items())]
        report.figures["results"] = {name: rate.value for name, rate in tally.items()}
    lengths = [result.length for result in results]
    report.lines += [f"## Seats ({agent} in every seat)", "",
                     "Does the first player win too often? Each seat's mean score and share of the wins "
                     "(ties share a win)." if players > 1 else
                     "Played alone: the score, and the share of games won by the game's own criterion "
                     "(its `solo: won:` condition; a game that gives none is always won).", "",
                     "| seat | mean score | win rate |", "|---|---|---|", *rows, "",
                     "![scores by seat](scores.png)", "",
                     f"Game length: {sum(lengths) / len(lengths):.1f} decisions on average "
                     f"(min {min(lengths)}, max {max(lengths)}).", "", "![game length](lengths.png)", ""]
    report.figures["seats"] = numbers
    report.figures["lengths"] = lengths
    report.plots["scores.png"] = lambda axes: _histograms(axes, [[r.scores[s] for r in results] for s in range(players)],
                                                          [f"P{s + 1}" for s in range(players)], "score")
    report.plots["lengths.png"] = lambda axes: _histograms(axes, [lengths], ["games"], "decisions")


def _tally(results: list[str]) -> dict:
    """How often each result (a tier) came, with its interval, in order of first appearance."""
    return {name: Rate(results.count(name), len(results)) for name in dict.fromkeys(results)}


def _matrix(report: Report, ir, players: int, games: int, seed: int, agents: list[str], setup: dict):
    """Each agent against each other: the row agent in one seat (seat k for the games of seed
    ≡ k), the column agent in the others."""
    rates = {}
    for mine in agents:
        for theirs in agents:
            if mine == theirs:
                continue
            won = 0.0
            for seat in range(players):
                count = len(range(seat, games, players))
                if not count:
                    continue
                names = [theirs] * players
                names[seat] = mine
                summary = simulate(ir, players, count, seed + seat * games, tuple(names), **setup)
                won += summary.wins[seat]
            rates[mine, theirs] = Rate(won, games)
    header = "| against → | " + " | ".join(agents) + " |"
    rows = ["| " + mine + " | " + " | ".join("—" if mine == theirs else str(rates[mine, theirs]) for theirs in agents)
            + " |" for mine in agents]
    report.lines += ["## Agent against agent", "",
                     f"How much does skill matter? The row agent's win rate in one seat (turning seat by seat "
                     f"over {games} games), the column agent in the other{'s' * (players > 2)}.", "",
                     header, "|---|" + "---|" * len(agents), *rows, "", "![win rates](matrix.png)", ""]
    report.figures["matrix"] = {f"{mine} vs {theirs}": {"wins": rate.value, "interval": rate.interval, "games": rate.n}
                                for (mine, theirs), rate in rates.items()}
    report.plots["matrix.png"] = lambda axes: _heatmap(axes, agents, rates)


def _cards(report: Report, summary):
    """Per card: how often a player had it in play at the end, the points it earned, and the
    win rate of the players who had it against those who did not; outliers flagged."""
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
        apart = players > 1 and with_it.n and without.n and \
            (with_it.interval[0] > without.interval[1] or with_it.interval[1] < without.interval[0])
        numbers[card] = {"games": counts[card], "mean_points": mean_points, "wins_with": with_it.value,
                         "wins_without": without.value, "outlier": bool(apart)}
        rows.append(f"| {card} | {counts[card] / len(results):.0%} | {mean_points:.2f} | "
                    + (f"{with_it} | {without} | {'**outlier**' if apart else ''} |" if players > 1 else "— | — | |"))
    report.lines += ["## Cards", "",
                     "Is this card too strong? For each card: the share of games in which a player had it in "
                     "play at the end (face up in their own places), the points it earned when it earned any, "
                     "and the win rate of the players who had it against those who did not; an **outlier** "
                     "is a card whose two intervals do not overlap.", "",
                     "| card | in play | mean points | win rate with | win rate without | |",
                     "|---|---|---|---|---|---|", *rows, ""]
    report.figures["cards"] = numbers
    awarding = sorted(summary.awarded.items(), key=lambda item: (-item[1].points / item[1].games, item[0]))
    if awarding:
        report.lines += ["Cards that award points to players (the `by` of a score: a goal, a creature, a "
                         "visitor): in how many games they awarded any, and how many points on average then.", "",
                         "| card | games | mean points awarded |", "|---|---|---|",
                         *(f"| {card} | {stats.games} | {stats.points / stats.games:.2f} |" for card, stats in awarding),
                         ""]
        report.figures["awarded"] = {card: {"games": stats.games, "mean_points": stats.points / stats.games}
                                     for card, stats in awarding}


def _histograms(axes, series: list, labels: list, what: str):
    low, high = min(min(s) for s in series), max(max(s) for s in series)
    bins = range(int(low), int(high) + 2, max(1, (int(high) - int(low)) // 30 + 1))
    for values, label in zip(series, labels):
        axes.hist(values, bins=bins, alpha=0.5, label=label)
    axes.set_xlabel(what)
    axes.set_ylabel("games")
    if len(series) > 1:
        axes.legend()


def _heatmap(axes, agents: list, rates: dict):
    grid = [[rates[a, b].value if a != b else 0.5 for b in agents] for a in agents]
    axes.imshow(grid, vmin=0, vmax=1, cmap="RdBu")
    axes.set_xticks(range(len(agents)), agents)
    axes.set_yticks(range(len(agents)), agents)
    for i, row in enumerate(grid):
        for j, value in enumerate(row):
            axes.text(j, i, "—" if i == j else f"{value:.0%}", ha="center", va="center")


def write(report: Report, folder: Path) -> list[Path]:
    """The report's files in `folder`: index.md, figures.json and the plots (PNG)."""
    import matplotlib
    matplotlib.use("Agg")                      # no display: files only
    from matplotlib import pyplot
    folder.mkdir(parents=True, exist_ok=True)
    written = [folder / "index.md", folder / "figures.json"]
    written[0].write_text("\n".join(report.lines).rstrip() + "\n", encoding="utf-8")
    written[1].write_text(json.dumps(report.figures, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    for name, draw in report.plots.items():
        figure, axes = pyplot.subplots(figsize=(6, 3.5), dpi=100)
        draw(axes)
        figure.tight_layout()
        figure.savefig(folder / name, metadata={"Software": None})      # no version stamp: the same bytes each run
        pyplot.close(figure)
        written.append(folder / name)
    return written
