"""`import MOD.xml --base BASE`: the overlay it writes builds back into MOD.xml, canonically equal,
for every kind of element added, removed or changed (small games of our own), and for every
pair of related real games in ../shared."""
from __future__ import annotations

import functools
import itertools
import json
from pathlib import Path

import jsonschema
import pytest

from canonical import canonical_file, first_difference
from conftest import CORPUS_DIR, GLOBAL_GAMES_DIR, SHARED, requires_shared
from generator.cli.main import main
from generator.builder.jsonschema import build_schema
from generator.read.yamlio import load_yaml_file

BASE = Path(__file__).resolve().parents[1] / "fixtures" / "extract" / "base.xml"


def edited(text: str, edits: list[tuple[str, str]]) -> str:
    for old, new in edits:
        assert text.count(old) == 1, f"the base fixture should hold {old!r} once"
        text = text.replace(old, new)
    return text


def extract_and_rebuild(base: Path, mod: Path, tmp_path: Path, capsys) -> str:
    """The overlay's text, after checking that it builds back into mod."""
    spec = tmp_path / "spec" / "mod.yaml"
    spec.parent.mkdir(exist_ok=True)
    assert main(["import", str(mod), "--base", str(base), "-o", str(spec)]) == 0
    err = capsys.readouterr().err
    assert "TG080" not in err, err
    out = tmp_path / "out"
    assert main(["build", str(spec), "-o", str(out), "--skip-validation"]) == 0, capsys.readouterr().err
    (built,) = out.glob("*/map/games/*.xml")
    original, rebuilt = canonical_file(mod), canonical_file(built)
    assert original == rebuilt, first_difference(original, rebuilt)
    # what editors are told about the spec language accepts what import --base writes
    problems = [e.message for e in editor_schema().iter_errors(json.loads(json.dumps(load_yaml_file(spec))))]
    assert not problems, problems[:3]
    return spec.read_text(encoding="utf-8")


@functools.cache
def editor_schema():
    return jsonschema.Draft7Validator(build_schema())


TERRITORY = '    <territory name="North Sea" water="true"/>\n'
STEP = '      <step name="germansPlace" delegate="place" player="Germans"/>\n'
COMBAT_STEP = '      <step name="germansCombatMove"'
FACTORY_STATS = ('    <attachment name="unitAttachment" attachTo="factory" '
                 'javaClass="games.strategy.triplea.attachments.UnitAttachment" type="unitType">\n'
                 '      <option name="isFactory" value="true"/>\n    </attachment>\n')
RUSSIAN_FRONTIER = '    <productionFrontier name="productionRussians">\n      <frontierRules name="buyInfantry"/>\n'
INFANTRY_UNITS = '      <option name="movement" value="1"/>\n      <option name="attack" value="1"/>\n'

