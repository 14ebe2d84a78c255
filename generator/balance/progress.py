"""The progress of a balance run: games done, games per minute and time left, as a bar redrawn in
place on a terminal and as plain lines elsewhere (CI logs, pipes)."""
from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, total: int, stream=None, width: int = 30):
        self.total = total
        self.stream = stream or sys.stderr
        self.width = width
        self.done = 0
        self.started = time.monotonic()
        self.terminal = hasattr(self.stream, "isatty") and self.stream.isatty()

    def line(self, done: int, elapsed: float, note: str = "") -> str:
        rate = done / elapsed * 60 if elapsed > 0 and done else 0.0
        left = (self.total - done) / rate if rate else None
        eta = "?" if left is None else (f"{left:.0f} min" if left >= 1 else f"{left * 60:.0f} s")
        text = f"{done}/{self.total} games, {rate:.1f} games/min, {eta} left"
        return f"{text}  {note}" if note else text

    def advance(self, note: str = "") -> None:
        self.done += 1
        text = self.line(self.done, time.monotonic() - self.started, note)
        if self.terminal:
            filled = self.width * self.done // max(1, self.total)
            self.stream.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] {text}\033[K")
            if self.done >= self.total:
                self.stream.write("\n")
        else:
            self.stream.write(f"balance: {text}\n")
        self.stream.flush()
