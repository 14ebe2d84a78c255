"""Counts a rule gives as text, checked against what they count."""
from __future__ import annotations


def needed_count(count: str, places: list[str]) -> int:
    """How many of places must be held: all of them, or count (a number from 1 to how many there are)."""
    if count == "all":
        return len(places)
    if not (isinstance(count, str) and count.isdigit() and 1 <= int(count) <= len(places)):
        raise LookupError(f"count must be all or a number from 1 to {len(places)}, not {count}")
    return int(count)
