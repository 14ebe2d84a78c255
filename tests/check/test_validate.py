"""Semantic validation of game XMLs (generator/check/validate.py) and `triplea-gen validate`:
no false errors on real games, version awareness, injected faults reported with the
right code at the right line, the exact wording of a few messages, and speed."""
from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from conftest import CORPUS_DIR, GLOBAL_GAMES_DIR, GLOBAL_MAP_DIR, REPO, SHARED_MISSING, corpus_xmls, missing, \
    requires_engine, requires_shared, xml_params
from textedit import replaced
from generator.cli.main import main
from generator.core.diagnostics import Position
from generator.read.safexml import parse_xml_bytes, parse_xml_file
from generator.check.validate import validate_file, validate_tree
from generator.core.codes import CODES

FIXTURES = REPO / "tests" / "fixtures" / "validate"
MINIMAL = FIXTURES / "minimal.xml"
CURRENT_FEATURES = FIXTURES / "current_features.xml"
BASE_GAME = GLOBAL_GAMES_DIR / "ww2global40_2nd_edition.xml"

# TripleA's own parser tests load these two with test-only classes (TestDelegate,
# TestAttachment) registered; the released engines refuse them, and so do we.
ENGINE_TEST_FIXTURES = {"Test.xml", "GameExample.xml"}


def errors(diagnostics):
    return [d for d in diagnostics if d.severity == "error"]


def validate_text(text: str, engine: str = "current", map_dir=None):
    tree = parse_xml_bytes(text.encode("utf-8"), "game.xml")
    return validate_tree(tree, engine=engine, source="game.xml", map_dir=map_dir)


def mutated(old: str, new: str, base: Path = MINIMAL) -> str:
    text = base.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"fixture text not unique: {old!r}"
    return text.replace(old, new)


def line_of(text: str, fragment: str) -> int:
    return text[: text.index(fragment)].count("\n") + 1


def codes(diagnostics) -> list[str]:
    return [d.code for d in diagnostics]


# ---------------------------------------------------------------- no false errors


@pytest.mark.parametrize("path", xml_params())
def test_real_games_have_no_errors_for_the_current_engine(path: Path):
    found = errors(validate_file(path, engine="current"))
    if path.name in ENGINE_TEST_FIXTURES:
        assert found and all(d.code in ("TG140", "TG141") and "'Test" in d.message for d in found), \
            [d.format() for d in found]
        return
    assert found == [], "\n".join(d.format() for d in found)


def global_game_params():
    games = sorted(GLOBAL_GAMES_DIR.glob("*.xml"))
    if not games:
        return [pytest.param(None, marks=requires_shared, id="no-shared")]
    return [pytest.param(path, id=path.name) for path in games]


@pytest.mark.parametrize("path", global_game_params())
def test_global_1940_games_have_no_errors_for_1_9(path: Path):
    found = errors(validate_file(path, engine="1.9"))
    assert found == [], "\n".join(d.format() for d in found)


