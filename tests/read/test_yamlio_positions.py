"""Positions of mappings and lists the parser did not make (code builds them: a scenario's
rules without one, an empty section): the file, without a line, never a crash."""
from __future__ import annotations

from generator.core.diagnostics import Position
from generator.read.yamlio import LocatedDict, LocatedList, load_yaml_text


def test_a_mapping_made_in_code_stands_at_its_file():
    made = LocatedDict({"a": 1})
    assert made.pos == Position("<yaml>")
    assert made.position_of("a") == Position("<yaml>")


def test_a_list_made_in_code_stands_at_its_file():
    made = LocatedList([1, 2])
    assert made.pos == Position("<yaml>")
    assert made.position_of(1) == Position("<yaml>")


def test_parsed_positions_are_unchanged():
    data = load_yaml_text("a:\n  - 1\n  - 2\n", "spec.yaml")
    assert data.pos == Position("spec.yaml", 1, 1)
    assert data.position_of("a") == Position("spec.yaml", 1, 1)
    assert data["a"].position_of(1) == Position("spec.yaml", 3, 5)
