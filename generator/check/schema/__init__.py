"""Checks a parsed game XML against triplea-gen's own schema (game.xsd).

lxml's validator (libxml2, C) answers "valid or not" in milliseconds; only when it
says no do we pay for xmlschema, whose errors carry a reason and an element path."""
from __future__ import annotations

import copy
import functools
import re
from pathlib import Path

from lxml import etree

from generator.core.diagnostics import Diagnostic, Position, closest

SCHEMA_PATH = Path(__file__).with_name("game.xsd")
SCHEMA_CODE = "TG100"
# xmlschema builds each error with a copy of its element's attributes, so N attributes the
# schema does not know on one element cost N^2 (3,000 took 55 s). Past this many on one
# element they are reported together, in one diagnostic, and hidden from xmlschema.
MAX_STRAY_ATTRIBUTES = 8


def schema_document() -> etree._ElementTree:
    # Our own file, read like any other: no DTD, entity or network access.
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    return etree.parse(str(SCHEMA_PATH), parser)


@functools.cache
def _lxml_schema() -> etree.XMLSchema:
    return etree.XMLSchema(schema_document())


@functools.cache
def _element_names() -> frozenset[str]:
    xsd = "{http://www.w3.org/2001/XMLSchema}element"
    return frozenset(e.get("name") for e in schema_document().iter(xsd) if e.get("name"))


@functools.cache
def _xmlschema_schema():
    import xmlschema

    return xmlschema.XMLSchema(str(SCHEMA_PATH))


@functools.cache
def _attributes_by_element() -> dict[str, frozenset[str]]:
    """Every attribute name the schema allows on an element of each name (in any context)."""
    import xmlschema

    allowed: dict[str, set[str]] = {}
    for element in _xmlschema_schema().iter_components(xmlschema.XsdElement):
        allowed.setdefault(element.local_name, set()).update(name for name in element.attributes if name)
    return {name: frozenset(names) for name, names in allowed.items()}


def is_valid(tree: etree._ElementTree) -> bool:
    return _lxml_schema().validate(tree)


_EXPECTED = re.compile(r"Expected is(?: one of)? \( ([^)]*) \)")


def _expected_by_line() -> dict[int, str]:
    """What libxml2 says may come instead, per line, from the last lxml validation
    (xmlschema cannot always name the alternatives of an unbounded choice)."""
    expected: dict[int, str] = {}
    for entry in _lxml_schema().error_log:
        match = _EXPECTED.search(entry.message)
        if match:
            names = [name.strip() for name in match.group(1).split(",")]
            expected.setdefault(entry.line, "allowed here: " + ", ".join(f"<{n}>" for n in names))
    return expected


def check_schema(tree: etree._ElementTree, *, source: str, position_of=None) -> list[Diagnostic]:
    """Schema violations of `tree`, one Diagnostic each, in document order."""
    if is_valid(tree):
        return []
    if position_of is None:
        def position_of(element):
            return Position(source, element.sourceline or 0, 1)
    expected_by_line = _expected_by_line()
    crowded = _crowded_elements(tree)
    diagnostics = [_stray_attributes(element, stray, position_of) for element, stray in crowded]
    if not crowded:
        return _schema_errors(tree, source, position_of, expected_by_line)
    trimmed, original_of = _without_stray_attributes(tree, crowded)
    diagnostics += _schema_errors(trimmed, source, lambda element: position_of(original_of.get(element, element)),
                                  expected_by_line)
    return sorted(diagnostics, key=lambda diagnostic: diagnostic.position.line)


def _crowded_elements(tree: etree._ElementTree) -> list[tuple[etree._Element, list[str]]]:
    """Elements with more than MAX_STRAY_ATTRIBUTES attributes the schema does not allow there,
    with those attribute names. One pass over the tree."""
    allowed = _attributes_by_element()
    crowded = []
    for element in tree.getroot().iter(etree.Element):
        if len(element.attrib) > MAX_STRAY_ATTRIBUTES:
            known = allowed.get(element.tag, frozenset())
            stray = [name for name in element.attrib if name not in known]
            if len(stray) > MAX_STRAY_ATTRIBUTES:
                crowded.append((element, stray))
    return crowded


