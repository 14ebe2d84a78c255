"""The one way triplea-gen reads YAML: libyaml when present, positions kept on
every mapping, sequence and key, duplicate keys refused, alias expansion and
input size bounded. Specs come from forums too."""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Protocol

import yaml

from generator.core.gcpause import collector_paused
from generator.core.diagnostics import Diagnostic, DiagnosticError, Position, display_path
from generator.read import yamlmessages
from generator.read.safexml import read_input
from generator.read.speccache import load_parsed

MAX_SPEC_BYTES = 16 * 1024 * 1024
# Every YAML node needs a line or a comma of its own (a block item, a key, a flow item), so lines
# plus commas bound the node count, and so the memory, before anything is parsed. The 10x Global
# 1940 benchmark game has about 63,000; each node costs a few hundred bytes once read.
MAX_SPEC_ITEMS = 300_000
MAX_EXPANDED_NODES = 2_000_000  # a full Global 1940 game is about 150,000 nodes

if TYPE_CHECKING:
    # The checker sees one loader class; CSafeLoader is SafeLoader's constructors over libyaml's
    # parser, so both have the interface used here.
    _BaseLoader = yaml.SafeLoader
else:
    _BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _Marked(Protocol):
    """What _Located's methods need of the class they are mixed into (the slots live there:
    a mixin with slots of its own cannot be combined with dict or list)."""

    _pos: Position | None
    _mark: yaml.Mark | None
    _source: str


class _Located:
    """Positions kept as the parser's marks and turned into Positions only when asked for:
    a big spec has a hundred thousand keys and only the faulty ones are ever reported."""

    __slots__ = ()
    _pos: Position | None  # for the checker (the slot is the subclass's): the getter stores a Position

    @property
    def pos(self: _Marked) -> Position:
        pos = self._pos
        if pos is None:
            pos = self._pos = _mark_position(self._source, self._mark)
        return pos

    @pos.setter
    def pos(self: _Marked, value: Position) -> None:
        self._pos = value


class LocatedDict(_Located, dict):
    """A mapping that remembers where it and each of its keys stand in the file."""

    __slots__ = ("_pos", "_mark", "_source", "_key_marks", "_key_pos")
    _pos: Position | None
    _mark: yaml.Mark | None
    _source: str
    _key_marks: dict[Any, yaml.Mark]
    _key_pos: dict[Any, Position]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._pos = self._mark = None
        self._source = "<yaml>"
        self._key_marks = {}
        self._key_pos = {}

    @property
    def key_pos(self) -> dict:
        positions = {k: _mark_position(self._source, mark) for k, mark in self._key_marks.items()}
        positions.update(self._key_pos)
        return positions

    @key_pos.setter
    def key_pos(self, value: dict) -> None:
        self._key_marks, self._key_pos = {}, dict(value)

    def position_of(self, key) -> Position:
        if key in self._key_pos:
            return self._key_pos[key]
        mark = self._key_marks.get(key)
        return self.pos if mark is None else _mark_position(self._source, mark)


class LocatedList(_Located, list):
    """A sequence that remembers where it and each of its items stand."""

    __slots__ = ("_pos", "_mark", "_source", "_item_marks")
    _pos: Position | None
    _mark: yaml.Mark | None
    _source: str
    _item_marks: list[yaml.Mark]

    def __init__(self, *args):
        super().__init__(*args)
        self._pos = self._mark = None
        self._source = "<yaml>"
        self._item_marks = []

    def position_of(self, index: int) -> Position:
        if index < len(self._item_marks):
            return _mark_position(self._source, self._item_marks[index])
        return self.pos


def _mark_position(source: str, mark: yaml.Mark | None) -> Position:
    """A mapping or list made in code (not parsed) has no mark: the file, without a line."""
    return Position(source) if mark is None else Position(source, mark.line + 1, mark.column + 1)


