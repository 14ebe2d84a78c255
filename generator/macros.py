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
the rule's YAML line with a suggestion, before anything is rendered."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .diagnostics import Position, closest
from .render import TEMPLATES_DIR

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
    "int": (None, False), "bool": (None, False), "string": (None, False), "strings": (None, True),
    "rounds": (None, False), "mapping": (None, False), "list": (None, True),
}


@dataclass
class Param:
    name: str
    type: str
    default: object = NO_DEFAULT
    doc: str = ""

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


class MacroError(Exception):
    """A macro template that is itself broken (bad header); reported against the template file."""


def _load_macro(path: Path) -> Macro:
    text = path.read_text(encoding="utf-8")
    match = _HEADER.match(text)
    if not match:
        raise MacroError(f"{path}: a macro template starts with a {{#--- ... ---#}} header declaring its params")
    header = yaml.safe_load(match.group(1)) or {}
    params = {}
    for name, spec in (header.get("params") or {}).items():
        spec = spec or {}
        if spec.get("type") not in PARAM_TYPES:
            raise MacroError(f"{path}: param '{name}' has unknown type {spec.get('type')!r}; "
                             f"use one of {', '.join(PARAM_TYPES)}")
        params[name] = Param(name, spec["type"], spec.get("default", NO_DEFAULT), spec.get("doc", ""))
    return Macro(path.name.removesuffix(".xml.j2"), path, header.get("description", ""),
                 header.get("status", "enforced"), params)


def load_macros(extra_dirs: list[Path] = ()) -> dict[str, Macro]:
    """Shipped macros, then a spec's own (which may replace shipped ones of the same name)."""
    macros = {}
    for folder in [RULES_DIR, *extra_dirs]:
        for path in sorted(folder.glob("*.xml.j2")):
            macro = _load_macro(path)
            macros[macro.name] = macro
    return macros


class NameIndex:
    """The names a macro parameter may refer to, indexed once per build."""

    def __init__(self, game):
        self.names = {
            "player": {p.name for p in game.players} | {"Neutral"},
            "territory": {t.name for t in game.territories},
            "unit type": {u.name for u in game.units or []},
            "step": {s.name for s in game.steps or []},
            "resource": {r.name for r in game.resources or []},
            "relationship type": {r.name for r in game.relationship_types or []} | {
                "self_relation", "null_relation", "default_war_relation", "default_allied_relation"},
            "attachment": {a.name for a in game.attachments or []},
        }

    def add(self, kind: str, names) -> None:
        self.names[kind].update(names)


def check_value(param: Param, value, index: NameIndex, report, pos: Position):
    """The value converted for the template, or None after reporting what is wrong."""
    kind, is_list = PARAM_TYPES[param.type]
    what = f"parameter '{param.name}'"
    if is_list:
        items = value if isinstance(value, list) else [value]
        checked = [_check_scalar(param, kind, item, index, report, pos) for item in items]
        return None if any(c is None for c in checked) else checked
    if isinstance(value, (list, dict)) and param.type not in ("mapping",):
        report("TG062", f"{what} takes one {kind or param.type}, not a {type(value).__name__}", pos,
               f"give a single value for {param.name}")
        return None
    if param.type == "mapping":
        if not isinstance(value, dict):
            report("TG062", f"{what} takes a mapping", pos, f"write {param.name}: {{key: value}}")
            return None
        return dict(value)
    return _check_scalar(param, kind, value, index, report, pos)


def _check_scalar(param: Param, kind: str | None, value, index: NameIndex, report, pos: Position):
    what = f"parameter '{param.name}'"
    if param.type == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            report("TG062", f"{what} must be a whole number, not {value!r}", pos, "write a number such as 5")
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
