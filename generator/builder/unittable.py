"""The units a player of a package meets that the base game does not have, or has with other values:
a row per unit type (its price and its main values, and what changed), for the forum post."""
from __future__ import annotations

from dataclasses import dataclass, field

from generator.model import game as m

# The values players compare units by (unitAttachment options); the rest are listed under `changes`.
MAIN_STATS = ("attack", "defense", "movement")


@dataclass
class UnitRow:
    name: str
    status: str  # "new" or "changed"
    cost: str  # "3 PUs", or "" when no rule buys one
    stats: dict[str, str]  # MAIN_STATS -> value ("" when not set)
    changes: list[str] = field(default_factory=list)  # "attack 3 → 4", "isInfantry: true"


def unit_rows(game: m.Game, base: m.Game | None) -> list[UnitRow]:
    """Rows for the unit types that are new (every one when there is no base) or whose price or values
    differ from the base's, in the game's order."""
    rows = []
    base_units = {u.name for u in (base.units or [])} if base is not None else set()
    for unit in game.units or []:
        options, cost = _options(game, unit.name), _cost(game, unit.name)
        stats = {name: options.get(name, "") for name in MAIN_STATS}
        if base is None or unit.name not in base_units:
            extra = [f"{name}: {value}" for name, value in options.items() if name not in MAIN_STATS]
            rows.append(UnitRow(unit.name, "new", cost, stats, extra))
            continue
        old_options, old_cost = _options(base, unit.name), _cost(base, unit.name)
        changes = [f"cost {old_cost or '-'} → {cost or '-'}"] if cost != old_cost else []
        for name in list(options) + [n for n in old_options if n not in options]:
            if options.get(name) != old_options.get(name):
                changes.append(f"{name} {old_options.get(name, '-')} → {options.get(name, '-')}")
        if changes:
            rows.append(UnitRow(unit.name, "changed", cost, stats, changes))
    return rows


def _options(game: m.Game, unit: str) -> dict[str, str]:
    from generator.speclang.overlay import effective_attachment

    attachment = effective_attachment(game, "unitAttachment", unit)
    return {o.name: o.value or "" for o in attachment.options} if attachment is not None else {}


def _cost(game: m.Game, unit: str) -> str:
    from generator.speclang.overlay import rules_priced_by_cost

    rules, _ = rules_priced_by_cost(game.production.rules if game.production else [], unit)
    if len(rules) != 1:
        return ""
    return ", ".join(f"{a.quantity} {a.item}" for a in rules[0].costs)
