"""Ladders of conditions that macros declare rung by rung, computed here so that templates only lay
them out: the exact count of units across territories (unit_count_penalty), and the levels of a
counter raised one at a time (counter_ladder)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

# (j, v): "at least j territories hold at least v counted units each", one condition of the ladder
Check = tuple[int, int]


@dataclass(frozen=True)
class CountLadder:
    """checks: every (j, v) condition some way needs, each once, in the order first needed.
    totals: for each total k from 1 up, the ways of reaching it, each a list of checks that all hold."""

    checks: list[Check]
    totals: list[tuple[int, list[list[Check]]]]


def partitions(n: int, largest: int) -> list[list[int]]:
    """The partitions of n into parts of at most largest, each falling, the larger parts first."""
    if n == 0:
        return [[]]
    return [[part, *rest] for part in range(min(n, largest), 0, -1) for rest in partitions(n - part, part)]


def count_ladder(max_units: int, places: int) -> CountLadder:
    """The conditions that count units exactly across `places` territories, up to max_units: k units are
    there when, for some partition of k, as many territories as the parts of at least v hold v units each
    (3 = 2 + 1: one territory with 2 and two with 1). Partitions of more parts than territories are left out."""
    checks: list[Check] = []
    totals = []
    for k in range(1, max_units + 1):
        ways = []
        for parts in partitions(k, k):
            way = [(sum(1 for p in parts if p >= v), v) for v in dict.fromkeys(parts)]
            if max(j for j, _ in way) <= places:
                ways.append(way)
                checks += [check for check in way if check not in checks]
        totals.append((k, ways))
    return CountLadder(checks, totals)


def condition_type(j: int, places: int) -> str:
    """The conditionType that holds when j of places conditions hold: OR for one, AND for all, j-places else."""
    return "OR" if j == 1 else "AND" if j == places else f"{j}-{places}"


class Level(NamedTuple):
    """A level of a counter above its start: the level below it (None: the start is below it) and how much
    reaching it adds to the counter."""

    level: int
    below: int | None
    rise: int


def counter_levels(levels: list[int], start: int) -> list[Level]:
    """The levels above start, each with the level that must be reached before it; an error unless the
    levels rise."""
    if not levels:
        raise LookupError("give at least one level")
    if sorted(set(levels)) != levels:
        raise LookupError("levels must rise: " + ", ".join(str(level) for level in levels))
    above = []
    for level in levels:
        if level > start:
            below = max((other for other in levels if other < level), default=None)
            above.append(Level(level, below, level - (start if below is None else max(below, start))))
    return above


class RoundAmount(NamedTuple):
    """An amount granted in one round (round None: in every round, the only amount); suffix ends the names
    of its condition and trigger."""

    amount: int
    round: int | None
    suffix: str


def round_amounts(amounts: list[int], first_round: int) -> list[RoundAmount]:
    """One amount: granted every time; several: one per round from first_round on, each with its round."""
    if len(amounts) == 1:
        return [RoundAmount(amounts[0], None, "")]
    return [RoundAmount(amount, first_round + i, f"_R{first_round + i}") for i, amount in enumerate(amounts)]
