"""The JSON Schema of the spec language, for editors (completion, underlined mistakes).

It is made from the same key tables the spec readers use (generator.spec.fullgame.KEYS,
the mod and rule keys) and from the macro headers, so the editor and the build
agree on every key; tests/test_share.py checks that they do."""
from __future__ import annotations

import json
from pathlib import Path

from generator.spec import overlay, overlay_edit, fullgame as spec
from generator.rules import expand as rules
from generator.write.modfolder import assetspec
from generator.rules.macros import PARAM_TYPES, load_macros
from generator.write.writer import write_file_atomically

SCALAR = {"type": ["string", "number", "boolean"]}
NAMES = {"type": "array", "items": SCALAR}
PAIR = {"type": "array", "items": SCALAR, "minItems": 2, "maxItems": 2}


def _object(keys, properties: dict | None = None, doc: str = "") -> dict:
    """A mapping that accepts exactly these keys (anything where no shape is given)."""
    properties = properties or {}
    schema = {"type": ["object", "null"], "additionalProperties": False,
              "properties": {key: properties.get(key, {}) for key in keys}}
    if doc:
        schema["description"] = doc
    return schema


def _keyed(entry: dict, doc: str = "") -> dict:
    """A section keyed by name, or the list form that carries the name in each entry."""
    schema = {"type": ["object", "array"], "additionalProperties": entry}
    if doc:
        schema["description"] = doc
    return schema


def _fields(kind: str, shapes: dict | None = None, doc: str = "") -> dict:
    return _object(spec.KEYS[kind], {k: v for k, v in (shapes or {}).items()}, doc)


def _full_game_properties() -> dict:
    attachment = _fields("attachment", {
        "options": {"anyOf": [{"type": "object", "additionalProperties": {
            "anyOf": [SCALAR, {"type": "null"}, _fields("option"), {"type": "array"}]}}, {"type": "array"}],
            "description": "option: value, exactly as TripleA names them; {value, count} for a count"},
        "type": {"enum": ["unitType", "territory", "resource", "player", "relationship", "territoryEffect",
                          "technology"]}},
        "an attachment: name, attachTo, class (short) or javaClass, type, options")
    territories = _keyed(_fields("territory"), "territories by name: {} or {water: true}")
    geometry = {key: {} for key in spec.GEOMETRY_KEYS}
    return {
        "info": _fields("info", doc="the game's name and version (1.9 needs a version)"),
        "doctype": {"type": ["string", "null"]},
        "loader": {"type": "string"},
        "triplea": _fields("triplea"),
        "diceSides": SCALAR,
        "variables": {"type": ["object", "array"]},
        "map": _object(spec.MAP_KEYS + spec.GEOMETRY_KEYS, dict(
            grids={"type": "array", "items": _fields("grid")}, territories=territories,
            connections={"type": "array", "items": PAIR}, removeConnections={"type": "array", "items": PAIR},
            **geometry), "territories and connections, or a geometry to generate them from"),
        "resources": _keyed(_fields("resource")),
        "players": _keyed(_fields("player"), "players by name"),
        "alliances": {"anyOf": [{"type": "object", "additionalProperties": NAMES}, {"type": "array"}],
                      "description": "alliance name: [players]"},
        "units": NAMES, "relationshipTypes": NAMES, "territoryEffects": NAMES,
        "delegates": _keyed(_fields("delegate")),
        "sequence": {"type": "array", "items": _fields("step"), "description": "the turn steps in order"},
        "offset": SCALAR,
        "production": _object(spec.KEYS["production"], {
            "rules": _keyed(_fields("productionRule")), "repairRules": _keyed(_fields("productionRule"))}),
        "technology": _object(spec.KEYS["technology"], {"technologies": _keyed(_fields("techname"))}),
        "legacySpelling": {"type": "boolean"},
        "attachments": {"type": "array", "items": attachment},
        "initialize": _object(spec.KEYS["initialize"], {
            "heldUnits": {"type": "array", "items": _fields("heldUnits")}}),
        "properties": _keyed(_fields("property"), "game properties by name"),
        "extra": {"type": "array", "items": _fields("extra", {
            "at": {"type": "string"}, "after": {"type": "integer", "minimum": 0}, "xml": {"type": "string"},
            "text": {"type": "string"}, "attributes": {"type": "object"}}),
                  "description": "content kept verbatim by import: {at, after, xml | text} or {at, attributes}"},
        "engine": {"enum": list(spec.ENGINES), "description": "the TripleA engine the build is checked for"},
        "rules": {"type": "array", "items": {"$ref": "#/definitions/rule"}},
        "assets": _assets_schema(),
        "texts": _texts_schema(),
        "scenarios": {"type": "array", "items": {"type": "object"},
                      "description": "engine tests of the rules (triplea-gen test); not built into the game"},
    }


def _picture(doc: str) -> dict:
    return {"anyOf": [{"const": assetspec.DRAWN}, _object(assetspec.PICTURE_KEYS, {
        "from": SCALAR, "mark": {"type": "string", "pattern": "^[A-Za-z0-9]{1,3}$"}})], "description": doc}


def _assets_schema() -> dict:
    player = _object(assetspec.ASSET_PLAYER_KEYS, {
        "color": {"type": "string", "pattern": "^#?[0-9A-Fa-f]{6}$", "description": "RRGGBB for map.properties"},
        "flag": _picture("drawn, or {from: PLAYER whose flag is recoloured, mark: letters}"),
        "units": _picture("{from: PLAYER whose unit images are recoloured}, or drawn")})
    unit = _object(assetspec.ASSET_UNIT_KEYS, {
        "image": _picture("drawn, or {from: UNIT whose images are used, mark: letters of a badge}")})
    return _object(assetspec.ASSET_KEYS, {"players": _keyed(player), "units": _keyed(unit)},
                   "how new players and unit types look in the map folder")


