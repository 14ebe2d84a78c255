"""Spec check and model building for the full-game YAML form.

Reads the located YAML data (generator.read.yamlio) section by section, reports every
shape problem in one pass (unknown keys with a suggestion, wrong types, missing
names) and builds the game model; every model entity keeps its YAML position."""
from __future__ import annotations

from generator.model import game as m
from generator.core.diagnostics import Collector, DiagnosticError, Position, closest
from generator.read.extras import parse_fragment
from generator.read.yamlio import LocatedDict, LocatedList
from generator.read.safexml import is_bare_file_name

# Keys of the `map:` section that describe generated geometry (generator.mapgen reads them).
GEOMETRY_KEYS: tuple[str, ...] = ("hexes", "squares", "sites", "polygons", "extraConnections", "blockedConnections",
                                  "style")

TOP_LEVEL_KEYS = (
    "info", "doctype", "loader", "triplea", "diceSides", "variables", "map", "resources", "players", "alliances",
    "units", "relationshipTypes", "territoryEffects", "delegates", "sequence", "offset", "production",
    "technology", "legacySpelling", "attachments", "initialize", "properties", "extra",
    "engine", "rules",  # read by the pipeline: the target engine, and rules expanded by generator.rules.expand
    "assets", "texts",  # the map folder's images and texts (generator.write.modfolder)
    "scenarios",  # engine tests of the rules, not built into the game (generator.scenarios)
)
ENGINES = ("1.9", "current")

# The keys each construct of the full-game form accepts. The readers below and the JSON Schema for
# editors (generator.build.jsonschema) are both made from this table, so the two cannot disagree.
KEYS = {
    "info": ("name", "version"),
    "triplea": ("minimumVersion",),
    "grid": ("name", "type", "x", "y", "horizontal-connections", "vertical-connections", "diagonal-connections",
             "water"),
    "territory": ("name", "water"),
    "resource": ("name", "isDisplayedFor"),
    "player": ("name", "optional", "canBeDisabled", "defaultType", "isHidden"),
    "delegate": ("name", "class", "javaClass", "display"),
    "step": ("name", "delegate", "player", "maxRunCount", "display", "properties"),
    "production": ("rules", "repairRules", "repairFrontiers", "frontiers", "playerProduction", "playerRepair"),
    "productionRule": ("name", "cost", "result"),
    "technology": ("technologies", "playerTech"),
    "techname": ("name", "tech"),
    "attachment": ("name", "attachTo", "class", "javaClass", "type", "foreach", "options"),
    "option": ("value", "count"),
    "initialize": ("owners", "units", "heldUnits", "resources", "relationships"),
    "unitPlacement": ("territory", "owner", "unitType", "quantity", "hitsTaken", "unitDamage"),
    "unitCount": ("quantity", "hitsTaken", "unitDamage"),
    "heldUnits": ("player", "unitType", "quantity"),
    "resourceGiven": ("player", "resource", "quantity"),
    "relationship": ("player1", "player2", "type", "roundValue"),
    "property": ("name", "value", "editable", "player", "min", "max", "type", "text"),
    "extra": ("at", "after", "xml", "text", "attributes"),
}


