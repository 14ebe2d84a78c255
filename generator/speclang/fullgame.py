"""Spec check and model building for the full-game YAML form.

Reads the located YAML data (generator.read.yamlio) section by section, reports every
shape problem in one pass (unknown keys with a suggestion, wrong types, missing
names) and builds the game model; every model entity keeps its YAML position."""
from __future__ import annotations

from typing import Iterator

from generator.model import game as m
from generator.model.fields import attributes_of, from_fields
from generator.core.diagnostics import Collector, DiagnosticError, Position
from generator.read.extras import parse_fragment
from generator.read.safexml import is_bare_file_name
from generator.read.yamlio import LocatedDict, LocatedList
from generator.speclang import declared as d
from generator.speclang.declared import ENGINES, GEOMETRY_KEYS
from generator.speclang.reader import SpecReader
from generator.speclang.shapes import Raw

__all__ = ["ENGINES", "SpecReader", "read_game", "read_steps"]  # SpecReader: re-exported for the later stages


def read_game(data: Raw, source: str, collector: Collector, what: str = "the spec", partial: bool = False) -> m.Game:
    """Build the model from a full-game spec; diagnostics go to the collector.

    With partial, the data is a fragment of a game (a mod's `add:` section) and needs no info."""
    r = SpecReader(source, collector)
    top = r.section(data, d.FULL_GAME_TOP, Position(source, 1, 1), what)
    game = m.Game(pos=r.pos(top))
    if top is None:
        return game
    at = top.position_of
    info = r.fields(top.get("info"), "info", at("info"), d.INFO)
    if "info" not in top and not partial:
        r.error("TG032", "the spec has no 'info' section", r.pos(top), "add: info: {name: My Game, version: '1.0'}")
    game.info = from_fields(m.Info, info, pos=at("info"))
    if "doctype" in top:
        game.doctype = r.text(top["doctype"], "doctype", at("doctype"))
        if game.doctype is not None and not is_bare_file_name(game.doctype):
            r.error("TG018", f"doctype {game.doctype[:200]!r} is not a bare file name like game.dtd", at("doctype"),
                    "write doctype: game.dtd (the engine reads its DTD from its own jar; a URL or a path could "
                    "make a parser fetch it)")
    game.loader = r.text(top.get("loader"), "loader", at("loader"))
    if "triplea" in top:
        game.triplea_present = True
        game.minimum_version = r.fields(top["triplea"], "triplea", at("triplea"), d.TRIPLEA).get(
            "minimumVersion")
    game.dice_sides = r.text(top.get("diceSides"), "diceSides", at("diceSides"))
    if "variables" in top:
        game.variables = [(name, [n for n, _ in r.names(_listed(r, body, d.VARIABLE, f"variable {name}"),
                                                          f"variable {name}", pos)])
                          for name, body, pos in r.entries(top["variables"], "variables", at("variables"), "name")]
    _read_map(r, top.get("map"), at("map"), game)
    if "resources" in top:
        game.resources = [from_fields(m.Resource, r.fields(body, f"resource {name}", pos, d.RESOURCE), name=name, pos=pos)
                          for name, body, pos in r.entries(top["resources"], "resources", at("resources"), "name")]
    for name, body, pos in r.entries(top.get("players"), "players", at("players"), "name"):
        f = r.fields(body, f"player {name}", pos, d.PLAYER)
        game.players.append(from_fields(m.Player, f, name=name, pos=pos))
    _read_alliances(r, top.get("alliances"), at("alliances"), game)
    for key, attr in (("units", "units"), ("relationshipTypes", "relationship_types"),
                      ("territoryEffects", "territory_effects")):
        if key in top:
            setattr(game, attr, [m.Named(name, pos) for name, pos in r.names(top[key], key, at(key))])
    for name, body, pos in r.entries(top.get("delegates"), "delegates", at("delegates"), "name"):
        f = r.fields(body, f"delegate {name}", pos, d.DELEGATE)
        game.delegates.append(from_fields(m.Delegate, f, name=name, pos=pos,
                                          java_class=_java_class(r, f, m.DELEGATE_PACKAGE, f"delegate {name}", pos)))
    if "sequence" in top:
        game.steps = read_steps(r, top["sequence"], at("sequence"))
    game.offset = r.text(top.get("offset"), "offset", at("offset"))
    if "production" in top:
        game.production = _read_production(r, top["production"], at("production"))
    if "technology" in top:
        game.technology = _read_technology(r, top["technology"], at("technology"))
    game.legacy_attachment_spelling = top.get("legacySpelling") is True
    if "attachments" in top:
        game.attachments = _read_attachments(r, top["attachments"], at("attachments"))
    if "initialize" in top:
        game.initialize = _read_initialize(r, top["initialize"], at("initialize"))
    if "properties" in top:
        game.properties = _read_properties(r, top["properties"], at("properties"))
    if "extra" in top:
        game.extras = _read_extras(r, top["extra"], at("extra"))
    return game


