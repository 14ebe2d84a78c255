"""Renaming a player, territory or unit type everywhere in a game model.

A name is referred to by attributes (an owner, a step's player, a connection's
ends, an attachment's attachTo) and inside option values, which are
':'-separated lists (`Germans:Russians:anyWar`, `2:infantry`); every field that
equals the old name is replaced. Attachment names are identifiers of their own
and stay as they are."""
from __future__ import annotations

from typing import Optional, TypeVar

from generator.model import game as m

KINDS = ("players", "territories", "units")
# a name that is there (str) stays one; one that may be absent (None) may stay absent
_Text = TypeVar("_Text", str, Optional[str])
_ATTACHED_TYPE = {"players": "player", "territories": "territory", "units": "unitType"}


def existing_names(game: m.Game, kind: str) -> list[str]:
    if kind == "players":
        return [p.name for p in game.players]
    if kind == "territories":
        return [t.name for t in game.territories]
    return [u.name for u in game.units or []]


def _fields(text: str | None, old: str, new: str) -> str | None:
    if text is None or old not in text:
        return text
    return ":".join(new if part == old else part for part in text.split(":"))


def rename(game: m.Game, kind: str, old: str, new: str) -> None:
    """Every reference to old (a player, territory or unit type, by kind) becomes new."""

    def swap(value: _Text) -> _Text:
        return new if value == old else value

    if kind == "players":
        for player in game.players:
            player.name = swap(player.name)
        for alliance in game.alliances:
            alliance.player = swap(alliance.player)
        for step in game.steps or []:
            step.player = swap(step.player)
        for resource in game.resources or []:
            resource.is_displayed_for = _fields(resource.is_displayed_for, old, new)
        if game.production is not None:
            for frontier in game.production.player_production + game.production.player_repair:
                frontier.player = swap(frontier.player)
        if game.technology is not None:
            for tech in game.technology.player_techs:
                tech.player = swap(tech.player)
        for prop in game.properties or []:
            prop.player = swap(prop.player)
            if prop.name.startswith(old + " "):  # per-player properties such as "Germans bid"
                prop.name = new + prop.name[len(old):]
    elif kind == "territories":
        for territory in game.territories:
            territory.name = swap(territory.name)
        for connection in game.connections + game.remove_connections:
            connection.t1, connection.t2 = swap(connection.t1), swap(connection.t2)
    else:
        for unit in game.units or []:
            unit.name = swap(unit.name)
        if game.production is not None:
            for rule in game.production.rules + game.production.repair_rules:
                for amount in rule.costs + rule.results:
                    amount.item = swap(amount.item)
    for step in game.steps or []:
        for step_property in step.properties:
            step_property.value = _fields(step_property.value, old, new)
    for attachment in game.attachments or []:
        if (attachment.type or "unitType") == _ATTACHED_TYPE[kind]:
            attachment.attach_to = swap(attachment.attach_to)
        for option in attachment.options:
            option.value = _fields(option.value, old, new)
            option.count = _fields(option.count, old, new)
    _rename_initial_state(game.initialize, kind, swap)


def _rename_initial_state(init: m.Initialize | None, kind: str, swap) -> None:
    if init is None:
        return
    if kind == "players":
        for owner in init.owners or []:
            owner.owner = swap(owner.owner)
        for placement in init.units or []:
            placement.owner = swap(placement.owner)
        for held in init.held_units:
            held.player = swap(held.player)
        for given in init.resources or []:
            given.player = swap(given.player)
        for rel in init.relationships or []:
            rel.player1, rel.player2 = swap(rel.player1), swap(rel.player2)
    elif kind == "territories":
        for owner in init.owners or []:
            owner.territory = swap(owner.territory)
        for placement in init.units or []:
            placement.territory = swap(placement.territory)
    else:
        for placement in init.units or []:
            placement.unit_type = swap(placement.unit_type)
        for held in init.held_units:
            held.unit_type = swap(held.unit_type)
