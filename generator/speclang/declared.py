"""Every section of the spec language, declared once (generator.speclang.shapes.Section):
its keys in order, each key's kind, whether it is required, and one line saying
what it is for.

The readers check keys and scalar types against these declarations
(SpecReader.section / fields), the JSON Schema for editors is made from them
(generator.builder.jsonschema), and so are the README's key tables
(`python3 -m generator.speclang.declared README.md` rewrites them; tests check they
are current). The key order is the order hints list allowed keys in."""
from __future__ import annotations

import re
import sys
from typing import Callable
from pathlib import Path

from generator.model import fields
from generator.model import game as m
from generator.model.compare import SECTION_BY_NAME
from generator.model.fields import attribute_named, attributes_of
from generator.model.rename import KINDS
from generator.speclang.shapes import (FLAG, FULL_GAME, MOD, NAME, NAMES, PAIR, TEXT, VALUE, Free, Key, Keyed, Kind, ListOf,
                                   MapOf, OneOf, Section, Value)
from generator.core.enginename import ENGINE_NAMES



def _section(name: str, doc: str, *keys: Key, form: str = FULL_GAME) -> Section:
    return Section(name, doc, keys, form)


def _attributes(cls: type, *names: str, required: tuple[str, ...] = ()) -> tuple[Key, ...]:
    """Keys that are XML attributes of a model class: their kind and doc come from the model
    (generator.model.fields), in the order given here (the order hints and the README list them)."""
    chosen = [attribute_named(cls, name) for name in names] if names else attributes_of(cls)
    return tuple(Key(a.yaml, FLAG if a.kind == fields.FLAG else VALUE, a.doc, required=a.yaml in required)
                 for a in chosen)


def _attribute(cls: type, name: str, kind: Kind) -> Key:
    """A key that is an XML attribute of a model class (its doc from the model) whose spec kind is
    narrower than the model's (an enumeration)."""
    return Key(name, kind, attribute_named(cls, name).doc)


def _scalars(*names: str) -> tuple[Key, ...]:
    """Keys that are single values with the engine's own meaning (their docs are TripleA's)."""
    return tuple(Key(name, VALUE, f"the XML attribute {name}") for name in names)


# --- the full-game form ---------------------------------------------------------------------------------------

LIST_NAME = _attributes(m.Territory, "name")[0]  # the same words for every entry keyed by its name
INFO = _section("info", "the game's name and version (1.9 needs a version)", *_attributes(m.Info))
TRIPLEA = _section("triplea", "the engine version the game needs",
                   Key("minimumVersion", VALUE, "the oldest engine that can play it"))
GRID = _section("grid", "a grid of territories the engine generates",
                Key("name", VALUE, "the grid's name"), Key("type", VALUE, "square or hex"),
                *_scalars("x", "y", "horizontal-connections", "vertical-connections", "diagonal-connections"),
                Key("water", ListOf(PAIR, what="list of [x, y]"), "the grid cells that are sea zones"))
TERRITORY = _section("territory", "a territory: {} or {water: true}", *_attributes(m.Territory))
RESOURCE = _section("resource", "a resource such as PUs", *_attributes(m.Resource))
PLAYER = _section("player", "a player", *_attributes(m.Player))
DELEGATE = _section("delegate", "a delegate: the engine class that runs a kind of step",
                    *_attributes(m.Delegate, "name"),
                    Key("class", VALUE, "the short class name, e.g. MoveDelegate"),
                    *_attributes(m.Delegate, "javaClass", "display"))
STEP = _section("step", "one step of the turn sequence",
                *_attributes(m.Step, required=("name",)),
                Key("properties", Keyed(VALUE), "step properties: name → value"))
AMOUNTS = Keyed(VALUE, "unit type or resource")
PRODUCTION_RULE = _section("productionRule", "a production or repair rule",
                           *_attributes(m.ProductionRule),
                           Key("cost", AMOUNTS, "resource → quantity paid"),
                           Key("result", AMOUNTS, "unit type or resource → quantity got"))
