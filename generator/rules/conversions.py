"""Units that change owner or type rung by rung (unit_conversion, ownership_transfer): which types
convert into which, and the rungs of one type in one territory. A rung converts a fixed number of
units while at least so many stand there; the engine tests every rung's condition once before any
of them fires, so the rungs of one step together convert them all."""
from __future__ import annotations

from typing import NamedTuple


def conversion_pairs(units: list[str], types: dict[str, str]) -> list[tuple[str, str]]:
    """(old type, new type): the units that keep their type, then those that become another."""
    return [(unit, unit) for unit in units] + list(types.items())


class Rung(NamedTuple):
    """Converts `amount` units while at least `present` stand there, at `steps`, when `gate` (condition
    names) holds too; `suffix` ends its name."""

    present: int
    amount: int
    suffix: str
    gate: list[str]
    steps: list[str]


def conversion_rungs(limit: int, block: int, gate: list[str], when: list[str], rest_gate: list[str],
                     rest_when: list[str]) -> list[Rung]:
    """The rungs converting up to limit units block at a time at when (block, 2 x block, ...), then, with
    a block above 1, those fewer than a block left one at a time at rest_when while rest_gate holds."""
    rungs = [Rung(present, block, str(present), gate, when) for present in range(block, limit + 1, block)]
    if block > 1:
        rungs += [Rung(present, 1, f"Rest_{present}", rest_gate, rest_when)
                  for present in range(1, min(block - 1, limit) + 1)]
    return rungs
