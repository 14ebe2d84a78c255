"""The shape of the catalog's YAML files: which keys each level may hold and what kind of value.

The loader reads the keys it knows and would pass over any other, so a misspelt key (`rnage:
[0, 3]`, `repeat: true`) would leave a fact out without a word. check_shape() finds such a key
before anything is loaded and names its file, line and column; the lines are looked up only
when something is wrong (the files are read from a cache without them)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from generator.core.diagnostics import closest


class CatalogShapeError(ValueError):
    """The catalog's own data is malformed: a fault of this program, shown as file:line:col."""


@dataclass(frozen=True)
class Kind:
    """A value of one or more Python types, described in words for the message."""

    types: tuple[type, ...]
    words: str

    def problems(self, value, path: tuple) -> list[tuple[tuple, str]]:
        if isinstance(value, bool) and bool not in self.types:
            return [(path, f"is {value!r}, expected {self.words}")]
        return [] if isinstance(value, self.types) else [(path, f"is {_kind_of(value)}, expected {self.words}")]


@dataclass(frozen=True)
class ListOf:
    item: object
    length: int | None = None  # exactly this many items (a [low, high] range: 2)

    def problems(self, value, path: tuple) -> list[tuple[tuple, str]]:
        if not isinstance(value, list):
            return [(path, f"is {_kind_of(value)}, expected a list")]
        if self.length is not None and len(value) != self.length:
            return [(path, f"has {len(value)} items, expected {self.length}")]
        return [p for index, item in enumerate(value) for p in _problems(self.item, item, path + (index,))]


@dataclass(frozen=True)
class MapOf:
    """A mapping whose keys are names (classes, options, properties), each value of one shape."""

    item: object

    def problems(self, value, path: tuple) -> list[tuple[tuple, str]]:
        if not isinstance(value, dict):
            return [(path, f"is {_kind_of(value)}, expected a mapping")]
        return [p for key, item in value.items() for p in _problems(self.item, item, path + (key,))]


@dataclass(frozen=True)
class Keys:
    """A mapping with declared keys; any other key is a mistake."""

    required: dict = field(default_factory=dict)
    optional: dict = field(default_factory=dict)

    def problems(self, value, path: tuple) -> list[tuple[tuple, str]]:
        if not isinstance(value, dict):
            return [(path, f"is {_kind_of(value)}, expected a mapping")]
        allowed = {**self.required, **self.optional}
        found = [(path + (key,), f"unknown key '{key}'") for key in value if key not in allowed]
        found += [(path, f"has no key '{key}'") for key in self.required if key not in value]
        for key, shape in allowed.items():
            if key in value:
                found += _problems(shape, value[key], path + (key,))
        return found

    def names(self) -> list[str]:
        return [*self.required, *self.optional]


@dataclass(frozen=True)
class AnyOf:
    choices: tuple

    def problems(self, value, path: tuple) -> list[tuple[tuple, str]]:
        first: list[tuple[tuple, str]] = []
        for choice in self.choices:
            found = _problems(choice, value, path)
            if not found:
                return []
            first = first or found
        return first


def _problems(shape, value, path: tuple) -> list[tuple[tuple, str]]:
    return shape.problems(value, path)


def _kind_of(value) -> str:
    if value is None:
        return "empty"
    return {dict: "a mapping", list: "a list", str: f"the text {value!r}", bool: f"{value!r}"}.get(
        type(value), f"{value!r}")


TEXT = Kind((str,), "text")
FLAG = Kind((bool,), "true or false")
NUMBER = Kind((int, float), "a number")
SCALAR = Kind((str, int, float, bool), "a single value")
OPEN = Kind((type(None),), "empty")
BOUND = AnyOf((NUMBER, TEXT, OPEN))  # a number, a word the game sets (diceSides), or open
TEXTS = ListOf(TEXT)
ENGINE_LIST = ListOf(Kind((str,), '"1.9" or "current"'))
SENSIBLE = Keys({"range": ListOf(BOUND, 2)}, {"below": TEXT, "above": TEXT, "severity": TEXT})
OPTION = Keys(optional={
    "value": AnyOf((TEXT, TEXTS)), "value_19": AnyOf((TEXT, TEXTS)), "count": TEXT, "repeats": FLAG,
    "engines": ENGINE_LIST, "write_only": FLAG, "range": ListOf(AnyOf((NUMBER, OPEN)), 2), "sensible": SENSIBLE,
    "empty_ok": FLAG, "note": TEXT, "effective_on": TEXT, "target": TEXT, "rejected": TEXT, "default": SCALAR})
