"""Mods as overlays: a spec names a base game and states only the difference.

    mod: {name: ..., version: ..., base: {map: world_war_ii_global, game: ww2global40_2nd_edition.xml}}
    rename:  players / territories / units, everywhere in the game (applied first)
    add:     a fragment in the full-game form, appended to the base
    change:  units / territories / players / properties / attachments, by name, and the set-up:
             alliances / frontiers / steps / initialUnits / resources / relationships (overlay_setup)
    remove:  connections / territories / attachments / properties / steps, by name
    replace: / place: / remove: of any section by key: generator.speclang.overlay_edit

Every name a mod uses must exist in the base (or be added by it); a wrong name is
an error at its YAML line with the closest existing name as a hint."""
from __future__ import annotations

from pathlib import Path

from generator.model import game as m
from generator.model.fields import attributes_of
from generator.speclang.basegame import find_base
from generator.core.diagnostics import Collector, Position, closest
from generator.read.yamlio import LocatedDict, LocatedList
from generator.speclang import declared as d
from generator.speclang.overlay_edit import place_entries, remove_entries, replace_entries
from generator.speclang.overlay_prices import rules_priced_by_cost, set_player_prices  # noqa: F401 (used by build too)
from generator.speclang.overlay_setup import SetupChanges, apply_renames
from generator.speclang.fullgame import read_game
from generator.speclang.reader import SpecReader
from generator.speclang.shapes import Raw


def is_mod(data: Raw) -> bool:
    return isinstance(data, dict) and "mod" in data


def read_mod(data: LocatedDict, source: str, spec_dir: Path, collector: Collector,
             load_base) -> tuple[m.Game, Path | None]:
    """The base game with the mod's changes applied, and where the base came from.
    `load_base(path)` imports the base game."""
    r = SpecReader(source, collector)
    r.check_keys(data, d.MOD_TOP.names, "a mod spec")
    header = r.section(data["mod"], d.HEADER, data.position_of("mod"))
    if header is None:
        return m.Game(), None
    base_pos = header.position_of("base")
    base: Raw = header.get("base")
    if isinstance(base, dict):
        r.check_keys(base, d.BASE.names, "mod base")
        map_name = r.text(base.get("map"), "base map", base_pos)
        game_file = r.text(base.get("game"), "base game", base_pos, required=True)
    else:
        map_name, game_file = None, r.text(base, "mod base", base_pos, required=True)
    path, hint = find_base(map_name, game_file, spec_dir)
    if path is None:
        r.error("TG050", f"base game not found: {game_file if map_name is None else f'{map_name}/{game_file}'}",
                base_pos, hint)
        return m.Game(), None
    game = load_base(path)
    game.info = m.Info(r.text(header.get("name"), "mod name", header.pos, required=True),
                       r.text(header.get("version"), "mod version", header.pos) or game.info.version, header.pos)
    if "rename" in data:
        apply_renames(r, game, data["rename"], data.position_of("rename"), is_mod_of_map=map_name is not None)
    apply_changes(r, game, data, data.position_of, later_rules=data.get("rules"))
    return game, path


def apply_changes(r: SpecReader, game: m.Game, sections: dict, position_of, later_rules=None) -> None:
    """remove:, replace:, add:, change:, then place: (a mod's, or one rule's own). later_rules: the
    mod's rules: (raw), which apply afterwards; a name only they make is then said to be theirs."""
    overlay = _Overlay(r, game, later_rules)
    if "remove" in sections:
        overlay.remove(sections["remove"], position_of("remove"))
    if "replace" in sections:
        replace_entries(r, game, sections["replace"], position_of("replace"))
    if "add" in sections:
        # a list of fragments: each added in turn (import --base groups a new player's whole setup in one)
        added = sections["add"]
        for fragment in added if isinstance(added, list) else [added]:
            add_fragment(game, read_game(fragment, r.source, r.collector, "add", partial=True))
    if "change" in sections:
        overlay.change(sections["change"], position_of("change"))
    if "place" in sections:
        place_entries(r, game, sections["place"], position_of("place"))


