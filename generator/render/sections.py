"""Warm rendering: a process that builds many times (watch, the build server, the language server)
renders each section of the game XML (templates/game/*.xml.j2, included by game.xml.j2) again only
when the model fields that section reads have changed, positions included.

The bytes are the cold render's by construction: game.xml.j2 is rendered with each include replaced
by a placeholder (the frame), and each placeholder by that section's own render, which is what the
include puts there. Each section is kept without its marks of YAML positions, with the positions by
line counted from its own first line, moved down by the lines before it: as one render marks them.
tests/render/test_sections.py compares both on every example."""
from __future__ import annotations

import dataclasses
import operator
import re
from functools import partial
from pathlib import Path
from typing import Any, Callable, NamedTuple

# The model fields each section template reads (all of them: `game.<field>` and nothing else; the
# test reads the templates and holds this table to them).
SECTION_FIELDS = {
    "header": ("info", "loader", "minimum_version", "triplea_present", "dice_sides", "variables"),
    "map": ("grids", "territories", "connections", "remove_connections", "resources"),
    "players": ("players", "alliances", "units", "relationship_types", "territory_effects"),
    "gameplay": ("delegates", "steps", "offset"),
    "production": ("production",),
    "technology": ("technology",),
    "attachments": ("attachments", "legacy_attachment_spelling"),
    "initialize": ("initialize",),
    "properties": ("properties",),
}
_PLACEHOLDER = re.compile("\x01([a-z]+)\x01")
_MARK = re.compile("\x00([0-9]+)\x00")  # as generator.render.templates marks positions

_warm: dict[str, tuple[tuple, Section]] | None = None  # section name -> (fingerprint, its render)
# The spec (a key its warm builder chooses) whose model the kept sections were last rendered from, set
# when a render completes: only then may the dependency map vouch for a section without its fingerprint.
_owner: object = None
# The last completed render's frame and sections in document order (None while a render runs and
# after one that failed): a later warm stage keys on them (generator.builder.warmfolder).
_last: tuple[str, tuple[tuple[str, Section, int], ...]] | None = None


def keep_warm() -> None:
    """Called by processes that build many times; a single build keeps nothing."""
    global _warm
    if _warm is None:
        _warm = {}


def is_warm() -> bool:
    return _warm is not None


class Unfingerprintable(TypeError):
    """A value the fingerprint does not know: its section is rendered every time."""


class Section(NamedTuple):
    """A section's render as the game XML holds it: the text without position marks, each marked
    line's position (line numbers counted from the section's first line, 0; the last mark on a line
    wins, as in one render), its number of line breaks, and whether its marks were all sound (a
    value holding NUL breaks them: the whole game is then rendered without positions)."""
    text: str
    positions: dict[int, Any]
    breaks: int
    sound: bool


def _unmarked(text: str, recorded: list) -> Section:
    positions: dict[int, Any] = {}
    line, last = 0, 0
    for mark in _MARK.finditer(text):
        line += text.count("\n", last, mark.start())
        last = mark.start()
        positions[line] = recorded[int(mark.group(1))]
    plain = _MARK.sub("", text) if "\x00" in text else text
    return Section(plain, positions, plain.count("\n"), text.count("\x00") == 2 * len(recorded))


_SCALARS = frozenset((type(None), str, int, float, bool))
_SEQUENCE, _MAPPING, _SCALAR = "sequence", "mapping", "scalar"
# type -> how fingerprint takes it apart: a kind word, or (a dataclass) the getter of its fields
_plans: dict[type, str | Callable[[Any], tuple]] = {}


def _one_field(value: Any, name: str) -> tuple:
    return (getattr(value, name),)


def _no_fields(value: Any) -> tuple:
    return ()


def _plan(kind: type) -> str | Callable[[Any], tuple]:
    if issubclass(kind, (str, int, float, bool)):
        return _SCALAR
    if kind is list or issubclass(kind, tuple):  # a Position is a NamedTuple
        return _SEQUENCE
    if issubclass(kind, dict):
        return _MAPPING
    if dataclasses.is_dataclass(kind):
        names = tuple(f.name for f in dataclasses.fields(kind))
        if len(names) == 1:  # attrgetter of one name gives the value, not a tuple of it
            return partial(_one_field, name=names[0])
        return operator.attrgetter(*names) if names else _no_fields
    raise Unfingerprintable(kind.__name__)