FRONTIER_ENTRY = _section("frontier", "a frontier in the list form (the mapping form: name → [rules])",
                          *_attributes(m.Frontier), Key("rules", NAMES, "the rules it offers"))
FRONTIER = OneOf((NAMES, FRONTIER_ENTRY))
PRODUCTION = _section("production", "production and repair rules and frontiers",
                      Key("rules", Keyed(PRODUCTION_RULE), "production rules by name"),
                      Key("repairRules", Keyed(PRODUCTION_RULE), "repair rules by name"),
                      Key("repairFrontiers", Keyed(FRONTIER), "repair frontiers: name → [rules]"),
                      Key("frontiers", Keyed(FRONTIER), "production frontiers: name → [rules]"),
                      Key("playerProduction", Keyed(NAME, "player"), "player → production frontier"),
                      Key("playerRepair", Keyed(NAME, "player"), "player → repair frontier"))
TECHNAME = _section("techname", "a technology", *_attributes(m.TechName))
TECH_CATEGORY = _section("tech category", "a category in the list form (the mapping form: name → [technologies])",
                         *_attributes(m.TechCategory), Key("techs", NAMES, "its technologies"))
PLAYER_TECH = _section("player tech", "a player's technologies in the list form",
                       *_attributes(m.PlayerTech),
                       Key("categories", Keyed(OneOf((NAMES, TECH_CATEGORY)), "category"), "its categories"))
TECHNOLOGY = _section("technology", "technologies and what each player may research",
                      Key("technologies", Keyed(TECHNAME), "technologies by name"),
                      Key("playerTech", Keyed(PLAYER_TECH.key("categories").kind, "player", PLAYER_TECH),
                          "player → category → [technologies]"))
OPTION = _section("option", "an option with a count", *_attributes(m.Option, "value", "count"))
OPTION_VALUE = OneOf((VALUE, OPTION))
OPTIONS = MapOf(OneOf((VALUE, OPTION, ListOf(OPTION_VALUE, what="list of values (a repeated option)"))), "option",
                nullable=True)
ATTACHMENT_TYPES = ("unitType", "territory", "resource", "player", "relationship", "territoryEffect", "technology")
ATTACHMENT = _section("attachment", "an attachment: name, attachTo, class (short) or javaClass, type, options",
                      *_attributes(m.Attachment, "name", "attachTo", required=("name", "attachTo")),
                      Key("class", VALUE, "the short class name, e.g. UnitAttachment"),
                      *_attributes(m.Attachment, "javaClass"),
                      _attribute(m.Attachment, "type", Value(enum=ATTACHMENT_TYPES)),
                      *_attributes(m.Attachment, "foreach"),
                      Key("options", OneOf((OPTIONS, ListOf(MapOf(OPTION_VALUE, "option"),
                                                            what="list of one-key mappings (keeps the exact order)"))),
                          "option: value, exactly as TripleA names them; {value, count} for a count"))
UNIT_PLACEMENT = _section("unitPlacement", "starting units, in the list form",
                          *_attributes(m.UnitPlacement, *m.UnitPlacement.SPEC_ORDER))
UNIT_COUNT = _section("unitCount", "starting units of one type, with damage",
                      *_attributes(m.UnitPlacement, *m.UnitPlacement.COUNT_KEYS))
HELD_UNITS = _section("heldUnits", "units a player holds, not yet placed",
                      *_attributes(m.HeldUnits, *m.HeldUnits.SPEC_ORDER))
RESOURCE_GIVEN = _section("resourceGiven", "starting resources, in the list form", *_attributes(m.ResourceGiven))
RELATIONSHIP = _section("relationship", "a starting relationship ([player1, player2, type, roundValue] too)",
                        *_attributes(m.Relationship))
