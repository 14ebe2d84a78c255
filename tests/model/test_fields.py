"""The game format declared once (generator.model.fields): the importer, the spec readers, the
YAML writer and the templates take each attribute from the model; the XSD is checked against it."""
from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from generator.model import game as m
from generator.model.fields import FLAG, attributes_of, from_fields, required_xml_names, xml_items, xml_names, \
    yaml_items
from generator.read import importer
from generator.render.templates import model_attributes
from generator.speclang import declared

REPO = Path(__file__).resolve().parents[2]
XSD = REPO / "generator" / "check" / "schema" / "game.xsd"
XS = "{http://www.w3.org/2001/XMLSchema}"


def _declared_in(element) -> list[tuple[str, bool]]:
    """(name, required) of the attributes an <xs:element> declares, inline or through its named type."""
    holder = element.find(f"{XS}complexType")
    if holder is None and element.get("type"):
        holder = element.getroottree().find(f"{XS}complexType[@name='{element.get('type')}']")
    if holder is None:
        return []
    return [(a.get("name"), a.get("use") == "required") for a in holder.findall(f"{XS}attribute")]


def _xsd_attributes(tag: str) -> list[tuple[str, bool]]:
    """(name, required) of the declaration of <tag> in the XSD (every declaration of it alike)."""
    tree = etree.parse(str(XSD))
    # (type "skipped": an element of that name where both engines skip it, e.g. a <player> in <attachmentList>)
    found = [_declared_in(element) for element in tree.iter(f"{XS}element")
             if element.get("name") == tag and element.get("type") != "skipped"]
    assert found, f"the XSD does not declare <{tag}>"
    assert all(declared == found[0] for declared in found), f"the XSD declares <{tag}> differently in places"
    return found[0]


def _old_spellings(cls) -> set[str]:
    return {a.legacy for a in attributes_of(cls) if a.legacy}


# Required by the model, optional in the XSD because validate.py reports the missing attribute with a
# code of its own (the XSD says why next to the attribute).
_MISSING_REPORTED_BY_VALIDATE = {"property": {"name"}}  # TG158


@pytest.mark.parametrize("tag", sorted(m.ELEMENT_CLASSES))
def test_the_xsd_declares_the_attributes_the_model_declares(tag):
    cls = m.ELEMENT_CLASSES[tag]
    in_xsd = _xsd_attributes(tag)
    # one XSD type serves both spellings of an attachment (XSD 1.0 cannot demand one of two names)
    assert {name for name, _ in in_xsd} == xml_names(cls) | _old_spellings(cls)
    # what the engine needs (the importer cannot read the element without it) the XSD requires too, but for a
    # name with an old spelling, which validate.py requires in one of its spellings
    needed = set(required_xml_names(cls)) - {a.xml for a in attributes_of(cls) if a.legacy}
    needed -= _MISSING_REPORTED_BY_VALIDATE.get(tag, set())
    assert needed <= {name for name, required in in_xsd if required}


@pytest.mark.parametrize("tag", sorted(m.ELEMENT_CLASSES))
def test_the_importer_takes_its_attribute_lists_from_the_model(tag):
    cls = m.ELEMENT_CLASSES[tag]
    assert importer._KNOWN_ATTRIBUTES[tag] == xml_names(cls)
    assert importer._REQUIRED_ATTRIBUTES[tag] == required_xml_names(cls)


def test_the_importer_reads_old_spellings_from_the_model():
    assert importer._KNOWN_ATTRIBUTES["attatchment"] == {"name", "attatchTo", "javaClass", "type", "foreach"}
    assert importer._REQUIRED_ATTRIBUTES["attatchment"] == ("name", "attatchTo", "javaClass")


def test_the_spec_keys_take_kind_and_doc_from_the_model():
    hits = declared.UNIT_COUNT.key("hitsTaken")
    assert (hits.doc, hits.kind) == ("damage taken", declared.VALUE)
    assert declared.PLAYER.key("optional").kind is declared.FLAG
    assert [a.yaml for a in attributes_of(m.Player) if a.kind == FLAG] == ["optional", "canBeDisabled", "isHidden"]
    assert declared.STEP.names[:5] == tuple(a.yaml for a in attributes_of(m.Step))
    assert declared.STEP.key("name").required and not declared.STEP.key("maxRunCount").required


def test_one_placement_through_every_derived_path():
    placement = from_fields(m.UnitPlacement, {"quantity": "2", "hitsTaken": "1"}, unit_type="battleship",
                            territory="26 Sea Zone", owner="Americans")
    assert placement == m.UnitPlacement("battleship", "26 Sea Zone", "2", "Americans", "1", None)
    assert list(xml_items(placement))[-2:] == [("hitsTaken", "1"), ("unitDamage", None)]
    assert str(model_attributes(placement)) == \
        ' unitType="battleship" territory="26 Sea Zone" quantity="2" owner="Americans" hitsTaken="1"'
    assert dict(yaml_items(placement, *m.UnitPlacement.COUNT_KEYS)) == \
        {"quantity": "2", "hitsTaken": "1", "unitDamage": None}


def test_a_required_attribute_missing_from_a_spec_entry_is_empty_text():
    assert from_fields(m.HeldUnits, {"quantity": "3"}) == m.HeldUnits("", "", "3")


def _files_spelling(word: str) -> list[str]:
    roots = [REPO / "generator", REPO / "templates"]
    return sorted(str(p.relative_to(REPO)) for root in roots for p in root.rglob("*")
                  if p.is_file() and p.suffix in (".py", ".j2", ".xsd") and word in p.read_text(encoding="utf-8"))


def test_hits_taken_is_spelled_in_the_model_the_xsd_and_the_check_of_its_value_only():
    # (overlay_setup.py shows it in its docstring's example of the YAML form only)
    assert _files_spelling("hitsTaken") == ["generator/check/schema/game.xsd", "generator/check/validate.py",
                                            "generator/model/game.py", "generator/speclang/overlay_setup.py"]