def _stray_attributes(element, stray: list[str], position_of) -> Diagnostic:
    shown = ", ".join(f"'{name}'" for name in stray[:MAX_STRAY_ATTRIBUTES])
    more = f" and {len(stray) - MAX_STRAY_ATTRIBUTES} more" if len(stray) > MAX_STRAY_ATTRIBUTES else ""
    path = element.getroottree().getpath(element)
    allowed = sorted(_attributes_by_element().get(element.tag, ()))
    return Diagnostic(SCHEMA_CODE, f"{len(stray)} attributes not allowed for element: {shown}{more} (at {path})",
                      position_of(element),
                      "allowed here: " + (", ".join(allowed) if allowed else "no attributes"), "error")


def _without_stray_attributes(tree, crowded):
    """A copy of tree whose crowded elements keep only their allowed attributes, and the
    original element of each copied one. Copying is linear; taking attributes out of the
    tree one by one and putting them back is not (lxml finds each by a walk of the list)."""
    root = tree.getroot()
    copied = copy.deepcopy(root)
    original_of = dict(zip(copied.iter(), root.iter()))
    copy_of = {id(original): element for element, original in original_of.items()}
    allowed = _attributes_by_element()
    for element, _ in crowded:
        trimmed = copy_of[id(element)]
        kept = [(name, element.get(name)) for name in sorted(allowed.get(element.tag, ())) if element.get(name) is not None]
        trimmed.attrib.clear()
        for name, value in kept:
            trimmed.set(name, value)
    return copied.getroottree(), original_of


def _schema_errors(tree, source: str, position_of, expected_by_line: dict[int, str]) -> list[Diagnostic]:
    diagnostics: list[Diagnostic] = []
    seen: set[tuple] = set()
    for error in _xmlschema_schema().iter_errors(tree):
        element = _offending_element(error)
        reason = error.reason or error.message or "does not match the schema"
        # xmlschema reports a bad integer twice (pattern, then decoding); keep the first.
        key = (id(element), _attribute_of(reason) or reason)
        if key in seen:
            continue
        seen.add(key)
        if element is not None and getattr(element, "sourceline", None):
            position = position_of(element)
        else:
            position = Position(source, error.sourceline or 0, 1)
        path = error.path or ""
        message = f"{reason} (at {path})" if path else reason
        hint = _hint(error, reason)
        if hint is None:
            line = getattr(element, "sourceline", None) or error.sourceline
            hint = expected_by_line.get(line, "see the element reference in generator/check/schema/game.xsd")
        diagnostics.append(Diagnostic(SCHEMA_CODE, message, position, hint, "error"))
    return diagnostics


def _offending_element(error):
    child = getattr(error, "invalid_child", None)
    if child is not None:
        return child
    return getattr(error, "elem", None)


def _attribute_of(reason: str) -> str | None:
    if reason.startswith("attribute "):
        return reason.split("=", 1)[0]
    return None


def _hint(error, reason: str) -> str | None:
    child = getattr(error, "invalid_tag", None)
    if child and child not in _element_names():
        suggestion = closest(child, _element_names())
        if suggestion:
            return suggestion.replace("'", "<", 1).replace("'", ">", 1)
    expected = getattr(error, "expected_tags", None)
    if expected:
        return "allowed here: " + ", ".join(f"<{tag}>" for tag in expected)
    if "[Tt][Rr][Uu][Ee]" in reason:
        return "write true or false"
    if "2^31" in reason:
        return "write a whole number between -2147483648 and 2147483647"
    if "[0-9]+" in reason or "int()" in reason or "xs:int" in reason:
        return "write a whole number, e.g. 0, 3 or -1"
    if "must be one of" in reason:
        return "use one of the listed values (they are case-sensitive)"
    if "missing required attribute" in reason:
        return "add the attribute"
    return None
