"""The parts of a mod's `change:` that reshape the base game's set-up rather than
its options: alliances, production frontiers, steps, starting units, starting
resources and relationships, and the `rename:` section.

    rename:
      players: {Germans: Reich}          # every reference in the game, option values included
    change:
      alliances: {Axis: [Germans, Italians, Vichy]}          # an alliance's members, replaced
      frontiers: {production: {add: [buyMarine], remove: [buyCruiser]}}
      steps:
        - {after: germansAirborneCombatMove, add: [{name: russiansPactPlace, delegate: place, player: Russians}]}
      initialUnits:                      # replaces those units of that owner there; 0 removes them
        26 Sea Zone: {Americans: {battleship: {quantity: 2, hitsTaken: 1}, submarine: 0}}
      resources: {Americans: {PUs: 32}}  # starting resources
      relationships: [[Japanese, Russians, War]]   # [player1, player2, type, roundValue?]

Every name must exist in the base game (or be added by the mod); a wrong one is
an error at its YAML line with the closest existing name as a hint."""
from __future__ import annotations

from generator.model import game as m
from generator.model.fields import from_fields
from generator.core.diagnostics import Position, closest
from generator.model.rename import KINDS, existing_names, rename
from generator.read.yamlio import LocatedDict, LocatedList
from generator.speclang import declared as d
from generator.speclang.fullgame import read_steps
from generator.speclang.reader import SpecReader
from generator.speclang.shapes import Raw

_KIND_WORDS = {"players": "player", "territories": "territory", "units": "unit type"}


def apply_renames(r: SpecReader, game: m.Game, data: Raw, pos: Position, is_mod_of_map: bool) -> None:
    section = r.section(data, d.RENAME, pos)
    if section is None:
        return
    for kind in KINDS:
        names = r.mapping(section.get(kind), f"rename {kind}", section.position_of(kind)) or LocatedDict()
        for old, new in names.items():
            npos = names.position_of(old)
            old, new = str(old), r.text(new, f"new name of {old}", npos, required=True) or ""
            current = existing_names(game, kind)
            word = _KIND_WORDS[kind]
            if old not in current:
                r.error("TG051", f"the base game has no {word} '{old}' to rename", npos,
                        closest(old, current) or f"check the spelling against the base game's {word}s")
            elif new in current:
                r.error("TG053", f"the base game already has a {word} called '{new}'", npos,
                        "choose a name the game does not use yet")
            elif ":" in new or not new.strip() or (kind == "players" and new == "Neutral"):
                r.error("TG053", f"'{new}' cannot be a {word} name", npos,
                        "names may not contain ':' or be empty; Neutral is the engine's own player")
            else:
                rename(game, kind, old, new)
                if is_mod_of_map and kind == "territories":
                    r.collector.warning("TG054", f"the base map draws territory '{old}' by that name", npos,
                                        f"rename it in the map's polygons.txt, centers.txt and place.txt too, "
                                        f"or the map shows '{new}' without a shape")