@pytest.mark.parametrize("path", global_game_params())
def test_global_1940_games_exit_0_from_the_command_line(path: Path, capsys):
    for engine in ("current", "1.9"):
        assert main(["validate", "--engine", engine, str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("0 errors, ")


def test_hand_written_fixture_is_clean_for_both_engines():
    for engine in ("current", "1.9"):
        assert validate_file(MINIMAL, engine=engine) == []


# ---------------------------------------------------------------- version awareness

# What 1.9 refuses in each corpus file, and nothing else: most were written for the
# current engine and lack <info version> (TG101) and <loader> (TG102).
EXPECTED_19 = {
    "Big_World_1942_v3rules.xml": {"TG101"},
    "DelegateTest.xml": {"TG101", "TG102", "TG103"},
    "GameExample.xml": {"TG101", "TG102", "TG140", "TG141"},
    "Test.xml": {"TG101", "TG102", "TG140", "TG141"},
    "big_world_1942_test.xml": {"TG101", "TG102"},
    "iron_blitz_test.xml": {"TG101", "TG102"},
    "lhtr_test.xml": {"TG101", "TG102"},
    "minimap.xml": {"TG101"},
    "pacific_incomplete_test.xml": {"TG101", "TG102"},
    "pact_of_steel_2_test.xml": {"TG101", "TG102", "TG103", "TG142"},
    "revised_test.xml": {"TG101", "TG102"},
    "v1_8_map__270BC.xml": {"TG104", "TG142", "TG143"},
    "victory_test.xml": {"TG101", "TG102", "TG142"},
    "victory_test_shouldSaveUpForAFleet.xml": {"TG101", "TG102", "TG142"},
    "ww2_g40_balanced.xml": {"TG101", "TG102"},
    "ww2v3_1941_test.xml": {"TG101", "TG102", "TG103"},
    "ww2v3_1942_test.xml": {"TG101", "TG102"},
}


def corpus_params():
    files = sorted(CORPUS_DIR.glob("*.xml"))
    if not files:
        return [pytest.param(None, marks=requires_shared, id="no-shared")]
    return [pytest.param(path, id=path.name) for path in files]


@pytest.mark.parametrize("path", corpus_params())
def test_1_9_reports_exactly_the_features_it_lacks(path: Path):
    found = {d.code for d in errors(validate_file(path, engine="1.9"))}
    assert found == EXPECTED_19[path.name]


@requires_shared
def test_1_9_names_each_current_only_option():
    found = errors(validate_file(CORPUS_DIR / "victory_test.xml", engine="1.9"))
    options = sorted({re.search(r"option '(\w+)'", d.message).group(1) for d in found if d.code == "TG142"})
    assert options == ["canNotTarget", "costResources", "fuelFlatCost"]


def test_current_features_fixture_is_clean_for_the_current_engine():
    assert validate_file(CURRENT_FEATURES, engine="current") == []


def test_1_9_reports_each_current_only_feature_of_the_fixture():
    lines = CURRENT_FEATURES.read_text(encoding="utf-8").splitlines()

    def at(fragment, code):
        return [(number, code) for number, line in enumerate(lines, 1) if fragment in line]

    expected = sorted(
        at("<variableList>", "TG104") + at("foreach=", "TG104") + at('value="$', "TG104")
        + at("<attatchment ", "TG104") + at('javaClass="MoveDelegate"', "TG103")
        + at('javaClass="TerritoryEffectAttachment"', "TG103") + at('name="canNotTarget"', "TG142")
        + at('name="costResources"', "TG142") + at('name="isLandTransportable"', "TG142")
        + at('<option name="victoryCity" value="true"/>', "TG143"))
    found = sorted((d.position.line, d.code) for d in errors(validate_file(CURRENT_FEATURES, engine="1.9")))
    assert found == expected
    assert len(expected) == 13


def test_foreach_templates_are_expanded_like_the_engine_does():
    # The template makes one trigger per player; a later condition list refers to both copies.
    text = mutated('<option name="conditions" value="conditionAttachment_Reds_Alive:conditionAttachment_Blues_Alive"/>',
                   '<option name="conditions" value="conditionAttachment_Reds_Alive:conditionAttachment_Greens_Alive"/>',
                   CURRENT_FEATURES)
    found = validate_text(text)
    assert codes(found) == ["TG130"]
    assert "did you mean 'conditionAttachment_Reds_Alive'" in found[0].hint or \
        "did you mean 'conditionAttachment_Blues_Alive'" in found[0].hint


@pytest.mark.parametrize("old,new,message", [
    ('foreach="$Players$"', 'foreach="$Players$^$Players$^$Players$"', "more than one '^'"),
    ('foreach="$Players$"', 'foreach="$Playerz$"', "unknown variable '$Playerz$'"),
    ('foreach="$Players$"', 'foreach="$Players$:$Planes$"', "different lengths"),
])
def test_bad_foreach_expressions(old, new, message):
    text = mutated(old, new, CURRENT_FEATURES)
    found = [d for d in validate_text(text) if d.code == "TG190"]
    assert len(found) == 1 and message in found[0].message
    assert found[0].position.line == line_of(text, new)


def test_empty_foreach_value_skips_the_option():
    # Blues's copy of the bonus trigger has no placement because its @Bonus@ is empty;
    # give it a value and the placement is checked (and 'tank' is no unit).
    text = mutated('<element name=""/>', '<element name="tank"/>', CURRENT_FEATURES)
    found = validate_text(text)
    assert [(d.code, d.position.line) for d in found] == [("TG122", line_of(text, 'value="Beta:@Bonus@"'))]
    assert "unknown unit type 'tank'" in found[0].message


# ---------------------------------------------------------------- fault injection


@dataclass
class Fault:
    id: str
    code: str
    inject: Callable  # (root) -> locate(root) -> element carrying the diagnostic
    engine: str = "current"
    severity: str = "error"


def _first(root, xpath):
    return root.xpath(xpath)[0]


def _attachment_xpath(cls: str) -> str:
    return f"//attachment[@javaClass='games.strategy.triplea.attachments.{cls}']"


def _set_attribute(xpath: str, attribute: str, value: str):
    def inject(root):
        element = _first(root, xpath)
        element.set(attribute, value)
        tag = element.tag

        def locate(new_root):
            return next(e for e in new_root.iter(tag) if e.get(attribute) == value)
        return locate
    return inject


def _rename_option(cls: str, old: str, new: str, value: str | None = None):
    def inject(root):
        option = _first(root, f"{_attachment_xpath(cls)}/option[@name='{old}']")
        option.set("name", new)
        if value is not None:
            option.set("value", value)
        marker = (new, option.get("value"))

        def locate(new_root):
            return next(e for e in new_root.iter("option") if (e.get("name"), e.get("value")) == marker)
        return locate
    return inject


def _set_option_value(cls: str, name: str, value: str):
    def inject(root):
        option = _first(root, f"{_attachment_xpath(cls)}/option[@name='{name}']")
        option.set("value", value)

        def locate(new_root):
            return next(e for e in new_root.iter("option") if e.get("name") == name and e.get("value") == value)
        return locate
    return inject


def _duplicate_first(parent_tag: str, tag: str):
    def inject(root):
        original = root.find(parent_tag).find(tag)
        duplicate = copy.deepcopy(original)
        duplicate.tail = original.tail
        original.addnext(duplicate)
        name = original.get("name")

        def locate(new_root):
            return [e for e in new_root.iter(tag) if e.get("name") == name][1]
        return locate
    return inject


def _forward_reference(root):
    """Move a condition below the first trigger that uses it."""
    option = _first(root, f"{_attachment_xpath('TriggerAttachment')}/option[@name='conditions']")
    condition_name = option.get("value").split(":")[0]
    condition = _first(root, f"//attachment[@name='{condition_name}']")
    attachment_list = condition.getparent()
    attachment_list.remove(condition)
    attachment_list.append(condition)

    def locate(new_root):
        return next(e for e in new_root.iter("option")
                    if e.get("name") in ("conditions", "trigger") and condition_name in e.get("value").split(":"))
    return locate


def _condition_naming_a_trigger(root):
    trigger = _first(root, _attachment_xpath("TriggerAttachment")).get("name")
    option = root.xpath(f"{_attachment_xpath('TriggerAttachment')}/option[@name='conditions']")[-1]
    option.set("value", trigger)

    def locate(new_root):
        return next(e for e in new_root.iter("option") if e.get("name") == "conditions" and e.get("value") == trigger)
    return locate


def _remove_info_version(root):
    root.find("info").attrib.pop("version")
    return lambda new_root: new_root.find("info")


FAULTS = [
    Fault("misspelled-option", "TG142", _rename_option("UnitAttachment", "attack", "atack")),
    Fault("non-integer-value", "TG143", _set_option_value("UnitAttachment", "movement", "two")),
    Fault("non-boolean-value", "TG143", _set_option_value("UnitAttachment", "isAir", "yes")),
    Fault("unknown-unit-in-option", "TG122", _set_option_value("TriggerAttachment", "placement",
                                                                 "Eastern United States:factory_majr")),
    Fault("unknown-unit-placed", "TG122", _set_attribute("//unitPlacement", "unitType", "infantery")),
    Fault("unknown-attach-to", "TG122", _set_attribute(_attachment_xpath("UnitAttachment"), "attachTo", "infantery")),
    Fault("unknown-territory-connected", "TG120", _set_attribute("//connection", "t2", "Atlantis")),
    Fault("unknown-territory-in-option", "TG120", _set_option_value("RulesAttachment", "directOwnershipTerritories",
                                                                      "Atlantis")),
    Fault("unknown-player-owner", "TG121", _set_attribute("//territoryOwner", "owner", "Martians")),
    Fault("alliance-with-unknown-player", "TG121", _set_attribute("//alliance", "player", "Martians")),
    Fault("unknown-resource", "TG123", _set_attribute("//productionRule/cost", "resource", "Gold")),
    Fault("unknown-relationship-type", "TG124", _set_attribute("//relationship", "type", "Frenemies")),
    Fault("unknown-technology", "TG126", _set_attribute("//playerTech/category/tech", "name", "laserBeams")),
    Fault("unknown-delegate", "TG127", _set_attribute("//step", "delegate", "noSuchDelegate")),
    Fault("unknown-frontier", "TG128", _set_attribute("//playerProduction", "frontier", "noSuchFrontier")),
    Fault("unknown-production-rule", "TG129", _set_attribute("//productionFrontier/frontierRules", "name",
                                                              "buyDeathStar")),
    Fault("unknown-condition", "TG130", _set_option_value("TriggerAttachment", "conditions",
                                                           "conditionAttachmentNoSuchThing")),
    Fault("unknown-trigger-activated", "TG130", _set_option_value("TriggerAttachment", "activateTrigger",
                                                                   "triggerAttachmentNoSuchThing:1:true:true:false:false")),
    Fault("forward-reference", "TG131", _forward_reference),
    Fault("condition-names-a-trigger", "TG132", _condition_naming_a_trigger),
    Fault("unknown-attachment-class", "TG140", _set_attribute(_attachment_xpath("UnitAttachment"), "javaClass",
                                                               "games.strategy.triplea.attachments.UnitAtachment")),
    Fault("unknown-delegate-class", "TG141", _set_attribute("//delegate", "javaClass",
                                                            "games.strategy.triplea.delegate.NoSuchDelegate")),
    Fault("duplicate-territory", "TG110", _duplicate_first("map", "territory")),
    # both engines keep the later declaration of a player or unit type
    Fault("duplicate-player", "TG110", _duplicate_first("playerList", "player"), severity="warning"),
    Fault("duplicate-unit", "TG110", _duplicate_first("unitList", "unit"), severity="warning"),
    Fault("non-integer-quantity", "TG100", _set_attribute("//unitPlacement", "quantity", "lots")),
    Fault("trigger-on-unknown-step", "TG150", _set_option_value("TriggerAttachment", "when", "before:noSuchStep"),
          severity="warning"),
    Fault("bare-attachment-class-for-1.9", "TG103", _set_attribute(_attachment_xpath("UnitAttachment"), "javaClass",
                                                                    "UnitAttachment"), engine="1.9"),
    Fault("bare-delegate-class-for-1.9", "TG103", _set_attribute("//delegate", "javaClass", "MoveDelegate"),
          engine="1.9"),
    Fault("current-only-option-for-1.9", "TG142", _rename_option("UnitAttachment", "isSea", "canEvade"), engine="1.9"),
    Fault("missing-info-version-for-1.9", "TG101", _remove_info_version, engine="1.9"),
]


def _inject(fault: Fault, tmp_path: Path) -> tuple[Path, int]:
    """A copy of the base game with the fault, and the line the diagnostic belongs to."""
    tree = etree.parse(str(BASE_GAME), etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False))
    locate = fault.inject(tree.getroot())
    target = tmp_path / f"{fault.id}.xml"
    tree.write(str(target), encoding="UTF-8", xml_declaration=True)
    line = locate(parse_xml_file(target).getroot()).sourceline
    return target, line


def fault_params():
    if not BASE_GAME.is_file():
        return [pytest.param(None, marks=requires_shared, id="no-shared")]
    return [pytest.param(fault, id=fault.id) for fault in FAULTS]


@pytest.mark.parametrize("fault", fault_params())
def test_injected_fault_is_reported_with_its_code_at_its_line(fault: Fault, tmp_path: Path):
    target, line = _inject(fault, tmp_path)
    found = validate_file(target, engine=fault.engine)
    hits = [d for d in found if d.code == fault.code and d.position.line == line]
    assert hits, f"no {fault.code} at line {line}:\n" + "\n".join(d.format() for d in found)
    assert all(d.severity == fault.severity for d in hits)
    assert all(d.hint for d in found)
    # the untouched game has no errors, so every error comes from the fault
    assert all(d.code in (fault.code, "TG147", "TG100") or d.severity == "warning" for d in errors(found)), \
        "\n".join(d.format() for d in errors(found))


def test_fault_kinds_cover_the_required_list():
    required = {"misspelled-option", "non-integer-value", "non-boolean-value", "unknown-unit-placed",
                "unknown-territory-connected", "unknown-player-owner", "unknown-resource", "unknown-frontier",
                "unknown-delegate", "unknown-attachment-class", "forward-reference", "duplicate-territory",
                "trigger-on-unknown-step", "unknown-condition", "alliance-with-unknown-player",
                "bare-attachment-class-for-1.9"}
    assert required <= {f.id for f in FAULTS}
    assert len({f.code for f in FAULTS}) >= 15


# ---------------------------------------------------------------- single checks on the fixture

@dataclass
class Check:
    id: str
    old: str  # fixture text to replace
    new: str
    code: str
    severity: str = "error"
    engine: str = "current"
    at: str | None = None  # text on the line the diagnostic belongs to (default: the last line of new)


CHECKS = [
    Check("unknown-option-hint", '<option name="defense" value="2"/>\n      <option name="transportCost" value="2"/>',
          '<option name="defence" value="2"/>\n      <option name="transportCost" value="2"/>', "TG142",
          at='name="defence"'),
    Check("attachment-on-wrong-kind",
          'attachTo="Gamma" javaClass="games.strategy.triplea.attachments.TerritoryAttachment" type="territory"',
          'attachTo="Gamma" javaClass="games.strategy.triplea.attachments.TerritoryAttachment" type="player"', "TG121"),
    Check("class-on-wrong-type",
          'attachTo="Reds" javaClass="games.strategy.triplea.attachments.TechAttachment" type="player"',
          'attachTo="infantry" javaClass="games.strategy.triplea.attachments.TechAttachment" type="unitType"', "TG144",
          "warning"),
    Check("misnamed-attachment", 'name="playerAttachment" attachTo="Reds"', 'name="playerAttachmentReds" attachTo="Reds"',
          "TG145", "warning"),
    Check("duplicate-attachment", 'name="canalAttachmentStrait" attachTo="Sea Two"',
          'name="canalAttachmentStrait" attachTo="Sea One"', "TG146", "warning", at='attachTo="Sea One" javaClass'),
    Check("unit-without-attachment", '<unit name="transport"/>', '<unit name="transport"/>\n    <unit name="cruiser"/>',
          "TG147"),
    Check("land-without-attachment", '<territory name="Gamma"/>', '<territory name="Gamma"/>\n    <territory name="Delta"/>',
          "TG148", "warning"),
    Check("property-change-target", '<option name="playerProperty" value="switch" count="false"/>',
          '<option name="playerProperty" value="swich" count="false"/>', "TG149", "warning"),
    Check("trigger-activates-itself", 'value="triggerAttachmentRedsReinforce:1:false:false:false:false"',
          'value="triggerAttachmentRedsArtillery:1:false:false:false:false"', "TG132"),
    Check("unrecognised-step-name", '<step name="bluesPlace"', '<step name="bluesDeploy"', "TG151", "warning"),
    Check("player-without-capital", '<option name="capital" value="Blues"/>', "", "TG152", "warning",
          at='<player name="Blues"'),
    Check("unknown-step-property", 'name="removeAirThatCanNotLand"', 'name="removeAirThatCannotLand"', "TG153", "warning"),
    Check("hits-taken-too-high", 'hitsTaken="1"', 'hitsTaken="2"', "TG154"),
    Check("unused-condition", "  </attachmentList>",
          '    <attachment name="conditionAttachmentNeverUsed" attachTo="Blues" '
          'javaClass="games.strategy.triplea.attachments.RulesAttachment" type="player">\n'
          '      <option name="rounds" value="5"/>\n    </attachment>\n  </attachmentList>',
          "TG160", "warning", at='name="conditionAttachmentNeverUsed"'),
    Check("undeclared-game-property", '<option name="rounds" value="2-+"/>',
          '<option name="rounds" value="2-+"/>\n      <option name="gameProperty" value="Reds Bonus"/>', "TG161",
          "warning"),
    Check("victory-without-triggered-victory", '<option name="support" value="supportAttachmentArtillery"/>',
          '<option name="support" value="supportAttachmentArtillery"/>\n      <option name="victory" value="Reds_Win"/>',
          "TG176", "warning"),
    Check("property-kind", 'name="Use Triggers" value="true"', 'name="Use Triggers" value="yes"', "TG180", "warning"),
    Check("unknown-property", 'name="mapName"', 'name="mapname"', "TG181", "warning"),
    Check("editable-without-marker-19", '<property name="National Objectives" value="true" editable="true">\n      <boolean/>',
          '<property name="National Objectives" value="true" editable="true">', "TG182", engine="1.9"),
    Check("boolean-without-marker-19", '<property name="Use Politics" value="true" editable="false">\n      <boolean/>',
          '<property name="Use Politics" value="true" editable="false">', "TG180", "warning", "1.9"),
    Check("max-run-count-19", 'maxRunCount="1"', 'maxRunCount="0"', "TG105", engine="1.9"),
    Check("minimum-version-19", 'minimumVersion="1.9"', 'minimumVersion="2.5"', "TG104", engine="1.9"),
    Check("no-loader-19", '<loader javaClass="games.strategy.triplea.TripleA"/>', "", "TG102", engine="1.9",
          at="<info "),
    Check("self-connection", '<connection t1="Beta" t2="Gamma"/>', '<connection t1="Beta" t2="Beta"/>', "TG112"),
    Check("reserved-player-name", '<player name="Blues" optional="false"/>',
          '<player name="Blues" optional="false"/>\n    <player name="Neutral"/>', "TG111", "warning"),
    Check("range-check", '<option name="hitPoints" value="2"/>', '<option name="hitPoints" value="0"/>', "TG143"),
    Check("bad-count-field", '<option name="placement" value="Beta:infantry" count="2"/>',
          '<option name="placement" value="Beta:infantry" count="two"/>', "TG120"),
    Check("wrong-attachment-name-class", 'value="RulesAttachment" count="conditionAttachmentBluesBusy"',
          'value="RulesAttachment" count="triggerAttachmentRedsReinforce"', "TG143"),
    Check("chance-on-condition", '<option name="rounds" value="2-+"/>',
          '<option name="rounds" value="2-+"/>\n      <option name="chance" value="1:2"/>', "TG142"),
    Check("option-given-twice", '<option name="uses" value="1"/>',
          '<option name="uses" value="1"/>\n      <option name="uses" value="2"/>', "TG155", "warning"),
    Check("grid-in-current", '<territory name="Gamma"/>',
          '<territory name="Gamma"/>\n    <grid name="cell" type="square" x="2" y="2"/>', "TG104"),
    Check("isDisplayedFor-19", '<resource name="techTokens"/>', '<resource name="techTokens" isDisplayedFor="Reds"/>',
          "TG104", "warning", "1.9"),
]


@pytest.mark.parametrize("check", CHECKS, ids=[c.id for c in CHECKS])
def test_single_check_on_the_fixture(check: Check):
    text = mutated(check.old, check.new)
    found = validate_text(text, check.engine)
    hits = [d for d in found if d.code == check.code]
    assert hits, "\n".join(d.format() for d in found) or "nothing reported"
    assert all(d.severity == check.severity for d in hits)
    fragment = check.at or check.new.splitlines()[-1].strip()
    line = text[: text.rindex(fragment)].count("\n") + 1  # the last occurrence: the changed one
    assert any(d.position.line == line for d in hits), [d.format() for d in hits]
    assert all(d.hint for d in found)


# ---------------------------------------------------------------- exact messages


def test_exact_message_for_an_unknown_unit():
    text = mutated('<unitPlacement unitType="infantry" territory="Gamma"', '<unitPlacement unitType="infantri" territory="Gamma"')
    (found,) = validate_text(text)
    assert found.format() == (
        f"game.xml:{line_of(text, 'infantri')}:1: error[TG122]: unknown unit type 'infantri' in <unitPlacement>\n"
        "  hint: did you mean 'infantry'?")


def test_exact_message_for_a_victory_that_never_fires():
    text = mutated('<option name="support" value="supportAttachmentArtillery"/>',
                   '<option name="support" value="supportAttachmentArtillery"/>\n      <option name="victory" value="Reds_Win"/>')
    (found,) = validate_text(text)
    line = line_of(text, 'value="Reds_Win"')
    assert found.format() == (
        f"game.xml:{line}:1: warning[TG176]: victory trigger "
        "'triggerAttachmentRedsArtillery' never fires: without `when` a victory is tested at the end of each round, "
        "and only in a game with the property 'Triggered Victory' set to true\n"
        "  hint: switch the property on (a mod: change: {properties: {Triggered Victory: true}}), or write the rule "
        "with the `victory` macro, which does")
    declared = replaced(text, '<property name="mapName"', '<property name="Triggered Victory" value="true" '
                        'editable="false"><boolean/></property>\n    <property name="mapName"')
    assert validate_text(declared) == []


def test_a_victory_at_a_step_needs_use_triggers():
    text = mutated('<option name="when" value="before:redsPurchase"/>',
                   '<option name="when" value="before:redsPurchase"/>\n      <option name="victory" value="Reds_Win"/>')
    assert validate_text(text) == []  # the fixture has Use Triggers: true
    off = replaced(text, '<property name="Use Triggers" value="true"', '<property name="Use Triggers" value="false"')
    (found,) = validate_text(off)
    assert (found.code, found.severity, found.position.line) == ("TG176", "warning", line_of(off, 'value="Reds_Win"'))
    assert "a trigger with `when` fires only in a game with the property 'Use Triggers' set to true" in found.message


def test_exact_message_for_a_forward_reference():
    text = mutated('<option name="conditions" value="conditionAttachmentRedsHoldBeta"/>',
                   '<option name="conditions" value="conditionAttachmentRedsLate"/>')
    text = replaced(text, "  </attachmentList>", '    <attachment name="conditionAttachmentRedsLate" attachTo="Reds" '
                    'javaClass="games.strategy.triplea.attachments.RulesAttachment" type="player">\n'
                    '      <option name="rounds" value="3"/>\n    </attachment>\n  </attachmentList>')
    use, definition = line_of(text, 'value="conditionAttachmentRedsLate"'), line_of(text, 'name="conditionAttachmentRedsLate"')
    (found,) = validate_text(text)
    assert found.format() == (
        f"game.xml:{use}:1: error[TG131]: condition 'conditionAttachmentRedsLate' is used before it is defined "
        f"(line {definition}) (option 'conditions' of TriggerAttachment 'triggerAttachmentRedsArtillery')\n"
        "  hint: move its attachment above this one: the engine resolves names in document order")


def test_exact_message_for_an_option_only_in_the_current_engine():
    text = mutated('<option name="transportCapacity" value="5"/>', '<option name="isFirstStrike" value="true"/>')
    (found,) = validate_text(text, "1.9")
    assert found.message == ("option 'isFirstStrike' of UnitAttachment 'unitAttachment' exists only in the "
                             "current engine")
    assert found.hint == "remove it, or target the current engine"


def test_exact_message_for_a_bad_boolean():
    text = mutated('<option name="isSea" value="true"/>', '<option name="isSea" value="maybe"/>')
    (found,) = validate_text(text)
    assert found.message == "'maybe' is not true or false (option 'isSea' of UnitAttachment 'unitAttachment')"
    assert found.hint == "write true or false"


def test_legacy_option_names_follow_the_engine():
    text = mutated('<option name="transportCost" value="3"/>', '<option name="isInfantry" value="true"/>')
    assert validate_text(text, "current") == [] and validate_text(text, "1.9") == []
    text = mutated('<option name="rounds" value="2-+"/>', '<option name="turns" value="2-+"/>')
    assert validate_text(text, "current") == []
    assert codes(validate_text(text, "1.9")) == ["TG142"]


# ---------------------------------------------------------------- map folder


@requires_shared
def test_victory_key_missing_from_the_map_folder(tmp_path: Path):
    text = BASE_GAME.read_text(encoding="utf-8")
    assert '<option name="victory" value="Axis_Win"/>' in text
    target = tmp_path / "game.xml"
    target.write_text(text.replace('<option name="victory" value="Axis_Win"/>',
                                   '<option name="victory" value="Axis_Wins"/>', 1), encoding="utf-8")
    found = [d for d in validate_file(target, map_dir=GLOBAL_MAP_DIR) if d.code == "TG170"]
    assert len(found) == 1 and found[0].severity == "warning"
    assert found[0].message == "victory key 'Axis_Wins' is not in notifications.properties; nothing happens"
    assert found[0].hint == "did you mean 'Axis_Win'?"
    assert not [d for d in validate_file(target) if d.code == "TG170"]  # only checked with a map folder


def test_objectives_file_counts_as_a_use_of_conditions(tmp_path: Path):
    # A condition only the objectives panel shows is used; without the map folder it looks unused.
    text = mutated("  </attachmentList>",
                   '    <attachment name="conditionAttachmentShownOnly" attachTo="Blues" '
                   'javaClass="games.strategy.triplea.attachments.RulesAttachment" type="player">\n'
                   '      <option name="rounds" value="5"/>\n    </attachment>\n  </attachmentList>')
    (tmp_path / "objectives.properties").write_text(
        "Fixture.Blues;conditionAttachmentShownOnly=Blues hold on\n", encoding="utf-8")
    assert [d.code for d in validate_text(text)] == ["TG160"]
    # (the folder holds nothing else, so the map-folder checks of validate_mapfolder report the rest)
    assert not [d for d in validate_text(text, map_dir=tmp_path) if d.code == "TG160"]


# ---------------------------------------------------------------- command line


def test_cli_prints_sorted_diagnostics_and_a_summary(tmp_path: Path, capsys):
    target = tmp_path / "game.xml"
    text = mutated('<option name="isSea" value="true"/>', '<option name="isSea" value="maybe"/>')
    text = replaced(text, '<territory name="Gamma"/>', '<territory name="Gamma"/>\n    <territory name="Alpha"/>')
    target.write_text(text, encoding="utf-8")
    assert main(["validate", str(target)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "2 errors, 0 warnings"
    lines = [int(line.split(":")[1]) for line in out if ": error[" in line]
    assert lines == sorted(lines) and len(lines) == 2
    assert all(line.startswith("  hint: ") for line in out[1:-1:2])


def test_cli_exit_codes(tmp_path: Path, capsys):
    assert main(["validate", str(MINIMAL)]) == 0
    warned = tmp_path / "warned.xml"
    warned.write_text(mutated('<step name="bluesPlace"', '<step name="bluesDeploy"'), encoding="utf-8")
    assert main(["validate", str(warned)]) == 0
    assert main(["validate", "--strict", str(warned)]) == 1
    assert main(["validate", str(tmp_path / "missing.xml")]) == 2
    broken = tmp_path / "broken.xml"
    broken.write_text("<game><info name='x'/>", encoding="utf-8")
    assert main(["validate", str(broken)]) == 2
    err = capsys.readouterr().err
    assert "error[TG001]: file not found" in err and "error[TG010]" in err


def test_cli_json_output(tmp_path: Path, capsys):
    target = tmp_path / "game.xml"
    target.write_text(mutated('<option name="isSea" value="true"/>', '<option name="isSea" value="maybe"/>'),
                      encoding="utf-8")
    assert main(["validate", "--format", "json", "--engine", "1.9", str(target)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["engine"] == "1.9" and report["errors"] == 1 and report["warnings"] == 0
    (diagnostic,) = report["diagnostics"]
    assert diagnostic["code"] == "TG143" and diagnostic["severity"] == "error"
    assert set(diagnostic) == {"file", "line", "col", "severity", "code", "message", "hint"}


def test_cli_validates_a_yaml_spec_and_points_into_it(tmp_path: Path, capsys, monkeypatch):
    # The fixture imported to YAML, with a typo in a trigger's step name: the warning
    # must point at the YAML line, not at the rendered XML.
    monkeypatch.chdir(tmp_path)
    assert main(["import", str(MINIMAL), "-o", "spec.yaml"]) == 0
    spec = tmp_path / "spec.yaml"
    text = spec.read_text(encoding="utf-8")
    assert text.count("before:redsPurchase") == 1
    spec.write_text(text.replace("before:redsPurchase", "before:redsPurchas"), encoding="utf-8")
    capsys.readouterr()
    assert main(["validate", "spec.yaml"]) == 0
    out = capsys.readouterr().out.splitlines()
    line = text[: text.index("before:redsPurchase")].count("\n") + 1
    assert out[0].startswith(f"spec.yaml:{line}:") and "warning[TG150]: no step named 'redsPurchas'" in out[0]
    assert out[-1] == "0 errors, 1 warning"
    assert main(["validate", "--strict", "spec.yaml"]) == 1


def test_position_of_maps_diagnostics_elsewhere():
    tree = parse_xml_bytes(mutated('<option name="isSea" value="true"/>', '<option name="isSea" value="maybe"/>')
                           .encode(), "game.xml")
    (found,) = validate_tree(tree, source="game.xml", position_of=lambda e: Position("spec.yaml", 7, 3))
    assert str(found.position) == "spec.yaml:7:3"


def test_every_code_is_documented():
    source = (REPO / "generator" / "check" / "validate.py").read_text(encoding="utf-8")
    used = set(re.findall(r'"(TG1\d\d)"', source)) | {"TG100"}
    grammar = (REPO / "generator" / "catalog" / "grammar.py").read_text(encoding="utf-8")
    used |= set(re.findall(r'"(TG1\d\d)"', grammar))
    assert used <= set(CODES)


# ---------------------------------------------------------------- robustness and speed


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_validation_never_crashes_on_mutated_attributes(data):
    tree = parse_xml_file(MINIMAL)
    elements = [e for e in tree.getroot().iter() if isinstance(e.tag, str) and e.attrib]
    for _ in range(data.draw(st.integers(1, 4))):
        element = data.draw(st.sampled_from(elements))
        attribute = data.draw(st.sampled_from(sorted(element.attrib)))
        element.set(attribute, data.draw(st.text(alphabet="ab:$@^-1 0_", max_size=12)))
    for engine in ("current", "1.9"):
        found = validate_tree(tree, engine=engine, source="game.xml")
        assert all(d.code in CODES and d.hint for d in found)


# ---------------------------------------------------------------- the real 1.9 engine


def _engine_check_games():
    from generator.engine.harness import check_games

    return check_games


def _with_version_and_loader(path: Path, folder: Path) -> Path:
    """A copy that 1.9 can get past the header of, to compare what follows."""
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    text = re.sub(r"<info\b([^>]*?)/>", lambda m: m.group(0) if "version=" in m.group(1)
                  else f'<info{m.group(1)} version="1.0"/>', text, count=1)
    if "<loader" not in text:
        text = re.sub(r"(<info\b[^>]*/>)", r'\1\n<loader javaClass="games.strategy.triplea.TripleA"/>', text, count=1)
    target = folder / path.name
    target.write_text(text, encoding="utf-8", errors="surrogateescape")
    return target


@requires_engine
@pytest.mark.engine
def test_1_9_verdicts_agree_with_the_real_engine(tmp_path: Path):
    check_games = _engine_check_games()
    paths = corpus_xmls()
    if not paths:
        missing(SHARED_MISSING)
    patched = tmp_path / "patched"
    patched.mkdir()
    paths = paths + [_with_version_and_loader(p, patched) for p in paths if p.parent == CORPUS_DIR]
    paths += [MINIMAL, CURRENT_FEATURES]
    disagreements = []
    for result in check_games(paths):
        ours = errors(validate_file(result.path, engine="1.9"))
        if bool(ours) == result.ok:
            disagreements.append(f"{result.path}: engine ok={result.ok} ({result.error}); we found "
                                 + ("; ".join(d.format() for d in ours[:3]) or "no errors"))
    assert disagreements == []


@requires_engine
@pytest.mark.engine
def test_single_checks_give_the_real_engines_verdict(tmp_path: Path):
    check_games = _engine_check_games()
    targets = {}
    for check in CHECKS:
        target = tmp_path / f"{check.id}.xml"
        target.write_text(mutated(check.old, check.new), encoding="utf-8")
        targets[str(target)] = check
    disagreements = []
    for result in check_games(list(targets)):
        ours = bool(errors(validate_file(result.path, engine="1.9")))
        if ours == result.ok:
            disagreements.append(f"{targets[str(result.path)].id}: engine ok={result.ok} ({result.error}), "
                                 f"we report errors={ours}")
    assert disagreements == []


@requires_engine
@pytest.mark.engine
def test_injected_faults_are_refused_by_the_real_engine(tmp_path: Path):
    check_games = _engine_check_games()
    if not BASE_GAME.is_file():
        missing(SHARED_MISSING)
    targets = {}
    for fault in FAULTS:
        target, _ = _inject(fault, tmp_path)
        targets[str(target)] = fault
    disagreements = []
    for result in check_games(list(targets)):
        fault = targets[str(result.path)]
        ours = bool(errors(validate_file(result.path, engine="1.9")))
        if ours == result.ok:
            disagreements.append(f"{fault.id}: engine ok={result.ok} ({result.error}), we report errors={ours}")
    assert disagreements == []


def test_cli_validates_a_spec_for_its_own_engine(tmp_path: Path, capsys, monkeypatch):
    # A spec that says engine: "1.9" is checked for 1.9, as build does; --engine still wins.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "game.xml").write_text(
        mutated('<option name="transportCapacity" value="5"/>', '<option name="isFirstStrike" value="true"/>'),
        encoding="utf-8")
    assert main(["import", "game.xml", "-o", "spec.yaml"]) == 0
    spec = tmp_path / "spec.yaml"
    spec.write_text('engine: "1.9"\n' + spec.read_text(encoding="utf-8"), encoding="utf-8")
    capsys.readouterr()
    assert main(["validate", "--format", "json", "spec.yaml"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["engine"] == "1.9"
    assert [d["message"] for d in report["diagnostics"]] == [
        "option 'isFirstStrike' of UnitAttachment 'unitAttachment' exists only in the current engine"]
    assert main(["validate", "--engine", "current", "spec.yaml"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "0 errors, 0 warnings"
