"""Import: a TripleA game XML (parsed safely) into the game model.

Both engine generations are read, including legacy spellings. Elements and
attributes that are part of neither generation are reported as warnings (the
engines ignore them too) rather than silently dropped."""
from __future__ import annotations

from lxml import etree

from generator.model import game as m
from generator.model.fields import from_xml, required_xml_names, xml_names
from generator.core.diagnostics import Collector, Diagnostic, Position, display_path
from generator.core.progress import progress
from generator.read.extras import collect_extras
from generator.read.safexml import parse_xml_bytes, read_input

_KNOWN_ATTRIBUTES = {
    "info": {"name", "version"},
    "loader": {"javaClass"},
    "triplea": {"minimumVersion"},
    "diceSides": {"value"},
    "variable": {"name"},
    "element": {"name"},
    "territory": {"name", "water"},
    "grid": {"name", "type", "x", "y", "horizontal-connections", "vertical-connections", "diagonal-connections"},
    "water": {"x", "y"},
    "connection": {"t1", "t2"},
    "remove-connection": {"t1", "t2"},
    "resource": {"name", "isDisplayedFor"},
    "alliance": {"player", "alliance"},
    "unit": {"name"},
    "relationshipType": {"name"},
    "territoryEffect": {"name"},
    "delegate": {"name", "javaClass", "display"},
    "stepProperty": {"name", "value"},
    "offset": {"round"},
    "productionRule": {"name"},
    "repairRule": {"name"},
    "cost": {"resource", "quantity"},
    "result": {"resourceOrUnit", "quantity"},
    "productionFrontier": {"name"},
    "repairFrontier": {"name"},
    "frontierRules": {"name"},
    "repairRules": {"name"},
    "playerProduction": {"player", "frontier"},
    "playerRepair": {"player", "frontier"},
    "techname": {"name", "tech"},
    "playerTech": {"player"},
    "category": {"name"},
    "tech": {"name"},
    "attachment": {"name", "attachTo", "javaClass", "type", "foreach"},
    "attatchment": {"name", "attatchTo", "attachTo", "javaClass", "type", "foreach"},
    "option": {"name", "value", "count"},
    "territoryOwner": {"territory", "owner"},
    "property": {"name", "value", "editable", "player", "min", "max"},
    "number": {"min", "max"},
    "list": {"values"},
    "combo": {"values"},
}
_PROPERTY_TYPES = ("boolean", "string", "number", "file", "color", "list", "combo")
# Elements the model takes all attributes of (kept as a mapping).
_ALL_ATTRIBUTES = frozenset({"grid", *_PROPERTY_TYPES})
# The attributes without which the model cannot hold an element: such an element is kept verbatim.
_REQUIRED_ATTRIBUTES = {
    "loader": ("javaClass",), "diceSides": ("value",), "variable": ("name",), "element": ("name",),
    "territory": ("name",), "connection": ("t1", "t2"), "remove-connection": ("t1", "t2"), "resource": ("name",),
    "alliance": ("player", "alliance"), "unit": ("name",), "relationshipType": ("name",),
    "territoryEffect": ("name",), "delegate": ("name", "javaClass"), "offset": ("round",),
    "stepProperty": ("name",), "productionRule": ("name",), "repairRule": ("name",), "cost": ("resource",),
    "result": ("resourceOrUnit",), "productionFrontier": ("name",), "repairFrontier": ("name",),
    "frontierRules": ("name",), "repairRules": ("name",), "playerProduction": ("player", "frontier"),
    "playerRepair": ("player", "frontier"), "techname": ("name",), "playerTech": ("player",),
    "category": ("name",), "tech": ("name",), "attachment": ("name", "attachTo", "javaClass"),
    "attatchment": ("name", "attatchTo", "javaClass"), "option": ("name",),
    "territoryOwner": ("territory", "owner"), "property": ("name",),
}
# Elements whose attributes the model declares (generator.model.fields): their lists come from there.
_KNOWN_ATTRIBUTES.update({tag: xml_names(cls) for tag, cls in m.ELEMENT_CLASSES.items()})
_REQUIRED_ATTRIBUTES.update({tag: required_xml_names(cls) for tag, cls in m.ELEMENT_CLASSES.items()})
_KNOWN_ATTRIBUTES["attachment"] = {"name", "attachTo", "javaClass", "type", "foreach"}
_KNOWN_ATTRIBUTES["attatchment"] = {"name", "attatchTo", "javaClass", "type", "foreach"}


