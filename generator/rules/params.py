"""Macro parameters: their declared types (PARAM_TYPES, Param, as a macro header declares
them: generator.rules.macros reads headers) and the check of a rule's values against them,
with the names a game declares (NameIndex). check_value reports what is wrong at the rule's
YAML line (TG061 an unknown name, TG062 a value of the wrong form) and converts the rest
for the template: a single name where a list belongs becomes a list of one, and so on."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from generator.core.diagnostics import Position, closest

_ROUNDS = re.compile(r"\A\d+(-(\d+|\+))?(:\d+(-(\d+|\+))?)*\Z")
NO_DEFAULT = object()

# type -> (what the names refer to, is it a list)
PARAM_TYPES = {
    "player": ("player", False), "players": ("player", True),
    "territory": ("territory", False), "territories": ("territory", True),
    "unit": ("unit type", False), "units": ("unit type", True),
    "step": ("step", False), "steps": ("step", True),
    "resource": ("resource", False), "relationship": ("relationship type", False),
    "attachment": ("attachment", False), "attachments": ("attachment", True),
    "int": (None, False), "ints": (None, True), "bool": (None, False), "string": (None, False), "strings": (None, True),
    "rounds": (None, False), "mapping": (None, False), "list": (None, True),
    # {unit: count}, and {territory: {unit: count}}: names checked, counts whole numbers
    "unit_counts": ("unit type", False), "territory_units": ("territory", False),
    "when": ("step", True),  # before:STEP / after:STEP, the step checked
}


@dataclass
class Param:
    """A macro parameter as its header declares it; a mapping may also declare what it holds:
    the type of its keys and of its values, or (a record) the keys it may have, each typed."""

    name: str
    type: str
    default: object = NO_DEFAULT
    doc: str = ""
    keys: str | None = None  # mapping: the type every key must have (a one-value type: player, unit, string ...)
    values: Param | None = None  # mapping: the declaration every value must meet
    fields: dict[str, Param] | None = None  # a record: the keys it may have, each with its declaration
    what: str = ""  # a record: what one is called in messages ("effect")
    example: str = ""  # a record, or a mapping: written in messages about a malformed one
    nonempty: bool = False  # a mapping or a list: at least one entry
    one_of: tuple[str, ...] = ()  # a record must have at least one of these keys
    needs: tuple[str, ...] = ()  # a record's field: the other fields it needs beside it
    minimum: int | None = None  # int, ints: the smallest value allowed
    maximum: int | None = None  # int, ints: the largest value allowed
    choices: tuple[str, ...] = ()  # string, strings: the values allowed

    @property
    def required(self) -> bool:
        return self.default is NO_DEFAULT


# The names each parameter kind may refer to, as declared in a game (or a fragment of one).
_NAMES_IN = {
    "player": lambda game: (p.name for p in game.players),
    "territory": lambda game: (t.name for t in game.territories),
    "unit type": lambda game: (u.name for u in game.units or []),
    "step": lambda game: (s.name for s in game.steps or []),
    "resource": lambda game: (r.name for r in game.resources or []),
    "relationship type": lambda game: (r.name for r in game.relationship_types or []),
    "attachment": lambda game: (a.name for a in game.attachments or []),
}


class NameIndex:
    """The names a macro parameter may refer to, indexed once per build."""

    def __init__(self, game):
        self.names: dict[str, set[str]] = {kind: set() for kind in _NAMES_IN}
        self.names["player"].add("Neutral")
        self.names["relationship type"].update(
            {"self_relation", "null_relation", "default_war_relation", "default_allied_relation"})
        self.add_game(game)

    def add_game(self, game) -> None:
        """Every name declared in game: a whole game, or a fragment merged into one."""
        for kind, names_in in _NAMES_IN.items():
            self.names[kind].update(names_in(game))

    def add(self, kind: str, names) -> None:
        self.names[kind].update(names)


def _plain(value):
    """Located YAML data as plain dicts and lists, for a template."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def check_value(param: Param, value, index: NameIndex, report, pos: Position):
    """The value converted for the template, or None after reporting what is wrong."""
    kind, is_list = PARAM_TYPES[param.type]
    what = f"parameter '{param.name}'"
    if is_list:
        items = value if isinstance(value, list) else [value]
        if param.nonempty and not items:
            report("TG062", f"{what} needs at least one value", pos, param.doc or f"give {param.name} a value")
            return None
        if param.type == "list":
            # free-form items (mappings too, e.g. a list of effects); the macro checks what it reads
            return [_plain(item) for item in items]
        checked = [_check_scalar(param, kind, item, index, report, pos) for item in items]
        return None if any(c is None for c in checked) else checked
    if isinstance(value, (list, dict)) and param.type not in ("mapping", "unit_counts", "territory_units"):
        report("TG062", f"{what} takes one {kind or param.type}, not a {type(value).__name__}", pos,
               f"give a single value for {param.name}")
        return None
    if param.type == "mapping":
        return _check_mapping(param, value, index, report, pos)
    if param.type == "unit_counts":
        return _unit_counts(what, value, index, report, pos)
    if param.type == "territory_units":
        if not isinstance(value, dict) or not value:
            report("TG062", f"{what} takes territories with their units", pos,
                   f"write {param.name}: {{Spain: {{infantry: 7, armour: 1}}}}")
            return None
        by_territory = {}
        for territory, units in value.items():
            name = _check_scalar(param, "territory", territory, index, report, pos)
            counts = _unit_counts(f"{what} in {territory}", units, index, report, pos)
            if name is None or counts is None:
                return None
            by_territory[name] = counts
        return by_territory
    return _check_scalar(param, kind, value, index, report, pos)


