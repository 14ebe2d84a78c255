"""Zones that confine unit types (confined_units): what each zone keeps out."""
from __future__ import annotations


def allowed_zones(allowed: str | list[str]) -> list[str]:
    """The zones a confined unit type may enter (one zone may be given alone)."""
    return [allowed] if isinstance(allowed, str) else list(allowed)


def barred_units(zones: dict[str, list[str]], confine: dict[str, str | list[str]]) -> list[tuple[str, list[str]]]:
    """(zone, the unit types it keeps out: those confined to other zones) of each zone keeping any out, in
    the order of zones."""
    barred = [(zone, [unit for unit, allowed in confine.items() if zone not in allowed_zones(allowed)])
              for zone in zones]
    return [(zone, units) for zone, units in barred if units]


def placement_places(unit: str, territories: list[str], extra_units: list[str],
                     extra_territories: list[str]) -> list[str]:
    """Where a unit type may be placed (placement_area): the territories, and for the extra units the
    extra territories too, each once."""
    return list(dict.fromkeys(territories + (extra_territories if unit in extra_units else [])))