class XmlReader:
    """Reads elements into the model and remembers which ones it took, so that everything
    else can be kept verbatim (generator.read.extras).

    Elements are taken in the order the templates write them: a child that would move if it
    were taken (a <unitPlacement> after a <heldUnits>, a second <info>) is kept verbatim
    instead, at its place."""

    def __init__(self, source: str, collector: Collector, fixed_position: Position | None = None):
        self.source = source
        self.collector = collector
        self.fixed_position = fixed_position
        self.taken: set = set()  # elements the model holds
        self.keeps_extras = fixed_position is None  # fragments (rules' XML) have no place to keep them

    def pos(self, element) -> Position:
        return self.fixed_position or Position(self.source, element.sourceline or 0, 1)

    def children(self, element, *allowed, once=()):
        """Element children the model takes, in the template's order. `allowed` lists the tags
        in that order (a tuple: tags of the same rank); a tag in `once` is taken once only."""
        rank_of = {}
        for rank, tags in enumerate(allowed):
            for tag in (tags,) if isinstance(tags, str) else tags:
                rank_of[tag] = rank
        last = -1
        for child in element:
            if not isinstance(child.tag, str):
                continue  # comments
            rank = rank_of.get(child.tag)
            # fragments (rules' XML) are merged by section, so any order does; missing attributes are errors
            in_place = not self.keeps_extras or (
                self._readable(child) and (rank is not None and (rank > last or rank == last and child.tag not in once)))
            if rank is not None and in_place:
                last = rank
                self.taken.add(child)
                self.check_attributes(child)
                yield child
            else:
                self._not_taken(child, element, rank is not None)

    def _readable(self, element) -> bool:
        return all(element.get(name) is not None for name in _REQUIRED_ATTRIBUTES.get(element.tag, ()))

    def _not_taken(self, child, parent, known_tag: bool) -> None:
        if not self.keeps_extras:
            self.collector.warning(
                "TG014", f"<{child.tag}> is not part of TripleA's <{parent.tag}>; left out", self.pos(child),
                "both engines ignore it; remove it or check its spelling")
            return
        if known_tag:
            why = (f"<{child.tag}> lacks a required attribute, or repeats or is out of the order of "
                   f"TripleA's <{parent.tag}>")
        else:
            why = f"<{child.tag}> is not part of TripleA's <{parent.tag}>"
        self.collector.warning("TG014", f"{why}; kept verbatim (extra:)", self.pos(child),
                               "the engines may ignore or misread it; `validate` says what each one does")

    def kept_attributes(self, element) -> set[str] | None:
        """The attributes of a taken element the model holds (None: all of them)."""
        if element.tag in _ALL_ATTRIBUTES:
            return None
        return _KNOWN_ATTRIBUTES.get(element.tag, set())

    def check_attributes(self, element) -> None:
        kept = self.kept_attributes(element)
        if kept is None:
            return
        for name in element.attrib:
            if name not in kept:
                tail = "kept verbatim (extra:)" if self.keeps_extras else "left out"
                self.collector.warning(
                    "TG015", f"attribute {name}= is not part of TripleA's <{element.tag}>; {tail}",
                    self.pos(element), "both engines ignore it; remove it or check its spelling")

    def required(self, element, name: str) -> str:
        value = element.get(name)
        if value is None:
            self.collector.error("TG016", f"<{element.tag}> has no {name}= attribute", self.pos(element),
                                 f"every <{element.tag}> needs {name}=")
            return ""
        return value


def import_xml_file(path) -> tuple[m.Game, list[Diagnostic]]:
    """A whole game XML into the model, with its warnings; raises with every error."""
    return import_xml_bytes(read_input(path), display_path(path))


def import_xml_bytes(data: bytes, shown: str) -> tuple[m.Game, list[Diagnostic]]:
    """import_xml_file of a file already read, shown in messages as `shown`."""
    collector = Collector()
    game = import_tree(parse_xml_bytes(data, shown), shown, collector)
    collector.raise_if_errors()
    return game, collector.diagnostics


def import_tree(tree: etree._ElementTree, source: str, collector: Collector,
                fixed_position: Position | None = None) -> m.Game:
    """Read a whole game (or a fragment of one); problems go to the collector.

    With fixed_position every entity is said to come from there (a rule's YAML line)."""
    reader = XmlReader(source, collector, fixed_position)
    root = tree.getroot()
    game = m.Game(pos=reader.pos(root))
    docinfo = tree.docinfo
    game.doctype = docinfo.system_url if docinfo.doctype else None
    sections = {
        "info": _read_info, "loader": _read_loader, "triplea": _read_triplea, "diceSides": _read_dice,
        "variableList": _read_variables, "map": _read_map, "resourceList": _read_resources,
        "playerList": _read_players, "unitList": _read_units, "relationshipTypes": _read_relationship_types,
        "territoryEffectList": _read_territory_effects, "gamePlay": read_gameplay,
        "production": _read_production, "technology": _read_technology,
        "attachmentList": _read_attachments, "attatchmentList": _read_attachments,
        "initialize": _read_initialize, "propertyList": _read_properties,
    }
    order = [tag for tag in sections if tag not in ("attachmentList", "attatchmentList")]
    order.insert(order.index("initialize"), ("attachmentList", "attatchmentList"))
    present = list(reader.children(root, *order, once=tuple(sections)))
    with progress(f"importing {source}", len(present)) as shown:
        for element in present:
            sections[element.tag](reader, element, game)
            shown.advance()
    if reader.keeps_extras:
        game.extras = collect_extras(root, reader.taken, reader.kept_attributes, reader.pos)
    return game


