"""Pausing Python's cyclic garbage collector while a large input is turned into objects.

Parsing a spec or a game creates hundreds of thousands of objects that all live on; the
collector, triggered by every few hundred new objects, walks the growing heap again and
again, which on Global 1940 costs more than the parse itself. Nothing a parse builds needs
the collector (no cycles become garbage in between), and collecting resumes afterwards."""
from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def collector_paused():
    """Within: no cyclic collection. Nested and re-entrant uses keep the outer state."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
