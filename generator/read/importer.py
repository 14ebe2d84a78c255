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

# Elements whose attributes the model declares (generator.model.fields) take their lists from there;
# these are the rest: single values and names of Game, names in a list, and (in _ALL_ATTRIBUTES) the
# elements whose attributes the model keeps as a mapping.
_KNOWN_ATTRIBUTES: dict[str, set[str]] = {
    "loader": {"javaClass"},
    "triplea": {"minimumVersion"},
    "diceSides": {"value"},
    "variable": {"name"},
    "element": {"name"},
    "grid": {"name", "type", "x", "y", "horizontal-connections", "vertical-connections", "diagonal-connections"},
    "offset": {"round"},
    "frontierRules": {"name"},
    "repairRules": {"name"},
    "tech": {"name"},
    "number": {"min", "max"},
    "list": {"values"},
    "combo": {"values"},
}
_PROPERTY_TYPES = ("boolean", "string", "number", "file", "color", "list", "combo")
# Elements the model takes all attributes of (kept as a mapping).
_ALL_ATTRIBUTES = frozenset({"grid", *_PROPERTY_TYPES})
# The attributes without which the model cannot hold an element: such an element is kept verbatim.
_REQUIRED_ATTRIBUTES: dict[str, tuple[str, ...]] = {
    "loader": ("javaClass",), "diceSides": ("value",), "variable": ("name",), "element": ("name",),
    "offset": ("round",), "frontierRules": ("name",), "repairRules": ("name",), "tech": ("name",),
}
for _tag, _cls in m.ELEMENT_CLASSES.items():
    _KNOWN_ATTRIBUTES[_tag] = xml_names(_cls)
    _REQUIRED_ATTRIBUTES[_tag] = required_xml_names(_cls)
for _tag, _cls in m.LEGACY_ELEMENT_CLASSES.items():
    _KNOWN_ATTRIBUTES[_tag] = xml_names(_cls, legacy=True)
    _REQUIRED_ATTRIBUTES[_tag] = required_xml_names(_cls, legacy=True)


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
        for place, tags in enumerate(allowed):
            for tag in (tags,) if isinstance(tags, str) else tags:
                rank_of[tag] = place
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
    order: list[str | tuple[str, ...]] = [tag for tag in sections if tag not in ("attachmentList", "attatchmentList")]
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
    game.info = from_xml(m.Info, e, r.required, pos=r.pos(e))


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
            game.territories.append(from_xml(m.Territory, child, r.required, pos=r.pos(child)))
        elif tag == "connection":
            game.connections.append(from_xml(m.Connection, child, r.required, pos=r.pos(child)))
        elif tag == "remove-connection":
            game.remove_connections.append(from_xml(m.Connection, child, r.required, pos=r.pos(child)))
        else:
            water = [from_xml(m.GridWater, w, r.required) for w in r.children(child, "water")]
            game.grids.append(m.Grid(dict(child.attrib), water, r.pos(child)))


def _read_resources(r: XmlReader, e, game: m.Game) -> None:
    game.resources = game.resources or []
    for child in r.children(e, "resource"):
        game.resources.append(from_xml(m.Resource, child, r.required, pos=r.pos(child)))


def _read_players(r: XmlReader, e, game: m.Game) -> None:
    for child in r.children(e, "player", "alliance"):
        if child.tag == "player":
            game.players.append(from_xml(m.Player, child, r.required, pos=r.pos(child)))
        else:
            game.alliances.append(from_xml(m.Alliance, child, r.required, pos=r.pos(child)))


def _read_named_list(r: XmlReader, e, tag: str) -> list[m.Named]:
    return [from_xml(m.Named, child, r.required, pos=r.pos(child)) for child in r.children(e, tag)]


def _read_units(r: XmlReader, e, game: m.Game) -> None:
    game.units = (game.units or []) + _read_named_list(r, e, "unit")


def _read_relationship_types(r: XmlReader, e, game: m.Game) -> None:
    game.relationship_types = (game.relationship_types or []) + _read_named_list(r, e, "relationshipType")