class SpecReader:
    """Small typed accessors over located YAML data that report instead of raising."""

    def __init__(self, source: str, collector: Collector):
        self.source = source
        self.collector = collector

    def pos(self, data, fallback: Position | None = None) -> Position:
        return getattr(data, "pos", None) or fallback or Position(self.source)

    def error(self, code: str, message: str, pos: Position, hint: str) -> None:
        self.collector.error(code, message, pos, hint)

    def mapping(self, data, what: str, pos: Position, allowed=None) -> LocatedDict | None:
        if data is None:
            empty = LocatedDict()
            empty.pos = pos
            return empty
        if not isinstance(data, dict):
            self.error("TG031", f"{what} must be a mapping (key: value), not {_kind(data)}", pos,
                       f"write {what} as indented 'key: value' lines")
            return None
        if allowed is not None:
            self.check_keys(data, allowed, what)
        return data

    def check_keys(self, data: LocatedDict, allowed, what: str) -> None:
        for key in data:
            if key not in allowed:
                suggestion = closest(str(key), allowed)
                self.error("TG030", f"unknown key '{key}' in {what}", data.position_of(key),
                           suggestion or f"allowed keys: {', '.join(allowed)}")

    def sequence(self, data, what: str, pos: Position) -> LocatedList | None:
        if data is None:
            empty = LocatedList()
            empty.pos = pos
            return empty
        if not isinstance(data, list):
            self.error("TG031", f"{what} must be a list, not {_kind(data)}", pos, f"write {what} as '- item' lines")
            return None
        return data

    def text(self, value, what: str, pos: Position, required: bool = False) -> str | None:
        """A scalar as the exact string the XML will hold."""
        if value is None:
            if required:
                self.error("TG032", f"{what} is missing", pos, f"give {what} a value")
                return ""
            return None
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (int, str)):
            return str(value)
        if isinstance(value, float):
            return repr(value)
        self.error("TG031", f"{what} must be a single value, not {_kind(value)}", pos,
                   "quote the value if it is meant as text")
        return ""

    def entries(self, data, what: str, pos: Position, key_name: str):
        """Keyed sections: a mapping name -> body, or a list of bodies that carry the name.

        Yields (name, body, position) for each entry; body is a mapping, list or scalar."""
        if data is None:
            return
        if isinstance(data, dict):
            for key, body in data.items():
                yield self.text(key, f"a name in {what}", data.position_of(key)), body, data.position_of(key)
        elif isinstance(data, list):
            for index, body in enumerate(data):
                item_pos = data.position_of(index)
                if isinstance(body, dict):
                    name = self.text(body.get(key_name), f"{key_name} of an entry in {what}", self.pos(body, item_pos),
                                     required=True)
                    yield name, body, self.pos(body, item_pos)
                elif isinstance(body, list) and body:
                    yield self.text(body[0], f"an entry in {what}", item_pos, required=True), body, item_pos
                else:
                    self.error("TG031", f"each entry in {what} must be a mapping or a list", item_pos,
                               f"write entries as '{{{key_name}: ...}}'")
        else:
            self.error("TG031", f"{what} must be a mapping or a list, not {_kind(data)}", pos,
                       "write one entry per line")

    def fields(self, body, what: str, pos: Position, allowed: tuple[str, ...], positional=False) -> dict:
        """The fields of one entry: a mapping with known keys, or (positional) a flow list."""
        if body is None:
            return {}
        if isinstance(body, dict):
            self.check_keys(body, allowed, what)
            return {key: self.text(body.get(key), f"{key} of {what}", body.position_of(key)) for key in allowed
                    if key in body and not isinstance(body.get(key), (dict, list))} | {
                key: body[key] for key in allowed if isinstance(body.get(key), (dict, list))}
        if positional and isinstance(body, list):
            if len(body) > len(allowed):
                self.error("TG031", f"{what} has {len(body)} values, at most {len(allowed)} expected", pos,
                           f"write it as [{', '.join(allowed)}]")
            return {key: self.text(value, f"{key} of {what}", pos) for key, value in zip(allowed, body)}
        self.error("TG031", f"{what} must be a mapping, not {_kind(body)}", pos,
                   f"write it as {{{', '.join(allowed)}}}")
        return {}

    def names(self, data, what: str, pos: Position) -> list[tuple[str, Position]]:
        seq = self.sequence(data, what, pos)
        if seq is None:
            return []
        return [(self.text(item, f"an item of {what}", seq.position_of(i), required=True) or "", seq.position_of(i))
                for i, item in enumerate(seq)]


def _kind(value) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    return f"the value {value!r}"


