"""`import MOD.xml --base BASE`: the overlay that turns the base game into the mod.

The two games are compared section by section (generator.model.compare). Each difference
is said in the form a modder reads where one says it exactly (`change: units:
{cruiser: {cost: 11}}`, `change: initialUnits:`, option edits of attachments), and
otherwise in the exact forms of generator.speclang.overlay_edit (`replace:`, `remove:`).
New entries go to `add:`. The overlay is then applied to the base in memory, the
way `build` applies it, and `place:` moves every entry that is not where the mod
has it; the result must equal the mod, which is checked before anything is written."""
from __future__ import annotations

import copy
from collections import Counter, defaultdict
from typing import Any, Callable
from pathlib import Path

from generator.model import game as m
from generator.model.fields import attributes_of, yaml_items
from generator.speclang.declared import CHANGED_PROPERTY
from generator.model.compare import SECTION_BY_NAME, SECTIONS, Section, identities
from generator.core.diagnostics import Collector, Diagnostic, Position, display_path
from generator.speclang.overlay import read_mod, rules_priced_by_cost, set_options
from generator.speclang.overlay_edit import OPTIONAL_PARTS, place_entries
from generator.speclang.fullgame import SpecReader
from generator.write.yamlform import Flow, FlowList, dump_data, game_to_data, scalar
from generator.read.yamlio import LocatedDict, LocatedList

OVERLAY_NOTE = (
    "# A mod in triplea-gen's overlay form: its base game plus the difference, extracted by\n"
    "# triplea-gen import MOD.xml --base BASE. Build it with: triplea-gen build THIS.yaml -o OUTDIR\n"
)
_SETTINGS = (("doctype", "doctype"), ("loader", "loader"), ("diceSides", "dice_sides"), ("offset", "offset"))


def _value(text: str | None):
    return None if text is None else scalar(text)


def identity_data(section: Section, identity: tuple):
    """An entry's key as the overlay writes it: a name, or [fields..., occurrence if not the first]."""
    key, occurrence = identity[:-1], identity[-1]
    if len(key) == 1 and not occurrence and key[0] is not None:
        return key[0]
    return FlowList(list(key) + ([occurrence] if occurrence else []))


