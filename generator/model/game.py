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
    name: str | None = None
    version: str | None = None
    pos: Position | None = _pos()


@dataclass(slots=True)
class Territory:
    name: str
    water: str | None = None
    pos: Position | None = _pos()


@dataclass(slots=True)
class GridWater:
    x: str | None = None
    y: str | None = None


@dataclass(slots=True)
class Grid:
    """1.9-only `<grid>`: a generated block of territories."""

    attributes: dict[str, str] = field(default_factory=dict)  # name, type, x, y, *-connections
    water: list[GridWater] = field(default_factory=list)
    pos: Position | None = _pos()


@dataclass(slots=True)
class Connection:
    t1: str
    t2: str
    pos: Position | None = _pos()


@dataclass(slots=True)
class Resource:
    name: str
    is_displayed_for: str | None = None
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
    player: str
    alliance: str
    pos: Position | None = _pos()


@dataclass(slots=True)
class Named:
    """An entity that is only a name: unit types, relationship types, territory effects."""

    name: str
    pos: Position | None = _pos()


@dataclass(slots=True)
class Delegate:
    name: str
    java_class: str
    display: str | None = None
    pos: Position | None = _pos()


@dataclass(slots=True)
class StepProperty:
    name: str
    value: str | None
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
    """A `<cost resource quantity>` or `<result resourceOrUnit quantity>`."""

    item: str
    quantity: str | None
    pos: Position | None = _pos()


@dataclass(slots=True)
class ProductionRule:
    name: str
    costs: list[Amount] = field(default_factory=list)
    results: list[Amount] = field(default_factory=list)
    pos: Position | None = _pos()


@dataclass(slots=True)
class Frontier:
    name: str
    rules: list[str] = field(default_factory=list)
    pos: Position | None = _pos()


@dataclass(slots=True)
class PlayerFrontier:
    player: str
    frontier: str
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
    name: str
    tech: str | None = None
    pos: Position | None = _pos()


@dataclass(slots=True)
class TechCategory:
    name: str
    techs: list[str] = field(default_factory=list)
    pos: Position | None = _pos()


@dataclass(slots=True)
class PlayerTech:
    player: str
    categories: list[TechCategory] = field(default_factory=list)
    pos: Position | None = _pos()


@dataclass(slots=True)
class Technology:
    technologies: list[TechName] | None = None  # None: no <technologies> element
    player_techs: list[PlayerTech] = field(default_factory=list)


@dataclass(slots=True)
class Option:
    name: str
    value: str | None
    count: str | None = None
    pos: Position | None = _pos()


@dataclass(slots=True)
class Attachment:
    name: str
    attach_to: str
    java_class: str
    type: str | None = None
    foreach: str | None = None
    options: list[Option] = field(default_factory=list)
    pos: Position | None = _pos()

    @property
    def class_name(self) -> str:
        """The simple class name, whatever package spelling the file used."""
        return self.java_class.rsplit(".", 1)[-1]


@dataclass(slots=True)
class TerritoryOwner:
    territory: str
    owner: str
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
    name: str
    value: str | None = None
    editable: str | None = None
    player: str | None = None
    min: str | None = None
    max: str | None = None
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
ELEMENT_CLASSES = {"player": Player, "step": Step, "unitPlacement": UnitPlacement, "heldUnits": HeldUnits,
                   "resourceGiven": ResourceGiven, "relationship": Relationship}