def read_game(data, source: str, collector: Collector, what: str = "the spec", partial: bool = False) -> m.Game:
    """Build the model from a full-game spec; diagnostics go to the collector.

    With partial, the data is a fragment of a game (a mod's `add:` section) and needs no info."""
    r = SpecReader(source, collector)
    top = r.mapping(data, what, Position(source, 1, 1), TOP_LEVEL_KEYS)
    game = m.Game(pos=r.pos(top))
    if top is None:
        return game
    at = top.position_of
    info = r.fields(top.get("info"), "info", at("info"), KEYS["info"])
    if "info" not in top and not partial:
        r.error("TG032", "the spec has no 'info' section", r.pos(top), "add: info: {name: My Game, version: '1.0'}")
    game.info = m.Info(info.get("name"), info.get("version"), at("info"))
    if "doctype" in top:
        game.doctype = r.text(top["doctype"], "doctype", at("doctype"))
        if game.doctype is not None and not is_bare_file_name(game.doctype):
            r.error("TG018", f"doctype {game.doctype[:200]!r} is not a bare file name like game.dtd", at("doctype"),
                    "write doctype: game.dtd (the engine reads its DTD from its own jar; a URL or a path could "
                    "make a parser fetch it)")
    game.loader = r.text(top.get("loader"), "loader", at("loader"))
    if "triplea" in top:
        game.triplea_present = True
        game.minimum_version = r.fields(top["triplea"], "triplea", at("triplea"), KEYS["triplea"]).get(
            "minimumVersion")
    game.dice_sides = r.text(top.get("diceSides"), "diceSides", at("diceSides"))
    if "variables" in top:
        game.variables = [(name, [n for n, _ in r.names(body if not isinstance(body, dict) else body.get("elements"),
                                                          f"variable {name}", pos)])
                          for name, body, pos in r.entries(top["variables"], "variables", at("variables"), "name")]
    _read_map(r, top.get("map"), at("map"), game)
    if "resources" in top:
        game.resources = [m.Resource(name, r.fields(body, f"resource {name}", pos, KEYS["resource"]).get(
            "isDisplayedFor"), pos) for name, body, pos in r.entries(top["resources"], "resources", at("resources"),
                                                                      "name")]
    for name, body, pos in r.entries(top.get("players"), "players", at("players"), "name"):
        f = r.fields(body, f"player {name}", pos, KEYS["player"])
        game.players.append(m.Player(name, f.get("optional"), f.get("canBeDisabled"), f.get("defaultType"),
                                     f.get("isHidden"), pos))
    _read_alliances(r, top.get("alliances"), at("alliances"), game)
    for key, attr in (("units", "units"), ("relationshipTypes", "relationship_types"),
                      ("territoryEffects", "territory_effects")):
        if key in top:
            setattr(game, attr, [m.Named(name, pos) for name, pos in r.names(top[key], key, at(key))])
    for name, body, pos in r.entries(top.get("delegates"), "delegates", at("delegates"), "name"):
        f = r.fields(body, f"delegate {name}", pos, KEYS["delegate"])
        game.delegates.append(m.Delegate(name, _java_class(r, f, m.DELEGATE_PACKAGE, f"delegate {name}", pos),
                                         f.get("display"), pos))
    if "sequence" in top:
        game.steps = _read_steps(r, top["sequence"], at("sequence"))
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


def _read_extras(r: SpecReader, data, pos: Position) -> list[m.Extra]:
    """Verbatim content (generator.read.extras): {at, after, xml | text} or {at, attributes}."""
    extras = []
    for index, body in enumerate(r.sequence(data, "extra", pos) or []):
        item_pos = r.pos(body, data.position_of(index))
        f = r.fields(body, "an extra entry", item_pos, KEYS["extra"])
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


def _pair_list(r: SpecReader, data, what: str, pos: Position) -> list[tuple[str, str, Position]]:
    seq = r.sequence(data, what, pos)
    pairs = []
    for index, item in enumerate(seq or []):
        item_pos = seq.position_of(index)
        if not isinstance(item, list) or len(item) != 2:
            r.error("TG031", f"each item of {what} must be a pair [a, b]", item_pos, "write [Territory A, Territory B]")
            continue
        pairs.append((r.text(item[0], what, item_pos, True), r.text(item[1], what, item_pos, True), item_pos))
    return pairs


MAP_KEYS = ("grids", "territories", "connections", "removeConnections")


