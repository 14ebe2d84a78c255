"""The validator's attachment checks, kept warm (issue 30): the most costly part of validating a
game (half of it for Global 1940), which an edit of a price, a set-up or a property does not touch.

A check may be skipped only when everything it reads is what it read last time. The attachment
checks (generator.check.attachments) declare what they read in ATTACHMENTS_READ: the attachment
lists (their text, the lines they start on, the YAML positions of those lines), the checker's name
index and variables, the game's bounds (dice sides, the map's routes) and the engine. Their
findings and the state later checks read of them (ATTACHMENTS_WRITE) are then taken from the last
run, the state's elements moved to the same places of the new tree. Anything unusual (an element
that is not in the attachment lists, a position map that is not known) is simply run again."""
from __future__ import annotations

from typing import Any, Callable

from lxml import etree

from generator.check.structure import dtd_id_entries
from generator.core.enginename import EngineName
from generator.render.sections import section_at

# What the attachment checks read of the checker before they run (besides the document and engine),
# and what they leave for the checks after them; tests/check/test_warmchecks.py holds both to the code.
ATTACHMENTS_READ = ("names", "variables", "bounds")
ATTACHMENTS_WRITE = ("attached", "defined", "first_element", "conditions", "mentioned", "capitals",
                     "unit_hit_points", "game_property_uses", "victory_options")
_LISTS = ("attachmentList", "attatchmentList")
_IDS = "\x00dtd ids"  # StructureMemo's entry of a section's structure.dtd_id_entries (no pass's name)


class AttachmentsMemo:
    """Kept by a warm process for one spec: the last attachment checks' inputs, findings and state.
    `line_positions`, `fallback`: the build's line -> YAML position map and the position of the
    game, from which the validator's position_of answers (set before each validation)."""

    def __init__(self) -> None:
        self.line_positions: dict[int, Any] | None = None
        self.fallback: Any = None
        self.rendered: tuple | None = None  # the build's warm render (render/sections.py last_render)
        self.routes: tuple[tuple, int] | None = None  # (the map's rendered section, its route bound)
        self.key: tuple | None = None
        self.findings: list = []
        self.state: dict[str, Any] = {}
        self.replayed = False  # the last validation took the kept findings (for tests and benchmarks)

    def run(self, checker, check: Callable[[], None]) -> None:
        """check() (the attachment checks on checker), or what it did last time for the same inputs."""
        if checker.bounds is None:  # read lazily by the checks; part of what they read
            checker.bounds = self.bounds(checker.root)
        lists = [child for child in checker.root if child.tag in _LISTS]
        key = self._key(checker, lists)
        self.replayed = key is not None and key == self.key
        if self.replayed:
            elements = _Elements(lists)
            checker.out.diagnostics.extend(self.findings)
            for name, value in self.state.items():
                setattr(checker, name, _with_elements(value, elements))
            return
        before = len(checker.out.diagnostics)
        check()
        self.key, self.findings, self.state = None, checker.out.diagnostics[before:], {}
        places = _places(lists)
        try:
            self.state = {name: _with_places(getattr(checker, name), places) for name in ATTACHMENTS_WRITE}
        except KeyError:  # an element from elsewhere: nothing to keep
            return
        self.key = key

    def bounds(self, root) -> dict[str, int]:
        """numbers.game_bounds of the game, the map's routes not searched again when its rendered
        section is the one they were searched in (the validator asks before its first check)."""
        from generator.check.numbers import game_bounds

        return game_bounds(root, self._kept_routes(root.find("map")))

    def _kept_routes(self, game_map) -> int | None:
        """The map's longest_route_bound (a search over its routes) when its rendered section is the
        one it was worked out from; else None, and the next one is kept."""
        from generator.check.numbers import longest_route_bound

        held = section_at(self.rendered, game_map.sourceline) if game_map is not None else None
        if held is None:
            self.routes = None
            return None
        if self.routes is None or self.routes[0] != held:
            self.routes = (held, longest_route_bound(game_map))
        return self.routes[1]

    def _key(self, checker, lists: list) -> tuple | None:
        if self.line_positions is None:
            return None
        root = checker.root
        parts: list[Any] = [checker.engine, self.fallback, root.sourceline, self.line_positions.get(root.sourceline)]
        for element in lists:
            parts += [element.sourceline, element_key(element, self.line_positions, self.rendered)]
        parts.append(tuple((kind, frozenset(names)) for kind, names in checker.names.items()))
        parts.append(tuple((name, tuple(values)) for name, values in checker.variables.items()))
        parts.append(tuple(sorted(checker.bounds.items())))
        return tuple(parts)


