"""Progress on a terminal for the operations that can take a while (importing a large game,
drawing map tiles, packaging). Silent when standard error is not a terminal, and for
anything that finishes before it is worth showing."""
from __future__ import annotations

import sys
import time

SHOW_AFTER_SECONDS = 0.3


class Progress:
    def __init__(self, label: str, total: int, stream=None):
        self.label = label
        self.total = max(total, 1)
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        self.started = time.monotonic()
        self.shown = False
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())

    def advance(self, steps: int = 1) -> None:
        self.done += steps
        if self.enabled and time.monotonic() - self.started >= SHOW_AFTER_SECONDS:
            percent = min(100, self.done * 100 // self.total)
            self.stream.write(f"\r{self.label}: {percent:3d}% ({self.done}/{self.total})")
            self.stream.flush()
            self.shown = True

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        if self.shown:
            self.stream.write("\r" + " " * (len(self.label) + 24) + "\r")
            self.stream.flush()


def progress(label: str, total: int, stream=None) -> Progress:
    return Progress(label, total, stream)
