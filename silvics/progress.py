"""A one-line progress bar on standard error, drawn only when it is a terminal (never into
a log or a pipe): what it counts (a label, if given), done/total, a bar, games a second and
the time left."""

from __future__ import annotations

import sys
import time

WIDTH = 24


class ProgressBar:
    def __init__(self, total: int, unit: str = "games", stream=None, label: str = ""):
        self.total, self.unit, self.stream = total, unit, stream or sys.stderr
        self.label = f"{label}: " if label else ""
        self.shown = self.stream.isatty()
        self.started = self.drawn = time.perf_counter()

    def __call__(self, done: int):
        now = time.perf_counter()
        if self.shown and (now - self.drawn >= 0.1 or done == self.total):  # redraw at most 10 times a second
            self.drawn = now
            rate = done / max(now - self.started, 1e-9)
            left = (self.total - done) / rate if rate else 0
            filled = WIDTH * done // self.total
            self.stream.write(
                f"\r{self.label}{done}/{self.total} {self.unit} [{'#' * filled}{'.' * (WIDTH - filled)}] "
                f"{rate:.0f} {self.unit}/s, {left:.0f} s left\033[K"
            )
            self.stream.flush()

    def close(self):
        """Erase the bar, so the report that follows starts on a clean line."""
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