def add_fragment(game: m.Game, fragment: m.Game) -> None:
    """Append everything a fragment of a game holds; properties replace those of the same name."""
    game.territories += fragment.territories
    game.connections += fragment.connections
    game.players += fragment.players
    game.alliances += fragment.alliances
    game.delegates += fragment.delegates
    for attr in ("resources", "units", "relationship_types", "territory_effects", "steps", "attachments"):
        extra = getattr(fragment, attr)
        if extra:
            setattr(game, attr, (getattr(game, attr) or []) + extra)
    if fragment.production is not None:
        production = game.production = game.production or m.Production()
        for attr in ("rules", "repair_rules", "repair_frontiers", "frontiers", "player_production", "player_repair"):
            getattr(production, attr).extend(getattr(fragment.production, attr))
    if fragment.technology is not None:
        technology = game.technology = game.technology or m.Technology()
        if fragment.technology.technologies:
            technology.technologies = (technology.technologies or []) + fragment.technology.technologies
        technology.player_techs += fragment.technology.player_techs
    if fragment.initialize is not None:
        init = game.initialize = game.initialize or m.Initialize()
        for attr in ("owners", "units", "resources", "relationships"):
            extra = getattr(fragment.initialize, attr)
            if extra:
                setattr(init, attr, (getattr(init, attr) or []) + extra)
        init.held_units += fragment.initialize.held_units
    for prop in fragment.properties or []:
        set_property(game, prop)


def effective_attachment(game: m.Game, name: str, attach_to: str) -> m.Attachment | None:
    """The attachment of that name on that object which the engine uses: when a game declares
    two (G40 does for Russia), the engine keeps the later one."""
    found = None
    for attachment in game.attachments or []:
        if attachment.name == name and attachment.attach_to == attach_to:
            found = attachment
    return found


def set_property(game: m.Game, prop: m.Property) -> None:
    properties = game.properties = game.properties if game.properties is not None else []
    for index, existing in enumerate(properties):
        if existing.name == prop.name:
            properties[index] = prop
            return
    properties.append(prop)


def set_options(attachment: m.Attachment, new_options: list[m.Option]) -> None:
    """Each named option's values are replaced where the first of them stood; new names are appended."""
    for name in dict.fromkeys(o.name for o in new_options):
        values = [o for o in new_options if o.name == name and o.value is not None]
        first = next((i for i, o in enumerate(attachment.options) if o.name == name), len(attachment.options))
        attachment.options = [o for o in attachment.options if o.name != name]
        attachment.options[first:first] = values