def _read_map(r: SpecReader, data, pos: Position, game: m.Game) -> None:
    section = r.mapping(data, "map", pos, MAP_KEYS + GEOMETRY_KEYS)
    if section is None:
        return
    at = section.position_of
    for index, grid in enumerate(r.sequence(section.get("grids"), "grids", at("grids")) or []):
        grid_pos = r.pos(grid, at("grids"))
        f = r.fields(grid, "grid", grid_pos, KEYS["grid"])
        water = [m.GridWater(r.text(c[0], "water x", grid_pos), r.text(c[1], "water y", grid_pos))
                 for c in (f.pop("water", None) or []) if isinstance(c, list) and len(c) == 2]
        game.grids.append(m.Grid({k: v for k, v in f.items() if v is not None}, water, grid_pos))
    for name, body, tpos in r.entries(section.get("territories"), "territories", at("territories"), "name"):
        f = r.fields(body, f"territory {name}", tpos, KEYS["territory"])
        game.territories.append(m.Territory(name, f.get("water"), tpos))
    game.connections = [m.Connection(a, b, p) for a, b, p in
                        _pair_list(r, section.get("connections"), "connections", at("connections"))]
    game.remove_connections = [m.Connection(a, b, p) for a, b, p in
                               _pair_list(r, section.get("removeConnections"), "removeConnections",
                                          at("removeConnections"))]
    if any(key in section for key in GEOMETRY_KEYS):
        from generator.mapgen.reader import apply_geometry  # shapely loads only for specs that draw a map

        apply_geometry(r, section, game)


def _read_alliances(r: SpecReader, data, pos: Position, game: m.Game) -> None:
    if isinstance(data, dict):
        for alliance, members in data.items():
            apos = data.position_of(alliance)
            for player, ppos in r.names(members, f"alliance {alliance}", apos):
                game.alliances.append(m.Alliance(player, str(alliance), ppos))
    else:
        game.alliances = [m.Alliance(p, a, ap) for p, a, ap in _pair_list(r, data, "alliances", pos)]


def _read_steps(r: SpecReader, data, pos: Position) -> list[m.Step]:
    steps = []
    seq = r.sequence(data, "sequence", pos) or []
    for index, body in enumerate(seq):
        spos = r.pos(body, seq.position_of(index))
        f = r.fields(body, "step", spos, KEYS["step"])
        if "name" not in f:
            r.error("TG032", "step has no name", spos, "add name: <playerPhase>, e.g. germansPurchase")
        properties = [
            m.StepProperty(name, r.text(value[1] if isinstance(value, list) else value, f"step property {name}", ppos),
                           ppos)
            for name, value, ppos in r.entries(f.get("properties"), "step properties", spos, "name")]
        steps.append(m.Step(f.get("name") or "", f.get("delegate"), f.get("player"), f.get("maxRunCount"),
                            f.get("display"), properties, spos))
    return steps


def _amounts(r: SpecReader, data, what: str, pos: Position) -> list[m.Amount]:
    return [m.Amount(name, r.text(value[1] if isinstance(value, list) and len(value) > 1 else
                                  (None if isinstance(value, list) else value), f"quantity of {name}", apos), apos)
            for name, value, apos in r.entries(data, what, pos, "name")]


def _read_rules(r: SpecReader, data, what: str, pos: Position) -> list[m.ProductionRule]:
    rules = []
    for name, body, rpos in r.entries(data, what, pos, "name"):
        if not isinstance(body, dict):
            r.error("TG031", f"{what} {name} must be a mapping with cost and result", rpos,
                    "write {cost: {PUs: 3}, result: {infantry: 1}}")
            continue
        r.check_keys(body, KEYS["productionRule"], f"{what} {name}")
        rules.append(m.ProductionRule(name, _amounts(r, body.get("cost"), f"cost of {name}", rpos),
                                      _amounts(r, body.get("result"), f"result of {name}", rpos), rpos))
    return rules


def _read_frontiers(r: SpecReader, data, what: str, pos: Position) -> list[m.Frontier]:
    frontiers = []
    for name, body, fpos in r.entries(data, what, pos, "name"):
        rules = body.get("rules") if isinstance(body, dict) else body
        frontiers.append(m.Frontier(name, [n for n, _ in r.names(rules, f"{what} {name}", fpos)], fpos))
    return frontiers


