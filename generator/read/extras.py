"""Content of a game XML that the model has no field for, kept verbatim (`extra:` in the YAML).

Import records each such piece with its place: the path of the element it belongs to, counted
over the elements the model holds, and how many of that element's held children come before
it. Build renders the model, then puts every piece back at that place, so any game XML comes
back from import and build with the same elements, attributes and character data."""
from __future__ import annotations

from typing import Any

from lxml import etree

from generator.model import game as m
from generator.read.safexml import parse_xml_bytes

# Character data the model holds itself: a property's <value> text.
_TEXT_HOLDERS = frozenset({"value"})


def collect_extras(root, taken: set, kept_attributes, pos) -> list[m.Extra]:
    """Every piece of the document under `root` that is not in `taken` (elements the model
    holds) or in kept_attributes(element) (None: all of its attributes)."""
    extras: list[m.Extra] = []
    stack = [(root, "")]
    while stack:
        element, path = stack.pop()
        kept = set() if element is root else kept_attributes(element)
        if kept is not None:
            unknown = {k: v for k, v in element.attrib.items() if k not in kept}
            if unknown:
                extras.append(m.Extra(path, attributes=unknown, pos=pos(element)))
        holds_text = element.tag in _TEXT_HOLDERS
        if not holds_text and _meaningful(element.text):
            extras.append(m.Extra(path, 0, text=element.text, pos=pos(element)))
        held = 0
        counts: dict[str, int] = {}
        inner = []
        for child in element:
            if isinstance(child.tag, str):
                if child in taken:
                    held += 1
                    counts[child.tag] = counts.get(child.tag, 0) + 1
                    inner.append((child, f"{path}/{child.tag}[{counts[child.tag]}]".lstrip("/")))
                else:
                    extras.append(m.Extra(path, held, xml=_verbatim(child), pos=pos(child)))
            if not holds_text and _meaningful(child.tail):
                extras.append(m.Extra(path, held, text=child.tail, pos=pos(child)))
        stack.extend(reversed(inner))
    # depth first from the root: an element's pieces come before those of the elements inside it
    return extras


def _meaningful(text: str | None) -> bool:
    return bool(text and text.strip())


def _verbatim(element) -> str:
    return etree.tostring(element, encoding="unicode", with_tail=False)


def apply_extras(tree: etree._ElementTree, extras: list[m.Extra], source: str) -> set:
    """Put every extra back into the rendered `tree` (changed in place); the elements added."""
    root = tree.getroot()
    targets = {}
    for extra in extras:  # resolve every place first: insertions must not shift the count
        if extra.at not in targets:
            targets[extra.at] = _resolve(root, extra.at)
    added: set = set()
    # (at, after) -> the node the next piece follows; Any: lxml ships no type information
    cursors: dict[tuple[str, int], Any] = {}
    for extra in extras:
        parent = targets[extra.at]
        if parent is None:
            continue  # the spec was edited: the element it belonged to is gone
        if extra.attributes is not None:
            for name, value in extra.attributes.items():
                parent.set(name, value)
            continue
        key = (extra.at, extra.after)
        if key not in cursors:
            held = [c for c in parent if isinstance(c.tag, str) and c not in added]
            cursors[key] = held[min(extra.after, len(held)) - 1] if extra.after > 0 and held else None
        cursor = cursors[key]
        if extra.text is not None:
            if cursor is None:
                parent.text = (parent.text or "") + extra.text
            else:
                cursor.tail = (cursor.tail or "") + extra.text
            continue
        if extra.xml is None:
            continue  # none of xml, text or attributes: an Extra made in code with nothing to put back
        piece = parse_fragment(extra.xml, source)
        # the piece takes the indentation that followed the node it comes after
        piece.tail = _indentation(cursor.tail if cursor is not None else parent.text)
        if cursor is None:
            parent.insert(0, piece)
        else:
            cursor.addnext(piece)
        added.update(piece.iter())
        cursors[key] = piece
    return added


def parse_fragment(xml: str, source: str):
    """One verbatim element, read as safely as a whole game."""
    return parse_xml_bytes(xml.encode("utf-8"), source, root_tag=None).getroot()


def _indentation(text: str | None) -> str:
    if not text:
        return ""
    return text[len(text.rstrip()):]


def _resolve(root, path: str):
    element = root
    for step in filter(None, path.split("/")):
        tag, _, index = step.partition("[")
        number = int(index.rstrip("]") or 1)
        matches = [c for c in element if c.tag == tag]
        if number > len(matches):
            return None
        element = matches[number - 1]
    return element
