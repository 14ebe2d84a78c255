"""triplea-gen's own game XML schema (generator/check/schema/game.xsd): it accepts every
real game of both engine generations, types what the engines type, keeps the DTD
element order, and explains each violation with a reason, a path and a line."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import xml_params
from textedit import replaced
from generator.read.safexml import parse_xml_bytes, parse_xml_file
from generator.check.schema import SCHEMA_CODE, _lxml_schema, _xmlschema_schema, check_schema, is_valid

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "validate"

SKELETON = """<?xml version="1.0" encoding="UTF-8"?>
<game>
  <info name="Schema"{info}/>
  {head}
  <map>
    <territory name="A"{water}/>
    <territory name="B"/>
    {map_extra}
    <connection t1="A" t2="B"/>
  </map>
  <playerList>
    <player name="Reds"{player}/>
  </playerList>
  <unitList><unit name="inf"/></unitList>
  <gamePlay>
    <delegate name="init" javaClass="games.strategy.triplea.delegate.InitializationDelegate"/>
    <sequence>
      <step name="gameInit" delegate="init"{step}/>
    </sequence>
  </gamePlay>
  <attachmentList>
    <attachment name="unitAttachment" attachTo="inf" javaClass="games.strategy.triplea.attachments.UnitAttachment"{type}>
      <option name="movement" value="1"/>
    </attachment>
  </attachmentList>
  <initialize>
    <unitInitialize>
      <unitPlacement unitType="inf" territory="A" quantity="{quantity}" owner="Reds"/>
    </unitInitialize>
  </initialize>
  <propertyList>
    {property}
  </propertyList>