def _read_extras(r: SpecReader, data: Raw, pos: Position) -> list[m.Extra]:
    """Verbatim content (generator.read.extras): {at, after, xml | text} or {at, attributes}."""
    extras = []
    seq = r.sequence(data, "extra", pos) or LocatedList()
    for index, body in enumerate(seq):
        item_pos = r.pos(body, seq.position_of(index))
        f = r.fields(body, "an extra entry", item_pos, d.EXTRA)
        pieces = [key for key in ("xml", "text", "attributes") if key in f]
        if len(pieces) != 1:
            r.error("TG031", "an extra entry needs exactly one of xml, text or attributes", item_pos,
                    "write {at: PATH, after: N, xml: '<element .../>'} or {at: PATH, attributes: {name: value}}")
            continue
        after = f.get("after") or "0"
        if not after.isdigit():
            r.error("TG031", f"after of an extra entry must be a whole number, not '{after}'", item_pos,
                    "after counts the elements before it: 0 for the first place")
            continue
        extra = m.Extra(f.get("at") or "", int(after), pos=item_pos)
        if "attributes" in f:
            attributes = r.mapping(f["attributes"], "attributes of an extra entry", item_pos)
            extra.attributes = {str(k): r.text(v, f"attribute {k}", item_pos) or "" for k, v in
                                (attributes or {}).items()}
        elif "xml" in f:
            extra.xml = f["xml"] or ""
            try:
                parse_fragment(extra.xml, f"{r.source} (extra: xml)")
            except DiagnosticError as err:
                r.error("TG031", f"xml of an extra entry is not one well-formed element: "
                        f"{err.diagnostics[0].message}", item_pos, "write one XML element, e.g. <note a=\"1\"/>")
                continue
        else:
            extra.text = f["text"] or ""
        extras.append(extra)
    return extras


def _java_class(r: SpecReader, f: dict, package: str, what: str, pos: Position) -> str:
    if "javaClass" in f and "class" in f:
        r.error("TG031", f"{what} has both class and javaClass", pos, "keep one: class is the short name")
    if "javaClass" in f:
        return f["javaClass"] or ""
    if "class" in f:
        return package + (f["class"] or "")
    r.error("TG032", f"{what} has no class", pos, "add class: <ClassName>")
    return ""


def _pair_list(r: SpecReader, data: Raw, what: str, pos: Position) -> list[tuple[str, str, Position]]:
    seq = r.sequence(data, what, pos) or LocatedList()
    pairs = []
    for index, item in enumerate(seq):
        item_pos = seq.position_of(index)
        if not isinstance(item, list) or len(item) != 2:
            r.error("TG031", f"each item of {what} must be a pair [a, b]", item_pos, "write [Territory A, Territory B]")
            continue
        pairs.append((r.text(item[0], what, item_pos, True), r.text(item[1], what, item_pos, True), item_pos))
    return pairs


def _read_map(r: SpecReader, data: Raw, pos: Position, game: m.Game) -> None:
    section = r.section(data, d.MAP, pos)
    if section is None:
        return
    at = section.position_of
    for _index, grid in enumerate(r.sequence(section.get("grids"), "grids", at("grids")) or []):
        grid_pos = r.pos(grid, at("grids"))
        f = r.fields(grid, "grid", grid_pos, d.GRID)
        water = [m.GridWater(r.text(c[0], "water x", grid_pos, required=True),
                             r.text(c[1], "water y", grid_pos, required=True))
                 for c in (f.pop("water", None) or []) if isinstance(c, list) and len(c) == 2]
        game.grids.append(m.Grid({k: v for k, v in f.items() if v is not None}, water, grid_pos))
    for name, body, tpos in r.entries(section.get("territories"), "territories", at("territories"), "name"):
        f = r.fields(body, f"territory {name}", tpos, d.TERRITORY)
        game.territories.append(from_fields(m.Territory, f, name=name, pos=tpos))
    game.connections = [m.Connection(a, b, p) for a, b, p in
                        _pair_list(r, section.get("connections"), "connections", at("connections"))]
    game.remove_connections = [m.Connection(a, b, p) for a, b, p in
                               _pair_list(r, section.get("removeConnections"), "removeConnections",
                                          at("removeConnections"))]
    if any(key in section for key in GEOMETRY_KEYS):
        from generator.mapgen.reader import apply_geometry  # shapely loads only for specs that draw a map

        apply_geometry(r, section, game)