class SetupChanges:
    def __init__(self, r: SpecReader, game: m.Game, known):
        self.r = r
        self.game = game
        self.known = known  # known(kind, name, names, pos) -> bool, reporting TG051

    def apply(self, section: LocatedDict) -> None:
        at = section.position_of
        handlers = {"alliances": self.alliances, "frontiers": self.frontiers, "steps": self.steps,
                    "initialUnits": self.initial_units, "resources": self.resources,
                    "relationships": self.relationships}
        for key, handler in handlers.items():
            if key in section:
                handler(section[key], at(key))

    def _players(self) -> list[str]:
        return [p.name for p in self.game.players]

    def alliances(self, data: Raw, pos: Position) -> None:
        r, game = self.r, self.game
        for alliance, members, apos in r.entries(data, "change alliances", pos, "name"):
            if not self.known("alliance", alliance, sorted({a.alliance for a in game.alliances}), apos):
                continue
            players = [name for name, npos in r.names(members, f"members of {alliance}", apos)
                       if self.known("player", name, self._players(), npos)]
            first = next(i for i, a in enumerate(game.alliances) if a.alliance == alliance)
            game.alliances = [a for a in game.alliances if a.alliance != alliance]
            game.alliances[first:first] = [m.Alliance(p, alliance, apos) for p in players]

    def frontiers(self, data: Raw, pos: Position) -> None:
        r = self.r
        production = self.game.production or m.Production()
        rules = [rule.name for rule in production.rules]
        for name, body, fpos in r.entries(data, "change frontiers", pos, "name"):
            frontier = next((f for f in production.frontiers if f.name == name), None)
            if not self.known("production frontier", name, [f.name for f in production.frontiers], fpos) \
                    or frontier is None:
                continue
            edit = r.section(body, d.FRONTIER_CHANGE, fpos, f"change of frontier {name}")
            if edit is None:
                continue
            for rule, rpos in r.names(edit.get("remove"), f"rules removed from {name}", edit.position_of("remove")):
                if self.known(f"rule in frontier {name} called", rule, frontier.rules, rpos):
                    frontier.rules.remove(rule)
            for rule, rpos in r.names(edit.get("add"), f"rules added to {name}", edit.position_of("add")):
                if self.known("production rule", rule, rules, rpos) and rule not in frontier.rules:
                    frontier.rules.append(rule)

    def steps(self, data: Raw, pos: Position) -> None:
        r, game = self.r, self.game
        seq = r.sequence(data, "change steps", pos) or LocatedList()
        for index, body in enumerate(seq):
            spos = r.pos(body, seq.position_of(index))
            edit = r.section(body, d.STEP_CHANGE, spos, "a step change")
            if edit is None:
                continue
            anchors = [key for key in ("after", "before") if key in edit]
            if len(anchors) != 1:
                r.error("TG032", "a step change needs exactly one of after: and before:", spos,
                        "write {after: germansBattle, add: [...]}")
                continue
            anchor = r.text(edit[anchors[0]], anchors[0], edit.position_of(anchors[0]), True) or ""
            names = [s.name for s in game.steps or []]
            new_steps = read_steps(r, edit.get("add"), edit.position_of("add"))
            taken = [s for s in new_steps if s.name in names]
            for step in taken:
                r.error("TG053", f"the base game already has a step called '{step.name}'", step.pos or spos,
                        "step names must be unique")
            if taken or not self.known("step", anchor, names, edit.position_of(anchors[0])) or game.steps is None:
                continue
            at = names.index(anchor) + (1 if anchors[0] == "after" else 0)
            game.steps[at:at] = new_steps

    def initial_units(self, data: Raw, pos: Position) -> None:
        r, game = self.r, self.game
        territories = r.mapping(data, "initialUnits (territory -> owner -> units)", pos) or LocatedDict()
        init = game.initialize = game.initialize or m.Initialize()
        units = [u.name for u in game.units or []]
        for territory, owners in territories.items():
            tpos = territories.position_of(territory)
            if not self.known("territory", str(territory), [t.name for t in game.territories], tpos):
                continue
            by_owner = r.mapping(owners, f"units in {territory}", tpos) or LocatedDict()
            for owner in by_owner:
                opos = by_owner.position_of(owner)
                if owner not in (None, "Neutral") and not self.known("player", str(owner), self._players(), opos):
                    continue
                owner_name = None if owner in (None, "Neutral") else str(owner)  # Neutral: units nobody owns
                counts = r.mapping(by_owner[owner], f"units of {owner} in {territory}", opos) or LocatedDict()
                value: Raw
                for unit, value in counts.items():
                    upos = counts.position_of(unit)
                    if not self.known("unit type", str(unit), units, upos):
                        continue
                    if isinstance(value, dict):
                        f = r.fields(value, f"{unit} in {territory}", upos, d.UNIT_COUNT)
                    else:
                        f = {"quantity": r.text(value, f"quantity of {unit} in {territory}", upos)}
                    self._replace_units(init, from_fields(m.UnitPlacement, f, unit_type=str(unit),
                                                          territory=str(territory), owner=owner_name, pos=upos))

    @staticmethod
    def _replace_units(init: m.Initialize, placement: m.UnitPlacement) -> None:
        same = (placement.territory, placement.owner, placement.unit_type)
        existing = init.units or []
        keep = [u for u in existing if (u.territory, u.owner, u.unit_type) != same]
        if placement.quantity not in ("0", None):
            first = next((i for i, u in enumerate(existing) if (u.territory, u.owner, u.unit_type) == same), None)
            keep.insert(len(keep) if first is None else first, placement)
        init.units = keep

    def resources(self, data: Raw, pos: Position) -> None:
        r, game = self.r, self.game
        init = game.initialize = game.initialize or m.Initialize()
        names = [res.name for res in game.resources or []]
        for player, amounts, ppos in r.entries(data, "change resources", pos, "player"):
            if not self.known("player", player, self._players(), ppos):
                continue
            section = r.mapping(amounts, f"resources of {player}", ppos) or LocatedDict()
            for resource, quantity in section.items():
                rpos = section.position_of(resource)
                resource = str(resource)
                if not self.known("resource", resource, names, rpos):
                    continue
                value = r.text(quantity, f"{resource} of {player}", rpos, required=True)
                given = init.resources = init.resources if init.resources is not None else []
                target = next((g for g in given if (g.player, g.resource) == (player, resource)), None)
                if target is None:
                    given.append(m.ResourceGiven(player, resource, value, rpos))
                else:
                    target.quantity, target.pos = value, rpos

    def relationships(self, data: Raw, pos: Position) -> None:
        r, game = self.r, self.game
        init = game.initialize = game.initialize or m.Initialize()
        types = [t.name for t in game.relationship_types or []]
        seq = r.sequence(data, "change relationships", pos) or LocatedList()
        for index, item in enumerate(seq):
            rpos = seq.position_of(index)
            f = r.fields(item, "a relationship", rpos, d.RELATIONSHIP, positional=True)
            given = from_fields(m.Relationship, f, pos=rpos)
            first, second, kind = given.player1, given.player2, given.type
            if not (self.known("player", first, self._players(), rpos)
                    and self.known("player", second, self._players(), rpos)
                    and self.known("relationship type", kind, types, rpos)):
                continue
            relationships = init.relationships = init.relationships if init.relationships is not None else []
            target = next((rel for rel in relationships if {rel.player1, rel.player2} == {first, second}), None)
            if target is None:
                given.round_value = given.round_value or "1"
                relationships.append(given)
            else:
                target.type, target.pos = kind, rpos
                if given.round_value:
                    target.round_value = given.round_value