def _read_player_frontiers(r: SpecReader, data, what: str, pos: Position) -> list[m.PlayerFrontier]:
    return [m.PlayerFrontier(player, r.text(body[1] if isinstance(body, list) and len(body) > 1 else body,
                                            f"{what} of {player}", ppos, required=True), ppos)
            for player, body, ppos in r.entries(data, what, pos, "player")]


def _read_production(r: SpecReader, data, pos: Position) -> m.Production | None:
    section = r.mapping(data, "production", pos, KEYS["production"])
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


def _read_technology(r: SpecReader, data, pos: Position) -> m.Technology | None:
    section = r.mapping(data, "technology", pos, KEYS["technology"])
    if section is None:
        return None
    at = section.position_of
    technology = m.Technology()
    if "technologies" in section:
        technology.technologies = [
            m.TechName(name, r.fields(body, f"technology {name}", tpos, KEYS["techname"]).get("tech"), tpos)
            for name, body, tpos in r.entries(section["technologies"], "technologies", at("technologies"), "name")]
    for player, body, ppos in r.entries(section.get("playerTech"), "playerTech", at("playerTech"), "player"):
        categories_data = body.get("categories") if isinstance(body, dict) and "player" in body else body
        categories = []
        for name, cbody, cpos in r.entries(categories_data, f"playerTech {player}", ppos, "name"):
            techs = cbody.get("techs") if isinstance(cbody, dict) else cbody
            categories.append(m.TechCategory(name, [n for n, _ in r.names(techs, f"category {name}", cpos)], cpos))
        technology.player_techs.append(m.PlayerTech(player, categories, ppos))
    return technology


def _option_entries(r: SpecReader, data, what: str, pos: Position):
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


def _read_attachments(r: SpecReader, data, pos: Position) -> list[m.Attachment]:
    attachments = []
    seq = r.sequence(data, "attachments", pos) or []
    keys = KEYS["attachment"]
    for index, body in enumerate(seq):
        apos = r.pos(body, seq.position_of(index))
        if not isinstance(body, dict):
            r.error("TG031", "each attachment must be a mapping", apos, "write name:, attachTo:, class:, options:")
            continue
        r.check_keys(body, keys, "an attachment")
        at = body.position_of
        name = r.text(body.get("name"), "attachment name", apos, required=True)
        what = f"attachment {name}"
        attachment = m.Attachment(
            name=name, attach_to=r.text(body.get("attachTo"), f"attachTo of {what}", at("attachTo"), required=True),
            java_class=_java_class(r, {k: r.text(body[k], k, at(k)) for k in ("class", "javaClass") if k in body},
                                   m.ATTACHMENT_PACKAGE, what, apos),
            type=r.text(body.get("type"), f"type of {what}", at("type")),
            foreach=r.text(body.get("foreach"), f"foreach of {what}", at("foreach")), pos=apos)
        for option_name, value, opos in _option_entries(r, body.get("options"), f"options of {what}", at("options")):
            if isinstance(value, dict):
                r.check_keys(value, KEYS["option"], f"option {option_name}")
                attachment.options.append(m.Option(
                    option_name, r.text(value.get("value"), f"option {option_name}", opos),
                    r.text(value.get("count"), f"count of option {option_name}", opos), opos))
            else:
                attachment.options.append(m.Option(option_name, r.text(value, f"option {option_name}", opos), None,
                                                   opos))
        attachments.append(attachment)
    return attachments


def _read_initialize(r: SpecReader, data, pos: Position) -> m.Initialize | None:
    section = r.mapping(data, "initialize", pos, KEYS["initialize"])
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
    for index, body in enumerate(r.sequence(section.get("heldUnits"), "heldUnits", at("heldUnits")) or []):
        hpos = r.pos(body, at("heldUnits"))
        f = r.fields(body, "heldUnits entry", hpos, KEYS["heldUnits"])
        init.held_units.append(m.HeldUnits(f.get("unitType") or "", f.get("player") or "", f.get("quantity"), hpos))
    if "resources" in section:
        init.resources = _read_resources_given(r, section["resources"], at("resources"))
    if "relationships" in section:
        init.relationships = []
        seq = r.sequence(section["relationships"], "relationships", at("relationships")) or []
        for index, item in enumerate(seq):
            rpos = seq.position_of(index)
            f = r.fields(item, "relationship", rpos, KEYS["relationship"], positional=True)
            init.relationships.append(m.Relationship(f.get("player1") or "", f.get("player2") or "",
                                                     f.get("type") or "", f.get("roundValue"), rpos))
    return init