def _read_alliances(r: SpecReader, data: Raw, pos: Position, game: m.Game) -> None:
    if isinstance(data, dict):
        for alliance, members in data.items():
            apos = data.position_of(alliance)
            for player, ppos in r.names(members, f"alliance {alliance}", apos):
                game.alliances.append(m.Alliance(player, str(alliance), ppos))
    else:
        game.alliances = [m.Alliance(p, a, ap) for p, a, ap in _pair_list(r, data, "alliances", pos)]


def read_steps(r: SpecReader, data: Raw, pos: Position) -> list[m.Step]:
    steps = []
    seq = r.sequence(data, "sequence", pos) or LocatedList()
    for index, body in enumerate(seq):
        spos = r.pos(body, seq.position_of(index))
        f = r.fields(body, "step", spos, d.STEP)
        if "name" not in f:
            r.error("TG032", "step has no name", spos, "add name: <playerPhase>, e.g. germansPurchase")
        properties = [
            m.StepProperty(name, r.text(value[1] if isinstance(value, list) else value, f"step property {name}", ppos),
                           ppos)
            for name, value, ppos in r.entries(f.get("properties"), "step properties", spos, "name")]
        steps.append(from_fields(m.Step, f, properties=properties, pos=spos))
    return steps


def _amounts(r: SpecReader, data: Raw, what: str, pos: Position, kind: type[m.Amount]) -> list[m.Amount]:
    """A rule's costs (kind m.Cost) or results (m.Result): item → quantity, or [item, quantity]."""
    return [kind(name, r.text(value[1] if isinstance(value, list) and len(value) > 1 else
                                  (None if isinstance(value, list) else value), f"quantity of {name}", apos), apos)
            for name, value, apos in r.entries(data, what, pos, "name")]


def _read_rules(r: SpecReader, data: Raw, what: str, pos: Position) -> list[m.ProductionRule]:
    rules = []
    for name, body, rpos in r.entries(data, what, pos, "name"):
        if not isinstance(body, dict):
            r.error("TG031", f"{what} {name} must be a mapping with cost and result", rpos,
                    "write {cost: {PUs: 3}, result: {infantry: 1}}")
            continue
        r.check_keys(body, d.PRODUCTION_RULE.names, f"{what} {name}")
        rules.append(m.ProductionRule(name, _amounts(r, body.get("cost"), f"cost of {name}", rpos, m.Cost),
                                      _amounts(r, body.get("result"), f"result of {name}", rpos, m.Result), rpos))
    return rules


def _listed(r: SpecReader, body: Raw, declared: d.Section, what: str) -> Raw:
    """The names an entry holds: its body, or in the list form ({name: ..., LIST: [...]}) the declared list key."""
    if isinstance(body, dict):
        r.check_keys(body, declared.names, what)
        return body.get(declared.names[-1])
    return body


def _read_frontiers(r: SpecReader, data: Raw, what: str, pos: Position) -> list[m.Frontier]:
    frontiers = []
    for name, body, fpos in r.entries(data, what, pos, "name"):
        rules = _listed(r, body, d.FRONTIER_ENTRY, f"{what} {name}")
        frontiers.append(m.Frontier(name, [n for n, _ in r.names(rules, f"{what} {name}", fpos)], fpos))
    return frontiers


def _read_player_frontiers(r: SpecReader, data: Raw, what: str, pos: Position) -> list[m.PlayerFrontier]:
    return [m.PlayerFrontier(player, r.text(body[1] if isinstance(body, list) and len(body) > 1 else body,
                                            f"{what} of {player}", ppos, required=True), ppos)
            for player, body, ppos in r.entries(data, what, pos, "player")]


def _read_production(r: SpecReader, data: Raw, pos: Position) -> m.Production | None:
    section = r.section(data, d.PRODUCTION, pos)
    if section is None:
        return None
    at = section.position_of
    return m.Production(
        rules=_read_rules(r, section.get("rules"), "productionRule", at("rules")),
        repair_rules=_read_rules(r, section.get("repairRules"), "repairRule", at("repairRules")),
        repair_frontiers=_read_frontiers(r, section.get("repairFrontiers"), "repairFrontier", at("repairFrontiers")),
        frontiers=_read_frontiers(r, section.get("frontiers"), "productionFrontier", at("frontiers")),
        player_production=_read_player_frontiers(r, section.get("playerProduction"), "playerProduction",
                                                 at("playerProduction")),
        player_repair=_read_player_frontiers(r, section.get("playerRepair"), "playerRepair", at("playerRepair")),
    )


