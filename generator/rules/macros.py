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
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import jinja2

from generator.core.datacache import load_yaml_text
from generator.read import yamlmessages
from generator.core.diagnostics import Position, closest, display_path
from generator.render.templates import TEMPLATES_DIR, environment
from generator.rules import actions, conversions, counts, effects, ladders, newpower, zones
from generator.rules.classes import attachment_type, java_class
# re-exported: what the rest of the package imports from here
from generator.rules.naming import each_once, identifier  # noqa: F401
from generator.rules.params import NO_DEFAULT, PARAM_TYPES, NameIndex, Param, check_value  # noqa: F401

RULES_DIR = TEMPLATES_DIR / "rules"
_HEADER = re.compile(r"\A\{#---\n(.*?)\n---#\}\n?", re.S)
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
# condition attachments through generator.rules.conditions.Conditions.
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
    declared_fields = param.fields or {}
    for declared in declared_fields.values():
        for other in (*declared.needs, *param.one_of):
            if other not in declared_fields:
                raise MacroError(path, f"param '{name}': '{other}' is not one of its fields", 2,
                                 f"fields: {', '.join(declared_fields)}")
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
    except yaml.MarkedYAMLError as err:
        problem = yamlmessages.explain(err, text)
        raise MacroError(path, f"the header is not valid YAML: {problem.message}", 2 + problem.line,
                         f"{problem.hint}; the header is YAML between {{#--- and ---#}}") from None
    except yaml.YAMLError as err:
        raise MacroError(path, f"the header is not valid YAML: {err}", 2,
                         "the header is YAML between {#--- and ---#}") from None
    if not isinstance(header, dict) or not isinstance(header.get("params") or {}, dict):
        raise MacroError(path, "the header must be a mapping (description:, params: {name: {type: ...}})", 2)
    return {**header, "params": header.get("params") or {}}


def load_macros(extra_dirs: Sequence[Path] = (), report=None) -> dict[str, Macro]:
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
    loader: jinja2.BaseLoader
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
    return {"effect_options": effects.effect_options, "presence_conditions": effects.presence_conditions,
            "presence_names": effects.presence_names, "java_class": java_class, "attachment_type": attachment_type,
            "count_ladder": ladders.count_ladder, "condition_type": ladders.condition_type,
            "counter_levels": ladders.counter_levels, "conversion_pairs": conversions.conversion_pairs,
            "conversion_rungs": conversions.conversion_rungs, "allowed_zones": zones.allowed_zones,
            "barred_units": zones.barred_units, "placement_places": zones.placement_places,
            "needed_count": counts.needed_count, "checked_chance": counts.checked_chance,
            "default_step_prefix": newpower.default_step_prefix, "capital_first": newpower.capital_first,
            "partners": actions.partners, "slot_gate": actions.slot_gate, "round_amounts": ladders.round_amounts,
            "checked_combine": counts.checked_combine, "each_once": each_once}
