"""The resolved game model: one typed, in-memory TripleA game covering every
element and attribute of both generations of the game XML.

Values are kept as the exact strings the XML holds (``None`` = attribute absent),
so that import followed by build is lossless. Optional container sections are
``None`` when the element is absent and a (possibly empty) list when present.
Fields that are XML attributes declare it once with ``attribute`` (generator.model.fields):
the importer, spec readers, YAML writer and templates take their attribute lists from there.
Every entity may carry ``pos``: where it came from (a YAML or XML line), used by
diagnostics; it never takes part in comparisons.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from generator.core.diagnostics import Position
from generator.model.fields import FLAG, attribute

ATTACHMENT_PACKAGE = "games.strategy.triplea.attachments."
DELEGATE_PACKAGE = "games.strategy.triplea.delegate."


def _pos():
    return field(default=None, compare=False, repr=False)


@dataclass(slots=True)
class Info:
    name: str | None = attribute("name", "the game's name as the lobby shows it")
    version: str | None = attribute("version", "the game's version")
    pos: Position | None = _pos()


@dataclass(slots=True)
class Territory:
    name: str = attribute("name", "its name (in the list form; the mapping form has it as the key)", required=True)
    water: str | None = attribute("water", "true for a sea zone", kind=FLAG)
    pos: Position | None = _pos()


@dataclass(slots=True)
class GridWater:
    # both required: a <water> cell without either names no cell (the 1.9 engine needs both; the XSD too)
    x: str = attribute("x", "the cell's column", required=True)
    y: str = attribute("y", "the cell's row", required=True)


@dataclass(slots=True)
class Grid:
    """1.9-only `<grid>`: a generated block of territories.

    Not declared attribute by attribute: the model keeps every attribute of a grid as it is (its
    names, such as horizontal-connections, are no Python names), and the spec's grid keys are the
    XML names."""

    attributes: dict[str, str] = field(default_factory=dict)  # name, type, x, y, *-connections
    water: list[GridWater] = field(default_factory=list)
    pos: Position | None = _pos()


@dataclass(slots=True)
class Connection:
    t1: str = attribute("t1", "one territory", required=True)
    t2: str = attribute("t2", "the other", required=True)
    pos: Position | None = _pos()


@dataclass(slots=True)
class Resource:
    name: str = attribute("name", "its name (in the list form; the mapping form has it as the key)", required=True)
    is_displayed_for: str | None = attribute("isDisplayedFor", "players that see it, separated by ':'")
    pos: Position | None = _pos()


@dataclass(slots=True)
class Player:
    name: str = attribute("name", "its name (in the list form; the mapping form has it as the key)", required=True)
    optional: str | None = attribute("optional", "the player may be left out", kind=FLAG)
    can_be_disabled: str | None = attribute("canBeDisabled", "the player may be switched off", kind=FLAG)
    default_type: str | None = attribute("defaultType", "who plays it by default (Human, AI, ...)")
    is_hidden: str | None = attribute("isHidden", "hidden from the player list", kind=FLAG)
    pos: Position | None = _pos()


@dataclass(slots=True)
class Alliance:
    player: str = attribute("player", "the member", required=True)
    alliance: str = attribute("alliance", "the alliance's name", required=True)
    pos: Position | None = _pos()


@dataclass(slots=True)
class Named:
    """An entity that is only a name: unit types, relationship types, territory effects."""

    name: str = attribute("name", "its name", required=True)
    pos: Position | None = _pos()


@dataclass(slots=True)
class Delegate:
    name: str = attribute("name", "its name (in the list form; the mapping form has it as the key)", required=True)
    java_class: str = attribute("javaClass", "any other class name, verbatim", required=True)
    display: str | None = attribute("display", "the name the game shows")
    pos: Position | None = _pos()


@dataclass(slots=True)
class StepProperty:
    name: str = attribute("name", "the property's name", required=True)
    value: str | None = attribute("value", "its value")
    pos: Position | None = _pos()


@dataclass(slots=True)
class Step:
    name: str = attribute("name", "the step's name, e.g. germansPurchase", required=True)
    delegate: str | None = attribute("delegate", "the delegate that runs it")
    player: str | None = attribute("player", "the player whose step it is")
    max_run_count: str | None = attribute("maxRunCount", "how often it runs (1 for the set-up steps)")
    display: str | None = attribute("display", "the name the game shows")
    properties: list[StepProperty] = field(default_factory=list)
    pos: Position | None = _pos()


@dataclass(slots=True)
class Amount:
    """What a rule costs or gives: a `Cost` or a `Result`, which spell `item` differently in the XML
    (the spec writes both as item → quantity). Made only as one of the two."""

    item: str
    quantity: str | None = None
    pos: Position | None = _pos()


@dataclass(slots=True)
class Cost(Amount):
    """A `<cost resource quantity>`."""

    item: str = attribute("resource", "the resource paid", required=True)
    quantity: str | None = attribute("quantity", "how much")


@dataclass(slots=True)
class Result(Amount):
    """A `<result resourceOrUnit quantity>`."""

    item: str = attribute("resourceOrUnit", "the unit type or resource got", required=True)
    quantity: str | None = attribute("quantity", "how many")


@dataclass(slots=True)
class ProductionRule:
    name: str = attribute("name", "its name (in the list form; the mapping form has it as the key)", required=True)
    costs: list[Amount] = field(default_factory=list)
    results: list[Amount] = field(default_factory=list)
    pos: Position | None = _pos()


@dataclass(slots=True)
class Frontier:
    name: str = attribute("name", "its name (in the list form; the mapping form has it as the key)", required=True)
    # each a <frontierRules name> / <repairRules name>: a name only, held as text (not declared)
    rules: list[str] = field(default_factory=list)
    pos: Position | None = _pos()


@dataclass(slots=True)
class PlayerFrontier:
    player: str = attribute("player", "the player", required=True)
    frontier: str = attribute("frontier", "its frontier", required=True)
    pos: Position | None = _pos()


@dataclass(slots=True)
class Production:
    rules: list[ProductionRule] = field(default_factory=list)
    repair_rules: list[ProductionRule] = field(default_factory=list)
    repair_frontiers: list[Frontier] = field(default_factory=list)
    frontiers: list[Frontier] = field(default_factory=list)
    player_production: list[PlayerFrontier] = field(default_factory=list)
    player_repair: list[PlayerFrontier] = field(default_factory=list)


@dataclass(slots=True)
class TechName:
    name: str = attribute("name", "its name (in the list form; the mapping form has it as the key)", required=True)
    tech: str | None = attribute("tech", "the engine's technology it stands for")
    pos: Position | None = _pos()


@dataclass(slots=True)
class TechCategory:
    name: str = attribute("name", "its name (in the list form; the mapping form has it as the key)", required=True)
    techs: list[str] = field(default_factory=list)  # each a <tech name>: a name only, held as text
    pos: Position | None = _pos()


@dataclass(slots=True)
class PlayerTech:
    player: str = attribute("player", "the player", required=True)
    categories: list[TechCategory] = field(default_factory=list)
    pos: Position | None = _pos()


@dataclass(slots=True)
class Technology:
    technologies: list[TechName] | None = None  # None: no <technologies> element
    player_techs: list[PlayerTech] = field(default_factory=list)


@dataclass(slots=True)
class Option:
    name: str = attribute("name", "the option's name, exactly as TripleA names it", required=True)
    value: str | None = attribute("value", "the option's value")
    count: str | None = attribute("count", "the count")
    pos: Position | None = _pos()


@dataclass(slots=True)
class Attachment:
    name: str = attribute("name", "e.g. unitAttachment", required=True)
    attach_to: str = attribute("attachTo", "the unit type, territory, player, ... it belongs to", required=True,
                               legacy="attatchTo")
    java_class: str = attribute("javaClass", "any other class name, verbatim", required=True)
    type: str | None = attribute("type", "what attachTo names")
    foreach: str | None = attribute("foreach", "the engine's foreach variables")
    options: list[Option] = field(default_factory=list)
    pos: Position | None = _pos()

    @property
    def class_name(self) -> str:
        """The simple class name, whatever package spelling the file used."""
        return self.java_class.rsplit(".", 1)[-1]


@dataclass(slots=True)
class TerritoryOwner:
    territory: str = attribute("territory", "the territory", required=True)
    owner: str = attribute("owner", "its owner", required=True)
    pos: Position | None = _pos()


@dataclass(slots=True)
class UnitPlacement:
    unit_type: str = attribute("unitType", "which unit type", required=True)
    territory: str = attribute("territory", "where", required=True)
    quantity: str | None = attribute("quantity", "how many")
    owner: str | None = attribute("owner", "whose (none: nobody's)")
    hits_taken: str | None = attribute("hitsTaken", "damage taken")
    unit_damage: str | None = attribute("unitDamage", "bombing damage")
    # The spec's list form names the place first; its grouped form (territory → owner → unit type) holds the rest.
    SPEC_ORDER: ClassVar[tuple[str, ...]] = ("territory", "owner", "unitType", "quantity", "hitsTaken", "unitDamage")
    COUNT_KEYS: ClassVar[tuple[str, ...]] = ("quantity", "hitsTaken", "unitDamage")
    pos: Position | None = _pos()


@dataclass(slots=True)
class HeldUnits:
    unit_type: str = attribute("unitType", "which unit type", required=True)
    player: str = attribute("player", "whose", required=True)
    quantity: str | None = attribute("quantity", "how many")
    SPEC_ORDER: ClassVar[tuple[str, ...]] = ("player", "unitType", "quantity")  # the spec names the player first
    pos: Position | None = _pos()


@dataclass(slots=True)
class ResourceGiven:
    player: str = attribute("player", "whose", required=True)
    resource: str = attribute("resource", "which resource", required=True)
    quantity: str | None = attribute("quantity", "how much")
    pos: Position | None = _pos()


@dataclass(slots=True)
class Relationship:
    player1: str = attribute("player1", "one player", required=True)
    player2: str = attribute("player2", "the other", required=True)
    type: str = attribute("type", "the relationship type", required=True)
    round_value: str | None = attribute("roundValue", "since which round")
    pos: Position | None = _pos()


@dataclass(slots=True)
class Initialize:
    owners: list[TerritoryOwner] | None = None
    units: list[UnitPlacement] | None = None  # None: no <unitInitialize>
    held_units: list[HeldUnits] = field(default_factory=list)
    resources: list[ResourceGiven] | None = None
    relationships: list[Relationship] | None = None


@dataclass(slots=True)
class PropertyType:
    """A type marker child of `<property>`: boolean, string, number, file, color, list, combo."""

    kind: str
    attributes: dict[str, str] = field(default_factory=dict)  # min/max for number, values for list


@dataclass(slots=True)
class Property:
    name: str = attribute("name", "its name (in the list form; the mapping form has it as the key)", required=True)
    value: str | None = attribute("value", "its value")
    editable: str | None = attribute("editable", "players may change it", kind=FLAG)
    player: str | None = attribute("player", "the player it is for")
    min: str | None = attribute("min", "the least value")
    max: str | None = attribute("max", "the greatest value")
    # the type markers (<number min max/>, <list values/>, ...) keep their attributes as they are: the
    # engine's marker elements differ per type and the spec writes them as one mapping (not declared)
    types: list[PropertyType] = field(default_factory=list)
    text: str | None = None  # a <value> child's text (long strings such as notes)
    pos: Position | None = _pos()


@dataclass(slots=True)
class Extra:
    """Content of a game XML that the model has no field for, kept verbatim at its place so that
    import followed by build gives the document back (generator.read.extras).

    `at` is the path of the element it belongs to, counting only elements the model holds
    ("attachmentList[1]/attachment[4]"; "" is <game>); `after` is how many of that element's
    children the model holds come before it. Exactly one of xml (an element, written as it
    was), text (character data) or attributes (attributes of the element at `at`) is set."""

    at: str
    after: int = 0
    xml: str | None = None
    text: str | None = None
    attributes: dict[str, str] | None = None
    pos: Position | None = _pos()


@dataclass(slots=True)
class Game:
    info: Info = field(default_factory=Info)
    doctype: str | None = "game.dtd"  # the DOCTYPE's system id; None: no DOCTYPE
    loader: str | None = None
    minimum_version: str | None = None  # <triplea minimumVersion>; None: no <triplea>
    triplea_present: bool = False
    dice_sides: str | None = None  # None: no <diceSides>
    variables: list[tuple[str, list[str]]] | None = None
    grids: list[Grid] = field(default_factory=list)
    territories: list[Territory] = field(default_factory=list)
    connections: list[Connection] = field(default_factory=list)
    remove_connections: list[Connection] = field(default_factory=list)
    resources: list[Resource] | None = None
    players: list[Player] = field(default_factory=list)
    alliances: list[Alliance] = field(default_factory=list)
    units: list[Named] | None = None
    relationship_types: list[Named] | None = None
    territory_effects: list[Named] | None = None
    delegates: list[Delegate] = field(default_factory=list)
    steps: list[Step] | None = None  # None: no <sequence>
    offset: str | None = None  # <offset round>; None: no <offset>
    production: Production | None = None
    technology: Technology | None = None
    attachments: list[Attachment] | None = None
    legacy_attachment_spelling: bool = False  # old maps' <attatchmentList>/<attatchment attatchTo>
    initialize: Initialize | None = None
    properties: list[Property] | None = None
    extras: list[Extra] = field(default_factory=list)  # what the model has no field for, verbatim
    # Map geometry from the spec's `map:` section (generator.mapgen), when the spec defines a new map.
    geometry: object | None = field(default=None, compare=False, repr=False)
    pos: Position | None = _pos()

    def find_property(self, name: str) -> Property | None:
        return next((p for p in self.properties or [] if p.name == name), None)

    def property_value(self, name: str) -> str | None:
        """A property's value attribute, else its <value> text; None if the game lacks it."""
        prop = self.find_property(name)
        if prop is None:
            return None
        return prop.value if prop.value is not None else prop.text