def _read_technology(r: SpecReader, data: Raw, pos: Position) -> m.Technology | None:
    section = r.section(data, d.TECHNOLOGY, pos)
    if section is None:
        return None
    at = section.position_of
    technology = m.Technology()
    if "technologies" in section:
        technology.technologies = [
            from_fields(m.TechName, r.fields(body, f"technology {name}", tpos, d.TECHNAME), name=name, pos=tpos)
            for name, body, tpos in r.entries(section["technologies"], "technologies", at("technologies"), "name")]
    for player, body, ppos in r.entries(section.get("playerTech"), "playerTech", at("playerTech"), "player"):
        categories_data = body.get("categories") if isinstance(body, dict) and "player" in body else body
        categories = []
        for name, cbody, cpos in r.entries(categories_data, f"playerTech {player}", ppos, "name"):
            techs = _listed(r, cbody, d.TECH_CATEGORY, f"category {name}")
            categories.append(m.TechCategory(name, [n for n, _ in r.names(techs, f"category {name}", cpos)], cpos))
        technology.player_techs.append(m.PlayerTech(player, categories, ppos))
    return technology


def _option_entries(r: SpecReader, data: Raw, what: str, pos: Position) -> Iterator[tuple[str, Raw, Position]]:
    """Options as a mapping (repeats as lists) or as a list of one-key mappings (exact order)."""
    if isinstance(data, dict):
        for name, value in data.items():
            opos = data.position_of(name)
            if isinstance(value, list):
                for index, item in enumerate(value):
                    yield str(name), item, value.position_of(index) if hasattr(value, "position_of") else opos
            else:
                yield str(name), value, opos
    elif isinstance(data, list):
        for index, item in enumerate(data):
            ipos = data.position_of(index)
            if not isinstance(item, dict) or len(item) != 1:
                r.error("TG031", f"each item of {what} must be one 'name: value'", ipos,
                        "use a mapping of options, or a list of one-key mappings to keep an exact order")
                continue
            (name, value), = item.items()
            yield str(name), value, ipos
    elif data is not None:
        r.error("TG031", f"{what} must be a mapping of option: value", pos, "write one 'option: value' per line")


def _read_attachments(r: SpecReader, data: Raw, pos: Position) -> list[m.Attachment]:
    attachments = []
    seq = r.sequence(data, "attachments", pos) or LocatedList()
    keys = d.ATTACHMENT.names
    body: Raw  # an item of located YAML is located YAML again
    for index, body in enumerate(seq):
        apos = r.pos(body, seq.position_of(index))
        if not isinstance(body, dict):
            r.error("TG031", "each attachment must be a mapping", apos, "write name:, attachTo:, class:, options:")
            continue
        r.check_keys(body, keys, "an attachment")
        at = body.position_of
        name = r.text(body.get("name"), "attachment name", apos, required=True)
        what = f"attachment {name}"
        found: dict[str, str | None] = {}
        for a in attributes_of(m.Attachment):
            if a.field == "java_class":  # written short (class:) or in full (javaClass:)
                found[a.yaml] = _java_class(r, {k: r.text(body[k], k, at(k)) for k in ("class", a.yaml) if k in body},
                                            m.ATTACHMENT_PACKAGE, what, apos)
            elif a.field != "name":
                found[a.yaml] = r.text(body.get(a.yaml), f"{a.yaml} of {what}", at(a.yaml), required=a.required)
        attachment = from_fields(m.Attachment, found, name=name, pos=apos)
        for option_name, value, opos in _option_entries(r, body.get("options"), f"options of {what}", at("options")):
            if isinstance(value, dict):
                r.check_keys(value, d.OPTION.names, f"option {option_name}")
                texts = {key: r.text(value.get(key), f"option {option_name}" if key == "value" else
                                     f"{key} of option {option_name}", opos) for key in d.OPTION.names}
                attachment.options.append(from_fields(m.Option, texts, name=option_name, pos=opos))
            else:
                attachment.options.append(m.Option(option_name, r.text(value, f"option {option_name}", opos), None,
                                                   opos))
        attachments.append(attachment)
    return attachments