UNIT_COUNTS = MapOf(MapOf(MapOf(OneOf((VALUE, UNIT_COUNT)), "unit type", nullable=True), "owner", nullable=True),
                    "territory")
RESOURCE_COUNTS = MapOf(MapOf(VALUE, "resource", nullable=True), "player")
RELATIONSHIPS = ListOf(OneOf((RELATIONSHIP, ListOf(VALUE, max_items=4, what="[player1, player2, type, round]"))))
INITIALIZE = _section("initialize", "the starting position",
                      Key("owners", Keyed(VALUE, "territory"), "territory → owner"),
                      Key("units", OneOf((UNIT_COUNTS, ListOf(UNIT_PLACEMENT))), "starting units"),
                      Key("heldUnits", ListOf(HELD_UNITS), "units held, not yet placed"),
                      Key("resources", OneOf((RESOURCE_COUNTS, ListOf(RESOURCE_GIVEN))), "starting resources"),
                      Key("relationships", RELATIONSHIPS, "starting relationships"))
PROPERTY = _section("property", "a game property",
                    *_attributes(m.Property),
                    Key("type", Free("boolean, number, string, ... or {number: {min, max}}"), "the value's type"),
                    Key("text", VALUE, "the value as element text (the game notes)"))
EXTRA = _section("extra", "content kept verbatim by import: {at, after, xml | text} or {at, attributes}",
                 Key("at", TEXT, "the path of the element it belongs in"),
                 Key("after", Value(("integer",), minimum=0, what="whole number"), "how many elements come before"),
                 Key("xml", TEXT, "one XML element"), Key("text", TEXT, "text"),
                 Key("attributes", Free("name → value", {"type": "object"}), "attributes to add"))
GEOMETRY_DOC = "map geometry to generate (see Drawing a map)"
MAP = _section("map", "territories and connections, or a geometry to generate them from",
               Key("grids", ListOf(GRID), "grids the engine generates"),
               Key("territories", Keyed(TERRITORY), "territories by name: {} or {water: true}"),
               Key("connections", ListOf(PAIR), "connections: [a, b]"),
               Key("removeConnections", ListOf(PAIR), "connections of a grid to leave out"),
               *(Key(name, Free("see Drawing a map"), GEOMETRY_DOC) for name in (
                   "hexes", "squares", "sites", "polygons", "extraConnections", "blockedConnections", "style",
                   "lines")))
GEOMETRY_KEYS: tuple[str, ...] = MAP.names[4:]
ENGINES = ENGINE_NAMES
VARIABLE = _section("variable", "a variable in the list form (the mapping form: name → [elements])",
                    LIST_NAME, Key("elements", NAMES, "the names it stands for"))