class _Extraction:
    def __init__(self, base: m.Game, mod: m.Game):
        self.base = base
        self.mod = mod
        self.removals: dict[str, list] = defaultdict(list)
        self.added = m.Game(doctype="game.dtd")
        self.replaced = m.Game(doctype="game.dtd")
        self.settings: dict = {}
        # each section's change: form, a mapping (a list for steps, attachments, relationships), in the order
        # first touched (_changes, _change_list)
        self.change: dict[str, dict | list] = {}
        self.removed_territories: set[str] = set()
        self.new_steps: set[str] = set()
        self.new_players = [p.name for p in mod.players if p.name not in {q.name for q in base.players}]
        self.player_setups: dict[str, m.Game] = {}  # a new player's whole setup, in one add: fragment
        self._base_identities: dict[str, list[tuple]] = {}
        self.mod_attachment_counts = Counter((a.name, a.attach_to) for a in mod.attachments or [])
        self.mod_names = {name: {item.key(entry)[0] for entry in item.get(mod) or []} for name, item in
                          SECTION_BY_NAME.items() if name in ("territories", "players", "units", "resources")}

    # --- collecting -----------------------------------------------------------------------------------------

    def _add(self, game: m.Game, section: Section, item) -> None:
        section.set(game, (section.get(game) or []) + [item])

    def run(self) -> None:
        self._settings()
        gone = [name for name, (get, _) in OPTIONAL_PARTS.items()
                if get(self.mod) is None and get(self.base) is not None]
        # the smallest parts that go: technology rather than technology and technologies
        gone = [name for name in gone if not any(name != outer and name in OPTIONAL_PARTS[outer][1]
                                                 and outer in gone for outer in gone)]
        skipped = {section for name in gone for section in OPTIONAL_PARTS[name][1]}
        for section in SECTIONS:
            if section.name not in skipped:
                self._section(section)
        if gone:
            self.removals["parts"] = gone
        self._step_insertions()

    def _step_insertions(self) -> None:
        """New steps as `change: steps:` insertions next to the step they follow in the mod."""
        steps = self.mod.steps or []
        insertions, index = [], 0
        while index < len(steps):
            if steps[index].name not in self.new_steps:
                index += 1
                continue
            start = index
            while index < len(steps) and steps[index].name in self.new_steps:
                index += 1
            if start == 0 and index == len(steps):
                for step in steps:  # nothing to anchor at: every step is new
                    self._add(self.added, SECTION_BY_NAME["steps"], step)
                return
            anchor = {"after": steps[start - 1].name} if start else {"before": steps[index].name}
            run = m.Game(doctype="game.dtd", steps=steps[start:index])
            insertions.append(dict(anchor, add=game_to_data(run)["sequence"]))
        if insertions:
            self.change["steps"] = insertions

    def _settings(self) -> None:
        base, mod = self.base, self.mod
        for key, attr in _SETTINGS:
            if getattr(base, attr) != getattr(mod, attr):
                self.settings[key] = _value(getattr(mod, attr))
        if (base.triplea_present, base.minimum_version) != (mod.triplea_present, mod.minimum_version):
            self.settings["triplea"] = Flow(minimumVersion=_value(mod.minimum_version)) if mod.triplea_present \
                else None
        if base.legacy_attachment_spelling != mod.legacy_attachment_spelling:
            self.settings["legacySpelling"] = mod.legacy_attachment_spelling

    def _groups(self, section: Section, items) -> dict:
        group_key = (lambda c: tuple(sorted((c.t1, c.t2)))) if section.name == "connections" else section.key
        groups: dict = defaultdict(list)
        for item in items or []:
            groups[group_key(item)].append(item)
        return groups

    def _section(self, section: Section) -> None:
        old_groups = self._groups(section, section.get(self.base))
        new_groups = self._groups(section, section.get(self.mod))
        for key, new in new_groups.items():
            old = old_groups.get(key, [])
            if self._cascaded(section, new[0]):
                for item in new:  # kept in the mod, though its territory goes: back after the cascade
                    self._add(self.added, section, item)
                continue
            if old == new:
                continue
            if len(old) == 1 and len(new) == 1 and section.name != "connections":
                if not self._readable_change(section, old[0], new[0]):
                    self._add(self.replaced, section, new[0])
                continue
            if old:
                self._remove_all(section, old)
            for item in new:
                new_player = self._new_player_of(section, item)
                if section.name == "steps" and len(new) == 1 and not old:
                    self.new_steps.add(item.name)
                elif new_player is not None:
                    self._add(self.player_setups.setdefault(new_player, m.Game(doctype="game.dtd")), section, item)
                elif not (len(new) == 1 and not old and self._readable_add(section, item)):
                    self._add(self.added, section, item)
        for key, old in old_groups.items():
            if key not in new_groups:
                self._remove_all(section, old)

    def _new_player_of(self, section: Section, item) -> str | None:
        """The new player an added entry sets up (its player, alliance, frontier, attachments, ...)."""
        if not self.new_players:
            return None
        players = {"players": lambda: [item.name], "alliances": lambda: [item.player],
                   "playerProduction": lambda: [item.player], "playerRepair": lambda: [item.player],
                   "playerTech": lambda: [item.player], "attachments": lambda: [item.attach_to],
                   "owners": lambda: [item.owner], "unitPlacements": lambda: [item.owner],
                   "heldUnits": lambda: [item.player], "startingResources": lambda: [item.player],
                   "relationships": lambda: [item.player1, item.player2]}.get(section.name)
        if players is None:
            return None
        return next((p for p in players() if p in self.new_players), None)

    def _cascaded(self, section: Section, item) -> bool:
        """Removing a territory also removes its connections, territory attachments, owner and units."""
        gone = self.removed_territories
        if not gone:
            return False
        if section.name == "connections":
            return item.t1 in gone or item.t2 in gone
        if section.name == "attachments":
            return item.attach_to in gone and item.type == "territory"
        if section.name in ("owners", "unitPlacements"):
            return item.territory in gone
        return False

    def _remove_all(self, section: Section, old: list) -> None:
        kept = [item for item in old if not self._cascaded(section, item)]
        if not kept:
            return
        if section.name == "territories":
            self.removed_territories.add(old[0].name)
            self.removals["territories"].append(old[0].name)
        elif section.name == "connections":
            self.removals["connections"].append(FlowList([old[0].t1, old[0].t2]))
        elif section.name == "attachments":
            # each removal takes the attachment the engine uses (the last of that name): all of them, in turn
            self.removals["attachments"] += [Flow(name=old[0].name, attachTo=old[0].attach_to)] * len(old)
        elif section.name in ("properties", "steps"):
            self.removals[section.name].append(old[0].name)
        elif section.name == "owners" and len(old) == 1 and old[0].owner != "Neutral" and self._in_mod(
                territory=old[0].territory):
            self._territory_change(old[0].territory)["owner"] = "Neutral"
        elif section.name == "unitPlacements" and len(old) == 1 and self._in_mod(
                territory=old[0].territory, player=old[0].owner, unit=old[0].unit_type):
            self._initial_units(old[0])[old[0].unit_type] = 0
        else:
            ids = self._base_identities.setdefault(section.name, identities(section.get(self.base), section.key))
            wanted = {id(item) for item in kept}
            self.removals[section.name] += [identity_data(section, identity) for identity, item in
                                            zip(ids, section.get(self.base) or []) if id(item) in wanted]

    # --- forms a modder reads -------------------------------------------------------------------------------

    def _in_mod(self, territory=None, player=None, unit=None, resource=None) -> bool:
        """Whether the names a change: form checks exist when it is applied (after remove: and add:)."""
        names = self.mod_names
        return (territory is None or territory in names["territories"]) and \
            (player is None or player in names["players"]) and (unit is None or unit in names["units"]) and \
            (resource is None or resource in names["resources"])

    def _changes(self, section: str) -> dict:
        """The change: mapping of a section, made when first asked for (which places it in the output)."""
        found = self.change.setdefault(section, {})
        assert isinstance(found, dict), f"change: {section} is a list"
        return found

    def _change_list(self, section: str) -> list:
        found = self.change.setdefault(section, [])
        assert isinstance(found, list), f"change: {section} is a mapping"
        return found

    def _territory_change(self, territory: str) -> dict:
        return self._changes("territories").setdefault(territory, {})

    def _player_change(self, player: str) -> dict:
        return self._changes("players").setdefault(player, {})

    def _initial_units(self, placement: m.UnitPlacement) -> dict:
        owner = "Neutral" if placement.owner is None else placement.owner
        return self._changes("initialUnits").setdefault(placement.territory, {}).setdefault(owner, Flow())

    def _readable_change(self, section: Section, old, new) -> bool:
        # each takes the old and the new entry of its own section's model class
        handlers: dict[str, Callable[[Any, Any], bool]] = {
            "attachments": self._attachment_change, "productionRules": self._cost_change,
            "properties": self._property_change, "players": self._player_fields,
            "playerProduction": self._frontier_choice, "territories": self._water_change,
            "owners": self._owner_change, "unitPlacements": self._units_change,
            "startingResources": self._resource_change, "relationships": self._relationship_change,
            "frontiers": self._frontier_change}
        handler = handlers.get(section.name)
        return handler is not None and handler(old, new)

    def _readable_add(self, section: Section, new) -> bool:
        """A single new entry said in a change: form (the change appends it; place: puts it in order)."""
        if section.name == "owners":
            return self._owner_change(None, new)
        if section.name == "unitPlacements":
            return self._units_change(None, new)
        if section.name == "startingResources":
            return self._resource_change(None, new)
        if section.name == "playerProduction":
            return self._frontier_choice(None, new)
        return False

    def _attachment_change(self, old: m.Attachment, new: m.Attachment) -> bool:
        if (old.java_class, old.type, old.foreach) != (new.java_class, new.type, new.foreach):
            return False
        if self.mod_attachment_counts[(old.name, old.attach_to)] > 1:
            return False
        old_values, new_values = _option_lists(old.options), _option_lists(new.options)
        edits: dict[str, list[m.Option] | None] = {
            name: values for name, values in new_values.items() if old_values.get(name) != values}
        edits.update({name: None for name in old_values if name not in new_values})
        if any(option.value is None for option in new.options if option.name in edits):
            return False
        trial = copy.copy(old)
        trial.options = list(old.options)
        set_options(trial, [m.Option(name, option.value, option.count) for name, values in edits.items()
                            for option in (values or [m.Option(name, None)])])
        if trial.options != new.options:
            return False
        written = {name: _options_data(values) for name, values in edits.items()}
        units, territories = self.mod_names["units"], self.mod_names["territories"]
        if (new.name, new.class_name, new.type) == ("unitAttachment", "UnitAttachment", "unitType") \
                and new.attach_to in units and "cost" not in written:
            self._changes("units").setdefault(new.attach_to, {}).update(written)
        elif (new.name, new.class_name, new.type) == ("territoryAttachment", "TerritoryAttachment", "territory") \
                and new.attach_to in territories and not {"owner", "water"} & set(written):
            self._territory_change(new.attach_to).update(written)
        else:
            attachments = self._change_list("attachments")
            attachments.append({"name": new.name, "attachTo": new.attach_to, "options": written})
        return True

    def _cost_change(self, old: m.ProductionRule, new: m.ProductionRule) -> bool:
        if old.results != new.results or len(new.results) != 1 or new.results[0].quantity != "1":
            return False
        unit = new.results[0].item
        if unit not in {u.name for u in self.mod.units or []} or "cost" in self._changes("units").get(unit, {}):
            return False
        priced, _ = rules_priced_by_cost(self.mod.production.rules if self.mod.production else [], unit)
        resources = [a.item for a in new.costs]
        if [r.name for r in priced] != [new.name] or any(a.quantity is None for a in new.costs) \
                or len(set(resources)) != len(resources) or not new.costs:
            return False
        cost = _value(new.costs[0].quantity) if resources == ["PUs"] else \
            Flow((a.item, _value(a.quantity)) for a in new.costs)
        self._changes("units").setdefault(unit, {})["cost"] = cost
        return True

    def _property_change(self, old: m.Property, new: m.Property) -> bool:
        if (old.player, old.min, old.max, old.types) != (new.player, new.min, new.max, new.types):
            return False
        if sum(1 for p in self.mod.properties or [] if p.name == new.name) > 1:
            return False
        # the keys of a mod's property change are the model's field names
        fields = {key: getattr(new, key) for key in CHANGED_PROPERTY.names if getattr(old, key) != getattr(new, key)}
        if list(fields) == ["value"] and new.value is not None:
            self._changes("properties")[new.name] = scalar(new.value)
        else:
            self._changes("properties")[new.name] = Flow((k, _value(v) if k != "text" else v)
                                                       for k, v in fields.items())
        return True

    def _player_fields(self, old: m.Player, new: m.Player) -> bool:
        fields = self._player_change(new.name)
        for setting in attributes_of(m.Player):
            if not setting.required and getattr(old, setting.field) != getattr(new, setting.field):
                fields[setting.yaml] = _value(getattr(new, setting.field))
        return True

    def _frontier_choice(self, old: m.PlayerFrontier | None, new: m.PlayerFrontier) -> bool:
        if not self._in_mod(player=new.player):
            return False
        self._player_change(new.player)["frontier"] = new.frontier
        return True

    def _water_change(self, old: m.Territory, new: m.Territory) -> bool:
        self._territory_change(new.name)["water"] = _value(new.water)
        return True

    def _owner_change(self, old: m.TerritoryOwner | None, new: m.TerritoryOwner) -> bool:
        if new.owner == "Neutral" or not self._in_mod(territory=new.territory, player=new.owner):
            return False
        self._territory_change(new.territory)["owner"] = new.owner
        return True

    def _units_change(self, old: m.UnitPlacement | None, new: m.UnitPlacement) -> bool:
        if new.quantity in (None, "0") or new.owner == "Neutral" or not self._in_mod(
                territory=new.territory, player=new.owner, unit=new.unit_type):
            return False
        value = scalar(new.quantity) if new.hits_taken is None and new.unit_damage is None else \
            Flow((k, scalar(v)) for k, v in yaml_items(new, *m.UnitPlacement.COUNT_KEYS) if v is not None)
        if old is not None and (old.hits_taken, old.unit_damage) != (new.hits_taken, new.unit_damage) \
                and (new.hits_taken is None or new.unit_damage is None):
            return False  # a value that goes away cannot be said by leaving it out
        self._initial_units(new)[new.unit_type] = value
        return True

    def _resource_change(self, old: m.ResourceGiven | None, new: m.ResourceGiven) -> bool:
        if new.quantity is None or not self._in_mod(player=new.player, resource=new.resource):
            return False
        self._changes("resources").setdefault(new.player, Flow())[new.resource] = scalar(new.quantity)
        return True

    def _relationship_change(self, old: m.Relationship, new: m.Relationship) -> bool:
        pair = {new.player1, new.player2}
        if not self._in_mod(player=new.player1) or not self._in_mod(player=new.player2):
            return False
        base_relationships = (self.base.initialize.relationships if self.base.initialize else None) or []
        if sum(1 for r in base_relationships if {r.player1, r.player2} == pair) != 1:
            return False
        if old.round_value != new.round_value and new.round_value is None:
            return False
        entry = [new.player1, new.player2, new.type] + \
            ([scalar(new.round_value)] if new.round_value is not None and old.round_value != new.round_value else [])
        self._change_list("relationships").append(FlowList(entry))
        return True

    def _frontier_change(self, old: m.Frontier, new: m.Frontier) -> bool:
        removed = [rule for rule in old.rules if rule not in new.rules]
        added = [rule for rule in new.rules if rule not in old.rules]
        kept = [rule for rule in old.rules if rule not in removed]
        if kept + added != new.rules or len(set(old.rules)) != len(old.rules):
            return False
        edit = Flow()
        if added:
            edit["add"] = FlowList(added)
        if removed:
            edit["remove"] = FlowList(removed)
        self._changes("frontiers")[new.name] = edit
        return True

    # --- the overlay ----------------------------------------------------------------------------------------

    def overlay(self, header: dict) -> dict:
        data: dict = {"mod": header}
        if self.removals:
            data["remove"] = {name: FlowList(values) if all(isinstance(v, str) for v in values) else values
                              for name, values in self.removals.items()}
        replaced = dict(self.settings)
        replaced.update(_fragment_data(self.replaced))
        if replaced:
            data["replace"] = replaced
        fragments = [_fragment_data(self.added)] + [_fragment_data(self.player_setups[p]) for p in self.new_players
                                                     if p in self.player_setups]
        fragments = [fragment for fragment in fragments if fragment]
        if fragments:
            data["add"] = fragments[0] if len(fragments) == 1 else fragments
        change = {key: value for key, value in self.change.items() if value}
        if change:
            data["change"] = {key: value if key == "steps" else _flow_values(value) for key, value in change.items()}
        return data


