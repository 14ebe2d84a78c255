"""What a game's unit types are, read from their unitAttachments: the picture kind each is drawn
as and its combat factors. Pure queries of the model, so that a mod's build can ask them
without loading the map drawing code (Pillow, shapely)."""
from __future__ import annotations

from generator.model import game as m

BUILDING_OPTIONS = ("isFactory", "isInfrastructure", "canProduceUnits", "isConstruction")


def unit_options(game: m.Game) -> dict[str, dict[str, str | None]]:
    """Each unit type's unitAttachment options (the last value of an option wins; None: an option
    without a value, which hides an earlier one)."""
    options: dict[str, dict[str, str | None]] = {unit.name: {} for unit in game.units or []}
    for attachment in game.attachments or []:
        if attachment.name == "unitAttachment" and attachment.attach_to in options:
            options[attachment.attach_to].update({o.name: o.value for o in attachment.options})
    return options


def unit_kinds(game: m.Game) -> dict[str, tuple[str, bool]]:
    """Each unit type's picture kind (land, sea, air, building) and whether it can be damaged."""
    kinds = {}
    for unit_name, options in unit_options(game).items():
        if options.get("isSea") == "true":
            kind = "sea"
        elif options.get("isAir") == "true":
            kind = "air"
        elif any(options.get(name) == "true" for name in BUILDING_OPTIONS):
            kind = "building"
        else:
            kind = "land"
        hit_points = options.get("hitPoints") or "1"
        damaged = (hit_points.isdigit() and int(hit_points) > 1) or options.get("canBeDamaged") == "true"
        kinds[unit_name] = (kind, damaged)
    return kinds


def unit_factors(game: m.Game) -> dict[str, tuple[int, int, int]]:
    """Each unit type's attack, defense and movement, from its unitAttachment (0 when not given)."""
    def factor(options: dict[str, str | None], key: str) -> int:
        value = options.get(key) or ""
        return int(value) if value.lstrip("-").isdigit() else 0

    return {unit_name: (factor(options, "attack"), factor(options, "defense"), factor(options, "movement"))
            for unit_name, options in unit_options(game).items()}