def _read_placements(r: SpecReader, data, pos: Position) -> list[m.UnitPlacement]:
    placements = []
    keys = KEYS["unitPlacement"]
    if isinstance(data, list):
        for index, body in enumerate(data):
            upos = r.pos(body, data.position_of(index))
            f = r.fields(body, "unit placement", upos, keys)
            placements.append(m.UnitPlacement(f.get("unitType") or "", f.get("territory") or "", f.get("quantity"),
                                              f.get("owner"), f.get("hitsTaken"), f.get("unitDamage"), upos))
        return placements
    territories = r.mapping(data, "initialize units", pos)
    for territory, owners in (territories or {}).items():
        tpos = territories.position_of(territory)
        owners_map = r.mapping(owners, f"units in {territory}", tpos) or {}
        for owner, units in owners_map.items():
            opos = owners_map.position_of(owner)
            units_map = r.mapping(units, f"units of {owner} in {territory}", opos) or {}
            for unit_type, value in units_map.items():
                upos = units_map.position_of(unit_type)
                if isinstance(value, dict):
                    f = r.fields(value, f"{unit_type} in {territory}", upos, KEYS["unitCount"])
                else:
                    f = {"quantity": r.text(value, f"quantity of {unit_type} in {territory}", upos)}
                placements.append(m.UnitPlacement(
                    str(unit_type), str(territory), f.get("quantity"),
                    None if owner is None else r.text(owner, "owner", opos), f.get("hitsTaken"),
                    f.get("unitDamage"), upos))
    return placements


def _read_resources_given(r: SpecReader, data, pos: Position) -> list[m.ResourceGiven]:
    given = []
    if isinstance(data, list):
        for index, body in enumerate(data):
            gpos = r.pos(body, data.position_of(index))
            f = r.fields(body, "resource given", gpos, KEYS["resourceGiven"])
            given.append(m.ResourceGiven(f.get("player") or "", f.get("resource") or "", f.get("quantity"), gpos))
        return given
    players = r.mapping(data, "initialize resources", pos)
    for player, resources in (players or {}).items():
        ppos = players.position_of(player)
        resources_map = r.mapping(resources, f"resources of {player}", ppos) or {}
        for resource, quantity in resources_map.items():
            rpos = resources_map.position_of(resource)
            given.append(m.ResourceGiven(str(player), str(resource),
                                         r.text(quantity, f"{resource} of {player}", rpos), rpos))
    return given


def _read_properties(r: SpecReader, data, pos: Position) -> list[m.Property]:
    properties = []
    keys = KEYS["property"]
    for name, body, ppos in r.entries(data, "properties", pos, "name"):
        f = r.fields(body, f"property {name}", ppos, keys)
        types = []
        type_data = f.get("type")
        for item in (type_data if isinstance(type_data, list) else [type_data] if type_data is not None else []):
            if isinstance(item, dict) and len(item) == 1:
                (kind, attributes), = item.items()
                attrs = r.mapping(attributes, f"type of property {name}", ppos) or {}
                types.append(m.PropertyType(str(kind), {str(k): r.text(v, str(k), ppos) for k, v in attrs.items()}))
            elif isinstance(item, str):
                types.append(m.PropertyType(item))
            else:
                r.error("TG031", f"type of property {name} must be a name such as boolean or number",
                        ppos, "write type: boolean, or type: {number: {min: 0, max: 10}}")
        properties.append(m.Property(name, f.get("value"), f.get("editable"), f.get("player"), f.get("min"),
                                     f.get("max"), types, f.get("text"), ppos))
    return properties