RULES = Free("list of rules (see Rules)", {"type": "array", "items": {"$ref": "#/definitions/rule"}})
ASSETS = Free("see The map folder")
# Read by generator.scenarios (triplea-gen test); never built into the game.
SCENARIOS = Free("list of scenarios (see Scenarios)", {"type": "array", "items": {"type": "object"}})
FULL_GAME_TOP = _section(
    "full game", "",
    Key("info", INFO, "the game's name and version", required=True),
    Key("doctype", Value(("string", "null"), what="text"), "the DTD file name, e.g. game.dtd"),
    Key("loader", TEXT, "the game loader class (required by the 1.9 engine)"),
    Key("triplea", TRIPLEA, "the engine version the game needs"),
    Key("diceSides", VALUE, "sides of a die"),
    Key("variables", Keyed(OneOf((NAMES, VARIABLE))), "variables: name → [elements]"),
    Key("map", MAP, "territories and connections"),
    Key("resources", Keyed(RESOURCE), "resources by name"),
    Key("players", Keyed(PLAYER), "players by name"),
    Key("alliances", OneOf((MapOf(NAMES, "alliance"), ListOf(PAIR, what="list of [player, alliance]"))),
        "alliance name: [players]"),
    Key("units", NAMES, "unit types"),
    Key("relationshipTypes", NAMES, "relationship types"),
    Key("territoryEffects", NAMES, "territory effects"),
    Key("delegates", Keyed(DELEGATE), "delegates by name"),
    Key("sequence", ListOf(STEP), "the turn steps in order"),
    Key("offset", VALUE, "the round offset"),
    Key("production", PRODUCTION, "production rules and frontiers"),
    Key("technology", TECHNOLOGY, "technologies"),
    Key("legacySpelling", Value(("boolean",), what="true / false"), "write attachments the old way (attatchment)"),
    Key("attachments", ListOf(ATTACHMENT), "attachments in order"),
    Key("initialize", INITIALIZE, "the starting position"),
    Key("properties", Keyed(PROPERTY), "game properties by name"),
    Key("extra", ListOf(EXTRA), "content kept verbatim by import"),
    Key("engine", Value(enum=ENGINES), "the TripleA engine the build is checked for"),
    Key("rules", RULES, "house rules, expanded by macros"),
    Key("assets", ASSETS, "how new players and unit types look in the map folder"),
    Key("texts", ASSETS, "texts of the map folder's text files"),
    Key("scenarios", SCENARIOS, "engine tests of the rules (triplea-gen test)"),
)
# Top-level keys that belong to the build rather than to a game (a mod's add: cannot hold them).
BUILD_KEYS = ("engine", "rules", "assets", "texts", "scenarios")

# --- mods -----------------------------------------------------------------------------------------------------

BASE = _section("base", "where the base game is",
                Key("map", VALUE, "the map folder in downloadedMaps"),
                Key("game", VALUE, "the game file", required=True), form=MOD)
HEADER = _section("mod", "the mod's name and its base game",
                  Key("name", Value(("string",), what="text"), "the mod's name", required=True),
                  Key("version", NAME, "the mod's version (the base's if absent)"),
                  Key("base", OneOf((TEXT, BASE)), "{map: folder in downloadedMaps, game: file.xml}, or a path"),
                  Key("engine", Value(enum=ENGINES), "the TripleA engine the build is checked for"),
                  Key("macros", TEXT, "a folder of your own macro templates"), form=MOD)
RENAME = _section("rename", "new names, applied first, everywhere in the game",
                  *(Key(kind, MapOf(Value(what="new name")), f"old name → new name of {kind}") for kind in KINDS),
                  form=MOD)
CHANGED_ATTACHMENT = _section("changed attachment", "an attachment's options, by name and attachTo",
                              Key("name", VALUE, "the attachment's name", required=True),
                              Key("attachTo", VALUE, "what it is attached to", required=True),
                              Key("options", OPTIONS, "the options to set (null removes one)"),
                              form=MOD)
QUANTITY = Value(("string", "number", "boolean"), what="quantity")  # required: null is not a quantity
CHANGED_OPTIONS = Free("option → value")
CHANGED_PLAYER = _section("changed player", "a player's settings and production frontier",
                          *PLAYER.keys[1:], Key("frontier", VALUE, "the production frontier it uses"),
                          Key("prices", MapOf(OneOf((QUANTITY, MapOf(QUANTITY, "resource"))), "unit type"),
                              "its own price of unit types: its frontier derived, their rules replaced"), form=MOD)
CHANGED_PROPERTY = _section("changed property", "a property's value (or the value alone)",
                            PROPERTY.key("value"), PROPERTY.key("editable"), PROPERTY.key("text"), form=MOD)
FRONTIER_CHANGE = _section("frontier change", "rules added to and removed from a frontier",
                           Key("add", NAMES, "rules added"), Key("remove", NAMES, "rules removed"), form=MOD)
STEP_CHANGE = _section("step change", "steps put after or before a step",
                       Key("after", VALUE, "the step they come after"),
                       Key("before", VALUE, "the step they come before"),
                       Key("add", ListOf(STEP), "the new steps"), form=MOD)
