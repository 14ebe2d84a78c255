"""Counts a rule gives as text, checked against what they count."""
from __future__ import annotations


def needed_count(count: str, places: list[str]) -> int:
    """How many of places must be held: all of them, or count (a number from 1 to how many there are)."""
    if count == "all":
        return len(places)
    if not (isinstance(count, str) and count.isdecimal() and 1 <= int(count) <= len(places)):
        raise LookupError(f"count must be all or a number from 1 to {len(places)}, not {count}")
    return int(count)


def checked_chance(chance: str) -> str:
    """A trigger's chance, x:y (x in y on a die of y sides), with 1 <= x <= y."""
    odds = chance.split(":")
    if len(odds) != 2 or not all(part.isdecimal() for part in odds) or not 1 <= int(odds[0]) <= int(odds[1]):
        raise LookupError(f"chance must be x:y with 1 <= x <= y, e.g. 2:6, not '{chance}'")
    return chance


def checked_combine(combine: str) -> str:
    """How the parts of a condition join (its conditionType): AND, OR, or a count such as 2, 2-3 or 2-+."""
    if combine not in ("AND", "OR") and not combine.replace("-", "").replace("+", "").isdigit():
        raise LookupError(f"combine must be AND, OR or a range such as 2-3, not '{combine}'")
    return combine
