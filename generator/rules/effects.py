"""The effects and unit-presence entries of macro parameters (user_action, triggered_effects)
as attachment options, for templates/rules/_effects.j2 and _presence.j2.

The macro headers declare both kinds of entry (their keys and types), so the loader has
checked them; a spec's own macro may pass looser mappings, so a single name where a list
belongs is taken as a list of one. Options are (name, value, count) with count None when
the option has none."""
from __future__ import annotations

from generator.catalog import load_catalog
from generator.rules.naming import identifier

Option = tuple[str, object, object]


def _listed(value) -> list:
    return [value] if isinstance(value, str) else list(value)


def _joined(value) -> str:
    return ":".join(str(item) for item in _listed(value))


def effect_options(effect: dict, player: str) -> list[Option]:
    """The options of one effect's trigger: for whom, then units given, removed and placed,
    ownership and relationship changes, a switch set, territory options, PUs."""
    options: list[Option] = [("players", _joined(effect.get("players") or [player]), None)]
    options += [("purchase", unit, count) for unit, count in (effect.get("gift") or {}).items()]
    for key, option in (("remove", "removeUnits"), ("place", "placement")):
        options += [(option, f"{territory}:{unit}", count)
                    for territory, units in (effect.get(key) or {}).items() for unit, count in units.items()]
    options += [("changeOwnership", value, None) for value in effect.get("ownership") or []]
    options += [("relationshipChange", value, None) for value in effect.get("relationships") or []]
    classes = load_catalog().classes
    if effect.get("switch"):
        options += [("playerAttachmentName", classes["RulesAttachment"].name, effect["switch"]),
                    ("playerProperty", "switch", str(effect.get("switch_value", False)).lower())]
    if effect.get("territories"):
        options += [("territories", _joined(effect["territories"]), None),
                    ("territoryAttachmentName", classes["TerritoryAttachment"].name,
                     classes["TerritoryAttachment"].exact_name)]
        options += [("territoryProperty", name, value)
                    for name, value in (effect.get("territory_properties") or {}).items()]
    if effect.get("resource"):
        options += [("resource", "PUs", None), ("resourceCount", effect["resource"], None)]
    return options


def presence_conditions(presence: dict, base: str, player: str) -> list[tuple[str, list[Option]]]:
    """(name, options) of the RulesAttachments an entry list declares, attached to player: one per
    entry, base_<label>, and base_<label>_Fewer (inverted) for an entry with fewer_than."""
    conditions = []
    for label, entry in presence.items():
        name = f"{base}_{identifier(label)}"
        conditions.append((name, _presence_options(entry, player, entry.get("at_least", 1))))
        if entry.get("fewer_than"):
            conditions.append((f"{name}_Fewer", _presence_options(entry, player, entry["fewer_than"])
                               + [("invert", "true", None)]))
    return conditions


def presence_names(presence: dict, base: str) -> list[str]:
    """The names of the conditions presence_conditions declares, in order."""
    return [name for name, _ in presence_conditions(presence, base, "")]


def _presence_options(entry: dict, player: str, at_least) -> list[Option]:
    return [("players", _joined(entry.get("players") or [player]), None),
            ("directPresenceTerritories", _joined(entry.get("territories") or [entry.get("territory")]),
             entry.get("count", 1)),
            ("unitPresence", _joined(entry.get("units") or ["ANY"]), at_least)]