def _read_initialize(r: SpecReader, data: Raw, pos: Position) -> m.Initialize | None:
    section = r.section(data, d.INITIALIZE, pos)
    if section is None:
        return None
    at = section.position_of
    init = m.Initialize()
    if "owners" in section:
        init.owners = [m.TerritoryOwner(t, r.text(body[1] if isinstance(body, list) and len(body) > 1 else body,
                                                  f"owner of {t}", opos, required=True), opos)
                       for t, body, opos in r.entries(section["owners"], "owners", at("owners"), "territory")]
    if "units" in section:
        init.units = _read_placements(r, section["units"], at("units"))
    for _index, body in enumerate(r.sequence(section.get("heldUnits"), "heldUnits", at("heldUnits")) or []):
        hpos = r.pos(body, at("heldUnits"))
        f = r.fields(body, "heldUnits entry", hpos, d.HELD_UNITS)
        init.held_units.append(from_fields(m.HeldUnits, f, pos=hpos))
    if "resources" in section:
        init.resources = _read_resources_given(r, section["resources"], at("resources"))
    if "relationships" in section:
        init.relationships = []
        seq = r.sequence(section["relationships"], "relationships", at("relationships")) or LocatedList()
        for index, item in enumerate(seq):
            rpos = seq.position_of(index)
            f = r.fields(item, "relationship", rpos, d.RELATIONSHIP, positional=True)
            init.relationships.append(from_fields(m.Relationship, f, pos=rpos))
    return init


def _read_placements(r: SpecReader, data: Raw, pos: Position) -> list[m.UnitPlacement]:
    placements = []
    keys = d.UNIT_PLACEMENT
    if isinstance(data, list):
        for index, body in enumerate(data):
            upos = r.pos(body, data.position_of(index))
            f = r.fields(body, "unit placement", upos, keys)
            placements.append(from_fields(m.UnitPlacement, f, pos=upos))
        return placements
    territories = r.mapping(data, "initialize units", pos) or LocatedDict()
    for territory, owners in territories.items():
        tpos = territories.position_of(territory)
        owners_map = r.mapping(owners, f"units in {territory}", tpos) or LocatedDict()
        for owner, units in owners_map.items():
            opos = owners_map.position_of(owner)
            units_map = r.mapping(units, f"units of {owner} in {territory}", opos) or LocatedDict()
            value: Raw
            for unit_type, value in units_map.items():
                upos = units_map.position_of(unit_type)
                if isinstance(value, dict):
                    f = r.fields(value, f"{unit_type} in {territory}", upos, d.UNIT_COUNT)
                else:
                    f = {"quantity": r.text(value, f"quantity of {unit_type} in {territory}", upos)}
                placements.append(from_fields(
                    m.UnitPlacement, f, unit_type=str(unit_type), territory=str(territory),
                    owner=None if owner is None else r.text(owner, "owner", opos), pos=upos))
    return placements


def _read_resources_given(r: SpecReader, data: Raw, pos: Position) -> list[m.ResourceGiven]:
    given = []
    if isinstance(data, list):
        for index, body in enumerate(data):
            gpos = r.pos(body, data.position_of(index))
            f = r.fields(body, "resource given", gpos, d.RESOURCE_GIVEN)
            given.append(from_fields(m.ResourceGiven, f, pos=gpos))
        return given
    players = r.mapping(data, "initialize resources", pos) or LocatedDict()
    for player, resources in players.items():
        ppos = players.position_of(player)
        resources_map = r.mapping(resources, f"resources of {player}", ppos) or LocatedDict()
        for resource, quantity in resources_map.items():
            rpos = resources_map.position_of(resource)
            given.append(m.ResourceGiven(str(player), str(resource),
                                         r.text(quantity, f"{resource} of {player}", rpos), rpos))
    return given


def _read_properties(r: SpecReader, data: Raw, pos: Position) -> list[m.Property]:
    properties = []
    keys = d.PROPERTY
    for name, body, ppos in r.entries(data, "properties", pos, "name"):
        f = r.fields(body, f"property {name}", ppos, keys)
        types = []
        type_data = f.get("type")
        for item in (type_data if isinstance(type_data, list) else [type_data] if type_data is not None else []):
            if isinstance(item, dict) and len(item) == 1:
                (kind, attributes), = item.items()
                attrs = r.mapping(attributes, f"type of property {name}", ppos) or LocatedDict()
                # a null value (min: ~) is an attribute left out, as the templates and the YAML writer have it
                types.append(m.PropertyType(str(kind), {str(k): text for k, v in attrs.items()
                                                        if (text := r.text(v, str(k), ppos)) is not None}))
            elif isinstance(item, str):
                types.append(m.PropertyType(item))
            else:
                r.error("TG031", f"type of property {name} must be a name such as boolean or number",
                        ppos, "write type: boolean, or type: {number: {min: 0, max: 10}}")
        properties.append(from_fields(m.Property, f, name=name, types=types, text=f.get("text"), pos=ppos))
    return properties