def _texts_schema() -> dict:
    plain = {"type": "object", "additionalProperties": SCALAR}
    suffixes = assetspec.ACTION_TEXT_SUFFIXES
    action = {"type": "object", "additionalProperties": {
        "anyOf": [SCALAR, _object(suffixes, {suffix: SCALAR for suffix in suffixes})]}}
    return _object(assetspec.TEXT_KEYS, {"notifications": plain, "politics": action, "actions": action,
                                         "objectives": plain}, "texts of the map folder's text files, by key")


# JSON shapes of macro parameter types that are not single names or values.
_PARAM_SHAPES = {"int": {"type": ["integer", "string"]}, "ints": {"type": ["integer", "string"]},
                 "bool": {"type": ["boolean", "string"]}, "mapping": {"type": "object"},
                 "unit_counts": {"type": "object"}, "territory_units": {"type": "object"}}


def _param_schema(param) -> dict:
    kind, is_list = PARAM_TYPES[param.type]
    base = _PARAM_SHAPES.get(param.type, SCALAR)
    schema = {"anyOf": [base, {"type": "array", "items": base}]} if is_list else dict(base)
    schema["description"] = f"{param.type}: {param.doc}" if param.doc else param.type
    return schema


def _rule_schema(macros) -> dict:
    rule = _object(rules.RULE_KEYS, {
        "id": {"type": ["string", "number"], "description": "the rule's id, e.g. S000-R01"},
        "text": {"type": "string", "description": "the rule in words, for the game notes"},
        "use": {"enum": sorted(macros), "description": "the macro that enforces the rule"},
        "with": {"type": "object", "description": "the macro's parameters"},
        "for": {"type": "object", "description": "loops: name: [values] or name: a..b"},
        "status": {"enum": list(rules.STATUSES)},
        "note": {"type": "string"},
    }, "one house rule: id, text, and use + with (or status: notes)")
    rule["required"] = ["id", "text"]
    rule["allOf"] = [{
        "if": {"properties": {"use": {"const": name}}, "required": ["use"]},
        "then": {"properties": {"with": {
            "type": "object", "additionalProperties": False, "description": macro.description,
            "properties": {p.name: _param_schema(p) for p in macro.params.values()},
            "required": [p.name for p in macro.params.values() if p.required]}}}}
        for name, macro in sorted(macros.items())]
    return rule


def _exact_forms(fragment: dict) -> dict:
    """remove:/replace:/place: of any section (generator.spec.overlay_edit)."""
    key = {"anyOf": [SCALAR, {"type": "array"}, {"type": "object"}],
           "description": "an entry's name, or [its key fields..., which one of several]"}
    keys = {"type": "array", "items": key}
    place = {"type": "array", "items": {
        "type": "object", "additionalProperties": False, "required": ["move"],
        "properties": {"after": key, "before": key, "at": {"enum": ["start", "end"]}, "move": keys}}}
    replace = {"type": "object", "additionalProperties": False,
               "properties": dict(fragment["properties"], **{k: {} for k in overlay_edit.SETTING_KEYS}),
               "description": "entries in the full-game form, each replacing the entry with its key; "
                              "settings (null removes one)"}
    remove = {"type": ["object", "null"], "description": "entries by key, per section; parts: whole parts",
              "properties": {name: keys for name in overlay_edit.REMOVE_KEYS}}
    return {"replace": replace, "remove": remove,
            "add": {"anyOf": [fragment, {"type": "array", "items": fragment}],
                    "description": "a fragment in the full-game form, or a list of them (added in turn)"},
            "place": _object(overlay_edit.PLACE_KEYS, {name: place for name in overlay_edit.PLACE_KEYS},
                             "where entries go: {after|before: KEY, move: [KEY, ...]} or {at: start, move: [...]}")}


def build_schema() -> dict:
    macros = load_macros()
    full = _full_game_properties()
    full_game = {"type": "object", "additionalProperties": False, "properties": full}
    fragment = {"type": "object", "additionalProperties": False,
                "properties": {k: v for k, v in full.items() if k not in ("engine", "rules", "assets", "texts", "scenarios")}}
    header = _object(overlay.HEADER_KEYS, {
        "name": {"type": "string"}, "version": SCALAR, "engine": {"enum": list(spec.ENGINES)},
        "base": {"anyOf": [{"type": "string"}, _object(("map", "game"))],
                 "description": "{map: folder in downloadedMaps, game: file.xml}, or a path"},
        "macros": {"type": "string", "description": "a folder of your own macro templates"}})
    mod_sections = {key: {"type": ["object", "null"]} for key in overlay.MOD_KEYS}
    mod_sections.update(mod=header, rules=full["rules"], assets=full["assets"], texts=full["texts"],
                        scenarios=full["scenarios"],
                        **_exact_forms(fragment))
    mod = {"type": "object", "additionalProperties": False, "required": ["mod"], "properties": mod_sections}
    return {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "$id": "https://triplea-gen.invalid/rules.schema.json",
        "title": "triplea-gen spec: a TripleA game, or a mod of one",
        "definitions": {"rule": _rule_schema(macros), "fullGame": full_game, "mod": mod},
        "if": {"type": "object", "required": ["mod"]},
        "then": {"$ref": "#/definitions/mod"},
        "else": {"$ref": "#/definitions/fullGame"},
    }


def write_schema(path: str | Path) -> Path:
    text = json.dumps(build_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    return write_file_atomically(path, text.encode("utf-8"))