CHANGE = _section(
    "change", "the base game's entries, changed by name",
    Key("units", Keyed(CHANGED_OPTIONS, "unit type"),
        "cost: sets every rule buying one; other keys: unitAttachment options"),
    Key("territories", Keyed(CHANGED_OPTIONS, "territory"),
        "owner and water; other keys: territoryAttachment options"),
    Key("players", Keyed(CHANGED_PLAYER, "player"), "a player's settings"),
    Key("properties", Keyed(OneOf((VALUE, CHANGED_PROPERTY)), "property"), "a property's value, set or added"),
    Key("attachments", ListOf(CHANGED_ATTACHMENT), "any attachment's options"),
    Key("alliances", Keyed(NAMES, "alliance"), "an alliance's members, replaced"),
    Key("frontiers", Keyed(FRONTIER_CHANGE, "frontier"), "rules added to and removed from a frontier"),
    Key("steps", ListOf(STEP_CHANGE), "steps added after or before a step"),
    Key("initialUnits", UNIT_COUNTS, "starting units, replaced; 0 removes"),
    Key("resources", Keyed(MapOf(QUANTITY, "resource", nullable=True), "player"), "starting resources, set"),
    Key("relationships", RELATIONSHIPS, "starting relationships, replaced by pair"), form=MOD)
SETUP_KEYS = CHANGE.names[5:]
REMOVED_ATTACHMENT = _section("removed attachment", "an attachment, by name and attachTo",
                              Key("name", VALUE, "the attachment's name"),
                              Key("attachTo", VALUE, "what it is attached to"), form=MOD)
ENTRY_KEY = Free("key: a name, or [key fields..., n]",
                 {"anyOf": [NAME.json(), {"type": "array"}, {"type": "object"}]})
ENTRY_KEYS = ListOf(ENTRY_KEY, what="list of keys")
# Sections the original remove: handles itself (with its own forms and cascades).
OWN_REMOVALS = (Key("connections", ListOf(PAIR), "connections: [a, b]"),
                Key("territories", NAMES, "territories, with their connections, attachments, owners and units"),
                Key("attachments", ListOf(REMOVED_ATTACHMENT), "attachments by name and attachTo"),
                Key("properties", NAMES, "properties"), Key("steps", NAMES, "steps"))
REMOVE = _section("remove", "entries of the base game taken out",
                  *OWN_REMOVALS,
                  *(Key(name, ENTRY_KEYS, f"{section.words} entries by key") for name, section in
                    SECTION_BY_NAME.items() if name not in {key.name for key in OWN_REMOVALS}),
                  Key("parts", NAMES, "whole parts of the game, element and all"), form=MOD)
REMOVE_KEYS = REMOVE.names[len(OWN_REMOVALS):]
PLACE_ENTRY = _section("place entry", "{after|before: KEY, move: [KEY, ...]} or {at: start, move: [...]}",
                       Key("after", ENTRY_KEY, "the entry they go after"),
                       Key("before", ENTRY_KEY, "the entry they go before"),
                       Key("at", Value(enum=("start", "end")), "start or end"),
                       Key("move", ENTRY_KEYS, "the entries moved", required=True), form=MOD)
PLACE = _section("place", "where entries go: {after|before: KEY, move: [KEY, ...]} or {at: start, move: [...]}",
                 *(Key(name, ListOf(PLACE_ENTRY), f"{section.words} entries moved") for name, section in
                   SECTION_BY_NAME.items()), form=MOD)
