"""The full-game YAML form, written from the model (used by `import`).

Sections are keyed by name where names are unique and fall back to lists where
the source repeats a name (real maps do: territory owners, properties), so that
nothing is lost. Small leaf collections are written in flow style to keep the
file short enough to read."""
from __future__ import annotations

import re
from typing import Any, TypeVar

import yaml

from generator.model import game as m
from generator.model.fields import attribute_named, yaml_items

D = TypeVar("D", bound=dict)
_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
_CANONICAL_INT = re.compile(r"-?(0|[1-9][0-9]{0,17})\Z")

FORMAT_NOTE = (
    "# TripleA game in triplea-gen's full-game YAML form.\n"
    "# Build it with: triplea-gen build THIS.yaml -o OUTDIR\n"
)


class Flow(dict):
    """A mapping written on one line."""


class FlowList(list):
    """A sequence written on one line."""


def _represent_str(dumper, value):
    style = "|" if "\n" in value and value.strip() == value.rstrip("\n").strip() else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(Flow, lambda d, v: d.represent_mapping("tag:yaml.org,2002:map", v.items(), flow_style=True))
_Dumper.add_representer(FlowList, lambda d, v: d.represent_sequence("tag:yaml.org,2002:seq", v, flow_style=True))
_Dumper.add_representer(str, _represent_str)


def scalar(value: str):
    """An XML string as the YAML scalar that reads back as the same string."""
    if _CANONICAL_INT.match(value):
        return int(value)
    if value == "true":
        return True
    if value == "false":
        return False
    return value


def _present(**fields) -> Flow:
    return Flow((key, scalar(value)) for key, value in fields.items() if value is not None)


def _entry(entity: object, *keys: str) -> Flow:
    """The attributes of an entity the spec writes (all of them, or `keys` in that order), absent ones left out."""
    return _present(**dict(yaml_items(entity, *keys)))


def _entry_but(entity: object, key: str) -> Flow:
    """_entry without the attribute `key`: it is the entry's key in the mapping form."""
    return _present(**{k: v for k, v in yaml_items(entity) if k != key})


def _name_keyed(items: list) -> dict | list:
    """Entities keyed by name (the rest of their attributes as the value), or the list form."""
    return _keyed(items, lambda item: item.name, lambda item: _entry_but(item, "name"), _entry)


def _unique(names) -> bool:
    names = list(names)
    return len(names) == len(set(names))


def _keyed(items, key, value, as_list):
    """A mapping key -> value when keys are unique, else a list that keeps every item."""
    if _unique(key(item) for item in items):
        return {key(item): value(item) for item in items}
    return [as_list(item) for item in items]


def _grouped(items, outer, inner, value):
    """{outer: {inner: value}} when grouping keeps the original order and loses nothing, else None."""
    groups: dict = {}
    last = None
    for item in items:
        o, i = outer(item), inner(item)
        if o is None or i is None:
            return None
        if o != last and o in groups:
            return None  # the group was interrupted: grouping would reorder
        group = groups.setdefault(o, Flow())
        if i in group:
            return None
        group[i] = value(item)
        last = o
    return groups


def _amounts(amounts: list[m.Amount]):
    return _keyed(amounts, lambda a: a.item, lambda a: scalar(a.quantity) if a.quantity is not None else None,
                  lambda a: FlowList([a.item, scalar(a.quantity) if a.quantity is not None else None]))


def _short_class(java_class: str, package: str) -> tuple[str, str]:
    rest = java_class[len(package):]
    if java_class.startswith(package) and "." not in rest and rest:
        return "class", rest
    return "javaClass", java_class


def _option_value(option: m.Option):
    if option.count is None:
        return scalar(option.value) if option.value is not None else None
    return _entry_but(option, "name")


def _options(options: list[m.Option]):
    names = [o.name for o in options]
    if _unique(names):
        return {o.name: _option_value(o) for o in options}
    grouped: dict = {}
    last = None
    for option in options:
        if option.name != last and option.name in grouped:
            # a repeated option interleaved with others: keep the exact order
            return [Flow({o.name: _option_value(o)}) for o in options]
        grouped.setdefault(option.name, []).append(_option_value(option))
        last = option.name
    return {name: (values[0] if len(values) == 1 else FlowList(values) if all(
        not isinstance(v, dict) for v in values) else values) for name, values in grouped.items()}


