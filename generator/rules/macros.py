"""Rule macros: one Jinja template per macro, in templates/rules/ or a spec's own
macro folder. A template starts with a header comment declaring its parameters:

    {#---
    description: One-time payment the first time an enemy goes to war with a player.
    status: enforced
    params:
      receiver: {type: player, doc: who is paid}
      amount: {type: int}
      attackers: {type: players, default: []}
    ---#}

Parameter types name what the value refers to, so that a wrong name is caught at
the rule's YAML line with a suggestion, before anything is rendered. A mapping
declares what it holds, so that the loader checks it and the template need not:

      groups: {type: mapping, keys: player, values: players}      # {Germans: [Italians]}
      effects:
        type: mapping
        keys: string
        nonempty: true                                             # at least one entry
        values:                                                    # each value a record:
          type: mapping
          what: effect                                             # its name in messages
          example: "{gift: {infantry: 1}}"
          one_of: [gift, resource]                                 # needs one of these keys
          fields: {gift: unit_counts, resource: int,               # the keys it may have
                   territory_properties: {type: mapping, needs: territories}, territories: territories}
      amount: {type: int, min: 1, max: 6}                         # bounds of a whole number
      event: {type: string, choices: [war, attack]}               # the values a text may take
      kinds: {type: strings, nonempty: true}                      # a list with at least one value

The header may also carry `note:` (text for the game notes of every rule using
the macro) and `conditions: true` (the macro takes the standard condition
parameters, CONDITION_PARAMS, handed to the template as `condition`). Files whose names
start with `_` are helpers for the macros (templates/rules/_common.j2), not macros."""
from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

import jinja2

from generator.core.datacache import load_yaml_text
from generator.core.diagnostics import Position, closest, display_path
from generator.render.templates import TEMPLATES_DIR, environment

RULES_DIR = TEMPLATES_DIR / "rules"
_HEADER = re.compile(r"\A\{#---\n(.*?)\n---#\}\n?", re.S)
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
    nonempty: bool = False  # mapping: at least one entry
    one_of: tuple[str, ...] = ()  # a record must have at least one of these keys
    needs: tuple[str, ...] = ()  # a record's field: the other fields it needs beside it
    minimum: int | None = None  # int, ints: the smallest value allowed
    maximum: int | None = None  # int, ints: the largest value allowed
    choices: tuple[str, ...] = ()  # string, strings: the values allowed

    @property
    def required(self) -> bool:
        return self.default is NO_DEFAULT


@dataclass
class Macro:
    name: str
    path: Path
    description: str
    status: str  # enforced | partial: what the macro itself achieves in the engine
    params: dict[str, Param] = field(default_factory=dict)
    takes_conditions: bool = False
    note: str = ""  # what players should know whenever the macro is used (goes into the game notes)


class MacroError(Exception):
    """A macro template that is itself broken (bad header, not UTF-8) or that names a file it may not
    read (a link, a name outside its folder); reported as TG067 against the template file."""

    def __init__(self, path: Path | str, message: str, line: int = 1, hint: str = ""):
        super().__init__(f"{display_path(path)}: {message}")
        self.position = Position(display_path(path), line, 1)
        self.message, self.hint = message, hint


def read_user_template(folder: Path, name: str) -> tuple[str, Path]:
    """The text of template `name` (a/b.j2) in a spec's own macro folder, which may come from
    anybody (a forum zip): no absolute name, no `..`, no link anywhere below the folder (the file
    or a folder on the way), the folder itself no link, UTF-8. FileNotFoundError if absent."""
    parts = name.replace("\\", "/").split("/")
    if name.startswith(("/", "\\")) or os.path.isabs(name) or any(p in ("", ".", "..") for p in parts):
        raise MacroError(folder, f"a macro may only load templates inside its folder, not {name!r}",
                         hint="name a template of the macro folder, e.g. {% import '_helpers.j2' as h %}")
    path = folder
    for part in ["", *parts]:
        path = path / part if part else path
        info = os.lstat(path)  # FileNotFoundError: not there
        if stat.S_ISLNK(info.st_mode):
            raise MacroError(path, "a macro folder may not hold links (a link could read any file of yours)",
                             hint="replace the link by the file it points to, after checking what it is")
    if not stat.S_ISREG(info.st_mode):
        raise MacroError(path, "a template must be a plain file")
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))  # replaced by a link since: refused
    with os.fdopen(descriptor, "rb") as file:
        data = file.read()
    try:
        return data.decode("utf-8"), path
    except UnicodeDecodeError as err:
        line = data[:err.start].count(b"\n") + 1
        raise MacroError(path, f"a template must be UTF-8 text; byte {err.start} is not", line,
                         "save the file as UTF-8") from None


