"""The overlay forms that say exactly where and what, for any section of a game
(written by `import --base`, usable by hand):

    remove:                        # besides connections/territories/attachments/properties/steps
      units: [marine]              # any section by its entries' keys (generator.model.compare.SECTIONS)
      unitPlacements: [[Germany, Germans, infantry]]
    replace:                       # entries in the full-game form, each replacing the entry with its key
      sequence: [{name: germansPurchase, delegate: purchase, player: Germans, display: Buy}]
      loader: games.strategy.triplea.TripleA        # and the top-level settings (null removes one)
    place:                         # applied last: entries moved (or added ones put) after/before another
      units: [{after: infantry, move: [marine]}]
      attachments: [{after: [unitAttachment, infantry], move: [[unitAttachment, marine]]}]

A key is the entry's name, or a list of its key fields ([name, attachTo], [territory,
owner, unitType], ...); a further number picks one of several entries with the same key
(0 the first)."""
from __future__ import annotations

from typing import Iterator

from generator.model import game as m
from generator.model.compare import SECTION_BY_NAME, Section, identities
from generator.core.diagnostics import Position, closest
from generator.read.yamlio import LocatedDict, LocatedList
from generator.speclang import declared as d
from generator.speclang.fullgame import read_game
from generator.speclang.reader import SpecReader
from generator.speclang.shapes import Raw


def _holder(attr: str):
    return lambda game: getattr(game, attr)


def _inside(holder: str, attr: str):
    return lambda game: getattr(getattr(game, holder), attr) if getattr(game, holder) is not None else None


# Parts of a game that may be absent altogether (no element at all, not an empty one): where they are
# (full-game form names), and which entry sections they hold.
OPTIONAL_PARTS = {
    "variables": (_holder("variables"), ("variables",)),
    "resources": (_holder("resources"), ("resources",)),
    "units": (_holder("units"), ("units",)),
    "relationshipTypes": (_holder("relationship_types"), ("relationshipTypes",)),
    "territoryEffects": (_holder("territory_effects"), ("territoryEffects",)),
    "sequence": (_holder("steps"), ("steps",)),
    "production": (_holder("production"), ("productionRules", "repairRules", "repairFrontiers", "frontiers",
                                           "playerProduction", "playerRepair")),
    "technology": (_holder("technology"), ("technologies", "playerTech")),
    "technologies": (_inside("technology", "technologies"), ("technologies",)),
    "attachments": (_holder("attachments"), ("attachments",)),
    "initialize": (_holder("initialize"), ("owners", "unitPlacements", "heldUnits", "startingResources",
                                           "relationships")),
    "owners": (_inside("initialize", "owners"), ("owners",)),
    "unitPlacements": (_inside("initialize", "units"), ("unitPlacements",)),
    "startingResources": (_inside("initialize", "resources"), ("startingResources",)),
    "relationships": (_inside("initialize", "relationships"), ("relationships",)),
    "properties": (_holder("properties"), ("properties",)),
}


def remove_parts(r: SpecReader, game: m.Game, data: Raw, pos: Position) -> None:
    """`remove: {parts: [technology, ...]}`: those parts of the game go altogether, element and all."""
    for name, npos in r.names(data, "remove parts", pos):
        if name not in OPTIONAL_PARTS:
            r.error("TG030", f"'{name}' is not a part of a game that can be removed", npos,
                    closest(name, OPTIONAL_PARTS) or "parts: " + ", ".join(OPTIONAL_PARTS))
            continue
        holder = {"technologies": game.technology, "owners": game.initialize, "unitPlacements": game.initialize,
                  "startingResources": game.initialize, "relationships": game.initialize}.get(name, game)
        attr = {"sequence": "steps", "relationshipTypes": "relationship_types",
                "territoryEffects": "territory_effects", "unitPlacements": "units",
                "startingResources": "resources"}.get(name, name)
        if holder is not None:
            setattr(holder, attr, None)


def read_identity(r: SpecReader, section: Section, data: Raw, pos: Position) -> tuple | None:
    """A key as written in the YAML -> (key fields..., occurrence)."""
    width = len(section.fields)
    if isinstance(data, list) and len(data) in (width, width + 1):
        parts = [None if v is None else r.text(v, f"{section.words} key", pos) for v in data[:width]]
        occurrence = data[width] if len(data) > width else 0
    elif not isinstance(data, (list, dict)) and width == 1 and data is not None:
        parts, occurrence = [r.text(data, f"{section.words} key", pos)], 0
    else:
        shape = ", ".join(section.fields)
        r.error("TG031", f"a {section.words} is named by [{shape}]" if width > 1 else
                f"a {section.words} is named by its {shape}", pos,
                f"write [{shape}]" + (", plus a number to pick one of several with the same key" if width > 1 else ""))
        return None
    if not isinstance(occurrence, int) or isinstance(occurrence, bool) or occurrence < 0:
        r.error("TG031", f"the number after a {section.words} key picks one of several: 0, 1, ...", pos,
                "leave it out for the first (or only) one")
        return None
    return tuple(parts) + (occurrence,)


def show_identity(identity: tuple) -> str:
    key, occurrence = identity[:-1], identity[-1]
    text = " / ".join("Neutral" if part is None else str(part) for part in key)
    return text + (f" (#{occurrence + 1})" if occurrence else "")


