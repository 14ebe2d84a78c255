"""Diagnostics positions come from the model: each rendered element carries a mark of the YAML
position of the entity it was rendered from (generator/render/templates.py), not a guess from
the order of elements."""
from __future__ import annotations

import dataclasses

import pytest

from conftest import PLAIN_GAME
from generator.builder.pipeline import load_spec
from generator.builder.compiler import compile_spec
from generator.render.templates import render_game, render_game_with_origins


@pytest.fixture(scope="module")
def loaded():
    return load_spec(PLAIN_GAME)


def test_the_marks_leave_the_bytes_unchanged(loaded):
    xml, lines = render_game_with_origins(loaded.game)
    assert xml == render_game(loaded.game)
    assert b"\x00" not in xml and lines


def test_every_territory_line_points_at_its_own_yaml_entry(loaded):
    xml, lines = render_game_with_origins(loaded.game)
    written = xml.decode("utf-8").splitlines()
    checked = 0
    for territory in loaded.game.territories:
        number = next(i for i, line in enumerate(written, 1) if f'<territory name="{territory.name}"' in line)
        assert lines[number] == territory.pos, territory.name
        checked += 1
    assert checked == len(loaded.game.territories) > 10


def test_a_reordered_model_still_maps_each_element_to_its_entity(loaded):
    """Pairing by order would give the first <territory> the first territory's position; the
    mark gives it the position of the entity actually written there."""
    game = dataclasses.replace(loaded.game, territories=list(reversed(loaded.game.territories)))
    xml, lines = render_game_with_origins(game)
    written = xml.decode("utf-8").splitlines()
    first = next(i for i, line in enumerate(written, 1) if "<territory " in line)
    assert lines[first] == game.territories[0].pos != loaded.game.territories[0].pos


def test_a_nul_in_a_value_is_still_refused_as_before(loaded):
    territory = loaded.game.territories[0]
    game = dataclasses.replace(loaded.game, territories=[dataclasses.replace(territory, name="A\x001\x00B")]
                               + loaded.game.territories[1:])
    xml, lines = render_game_with_origins(game)
    assert xml == render_game(game) and lines == {}  # no mark taken for the value's NULs


def test_a_built_game_maps_validator_findings_to_yaml_lines():
    compiled = compile_spec(PLAIN_GAME)
    root = compiled.tree.getroot()
    territory = root.find("map/territory")
    assert compiled.position_of(territory).line == compiled.game.territories[0].pos.line
    attachment = next(a for a in compiled.game.attachments if len(a.options) > 1 and a.options[1].pos)
    element = next(e for e in root.iter("attachment")
                   if e.get("name") == attachment.name and e.get("attachTo") == attachment.attach_to)
    assert compiled.position_of(element[1]) == attachment.options[1].pos
    assert compiled.position_of(element) == attachment.pos
