"""Which player can own which unit type during a game: the pairs a client must have an image for.

A player owns a unit type when it starts with it, can buy it (any frontier it has or a trigger
gives it), a trigger places or gives it, a unit of another type becomes or creates it, a
territory gives it, or it captures it (infrastructure, factories, canBeCapturedOnEnteringBy)."""
from __future__ import annotations

from collections import defaultdict

from .. import model as m

NEUTRAL = "Neutral"  # the engine's owner of unowned units: its images are units/Neutral/
_CAPTURED = ("isInfrastructure", "isFactory")


def _options(attachment: m.Attachment) -> list[tuple[str, str]]:
    return [(o.name, o.value or "") for o in attachment.options]


def _trigger_players(attachment: m.Attachment) -> list[str]:
    named = [v for k, v in _options(attachment) if k == "players"]
    return [p for value in named for p in value.split(":") if p] or [attachment.attach_to]


def unit_owners(game: m.Game) -> dict[str, set[str]]:
    """player -> the unit types it can own (NEUTRAL included when the game places unowned units)."""
    players = [p.name for p in game.players]
    units = {u.name for u in game.units or []}
    production = game.production or m.Production()
    rule_units = {r.name: {a.item for a in r.results if a.item in units} for r in production.rules}
    frontier_units = {f.name: set().union(*(rule_units.get(r, set()) for r in f.rules)) for f in production.frontiers}
    owns: dict[str, set[str]] = defaultdict(set)
    for assignment in production.player_production:
        owns[assignment.player] |= frontier_units.get(assignment.frontier, set())
    init = game.initialize or m.Initialize()
    for placement in init.units or []:
        owns[placement.owner or NEUTRAL].add(placement.unit_type)
    for held in init.held_units:
        owns[held.player].add(held.unit_type)
    changes: list[tuple[str, str]] = []  # (from type, to type): the same owner keeps the new unit
    capture_any: set[str] = set()
    for attachment in game.attachments or []:
        options = _options(attachment)
        if attachment.name.startswith("triggerAttachment"):
            for player in _trigger_players(attachment):
                for key, value in options:
                    if key == "frontier":
                        owns[player] |= frontier_units.get(value, set())
                    elif key == "placement":
                        owns[player] |= {u for u in value.split(":")[1:] if u in units}
                    elif key == "purchase":
                        owns[player] |= {u for u in value.split(":") if u in units}
        elif attachment.name == "unitAttachment":
            for key, value in options:
                parts = value.split(":")
                if key == "canBeGivenByTerritoryTo" or key == "canBeCapturedOnEnteringBy":
                    for player in parts:
                        owns[player].add(attachment.attach_to)
                elif key in _CAPTURED and value == "true":
                    capture_any.add(attachment.attach_to)
                elif key == "createsUnitsList" and len(parts) >= 2:
                    changes.append((attachment.attach_to, parts[1]))
                elif key == "whenHitPointsDamagedChangesInto" and len(parts) >= 3:
                    changes.append((attachment.attach_to, parts[2]))
                elif key == "whenCapturedChangesInto" and len(parts) >= 4:
                    to_player = parts[1]
                    for player in (players if to_player == "any" else [to_player]):
                        owns[player].add(parts[3])
    for player in players:
        owns[player] |= capture_any
    for _ in range(len(changes) + 1):  # to a fixed point: a change may lead to another
        grown = False
        for source, target in changes:
            for player, types in owns.items():
                if source in types and target in units and target not in types:
                    types.add(target)
                    grown = True
        if not grown:
            break
    known = set(players) | {NEUTRAL}
    return {player: types & units for player, types in owns.items() if player in known and types & units}
