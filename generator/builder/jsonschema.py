"""The JSON Schema of the spec language, for editors (completion, underlined mistakes).

It is made from the declarations the spec readers check against
(generator.speclang.declared: every key, its kind, whether it is required, its doc
line), the mod-folder and rule keys, and the macro headers, so the editor and the
build agree on every key; tests/builder/test_share.py checks that they do."""
from __future__ import annotations

import json
from pathlib import Path

from generator.speclang import declared as d
from generator.speclang.shapes import NAME
from generator.rules import expand as rules
from generator.speclang import assets as assetspec
from generator.rules.macros import PARAM_TYPES, load_macros
from generator.core.writer import write_file_atomically

SCALAR = NAME.json()


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


def _properties(section: d.Section) -> dict:
    return section.json()["properties"]


def _full_game_properties() -> dict:
    properties = _properties(d.FULL_GAME_TOP)
    properties.update(assets=_assets_schema(), texts=_texts_schema())
    return properties


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
_PARAM_SHAPES: dict[str, dict] = {"int": {"type": ["integer", "string"]}, "ints": {"type": ["integer", "string"]},
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
    """add:/replace: take fragments of the full-game form (generator.speclang.overlay_edit)."""
    settings = {key: {"anyOf": [fragment["properties"][key], {"type": "null"}]} for key in d.SETTING_KEYS}
    replace = {"type": "object", "additionalProperties": False,
               "properties": dict(fragment["properties"], **settings),
               "description": "entries in the full-game form, each replacing the entry with its key; "
                              "settings (null removes one)"}
    return {"replace": replace,
            "add": {"anyOf": [fragment, {"type": "array", "items": fragment}],
                    "description": "a fragment in the full-game form, or a list of them (added in turn)"}}


def build_schema() -> dict:
    macros = load_macros()
    full = _full_game_properties()
    full_game = {"type": "object", "additionalProperties": False, "properties": full,
                 "required": [key.name for key in d.FULL_GAME_TOP.keys if key.required]}
    fragment = {"type": "object", "additionalProperties": False,
                "properties": {k: v for k, v in full.items() if k not in d.BUILD_KEYS}}
    mod_sections = _properties(d.MOD_TOP)
    mod_sections.update(rules=full["rules"], assets=full["assets"], texts=full["texts"], **_exact_forms(fragment))
    mod = {"type": "object", "additionalProperties": False, "properties": mod_sections,
           "required": [key.name for key in d.MOD_TOP.keys if key.required]}
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