class MapIndexMemo:
    """Kept by a warm process for one spec: the name index's territories (validate.index_map: the
    <map> section, its names, water and findings), reused while the map's rendered section is the
    kept one at the same line (render/sections.section_at) and what the index held before is too.
    `line_positions`, `fallback`, `rendered`: as AttachmentsMemo's."""

    def __init__(self) -> None:
        self.line_positions: dict[int, Any] | None = None
        self.fallback: Any = None
        self.rendered: tuple | None = None
        self.key: tuple | None = None
        self.findings: list = []
        self.territories: frozenset[str] = frozenset()
        self.water: frozenset[str] = frozenset()
        self.reused = False  # the last validation took the kept index (for tests and benchmarks)

    def run(self, checker, game_map) -> None:
        """checker.index_map(game_map), or what it did last time for the same inputs."""
        held = section_at(self.rendered, game_map.sourceline) if game_map is not None else None
        key = None
        if held is not None and self.line_positions is not None:
            root = checker.root
            key = (checker.engine, held, self.fallback, root.sourceline, self.line_positions.get(root.sourceline),
                   frozenset(checker.names["territory"]), frozenset(checker.water))
        self.reused = key is not None and key == self.key
        if self.reused:
            checker.out.diagnostics.extend(self.findings)
            checker.names["territory"].update(self.territories)
            checker.water.update(self.water)
            return
        before = len(checker.out.diagnostics)
        checker.index_map(game_map)
        self.key, self.findings = key, checker.out.diagnostics[before:]
        self.territories, self.water = frozenset(checker.names["territory"]), frozenset(checker.water)


class StructureMemo:
    """Kept by a warm process for one spec: the structural checks' local passes (generator.check.
    structure LOCAL_PASSES: each looks at one top-level section and reads nothing else) per
    section, keyed by the section's text, its first line and the YAML positions of its lines (and
    of the root's, the fallback, the engine). `line_positions`, `fallback`: as AttachmentsMemo's."""

    def __init__(self) -> None:
        self.line_positions: dict[int, Any] | None = None
        self.fallback: Any = None
        self.rendered: tuple | None = None  # as AttachmentsMemo's
        self.kept: list[tuple[tuple, dict[str, Any]]] = []  # per section: (key, pass -> findings)
        # per section of the last validation, for 1.9: structure.dtd_id_entries (None: not worked out)
        self.id_entries: list | None = None
        self.reused = 0  # sections taken from memory by the last validation (for tests and benchmarks)

    def run(self, checker, sections: list) -> dict[str, list[tuple[object, list]]]:
        """pass name -> [(section, its findings)] for every section, in document order."""
        names = checker.local_pass_names()
        shared = (checker.engine, names, self.fallback, self.line_positions.get(checker.root.sourceline)
                  if self.line_positions is not None else None)
        kept, self.kept, self.reused = self.kept, [], 0
        local: dict[str, list[tuple[object, list]]] = {name: [] for name in names}
        ids = checker.engine == EngineName.V1_9  # only 1.9 checks them (and names, in the key, differ)
        self.id_entries = [] if ids else None
        for index, section in enumerate(sections):
            key = self._key(section, shared)
            found = kept[index][1] if key is not None and index < len(kept) and kept[index][0] == key else None
            if found is None:
                found = {name: checker.local_pass(name, section) for name in names}
                if ids:
                    found[_IDS] = dtd_id_entries(section)
            else:
                self.reused += 1
            for name in names:
                local[name].append((section, found[name]))
            if self.id_entries is not None:
                self.id_entries.append(found[_IDS])
            if key is not None:
                self.kept.append((key, found))
            else:
                self.kept.append(((), found))  # () equals no key: never reused
        return local

    def _key(self, section, shared: tuple) -> tuple | None:
        if self.line_positions is None or not isinstance(section.tag, str):
            return None
        return shared + (section.sourceline, element_key(section, self.line_positions, self.rendered))