_MERGE_TAG = "tag:yaml.org,2002:merge"
# YAML 1.1 types a spec has no use for: an ordered map or pair list is a list of tuples, a set a
# mapping of nulls, binary is bytes. Each would reach code that expects mappings, lists and text.
_REFUSED_TAGS = {
    "tag:yaml.org,2002:omap": "!!omap", "tag:yaml.org,2002:pairs": "!!pairs", "tag:yaml.org,2002:set": "!!set",
    "tag:yaml.org,2002:binary": "!!binary", "tag:yaml.org,2002:timestamp": "!!timestamp",
}
MAX_NUMBER_CHARS = 100  # no game number comes near; 5,000 digits is more than Python converts to text


class _Loader(_BaseLoader):
    source = "<yaml>"

    def construct_yaml_map(self, node):
        self._require_kind(node, yaml.MappingNode)
        data = LocatedDict()
        data._mark, data._source = node.start_mark, self.source
        key_marks = data._key_marks
        yield data
        merged: dict = {}  # key -> (value, key mark, the mapping it came from, the `<<` key node)
        explicit: dict = {}  # key -> its key node
        for key_node, value_node in node.value:
            if key_node.tag == _MERGE_TAG:
                self._merge_into(merged, key_node, value_node)
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                hash(key)
            except TypeError:
                raise _located("TG022", "a mapping key must be a plain value", self.source, key_node.start_mark,
                               "quote the key") from None
            if key in explicit:
                raise _duplicate(self.source, key_node, explicit[key])
            explicit[key] = key_node
            data[key] = self.construct_object(value_node, deep=True)
            key_marks[key] = key_node.start_mark
        for key, (value, mark, _, _) in merged.items():
            if key not in explicit:  # a key written in the mapping overrides what `<<:` brings in
                data[key] = value
                key_marks[key] = mark

    def _merge_into(self, merged: dict, merge_node, value_node) -> None:
        """The keys `<<: *a` or `<<: [*a, *b]` bring in; one key from two mappings is refused
        (YAML would keep one of them silently)."""
        sources = value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
        for source in sources:
            if not isinstance(source, yaml.MappingNode):
                raise _located("TG031", "'<<:' merges a mapping or a list of mappings", self.source,
                               source.start_mark, "write '<<: *anchor' where the anchor names a mapping")
            mapping = self.construct_object(source, deep=True)
            for key, value in mapping.items():
                mark = mapping._key_marks.get(key, source.start_mark)
                if key in merged and merged[key][2] is not source:
                    first = merged[key][1]
                    raise _located("TG021", f"duplicate key '{key}' brought in twice by '<<:' (from line "
                                   f"{first.line + 1} and line {mark.line + 1})", self.source,
                                   merge_node.start_mark, "write the key in this mapping to say which value "
                                   "holds, or merge only one of the mappings")
                merged[key] = (value, mark, source, merge_node)

    def construct_object(self, node, deep=False):
        try:
            return super().construct_object(node, deep)
        except (ValueError, KeyError, TypeError, OverflowError):  # a value its explicit tag cannot read
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            shown = node.value if isinstance(node, yaml.ScalarNode) else f"a {node.id}"
            raise _located("TG024", f"'{shown}' cannot be read as {tag}", self.source, node.start_mark,
                           "remove the tag, or write a value of its type") from None

    def construct_yaml_int(self, node):
        if len(node.value) > MAX_NUMBER_CHARS:
            raise _located("TG025", f"a number of {len(node.value)} characters; at most {MAX_NUMBER_CHARS} are "
                           "allowed", self.source, node.start_mark, "no game value is that large; quote it if it "
                           "is meant as text")
        return super().construct_yaml_int(node)

    def construct_yaml_seq(self, node):
        self._require_kind(node, yaml.SequenceNode)
        data = LocatedList()
        data._mark, data._source = node.start_mark, self.source
        data._item_marks = [item.start_mark for item in node.value]
        yield data
        data.extend(self.construct_object(item, deep=True) for item in node.value)

    def _require_kind(self, node, kind) -> None:
        if not isinstance(node, kind):  # `!!seq` or `!!map` written on something else
            tag = node.tag.replace("tag:yaml.org,2002:", "!!")
            raise _located("TG024", f"the YAML tag {tag} on a {node.id}", self.source, node.start_mark,
                           "remove the tag")

    def refuse_tag(self, node):
        tag = _REFUSED_TAGS.get(node.tag, node.tag)
        raise _located("TG024", f"the YAML tag {tag} is not allowed in a spec", self.source, node.start_mark,
                       "remove the tag: a spec holds plain mappings, lists, text, numbers and booleans")