def _read_info(r: XmlReader, e, game: m.Game) -> None:
    game.info = m.Info(e.get("name"), e.get("version"), r.pos(e))


def _read_loader(r: XmlReader, e, game: m.Game) -> None:
    game.loader = r.required(e, "javaClass")


def _read_triplea(r: XmlReader, e, game: m.Game) -> None:
    game.triplea_present = True
    game.minimum_version = e.get("minimumVersion")


def _read_dice(r: XmlReader, e, game: m.Game) -> None:
    game.dice_sides = r.required(e, "value")


def _read_variables(r: XmlReader, e, game: m.Game) -> None:
    game.variables = game.variables or []
    for var in r.children(e, "variable"):
        names = [r.required(el, "name") for el in r.children(var, "element")]
        game.variables.append((r.required(var, "name"), names))


def _read_map(r: XmlReader, e, game: m.Game) -> None:
    for child in r.children(e, "grid", "territory", "connection", "remove-connection"):
        tag = child.tag
        if tag == "territory":
            game.territories.append(m.Territory(r.required(child, "name"), child.get("water"), r.pos(child)))
        elif tag == "connection":
            game.connections.append(m.Connection(r.required(child, "t1"), r.required(child, "t2"), r.pos(child)))
        elif tag == "remove-connection":
            game.remove_connections.append(
                m.Connection(r.required(child, "t1"), r.required(child, "t2"), r.pos(child)))
        else:
            water = [m.GridWater(w.get("x"), w.get("y")) for w in r.children(child, "water")]
            game.grids.append(m.Grid(dict(child.attrib), water, r.pos(child)))


def _read_resources(r: XmlReader, e, game: m.Game) -> None:
    game.resources = game.resources or []
    for child in r.children(e, "resource"):
        game.resources.append(m.Resource(r.required(child, "name"), child.get("isDisplayedFor"), r.pos(child)))


def _read_players(r: XmlReader, e, game: m.Game) -> None:
    for child in r.children(e, "player", "alliance"):
        if child.tag == "player":
            game.players.append(from_xml(m.Player, child, r.required, pos=r.pos(child)))
        else:
            game.alliances.append(m.Alliance(r.required(child, "player"), r.required(child, "alliance"), r.pos(child)))


def _read_named_list(r: XmlReader, e, tag: str) -> list[m.Named]:
    return [m.Named(r.required(child, "name"), r.pos(child)) for child in r.children(e, tag)]


def _read_units(r: XmlReader, e, game: m.Game) -> None:
    game.units = (game.units or []) + _read_named_list(r, e, "unit")


def _read_relationship_types(r: XmlReader, e, game: m.Game) -> None:
    game.relationship_types = (game.relationship_types or []) + _read_named_list(r, e, "relationshipType")


def _read_territory_effects(r: XmlReader, e, game: m.Game) -> None:
    game.territory_effects = (game.territory_effects or []) + _read_named_list(r, e, "territoryEffect")


def read_gameplay(r: XmlReader, e, game: m.Game) -> None:
    for child in r.children(e, "delegate", "sequence", "offset", once=("sequence", "offset")):
        if child.tag == "delegate":
            game.delegates.append(m.Delegate(
                r.required(child, "name"), r.required(child, "javaClass"), child.get("display"), r.pos(child)))
        elif child.tag == "offset":
            game.offset = r.required(child, "round")
        else:
            game.steps = game.steps or []
            for step in r.children(child, "step"):
                properties = [m.StepProperty(r.required(p, "name"), p.get("value"), r.pos(p))
                              for p in r.children(step, "stepProperty")]
                game.steps.append(from_xml(m.Step, step, r.required, properties=properties, pos=r.pos(step)))


def _read_rule(r: XmlReader, e) -> m.ProductionRule:
    rule = m.ProductionRule(r.required(e, "name"), pos=r.pos(e))
    for child in r.children(e, "cost", "result"):
        if child.tag == "cost":
            rule.costs.append(m.Amount(r.required(child, "resource"), child.get("quantity"), r.pos(child)))
        else:
            rule.results.append(m.Amount(r.required(child, "resourceOrUnit"), child.get("quantity"), r.pos(child)))
    return rule