# id, edits of the base XML, text the overlay must say it with
CASES = [
    ("info-changed", [('name="Extract Base" version="1.0"', 'name="Extract Mod" version="1.1"')],
     "name: Extract Mod\n  version: '1.1'"),
    ("loader-changed", [('"games.strategy.triplea.TripleA"', '"games.strategy.triplea.OtherLoader"')],
     "loader: games.strategy.triplea.OtherLoader"),
    ("triplea-removed", [('  <triplea minimumVersion="1.9"/>\n', '')], "triplea: null"),
    ("dice-changed", [('<diceSides value="6"/>', '<diceSides value="12"/>')], "diceSides: 12"),
    ("variable-changed", [('<element name="Holland"/>', '<element name="Ruhr"/>')], "'@Coast@': [North Sea, Ruhr]"),
    ("territory-added", [('<territory name="Berlin"/>\n', '<territory name="Berlin"/>\n<territory name="Saxony"/>\n')],
     "- {after: Berlin, move: [Saxony]}"),
    ("territory-removed", [('    <territory name="Holland"/>\n', '')], "territories: [Holland]"),
    ("territory-water", [('<territory name="Ruhr"/>', '<territory name="Ruhr" water="true"/>')],
     "Ruhr: {water: true}"),
    ("connection-added", [('    <connection t1="Holland" t2="Ruhr"/>\n',
                           '    <connection t1="Holland" t2="Ruhr"/>\n    <connection t1="Holland" t2="Berlin"/>\n')],
     "connections:\n    - [Holland, Berlin]"),
    ("connection-removed", [('    <connection t1="Berlin" t2="Poland"/>\n', '')], "- [Berlin, Poland]"),
    ("resource-added", [('<resource name="PUs"/>', '<resource name="PUs"/>\n    <resource name="oil"/>')],
     "resources:\n    oil: {}"),
    ("resource-removed", [('    <resource name="techTokens"/>\n', '')], "resources: [techTokens]"),
    ("resource-changed", [('<resource name="techTokens"/>', '<resource name="techTokens" isDisplayedFor="Germans"/>')],
     "techTokens: {isDisplayedFor: Germans}"),
    ("player-changed", [('<player name="British" optional="false"/>', '<player name="British" optional="true"/>')],
     "British: {optional: true}"),
    ("player-removed", [('    <player name="British" optional="false"/>\n', '')], "players: [British]"),
    ("alliance-changed", [('alliance player="British" alliance="Allies"', 'alliance player="British" alliance="Axis"')],
     "- [British, Allies]"),
    ("unit-added", [('<unit name="armour"/>', '<unit name="armour"/>\n    <unit name="marine"/>')],
     "- {after: armour, move: [marine]}"),
    ("unit-removed", [('    <unit name="fighter"/>\n', '')], "units: [fighter]"),
    ("relationship-type-added", [('<relationshipType name="Allied"/>', '<relationshipType name="Allied"/>\n    '
                                  '<relationshipType name="Neutrality"/>')], "relationshipTypes: [Neutrality]"),
    ("territory-effect-removed", [('  <territoryEffectList>\n    <territoryEffect name="mountain"/>\n'
                                   '  </territoryEffectList>\n', '')], "parts: [territoryEffects]"),
    ("delegate-changed", [('display="Purchase Units"', 'display="Buy Units"')], "display: Buy Units"),
    ("delegate-added", [('display="Turn Complete"/>', 'display="Turn Complete"/>\n    <delegate name="tech" '
                         'javaClass="games.strategy.triplea.delegate.TechnologyDelegate" display="Research"/>')],
     "class: TechnologyDelegate"),
    ("step-added", [(STEP, STEP + '      <step name="germansTech" delegate="purchase" player="Germans"/>\n')],
     "steps:\n  - after: germansPlace\n    add:\n    - {name: germansTech, delegate: purchase, player: Germans}"),
    ("step-added-first", [('<step name="gameInitDelegate"', '<step name="prelude" delegate="initDelegate"/>\n'
                           '      <step name="gameInitDelegate"')], "- before: gameInitDelegate"),
    ("step-removed", [('      <step name="britishPurchase" delegate="purchase" player="British"/>\n', '')],
     "steps: [britishPurchase]"),
    ("steps-reordered", [(STEP, ''), (COMBAT_STEP, STEP + COMBAT_STEP)],
     "move: [germansPlace]"),
    ("step-property-changed", [('name="airborneMove" value="false"', 'name="airborneMove" value="true"')],
     "airborneMove: true"),
    ("step-changed", [('maxRunCount="1"', 'maxRunCount="2"')], "maxRunCount: 2"),
    ("cost-changed", [('<cost resource="PUs" quantity="6"/>', '<cost resource="PUs" quantity="5"/>')],
     "armour: {cost: 5}"),
    ("rule-result-changed", [('<result resourceOrUnit="fighter" quantity="1"/>', '<result resourceOrUnit="fighter" '
                              'quantity="2"/>')], "buyFighter: {cost: {PUs: 10}, result: {fighter: 2}}"),
    ("rule-added", [('    <repairRule name', '    <productionRule name="buyFactory">\n      <cost resource="PUs" '
                     'quantity="15"/>\n      <result resourceOrUnit="factory" quantity="1"/>\n    </productionRule>\n'
                     '    <repairRule name'),
                    ('<frontierRules name="buyFighter"/>', '<frontierRules name="buyFighter"/>\n      '
                     '<frontierRules name="buyFactory"/>')],
     "production: {add: [buyFactory]}"),
    ("repair-removed", [('    <playerRepair player="Germans" frontier="repair"/>\n', '')], "playerRepair: [Germans]"),
    ("frontier-changed", [(RUSSIAN_FRONTIER, RUSSIAN_FRONTIER + '      <frontierRules name="buyArmour"/>\n')],
     "productionRussians: {add: [buyArmour]}"),
    ("player-production-changed", [('<playerProduction player="British" frontier="production"/>',
                                    '<playerProduction player="British" frontier="productionRussians"/>')],
     "British: {frontier: productionRussians}"),
    ("technology-added", [('<techname name="heavyBomber"/>', '<techname name="heavyBomber"/>\n      '
                           '<techname name="rocket"/>')], "technologies:\n      rocket: {}"),
    ("player-tech-changed", [('<tech name="jetPower"/>\n      </category>\n    </playerTech>\n  </technology>',
                              '<tech name="heavyBomber"/>\n      </category>\n    </playerTech>\n  </technology>')],
     "Russians:\n        Air Advances: [heavyBomber]"),
    ("unit-option-changed", [('<option name="defense" value="2"/>', '<option name="defense" value="3"/>')],
     "infantry: {defense: 3}"),
    ("territory-option-changed", [('<option name="production" value="4"/>', '<option name="production" value="5"/>')],
     "Ruhr: {production: 5}"),
    ("option-removed", [('      <option name="when" value="before:germansEndTurn"/>\n', '')], "when: null"),
    ("option-count-changed", [('value="Ruhr:Holland" count="2"', 'value="Ruhr:Holland" count="1"')],
     "{value: 'Ruhr:Holland', count: 1}"),
    ("options-reordered", [(INFANTRY_UNITS, '      <option name="attack" value="1"/>\n      <option name="movement" '
                            'value="1"/>\n')], "replace:\n  attachments:"),
    ("attachment-added", [('  </attachmentList>', '    <attachment name="rulesAttachment" attachTo="Germans" '
                           'javaClass="games.strategy.triplea.attachments.RulesAttachment" type="player">\n'
                           '      <option name="movementRestrictionTerritories" value="Poland"/>\n    </attachment>\n'
                           '  </attachmentList>')], "name: rulesAttachment"),
    ("attachment-removed", [(FACTORY_STATS, '')], "- {name: unitAttachment, attachTo: factory}"),
    ("attachment-class-changed", [('name="conditionAttachment_Germans_Ruhr" attachTo="Germans" javaClass="games.'
                                   'strategy.triplea.attachments.RulesAttachment"',
                                   'name="conditionAttachment_Germans_Ruhr" attachTo="Germans" javaClass="games.'
                                   'strategy.triplea.attachments.PlayerAttachment"')], "class: PlayerAttachment"),
    ("owner-changed", [('territory="Holland" owner="Germans"', 'territory="Holland" owner="British"')],
     "Holland: {owner: British}"),
    ("owner-removed", [('      <territoryOwner territory="Ruhr" owner="Germans"/>\n', '')], "Ruhr: {owner: Neutral}"),
    ("units-changed", [('territory="Holland" quantity="2"', 'territory="Holland" quantity="4"')],
     "initialUnits:\n    Holland: {Germans: {infantry: 4}}"),
    ("units-added", [('      <heldUnits', '      <unitPlacement unitType="armour" territory="Poland" quantity="1" '
                      'owner="Russians"/>\n      <heldUnits')], "Russians: {armour: 1}"),
    ("units-removed", [('<unitPlacement unitType="fighter" territory="North Sea" quantity="1" owner="British"/>', '')],
     "British: {fighter: 0}"),
    ("units-damaged", [('unitType="factory" territory="Berlin" quantity="1"',
                        'unitType="factory" territory="Berlin" quantity="1" unitDamage="2"')],
     "factory: {quantity: 1, unitDamage: 2}"),
    ("held-units-changed", [('<heldUnits unitType="infantry" player="British" quantity="2"/>',
                             '<heldUnits unitType="infantry" player="British" quantity="3"/>')],
     "heldUnits:\n    - {player: British, unitType: infantry, quantity: 3}"),
    ("resources-changed", [('player="Russians" resource="PUs" quantity="20"', 'player="Russians" resource="PUs" '
                            'quantity="24"')], "Russians: {PUs: 24}"),
    ("resources-added", [('      <resourceGiven player="British" resource="PUs" quantity="25"/>\n',
                          '      <resourceGiven player="British" resource="PUs" quantity="25"/>\n      <resourceGiven '
                          'player="Germans" resource="techTokens" quantity="1"/>\n')], "Germans: {techTokens: 1}"),
    ("relationship-changed", [('<relationship type="War" player1="Germans" player2="British" roundValue="1"/>',
                               '<relationship type="Allied" player1="Germans" player2="British" roundValue="1"/>')],
     "- [Germans, British, Allied]"),
    ("property-changed", [('name="Low Luck" value="false"', 'name="Low Luck" value="true"')], "Low Luck: true"),
    ("property-added", [('  </propertyList>', '    <property name="Use Triggers" value="true" editable="false"/>\n'
                         '  </propertyList>')], "Use Triggers: {value: true, editable: false}"),
    ("property-removed", [('    <property name="neutralCharge" value="0" editable="true">\n      <number min="0" '
                           'max="9"/>\n    </property>\n', '')], "properties: [neutralCharge]"),
    ("property-type-changed", [('<number min="0" max="9"/>', '<number min="0" max="5"/>')], "max: 5"),
    ("notes-changed", [('<value>Base notes.</value>', '<value>Mod notes.</value>')], "notes: {text: Mod notes.}"),
]