def _duplicate(source: str, key_node, first_node) -> DiagnosticError:
    text, first_text = _key_text(key_node), _key_text(first_node)
    same = "" if text == first_text else f", which YAML reads as the same key as '{first_text}'"
    return _located("TG021", f"duplicate key '{text}'{same} (first at line {first_node.start_mark.line + 1})",
                    source, key_node.start_mark, "each key may appear once in a mapping; remove or rename one"
                    + ("" if text == first_text else " (quote keys such as yes, on, 0x1 to keep them text)"))


def _key_text(node) -> str:
    return node.value if isinstance(node, yaml.ScalarNode) else f"({node.id})"


_Loader.add_constructor("tag:yaml.org,2002:map", _Loader.construct_yaml_map)
_Loader.add_constructor("tag:yaml.org,2002:seq", _Loader.construct_yaml_seq)
_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)
for _tag in (*_REFUSED_TAGS, None):  # None: any tag the loader does not know (!foo, !!python/...)
    _Loader.add_constructor(_tag, _Loader.refuse_tag)


def _located(code: str, message: str, source: str, mark, hint: str) -> DiagnosticError:
    pos = _mark_position(source, mark)
    return DiagnosticError([Diagnostic(code, message, pos, hint)])


def _expanded_size(node, memo: dict, budget: int) -> int:
    """Nodes the document would have with every alias expanded (linear in the node graph)."""
    key = id(node)
    if key in memo:
        return memo[key]
    memo[key] = 1  # cycles (recursive aliases) count once; the constructor refuses them anyway
    total = 1
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            total += _expanded_size(k, memo, budget) + _expanded_size(v, memo, budget)
            if total > budget:
                break
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            total += _expanded_size(item, memo, budget)
            if total > budget:
                break
    memo[key] = total
    return total


def line_breaks(text: str) -> int:
    """Every line break YAML knows: LF, CR, CR LF (one break), NEL, LS and PS. A file with bare
    CR breaks has as many lines to YAML as one with LF."""
    return (text.count("\n") + text.count("\r") - text.count("\r\n") + text.count("\x85")
            + text.count("\u2028") + text.count("\u2029"))


