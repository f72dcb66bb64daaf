"""Issue 29's figure: 1,000 paired Four Forests games (a version against another, the same seeds)
on 2 workers, against the baseline of 1,000 games of one version in the same process. The target:
at most 10 s. Run: python benchmarks/balance_diff.py"""
import time

from silvics import diff, games
from silvics.interpreter.simulate import simulate

GAMES, WORKERS = 1000, 2


def main():
    new = games.load("four-forests")
    old = games.load("four-forests", use_cache=False)          # another IR object: played apart

    def play(version, modules, options):
        return simulate(version, 2, GAMES, 1, ("random",), modules, WORKERS, options=options, keep=True)

    started = time.perf_counter()
    play(new, (), {})
    one = time.perf_counter() - started
    started = time.perf_counter()
    diff.report(old, new, "itself", 2, GAMES, 1, ("random", "random"), play, [("as set up", (), {})])
    paired = time.perf_counter() - started
    print(f"{GAMES} games of one version: {one:.2f} s; {GAMES} paired games and their report: {paired:.2f} s "
          f"({paired / one:.2f}x the baseline; target at most 10 s: {'met' if paired <= 10 else 'MISSED'})")


if __name__ == "__main__":
    main()
