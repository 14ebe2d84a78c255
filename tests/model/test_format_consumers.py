"""Every consumer of the game format follows the model's declarations (generator.model.fields): one
game that sets every declared attribute of every element goes through the importer, the YAML writer,
the spec reader and the templates unchanged; the JSON Schema describes each key as the model does;
and the consumers spell no attribute name the model declares."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import etree

from generator.builder.jsonschema import build_schema
from generator.core.diagnostics import Collector
from generator.model import game as m
from generator.model.fields import attribute_named, attributes_of, xml_names
from generator.read.importer import import_xml_bytes
from generator.read.yamlio import load_yaml_text
from generator.render.templates import render_game
from generator.speclang import declared as d
from generator.speclang.fullgame import read_game
from generator.write.yamlform import dump_game

REPO = Path(__file__).resolve().parents[2]

# Every declared attribute of every element the model declares, each with a value of its own.
EVERY_ATTRIBUTE = b"""<?xml version="1.0" encoding="UTF-8"?>
<game>
  <info name="Every Attribute" version="1.0"/>
  <map>
    <grid name="g" type="square" x="2" y="1">
      <water x="1" y="0"/>
    </grid>
    <territory name="Alpha" water="false"/>
    <territory name="Sea" water="true"/>
    <connection t1="Alpha" t2="Sea"/>
    <remove-connection t1="Sea" t2="Alpha"/>
  </map>
  <resourceList>
    <resource name="PUs" isDisplayedFor="Reds:Blues"/>
  </resourceList>
  <playerList>
    <player name="Reds" optional="false" canBeDisabled="true" defaultType="Human" isHidden="false"/>
    <alliance player="Reds" alliance="East"/>
  </playerList>
  <unitList>
    <unit name="infantry"/>
  </unitList>
  <relationshipTypes>
    <relationshipType name="Truce"/>
  </relationshipTypes>
  <territoryEffectList>
    <territoryEffect name="mountain"/>
  </territoryEffectList>
  <gamePlay>
    <delegate name="move" javaClass="games.strategy.triplea.delegate.MoveDelegate" display="Move"/>
    <sequence>
      <step name="redsMove" delegate="move" player="Reds" maxRunCount="2" display="Moving">
        <stepProperty name="airborne" value="true"/>
      </step>
    </sequence>
  </gamePlay>
  <production>
    <productionRule name="buyInfantry">
      <cost resource="PUs" quantity="3"/>
      <result resourceOrUnit="infantry" quantity="1"/>
    </productionRule>
    <repairRule name="repairInfantry">
      <cost resource="PUs" quantity="1"/>
      <result resourceOrUnit="infantry" quantity="2"/>
    </repairRule>
    <repairFrontier name="repairs">
      <repairRules name="repairInfantry"/>
    </repairFrontier>
    <productionFrontier name="shop">
      <frontierRules name="buyInfantry"/>
    </productionFrontier>
    <playerProduction player="Reds" frontier="shop"/>
    <playerRepair player="Reds" frontier="repairs"/>
  </production>
  <technology>
    <technologies>
      <techname name="jets" tech="jetPower"/>
    </technologies>
    <playerTech player="Reds">
      <category name="air">
        <tech name="jets"/>
      </category>
    </playerTech>
  </technology>
  <attachmentList>
    <attachment name="unitAttachment" attachTo="infantry" javaClass="games.strategy.triplea.attachments.UnitAttachment" type="unitType" foreach="$all$">
      <option name="movement" value="1" count="2"/>
    </attachment>
  </attachmentList>
  <initialize>
    <ownerInitialize>
      <territoryOwner territory="Alpha" owner="Reds"/>
    </ownerInitialize>
    <unitInitialize>
      <unitPlacement unitType="infantry" territory="Alpha" quantity="2" owner="Reds" hitsTaken="1" unitDamage="3"/>
      <heldUnits unitType="infantry" player="Reds" quantity="4"/>
    </unitInitialize>
    <resourceInitialize>
      <resourceGiven player="Reds" resource="PUs" quantity="10"/>
    </resourceInitialize>
    <relationshipInitialize>
      <relationship player1="Reds" player2="Blues" type="Truce" roundValue="1"/>
    </relationshipInitialize>
  </initialize>
  <propertyList>
    <property name="rounds" value="5" editable="true" player="Reds" min="1" max="9">
      <number min="1" max="9"/>
    </property>
  </propertyList>
