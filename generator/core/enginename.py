"""The two TripleA engines triplea-gen builds and checks for, declared once.

An `EngineName` is a `str` (StrEnum): it compares equal to the words users type ("1.9", "current")
and prints as them, so command lines, messages and outputs stay as they were. Not called `Engine`:
generator/engine/engines.py's `Engine` is an installed engine (a jar and a Java to run it)."""
from __future__ import annotations

from enum import StrEnum


class EngineName(StrEnum):
    V1_9 = "1.9"  # Debian's TripleA 1.9 (the default of the engine and test commands)
    CURRENT = "current"  # TripleA 2.x

    @property
    def other(self) -> EngineName:
        return EngineName.CURRENT if self is EngineName.V1_9 else EngineName.V1_9


# The names as plain strings, in this order: argparse choices, spec enums, messages.
ENGINE_NAMES: tuple[str, ...] = tuple(name.value for name in EngineName)