class UserFolderLoader(jinja2.BaseLoader):
    """Jinja's loader for a spec's own macro folder, through read_user_template."""

    def __init__(self, folder: Path):
        self.folder = folder

    def get_source(self, environment, template):
        try:
            text, path = read_user_template(self.folder, template)
        except FileNotFoundError:
            raise jinja2.TemplateNotFound(template) from None
        stamp = os.lstat(path).st_mtime_ns
        return text, str(path), lambda: _unchanged(path, stamp)


def _unchanged(path: Path, stamp: int) -> bool:
    try:
        return os.lstat(path).st_mtime_ns == stamp
    except OSError:
        return False


# The condition parameters every macro with `conditions: true` in its header takes; they become
# condition attachments through generator.rules.helpers.Conditions.
CONDITION_PARAMS = {
    "owns": ("territories", [], "territories the player (or owner:) must own itself"),
    "allied_owns": ("territories", [], "territories the player's side (its alliances) must own"),
    "not_owns": ("territories", [], "territories the player (or owner:) must own none of"),
    "count": ("string", "all", "how many of owns / allied_owns: all, a number, or each (counts per territory)"),
    "owner": ("players", [], "whose ownership and wars count (default: the rule's player)"),
    "at_war_with": ("players", [], "holds only while at war with all of these"),
    "not_at_war_with": ("players", [], "holds only while at war with none of these"),
    "rounds": ("rounds", "", "only in these rounds, e.g. 3, 3-10 or 4-+"),
    "conditions": ("attachments", [], "existing conditions (RulesAttachment names) that must hold too"),
}


def _load_macro(path: Path, user_folder: Path | None) -> Macro:
    info = os.lstat(path)
    return _read_macro(path, user_folder, info.st_mtime_ns, info.st_size)


@lru_cache(maxsize=1024)
def _read_macro(path: Path, user_folder: Path | None, mtime_ns: int, size: int) -> Macro:
    """A macro's header, read again only when its file changes (`watch` and the build server
    rebuild many times in one process; Macro objects are never modified)."""
    if user_folder is not None:
        text = read_user_template(user_folder, path.name)[0]
    else:
        text = path.read_text(encoding="utf-8")
    match = _HEADER.match(text)
    if not match:
        raise MacroError(path, "a macro template starts with a {#--- ... ---#} header declaring its params",
                         hint="see templates/rules/ for examples; a helper that is no macro has a name starting "
                              "with '_'")
    header = _header(path, match.group(1))
    params = {str(name): _declaration(path, str(name), spec) for name, spec in header["params"].items()}
    if header.get("conditions"):
        for name, (type_, default, doc) in CONDITION_PARAMS.items():
            params.setdefault(name, Param(name, type_, default, doc))
    return Macro(path.name.removesuffix(".xml.j2"), path, header.get("description", ""),
                 header.get("status", "enforced"), params, bool(header.get("conditions")),
                 header.get("note", ""))


_DECLARATION_KEYS = ("type", "default", "doc", "keys", "values", "fields", "what", "example", "nonempty", "one_of",
                     "needs", "min", "max", "choices")
_MAPPING_ONLY = ("keys", "values", "fields", "what", "example", "one_of")
# header keys that constrain a value, and the types they are for
_CONSTRAINTS = {"min": ("int", "ints"), "max": ("int", "ints"), "choices": ("string", "strings"),
                "nonempty": tuple(t for t, (_, is_list) in PARAM_TYPES.items() if is_list) + ("mapping",)}
