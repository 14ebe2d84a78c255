"""A scenario's game: the spec built (with or without the rules a control leaves out) and the
scenario's `given` written into that XML: owners, units, resources and relationships in
<initialize>, switches in the condition attachments, values in <propertyList>. The start round
and step are not XML (1.9 has no such element): the harness sets them.

Every name the scenario uses is checked against the built game here, with the scenario's YAML
position (TG204)."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from lxml import etree

from generator.core.diagnostics import Collector, Position, closest
from generator.scenarios.spec import Given, Scenario


@dataclass
class GameNames:
    """The names a scenario may use, as the built game declares them."""

    territories: list[str]
    players: list[str]
    units: list[str]
    resources: list[str]
    relationship_types: list[str]
    steps: list[str]
    triggers: list[str]
    conditions: list[str]
    properties: list[str]
    political_actions: list[str]
    user_actions: list[str]

    @classmethod
    def of(cls, root: etree._Element) -> GameNames:
        def names(path: str) -> list[str]:
            return [e.get("name") for e in root.iterfind(path) if e.get("name")]

        attachments = root.findall("attachmentList/attachment")
        return cls(territories=names("map/territory"), players=names("playerList/player"),
                   units=names("unitList/unit"), resources=names("resourceList/resource"),
                   relationship_types=names("relationshipTypes/relationshipType"),
                   steps=names("gamePlay/sequence/step"),
                   triggers=sorted({a.get("name") for a in attachments if _is_trigger(a)}),
                   conditions=sorted({a.get("name") for a in attachments if _has_switch(a)}),
                   properties=names("propertyList/property"),
                   political_actions=_attachments_of_class(attachments, "PoliticalActionAttachment"),
                   user_actions=_attachments_of_class(attachments, "UserActionAttachment"))


def _attachments_of_class(attachments, java_class: str) -> list[str]:
    return sorted({a.get("name") for a in attachments if (a.get("javaClass") or "").endswith(java_class)})


def _is_trigger(attachment) -> bool:
    return (attachment.get("javaClass") or "").endswith("TriggerAttachment")


def _has_switch(attachment) -> bool:
    return (attachment.get("javaClass") or "").endswith(("RulesAttachment", "PlayerAttachment")) or \
        (attachment.get("name") or "").startswith(("conditionAttachment", "rulesAttachment"))


@dataclass
class Variant:
    """The scenario's game XML and what the expectations compare with."""

    xml: bytes
    names: GameNames
    start_resources: dict[tuple[str, str], int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # what the given left that a reader may not expect


class _NameCheck:
    def __init__(self, names: GameNames, collector: Collector):
        self.names = names
        self.collector = collector

    def known(self, kind: str, name, candidates: list[str], pos: Position) -> bool:
        if name in candidates or (kind == "player" and name == "Neutral"):
            return True
        self.collector.error("TG204", f"the built game has no {kind} '{name}'", pos,
                             closest(str(name), candidates) or f"check the {kind} names of the built game")
        return False

    def trigger(self, text: str, pos: Position) -> bool:
        if any(text in name for name in self.names.triggers):
            return True
        self.collector.error("TG204", f"no trigger of the built game has '{text}' in its name", pos,
                             closest(text, self.names.triggers) or "a rule's triggers are named "
                             "triggerAttachment_<RULE ID with _ for ->_...; see the built XML")
        return False


def check_names(scenario: Scenario, names: GameNames, collector: Collector) -> None:
    """TG204 for every name of the scenario that the built game does not have."""
    check = _NameCheck(names, collector)
    given, play = scenario.given, scenario.play
    for key, pos in given.positions.items():
        kind, _, name = key.partition(":")
        if kind == "owners":
            check.known("territory", name, names.territories, pos)
            check.known("player", given.owners[name], names.players, pos)
        elif kind == "resources":
            check.known("player", name, names.players, pos)
            for resource in given.resources.get(name, {}):
                check.known("resource", resource, names.resources, pos)
        elif kind == "switches":
            check.known("condition", name, names.conditions, pos)
        elif kind == "properties":
            check.known("property", name, names.properties, pos)
        elif kind == "step":
            check.known("step", given.step, names.steps, pos)
    for index, (first, second, kind) in enumerate(given.relationships):
        pos = given.positions.get(f"relationships:{index}", scenario.position)
        check.known("player", first, names.players, pos)
        check.known("player", second, names.players, pos)
        check.known("relationship type", kind, names.relationship_types, pos)
    for change in given.units:
        check.known("territory", change.territory, names.territories, change.position)
        check.known("player", change.owner, names.players, change.position)
        for unit in list(change.add) + list(change.remove):
            check.known("unit type", unit, names.units, change.position)
    if play.until_step:
        check.known("step", play.until_step, names.steps, play.positions["until"])
    for player in play.players:
        check.known("player", player, names.players, play.positions[f"players:{player}"])
    for player, actions in play.actions.items():
        pos = play.positions[f"actions:{player}"]
        check.known("player", player, names.players, pos)
        for action in actions:
            check.known("political or user action", action, names.political_actions + names.user_actions, pos)
    for player, units in play.purchases.items():
        pos = play.positions[f"purchases:{player}"]
        check.known("player", player, names.players, pos)
        for unit in units:  # a production rule may sell a resource (e.g. kamikaze tokens) as well as a unit
            check.known("unit type or resource", unit, names.units + names.resources, pos)
    for player, moves in play.moves.items():
        check.known("player", player, names.players, play.positions[f"moves:{player}"])
        for move in moves:
            for territory in move.path:
                check.known("territory", territory, names.territories, move.position)
            for unit in move.units:
                check.known("unit type", unit, names.units, move.position)
    for player, territories in play.placements.items():
        pos = play.positions[f"placements:{player}"]
        check.known("player", player, names.players, pos)
        for territory, units in territories.items():
            check.known("territory", territory, names.territories, pos)
            for unit in units:
                check.known("unit type", unit, names.units, pos)
    for expectation in scenario.expect:
        value, pos = expectation.value, expectation.position
        if expectation.kind in ("fired", "not_fired"):
            check.trigger(value["trigger"], pos)
            if value["step"]:
                check.known("step", value["step"], names.steps, pos)
        elif expectation.kind == "resources":
            for player, resource in value:
                check.known("player", player, names.players, pos)
                check.known("resource", resource, names.resources, pos)
        elif expectation.kind == "owners":
            for territory, owner in value.items():
                check.known("territory", territory, names.territories, pos)
                check.known("player", owner, names.players, pos)
        elif expectation.kind in ("units", "no_units"):
            check.known("territory", value["territory"], names.territories, pos)
            if value["owner"] is not None:
                check.known("player", value["owner"], names.players, pos)
            for unit in value["units"]:
                check.known("unit type", unit, names.units, pos)
        elif expectation.kind == "relationships":
            for first, second, kind in value:
                check.known("player", first, names.players, pos)
                check.known("player", second, names.players, pos)
                check.known("relationship type", kind, names.relationship_types, pos)
        elif expectation.kind == "switches":
            for name in value:
                check.known("condition", name, names.conditions, pos)
        elif expectation.kind in ("message", "no_message") and value["to"] is not None:
            check.known("player", value["to"], names.players, pos)


def given_within(given: Given, names: GameNames) -> tuple[Given, list[str]]:
    """The given without what names a player, unit type or relationship type the game lacks (a
    control's game has not what its left-out rules make), and a line for each part left out."""
    players, units = set(names.players) | {"Neutral"}, set(names.units)
    left_out: list[str] = []

    def keep(ok: bool, what: str) -> bool:
        if not ok:
            left_out.append(what)
        return ok

    owners = {t: o for t, o in given.owners.items() if keep(o in players, f"owners: {t}: {o}")}
    changes = [c for c in given.units
               if keep(c.owner in players and set(c.add) | set(c.remove) <= units,
                       f"units in {c.territory} of {c.owner}")]
    resources = {p: r for p, r in given.resources.items() if keep(p in players, f"resources of {p}")}
    relationships = [r for r in given.relationships
                     if keep({r[0], r[1]} <= players and r[2] in names.relationship_types,
                             f"relationship {r[0]}-{r[1]}: {r[2]}")]
    return dataclasses.replace(given, owners=owners, units=changes, resources=resources,
                               relationships=relationships), left_out


def apply_given(xml: bytes, given: Given, collector: Collector) -> Variant:
    """The game XML with given's changes (names already checked by check_names)."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    root = etree.fromstring(xml, parser)
    initialize = _child(root, "initialize", before=("propertyList",))
    previous: dict[str, str] = {}  # territory -> its owner in the built game
    if given.owners:
        section = _child(initialize, "ownerInitialize", first=True)
        for territory, owner in given.owners.items():
            previous[territory] = "Neutral"
            for entry in _named(section, "territoryOwner", territory, "territory"):
                previous[territory] = entry.get("owner") or "Neutral"
                section.remove(entry)
            if owner != "Neutral":
                etree.SubElement(section, "territoryOwner", territory=territory, owner=owner)
    _clear_units(initialize, given)  # before the given units, so that units added there stay
    for change in given.units:
        _change_units(initialize, change, collector)
    notes = _units_left_behind(initialize, given, previous)
    if given.resources:
        section = _child(initialize, "resourceInitialize")
        for player, amounts in given.resources.items():
            for resource, amount in amounts.items():
                _set_entry(section, "resourceGiven", {"player": player, "resource": resource},
                           {"quantity": str(amount)})
    if given.relationships:
        section = _child(initialize, "relationshipInitialize")
        for first, second, kind in given.relationships:
            for entry in section.findall("relationship"):
                if {entry.get("player1"), entry.get("player2")} == {first, second}:
                    section.remove(entry)
            etree.SubElement(section, "relationship", type=kind, player1=first, player2=second, roundValue="0")
    for name, on in given.switches.items():
        for attachment in _named(root, "attachmentList/attachment", name):
            _set_entry(attachment, "option", {"name": "switch"}, {"value": "true" if on else "false"})
    for name, value in given.properties.items():
        for prop in _named(root, "propertyList/property", name):
            prop.set("value", _property_text(value))
    if not len(initialize):
        root.remove(initialize)
    data = etree.tostring(root.getroottree(), xml_declaration=True, encoding="UTF-8",
                          doctype=root.getroottree().docinfo.doctype or None)
    return Variant(data, GameNames.of(root), start_resources(root), notes)


def _placements_in(initialize, territory: str) -> list:
    return [e for e in initialize.iterfind("unitInitialize/unitPlacement") if e.get("territory") == territory]


def _clear_units(initialize, given: Given) -> None:
    """owners: {T: {owner: P, clear: true}}: every unit in T that P does not own is taken out."""
    for territory in sorted(given.cleared & set(given.owners)):
        for entry in _placements_in(initialize, territory):
            if (entry.get("owner") or "Neutral") != given.owners[territory]:
                entry.getparent().remove(entry)


def _units_left_behind(initialize, given: Given, previous: dict[str, str]) -> list[str]:
    """A note for each territory given to a new owner with the old owner's units still in it: the
    engine starts the game with both in one territory, so the new owner "holds" a territory full of
    the other's units (a battle, a blocked move or placement). Units the given adds there are meant."""
    notes = []
    for territory, owner in given.owners.items():
        old = previous.get(territory, "Neutral")
        if territory in given.cleared or old == owner or any(
                c.territory == territory and c.owner == old and c.add for c in given.units):
            continue
        counts: dict[str, int] = {}
        for entry in _placements_in(initialize, territory):
            if (entry.get("owner") or "Neutral") == old:
                unit = entry.get("unitType") or "?"
                counts[unit] = counts.get(unit, 0) + int(entry.get("quantity") or 0)
        counts = {unit: n for unit, n in counts.items() if n > 0}
        if counts:
            units = ", ".join(f"{n} {unit}" for unit, n in sorted(counts.items()))
            notes.append(f"given owners: {territory} is {owner}'s, but {old}'s units stay in it ({units}); "
                         f"to take them out write {territory}: {{owner: {owner}, clear: true}}")
    return notes


def start_resources(root: etree._Element) -> dict[tuple[str, str], int]:
    amounts: dict[tuple[str, str], int] = {}
    for entry in root.iterfind("initialize/resourceInitialize/resourceGiven"):
        amounts[(entry.get("player"), entry.get("resource"))] = int(entry.get("quantity") or 0)
    return amounts


def _property_text(value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _named(parent, path: str, name: str, attribute: str = "name") -> list:
    return [e for e in parent.iterfind(path) if e.get(attribute) == name]


# The order of <initialize>'s children in game.dtd.
_INITIALIZE_ORDER = ("ownerInitialize", "unitInitialize", "resourceInitialize", "relationshipInitialize")


def _child(parent, tag: str, first: bool = False, before: tuple[str, ...] = ()):
    """parent's <tag>, made (in the DTD's order) when it has none."""
    found = parent.find(tag)
    if found is not None:
        return found
    made = etree.Element(tag)
    if tag in _INITIALIZE_ORDER:
        later = _INITIALIZE_ORDER[_INITIALIZE_ORDER.index(tag) + 1:]
        anchor = next((c for c in parent if c.tag in later), None)
    else:
        anchor = next((c for c in parent if c.tag in before), None)
    if anchor is not None:
        anchor.addprevious(made)
    elif first and len(parent):
        parent.insert(0, made)
    else:
        parent.append(made)
    return made


def _set_entry(parent, tag: str, keys: dict[str, str], values: dict[str, str]) -> None:
    for entry in parent.findall(tag):
        if all(entry.get(k) == v for k, v in keys.items()):
            for k, v in values.items():
                entry.set(k, v)
            return
    etree.SubElement(parent, tag, {**keys, **values})


def _change_units(initialize, change, collector: Collector) -> None:
    section = _child(initialize, "unitInitialize")
    for unit, count in change.add.items():
        etree.SubElement(section, "unitPlacement", unitType=unit, territory=change.territory,
                         quantity=str(count), owner=change.owner)
    for unit, count in change.remove.items():
        placements = [e for e in section.findall("unitPlacement")
                      if e.get("unitType") == unit and e.get("territory") == change.territory
                      and (e.get("owner") or "Neutral") == change.owner]
        present = sum(int(e.get("quantity") or 0) for e in placements)
        wanted = present if count == "all" else count
        if wanted > present:
            collector.error("TG204", f"{change.territory} starts with {present} {unit} of {change.owner}, "
                            f"{wanted} cannot be removed", change.position,
                            "remove at most what the built game places there (or 'all')")
            continue
        for entry in placements:
            if wanted <= 0:
                break
            quantity = int(entry.get("quantity") or 0)
            taken = min(quantity, wanted)
            wanted -= taken
            if taken == quantity:
                section.remove(entry)
            else:
                entry.set("quantity", str(quantity - taken))
