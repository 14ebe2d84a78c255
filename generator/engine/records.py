"""The harness's JSON records, read through their one declaration: harness-records.schema.json
beside this module declares every record the Java harness prints (check results, play reports,
step times, round stats, odds, texts, the client's report ...); `read_output` is the one way
Python reads a harness report, and refuses one that matches none of the records its mode may
print, naming the record and where it differs (TG093).

The schema is checked here by a small reader of the JSON Schema keywords it uses (type,
properties, required, additionalProperties, items, $ref, const, enum, oneOf, minItems,
maxItems): triplea-gen needs no jsonschema package at run time, and tests/engine/test_records.py
checks that jsonschema, the reference, agrees with it on the schema and on real reports."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from generator.core.diagnostics import EXIT_UNUSABLE, Diagnostic, DiagnosticError, Position, display_path

SCHEMA_PATH = Path(__file__).resolve().parent / "harness-records.schema.json"
# What each mode's output may be, first match first: the schema's "outputs".
Record = dict[str, Any]


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return loaded


def record_names() -> list[str]:
    return sorted(schema()["$defs"])


def outputs() -> dict[str, list[str]]:
    """Mode (check, play, odds, texts, gui) -> the records its output may be, tried in order."""
    declared: dict[str, list[str]] = schema()["outputs"]
    return declared


class RecordMismatch(Exception):
    """A value that does not match a record: where ($.a.b[0]) and what is wrong."""

    def __init__(self, where: str, problem: str):
        super().__init__(f"at {where}: {problem}")
        self.where = where
        self.problem = problem


_TYPES: dict[str, Any] = {
    "object": dict, "array": list, "string": str, "boolean": bool, "null": type(None),
}


def _is_type(value: Any, name: str) -> bool:
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, _TYPES[name])


def _kind(value: Any) -> str:
    for name in ("null", "boolean", "integer", "number", "string", "array", "object"):
        if _is_type(value, name):
            return name
    return type(value).__name__


def check(value: Any, rule: dict[str, Any], where: str = "$") -> None:
    """Raises RecordMismatch where value breaks rule (a schema or a part of one)."""
    if "$ref" in rule:
        check(value, schema()["$defs"][rule["$ref"].rsplit("/", 1)[1]], where)
    if "oneOf" in rule:
        problems = []
        for alternative in rule["oneOf"]:
            try:
                check(value, alternative, where)
            except RecordMismatch as err:
                problems.append(str(err))
        if len(problems) == len(rule["oneOf"]):
            raise RecordMismatch(where, "matches none of its alternatives: " + "; ".join(problems))
        if len(problems) < len(rule["oneOf"]) - 1:
            raise RecordMismatch(where, "matches more than one of its alternatives")
    if "const" in rule and (value != rule["const"] or _kind(value) != _kind(rule["const"])):
        raise RecordMismatch(where, f"must be {json.dumps(rule['const'])}, not {json.dumps(value)}")
    if "enum" in rule and value not in rule["enum"]:
        raise RecordMismatch(where, f"must be one of {', '.join(map(json.dumps, rule['enum']))}, "
                             f"not {json.dumps(value)}")
    if "type" in rule:
        names = rule["type"] if isinstance(rule["type"], list) else [rule["type"]]
        if not any(_is_type(value, name) for name in names):
            raise RecordMismatch(where, f"must be {' or '.join(names)}, not {_kind(value)}")
    if isinstance(value, dict):
        _check_object(value, rule, where)
    if isinstance(value, list):
        if len(value) < rule.get("minItems", 0) or len(value) > rule.get("maxItems", len(value)):
            raise RecordMismatch(where, f"has {len(value)} items")
        if "items" in rule:
            for index, item in enumerate(value):
                check(item, rule["items"], f"{where}[{index}]")


def _check_object(value: dict[str, Any], rule: dict[str, Any], where: str) -> None:
    for key in rule.get("required", ()):
        if key not in value:
            raise RecordMismatch(where, f"misses {key!r}")
    properties = rule.get("properties", {})
    extra = rule.get("additionalProperties", True)
    for key, item in value.items():
        if key in properties:
            check(item, properties[key], f"{where}.{key}")
        elif extra is False:
            raise RecordMismatch(where, f"has {key!r}, which the record does not declare")
        elif isinstance(extra, dict):
            check(item, extra, f"{where}.{key}")


def read_output(mode: str, value: Any, engine: str) -> Record:
    """value (a report the harness printed in mode) as the first record of the mode's outputs it
    matches; raises TG093 naming each record tried and where the report differs from it."""
    tried = []
    for name in outputs()[mode]:
        try:
            check(value, {"$ref": f"#/$defs/{name}"})
        except RecordMismatch as err:
            tried.append((name, err))
            continue
        matched: Record = value
        return matched
    name, first = tried[0]
    raise DiagnosticError([Diagnostic(
        "TG093", f"the {engine} harness printed a {mode} report that matches no record it may print ("
        + "; ".join(f"as {name}: {err}" for name, err in tried) + ")",
        Position(display_path(SCHEMA_PATH), _line_of(name)),
        "the Java harness (generator/engine/java) and its schema disagree: declare the record's change in "
        "harness-records.schema.json, or fix the Java that prints it")], exit_status=EXIT_UNUSABLE)


def _line_of(name: str) -> int:
    """The schema's line that declares a record (for the diagnostic's position)."""
    for number, line in enumerate(SCHEMA_PATH.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip().startswith(f'"{name}": {{'):
            return number
    return 0