def _check_mapping(param: Param, value, index: NameIndex, report, pos: Position) -> dict | None:
    """A mapping checked against what its declaration says of its keys and values, or of its fields."""
    what = f"parameter '{param.name}'"
    if param.fields is not None:
        return _check_record(param, param.fields, value, index, report, pos)
    if not isinstance(value, dict) or (param.nonempty and not value):
        report("TG062", f"{what} takes a mapping" + (" with at least one entry" if param.nonempty else ""), pos,
               f"e.g. {param.name}: {param.example}" if param.example else f"write {param.name}: {{key: value}}")
        return None
    checked = {}
    for key, item in value.items():
        if param.keys is not None:
            key = _check_scalar(replace(param, type=param.keys), PARAM_TYPES[param.keys][0], key, index, report, pos)
            if key is None:
                return None
        if param.values is not None:
            item = check_value(replace(param.values, name=f"{param.name}.{key}"), item, index, report, pos)
            if item is None:
                return None
        checked[key] = item
    return checked


def _check_record(param: Param, fields: dict[str, Param], value, index: NameIndex, report,
                  pos: Position) -> dict | None:
    """A mapping with declared keys (fields), each checked by its own declaration; a field given
    no value (`key:` alone) stays None, as if it were left out."""
    what = f"parameter '{param.name}'"
    record = param.what or "entry"
    if not isinstance(value, dict):
        report("TG062", f"{what}: each {record} is a mapping" + (f" such as {param.example}" if param.example else ""),
               pos, f"its keys: {', '.join(fields)}")
        return None
    for key in value:
        if key not in fields:
            report("TG062", f"{what}: {record}: unknown key '{key}' (keys: {', '.join(fields)})", pos,
                   closest(str(key), fields) or f"use the keys {param.name} declares")
            return None
    if param.one_of and not any(value.get(key) for key in param.one_of):
        report("TG062", f"{what}: {record} without {' or '.join(param.one_of)}", pos,
               f"give {param.one_of[0]}")
        return None
    checked = {}
    for key, item in value.items():
        field = fields[key]
        missing = [other for other in field.needs if not value.get(other)]
        if item and missing:
            report("TG062", f"{what}: {record}: {key} need {' and '.join(missing)}", pos, f"give {missing[0]} too")
            return None
        if item is not None:
            item = check_value(replace(field, name=f"{param.name}.{key}"), item, index, report, pos)
            if item is None:
                return None
        checked[key] = item
    return checked


def _unit_counts(what: str, value, index: NameIndex, report, pos: Position) -> dict | None:
    """{unit type: count}, checked; the order given is kept (it is the order of the XML)."""
    if not isinstance(value, dict) or not value:
        report("TG062", f"{what} takes unit types with their counts", pos, "write {infantry: 2, armour: 1}")
        return None
    checked = {}
    for unit, count in value.items():
        unit = str(unit)
        if unit not in index.names["unit type"]:
            report("TG061", f"{what}: the game has no unit type '{unit}'", pos,
                   closest(unit, index.names["unit type"]) or "check the spelling against the game's unit types")
            return None
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            report("TG062", f"{what}: the count of {unit} must be a whole number of 0 or more, not {count!r}", pos,
                   "write a number such as 2")
            return None
        checked[unit] = count
    return checked


def _check_scalar(param: Param, kind: str | None, value, index: NameIndex, report, pos: Position):
    what = f"parameter '{param.name}'"
    if param.type in ("int", "ints"):
        if isinstance(value, bool) or not isinstance(value, int):
            report("TG062", f"{what} must be a whole number, not {value!r}", pos, "write a number such as 5")
            return None
        if param.minimum is not None and value < param.minimum:
            report("TG062", f"{what} must be {param.minimum} or more, not {value}", pos, param.doc or
                   f"write a number of {param.minimum} or more")
            return None
        if param.maximum is not None and value > param.maximum:
            report("TG062", f"{what} must be at most {param.maximum}, not {value}", pos, param.doc or
                   f"write a number up to {param.maximum}")
            return None
        return value
    if param.type == "bool":
        if not isinstance(value, bool):
            report("TG062", f"{what} must be true or false, not {value!r}", pos, "write true or false")
            return None
        return value
    if isinstance(value, (dict, list)) or value is None:
        report("TG062", f"{what} must be a single value, not {value!r}", pos, "give a name or a number")
        return None
    text = str(value)
    if param.choices and text not in param.choices:
        report("TG062", f"{what} must be {_alternatives(param.choices)}, not '{text}'", pos,
               closest(text, param.choices) or param.doc or f"write one of {', '.join(param.choices)}")
        return None
    if param.type == "when":
        moment, _, step = text.partition(":")
        if moment not in ("before", "after") or not step:
            report("TG062", f"{what} must be before:STEP or after:STEP, not {text!r}", pos,
                   "e.g. after:germansPolitics")
            return None
        if step not in index.names["step"]:
            report("TG061", f"{what}: the game has no step '{step}'", pos,
                   closest(step, index.names["step"]) or "check the step name against the game's sequence")
            return None
        return text
    if param.type == "rounds" and not _ROUNDS.match(text):
        report("TG062", f"{what} must be rounds such as 3, 3-10 or 4-+, not {text!r}", pos,
               "rounds are a number, a range a-b, or a-+ for 'a and later', joined by ':'")
        return None
    if kind is not None and text not in index.names[kind]:
        suggestion = closest(text, index.names[kind])
        report("TG061", f"{what}: the game has no {kind} '{text}'", pos,
               suggestion or f"check the spelling against the game's {kind}s")
        return None
    return text


def _alternatives(names: tuple[str, ...]) -> str:
    """'war or attack', 'owned, allied or total'."""
    return " or ".join(filter(None, (", ".join(names[:-1]), names[-1])))