class SectionCheckMemo:
    """Kept by a warm process for one spec: one check that reads one top-level section and the
    checker attributes `reads` (the initial state's references: validate.INITIALIZE_READS), and only
    reports. Its findings are taken from the last run while the section (keyed as StructureMemo's),
    those attributes, the root's position and the engine are what they were. `line_positions`,
    `fallback`, `rendered`: as AttachmentsMemo's."""

    def __init__(self, reads: tuple[str, ...]) -> None:
        self.reads = reads
        self.line_positions: dict[int, Any] | None = None
        self.fallback: Any = None
        self.rendered: tuple | None = None
        self.key: tuple | None = None
        self.findings: list = []
        self.reused = False  # the last validation took the kept findings (for tests and benchmarks)

    def run(self, checker, section, check: Callable[[Any], None]) -> None:
        """check(section), or what it reported last time for the same inputs."""
        key = None
        if section is not None and self.line_positions is not None:
            root = checker.root
            key = (checker.engine, self.fallback, root.sourceline, self.line_positions.get(root.sourceline),
                   section.sourceline, element_key(section, self.line_positions, self.rendered),
                   *(_frozen(getattr(checker, name)) for name in self.reads))
        self.reused = key is not None and key == self.key
        if self.reused:
            checker.out.diagnostics.extend(self.findings)
            return
        before = len(checker.out.diagnostics)
        check(section)
        self.key, self.findings = key, checker.out.diagnostics[before:]


def _frozen(value: Any) -> Any:
    """A checker attribute as a comparable value (dicts of sets or of plain values)."""
    if isinstance(value, dict):
        return tuple((key, _frozen(item)) for key, item in value.items())
    if isinstance(value, (set, frozenset)):
        return frozenset(value)
    if isinstance(value, list):
        return tuple(_frozen(item) for item in value)
    return value


def element_key(element, line_positions: dict[int, Any], rendered: tuple | None) -> tuple:
    """What a top-level element is, with the YAML positions of its lines: the rendered section
    holding it when the build rendered warm (the same section object at the same line holds the
    same elements with the same positions: compared without serialising them), else its text."""
    held = section_at(rendered, element.sourceline)
    if held is not None:
        return ("rendered", *held)
    text = etree.tostring(element, with_tail=False)
    first = element.sourceline
    return ("text", text, tuple(line_positions.get(line) for line in range(first, first + text.count(b"\n") + 1)))


class _Place(tuple):
    """An element's place in the attachment lists (kept instead of the element): the list's index,
    then the child indexes down to it. A replay finds it from the top without a walk of every
    element of the lists (most of them are options no state holds)."""


def _places(lists: list) -> dict:
    """Every element of the attachment lists -> its _Place."""
    places: dict = {}
    stack = []
    for number, element in enumerate(lists):
        places[element] = _Place((number,))
        stack.append((element, places[element]))
    while stack:
        parent, place = stack.pop()
        for number, child in enumerate(parent):
            places[child] = _Place(place + (number,))
            if len(child):
                stack.append((child, places[child]))
    return places


class _Elements:
    """The new tree's element at each kept _Place (each list's children listed once, when first asked)."""

    def __init__(self, lists: list) -> None:
        self.lists = lists
        self.children: dict[int, list] = {}

    def __getitem__(self, place: tuple) -> Any:
        element = self.lists[place[0]]
        if len(place) > 1:
            children = self.children.get(place[0])
            if children is None:
                children = self.children[place[0]] = list(element)
            element = children[place[1]]
            for number in place[2:]:
                element = element[number]
        return element


# The state is of few shapes (ATTACHMENTS_WRITE): a dict or list whose items are an element, a tuple
# holding elements, or plain values; a set. Elements any deeper are not kept (_with_places refuses).

def _with_places(value: Any, places: dict) -> Any:
    def place(item: Any) -> Any:
        if isinstance(item, etree._Element):
            return places[item]
        if type(item) is tuple:
            return tuple(place(part) if isinstance(part, etree._Element) else part for part in item)
        return item

    if isinstance(value, dict):
        kept: Any = {key: place(item) for key, item in value.items()}
        inner = kept.values()
    elif isinstance(value, list):
        kept = [place(item) for item in value]
        inner = kept
    elif isinstance(value, (set, frozenset)):
        kept = inner = set(value)
    else:
        raise KeyError(type(value).__name__)
    if any(_holds_element(item) for item in inner):
        raise KeyError("an element deeper than the kept shapes")
    return kept


def _holds_element(value: Any) -> bool:
    if isinstance(value, etree._Element):
        return True
    if isinstance(value, dict):
        return any(_holds_element(item) for item in value.values()) or any(map(_holds_element, value))
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(_holds_element(item) for item in value if type(item) is not _Place)
    return False


def _with_elements(value: Any, elements: _Elements) -> Any:
    """The kept state with each place replaced by the new tree's element there (containers copied:
    later checks may add to them)."""
    def element(item: Any) -> Any:
        kind = type(item)
        if kind is _Place:
            return elements[item]
        if kind is tuple:
            return tuple(elements[part] if type(part) is _Place else part for part in item)
        if kind is list:
            return list(item)
        return item

    if isinstance(value, dict):
        return {key: element(item) for key, item in value.items()}
    if isinstance(value, list):
        return [element(item) for item in value]
    return set(value)
