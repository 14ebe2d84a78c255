"""The game format, one attribute at a time: each model field that is an XML attribute says so once,
here, in its dataclass metadata (its XML name, its YAML key, what it means, its kind, whether the
engine needs it), and the importer, the spec readers, the YAML writer, the game templates and the
JSON Schema take the attribute list from the model instead of spelling it again.

    max_run_count: str | None = attribute("maxRunCount", "how often it runs (1 for the set-up steps)")

Field order is the order of the attributes in the written XML and in the YAML list form."""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, Callable, Iterator, Protocol, TypeVar

VALUE = "value"  # any scalar, kept as the exact text the XML holds
FLAG = "flag"  # true / false
KINDS = (VALUE, FLAG)

T = TypeVar("T")


class Element(Protocol):
    """What the importer hands over of an XML element (lxml's element has this, so has a dict)."""

    def get(self, key: str, /) -> str | None: ...


@dataclass(frozen=True, slots=True)
class Attribute:
    """What one model field is in the game format."""

    field: str  # the dataclass field, e.g. max_run_count
    xml: str  # the XML attribute, e.g. maxRunCount
    yaml: str  # the spec's key (the XML name unless the spec spells it otherwise)
    doc: str  # one line: what it is for (the README's key tables and the JSON Schema show it)
    kind: str  # VALUE or FLAG
    required: bool  # the engine needs it: an element without it cannot be read into the model
    legacy: str | None = None  # old maps' spelling (attatchTo), read and written when a game uses it

    def xml_name(self, legacy: bool = False) -> str:
        """The XML name in the current spelling, or with legacy the old maps' one where there is one."""
        return self.legacy if legacy and self.legacy else self.xml


_METADATA_KEY = "game_format"


def attribute(xml: str, doc: str, *, yaml: str | None = None, kind: str = VALUE, required: bool = False,
              legacy: str | None = None) -> Any:
    """A dataclass field that is the XML attribute `xml`; required ones have no default."""
    if kind not in KINDS:
        raise ValueError(f"attribute {xml}: kind {kind!r} is not one of {KINDS}")
    metadata = {_METADATA_KEY: (xml, yaml or xml, doc, kind, required, legacy)}
    return field(metadata=metadata) if required else field(default=None, metadata=metadata)


# model class -> its attributes (a dict, not functools.cache: mypy takes a class for unhashable there)
_ATTRIBUTES: dict[type, tuple[Attribute, ...]] = {}


def attributes_of(cls: type) -> tuple[Attribute, ...]:
    """The XML attributes of a model class, in the order they are written."""
    known = _ATTRIBUTES.get(cls)
    if known is None:
        declared = ((f.name, f.metadata.get(_METADATA_KEY)) for f in fields(cls))
        known = _ATTRIBUTES[cls] = tuple(Attribute(name, *d) for name, d in declared if d is not None)
    return known


def attribute_named(cls: type, yaml: str) -> Attribute:
    """The attribute of `cls` whose spec key is `yaml` (KeyError if there is none)."""
    for declared in attributes_of(cls):
        if declared.yaml == yaml:
            return declared
    raise KeyError(f"{cls.__name__} has no attribute with the spec key {yaml!r}")


def xml_names(cls: type, legacy: bool = False) -> set[str]:
    return {a.xml_name(legacy) for a in attributes_of(cls)}


def required_xml_names(cls: type, legacy: bool = False) -> tuple[str, ...]:
    return tuple(a.xml_name(legacy) for a in attributes_of(cls) if a.required)


def from_xml(cls: type[T], element: Element, required: Callable[[Any, str], str], legacy: bool = False,
             **given: Any) -> T:
    """An instance read from an XML element: required attributes through `required` (which reports
    a missing one), optional ones as they are (None: absent); `given` sets the other fields. With
    legacy, an attribute with an old spelling is read in it, and in the current one when it lacks."""
    values: dict[str, Any] = {}
    for a in attributes_of(cls):
        if a.field in given:
            continue
        value = element.get(a.legacy) if legacy and a.legacy else None
        if value is None:
            value = required(element, a.xml) if a.required else element.get(a.xml)
        values[a.field] = value
    return cls(**values, **given)


def from_fields(cls: type[T], found: dict[str, Any], **given: Any) -> T:
    """An instance from a spec entry's checked fields (spec key → text); a required attribute that is
    missing is "" (the reader has reported it, or validation will)."""
    values = {}
    for a in attributes_of(cls):
        if a.field not in given:
            value = found.get(a.yaml)
            values[a.field] = (value or "") if a.required else value
    return cls(**values, **given)


def xml_items(entity: object, legacy: bool = False) -> Iterator[tuple[str, Any]]:
    """(XML attribute, value) of an entity, in the written order; None: absent."""
    for a in attributes_of(type(entity)):
        yield a.xml_name(legacy), getattr(entity, a.field)


def yaml_items(entity: object, *keys: str) -> Iterator[tuple[str, Any]]:
    """(spec key, value) of an entity, in the given key order (all attributes when none is given)."""
    cls = type(entity)
    chosen = [attribute_named(cls, key) for key in keys] if keys else attributes_of(cls)
    for a in chosen:
        yield a.yaml, getattr(entity, a.field)

