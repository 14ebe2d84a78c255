"""SpecReader: small typed accessors over located YAML data (generator.read.yamlio) that
report instead of raising. Key and scalar checks come from the declarations
(generator.speclang.declared): `section` for a declared mapping, `fields` for one entry."""
from __future__ import annotations

from typing import Any, Collection, Iterator, Literal, NamedTuple, overload

from generator.core.diagnostics import Collector, Position, closest_name
from generator.read.yamlio import LocatedDict, LocatedList
from generator.speclang.shapes import Raw, Section, Value


class Entry(NamedTuple):
    """One entry of a keyed section (SpecReader.entries): its name, its raw body, where it is."""
    name: str
    body: Raw
    pos: Position


class SpecReader:
    """Small typed accessors over located YAML data that report instead of raising."""

    def __init__(self, source: str, collector: Collector):
        self.source = source
        self.collector = collector

    def pos(self, data: Raw, fallback: Position | None = None) -> Position:
        return getattr(data, "pos", None) or fallback or Position(self.source)

    def error(self, code: str, message: str, pos: Position, hint: str) -> None:
        self.collector.error(code, message, pos, hint)

    def mapping(self, data: Raw, what: str, pos: Position, allowed: Collection[str] | None = None) -> LocatedDict | None:
        if data is None:
            empty = LocatedDict()
            empty.pos = pos
            return empty
        if not isinstance(data, dict):
            self.error("TG031", f"{what} must be a mapping (key: value), not {_kind(data)}", pos,
                       f"write {what} as indented 'key: value' lines")
            return None
        if allowed is not None:
            self.check_keys(data, allowed, what)
        return data

    def section(self, data: Raw, declared: Section, pos: Position, what: str | None = None) -> LocatedDict | None:
        """A declared section: a mapping (null reads as empty) whose keys are checked against the declaration."""
        return self.mapping(data, what or declared.name, pos, declared.names)

    def check_keys(self, data: LocatedDict, allowed: Collection[str], what: str) -> set[str]:
        """Reports each unknown key; returns the allowed keys that are missing but were probably
        meant by one (a misspelling), so the caller can leave out errors that only follow from it."""
        meant = set()
        for key in data:
            if key not in allowed:
                suggestion = closest_name(str(key), allowed)
                self.error("TG030", f"unknown key '{key}' in {what}", data.position_of(key),
                           f"did you mean '{suggestion}'?" if suggestion else f"allowed keys: {', '.join(allowed)}")
                if suggestion is not None and suggestion not in data:
                    meant.add(suggestion)
        return meant

    def sequence(self, data: Raw, what: str, pos: Position) -> LocatedList | None:
        if data is None:
            empty = LocatedList()
            empty.pos = pos
            return empty
        if not isinstance(data, list):
            self.error("TG031", f"{what} must be a list, not {_kind(data)}", pos, f"write {what} as '- item' lines")
            return None
        return data

    @overload
    def text(self, value: Raw, what: str, pos: Position, required: Literal[True]) -> str: ...

    @overload
    def text(self, value: Raw, what: str, pos: Position, required: bool = False) -> str | None: ...

    def text(self, value: Raw, what: str, pos: Position, required: bool = False) -> str | None:
        """A scalar as the exact string the XML will hold; required: never None ("" where it is missing
        or no scalar, which is reported)."""
        if value is None:
            if required:
                self.error("TG032", f"{what} is missing", pos, f"give {what} a value")
                return ""
            return None
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (int, str)):
            return str(value)
        if isinstance(value, float):
            return repr(value)
        self.error("TG031", f"{what} must be a single value, not {_kind(value)}", pos,
                   "quote the value if it is meant as text")
        return ""

    def entries(self, data: Raw, what: str, pos: Position, key_name: str) -> Iterator[Entry]:
        """Keyed sections: a mapping name -> body, or a list of bodies that carry the name.

        Yields an Entry (name, body, position) for each; body is a mapping, list or scalar."""
        body: Raw  # a key's value or an item of located YAML is located YAML again
        if data is None:
            return
        if isinstance(data, dict):
            for key, body in data.items():
                # a null key (~:) is no name: reported here, not by the XSD on the built game
                yield Entry(self.text(key, f"a name in {what}", data.position_of(key), required=True), body,
                            data.position_of(key))
        elif isinstance(data, list):
            for index, body in enumerate(data):
                item_pos = data.position_of(index)
                if isinstance(body, dict):
                    name = self.text(body.get(key_name), f"{key_name} of an entry in {what}", self.pos(body, item_pos),
                                     required=True)
                    yield Entry(name, body, self.pos(body, item_pos))
                elif isinstance(body, list) and body:
                    yield Entry(self.text(body[0], f"an entry in {what}", item_pos, required=True), body, item_pos)
                else:
                    self.error("TG031", f"each entry in {what} must be a mapping or a list", item_pos,
                               f"write entries as '{{{key_name}: ...}}'")
        else:
            self.error("TG031", f"{what} must be a mapping or a list, not {_kind(data)}", pos,
                       "write one entry per line")

    def fields(self, body: Raw, what: str, pos: Position, declared: Section, positional: bool = False) -> dict[str, Any]:
        """The fields of one entry: a mapping with the declared keys, or (positional) a flow list.

        Keys declared as single values come back as text (a list or mapping there is reported);
        other keys come back raw where they hold a list or mapping, for the caller to read."""
        allowed = declared.names
        if body is None:
            return {}
        if isinstance(body, dict):
            self.check_keys(body, allowed, what)
            found: dict[str, Any] = {}
            for key in declared.keys:
                if key.name not in body:
                    continue
                value = body[key.name]
                if isinstance(value, (dict, list)) and not isinstance(key.kind, Value):
                    found[key.name] = value
                else:
                    found[key.name] = self.text(value, f"{key.name} of {what}", body.position_of(key.name))
            return found
        if positional and isinstance(body, list):
            if len(body) > len(allowed):
                self.error("TG031", f"{what} has {len(body)} values, at most {len(allowed)} expected", pos,
                           f"write it as [{', '.join(allowed)}]")
            return {key: self.text(value, f"{key} of {what}", pos) for key, value in zip(allowed, body)}
        self.error("TG031", f"{what} must be a mapping, not {_kind(body)}", pos,
                   f"write it as {{{', '.join(allowed)}}}")
        return {}

    def names(self, data: Raw, what: str, pos: Position) -> list[tuple[str, Position]]:
        seq = self.sequence(data, what, pos)
        if seq is None:
            return []
        return [(self.text(item, f"an item of {what}", seq.position_of(i), required=True), seq.position_of(i))
                for i, item in enumerate(seq)]


def _kind(value: object) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    return f"the value {value!r}"
