"""User actions (user_action): who must accept one, and the per-turn slots limiting how often the
actions of one rule may be taken."""
from __future__ import annotations


def partners(accept: list[str]) -> list[str]:
    """The players who must accept the action (an empty name, as a loop may give, is nobody)."""
    return [player for player in accept if player != ""]


def slot_gate(shared: str, slot: int, per_turn: int) -> list[str]:
    """The conditions of the action taking the slot: the slot still open (with a per-turn limit), and the
    one before it used already (the slots are taken in order)."""
    return ([f"{shared}_Slot_{slot}"] if per_turn else []) + ([f"{shared}_Slot_{slot - 1}_Used"] if slot > 1 else [])