def fingerprint(value):
    """Everything a template can read of a value, as nested tuples (positions included). Hot in
    every warm rebuild (the whole model, each time): a plan per type, scalars not recursed into."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    plan = _plans.get(kind)
    if plan is None:
        plan = _plans[kind] = _plan(kind)
    if plan is _SCALAR:
        return value
    if plan is _MAPPING:
        return ("dict", *[(k if type(k) in _SCALARS else fingerprint(k), v if type(v) in _SCALARS else fingerprint(v))
                          for k, v in value.items()])
    items = plan(value) if callable(plan) else value  # else a _SEQUENCE
    return (kind.__name__, *[v if type(v) in _SCALARS else fingerprint(v) for v in items])


def render_sections(game, environment, origins, owner: object = None,
                    unchanged: frozenset[str] = frozenset()) -> tuple[str, dict[int, Any]] | None:
    """The game XML text, as game.xml.j2 renders it, and for each line that starts an element
    rendered from a model entity with a position, that position; None when a value holds NUL (no
    XML can carry it, and it breaks the position marks). Sections whose fields are unchanged come
    from memory. `origins`: the context variable the templates' `origin` filter records positions in.
    `unchanged`: sections the dependency map (generator.builder.depmap) found no edit feeding since
    `owner`'s last render; when that render was the last one, they are taken without a fingerprint."""
    global _owner, _last
    trusted = unchanged if owner is not None and owner == _owner else frozenset()
    _owner, _last = None, None  # until this render completes
    frame = _frame_environment(environment).get_template("game/game.xml.j2").render(game=game)
    if "\x00" in frame:
        return None
    parts: list[str] = []
    lines: dict[int, Any] = {}
    rendered: list[tuple[str, Section, int]] = []
    last, line = 0, 1
    for match in _PLACEHOLDER.finditer(frame):
        between = frame[last:match.start()]
        parts.append(between)
        line += between.count("\n")
        section = _section(match.group(1), game, environment, origins, match.group(1) in trusted)
        if not section.sound:
            return None
        parts.append(section.text)
        rendered.append((match.group(1), section, line))
        for relative, position in section.positions.items():
            lines[line + relative] = position
        line += section.breaks
        last = match.end()
    parts.append(frame[last:])
    _owner, _last = owner, (frame, tuple(rendered))
    return "".join(parts), lines


def last_render() -> tuple[str, tuple[tuple[str, Section, int], ...]] | None:
    """The frame and the (name, section, its first line in the XML) of the last render that
    completed. A section kept from an earlier render is the same object: its model fields
    (positions included) are unchanged, and so are the elements it holds (each section renders
    whole elements: the frame's includes sit between them)."""
    return _last


class SameSection:
    """A section in a key, equal only to itself: one rendered again is a change (the same text may
    come from a model that differs where a reader looks: a position the render does not mark)."""
    __slots__ = ("section",)

    def __init__(self, section: Section):
        self.section = section

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SameSection) and other.section is self.section

    __hash__ = None  # type: ignore[assignment]  # compared, never looked up


def section_at(rendered: tuple | None, line: int) -> tuple | None:
    """(first line, SameSection) of the rendered section holding the XML line; None when the line is
    the frame's or nothing was rendered warm."""
    if rendered is None:
        return None
    # a section's lines: from its first to its last with text (a final line break ends it)
    holding = [(start, section) for _name, section, start in rendered[1]
               if start <= line <= start + section.breaks - section.text.endswith("\n")]
    if len(holding) != 1:  # the frame's line, or one two sections share: not known well enough
        return None
    start, section = holding[0]
    return start, SameSection(section)


_frames: dict = {}  # environment -> its frame environment


def _frame_environment(environment):
    """game.xml.j2 with each section's include answered by its placeholder. Made once per
    environment: a new overlay per build compiled the frame again, and its templates and caches
    refer to each other (garbage only the cyclic collector frees)."""
    frame = _frames.get(environment)
    if frame is None:
        import jinja2

        frame = _frames[environment] = environment.overlay(loader=jinja2.ChoiceLoader([
            jinja2.DictLoader({f"game/{name}.xml.j2": f"\x01{name}\x01" for name in SECTION_FIELDS}),
            environment.loader]))
    return frame


def _section(name: str, game, environment, origins, trusted: bool = False) -> Section:
    kept = _warm.get(name) if _warm is not None else None
    if trusted and kept is not None:
        return kept[1]
    try:
        key = fingerprint(tuple(getattr(game, field) for field in SECTION_FIELDS[name]))
    except Unfingerprintable:
        key = None
    if key is not None and kept is not None and kept[0] == key:
        return kept[1]
    recorded: list = []
    token = origins.set(recorded)
    try:
        text = environment.get_template(f"game/{name}.xml.j2").render(game=game)
    finally:
        origins.reset(token)
    section = _unmarked(text, recorded)  # its marks are numbered from 0 here, its lines from 0
    if _warm is not None:
        if key is not None:
            _warm[name] = (key, section)
        else:  # what is kept is an older model's: never to be vouched for
            _warm.pop(name, None)
    return section


def section_templates(templates_dir: Path) -> dict[str, str]:
    """The section templates' text (for the test that holds SECTION_FIELDS to them)."""
    return {name: (templates_dir / "game" / f"{name}.xml.j2").read_text(encoding="utf-8") for name in SECTION_FIELDS}