EDITS = {case_id: edits for case_id, edits, _ in CASES}


@pytest.mark.parametrize("edits, said", [pytest.param(e, s, id=i) for i, e, s in CASES])
def test_each_kind_of_difference_extracts_and_builds_back(edits, said, tmp_path, capsys):
    mod = tmp_path / "mod.xml"
    mod.write_text(edited(BASE.read_text(encoding="utf-8"), edits), encoding="utf-8")
    overlay = extract_and_rebuild(BASE, mod, tmp_path, capsys)
    assert said in overlay, overlay


def test_a_game_against_itself_is_an_empty_overlay(tmp_path, capsys):
    overlay = extract_and_rebuild(BASE, BASE, tmp_path, capsys)
    body = [line for line in overlay.splitlines() if not line.startswith("#")]
    assert body[0] == "mod:" and all(line.startswith("  ") for line in body[1:]), overlay


def test_the_same_input_gives_the_same_overlay(tmp_path, capsys):
    mod = tmp_path / "mod.xml"
    mod.write_text(edited(BASE.read_text(encoding="utf-8"), EDITS["territory-added"] + EDITS["cost-changed"]),
                   encoding="utf-8")
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    first = extract_and_rebuild(BASE, mod, tmp_path / "a", capsys)
    assert first == extract_and_rebuild(BASE, mod, tmp_path / "b", capsys)