_VALUE_TYPES = ("mapping", "unit_counts", "territory_units", "list")  # never the type of a mapping's keys


def _declaration(path: Path, name: str, spec) -> Param:
    """A parameter's declaration: {type: T, default:, doc:, ...}, or just the type's name (inside a
    mapping's values: or fields:). MacroError where it is not one."""
    spec = {"type": spec} if isinstance(spec, str) else spec if isinstance(spec, dict) else {}
    kind = spec.get("type")
    if kind not in PARAM_TYPES:
        raise MacroError(path, f"param '{name}' has unknown type {kind!r}", 2, f"use one of {', '.join(PARAM_TYPES)}")
    unknown = [str(key) for key in spec if key not in _DECLARATION_KEYS]
    if unknown:
        raise MacroError(path, f"param '{name}' has unknown key '{unknown[0]}'", 2,
                         closest(unknown[0], _DECLARATION_KEYS) or f"keys: {', '.join(_DECLARATION_KEYS)}")
    misplaced = [key for key in _MAPPING_ONLY if key in spec and kind != "mapping"]
    if misplaced:
        raise MacroError(path, f"param '{name}': {misplaced[0]} is only for a mapping, not a {kind}", 2,
                         "write type: mapping, or leave the key out")
    for key, types in _CONSTRAINTS.items():
        if key in spec and kind not in types:
            raise MacroError(path, f"param '{name}': {key} is for {', '.join(types)}, not {kind}", 2,
                             "leave the key out, or change the type")
    for key in ("min", "max"):
        if key in spec and (isinstance(spec[key], bool) or not isinstance(spec[key], int)):
            raise MacroError(path, f"param '{name}': {key} must be a whole number", 2, f"e.g. {key}: 0")
    keys = spec.get("keys")
    if keys is not None and (keys not in PARAM_TYPES or PARAM_TYPES[keys][1] or keys in _VALUE_TYPES):
        raise MacroError(path, f"param '{name}': keys must be a one-value type, not {keys!r}", 2,
                         "e.g. keys: player, keys: unit or keys: string")
    fields = spec.get("fields")
    if fields is not None and not isinstance(fields, dict):
        raise MacroError(path, f"param '{name}': fields must map each key to its type", 2,
                         "e.g. fields: {players: players, gift: unit_counts}")
    param = Param(name, kind, spec.get("default", NO_DEFAULT), str(spec.get("doc", "")), keys,
                  _declaration(path, name, spec["values"]) if "values" in spec else None,
                  {str(f): _declaration(path, f"{name}.{f}", s) for f, s in fields.items()} if fields else None,
                  str(spec.get("what", "")), str(spec.get("example", "")), bool(spec.get("nonempty")),
                  _names(path, name, spec, "one_of"), _names(path, name, spec, "needs"), spec.get("min"),
                  spec.get("max"), _names(path, name, spec, "choices"))
    for field_name, field in (param.fields or {}).items():
        for other in (*field.needs, *param.one_of):
            if other not in param.fields:
                raise MacroError(path, f"param '{name}': '{other}' is not one of its fields", 2,
                                 f"fields: {', '.join(param.fields)}")
    return param


def _names(path: Path, name: str, spec: dict, key: str) -> tuple[str, ...]:
    value = spec.get(key, [])
    value = [value] if isinstance(value, str) else value
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise MacroError(path, f"param '{name}': {key} is a list of names", 2, f"e.g. {key}: [territories]")
    return tuple(value)


def _header(path: Path, text: str) -> dict:
    """The header's YAML as a mapping with a params mapping; MacroError if it is not one."""
    import yaml

    try:
        header = load_yaml_text(text) or {}
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        raise MacroError(path, f"the header is not valid YAML: {getattr(err, 'problem', None) or err}",
                         2 + (mark.line if mark else 0), "the header is YAML between {#--- and ---#}") from None
    if not isinstance(header, dict) or not isinstance(header.get("params") or {}, dict):
        raise MacroError(path, "the header must be a mapping (description:, params: {name: {type: ...}})", 2)
    return {**header, "params": header.get("params") or {}}