def _read_territory_effects(r: XmlReader, e, game: m.Game) -> None:
    game.territory_effects = (game.territory_effects or []) + _read_named_list(r, e, "territoryEffect")


def read_gameplay(r: XmlReader, e, game: m.Game) -> None:
    for child in r.children(e, "delegate", "sequence", "offset", once=("sequence", "offset")):
        if child.tag == "delegate":
            game.delegates.append(from_xml(m.Delegate, child, r.required, pos=r.pos(child)))
        elif child.tag == "offset":
            game.offset = r.required(child, "round")
        else:
            game.steps = game.steps or []
            for step in r.children(child, "step"):
                properties = [from_xml(m.StepProperty, p, r.required, pos=r.pos(p))
                              for p in r.children(step, "stepProperty")]
                game.steps.append(from_xml(m.Step, step, r.required, properties=properties, pos=r.pos(step)))


def _read_rule(r: XmlReader, e) -> m.ProductionRule:
    rule = from_xml(m.ProductionRule, e, r.required, pos=r.pos(e))
    for child in r.children(e, "cost", "result"):
        if child.tag == "cost":
            rule.costs.append(from_xml(m.Cost, child, r.required, pos=r.pos(child)))
        else:
            rule.results.append(from_xml(m.Result, child, r.required, pos=r.pos(child)))
    return rule


def _read_frontier(r: XmlReader, e, rule_tag: str) -> m.Frontier:
    # a frontier's rules are names only (<frontierRules name>), which the model holds as text
    rules = [r.required(c, "name") for c in r.children(e, rule_tag)]
    return from_xml(m.Frontier, e, r.required, rules=rules, pos=r.pos(e))


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
            target.append(from_xml(m.PlayerFrontier, child, r.required, pos=r.pos(child)))


def _read_technology(r: XmlReader, e, game: m.Game) -> None:
    technology = game.technology = game.technology or m.Technology()
    for child in r.children(e, "technologies", "playerTech", once=("technologies",)):
        if child.tag == "technologies":
            technology.technologies = technology.technologies or []
            for tech in r.children(child, "techname"):
                technology.technologies.append(from_xml(m.TechName, tech, r.required, pos=r.pos(tech)))
        else:
            categories = [  # a category's technologies are names only (<tech name>), held as text
                from_xml(m.TechCategory, cat, r.required, techs=[r.required(t, "name") for t in r.children(cat, "tech")],
                         pos=r.pos(cat))
                for cat in r.children(child, "category")]
            technology.player_techs.append(from_xml(m.PlayerTech, child, r.required, categories=categories,
                                                    pos=r.pos(child)))


def _read_attachments(r: XmlReader, e, game: m.Game) -> None:
    game.attachments = game.attachments or []
    legacy = e.tag == "attatchmentList"
    game.legacy_attachment_spelling = legacy
    for child in r.children(e, "attatchment" if legacy else "attachment"):
        options = [from_xml(m.Option, o, r.required, pos=r.pos(o)) for o in r.children(child, "option")]
        game.attachments.append(from_xml(m.Attachment, child, r.required, legacy=legacy, options=options,
                                         pos=r.pos(child)))


def _read_initialize(r: XmlReader, e, game: m.Game) -> None:
    init = game.initialize = game.initialize or m.Initialize()
    tags = ("ownerInitialize", "unitInitialize", "resourceInitialize", "relationshipInitialize")
    for child in r.children(e, *tags, once=tags):
        if child.tag == "ownerInitialize":
            init.owners = init.owners or []
            for o in r.children(child, "territoryOwner"):
                init.owners.append(from_xml(m.TerritoryOwner, o, r.required, pos=r.pos(o)))
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
        prop = from_xml(m.Property, p, r.required, pos=r.pos(p))
        for child in r.children(p, _PROPERTY_TYPES, "value", once=("value",)):
            if child.tag == "value":
                prop.text = child.text or ""
            else:
                prop.types.append(m.PropertyType(child.tag, dict(child.attrib)))
        game.properties.append(prop)