def _option_lists(options: list[m.Option]) -> dict[str, list[m.Option]]:
    grouped: dict[str, list[m.Option]] = {}
    for option in options:
        grouped.setdefault(option.name, []).append(option)
    return grouped


def _options_data(values: list[m.Option] | None):
    if values is None:
        return None
    written = []
    for o in values:
        assert o.value is not None, "an option without a value is no change: form (_attachment_change)"
        written.append(scalar(o.value) if o.count is None else Flow(value=scalar(o.value), count=scalar(o.count)))
    if len(written) == 1:
        return written[0]
    return FlowList(written) if not any(isinstance(v, dict) for v in written) else written


def _flow_values(value):
    """One line per unit, territory, player: their changed keys in flow style."""
    if isinstance(value, dict) and not isinstance(value, Flow):
        return {k: Flow(v) if isinstance(v, dict) and not isinstance(v, Flow) and not any(
            isinstance(x, dict) and not isinstance(x, Flow) for x in v.values()) else _flow_values(v)
                for k, v in value.items()}
    if isinstance(value, list):
        return [Flow(v) if isinstance(v, dict) and "options" not in v else v for v in value]
    return value


def _fragment_data(fragment: m.Game) -> dict:
    """The full-game form of the sections a fragment holds (game_to_data writes every section)."""
    data = game_to_data(fragment)
    data.pop("info", None)
    for key in list(data):
        value = data[key]
        if key in ("map", "production", "technology", "initialize") and isinstance(value, dict):
            for inner in [k for k, v in value.items() if v in ({}, [], None)]:
                del value[inner]
        if value in ({}, [], None):
            del data[key]
    return data


