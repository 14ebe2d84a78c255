"""The kinds of value a spec key may hold, sections of declared keys, and the raw YAML
the readers take in.

A key's kind (the declarations are in generator.speclang.declared) says three things at
once: what the reader accepts there, the JSON Schema editors are given for it
(`json()`), and the words the README's key tables show (`words()`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Union

from generator.read.yamlio import LocatedDict, LocatedList

# What yamlio hands on: mappings and lists that know their YAML positions, and plain scalars.
RawScalar = Union[str, int, float, bool, None]
Raw = Union[LocatedDict, LocatedList, RawScalar]

FULL_GAME = "full game"
MOD = "mod"

# A scalar the XML holds as text; null (nothing written after the colon) reads as absent.
SCALAR_KINDS = ("string", "number", "boolean", "null")


@dataclass(frozen=True)
class Value:
    """One scalar. `kinds` are JSON types; `enum` lists the only values allowed."""
    kinds: tuple[str, ...] = SCALAR_KINDS
    enum: tuple = ()
    minimum: int | None = None
    what: str = "value"

    def json(self) -> dict:
        if self.enum:
            return {"enum": list(self.enum)}
        schema: dict = {"type": self.kinds[0] if len(self.kinds) == 1 else list(self.kinds)}
        if self.minimum is not None:
            schema["minimum"] = self.minimum
        return schema

    def words(self) -> str:
        return " / ".join(f"`{value}`" for value in self.enum) if self.enum else self.what


@dataclass(frozen=True)
class ListOf:
    """A YAML list of one kind of item."""
    item: object
    min_items: int | None = None
    max_items: int | None = None
    what: str = ""

    def json(self) -> dict:
        items = json_of(self.item)
        if items.get("type") == ["object", "null"]:
            items["type"] = "object"  # a section read as a key may be empty (null); an item of a list may not
        schema: dict[str, Any] = {"type": "array", "items": items}
        if self.min_items is not None:
            schema["minItems"] = self.min_items
        if self.max_items is not None:
            schema["maxItems"] = self.max_items
        return schema

    def words(self) -> str:
        return self.what or f"list of {words_of(self.item)}"


@dataclass(frozen=True)
class MapOf:
    """A mapping from names (the YAML keys) to one kind of item; `key` says what the names are.
    Nullable: nothing written (null) reads as an empty mapping."""
    item: object
    key: str = "name"
    nullable: bool = False

    def json(self) -> dict:
        return {"type": ["object", "null"] if self.nullable else "object", "additionalProperties": json_of(self.item)}

    def words(self) -> str:
        return f"{self.key} → {words_of(self.item)}"


@dataclass(frozen=True)
class Keyed:
    """A section keyed by name: a mapping name → item, or a list of entries that carry their name
    (SpecReader.entries reads both; the list form keeps repeated names). An entry of the list is a
    flow list [name, ...] or a mapping: `entry`, by default the section the item is (or may be)."""
    item: object
    key: str = "name"
    entry: object = None

    def json(self) -> dict:
        entries = [self.entry] if self.entry is not None else [
            choice for choice in (self.item.choices if isinstance(self.item, OneOf) else (self.item,))
            if isinstance(choice, Section)]
        item_forms = [dict(json_of(entry), type="object") for entry in entries] + [{"type": "array"}]
        return {"type": ["object", "array"], "additionalProperties": json_of(self.item),
                "items": item_forms[0] if len(item_forms) == 1 else {"anyOf": item_forms}}

    def words(self) -> str:
        return f"by {self.key}: {words_of(self.item)}"


@dataclass(frozen=True)
class OneOf:
    """Any of several kinds."""
    choices: tuple

    def json(self) -> dict:
        return {"anyOf": [json_of(choice) for choice in self.choices]}

    def words(self) -> str:
        return " or ".join(words_of(choice) for choice in self.choices)


@dataclass(frozen=True)
class Free:
    """A shape the reader checks in its own code (options, unit placements, ...): its JSON Schema
    and its words are stated here, next to the key, rather than derived."""
    what: str
    schema: dict = field(default_factory=dict, hash=False, compare=False)

    def json(self) -> dict:
        return dict(self.schema)

    def words(self) -> str:
        return self.what


@dataclass(frozen=True)
class Key:
    name: str
    kind: Kind
    doc: str
    required: bool = False


@dataclass(frozen=True)
class Section:
    """A mapping with declared keys (unknown keys are TG030). As a key's kind it is the nested section."""
    name: str
    doc: str
    keys: tuple[Key, ...]
    form: str = FULL_GAME

    @cached_property  # asked for every entry read
    def names(self) -> tuple[str, ...]:
        return tuple(key.name for key in self.keys)

    def key(self, name: str) -> Key:
        return next(key for key in self.keys if key.name == name)

    def json(self) -> dict:
        schema = {"type": ["object", "null"], "additionalProperties": False,
                  "properties": {key.name: _described(key) for key in self.keys}}
        required = [key.name for key in self.keys if key.required]
        if required:
            schema["required"] = required
        if self.doc:
            schema["description"] = self.doc
        return schema

    def words(self) -> str:
        return f"*{self.name}*"


def _described(key: Key) -> dict:
    schema = key.kind.json()
    if key.doc and "description" not in schema:
        schema["description"] = key.doc
    return schema


Kind = Union[Value, ListOf, MapOf, Keyed, OneOf, Free, Section]


def json_of(kind) -> dict:
    return kind.json()


def words_of(kind) -> str:
    return kind.words()


VALUE = Value()
TEXT = Value(("string",), what="text")
FLAG = Value(what="true / false")
NAME = Value(("string", "number", "boolean"), what="name")  # null is no name: the reader reports it missing
NAMES = ListOf(NAME, what="list of names")
PAIR = ListOf(NAME, 2, 2, what="[a, b]")
