"""The real TripleA 1.9 engine in the loop: load checks and headless AI games.

The Java side (Harness.java and friends) is compiled on first use into the user's
cache folder; see harness.py. The names below are loaded on first use so that the
command line, which imports generator.cli.engine, starts without them."""
from __future__ import annotations

__all__ = ["CheckResult", "PlayReport", "check_games", "engine_available", "engine_check_files", "play_game"]


def __getattr__(name: str):
    if name in __all__:
        from generator.engine import harness

        return getattr(harness, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