def load_yaml_text(text: str | bytes, shown: str, aliases: bool = True, keep: bool = False):
    """Parse one YAML document; every refusal is a located diagnostic. aliases=False: YAML the
    user did not write (map.yml, anything of a map folder) may hold no anchor or alias at all.
    keep: a file's text, which a later process may read again (generator.read.speccache); not an
    editor's unsaved text, which a warm process holds."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            raise DiagnosticError([Diagnostic(
                "TG020", f"not UTF-8 text (byte {err.start})", Position(shown, 1, 1),
                "save the spec as UTF-8; is this a binary file?")]) from None
    if "\x00" in text:
        raise DiagnosticError([Diagnostic("TG020", "file contains NUL bytes; not a YAML text", Position(shown, 1, 1),
                                          "is this a binary file?")])
    items = line_breaks(text) + text.count(",")
    if items > MAX_SPEC_ITEMS:
        raise DiagnosticError([Diagnostic(
            "TG002", f"spec has {items} lines and list items, more than the {MAX_SPEC_ITEMS} allowed; refused",
            Position(shown, 1, 1), "a real game spec has tens of thousands; is this file generated or damaged?")])
    loader = _Loader(text)
    loader.source = shown
    try:
        if not aliases and ("&" in text or "*" in text):
            _refuse_anchors(text, shown)
        with collector_paused():
            if not keep:
                return _construct(loader, text, shown)
            return load_parsed(text, shown, aliases, lambda: _construct(loader, text, shown), (LocatedDict, LocatedList),
                               f"PyYAML {yaml.__version__} {_BaseLoader.__name__}")
    except yaml.MarkedYAMLError as err:
        problem = yamlmessages.explain(err, text)
        raise DiagnosticError([Diagnostic("TG020", f"YAML syntax error: {problem.message}",
                                          Position(shown, problem.line + 1, problem.column + 1),
                                          problem.hint)]) from None
    except yaml.reader.ReaderError as err:  # a character YAML does not allow: located at it
        before = text[:err.position]
        line = line_breaks(before) + 1
        col = err.position - max(before.rfind(c) for c in "\n\r\x85\u2028\u2029")
        raise DiagnosticError([Diagnostic(
            "TG020", f"a character YAML does not allow in a spec: U+{err.character:04X}", Position(shown, line, col),
            "remove it, or write it as an escape in a double-quoted string (\"\\e\" for ESC)")]) from None
    except yaml.YAMLError as err:
        raise DiagnosticError([Diagnostic("TG020", f"YAML error: {err}", Position(shown, 1, 1),
                                          "fix the YAML syntax")]) from None
    except RecursionError:
        raise DiagnosticError([Diagnostic("TG023", "YAML nested too deeply; refused", Position(shown, 1, 1),
                                          "flatten the structure")]) from None
    finally:
        loader.dispose()


def _refuse_anchors(text: str, shown: str) -> None:
    """TG026 at the first anchor or alias: one pass over the parser's events (no nodes made)."""
    scanner = _BaseLoader(text)
    try:
        while scanner.check_event():
            event = scanner.get_event()
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
                what = "an alias" if isinstance(event, yaml.AliasEvent) else "an anchor"
                raise _located("TG026", f"{what} ('{'*' if what == 'an alias' else '&'}{event.anchor}') in the "
                               "YAML of a map or output folder; refused", shown, event.start_mark,
                               "map.yml and the other files of a map folder need no anchors or aliases: write "
                               "each value out (an alias can expand without bound)")
    finally:
        scanner.dispose()


def _construct(loader, text: str, shown: str):
    """The document's objects, after refusing what expands beyond the bounds."""
    node = loader.get_single_node()
    if node is None:
        return None
    # Aliases need anchors; a document without '&' cannot expand (and most specs have none).
    if "&" in text and _expanded_size(node, {}, MAX_EXPANDED_NODES) > MAX_EXPANDED_NODES:
        raise _located("TG023", f"the document expands to more than {MAX_EXPANDED_NODES} nodes "
                       "through aliases; refused", shown, node.start_mark,
                       "an alias bomb? use fewer nested aliases")
    return loader.construct_document(node)


MAX_LISTING_BYTES = 1024 * 1024  # map.yml: Global 1940's lists 6 games in 500 bytes


def load_untrusted_yaml(data: bytes, shown: str):
    """YAML from a map or output folder (map.yml): bounded, anchors and aliases refused (TG026)."""
    if len(data) > MAX_LISTING_BYTES:
        raise DiagnosticError([Diagnostic("TG005", f"{len(data)} bytes, more than the {MAX_LISTING_BYTES} allowed "
                                          "for this kind of map folder file", Position(shown),
                                          "no real map has a file this large; is it damaged, or planted by a zip?")])
    return load_yaml_text(data, shown, aliases=False)


def load_yaml_file(path: str | os.PathLike):
    return load_yaml_text(read_input(path, MAX_SPEC_BYTES), display_path(path), keep=True)