NAMING = Keys(optional={"exact": TEXT, "prefix": TEXT, "prefixes": TEXTS, "any_name": FLAG})
ATTACHMENT_CLASS = Keys({"type": TEXT, "name": NAMING, "options": MapOf(OPTION)},
                        {"conditions": FLAG, "read_only": TEXTS})
DELEGATE = Keys(optional={"player": FLAG, "income": FLAG})
PROPERTY = Keys({"kind": TEXT}, {"engines": ENGINE_LIST, "note": TEXT, "default": SCALAR, "generated": FLAG})
CLIENT_ENGINE = Keys({"severity": TEXT, "consequence": TEXT, "source": TEXT},
                     {"candidates": TEXTS, "bundled": TEXTS, "seen": TEXT})
CLIENT_ENTRY = Keys({"what": TEXT, "needed_for": TEXT, "engines": MapOf(CLIENT_ENGINE)}, {"key_suffixes": TEXTS})

FILES = {
    "attachments.yaml": Keys({
        "legacy_option_names": MapOf(TEXT), "dropped_options": MapOf(AnyOf((TEXT, TEXTS))),
        "legacy_name_fix": Keys({"from": TEXT, "to": TEXT}), "classes": MapOf(ATTACHMENT_CLASS),
        "condition_options": MapOf(OPTION),
        "property_targets": MapOf(Keys({"default": ListOf(TEXT, 2), "classes": MapOf(AnyOf((TEXT, TEXTS)))}))}),
    "gameplay.yaml": Keys({
        "delegate_package": TEXT, "delegates": MapOf(DELEGATE), "legacy_delegates": MapOf(DELEGATE),
        "attachment_package": TEXT, "loader_class": TEXT, "step_name_endings": TEXTS,
        "step_properties": MapOf(PROPERTY), "predefined_techs": TEXTS, "builtin_relationship_types": TEXTS,
        "null_player": TEXT, "reserved_delegate_names": TEXTS, "production_numbers": MapOf(SENSIBLE)}),
    "properties.yaml": Keys({"properties": MapOf(PROPERTY), "patterns": MapOf(PROPERTY), "renamed": MapOf(TEXT)}),
    "client.yaml": Keys({"entries": MapOf(CLIENT_ENTRY)}),
}


def load_checked(path: Path):
    """A catalog file's data, its shape checked (CatalogShapeError when it is wrong)."""
    from generator.core.datacache import load_yaml_text

    data = load_yaml_text(path.read_text(encoding="utf-8"))
    check_shape(path, data)
    return data


def check_shape(path: Path, data) -> None:
    """Raise CatalogShapeError naming every misplaced key or value of a catalog file, with its line."""
    found = FILES[path.name].problems(data, ())
    if not found:
        return
    text = path.read_text(encoding="utf-8")
    lines = []
    for where, message in found:
        line, column = _position(text, where)
        shown = ".".join(str(part) for part in where) or "the file"
        lines.append(f"{_shown_path(path)}:{line}:{column}: error: {shown} {message}\n"
                     f"  hint: {_hint(FILES[path.name], where, message)}")
    raise CatalogShapeError("\n".join(lines))


def _shown_path(path: Path) -> str:
    """generator/catalog/NAME for the shipped files (as in a checkout), else the path as given."""
    package = Path(__file__).resolve().parents[1]
    try:
        return path.resolve().relative_to(package.parent).as_posix()
    except ValueError:
        return str(path)


def _hint(top, where: tuple, message: str) -> str:
    if not message.startswith("unknown key"):
        return "write it as the comment at the top of the file describes"
    shape = top
    for part in where[:-1]:
        shape = _inner(shape, part)
    allowed = shape.names() if isinstance(shape, Keys) else []
    guess = closest(str(where[-1]), allowed)
    return (f"{guess} " if guess else "") + "the keys allowed here: " + ", ".join(allowed)


def _inner(shape, part):
    if isinstance(shape, Keys):
        return {**shape.required, **shape.optional}[part]
    if isinstance(shape, (MapOf, ListOf)):
        return shape.item
    if isinstance(shape, AnyOf):
        return next(c for c in shape.choices if isinstance(c, (Keys, MapOf, ListOf)))
    return shape


def _position(text: str, where: tuple) -> tuple[int, int]:
    """The 1-based line and column of the key (or item) at `where` in the YAML text."""
    import yaml

    node = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    if node is None:  # an empty file: the error is at its start
        return 1, 1
    mark = node.start_mark
    for part in where:
        if isinstance(node, yaml.MappingNode):
            pair = next(((k, v) for k, v in node.value if k.value == str(part)), None)
            if pair is None:
                break
            mark, node = pair[0].start_mark, pair[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
            mark = node.start_mark
        else:
            break
    return mark.line + 1, mark.column + 1