def _lookup(r: SpecReader, section: Section, ids: dict[tuple, int], identity: tuple, pos: Position) -> int | None:
    """Where the entry is (ids: identity -> index); reports a name the game lacks."""
    index = ids.get(identity)
    if index is not None:
        return index
    else:
        shown = [show_identity(i) for i in ids]
        r.error("TG051", f"the game has no {section.words} {show_identity(identity)}", pos,
                closest(show_identity(identity), shown) or f"check the {section.words}'s name")
        return None


def _keys(r: SpecReader, section: Section, data: Raw, pos: Position) -> Iterator[tuple[tuple, Position]]:
    seq = r.sequence(data, f"{section.name} keys", pos) or LocatedList()
    for index, item in enumerate(seq):
        ipos = seq.position_of(index)
        identity = read_identity(r, section, item, ipos)
        if identity is not None:
            yield identity, ipos


def remove_entries(r: SpecReader, game: m.Game, name: str, data: Raw, pos: Position) -> None:
    if name == "parts":
        remove_parts(r, game, data, pos)
        return
    section = SECTION_BY_NAME[name]
    items = section.get(game) or []
    ids = _positions(items, section)
    dropped = set()
    for identity, ipos in _keys(r, section, data, pos):
        index = _lookup(r, section, ids, identity, ipos)
        if index is not None:
            dropped.add(index)
    if dropped:
        section.set(game, [item for index, item in enumerate(items) if index not in dropped])


def replace_entries(r: SpecReader, game: m.Game, data: Raw, pos: Position) -> None:
    """Each entry of the fragment takes the place of the game's entry with the same key."""
    section_data = r.mapping(data, "replace", pos)
    if section_data is None:
        return
    _replace_settings(r, game, section_data)
    fragment = read_game(section_data, r.source, r.collector, "replace", partial=True)
    for section in SECTION_BY_NAME.values():
        new_items = section.get(fragment) or []
        if not new_items:
            continue
        items = list(section.get(game) or [])
        ids = _positions(items, section)
        for identity, item in zip(identities(new_items, section.key), new_items):
            index = _lookup(r, section, ids, identity, item.pos if hasattr(item, "pos") and item.pos else pos)
            if index is not None:
                items[index] = item
        section.set(game, items)


def _replace_settings(r: SpecReader, game: m.Game, data: LocatedDict) -> None:
    at = data.position_of
    for key in d.SETTING_KEYS:
        if key not in data:
            continue
        value = data[key]
        if key == "triplea":
            game.triplea_present = value is not None
            fields = r.fields(value, "triplea", at(key), d.TRIPLEA) if value is not None else {}
            game.minimum_version = fields.get("minimumVersion")
        elif key == "legacySpelling":
            game.legacy_attachment_spelling = value is True
        else:
            attr = {"doctype": "doctype", "loader": "loader", "diceSides": "dice_sides", "offset": "offset"}[key]
            setattr(game, attr, r.text(value, key, at(key)))


def place_entries(r: SpecReader, game: m.Game, data: Raw, pos: Position) -> None:
    sections = r.section(data, d.PLACE, pos) or LocatedDict()
    for name in sections:
        section = SECTION_BY_NAME[name]
        items = section.get(game) or []
        ids = _positions(items, section)  # fixed before any move, so a number means the same entry throughout
        by_id = dict(zip(ids, items))
        order = list(ids)
        groups = r.sequence(sections[name], f"place {name}", sections.position_of(name)) or LocatedList()
        for index, group in enumerate(groups):
            gpos = r.pos(group, groups.position_of(index))
            _place_group(r, section, group, gpos, ids, order)
        section.set(game, [by_id[identity] for identity in order])


def _positions(items, section: Section) -> dict[tuple, int]:
    return {identity: index for index, identity in enumerate(identities(items, section.key))}


def _place_group(r: SpecReader, section: Section, group: Raw, pos: Position, ids: dict[tuple, int],
                 order: list[tuple]) -> None:
    edit = r.section(group, d.PLACE_ENTRY, pos, f"a place of {section.name}")
    if edit is None:
        return
    anchors = [key for key in ("after", "before", "at") if key in edit]
    if len(anchors) != 1 or "move" not in edit:
        r.error("TG032", "each place entry needs move: and exactly one of after:, before: and at:", pos,
                "write {after: KEY, move: [KEY, ...]} or {at: start, move: [...]}")
        return
    moved = []
    for identity, ipos in _keys(r, section, edit["move"], edit.position_of("move")):
        if _lookup(r, section, ids, identity, ipos) is not None:
            if identity in moved:
                r.error("TG081", f"{section.words} {show_identity(identity)} is moved twice in one place entry",
                        ipos, "name each entry once")
                return
            moved.append(identity)
    anchor_key = anchors[0]
    anchor_pos = edit.position_of(anchor_key)
    moving = set(moved)
    remaining = [identity for identity in order if identity not in moving]
    if anchor_key == "at":
        where = r.text(edit["at"], "at", anchor_pos)
        if where not in ("start", "end"):
            r.error("TG031", "at: is start or end", anchor_pos, "write at: start, or use after:/before:")
            return
        at = 0 if where == "start" else len(remaining)
    else:
        anchor = read_identity(r, section, edit[anchor_key], anchor_pos)
        if anchor is None or _lookup(r, section, ids, anchor, anchor_pos) is None:
            return
        if anchor in moving:
            r.error("TG081", f"{section.words} {show_identity(anchor)} is both moved and the place to move to",
                    anchor_pos, "anchor the move at an entry that stays where it is")
            return
        at = remaining.index(anchor) + (1 if anchor_key == "after" else 0)
    order[:] = remaining[:at] + moved + remaining[at:]
