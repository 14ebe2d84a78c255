"""The dependency map of warm rebuilds (issue 30): which spec paths an edit changed, and what they feed.

    spec path (change.units.cruiser.cost)  ->  model fields (production, attachments)
                                           ->  rendered sections (render/sections.py SECTION_FIELDS)

An edit is the difference of two located YAML trees (values AND positions: a longer number moves
the keys after it on its line, and positions are rendered into the origins map). Each changed path
is looked up by its longest declared prefix in FEEDS; a path the table does not know, or one
declared as EVERYTHING (the mod's header, renames, removals, rules: they reach anywhere), makes the
whole model stale, which is the cold build's path. tests/builder/test_depmap.py holds the table to
the model: after random edits of every example, no section's fingerprint changes that the map
did not predict."""
from __future__ import annotations

from typing import Any, Iterable

from generator.render.sections import SECTION_FIELDS

SpecPath = tuple[str | int, ...]
EVERYTHING = "*"  # a path that can reach any part of the game
ANY = "<any>"  # in a FEEDS path: any one key (an entry's name)

# The full-game form's top-level keys (generator.speclang.declared.FULL_GAME_TOP) -> model fields
# (generator.model.game.Game). A mod's `add:` holds the same form, so it shares the table.
_FULL_GAME: dict[str, tuple[str, ...]] = {
    "info": ("info", "properties"),  # the rules' notes (a property) are headed by the game's name
    "doctype": ("doctype",), "loader": ("loader",), "triplea": ("minimum_version", "triplea_present"),
    "diceSides": ("dice_sides",), "variables": ("variables",),
    "map": (EVERYTHING,),  # a drawn map's geometry makes territories, connections and properties
    "resources": ("resources",), "players": ("players",), "alliances": ("alliances",), "units": ("units",),
    "relationshipTypes": ("relationship_types",), "territoryEffects": ("territory_effects",),
    "delegates": ("delegates",), "sequence": ("steps",), "offset": ("offset",), "production": ("production",),
    "technology": ("technology",), "legacySpelling": ("legacy_attachment_spelling",),
    "attachments": ("attachments",), "initialize": ("initialize",), "properties": ("properties",),
    "extra": ("extras",),
    # the build's own keys: none feeds the model, except rules (expanded into any section)
    "engine": (), "assets": (), "texts": (), "scenarios": (), "rules": (EVERYTHING,),
}
# A mod's `change:` keys (declared.CHANGE) -> model fields, as generator.speclang.overlay applies them.
_CHANGE: dict[str, tuple[str, ...]] = {
    "units": ("attachments", "production"),  # cost: every rule buying it; the rest: unitAttachment options
    "territories": ("territories", "initialize", "attachments"),  # owner, water, territoryAttachment options
    "players": ("players", "production", "attachments"),  # settings, frontier, own prices
    "properties": ("properties",), "attachments": ("attachments",), "alliances": ("alliances",),
    "frontiers": ("production",), "steps": ("steps",),
    "initialUnits": ("initialize",), "resources": ("initialize",), "relationships": ("initialize",),
}

FEEDS: dict[SpecPath, tuple[str, ...]] = {
    **{(key,): fields for key, fields in _FULL_GAME.items()},
    **{("add", key): fields for key, fields in _FULL_GAME.items() if key not in ("rules", "engine")},
    **{("change", key): fields for key, fields in _CHANGE.items()},
    ("change", "units", ANY, "cost"): ("production",),  # only the rules buying the unit
    # a mod's header names the base and the game; rename/remove/replace/place reach anywhere
    ("mod", "engine"): (),
}

_SECTION_OF_FIELD = {field: section for section, fields in SECTION_FIELDS.items() for field in fields}


def changed_paths(old: Any, new: Any, path: SpecPath = ()) -> set[SpecPath]:
    """The paths whose value or position differs between two located YAML trees: the deepest
    point of each difference (a key added or removed, or a list that changed length: the parent)."""
    found: set[SpecPath] = set()
    _diff(old, new, path, found)
    return found


def _diff(old: Any, new: Any, path: SpecPath, found: set[SpecPath]) -> None:
    if type(old) is not type(new):  # 1 and True are equal, and so are 1 and 1.0: not the same YAML
        found.add(path)
    elif isinstance(old, dict):
        if old.keys() != new.keys() or list(old) != list(new):  # order matters: it is the rendered order
            found.add(path)
            return
        for key, value in old.items():
            if _position(old, key) != _position(new, key):
                found.add(path + (key,))
            _diff(value, new[key], path + (key,), found)
    elif isinstance(old, list):
        if len(old) != len(new):
            found.add(path)
            return
        for index, value in enumerate(old):
            if _position(old, index) != _position(new, index):
                found.add(path + (index,))
            _diff(value, new[index], path + (index,), found)
    elif old != new:
        found.add(path)


def _position(container: Any, key: Any) -> Any:
    position_of = getattr(container, "position_of", None)
    return position_of(key) if position_of is not None else None


def fields_fed(paths: Iterable[SpecPath]) -> set[str] | None:
    """The model fields the changed paths feed; None: any of them (the whole model is stale)."""
    fields: set[str] = set()
    for path in paths:
        fed = _feeds(path)
        if fed is None or EVERYTHING in fed:
            return None
        fields.update(fed)
    return fields


def _feeds(path: SpecPath) -> tuple[str, ...] | None:
    """What the longest FEEDS path that is a prefix of path says; None: no entry covers it."""
    best: tuple[str, ...] | None = None
    best_length = 0
    for declared, fed in FEEDS.items():
        length = len(declared)
        if best_length < length <= len(path) and all(
                part == ANY or part == step for part, step in zip(declared, path)):
            best, best_length = fed, length
    return best  # None: the top of the document, or a key no entry covers: unknown


def stale_sections(paths: Iterable[SpecPath]) -> set[str] | None:
    """The rendered sections (SECTION_FIELDS) an edit of these paths can change; None: all."""
    fields = fields_fed(paths)
    if fields is None:
        return None
    return {_SECTION_OF_FIELD[field] for field in fields if field in _SECTION_OF_FIELD}


def shown(path: SpecPath) -> str:
    """A path as a user reads it: change.units.cruiser.cost, rules[3].with.owns."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text