class _Overlay:
    def __init__(self, r: SpecReader, game: m.Game, later_rules=None):
        self.r = r
        self.game = game
        self.later_rules = later_rules if isinstance(later_rules, list) else []

    # --- look-ups -------------------------------------------------------------------------------------------

    def known(self, kind: str, name: str, names, pos: Position) -> bool:
        if name in names:
            return True
        if self._made_by_a_rule(f"{kind} '{name}'", name, pos):
            return False
        suggestion = closest(name, names)
        self.r.error("TG051", f"the base game has no {kind} '{name}'", pos,
                     suggestion or f"check the spelling against the base game's {kind}s")
        return False

    def _made_by_a_rule(self, what: str, name: str, pos: Position) -> bool:
        """Reports (TG051) that a later rule makes the name, when one does: the plain "the base game
        has no ..." would send the modder hunting for a misspelling."""
        made = rule_making(self.later_rules, name)
        if made is None:
            return False
        rule_id, line = made
        self.r.error("TG051", f"the base game has no {what}: rule {rule_id} (line {line}) adds it, and rules "
                     "apply after the mod's own remove:, add: and change:", pos,
                     f"change it in rule {rule_id} itself: a rule's own change: applies after its add:")
        return True

    def attachment(self, name: str, attach_to: str, pos: Position) -> m.Attachment | None:
        found = effective_attachment(self.game, name, attach_to)
        if found is not None:
            return found
        if self._made_by_a_rule(f"attachment '{name}' on '{attach_to}'", attach_to, pos):
            return None
        candidates = [f"{a.name} on {a.attach_to}" for a in self.game.attachments or []]
        suggestion = closest(f"{name} on {attach_to}", candidates)
        self.r.error("TG051", f"the base game has no attachment '{name}' on '{attach_to}'", pos,
                     suggestion or "check the attachment's name and attachTo")
        return None

    # --- change ---------------------------------------------------------------------------------------------

    def change(self, data: Raw, pos: Position) -> None:
        r = self.r
        section = r.section(data, d.CHANGE, pos)
        if section is None:
            return
        SetupChanges(r, self.game, self.known).apply(section)
        for unit, body, upos in r.entries(section.get("units"), "change units", section.position_of("units"),
                                          "name"):
            self._change_unit(unit, body, upos)
        for territory, body, tpos in r.entries(section.get("territories"), "change territories",
                                               section.position_of("territories"), "name"):
            self._change_territory(territory, body, tpos)
        for player, body, ppos in r.entries(section.get("players"), "change players",
                                            section.position_of("players"), "name"):
            self._change_player(player, body, ppos)
        for name, body, ppos in r.entries(section.get("properties"), "change properties",
                                          section.position_of("properties"), "name"):
            self._change_property(name, body, ppos)
        seq = r.sequence(section.get("attachments"), "change attachments",
                         section.position_of("attachments")) or LocatedList()
        for index, body in enumerate(seq):  # body: Raw, as the entries' above
            apos = r.pos(body, seq.position_of(index))
            if not isinstance(body, dict):
                r.error("TG031", "each changed attachment must be a mapping", apos,
                        "write {name: ..., attachTo: ..., options: {...}}")
                continue
            r.check_keys(body, d.CHANGED_ATTACHMENT.names, "a changed attachment")
            attachment = self.attachment(r.text(body.get("name"), "name", apos, True) or "",
                                         r.text(body.get("attachTo"), "attachTo", apos, True) or "", apos)
            if attachment is not None:
                self._set_options(attachment, body.get("options"), body.position_of("options"))

    def _set_options(self, attachment: m.Attachment, options: Raw, pos: Position) -> None:
        """Replace each named option's values (None removes it); new options are appended."""
        section = self.r.mapping(options, f"options of {attachment.name}", pos) or LocatedDict()
        new = []
        item: Raw
        for name, value in section.items():
            opos = section.position_of(name)
            name = str(name)
            values = value if isinstance(value, list) else [None] if value is None else [value]
            for item in values:
                if isinstance(item, dict):
                    self.r.check_keys(item, d.OPTION.names, f"option {name}")
                    new.append(m.Option(name, self.r.text(item.get("value"), name, opos),
                                        self.r.text(item.get("count"), name, opos), opos))
                else:
                    new.append(m.Option(name, self.r.text(item, name, opos), None, opos))
        set_options(attachment, new)

    def _singleton(self, name: str, attach_to: str, java_class: str, type_: str) -> m.Attachment:
        found = effective_attachment(self.game, name, attach_to)
        if found is not None:
            return found
        attachment = m.Attachment(name, attach_to, m.ATTACHMENT_PACKAGE + java_class, type_)
        self.game.attachments = (self.game.attachments or []) + [attachment]
        return attachment

    def _change_unit(self, unit: str, body: Raw, pos: Position) -> None:
        if not self.known("unit type", unit, [u.name for u in self.game.units or []], pos):
            return
        options = self.r.mapping(body, f"change of unit {unit}", pos)
        if options is None:
            return
        if "cost" in options:
            self._change_cost(unit, options["cost"], options.position_of("cost"))
        rest = {k: v for k, v in options.items() if k != "cost"}
        if rest:
            located = type(options)(rest)
            located.pos, located.key_pos = options.pos, options.key_pos
            self._set_options(self._singleton("unitAttachment", unit, "UnitAttachment", "unitType"), located, pos)

    def _change_cost(self, unit: str, cost: Raw, pos: Position) -> None:
        """`cost: 11` sets the PUs of every production rule that buys exactly one such unit."""
        rules, buying = rules_priced_by_cost(self.game.production.rules if self.game.production else [], unit)
        if buying and not rules:
            self.r.error("TG052", f"several production rules buy one '{unit}' and none is called buy{unit}", pos,
                         "change the rule you mean under change: production: (" +
                         ", ".join(rule.name for rule in buying) + ")")
            return
        if not rules:
            self.r.error("TG052", f"no production rule buys one '{unit}'", pos,
                         "add a rule under add: production: rules:, then change its cost")
            return
        amounts = cost if isinstance(cost, dict) else {"PUs": cost}
        for rule in rules:
            rule.costs = [m.Cost(str(resource), self.r.text(quantity, f"cost of {unit}", pos), pos)
                          for resource, quantity in amounts.items()]

    def _change_territory(self, territory: str, body: Raw, pos: Position) -> None:
        if not self.known("territory", territory, [t.name for t in self.game.territories], pos):
            return
        options = self.r.mapping(body, f"change of territory {territory}", pos)
        if options is None:
            return
        rest = {}
        for key, value in options.items():
            if key == "owner":
                self._set_owner(territory, self.r.text(value, "owner", options.position_of(key), True), pos)
            elif key == "water":
                for t in self.game.territories:
                    if t.name == territory:
                        t.water = self.r.text(value, "water", options.position_of(key))
            else:
                rest[key] = value
        if rest:
            located = type(options)(rest)
            located.pos, located.key_pos = options.pos, options.key_pos
            self._set_options(self._singleton("territoryAttachment", territory, "TerritoryAttachment",
                                              "territory"), located, pos)

    def _set_owner(self, territory: str, owner: str, pos: Position) -> None:
        if owner != "Neutral" and not self.known("player", owner, [p.name for p in self.game.players], pos):
            return
        init = self.game.initialize = self.game.initialize or m.Initialize()
        owners = [o for o in init.owners or [] if o.territory != territory]
        if owner != "Neutral":
            owners.append(m.TerritoryOwner(territory, owner, pos))
        init.owners = owners

    def _change_player(self, player: str, body: Raw, pos: Position) -> None:
        players = {p.name: p for p in self.game.players}
        if not self.known("player", player, players, pos):
            return
        fields = self.r.fields(body, f"change of player {player}", pos, d.CHANGED_PLAYER)
        target = players[player]
        if "frontier" in fields:
            self._set_frontier(player, fields["frontier"] or "", pos)
        if "prices" in fields:  # after frontier: the prices go into the frontier the player ends up with
            prices_pos = body.position_of("prices") if isinstance(body, dict) else pos  # fields are a mapping's
            set_player_prices(self.r, self.game, player, fields["prices"], prices_pos, self.known)
        for setting in attributes_of(m.Player):  # all but the name (required) are the player's settings
            if not setting.required and setting.yaml in fields:
                setattr(target, setting.field, fields[setting.yaml])

    def _set_frontier(self, player: str, frontier: str, pos: Position) -> None:
        production = self.game.production = self.game.production or m.Production()
        if not self.known("production frontier", frontier, [f.name for f in production.frontiers], pos):
            return
        current = next((p for p in production.player_production if p.player == player), None)
        if current is None:
            production.player_production.append(m.PlayerFrontier(player, frontier, pos))
        else:
            current.frontier, current.pos = frontier, pos

    def _change_property(self, name: str, body: Raw, pos: Position) -> None:
        existing = {p.name: p for p in self.game.properties or []}
        if isinstance(body, dict):
            fields = self.r.fields(body, f"property {name}", pos, d.CHANGED_PROPERTY)
        else:
            fields = {"value": self.r.text(body, f"property {name}", pos)}
        prop = existing.get(name) or m.Property(name, pos=pos)
        for key in d.CHANGED_PROPERTY.names:  # they are the model's field names too
            if key in fields:
                setattr(prop, key, fields[key])
        if name not in existing:
            if fields.get("value") in ("true", "false"):
                prop.types = [m.PropertyType("boolean")]  # the 1.9 engine needs the marker to read a flag
            set_property(self.game, prop)

    # --- remove ---------------------------------------------------------------------------------------------

    def remove(self, data: Raw, pos: Position) -> None:
        r = self.r
        section = r.section(data, d.REMOVE, pos)
        if section is None:
            return
        at = section.position_of
        game = self.game
        for a, b, cpos in _pairs(r, section.get("connections"), at("connections")):
            before = len(game.connections)
            game.connections = [c for c in game.connections if {c.t1, c.t2} != {a, b}]
            if len(game.connections) == before:
                neighbours = sorted({c.t2 if c.t1 == a else c.t1 for c in game.connections if a in (c.t1, c.t2)})
                r.error("TG051", f"the base game has no connection between '{a}' and '{b}'", cpos,
                        f"{a} connects to: {', '.join(neighbours)}" if neighbours else
                        closest(a, [t.name for t in game.territories]) or "check both territory names")
        for name, npos in r.names(section.get("territories"), "remove territories", at("territories")):
            if self.known("territory", name, [t.name for t in game.territories], npos):
                self._remove_territory(name)
        for name, npos in r.names(section.get("properties"), "remove properties", at("properties")):
            if self.known("property", name, [p.name for p in game.properties or []], npos):
                game.properties = [p for p in game.properties or [] if p.name != name]
        for name, npos in r.names(section.get("steps"), "remove steps", at("steps")):
            if self.known("step", name, [s.name for s in game.steps or []], npos):
                game.steps = [s for s in game.steps or [] if s.name != name]
        seq = r.sequence(section.get("attachments"), "remove attachments", at("attachments")) or LocatedList()
        for index, body in enumerate(seq):
            apos = r.pos(body, seq.position_of(index))
            f = r.fields(body, "a removed attachment", apos, d.REMOVED_ATTACHMENT)
            target = self.attachment(f.get("name") or "", f.get("attachTo") or "", apos)
            if target is not None:
                game.attachments = [a for a in game.attachments or [] if a is not target]
        for name in d.REMOVE_KEYS:
            if name in section:
                remove_entries(r, game, name, section[name], at(name))

    def _remove_territory(self, name: str) -> None:
        game = self.game
        game.territories = [t for t in game.territories if t.name != name]
        game.connections = [c for c in game.connections if name not in (c.t1, c.t2)]
        if game.attachments is not None:
            game.attachments = [a for a in game.attachments if not (a.attach_to == name and a.type == "territory")]
        if game.initialize is not None:
            init = game.initialize
            if init.owners is not None:
                init.owners = [o for o in init.owners if o.territory != name]
            if init.units is not None:
                init.units = [u for u in init.units if u.territory != name]


def _pairs(r: SpecReader, data: Raw, pos: Position):
    seq = r.sequence(data, "remove connections", pos) or LocatedList()
    for index, item in enumerate(seq):
        ipos = seq.position_of(index)
        if isinstance(item, list) and len(item) == 2:
            yield r.text(item[0], "territory", ipos, True), r.text(item[1], "territory", ipos, True), ipos
        else:
            r.error("TG031", "each removed connection must be a pair [a, b]", ipos, "write [Territory A, Territory B]")


def rule_making(rules: list, name: str) -> tuple[str, int] | None:
    """(id, line) of the first rule whose add: or with: names `name` (a key or a value anywhere in
    them): a name the base game lacks that a rule writes there is one the rule makes."""
    for rule in rules:
        if not isinstance(rule, dict):
            continue
        for key in ("add", "with"):
            if key in rule and _names(rule[key], name):
                position = rule.pos if isinstance(rule, LocatedDict) else Position("")
                return str(rule.get("id")), position.line
    return None


def _names(value, name: str) -> bool:
    if isinstance(value, dict):
        return any(key == name or _names(item, name) for key, item in value.items())
    if isinstance(value, list):
        return any(_names(item, name) for item in value)
    return value == name
