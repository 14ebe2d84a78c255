"""Canonical form of a game XML for content comparison: the same elements in
the same order with the same attributes and text; comments, attribute order and
whitespace do not count."""
from __future__ import annotations

from generator.safexml import parse_xml_bytes, parse_xml_file


def canonical(tree) -> list[tuple]:
    rows = [("DOCTYPE", tree.docinfo.system_url if tree.docinfo.doctype else None)]
    for element in tree.getroot().iter():
        if not isinstance(element.tag, str):
            continue  # comments
        # <value> text counts exactly; elsewhere only character data beyond the indentation counts
        text = element.text or "" if element.tag == "value" else (element.text or "").strip()
        rows.append((element.tag, tuple(sorted(element.attrib.items())), text, (element.tail or "").strip()))
    return rows


def canonical_file(path) -> list[tuple]:
    return canonical(parse_xml_file(path))


def canonical_bytes(data: bytes) -> list[tuple]:
    return canonical(parse_xml_bytes(data, "<bytes>"))


def first_difference(a: list[tuple], b: list[tuple]) -> str:
    for index, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"element #{index}: {x} != {y}"
    return f"lengths differ: {len(a)} != {len(b)}"