def load_macros(extra_dirs: list[Path] = (), report=None) -> dict[str, Macro]:
    """Shipped macros, then a spec's own (which may replace shipped ones of the same name). A broken
    macro of a spec's own folder goes to report(MacroError) when given (it is left out), else raises."""
    macros = {}
    for folder in [RULES_DIR, *extra_dirs]:
        user_folder = None if folder == RULES_DIR else folder
        if user_folder is not None and os.path.islink(folder):
            error = MacroError(folder, "the macro folder may not be a link", 0,
                               "point the spec at the folder itself")
            if report is None:
                raise error
            report(error)
            continue
        for path in sorted(folder.glob("*.xml.j2")):
            if path.name.startswith("_"):
                continue
            try:
                macro = _load_macro(path, user_folder)
            except MacroError as error:
                if report is None:
                    raise
                report(error)
                continue
            macros[macro.name] = macro
    return macros


@lru_cache(maxsize=None)
def macro_environment(folder: Path) -> jinja2.Environment:
    """The sandboxed template environment for macros in folder; a spec's own macros may
    import the shipped helpers (`{% import "_common.j2" as c %}`)."""
    if folder == RULES_DIR:
        loader = jinja2.FileSystemLoader(str(RULES_DIR))
    else:
        loader = jinja2.ChoiceLoader([UserFolderLoader(folder), jinja2.FileSystemLoader(str(RULES_DIR))])
    env = environment().overlay(loader=loader)
    # copies: the game templates' filters and globals stay as they are
    env.filters = {**env.filters, "ident": identifier}
    env.globals = {**env.globals, **template_functions()}
    return env


def template_functions() -> dict:
    """The functions every macro template may call besides `game.*` (README: Macro helper API)."""
    from generator.rules import effects  # it imports identifier from here
    from generator.rules.classes import java_class

    return {"effect_options": effects.effect_options, "presence_conditions": effects.presence_conditions,
            "presence_names": effects.presence_names, "java_class": java_class}


def identifier(text) -> str:
    """A name part for attachment names: 'French Indo China' -> 'French_Indo_China'."""
    return re.sub(r"[^A-Za-z0-9]+", "_", str(text)).strip("_")


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
        self.names = {kind: set() for kind in _NAMES_IN}
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
        checked = {}
        for territory, units in value.items():
            name = _check_scalar(param, "territory", territory, index, report, pos)
            counts = _unit_counts(f"{what} in {territory}", units, index, report, pos)
            if name is None or counts is None:
                return None
            checked[name] = counts
        return checked
    return _check_scalar(param, kind, value, index, report, pos)


def _check_mapping(param: Param, value, index: NameIndex, report, pos: Position) -> dict | None:
    """A mapping checked against what its declaration says of its keys and values, or of its fields."""
    what = f"parameter '{param.name}'"
    if param.fields is not None:
        return _check_record(param, value, index, report, pos)
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


def _check_record(param: Param, value, index: NameIndex, report, pos: Position) -> dict | None:
    """A mapping with declared keys (fields), each checked by its own declaration; a field given
    no value (`key:` alone) stays None, as if it were left out."""
    what = f"parameter '{param.name}'"
    record = param.what or "entry"
    if not isinstance(value, dict):
        report("TG062", f"{what}: each {record} is a mapping" + (f" such as {param.example}" if param.example else ""),
               pos, f"its keys: {', '.join(param.fields)}")
        return None
    for key in value:
        if key not in param.fields:
            report("TG062", f"{what}: {record}: unknown key '{key}' (keys: {', '.join(param.fields)})", pos,
                   closest(str(key), param.fields) or f"use the keys {param.name} declares")
            return None
    if param.one_of and not any(value.get(key) for key in param.one_of):
        report("TG062", f"{what}: {record} without {' or '.join(param.one_of)}", pos,
               f"give {param.one_of[0]}")
        return None
    checked = {}
    for key, item in value.items():
        field = param.fields[key]
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