</game>
"""
DEFAULTS = dict(info=' version="1.0"', head="", water="", map_extra="", player="", step="", type=' type="unitType"',
                quantity="1", property='<property name="mapName" value="x"/>')


def document(**changes) -> str:
    return SKELETON.format(**{**DEFAULTS, **changes})


def check(text: str):
    tree = parse_xml_bytes(text.encode("utf-8"), "game.xml")
    return check_schema(tree, source="game.xml")


def line_of(text: str, fragment: str) -> int:
    return text[: text.index(fragment)].count("\n") + 1


@pytest.mark.parametrize("path", xml_params())
def test_every_real_game_matches_the_schema(path: Path):
    assert check_schema(parse_xml_file(path), source=str(path)) == []


def test_hand_written_fixtures_match_the_schema():
    for path in sorted(FIXTURES.glob("*.xml")):
        assert is_valid(parse_xml_file(path)), path.name


def test_the_skeleton_is_valid():
    assert check(document()) == []


@pytest.mark.parametrize("changes", [
    dict(info=""),  # the current engine makes info/@version optional
    dict(head='<loader javaClass="games.strategy.triplea.TripleA"/>\n  <triplea minimumVersion="1.9"/>'),
    dict(head='<diceSides value="12"/>\n  <variableList><variable name="P"><element name="Reds"/></variable>'
              '</variableList>'),
    dict(map_extra='<grid name="cell" type="points-and-lines" x="3" y="2" horizontal-connections="implicit">'
                   '<water x="1" y="1"/></grid>'),
    dict(water=' water="TRUE"'),  # the current engine reads booleans ignoring case
    dict(player=' optional="false" canBeDisabled="true" defaultType="AI" isHidden="false"'),
    dict(step=' maxRunCount="-1"'),
    dict(type=""),  # type defaults to unitType
    dict(quantity="+3"),
    dict(property='<property name="Reds bid" value="5" editable="true" min="0" max="10"/>'),
    dict(property='<property name="Style" editable="true"><combo values="a,b"/></property>'),
    dict(property='<property name="Pick" editable="true"><list values="a,b"/></property>'),
    dict(property='<property name="notes"><value><![CDATA[<b>bold</b>]]></value></property>'),
], ids=["no-version", "loader-triplea", "dice-variables", "grid", "water-case", "player-flags", "run-count",
        "default-type", "plus-sign", "min-max-attributes", "combo", "list", "value-child"])
def test_features_of_either_engine_are_accepted(changes):
    assert check(document(**changes)) == []


def test_legacy_attachment_spelling_is_accepted():
    text = document()
    for old, new in (("<attachmentList>", "<attatchmentList>"), ("</attachmentList>", "</attatchmentList>"),
                     ("<attachment ", "<attatchment "), ("</attachment>", "</attatchment>"),
                     ('attachTo="inf"', 'attatchTo="inf"')):
        text = replaced(text, old, new)
    assert check(text) == []


def test_foreach_attribute_is_accepted():
    text = replaced(document(), 'name="unitAttachment"', 'foreach="$P$" name="unitAttachment"')
    assert check(text) == []


@pytest.mark.parametrize("changes,fragment,reason", [
    (dict(quantity="three"), 'quantity="three"', "quantity='three'"),
    (dict(quantity="99999999999"), 'quantity="99999999999"', "quantity='99999999999'"),
    (dict(water=' water="yes"'), 'water="yes"', "water='yes'"),
    (dict(type=' type="unit"'), 'type="unit"', "must be one of"),
    (dict(player=' defaultType="Robot"'), 'defaultType="Robot"', "must be one of"),
    (dict(step=' maxRunCount="once"'), 'maxRunCount="once"', "maxRunCount='once'"),
    (dict(map_extra='<grid name="g" type="hex" x="1" y="1"/>'), 'type="hex"', "must be one of"),
    (dict(head='<diceSides value="d6"/>'), 'diceSides value="d6"', "value='d6'"),
], ids=["not-an-int", "int-overflow", "not-a-boolean", "attachment-type", "player-type", "run-count", "grid-type",
        "dice"])
def test_typed_attributes(changes, fragment, reason):
    text = document(**changes)
    (found,) = check(text)
    assert found.code == SCHEMA_CODE and found.severity == "error"
    assert reason in found.message
    assert found.position.line == line_of(text, fragment)
    assert found.hint


def test_unknown_element_names_what_is_allowed():
    text = document(map_extra='<territorry name="C"/>')
    (found,) = check(text)
    assert found.position.line == line_of(text, "<territorry")
    assert "territorry" in found.message and "(at /game/map)" in found.message
    assert found.hint == "did you mean <territory>?"


def test_unknown_element_hint_lists_what_may_follow():
    (found,) = check(document(map_extra="<bogus/>"))
    assert found.hint == "allowed here: <connection>, <remove-connection>"


def test_elements_out_of_dtd_order_are_reported():
    text = replaced(document(), "  <unitList><unit name=\"inf\"/></unitList>\n", "")
    text = replaced(text, "<map>", "<unitList><unit name=\"inf\"/></unitList>\n  <map>")
    found = check(text)
    assert found and found[0].code == SCHEMA_CODE
    assert found[0].position.line == line_of(text, "<unitList>")


def test_missing_required_attribute():
    assert document().count('<connection t1="A" t2="B"/>') == 1
    text = document().replace('<connection t1="A" t2="B"/>', '<connection t1="A"/>')
    (found,) = check(text)
    assert "missing required attribute" in found.message and "t2" in found.message
    assert found.position.line == line_of(text, '<connection t1="A"/>')


def test_what_the_engines_load_is_not_a_schema_error():
    """Issue 16: an option without value (the current engine skips it, 1.9 refuses it: validate
    says so per engine, TG108) and unknown attributes on it are left to the semantic checks."""
    text = document().replace('<option name="movement" value="1"/>', '<option name="movement" false="true"/>')
    assert text != document()
    assert check(text) == []


def test_missing_required_section():
    text = document()
    start, end = text.index("  <gamePlay>"), text.index("</gamePlay>") + len("</gamePlay>\n")
    found = check(text[:start] + text[end:])
    assert found and "gamePlay" in found[0].message + found[0].hint


def test_several_violations_are_reported_in_one_pass():
    text = document(quantity="x", water=' water="wet"', type=' type="thing"')
    found = check(text)
    assert sorted(d.position.line for d in found) == sorted(
        [line_of(text, 'quantity="x"'), line_of(text, 'water="wet"'), line_of(text, 'type="thing"')])


def test_position_of_decides_where_violations_point():
    from generator.core.diagnostics import Position

    tree = parse_xml_bytes(document(quantity="x").encode(), "game.xml")
    (found,) = check_schema(tree, source="game.xml", position_of=lambda element: Position("spec.yaml", 4, 2))
    assert str(found.position) == "spec.yaml:4:2"


def test_schemas_are_compiled_once_per_process():
    assert _lxml_schema() is _lxml_schema()
    assert _xmlschema_schema() is _xmlschema_schema()