MOD_TOP = _section(
    "mod spec", "",
    Key("mod", HEADER, "the mod's name, version and base game", required=True),
    Key("rename", RENAME, "new names, applied first"),
    Key("add", Free("a fragment in the full-game form, or a list of them"), "entries appended to the base"),
    Key("change", CHANGE, "the base game's entries, changed by name"),
    Key("remove", REMOVE, "entries taken out"),
    Key("rules", RULES, "house rules, expanded by macros"),
    Key("replace", Free("entries in the full-game form, and top-level settings"),
        "entries replacing those with the same key"),
    Key("place", PLACE, "where entries go"),
    Key("assets", ASSETS, "how new players and unit types look in the map folder"),
    Key("texts", ASSETS, "texts of the map folder's text files"),
    Key("scenarios", SCENARIOS, "engine tests of the rules (triplea-gen test)"), form=MOD)
# Top-level settings `replace:` sets; their full-game form is a single value (or {minimumVersion}).
SETTING_KEYS = ("doctype", "loader", "triplea", "diceSides", "offset", "legacySpelling")


def sections_of(top: Section) -> list[Section]:
    """The section and every section nested in it, each once, in reading order."""
    found: list[Section] = []

    def visit(kind) -> None:
        if isinstance(kind, Section):
            if any(section is kind for section in found):
                return
            found.append(kind)
            for key in kind.keys:
                visit(key.kind)
        for inner in _inner_kinds(kind):
            visit(inner)

    visit(top)
    return found


def _inner_kinds(kind) -> tuple:
    if isinstance(kind, Keyed) and kind.entry is not None:
        return kind.item, kind.entry
    if isinstance(kind, (ListOf, MapOf, Keyed)):
        return (kind.item,)
    if isinstance(kind, OneOf):
        return kind.choices
    return ()


# --- the README's key tables ----------------------------------------------------------------------------------

def key_table(top: Section, skip: tuple[Section, ...] = ()) -> str:
    """A markdown table of every key of a form, section by section."""
    rows = ["| Section | Key | Kind | Meaning |", "| --- | --- | --- | --- |"]
    for section in sections_of(top):
        if any(section is skipped for skipped in skip):
            continue
        where = "top level" if section is top else f"*{section.name}*"
        for key in section.keys:
            kind = key.kind.words().replace("|", "\\|")
            required = " (required)" if key.required else ""
            rows.append(f"| {where} | `{key.name}` | {kind} | {key.doc}{required} |")
    return "\n".join(rows) + "\n"


def readme_tables() -> dict[str, str]:
    full_sections = tuple(sections_of(FULL_GAME_TOP))
    return {"full-game keys": key_table(FULL_GAME_TOP),
            "mod keys": key_table(MOD_TOP, skip=tuple(s for s in full_sections if s is not FULL_GAME_TOP))}


def _marker(name: str) -> tuple[str, str]:
    return f"<!-- generated: {name} (python3 -m generator.speclang.declared README.md) -->\n", \
        f"<!-- end: {name} -->\n"


def readme_blocks(text: str) -> dict[str, str | None]:
    """The generated blocks as they stand in a README text (None: a block's markers are missing)."""
    blocks: dict[str, str | None] = {}
    for name in readme_tables():
        start, end = _marker(name)
        match = re.search(re.escape(start) + "(.*?)" + re.escape(end), text, re.S)
        blocks[name] = match.group(1) if match else None
    return blocks


def _constant(text: str) -> Callable[[re.Match[str]], str]:
    """A replacement for re.sub that gives `text` as it is (made per call: no loop variable read late)."""
    return lambda _match: text


def update_readme(text: str) -> str:
    for name, table in readme_tables().items():
        start, end = _marker(name)
        # the block as it is (a replacement string would read its backslashes)
        text, count = re.subn(re.escape(start) + ".*?" + re.escape(end), _constant(start + table + end), text,
                              flags=re.S)
        if count != 1:
            raise ValueError(f"README has {count} blocks marked {start.strip()}")
    return text


if __name__ == "__main__":
    from generator.core.writer import write_file_atomically

    readme = Path(sys.argv[1])
    write_file_atomically(readme, update_readme(readme.read_text(encoding="utf-8")).encode("utf-8"))
