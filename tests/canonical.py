"""Canonical form of a game XML for content comparison: the same elements in
the same order with the same attributes and character data; comments, attribute
order and indentation do not count."""
from __future__ import annotations

from generator.read.safexml import parse_xml_bytes, parse_xml_file


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


def import_and_build(source, folder) -> tuple[list[tuple], list[tuple]]:
    """Import a game XML to YAML and build it again (command line, validation skipped): the
    canonical forms of the original and of the rebuilt game."""
    from pathlib import Path

    from generator.cli.main import main

    folder = Path(folder)
    spec = folder / "game.yaml"
    assert main(["import", str(source), "-o", str(spec)]) == 0
    assert main(["build", str(spec), "-o", str(folder / "out"), "--skip-validation"]) == 0
    (built,) = (folder / "out").glob("*/map/games/*.xml")
    return canonical_file(source), canonical_file(built)