</game>
"""


def _elements(data: bytes) -> list[tuple[str, dict[str, str]]]:
    root = etree.fromstring(data)
    return [(e.tag, dict(e.attrib)) for e in root.iter() if isinstance(e.tag, str)]


def test_the_fixture_sets_every_declared_attribute_of_every_element():
    present: dict[str, set[str]] = {}
    for tag, attributes in _elements(EVERY_ATTRIBUTE):
        present.setdefault(tag, set()).update(attributes)
    for tag, cls in m.ELEMENT_CLASSES.items():
        assert present.get(tag) == xml_names(cls), f"<{tag}> in EVERY_ATTRIBUTE should set {sorted(xml_names(cls))}"


def test_import_and_build_keep_every_declared_attribute():
    game, diagnostics = import_xml_bytes(EVERY_ATTRIBUTE, "every.xml")
    assert diagnostics == []  # no attribute the importer does not know (TG015), none missing (TG016)
    assert _elements(render_game(game)) == _elements(EVERY_ATTRIBUTE)


def test_the_yaml_form_keeps_every_declared_attribute():
    game, _ = import_xml_bytes(EVERY_ATTRIBUTE, "every.xml")
    collector = Collector()
    again = read_game(load_yaml_text(dump_game(game), "every.yaml"), "every.yaml", collector)
    assert collector.diagnostics == []
    assert again == game
    assert _elements(render_game(again)) == _elements(EVERY_ATTRIBUTE)


def test_old_maps_spelling_of_attach_to_is_read_and_written():
    legacy = EVERY_ATTRIBUTE.replace(b"attachmentList>", b"attatchmentList>").replace(
        b"<attachment name", b"<attatchment name").replace(b"</attachment>", b"</attatchment>").replace(
        b' attachTo="', b' attatchTo="')
    game, diagnostics = import_xml_bytes(legacy, "old.xml")
    assert diagnostics == [] and game.legacy_attachment_spelling
    assert game.attachments is not None and game.attachments[0].attach_to == "infantry"
    assert _elements(render_game(game)) == _elements(legacy)


# spec section -> the model class whose attributes its keys are
SECTIONS = [(d.INFO, m.Info), (d.TERRITORY, m.Territory), (d.RESOURCE, m.Resource), (d.PLAYER, m.Player),
            (d.DELEGATE, m.Delegate), (d.STEP, m.Step), (d.PRODUCTION_RULE, m.ProductionRule),
            (d.FRONTIER_ENTRY, m.Frontier), (d.TECHNAME, m.TechName), (d.TECH_CATEGORY, m.TechCategory),
            (d.PLAYER_TECH, m.PlayerTech), (d.OPTION, m.Option), (d.ATTACHMENT, m.Attachment),
            (d.UNIT_PLACEMENT, m.UnitPlacement), (d.HELD_UNITS, m.HeldUnits), (d.RESOURCE_GIVEN, m.ResourceGiven),
            (d.RELATIONSHIP, m.Relationship), (d.PROPERTY, m.Property)]


def _all_schemas(node):
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _all_schemas(value)
    elif isinstance(node, list):
        for value in node:
            yield from _all_schemas(value)


@pytest.mark.parametrize("section, cls", SECTIONS, ids=[s.name for s, _ in SECTIONS])
def test_the_spec_keys_and_the_json_schema_describe_each_attribute_as_the_model_does(section, cls):
    declared_keys = {a.yaml for a in attributes_of(cls)}
    keys = [key for key in section.keys if key.name in declared_keys]
    assert keys, f"{section.name} has no key the model declares"
    for key in keys:
        assert key.doc == attribute_named(cls, key.name).doc
    schema = section.json()
    assert any(found.get("properties") == schema["properties"] for found in _all_schemas(build_schema())), \
        f"the JSON Schema does not hold the {section.name} entry"
    for key in keys:
        assert schema["properties"][key.name]["description"] == attribute_named(cls, key.name).doc


# The consumers that take the game format from the model (generator.model.fields).
CONSUMERS = ["generator/read/importer.py", "generator/write/yamlform.py", "generator/speclang/fullgame.py",
             "generator/speclang/declared.py", "generator/speclang/overlay.py", "generator/speclang/overlay_setup.py",
             "generator/speclang/overlay_edit.py", "generator/speclang/overlay_prices.py",
             "generator/builder/extract.py", *sorted(f"templates/game/{p.name}" for p in
                                                     (REPO / "templates" / "game").glob("*.xml.j2"))]
# Attribute names that are also ordinary words of the spec language or of the other (undeclared) elements:
# a consumer may spell them for that other meaning.
COMMON_WORDS = {"name", "value", "player", "type", "owner", "territory", "quantity", "resource", "tech", "x", "y",
                "min", "max", "display", "delegate", "alliance", "frontier", "count"}
# Where a consumer spells an attribute for a reason of its own (file, attribute): why.
ALLOWED = {
    ("generator/speclang/fullgame.py", "javaClass"): "a spec entry gives class (short) or javaClass, not both",
    ("generator/speclang/declared.py", "javaClass"): "the attribute looked up by its name to set its key apart",
    ("generator/write/yamlform.py", "javaClass"): "the attribute looked up by its name to write it short",
    ("generator/read/importer.py", "javaClass"): "<loader javaClass>, a single value of Game",
    ("templates/game/header.xml.j2", "javaClass"): "<loader javaClass>, a single value of Game",
    ("templates/game/game.xml.j2", "version"): "the XML declaration's version",
    ("generator/speclang/declared.py", "attachTo"): "the attribute looked up by its name, required in the spec; "
                                                    "and a mod's attachment keys, worded for a mod",
    ("generator/speclang/overlay.py", "attachTo"): "a mod's new attachments (the mod's own keys)",
    ("generator/builder/extract.py", "attachTo"): "extract writes new attachments as a mod's add",
    ("generator/speclang/declared.py", "foreach"): "the attribute looked up by its name to put class: before it",
    ("generator/speclang/declared.py", "editable"): "a mod's property change takes the full game's key",
    ("generator/speclang/overlay.py", "water"): "`change: territories: X: {water: true}` of a mod",
    ("generator/builder/extract.py", "water"): "extract writes a territory's water change as a mod's change",
    ("generator/speclang/declared.py", "water"): "a grid's water cells (the <water> element, not the attribute)",
    ("generator/speclang/fullgame.py", "water"): "a grid's water cells (the <water> element, not the attribute)",
    ("generator/write/yamlform.py", "water"): "a grid's water cells (the <water> element, not the attribute)",
    ("generator/read/importer.py", "water"): "a grid's water cells (the <water> element, not the attribute)",
    ("generator/speclang/declared.py", "unitType"): "the attachment type unitType (a value, not the attribute)",
    ("generator/speclang/overlay.py", "unitType"): "the attachment type unitType (a value, not the attribute)",
    ("generator/builder/extract.py", "unitType"): "the attachment type unitType (a value, not the attribute)",
    ("generator/speclang/declared.py", "version"): "a mod's header and the engine versions",
    ("generator/speclang/overlay.py", "version"): "a mod's header",
    ("generator/builder/extract.py", "version"): "a mod's header",
}


def _spellings() -> dict[tuple[str, str], int]:
    names = {a.xml for cls in set(m.ELEMENT_CLASSES.values()) for a in attributes_of(cls)} - COMMON_WORDS
    found = {}
    for path in CONSUMERS:
        text = (REPO / path).read_text(encoding="utf-8")
        for name in names:
            # quoted ("water") or a keyword (water=); a field of the same name (t.water) is the model's own
            count = len(re.findall(rf"[\"']{re.escape(name)}[\"']|(?<![\w.-]){re.escape(name)}=(?!=)", text))
            if count:
                found[(path, name)] = count
    return found


def test_no_consumer_spells_a_declared_attribute():
    spellings = _spellings()
    unexplained = sorted(set(spellings) - set(ALLOWED))
    assert unexplained == [], "declared in the model (generator.model.fields); take it from there"
    assert sorted(set(ALLOWED) - set(spellings)) == [], "no longer spelt there: drop it from ALLOWED"


def test_a_grid_water_cell_without_a_coordinate_is_kept_verbatim_not_a_crash():
    # <water> needs x and y (the model declares both required): one without is kept as it is, like any element
    # the model cannot hold, where import used to stop with a TypeError on None
    cell_without_x = EVERY_ATTRIBUTE.replace(b'<water x="1" y="0"/>', b'<water y="0"/>')
    game, diagnostics = import_xml_bytes(cell_without_x, "grid.xml")
    assert [d.code for d in diagnostics] == ["TG014"]
    assert game.grids[0].water == [] and game.extras[0].xml == '<water y="0"/>'
    assert "xml: <water y=\"0\"/>" in dump_game(game)  # the build puts it back at its place (read.extras)
