"""What the TripleA engines accept: attachment classes and their options, game
properties, delegates and step properties, per engine ("1.9" or "current").

The facts live in the YAML files next to this module; load_catalog() reads them
once per process and compiles every option's value grammar."""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

from generator.catalog.shape import load_checked
from generator.catalog.grammar import Checker, attachment_name_checker, compile_grammar
from generator.core.enginename import ENGINE_NAMES, EngineName

ENGINES = ENGINE_NAMES
_HERE = Path(__file__).parent


def normalise_engine(engine: str) -> EngineName:
    """'1.9' or 'current' (also accepts 'modern', '1.9.0.0.7062', ...)."""
    text = str(engine).strip().lower()
    if text.startswith("1.9"):
        return EngineName.V1_9
    if text in (EngineName.CURRENT, "modern", "latest", "2", "2.x"):
        return EngineName.CURRENT
    raise ValueError(f"unknown engine {engine!r}; use 1.9 or current")


@dataclass(frozen=True)
class Sensible:
    """The numbers an option or a production rule can mean, and what the engines make of the rest.
    A bound is a number, None (open), or a word the game sets: 'diceSides', 'territories'."""
    low: object
    high: object
    below: str = ""
    above: str = ""
    severity: str = "warning"

    @classmethod
    def read(cls, raw: dict) -> Sensible:
        low, high = raw["range"]
        return cls(low, high, str(raw.get("below", "")), str(raw.get("above", "")),
                   str(raw.get("severity", "warning")))


@dataclass(frozen=True)
class OptionSpec:
    name: str
    grammar: object  # str | tuple[str, ...]; the current engine's form
    grammar_19: object
    engines: frozenset[str]
    repeats: bool = False
    write_only: bool = False
    empty_ok: bool = False
    range: tuple | None = None
    sensible: Sensible | None = None  # numbers that load but mean something else (a warning)
    count: str = ""
    note: str = ""
    effective_on: str = ""
    target: str = ""  # for trigger property options: unit, territory, player, ...
    rejected: str = ""  # the option exists but its setter always fails
    default: str | None = None  # the value both engines give an option left out (only where read from them)
    checkers: dict = field(default_factory=dict, compare=False, repr=False)

    def checker(self, engine: str) -> Checker:
        return self.checkers[engine]

    def exists_in(self, engine: str) -> bool:
        return engine in self.engines


@dataclass(frozen=True)
class AttachmentClass:
    name: str
    type: str
    exact_name: str | None
    prefixes: tuple[str, ...]
    any_name: bool
    options: dict[str, OptionSpec]
    read_only: frozenset[str]

    def option(self, name: str, engine: str) -> OptionSpec | None:
        spec = self.options.get(name)
        return spec if spec is not None and engine in spec.engines else None

    def option_names(self, engine: str) -> list[str]:
        return [n for n, spec in self.options.items() if engine in spec.engines and not spec.rejected]

    def name_fits(self, attachment_name: str) -> bool:
        if self.any_name:
            return True
        if self.exact_name is not None:
            return attachment_name == self.exact_name
        return attachment_name.startswith(self.prefixes)

    def name_rule(self) -> str:
        if self.exact_name is not None:
            return f"named exactly '{self.exact_name}'"
        return "named starting with " + " or ".join(f"'{p}'" for p in self.prefixes)


@dataclass(frozen=True)
class PropertySpec:
    name: str
    kind: str  # bool | int | string
    engines: frozenset[str]
    generated: bool = False
    note: str = ""


@dataclass(frozen=True)
class Catalog:
    classes: dict[str, AttachmentClass]
    legacy_option_names: dict[str, str]  # lower-cased old name -> new name
    dropped_options: dict[str, str | tuple[str, ...]]  # lower-cased name -> "any" | tuple of values
    property_targets: dict[str, dict]  # group -> {"default": (Class, name), "classes": {Class: prefixes}}
    delegates: dict[str, dict]  # simple name -> facts
    legacy_delegates: dict[str, dict]  # full name -> facts
    delegate_package: str
    attachment_package: str
    loader_class: str
    step_name_endings: tuple[str, ...]
    step_properties: dict[str, dict]
    predefined_techs: frozenset[str]
    builtin_relationship_types: frozenset[str]
    null_player: str
    reserved_delegate_names: frozenset[str]
    properties: dict[str, PropertySpec]
    property_patterns: dict[str, PropertySpec]  # "{player} bid" -> spec
    renamed_properties: dict[str, str]  # lower-cased old name -> new name
    production_numbers: dict[str, Sensible] = field(default_factory=dict)  # "cost"/"result" -> range

    def attachment_class(self, java_class: str, engine: str) -> AttachmentClass | None:
        """The class a javaClass names for `engine`, or None."""
        if engine == EngineName.V1_9:
            package, _, simple = java_class.rpartition(".")
            if package != self.attachment_package:
                return None
        else:
            simple = java_class.rpartition(".")[2]
        return self.classes.get(simple)

    def delegate(self, java_class: str, engine: str) -> dict | None:
        if java_class in self.legacy_delegates:
            return self.legacy_delegates[java_class]
        prefix = self.delegate_package + "."
        if java_class.startswith(prefix):
            return self.delegates.get(java_class[len(prefix):])
        if engine == EngineName.CURRENT:
            return self.delegates.get(java_class)
        return None


