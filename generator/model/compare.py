"""One comparison of two games, shared by `diff` (a changelog) and `import --base` (an overlay).

A game is a set of keyed sections: territories by name, attachments by name and target,
unit placements by territory, owner and unit type, ... Real games repeat keys (an
attachment declared twice on one object), so an entry's identity is its key plus its
occurrence among the entries with that key. `match` pairs the entries of two versions
of a section by identity."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable

from generator.model import game as m


@dataclass(frozen=True)
class Section:
    name: str                                   # the overlay's word for it (remove:, place:)
    words: str                                  # what one entry is called in messages
    fields: tuple[str, ...]                     # the key's parts, as the full-game form names them
    get: Callable[[m.Game], list | None]
    set: Callable[[m.Game, list], None]
    key: Callable[[object], tuple]


def _production(game: m.Game) -> m.Production:
    game.production = game.production or m.Production()
    return game.production


def _technology(game: m.Game) -> m.Technology:
    game.technology = game.technology or m.Technology()
    return game.technology


def _initialize(game: m.Game) -> m.Initialize:
    game.initialize = game.initialize or m.Initialize()
    return game.initialize


def _in(make: Callable, attr: str, default=None):
    """get/set for a list held by production, technology or initialize (made on first write)."""
    holder = make.__name__.lstrip("_")  # the Game attribute that make() fills in

    def get(game: m.Game):
        container = getattr(game, holder)
        return getattr(container, attr) if container is not None else default

    def set_(game: m.Game, items: list) -> None:
        setattr(make(game), attr, items)
    return get, set_


def _top(attr: str):
    return (lambda game: getattr(game, attr)), (lambda game, items: setattr(game, attr, items))


def _section(name, words, fields, access, key) -> Section:
    get, set_ = access
    return Section(name, words, fields, get, set_, key)


SECTIONS: tuple[Section, ...] = (
    _section("variables", "variable", ("name",), _top("variables"), lambda v: (v[0],)),
    _section("grids", "grid", ("name",), _top("grids"), lambda g: (g.attributes.get("name"),)),
    _section("territories", "territory", ("name",), _top("territories"), lambda t: (t.name,)),
    _section("connections", "connection", ("t1", "t2"), _top("connections"), lambda c: (c.t1, c.t2)),
    _section("removeConnections", "removed connection", ("t1", "t2"), _top("remove_connections"),
             lambda c: (c.t1, c.t2)),
    _section("resources", "resource", ("name",), _top("resources"), lambda r: (r.name,)),
    _section("players", "player", ("name",), _top("players"), lambda p: (p.name,)),
    _section("alliances", "alliance membership", ("player", "alliance"), _top("alliances"),
             lambda a: (a.player, a.alliance)),
    _section("units", "unit type", ("name",), _top("units"), lambda u: (u.name,)),
    _section("relationshipTypes", "relationship type", ("name",), _top("relationship_types"), lambda u: (u.name,)),
    _section("territoryEffects", "territory effect", ("name",), _top("territory_effects"), lambda u: (u.name,)),
    _section("delegates", "delegate", ("name",), _top("delegates"), lambda d: (d.name,)),
    _section("steps", "step", ("name",), _top("steps"), lambda s: (s.name,)),
    _section("productionRules", "production rule", ("name",), _in(_production, "rules", []), lambda r: (r.name,)),
    _section("repairRules", "repair rule", ("name",), _in(_production, "repair_rules", []), lambda r: (r.name,)),
    _section("repairFrontiers", "repair frontier", ("name",), _in(_production, "repair_frontiers", []),
             lambda f: (f.name,)),
    _section("frontiers", "production frontier", ("name",), _in(_production, "frontiers", []), lambda f: (f.name,)),
    _section("playerProduction", "player's production frontier", ("player",),
             _in(_production, "player_production", []), lambda p: (p.player,)),
    _section("playerRepair", "player's repair frontier", ("player",), _in(_production, "player_repair", []),
             lambda p: (p.player,)),
    _section("technologies", "technology", ("name",), _in(_technology, "technologies"), lambda t: (t.name,)),
    _section("playerTech", "player's technology", ("player",), _in(_technology, "player_techs", []),
             lambda p: (p.player,)),
    _section("attachments", "attachment", ("name", "attachTo"), _top("attachments"),
             lambda a: (a.name, a.attach_to)),
    _section("owners", "territory owner", ("territory",), _in(_initialize, "owners"), lambda o: (o.territory,)),
    _section("unitPlacements", "starting units", ("territory", "owner", "unitType"), _in(_initialize, "units"),
             lambda u: (u.territory, u.owner, u.unit_type)),
    _section("heldUnits", "held units", ("player", "unitType"), _in(_initialize, "held_units", []),
             lambda h: (h.player, h.unit_type)),
    _section("startingResources", "starting resources", ("player", "resource"), _in(_initialize, "resources"),
             lambda g: (g.player, g.resource)),
    _section("relationships", "starting relationship", ("player1", "player2"), _in(_initialize, "relationships"),
             lambda r: (r.player1, r.player2)),
    _section("properties", "property", ("name",), _top("properties"), lambda p: (p.name,)),
)
SECTION_BY_NAME = {section.name: section for section in SECTIONS}


def identities(items, key: Callable) -> list[tuple]:
    """Each entry's key plus its occurrence among the entries with that key, in order."""
    seen: Counter = Counter()
    result = []
    for item in items:
        k = key(item)
        result.append(k + (seen[k],))
        seen[k] += 1
    return result


def keyed(items, key: Callable) -> dict[tuple, object]:
    return dict(zip(identities(items, key), items))


@dataclass
class Matching:
    """Two versions of one section, paired by identity."""

    removed: list            # old entries the new version lacks
    added: list              # new entries the old version lacks, in the new order
    common: list[tuple]      # (old, new) pairs, in the new order
    in_new_order: list[tuple]  # (old or None, new) for every new entry

    @property
    def changed(self) -> list[tuple]:
        return [(old, new) for old, new in self.common if old != new]


def match(old_items, new_items, key: Callable) -> Matching:
    old = keyed(old_items or [], key)
    new = keyed(new_items or [], key)
    return Matching([item for ident, item in old.items() if ident not in new],
                    [item for ident, item in new.items() if ident not in old],
                    [(old[ident], item) for ident, item in new.items() if ident in old],
                    [(old.get(ident), item) for ident, item in new.items()])


def match_section_lists(section: Section, old_items, new_items) -> Matching:
    return match(old_items, new_items, section.key)