def _read_frontier(r: XmlReader, e, rule_tag: str) -> m.Frontier:
    return m.Frontier(r.required(e, "name"), [r.required(c, "name") for c in r.children(e, rule_tag)], r.pos(e))


def _read_production(r: XmlReader, e, game: m.Game) -> None:
    production = game.production = game.production or m.Production()
    tags = ("productionRule", "repairRule", "repairFrontier", "productionFrontier", "playerProduction", "playerRepair")
    for child in r.children(e, *tags):
        tag = child.tag
        if tag == "productionRule":
            production.rules.append(_read_rule(r, child))
        elif tag == "repairRule":
            production.repair_rules.append(_read_rule(r, child))
        elif tag == "productionFrontier":
            production.frontiers.append(_read_frontier(r, child, "frontierRules"))
        elif tag == "repairFrontier":
            production.repair_frontiers.append(_read_frontier(r, child, "repairRules"))
        else:
            target = production.player_production if tag == "playerProduction" else production.player_repair
            target.append(m.PlayerFrontier(r.required(child, "player"), r.required(child, "frontier"), r.pos(child)))


def _read_technology(r: XmlReader, e, game: m.Game) -> None:
    technology = game.technology = game.technology or m.Technology()
    for child in r.children(e, "technologies", "playerTech", once=("technologies",)):
        if child.tag == "technologies":
            technology.technologies = technology.technologies or []
            for tech in r.children(child, "techname"):
                technology.technologies.append(m.TechName(r.required(tech, "name"), tech.get("tech"), r.pos(tech)))
        else:
            categories = [
                m.TechCategory(r.required(cat, "name"), [r.required(t, "name") for t in r.children(cat, "tech")],
                               r.pos(cat))
                for cat in r.children(child, "category")]
            technology.player_techs.append(m.PlayerTech(r.required(child, "player"), categories, r.pos(child)))


def _read_attachments(r: XmlReader, e, game: m.Game) -> None:
    game.attachments = game.attachments or []
    legacy = e.tag == "attatchmentList"
    game.legacy_attachment_spelling = legacy
    for child in r.children(e, "attatchment" if legacy else "attachment"):
        attach_to = child.get("attatchTo") if legacy else None
        if attach_to is None:
            attach_to = r.required(child, "attachTo")
        options = [m.Option(r.required(o, "name"), o.get("value"), o.get("count"), r.pos(o))
                   for o in r.children(child, "option")]
        game.attachments.append(m.Attachment(
            r.required(child, "name"), attach_to, r.required(child, "javaClass"), child.get("type"),
            child.get("foreach"), options, r.pos(child)))


def _read_initialize(r: XmlReader, e, game: m.Game) -> None:
    init = game.initialize = game.initialize or m.Initialize()
    tags = ("ownerInitialize", "unitInitialize", "resourceInitialize", "relationshipInitialize")
    for child in r.children(e, *tags, once=tags):
        if child.tag == "ownerInitialize":
            init.owners = init.owners or []
            for o in r.children(child, "territoryOwner"):
                init.owners.append(m.TerritoryOwner(r.required(o, "territory"), r.required(o, "owner"), r.pos(o)))
        elif child.tag == "unitInitialize":
            init.units = init.units or []
            for u in r.children(child, "unitPlacement", "heldUnits"):
                if u.tag == "heldUnits":
                    init.held_units.append(from_xml(m.HeldUnits, u, r.required, pos=r.pos(u)))
                else:
                    init.units.append(from_xml(m.UnitPlacement, u, r.required, pos=r.pos(u)))
        elif child.tag == "resourceInitialize":
            init.resources = init.resources or []
            for g in r.children(child, "resourceGiven"):
                init.resources.append(from_xml(m.ResourceGiven, g, r.required, pos=r.pos(g)))
        else:
            init.relationships = init.relationships or []
            for rel in r.children(child, "relationship"):
                init.relationships.append(from_xml(m.Relationship, rel, r.required, pos=r.pos(rel)))


def _read_properties(r: XmlReader, e, game: m.Game) -> None:
    game.properties = game.properties or []
    for p in r.children(e, "property"):
        prop = m.Property(r.required(p, "name"), p.get("value"), p.get("editable"), p.get("player"),
                          p.get("min"), p.get("max"), pos=r.pos(p))
        for child in r.children(p, _PROPERTY_TYPES, "value", once=("value",)):
            if child.tag == "value":
                prop.text = child.text or ""
            else:
                prop.types.append(m.PropertyType(child.tag, dict(child.attrib)))
        game.properties.append(prop)
