"""A new player made from a template player (new_power): names and lists its template needs."""
from __future__ import annotations


def default_step_prefix(player: str) -> str:
    """The start of the new player's step names when the rule gives none: its name with a small first
    letter (Canada: canadaPurchase, the engine's own style)."""
    return player[:1].lower() + player[1:]


def capital_first(capital: str, territories: list[str]) -> list[str]:
    """The new player's territories, its capital first."""
    return [capital] + [t for t in territories if t != capital]