def _with_short_class(entity: m.Attachment | m.Delegate, package: str, data: D) -> D:
    """`data` with the entity's attributes added in their order, as the text they are (no scalar()), its
    class short (class:) where it can be."""
    java_class = attribute_named(type(entity), "javaClass").yaml
    for key, value in yaml_items(entity):
        if key == java_class:
            key, value = _short_class(value, package)
        if value is not None:
            data[key] = value
    return data


def _attachment(a: m.Attachment) -> dict:
    data = _with_short_class(a, m.ATTACHMENT_PACKAGE, {})
    data["options"] = _options(a.options)
    return data


def _property(p: m.Property) -> dict:
    data: dict[str, Any] = _entry_but(p, "name")
    types = [t.kind if not t.attributes else Flow({t.kind: _present(**t.attributes)}) for t in p.types]
    if len(types) == 1:
        data["type"] = types[0]
    elif types:
        data["type"] = FlowList(types)
    if p.text is not None:
        data = dict(data)
        data["text"] = p.text
    return data


def _step(s: m.Step) -> dict:
    data = _entry(s)
    if s.properties:
        data["properties"] = _keyed(s.properties, lambda p: p.name, lambda p: scalar(p.value) if p.value is not None
                                    else None, lambda p: FlowList([p.name, p.value]))
    return data


def _production(p: m.Production) -> dict:
    def rules(items):
        return _keyed(items, lambda r: r.name, lambda r: Flow(cost=_amounts(r.costs), result=_amounts(r.results)),
                      lambda r: Flow(name=r.name, cost=_amounts(r.costs), result=_amounts(r.results)))

    def frontiers(items):
        return _keyed(items, lambda f: f.name, lambda f: FlowList(f.rules), lambda f: Flow(name=f.name, rules=f.rules))

    def players(items):
        return _keyed(items, lambda p: p.player, lambda p: p.frontier, lambda p: FlowList([p.player, p.frontier]))

    data = {}
    for key, value, convert in (("rules", p.rules, rules), ("repairRules", p.repair_rules, rules),
                                ("repairFrontiers", p.repair_frontiers, frontiers),
                                ("frontiers", p.frontiers, frontiers),
                                ("playerProduction", p.player_production, players),
                                ("playerRepair", p.player_repair, players)):
        if value or key in ("rules", "frontiers", "playerProduction"):
            data[key] = convert(value)
    return data


def _technology(t: m.Technology) -> dict:
    data = {}
    if t.technologies is not None:
        data["technologies"] = _name_keyed(t.technologies)

    def categories(pt: m.PlayerTech):
        return _keyed(pt.categories, lambda c: c.name, lambda c: FlowList(c.techs),
                      lambda c: Flow(name=c.name, techs=FlowList(c.techs)))

    data["playerTech"] = _keyed(t.player_techs, lambda pt: pt.player, categories,
                                lambda pt: {"player": pt.player, "categories": categories(pt)})
    return data


def _placement_value(u: m.UnitPlacement):
    if u.hits_taken is None and u.unit_damage is None and u.quantity is not None:
        return scalar(u.quantity)
    return _entry(u, *m.UnitPlacement.COUNT_KEYS)


def _initialize(init: m.Initialize) -> dict:
    data = {}
    if init.owners is not None:
        data["owners"] = _keyed(init.owners, lambda o: o.territory, lambda o: o.owner,
                                lambda o: FlowList([o.territory, o.owner]))
    if init.units is not None:
        grouped = _grouped_placements(init.units)
        data["units"] = grouped if grouped is not None else [
            _entry(u, *m.UnitPlacement.SPEC_ORDER) for u in init.units]
    if init.held_units:
        data["heldUnits"] = [_entry(h, *m.HeldUnits.SPEC_ORDER) for h in init.held_units]
    if init.resources is not None:
        grouped = _grouped(init.resources, lambda g: g.player, lambda g: g.resource,
                           lambda g: scalar(g.quantity) if g.quantity is not None else None)
        data["resources"] = grouped if grouped is not None else [
            _entry(g) for g in init.resources]
    if init.relationships is not None:
        data["relationships"] = [
            FlowList([r.player1, r.player2, r.type] + ([scalar(r.round_value)] if r.round_value is not None else []))
            for r in init.relationships]
    return data