def _load_yaml(folder: Path, name: str) -> dict:
    return load_checked(folder / name)


def _grammar(value) -> object:
    return tuple(value) if isinstance(value, list) else value


def _option(name: str, raw: dict, property_targets: dict) -> OptionSpec:
    engines = frozenset(str(e) for e in raw.get("engines", ENGINES))
    if raw.get("rejected"):
        return OptionSpec(name, "text", "text", engines, rejected=raw["rejected"],
                          checkers={e: compile_grammar("text") for e in ENGINES})
    grammar = _grammar(raw["value"])
    grammar_19 = _grammar(raw.get("value_19", raw["value"]))
    checkers = {}
    for engine, form in (("current", grammar), ("1.9", grammar_19)):
        if form == "@attachmentName":
            target = property_targets[raw["target"]]["classes"]
            checkers[engine] = attachment_name_checker(target, fix_spelling=raw["target"] == "player")
        else:
            checkers[engine] = compile_grammar(form)
    value_range = tuple(raw["range"]) if "range" in raw else None
    default = raw.get("default")
    if isinstance(default, bool):
        default = "true" if default else "false"
    return OptionSpec(
        name, grammar, grammar_19, engines, default=None if default is None else str(default),
        repeats=bool(raw.get("repeats")), write_only=bool(raw.get("write_only")),
        empty_ok=bool(raw.get("empty_ok")), range=value_range, count=str(raw.get("count", "")),
        sensible=Sensible.read(raw["sensible"]) if "sensible" in raw else None,
        note=str(raw.get("note", "")), effective_on=str(raw.get("effective_on", "")),
        target=str(raw.get("target", "")), checkers=checkers)


def _prefix_tuple(value) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, list) else (value,)


@functools.cache
def load_catalog(folder: Path = _HERE) -> Catalog:
    """The catalog (of this package's YAML files; tests give a folder of their own)."""
    attachments = _load_yaml(folder, "attachments.yaml")
    gameplay = _load_yaml(folder, "gameplay.yaml")
    properties = _load_yaml(folder, "properties.yaml")

    property_targets = {}
    for group, raw in attachments["property_targets"].items():
        property_targets[group] = {
            "default": tuple(raw["default"]),
            "classes": {cls: _prefix_tuple(prefixes) for cls, prefixes in raw["classes"].items()},
        }

    condition_options = attachments["condition_options"]
    classes = {}
    for class_name, raw in attachments["classes"].items():
        raw_options = dict(raw["options"])
        if raw.get("conditions"):
            for name, option in condition_options.items():
                raw_options.setdefault(name, option)
        options = {name: _option(name, option, property_targets) for name, option in raw_options.items()}
        naming = raw["name"]
        prefixes = _prefix_tuple(naming.get("prefixes", naming.get("prefix", ())))
        classes[class_name] = AttachmentClass(
            name=class_name, type=raw["type"], exact_name=naming.get("exact"), prefixes=prefixes,
            any_name=bool(naming.get("any_name")), options=options,
            read_only=frozenset(raw.get("read_only", ())))

    dropped: dict[str, str | tuple[str, ...]] = {}
    for name, values in attachments["dropped_options"].items():
        dropped[name.lower()] = "any" if values == "any" else tuple(str(v) for v in values)

    def property_spec(name, raw):
        return PropertySpec(name, raw["kind"], frozenset(str(e) for e in raw.get("engines", ENGINES)),
                            bool(raw.get("generated")), str(raw.get("note", "")))

    return Catalog(
        classes=classes,
        legacy_option_names={k.lower(): v for k, v in attachments["legacy_option_names"].items()},
        dropped_options=dropped,
        property_targets=property_targets,
        production_numbers={tag: Sensible.read(raw) for tag, raw in gameplay["production_numbers"].items()},
        delegates=gameplay["delegates"],
        legacy_delegates=gameplay["legacy_delegates"],
        delegate_package=gameplay["delegate_package"],
        attachment_package=gameplay["attachment_package"],
        loader_class=gameplay["loader_class"],
        step_name_endings=tuple(gameplay["step_name_endings"]),
        step_properties=gameplay["step_properties"],
        predefined_techs=frozenset(gameplay["predefined_techs"]),
        builtin_relationship_types=frozenset(gameplay["builtin_relationship_types"]),
        null_player=gameplay["null_player"],
        reserved_delegate_names=frozenset(gameplay["reserved_delegate_names"]),
        properties={name: property_spec(name, raw) for name, raw in properties["properties"].items()},
        property_patterns={name: property_spec(name, raw) for name, raw in properties["patterns"].items()},
        renamed_properties={k.lower(): v for k, v in properties["renamed"].items()},
    )