# --- place: -----------------------------------------------------------------------------------------------------

def _increasing_run(positions: list[int]) -> set[int]:
    """Indexes (into positions) of one longest increasing subsequence (patience sorting)."""
    import bisect

    tails: list[int] = []
    tail_index: list[int] = []
    previous = [-1] * len(positions)
    for i, value in enumerate(positions):
        at = bisect.bisect_left(tails, value)
        if at == len(tails):
            tails.append(value)
            tail_index.append(i)
        else:
            tails[at] = value
            tail_index[at] = i
        previous[i] = tail_index[at - 1] if at else -1
    kept, i = set(), tail_index[-1] if tail_index else -1
    while i != -1:
        kept.add(i)
        i = previous[i]
    return kept


def place_groups(section: Section, current: list[tuple], target: list[tuple]) -> list | None:
    """`place:` entries that turn the current order into the target order (None: not the same entries)."""
    if current == target:
        return []
    where = {identity: index for index, identity in enumerate(current)}
    if len(where) != len(target) or any(identity not in where for identity in target):
        return None
    stays = _increasing_run([where[identity] for identity in target])
    groups, index = [], 0
    while index < len(target):
        if index in stays:
            index += 1
            continue
        start = index
        while index < len(target) and index not in stays:
            index += 1
        moved = FlowList(identity_data(section, identity) for identity in target[start:index])
        anchor = Flow(at="start") if start == 0 else Flow(after=identity_data(section, target[start - 1]))
        groups.append(Flow(anchor, move=moved))
    return groups