def _grouped_placements(units: list[m.UnitPlacement]):
    """{territory: {owner: {unitType: quantity}}} when that keeps order and loses nothing."""
    by_territory = _grouped(units, lambda u: u.territory, lambda u: (u.owner, u.unit_type), _placement_value)
    if by_territory is None:
        return None
    result = {}
    for territory, entries in by_territory.items():
        owners: dict = {}
        last = None
        for (owner, unit_type), value in entries.items():
            if owner != last and owner in owners:
                return None
            owners.setdefault(owner, Flow())[unit_type] = value
            last = owner
        result[territory] = owners
    return result


def _alliances(alliances: list[m.Alliance]):
    grouped = _grouped(alliances, lambda a: a.alliance, lambda a: a.player, lambda a: None)
    if grouped is not None:
        return {name: FlowList(players) for name, players in grouped.items()}
    return [FlowList([a.player, a.alliance]) for a in alliances]


def game_to_data(game: m.Game) -> dict:
    """The model as plain YAML data, sections in the game XML's order."""
    data: dict = {"info": _entry(game.info)}
    if game.doctype != "game.dtd":
        data["doctype"] = game.doctype
    if game.loader is not None:
        data["loader"] = game.loader
    if game.triplea_present:
        data["triplea"] = _present(minimumVersion=game.minimum_version)
    if game.dice_sides is not None:
        data["diceSides"] = scalar(game.dice_sides)
    if game.variables is not None:
        data["variables"] = _keyed(game.variables, lambda v: v[0], lambda v: FlowList(v[1]),
                                   lambda v: Flow(name=v[0], elements=FlowList(v[1])))
    map_data: dict = {}
    if game.grids:
        map_data["grids"] = [dict(_present(**g.attributes), **(
            {"water": [FlowList([scalar(c.x), scalar(c.y)]) for c in g.water]} if g.water else {}))
            for g in game.grids]
    map_data["territories"] = _name_keyed(game.territories)
    map_data["connections"] = [FlowList([c.t1, c.t2]) for c in game.connections]
    if game.remove_connections:
        map_data["removeConnections"] = [FlowList([c.t1, c.t2]) for c in game.remove_connections]
    data["map"] = map_data
    if game.resources is not None:
        data["resources"] = _name_keyed(game.resources)
    data["players"] = _name_keyed(game.players)
    data["alliances"] = _alliances(game.alliances)
    for key, items in (("units", game.units), ("relationshipTypes", game.relationship_types),
                       ("territoryEffects", game.territory_effects)):
        if items is not None:
            data[key] = FlowList(item.name for item in items) if len(items) <= 12 else [item.name for item in items]
    data["delegates"] = _keyed(game.delegates, lambda d: d.name, lambda d: _delegate(d),
                               lambda d: dict(name=d.name, **_delegate(d)))
    if game.steps is not None:
        data["sequence"] = [_step(s) for s in game.steps]
    if game.offset is not None:
        data["offset"] = scalar(game.offset)
    if game.production is not None:
        data["production"] = _production(game.production)
    if game.technology is not None:
        data["technology"] = _technology(game.technology)
    if game.attachments is not None:
        if game.legacy_attachment_spelling:
            data["legacySpelling"] = True
        data["attachments"] = [_attachment(a) for a in game.attachments]
    if game.initialize is not None:
        data["initialize"] = _initialize(game.initialize)
    if game.properties is not None:
        data["properties"] = _keyed(game.properties, lambda p: p.name, _property,
                                    lambda p: dict(name=p.name, **_property(p)))
    if game.extras:
        data["extra"] = [_extra(e) for e in game.extras]
    return data


def _extra(e: m.Extra) -> dict:
    """Verbatim content at its place; values stay strings (an attribute "1" is not the number 1)."""
    if e.attributes is not None:
        return Flow(at=e.at, attributes=Flow(e.attributes))
    return Flow(at=e.at, after=e.after, **({"xml": e.xml} if e.xml is not None else {"text": e.text}))


def _delegate(d: m.Delegate) -> Flow:
    data = _with_short_class(d, m.DELEGATE_PACKAGE, Flow())
    del data["name"]  # the key of the delegates' mapping
    return data


def dump_data(data) -> str:
    """YAML text of plain data built from scalar(), Flow and FlowList, as import writes it."""
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, default_flow_style=False,
                     width=4096)


def dump_game(game: m.Game) -> str:
    text = yaml.dump(game_to_data(game), Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                     default_flow_style=False, width=4096)
    return FORMAT_NOTE + text