def test_a_mod_of_a_mod_chains_its_bases(tmp_path, capsys):
    """The base may itself be a mod spec: the new overlay names it and builds through it."""
    middle_xml, top_xml = tmp_path / "middle.xml", tmp_path / "top.xml"
    text = BASE.read_text(encoding="utf-8")
    middle_xml.write_text(edited(text, EDITS["cost-changed"]), encoding="utf-8")
    top_xml.write_text(edited(text, EDITS["cost-changed"] + EDITS["unit-added"]), encoding="utf-8")
    middle = tmp_path / "middle.yaml"
    assert main(["import", str(middle_xml), "--base", str(BASE), "-o", str(middle)]) == 0
    overlay = extract_and_rebuild(middle, top_xml, tmp_path, capsys)
    assert "base: ../middle.yaml" in overlay and "cost" not in overlay  # only the second mod's own change


def test_a_base_chain_that_leads_back_to_the_output_is_refused_at_its_line(tmp_path, capsys):
    first, second = tmp_path / "first.yaml", tmp_path / "second.yaml"
    first.write_text(f"mod:\n  name: First\n  base: {BASE}\n", encoding="utf-8")
    second.write_text("mod:\n  name: Second\n  base: first.yaml\n", encoding="utf-8")
    # writing first.yaml as a mod of second.yaml would make first -> second -> first
    assert main(["import", str(BASE), "--base", str(second), "-o", str(first)]) == 2
    err = capsys.readouterr().err
    assert f"{second.name}:3:" in err and "error[TG082]" in err, err
    assert first.read_text(encoding="utf-8").startswith("mod:\n  name: First")  # left alone


def test_a_mod_cannot_be_written_over_its_own_base(tmp_path, capsys):
    spec = tmp_path / "self.yaml"
    spec.write_text(f"mod:\n  name: Self\n  base: {BASE}\n", encoding="utf-8")
    assert main(["import", str(BASE), "--base", str(spec), "-o", str(spec)]) == 2
    assert "error[TG082]" in capsys.readouterr().err