# --- the overlay, applied and checked ---------------------------------------------------------------------

def located(data, pos: Position):
    """Plain overlay data as the spec readers take it from a YAML file, every position at pos: what is
    applied here is what the text says (scalar() values read back as themselves), without parsing it."""
    result: LocatedDict | LocatedList
    if isinstance(data, dict):
        result = LocatedDict((key, located(value, pos)) for key, value in data.items())
    elif isinstance(data, list):
        result = LocatedList(located(value, pos) for value in data)
    else:
        return data
    result.pos = pos
    return result


def extract(base: m.Game, mod: m.Game, base_ref, output: Path) -> tuple[str, list[Diagnostic]]:
    """The overlay's text, and warnings when it could not say the mod exactly (base is consumed)."""
    extraction = _Extraction(base, mod)
    extraction.run()
    header = {"name": mod.info.name, "version": _value(mod.info.version), "base": base_ref}
    header = {k: v for k, v in header.items() if v is not None}
    data = extraction.overlay(header)
    shown = display_path(output)
    collector = Collector()
    where = Position(shown, 1, 1)
    applied, _ = read_mod(located(data, where), shown, output.resolve().parent, collector, lambda _: base)
    place = {}
    for section in SECTIONS:
        current = identities(section.get(applied) or [], section.key)
        target = identities(section.get(mod) or [], section.key)
        groups = place_groups(section, current, target)
        if groups:
            place[section.name] = groups
    if place:
        data["place"] = place
        place_entries(SpecReader(shown, collector), applied, located(place, where), where)
    return OVERLAY_NOTE + dump_data(data), list(collector.diagnostics) + _differences(applied, mod, shown)


def _differences(applied: m.Game, mod: m.Game, shown: str) -> list[Diagnostic]:
    """What the overlay, built, would still get wrong (nothing, unless a form cannot say it)."""
    if applied == mod:
        return []
    wrong = [section.name for section in SECTIONS if section.get(applied) != section.get(mod)]
    wrong += [key for key, attr in _SETTINGS + (("info", "info"),) if getattr(applied, attr) != getattr(mod, attr)]
    return [Diagnostic("TG080", f"the overlay does not give back the mod exactly in: {', '.join(wrong) or 'the game'}",
                       Position(shown, 1, 1), "compare with triplea-gen diff, and fix those sections by hand",
                       severity="warning")]
