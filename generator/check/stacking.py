"""Stacking caps of a playerAttachment (movementLimit, attackingLimit, placementLimit) that the
current engine never applies. Each cap is "max:scope:unit types". 1.9 counts the listed types
already in the territory against every unit the player moves, attacks with or places there
(PlayerAttachment.getCanTheseUnitsMoveWithoutViolatingStackingLimit), so a cap of 0 on another
player's types keeps the two apart. TripleA 2.x applies a cap only to units of its own listed types
(UnitStackingLimitFilter: a unit whose type the cap does not list skips it), so a cap listing only
types the player never has does nothing there. Found by `test --engine current` (issue 26)."""
from __future__ import annotations

LIMIT_OPTIONS = ("movementLimit", "attackingLimit", "placementLimit")


def unit_types_of_players(root) -> dict[str, set[str]]:
    """The unit types each player can have: what its production frontier sells and the units it
    starts with (placed or held). Units a trigger creates are not counted."""
    rules: dict[str, set[str]] = {}
    for rule in root.iterfind("production/productionRule"):
        rules[rule.get("name", "")] = {result.get("resourceOrUnit", "") for result in rule.iterfind("result")}
    frontiers: dict[str, set[str]] = {}
    for frontier in root.iterfind("production/productionFrontier"):
        frontiers[frontier.get("name", "")] = set().union(
            *(rules.get(entry.get("name", ""), set()) for entry in frontier.iterfind("frontierRules")))
    types: dict[str, set[str]] = {}
    for production in root.iterfind("production/playerProduction"):
        types.setdefault(production.get("player", ""), set()).update(frontiers.get(production.get("frontier", ""), ()))
    for placement in root.iterfind("initialize/unitInitialize/unitPlacement"):
        types.setdefault(placement.get("owner", ""), set()).add(placement.get("unitType", ""))
    for held in root.iterfind("initialize/unitInitialize/heldUnits"):
        types.setdefault(held.get("player", ""), set()).add(held.get("unitType", ""))
    return types


def caps_without_effect(root):
    """(option element, player, option name, listed types) for each cap 2.x does not apply."""
    owned = None
    for attachment in root.iterfind("attachmentList/attachment"):
        player = attachment.get("attachTo", "")
        # A variable (@Players@, $Units$) or foreach attachment stands for many: not judged here.
        if attachment.get("name") != "playerAttachment" or attachment.get("foreach") or _variable(player):
            continue
        for option in attachment.iterfind("option"):
            if option.get("name") not in LIMIT_OPTIONS:
                continue
            listed = [name for name in option.get("value", "").split(":")[1:] if name]
            if any(map(_variable, listed)):
                continue
            if owned is None:
                owned = unit_types_of_players(root)
            if listed and not set(listed) & owned.get(player, set()):
                yield option, player, option.get("name"), listed


def _variable(name: str) -> bool:
    return "@" in name or "$" in name