# The XML element each class declaring its attributes (generator.model.fields) is read from and written as.
# Not here (the importer and templates spell them, with why): <loader javaClass>, <triplea minimumVersion>,
# <diceSides value>, <offset round> and <variable>/<element name> are single values or names of Game;
# <frontierRules>, <repairRules> and <tech> are names in a list; <grid> and the property type markers keep
# every attribute as a mapping.
ELEMENT_CLASSES: dict[str, type] = {
    "info": Info, "territory": Territory, "water": GridWater, "connection": Connection,
    "remove-connection": Connection, "resource": Resource, "player": Player, "alliance": Alliance,
    "unit": Named, "relationshipType": Named, "territoryEffect": Named, "delegate": Delegate, "step": Step,
    "stepProperty": StepProperty, "productionRule": ProductionRule, "repairRule": ProductionRule, "cost": Cost,
    "result": Result, "productionFrontier": Frontier, "repairFrontier": Frontier, "playerProduction": PlayerFrontier,
    "playerRepair": PlayerFrontier, "techname": TechName, "playerTech": PlayerTech, "category": TechCategory,
    "attachment": Attachment, "option": Option, "territoryOwner": TerritoryOwner, "unitPlacement": UnitPlacement,
    "heldUnits": HeldUnits, "resourceGiven": ResourceGiven, "relationship": Relationship, "property": Property,
}
# Old maps' spellings of an element: its class's attributes in their legacy spelling (Attribute.legacy).
LEGACY_ELEMENT_CLASSES: dict[str, type] = {"attatchment": Attachment}