def test_place_refuses_an_anchor_that_moves_itself(tmp_path, capsys):
    spec = tmp_path / "bad.yaml"
    spec.write_text(f"mod:\n  name: Bad\n  base: {BASE}\nplace:\n  units:\n"
                    "    - {after: armour, move: [armour, infantry]}\n", encoding="utf-8")
    assert main(["build", str(spec), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "bad.yaml:6:" in err and "error[TG081]" in err, err


def test_place_and_remove_name_unknown_entries_at_their_line(tmp_path, capsys):
    spec = tmp_path / "bad.yaml"
    spec.write_text(f"mod:\n  name: Bad\n  base: {BASE}\nremove:\n  units: [infantri]\nplace:\n  units:\n"
                    "    - {at: start, move: [figther]}\n", encoding="utf-8")
    assert main(["build", str(spec), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "bad.yaml:5:" in err and "unit type infantri" in err and "did you mean 'infantry'" in err, err
    assert "bad.yaml:8:" in err and "figther" in err, err


# --- related real games ---------------------------------------------------------------------------------------

G40_GAMES = ("ww2global40", "ww2global40_2nd_edition", "ww2global40_2ndEd_move1st", "ww2global40_balanced",
             "ww2global40_balanced_move1st", "ww2global42_2nd_edition")
CORPUS_PAIRS = (("ww2v3_1941_test", "ww2v3_1942_test"), ("victory_test", "victory_test_shouldSaveUpForAFleet"),
                ("big_world_1942_test", "Big_World_1942_v3rules"), ("revised_test", "lhtr_test"))


def related_pairs():
    if not SHARED.is_dir():
        return [pytest.param(None, None, marks=requires_shared, id="no-shared")]
    pairs = [(GLOBAL_GAMES_DIR / f"{a}.xml", GLOBAL_GAMES_DIR / f"{b}.xml")
             for a, b in itertools.permutations(G40_GAMES, 2)]
    pairs += [(CORPUS_DIR / f"{a}.xml", CORPUS_DIR / f"{b}.xml") for pair in CORPUS_PAIRS
              for a, b in (pair, pair[::-1])]
    return [pytest.param(base, mod, id=f"{mod.stem}-from-{base.stem}") for base, mod in pairs]


@requires_shared
@pytest.mark.parametrize("base, mod", related_pairs())
def test_related_real_games_extract_and_build_back(base, mod, tmp_path, capsys):
    # ../shared is there (the marker skips otherwise): a game of a pair missing from it is a failure
    assert base.is_file() and mod.is_file(), f"{base.name} or {mod.name} is missing from ../shared"
    extract_and_rebuild(base, mod, tmp_path, capsys)


@requires_shared
def test_a_base_named_as_map_and_game_is_found_in_the_maps_folder(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    spec = tmp_path / "move1st.yaml"
    assert main(["import", str(GLOBAL_GAMES_DIR / "ww2global40_2ndEd_move1st.xml"), "--base",
                 "world_war_ii_global/ww2global40_2nd_edition.xml", "-o", str(spec)]) == 0
    overlay = spec.read_text(encoding="utf-8")
    assert "base: {map: world_war_ii_global, game: ww2global40_2nd_edition.xml}" in overlay
    assert len(overlay.splitlines()) < 100  # the move-first variant differs in its turn order only


def test_a_full_game_yaml_can_be_the_base(tmp_path, capsys):
    base_yaml = tmp_path / "base.yaml"
    assert main(["import", str(BASE), "-o", str(base_yaml)]) == 0
    mod = tmp_path / "mod.xml"
    mod.write_text(edited(BASE.read_text(encoding="utf-8"), EDITS["cost-changed"]), encoding="utf-8")
    overlay = extract_and_rebuild(base_yaml, mod, tmp_path, capsys)
    assert "base: ../base.yaml" in overlay and "armour: {cost: 5}" in overlay


def test_a_missing_base_is_reported_and_nothing_is_written(tmp_path, capsys):
    spec = tmp_path / "mod.yaml"
    assert main(["import", str(BASE), "--base", str(tmp_path / "missing.xml"), "-o", str(spec)]) == 2
    assert "error[TG001]" in capsys.readouterr().err
    assert not spec.exists()
