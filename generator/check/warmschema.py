"""The schema check kept warm (issue 30): a game XML is valid against game.xsd when the root's own
shape (its attributes, its text, the names of its children in order) is one a valid game had, and
each top-level section is valid on its own. A section is validated alone (against game.xsd with the
sections' declarations made global: the same declarations, nothing else read) only when it is not
the one a valid game had (the same warm-render section at the same line, or the same text).

Sound because game.xsd has no constraint between sections: no identity constraint, no ID or
IDREF, no wildcard that validates what it matches (section_schema checks this when it makes the
schema, and declines otherwise). Anything not known valid this way is checked whole
(schema.check_schema): the findings of an invalid game are always a full check's."""
from __future__ import annotations

import copy
import functools
from typing import Any

from lxml import etree

from generator.check.schema import check_schema, schema_document
from generator.check.warmchecks import element_key
from generator.core.diagnostics import Diagnostic

_XS = "{http://www.w3.org/2001/XMLSchema}"
_CROSS_SECTION = (f"{_XS}key", f"{_XS}keyref", f"{_XS}unique")


@functools.cache
def section_schema() -> tuple[etree.XMLSchema, frozenset[str]] | None:
    """game.xsd with each declaration of a top-level section also global, and the names of those
    sections; None when the schema could relate sections to each other (then nothing is kept)."""
    document = schema_document()
    schema = document.getroot()
    if any(schema.iter(*_CROSS_SECTION)) or any(
            any_element.get("processContents", "strict") != "skip" for any_element in schema.iter(f"{_XS}any")):
        return None
    if any(node.get("type", "").split(":")[-1] in ("ID", "IDREF", "IDREFS")
           for node in schema.iter(etree.Element)):
        return None
    games = [element for element in schema.iterfind(f"{_XS}element") if element.get("name") == "game"]
    if len(games) != 1:
        return None
    declarations = _child_declarations(games[0])
    names = [declaration.get("name") for declaration in declarations]
    taken = {element.get("name") for element in schema.iterfind(f"{_XS}element")}
    local = [declaration for declaration, name in zip(declarations, names)
             if name and names.count(name) == 1 and name not in taken and declaration.get("ref") is None]
    for declaration in local:
        made_global = copy.deepcopy(declaration)
        for occurs in ("minOccurs", "maxOccurs"):  # not allowed on a global declaration
            made_global.attrib.pop(occurs, None)
        schema.append(made_global)
    return etree.XMLSchema(document), frozenset(declaration.get("name") for declaration in local)


def _child_declarations(game) -> list:
    """The element declarations of game's content model (not those inside them)."""
    found, stack = [], list(reversed(game))
    while stack:
        node = stack.pop()
        if node.tag == f"{_XS}element":
            found.append(node)
        elif isinstance(node.tag, str):
            stack.extend(reversed(node))
    return found


class SchemaMemo:
    """Kept by a warm process for one spec: the root shape and the sections of the last game found
    valid. `line_positions`, `rendered`: as warmchecks.AttachmentsMemo's (fallback is not read)."""

    def __init__(self) -> None:
        self.line_positions: dict[int, Any] | None = None
        self.fallback: Any = None
        self.rendered: tuple | None = None
        self.shape: tuple | None = None  # the root's shape in the last valid game
        self.sections: list[tuple | None] = []  # per section of the last validation: its key, when known valid
        self.validated_alone = 0  # sections validated on their own by the last check (for tests)
        self.whole = False  # the last check validated the whole game (for tests)

    def check(self, tree: etree._ElementTree, *, source: str, position_of=None) -> list[Diagnostic]:
        """schema.check_schema's findings on tree."""
        root = tree.getroot()
        shape = _shape(root)
        keys = [self._key(section) for section in root] if shape is not None else []
        self.validated_alone, self.whole = 0, False
        if shape is not None and shape == self.shape and self._all_valid(root, keys):
            self.sections = keys
            return []
        self.whole = True
        found = check_schema(tree, source=source, position_of=position_of)
        valid = not found and shape is not None and None not in keys
        self.shape, self.sections = (shape, keys) if valid else (None, [])
        return found

    def _all_valid(self, root, keys: list) -> bool:
        kept = self.sections
        made = section_schema()
        for index, (section, key) in enumerate(zip(root, keys)):
            if key is None:
                return False
            if index < len(kept) and kept[index] == key:
                continue
            if made is None or section.tag not in made[1]:
                return False
            self.validated_alone += 1
            if not made[0].validate(section):
                return False
        return True

    def _key(self, section) -> tuple | None:
        if self.line_positions is None or not isinstance(section.tag, str):
            return None
        return (section.sourceline, element_key(section, self.line_positions, self.rendered))


def _shape(root) -> tuple | None:
    """What the schema reads of the root besides its sections' insides; None: a child that is not
    an element (a comment), not worth keying."""
    children = []
    for child in root:
        if not isinstance(child.tag, str):
            return None
        children.append((child.tag, child.tail))
    return (root.tag, tuple(root.attrib.items()), root.text, tuple(children))
