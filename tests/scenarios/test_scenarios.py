"""The scenarios: section and `triplea-gen test`: located diagnostics for bad scenarios (no engine),
the given written into the game XML, report's backing column from a results file, and a few
scenarios played in the real engine, with their controls."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import REPO, SHARED, requires_engine, requires_shared
from lxml import etree
from textedit import replaced

from generator.cli.main import main
from generator.core.diagnostics import Collector, DiagnosticError
from generator.scenarios.run import build_xml, load_scenarios
from generator.scenarios.variant import GameNames, apply_given, check_names

RULES_BASE = REPO / "tests" / "golden" / "rules" / "base.yaml"

MOD_HEAD = f"""\
mod:
  name: Frontier with a pact payment
  version: "1.0"
  base: {RULES_BASE}
  engine: "1.9"
rules:
  - {{id: PAY, text: The USSR gets 9 when Italy first goes to war with it., use: first_war_payment,
     with: {{receiver: Russians, amount: 9, attackers: [Italians]}}}}
  - {{id: OBJ, text: Italy earns 5 while it holds Rome., use: national_objective,
     with: {{player: Italians, amount: 5, owns: [Rome Region]}}}}
"""

GOOD_SCENARIO = """\
scenarios:
  - id: italian-war-pays
    rule: PAY
    given: {round: 1, step: italiansPolitics, relationships: [[Italians, Russians, War]]}
    play: {until: {step: italiansCombatMove}}
    expect:
      - fired: triggerAttachment_PAY
      - resources: {Russians: {PUs: {change: 9}}}
"""


def write_spec(folder: Path, scenarios: str, name: str = "pact.yaml") -> Path:
    """A mod of the rules base with MOD_HEAD's rules, or (when `scenarios` brings its own) those."""
    spec = folder / name
    head = MOD_HEAD if not scenarios.startswith("rules:") else MOD_HEAD[:MOD_HEAD.index("rules:")]
    spec.write_text(head + scenarios, encoding="utf-8")
    return spec


def played(folder: Path, capsys, scenarios: str) -> str:
    """`test` on a spec of MOD_HEAD and these scenarios: every scenario passes, every control fails;
    what it printed."""
    spec = write_spec(folder, scenarios)
    assert main(["test", str(spec), "-o", str(folder / "out")]) == 0
    return capsys.readouterr().out


def diagnostics_of(spec: Path) -> list:
    with pytest.raises(DiagnosticError) as raised:
        load_scenarios(spec)
    return raised.value.diagnostics


# --- the section's shape: no build, no engine -------------------------------------------------------------------

def test_unknown_keys_are_reported_where_they_stand(tmp_path):
    spec = write_spec(tmp_path, """\
scenarios:
  - id: one
    rule: PAY
    givn: {round: 1}
    play: {until: {step: italiansCombatMove}, speed: 3}
    expect:
      - fird: triggerAttachment_PAY
""")
    found = {(d.code, d.position.line, d.position.col, d.message) for d in diagnostics_of(spec)}
    assert ("TG200", 14, 5, "unknown key 'givn' in a scenario") in found
    assert ("TG200", 15, 47, "unknown key 'speed' in play") in found
    assert ("TG200", 17, 9, "unknown key 'fird' in an expectation") in found
    hints = {d.hint for d in diagnostics_of(spec) if d.code == "TG200"}
    assert "did you mean 'given'?" in hints and "did you mean 'fired'?" in hints


def test_wrong_values_and_missing_parts_are_tg201(tmp_path):
    spec = write_spec(tmp_path, """\
scenarios:
  - id: two
    rule: PAY
    play: {rounds: 40, ai: clever}
    given: {relationships: [[Italians, Russians]]}
    expect:
      - resources: {Russians: {PUs: "+9"}}
  - id: three
    rule: PAY
""")
    found = [(d.code, d.position.line, d.message) for d in diagnostics_of(spec)]
    assert ("TG201", 14, "play rounds must be a whole number from 1 to 10, not 40") in found
    assert ("TG201", 14, "unknown AI 'clever'") in found
    assert any(code == "TG201" and line == 15 and "[PLAYER, PLAYER, TYPE]" in text for code, line, text in found)
    assert any(code == "TG201" and line == 17 and "{change: N}" in text for code, line, text in found)
    assert ("TG201", 18, "a scenario needs 'expect'") in found


def test_duplicate_ids_and_unknown_rules(tmp_path):
    spec = write_spec(tmp_path, GOOD_SCENARIO + """\
  - id: italian-war-pays
    rule: PAY
    expect: [{no_exception: true}]
  - id: other
    rule: PAYS
    expect: [{no_exception: true}]
""")
    found = {(d.code, d.position.line) for d in diagnostics_of(spec)}
    assert ("TG202", 19) in found
    assert ("TG203", 23) in found
    (unknown,) = [d for d in diagnostics_of(spec) if d.code == "TG203"]
    assert unknown.hint == "did you mean 'PAY'?"


def test_report_refuses_a_bad_scenario_with_its_position(tmp_path, capsys):
    spec = write_spec(tmp_path, GOOD_SCENARIO.replace("until:", "untill:"))
    assert main(["report", str(spec)]) == 2
    err = capsys.readouterr().err
    assert f"{spec.name}:15:" in err.replace(str(tmp_path) + "/", "") and "error[TG200]" in err


def test_names_are_checked_against_the_built_game(tmp_path):
    spec = write_spec(tmp_path, """\
scenarios:
  - id: names
    rule: PAY
    given:
      owners: {Rome Regio: Italians}
      units: [{territory: Danube, owner: Germans, add: {tiger: 1}}]
    play: {until: {step: italiansCombatMov}}
    expect:
      - fired: triggerAttachment_PAYS
      - resources: {Russian: {PUs: 3}}
""")
    xml = build_xml(spec)
    collector = Collector()
    for scenario in load_scenarios(spec).scenarios:
        check_names(scenario, GameNames.of(etree.fromstring(xml)), collector)
    found = [(d.code, d.position.line, d.message) for d in collector.diagnostics]
    assert ("TG204", 15, "the built game has no territory 'Rome Regio'") in found
    assert ("TG204", 16, "the built game has no unit type 'tiger'") in found
    assert ("TG204", 17, "the built game has no step 'italiansCombatMov'") in found
    assert ("TG204", 19, "no trigger of the built game has 'triggerAttachment_PAYS' in its name") in found
    assert ("TG204", 20, "the built game has no player 'Russian'") in found


def test_a_purchase_may_name_a_resource_but_not_an_unknown_name(tmp_path):
    # a production rule may sell a resource (S001-R40's kamikaze tokens), so a scripted purchase may name one
    spec = write_spec(tmp_path, """\
scenarios:
  - id: buys
    rule: PAY
    play: {until: {step: italiansCombatMove}, purchases: {Germans: {PUs: 1, infantry: 2, tiger: 1}}}
    expect: [{no_exception: true}]
""")
    xml = build_xml(spec)
    collector = Collector()
    for scenario in load_scenarios(spec).scenarios:
        check_names(scenario, GameNames.of(etree.fromstring(xml)), collector)
    assert [(d.code, d.position.line, d.message) for d in collector.diagnostics] == [
        ("TG204", 14, "the built game has no unit type or resource 'tiger'")]


def test_given_is_written_into_the_game_xml(tmp_path):
    spec = write_spec(tmp_path, """\
scenarios:
  - id: given
    rule: PAY
    given:
      owners: {Danube: Russians}
      units: [{territory: Rome Region, owner: Italians, add: {armour: 2}}]
      resources: {Italians: {PUs: 1}}
      relationships: [[Italians, Russians, War]]
    expect: [{no_exception: true}]
""")
    xml = build_xml(spec)
    root = etree.fromstring(xml)
    old_pus = [e.get("quantity") for e in root.iterfind("initialize/resourceInitialize/resourceGiven")
               if e.get("player") == "Italians"]
    assert old_pus and old_pus != ["1"]
    (scenario,) = load_scenarios(spec).scenarios
    variant = apply_given(xml, scenario.given, Collector())
    edited = etree.fromstring(variant.xml)
    owners = {e.get("territory"): e.get("owner") for e in edited.iterfind("initialize/ownerInitialize/territoryOwner")}
    assert owners["Danube"] == "Russians"
    assert [(e.get("quantity"), e.get("owner")) for e in edited.iterfind("initialize/unitInitialize/unitPlacement")
            if e.get("territory") == "Rome Region" and e.get("unitType") == "armour"][-1] == ("2", "Italians")
    assert variant.start_resources[("Italians", "PUs")] == 1
    relationships = [(e.get("player1"), e.get("player2"), e.get("type"))
                     for e in edited.iterfind("initialize/relationshipInitialize/relationship")
                     if {e.get("player1"), e.get("player2")} == {"Italians", "Russians"}]
    assert relationships == [("Italians", "Russians", "War")]


def _units_in(xml: bytes, territory: str) -> dict[str, int]:
    found: dict[str, int] = {}
    for e in etree.fromstring(xml).iterfind("initialize/unitInitialize/unitPlacement"):
        if e.get("territory") == territory:
            key = f"{e.get('owner')}:{e.get('unitType')}"
            found[key] = found.get(key, 0) + int(e.get("quantity"))
    return found


def test_given_owners_notes_the_old_owners_units_and_clear_takes_them_out(tmp_path):
    spec = write_spec(tmp_path, """\
scenarios:
  - id: given
    rule: PAY
    given:
      owners:
        Kiev: Germans
        Minsk: {owner: Germans, clear: true}
        Smolensk: {owner: Germans, clear: true}
      units: [{territory: Smolensk, owner: Germans, add: {armour: 1}}]
    expect: [{no_exception: true}]
""")
    xml = build_xml(spec)
    (scenario,) = load_scenarios(spec).scenarios
    variant = apply_given(xml, scenario.given, Collector())
    assert variant.notes == [
        "given owners: Kiev is Germans's, but Russians's units stay in it (1 armour, 3 infantry); to take them "
        "out write Kiev: {owner: Germans, clear: true}"]
    assert _units_in(variant.xml, "Kiev") == {"Russians:infantry": 3, "Russians:armour": 1}
    assert _units_in(variant.xml, "Minsk") == {}
    assert _units_in(variant.xml, "Smolensk") == {"Germans:armour": 1}  # cleared first, then the given units


def test_a_bad_owner_entry_is_located(tmp_path):
    spec = write_spec(tmp_path, """\
scenarios:
  - id: given
    rule: PAY
    given:
      owners:
        Minsk: {owner: Germans, clear: yes please}
        Kiev: {clear: true}
        Smolensk: {owner: Germans, clean: true}
    expect: [{no_exception: true}]
""")
    with pytest.raises(DiagnosticError) as raised:
        load_scenarios(spec)
    assert [(d.code, d.position.line, d.message) for d in raised.value.diagnostics] == [
        ("TG201", 16, "clear of Minsk must be true or false, not 'yes please'"),
        ("TG201", 17, "the owner of Kiev is missing"),
        ("TG200", 18, "unknown key 'clean' in owner of Smolensk")]


# A rule that makes a player, and that player's colour (a spec's rules, any more rules, then these assets).
POLAND = """\
rules:
  - {id: POLES, text: Poland is a power., use: new_power,
     with: {player: Poles, template: Italians, capital: Warsaw, take_units: false, pus: 5}}
"""
POLES_COLOUR = """\
assets:
  players:
    Poles: {color: "#C0C0C0"}
"""
POLAND_EXISTS = """\
scenarios:
  - id: poland-exists
    rule: POLES
    play: {until: {step: germansCombatMove}}
    expect:
      - resources: {Poles: {PUs: 5}}
"""


def test_a_control_builds_without_the_assets_of_what_its_rule_makes(tmp_path):
    """The spec's assets may name a player the backed rule creates; the control leaves the rule
    out and needs only the game XML, so the assets' names are not checked there."""
    spec = write_spec(tmp_path, POLAND + POLES_COLOUR + POLAND_EXISTS)
    assert b'<player name="Poles"' in build_xml(spec)
    assert b'<player name="Poles"' not in build_xml(spec, ["POLES"])


def test_scenarios_do_not_change_what_is_built(tmp_path):
    plain = write_spec(tmp_path, "", "plain.yaml")
    tested = write_spec(tmp_path, GOOD_SCENARIO, "tested.yaml")
    assert build_xml(plain) == build_xml(tested)


def test_report_shows_which_rules_a_scenario_backs(tmp_path, capsys):
    spec = write_spec(tmp_path, GOOD_SCENARIO)
    results = tmp_path / "results.json"
    assert main(["report", str(spec), "--results", str(results)]) == 0
    assert "PAY   enforced  not run            " in capsys.readouterr().out

    from generator.scenarios.run import results_path

    fake = {"version": 1, "spec_digest": None, "scenarios": [
        {"id": "italian-war-pays", "rules": ["PAY"], "passed": True, "backed": True}]}
    from generator.scenarios.run import spec_digest

    fake["spec_digest"] = spec_digest(spec)
    results.write_text(json.dumps(fake), encoding="utf-8")
    assert main(["report", str(spec), "--results", str(results)]) == 0
    out = capsys.readouterr().out
    assert "PAY   enforced  backed             " in out and "OBJ   enforced  -                  " in out
    assert "1 of 2 enforced rules backed" in out
    spec.write_text(spec.read_text(encoding="utf-8") + "\n# changed\n", encoding="utf-8")
    assert main(["report", str(spec), "--results", str(results)]) == 0
    assert "PAY   enforced  stale              " in capsys.readouterr().out
    assert results_path(spec, tmp_path).name == "pact.json"


TWO_SCENARIOS = """\
scenarios:
  - id: pays
    rule: PAY
    control: false
    given: {round: 1, step: italiansPolitics, relationships: [[Italians, Russians, War]]}
    expect: [{fired: triggerAttachment_PAY}]
  - id: earns
    rule: OBJ
    control: false
    text: Italy earns 5.
    expect: [{no_exception: true}]
"""


def test_a_single_scenario_run_keeps_the_other_results_each_marked_with_what_it_ran_on(tmp_path, capsys):
    """Issue 27.12: `test --scenario X` after an edit of the spec dropped every other result, so report
    showed them as not run. Now they are kept; a result is stale only when its game or its scenario changed."""
    from generator.scenarios.results import current_game_digest
    from generator.scenarios.run import Run, ScenarioResult, results_path, write_results

    spec = write_spec(tmp_path, TWO_SCENARIOS)

    def run_one(ident: str) -> None:  # what `test SPEC --scenario ident` writes, without the engine
        (scenario,) = [s for s in load_scenarios(spec).scenarios if s.id == ident]
        result = ScenarioResult(scenario, Run([], 1.0, "until step"), None, None, current_game_digest(spec))
        write_results(spec, tmp_path / "out", [result], 1.0, complete=False)

    def report() -> str:
        capsys.readouterr()
        assert main(["report", str(spec), "--results", str(results_path(spec, tmp_path / "out"))]) == 0
        return capsys.readouterr().out

    run_one("pays")
    spec.write_text(spec.read_text(encoding="utf-8").replace("Italy earns 5.", "Italy earns five."), encoding="utf-8")
    run_one("earns")  # the spec changed since "pays" ran, but neither its game nor its scenario did
    out = report()
    assert "PAY   enforced  passes (no control)" in out and "OBJ   enforced  passes (no control)" in out
    saved = json.loads(results_path(spec, tmp_path / "out").read_text(encoding="utf-8"))
    assert [(s["id"], bool(s["game_digest"]), s["spec_digest"] != saved["spec_digest"]) for s in saved["scenarios"]] \
        == [("pays", True, True), ("earns", True, False)]
    spec.write_text(spec.read_text(encoding="utf-8").replace("amount: 9", "amount: 8"), encoding="utf-8")
    out = report()  # another game: both results ran on the old one
    assert "PAY   enforced  stale" in out and "OBJ   enforced  stale" in out
    run_one("earns")
    out = report()
    assert "PAY   enforced  stale" in out and "OBJ   enforced  passes (no control)" in out


# --- in the real engine --------------------------------------------------------------------------------------------

@requires_engine
def test_a_scenario_passes_and_its_control_fails(tmp_path, capsys):
    spec = write_spec(tmp_path, GOOD_SCENARIO)
    status = main(["test", str(spec), "-o", str(tmp_path / "out"), "--format", "json"])
    document = json.loads(capsys.readouterr().out)
    assert status == 0
    (result,) = document["scenarios"]
    assert result["passed"] and result["backed"]
    fired, resources = result["run"]["expectations"]
    assert "Russians met a national objective for an additional 9 PUs" in fired["evidence"] or \
        "PAY" in fired["evidence"]
    assert resources["evidence"].startswith("Russians PUs: ") and "(expected +9)" in resources["evidence"]
    control = result["control"]
    assert not control["passed"] and not control["error"]
    assert [e["passed"] for e in control["expectations"]] == [False, False]
    saved = json.loads((tmp_path / "out" / "scenario-results" / "pact.json").read_text(encoding="utf-8"))
    assert saved["scenarios"][0]["backed"] is True


@requires_engine
def test_games_played_side_by_side_report_in_the_spec_order(tmp_path, capsys):
    second = GOOD_SCENARIO.replace("scenarios:\n", "")
    second = replaced(second, "id: italian-war-pays", "id: italian-war-pays-again")
    spec = write_spec(tmp_path, GOOD_SCENARIO + second)
    status = main(["test", str(spec), "-o", str(tmp_path / "out"), "--format", "json", "--jobs", "2"])
    document = json.loads(capsys.readouterr().out)
    assert status == 0
    assert [(r["id"], r["backed"]) for r in document["scenarios"]] == [
        ("italian-war-pays", True), ("italian-war-pays-again", True)]


@requires_engine
def test_a_failed_expectation_points_at_its_line(tmp_path, capsys):
    spec = write_spec(tmp_path, GOOD_SCENARIO.replace("{change: 9}", "{change: 10}"))
    assert main(["test", str(spec), "-o", str(tmp_path / "out"), "--no-control"]) == 1
    captured = capsys.readouterr()
    assert "FAIL italian-war-pays (PAY)" in captured.out
    assert "pact.yaml:18:9: error[TG205]: scenario 'italian-war-pays': expected resources did not hold: " \
           "Russians PUs:" in captured.err.replace(str(tmp_path) + "/", "")
    assert "(expected +10)" in captured.err


@requires_engine
def test_a_control_that_passes_too_is_not_backed(tmp_path, capsys):
    spec = write_spec(tmp_path, GOOD_SCENARIO.replace("""      - fired: triggerAttachment_PAY
      - resources: {Russians: {PUs: {change: 9}}}""", """      - relationships: [[Italians, Russians, War]]"""))
    assert "relationships: [[Italians, Russians, War]]\n" in spec.read_text(encoding="utf-8")
    assert main(["test", str(spec), "-o", str(tmp_path / "out")]) == 1
    captured = capsys.readouterr()
    assert "control without PAY: PASSES TOO" in captured.out and "=> not backed" in captured.out
    assert "warning[TG206]" in captured.err


LATE_DECLARATION_SPEC = """\
rules:
  - {id: DECLARE, text: The USSR may declare war on Italy from round 1., use: political_action,
     with: {player: Russians, targets: [Italians], to: War}}
  - {id: NOT_YET, text: Not before round 3., use: condition, with: {player: Russians, rounds: 3-+},
     change: {attachments: [{name: politicalActionAttachment_DECLARE, attachTo: Russians,
                             options: {conditions: conditionAttachment_NOT_YET}}]}}
scenarios:
  - id: too-early
    rule: NOT_YET
    given: {round: 1, step: russiansPolitics}
    play: {until: {step: russiansCombatMove}, actions: {Russians: [politicalActionAttachment_DECLARE]}}
    expect:
      - relationships: [[Italians, Russians, Neutrality]]
"""


@requires_engine
def test_an_action_the_game_does_not_offer_is_noted_not_fatal(tmp_path, capsys):
    """A rule that forbids an action is shown by the scripted player not being offered it: the
    scenario passes, the note says so, and the control (the action allowed) declares war."""
    out = played(tmp_path, capsys, LATE_DECLARATION_SPEC)
    assert "    note: Russians was not offered politicalActionAttachment_DECLARE in round 1, step russiansPolitics" in out
    assert "FAIL relationships (line 18): Italians-Russians: War (expected Neutrality)" in out
    assert "=> backed" in out


SCRIPTED_BUILD_SPEC = """\
rules:
  - {id: OBJ, text: Italy earns 5 while it holds Rome., use: national_objective,
     with: {player: Italians, amount: 5, owns: [Rome Region]}}
scenarios:
  - id: italy-builds-in-rome
    rule: []
    control: false
    given: {round: 1, step: italiansPurchase, units: [{territory: Rome Region, owner: Italians, remove: {infantry: all}}]}
    play:
      until: {step: italiansEndTurn}
      purchases: {Italians: {infantry: 2, armour: 1}}
      placements: {Italians: {Rome Region: {infantry: 2}, Moscow Region: {armour: 1}}}
    expect:
      - units: {territory: Rome Region, owner: Italians, units: {infantry: 2}}
      - no_units: {territory: Moscow Region, owner: Italians, units: {armour: 1}}
"""


@requires_engine
def test_a_scripted_player_buys_and_places_what_it_is_told(tmp_path, capsys):
    """Rules about purchases and placements need choices the AIs never make: the script buys 2
    infantry and an armour, places the infantry at home, and the engine refuses the armour in
    Moscow (an enemy's territory), which the run notes."""
    out = played(tmp_path, capsys, SCRIPTED_BUILD_SPEC)
    assert "note: Italians could not place 1 armour in Moscow Region in round 1, step italiansPlace: " in out
    assert "ok   units (line 19): Rome Region: infantry 2 (expected 2)" in out


KEEP_OUT_SPEC = """\
rules:
  - {id: KEEP_OUT, text: German units may not enter Silesia., use: movement_restriction,
     with: {players: [Germans], territories: [Silesia]}}
scenarios:
  - id: germans-kept-out-of-silesia
    rule: KEEP_OUT
    given: {round: 1, step: germansNonCombatMove}
    play:
      until: {step: germansEndTurn}
      moves: {Germans: [{from: Berlin Region, to: Silesia, units: {infantry: 2}, phase: noncombat}]}
    expect:
      - units: {territory: Silesia, owner: Germans, units: {infantry: 3}}
"""


@requires_engine
def test_a_scripted_move_the_rules_forbid_is_refused_and_noted(tmp_path, capsys):
    out = played(tmp_path, capsys, KEEP_OUT_SPEC)
    assert "note: Germans could not move {infantry=2} from Berlin Region to Silesia in round 1, " \
           "step germansNonCombatMove: " in out
    assert "FAIL units (line 17): Silesia: infantry 5 (expected 3)" in out  # the control moved them
    assert "=> backed" in out


USER_ACTION_SCENARIO = """\
rules:
  - {id: AID, text: Once a turn Italy may pay 3 PUs to send the USSR 5., use: user_action,
     with: {player: Italians, cost: 3, after: italiansPolitics, effects: {Aid: {resource: 5, players: [Russians]}}}}
scenarios:
  - id: italy-sends-aid
    rule: AID
    given: {round: 1, step: italiansPolitics}  # after the purchase: a scripted player buys as the easy AI does
    play: {until: {step: italiansCombatMove}, actions: {Italians: [userActionAttachment_AID]}}
    expect:
      - resources: {Russians: {PUs: {change: 5}}, Italians: {PUs: {change: -3}}}
"""


@requires_engine
def test_a_scripted_player_takes_its_user_action(tmp_path, capsys):
    """1.9's AIs never take user actions; a scenario's scripted player does, in its user-actions step."""
    head = MOD_HEAD[:MOD_HEAD.index("rules:")] + "add:\n  delegates:\n    userActions: {class: UserActionDelegate, display: Actions}\n"
    spec = tmp_path / "aid.yaml"
    spec.write_text(head + USER_ACTION_SCENARIO, encoding="utf-8")
    assert main(["test", str(spec), "-o", str(tmp_path / "out")]) == 0
    assert "Russians PUs: " in capsys.readouterr().out
    # the same game with nobody scripted: the action is offered but never taken
    unscripted = replaced(spec.read_text(encoding="utf-8"), ", actions: {Italians: [userActionAttachment_AID]}", "")
    spec.write_text(unscripted, encoding="utf-8")
    assert main(["test", str(spec), "-o", str(tmp_path / "out"), "--no-control"]) == 1
    assert "(expected +5)" in capsys.readouterr().err


@requires_engine
@requires_shared
def test_s000_violator_pays_before_it_buys(monkeypatch, tmp_path, capsys):
    """Finding of issue 18: the pact penalty is taken at the start of the violator's purchase."""
    monkeypatch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    spec = REPO / "rules_yaml" / "s000_nonaggression_pacts.yaml"
    assert main(["test", str(spec), "--scenario", "violator-pays-before-it-buys", "-o", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "fired in round 4, step russiansPurchase: Trigger S000 R12 Russians R3 Payer" in out
    assert "=> backed" in out


DECLARE_SPEC = """\
rules:
  - {id: PEACE, text: The USSR is at peace with Italy., use: condition,
     with: {player: Russians, not_at_war_with: [Italians]}}
  - {id: DECLARE, text: The USSR may declare war on Italy while at peace with it., use: political_action,
     with: {player: Russians, targets: [Italians], to: War, conditions: [conditionAttachment_PEACE]}}
scenarios:
  - id: declare
    rule: DECLARE
    given: {round: 1, step: russiansPolitics}
    play: {until: {step: russiansCombatMove}, actions: {Russians: [politicalActionAttachment_DECLARE]}}
    expect:
      - relationships: [[Italians, Russians, War]]
"""


def test_a_scripted_action_must_exist(tmp_path):
    spec = write_spec(tmp_path, replaced(DECLARE_SPEC, "actions: {Russians: [politicalActionAttachment_DECLARE]}",
                                                     "actions: {Russians: [politicalActionAttachment_DECLAR]}"))
    collector = Collector()
    (scenario,) = load_scenarios(spec).scenarios
    check_names(scenario, GameNames.of(etree.fromstring(build_xml(spec))), collector)
    assert [(d.code, d.message, d.hint) for d in collector.diagnostics] == [
        ("TG204", "the built game has no political or user action 'politicalActionAttachment_DECLAR'",
         "did you mean 'politicalActionAttachment_DECLARE'?")]


@requires_engine
def test_a_scripted_player_takes_its_political_action(tmp_path, capsys):
    out = played(tmp_path, capsys, DECLARE_SPEC)
    assert "ok   relationships (line 17): Italians-Russians: War" in out
    assert "FAIL relationships (line 17): Italians-Russians: Neutrality (expected War)" in out
    assert "=> backed" in out


def test_a_history_expectation_of_parts_needs_one_line_with_all_of_them():
    from generator.core.diagnostics import Position
    from generator.scenarios.check import evaluate
    from generator.scenarios.spec import Expectation

    report = {"history": [{"round": 1, "step": "britishBattle", "event": "British roll dice for 2 marines in Holland "
                           "Belgium, round 2 : 2,4 (rolled at 1)"},
                          {"round": 1, "step": "britishBattle", "event": "Germans roll dice for 4 infantry in Holland "
                           "Belgium, round 2 : 1,1,5,6 (rolled at 2)"}]}
    wanted = Expectation("history", ("2 marines in Holland Belgium", "(rolled at 2)"), Position("s.yaml", 3, 9))
    (outcome,) = evaluate([wanted], report, {})
    assert not outcome.passed  # each part is on a line, but not both on one
    assert outcome.evidence == "no history line contains '2 marines in Holland Belgium' and '(rolled at 2)'"
    report["history"][0]["event"] = report["history"][0]["event"].replace("(rolled at 1)", "(rolled at 2)")
    (outcome,) = evaluate([wanted], report, {})
    assert outcome.passed and outcome.evidence.startswith("round 1, step britishBattle: British roll dice")


def test_history_parts_must_be_text(tmp_path):
    spec = write_spec(tmp_path, """\
scenarios:
  - id: parts
    rule: PAY
    expect:
      - history: [marines, 3]
      - no_history: []
    control: sometimes
""")
    found = [(d.code, d.position.line, d.message) for d in diagnostics_of(spec)]
    wrong_parts = "takes the text of a history line (a part of it), or a list of parts one line holds"
    assert ("TG201", 15, f"history {wrong_parts}") in found
    assert ("TG201", 16, f"no_history {wrong_parts}") in found
    assert ("TG201", 17, "control must be true, false or same-game, not 'sometimes'") in found


SAME_GAME_SCENARIOS = """\
rules:
  - {id: POLITICS, text: The powers conduct politics., change: {properties: {Use Politics: true}}}
  - {id: DEARER, text: Infantry costs 4., change: {units: {infantry: {cost: 4}}}}
  - {id: GROUNDED, text: Infantry cannot fly., change: {units: {infantry: {isAirTransportable: false}}}}
scenarios:
  - id: infantry-flies-in-nothing
    rule: GROUNDED
    control: same-game
    given: {round: 1, step: italiansPolitics}
    play: {until: {step: italiansCombatMove}}
    expect: [{no_exception: true}]
  - id: politics-as-in-the-base
    rule: POLITICS
    control: same-game
    given: {round: 1, step: italiansPolitics}
    play: {until: {step: italiansCombatMove}}
    expect: [{no_exception: true}]
  - id: dearer-infantry
    rule: DEARER
    control: same-game
    given: {round: 1, step: italiansPolitics}
    play: {until: {step: italiansCombatMove}}
    expect: [{no_exception: true}]
"""


@requires_engine
def test_same_game_control_tells_a_restated_rule_from_one_that_changes_the_game(tmp_path, capsys):
    """control: same-game backs a rule only when the game built without it is the same game; a rule
    that changes the game gets TG209 with the change in game terms."""
    spec = write_spec(tmp_path, SAME_GAME_SCENARIOS)
    assert main(["test", str(spec), "-o", str(tmp_path / "out")]) == 1
    captured = capsys.readouterr()
    assert "  built without POLITICS: the same game\n  => restates the game" in captured.out
    # an option written at the engine's own default (the catalog's `default:`) changes nothing
    assert "  built without GROUNDED: the same game\n  => restates the game" in captured.out
    assert "  built without DEARER: not the same game (1 change)\n    infantry cost 3 → 4\n" in captured.out
    assert "error[TG209]: scenario 'dearer-infantry': the game built without DEARER is not the same game: " \
           "infantry cost 3 → 4\n" in captured.err
    assert main(["report", str(spec), "--results", str(tmp_path / "out" / "scenario-results" / "pact.json")]) == 0
    out = capsys.readouterr().out
    assert "POLITICS  enforced  restates the game" in out and "DEARER    enforced  not the same game" in out
    assert "0 of 3 enforced rules backed by a passing scenario whose control fails (triplea-gen test); " \
           "2 restate the game (the same game without them) and their scenario passes" in out


IDLE_SCENARIOS = """\
scenarios:
  - id: an-idle-italy-keeps-its-money
    rule: OBJ
    control: false
    given: {round: 1, step: italiansPurchase, resources: {Italians: {PUs: 20}}}
    play: {until: {step: endRoundStep}, players: {Italians: idle}}
    expect:
      - resources: {Italians: {PUs: {at_least: 20}}}
      - no_history: Italians buy
  - id: a-do-nothing-italy-spends-and-throws-away-its-money
    rule: OBJ
    control: false
    given: {round: 1, step: italiansPurchase, resources: {Italians: {PUs: 20}}}
    play: {until: {step: endRoundStep}, players: {Italians: none}}
    expect:
      - resources: {Italians: {PUs: 0}}
      - history: Italians removes resources
"""


@requires_engine
def test_an_idle_player_buys_nothing_and_keeps_its_money(tmp_path, capsys):
    """1.9's do-nothing AI buys as the easy AI does and throws its money away at its end turn; the
    harness's idle player does neither."""
    out = played(tmp_path, capsys, IDLE_SCENARIOS)
    assert "PASS an-idle-italy-keeps-its-money" in out and "PASS a-do-nothing-italy-spends" in out


@requires_engine
def test_a_control_the_engine_refuses_says_which_names_are_missing(tmp_path, capsys):
    """A control is built without validation; when a rule left in names the player the backed rule
    makes, the engine refuses the game, and the report says what validate finds missing."""
    spec = write_spec(tmp_path, POLAND + """\
  - {id: CAPTURE, text: The Poles capture infantry they overrun.,
     change: {units: {infantry: {canBeCapturedOnEnteringBy: "Germans:Poles"}}}}
""" + POLES_COLOUR + POLAND_EXISTS)
    assert main(["test", str(spec), "-o", str(tmp_path / "out")]) == 1
    out = capsys.readouterr().out
    assert "PASS poland-exists" in out and "could not be played" in out
    assert "the game without the rules has errors: " in out and "'Poles'" in out
    assert "control_also_without" in out


@requires_engine
def test_a_control_leaves_out_the_given_that_names_what_its_rule_makes(tmp_path, capsys):
    """The given may set up the player the backed rule makes; the control's game has no such player,
    so those parts of the given are left out (and noted) instead of making the engine refuse it."""
    out = played(tmp_path, capsys, POLAND + POLES_COLOUR + """\
scenarios:
  - id: a-polish-army
    rule: POLES
    given:
      round: 1
      step: germansCombatMove
      units: [{territory: Warsaw, owner: Poles, add: {infantry: 2}}]
      resources: {Poles: {PUs: 12}}
    play: {until: {step: germansBattle}}
    expect:
      - units: {territory: Warsaw, owner: Poles, units: {infantry: 2}}
""")
    assert "    note: the control game has no such names: given units in Warsaw of Poles left out\n" \
           "    note: the control game has no such names: given resources of Poles left out\n" in out
    assert "FAIL units (line 22): Warsaw: infantry 0 (expected 2)" in out and "=> backed" in out


# --- engines: a scenario played in one engine only (issue 26) ----------------------------------

def test_engines_names_the_engines_a_scenario_is_played_in(tmp_path):
    spec = write_spec(tmp_path, GOOD_SCENARIO + """\
    engines: [1.9]
  - id: only-in-2x
    rule: PAY
    engines: current
    expect: [{fired: triggerAttachment_PAY}]
  - id: both
    rule: PAY
    expect: [{fired: triggerAttachment_PAY}]
""")
    engines = {scenario.id: scenario.engines for scenario in load_scenarios(spec).scenarios}
    assert engines == {"italian-war-pays": ("1.9",), "only-in-2x": ("current",), "both": ("1.9", "current")}


def test_engines_must_name_known_engines(tmp_path):
    spec = write_spec(tmp_path, GOOD_SCENARIO + """\
    engines: [2.0, current]
""")
    found = [(d.code, d.position.line, d.message) for d in diagnostics_of(spec)]
    assert ("TG201", 19, "engines must list engines of 1.9, current, not '2'") in found


@requires_engine
def test_test_plays_only_the_scenarios_of_its_engine(tmp_path, capsys):
    second = replaced(GOOD_SCENARIO.replace("scenarios:\n", ""), "id: italian-war-pays", "id: in-2x-only")
    spec = write_spec(tmp_path, GOOD_SCENARIO + second + "    engines: [current]\n")
    assert main(["test", str(spec), "-o", str(tmp_path / "out"), "--format", "json", "--no-control"]) == 0
    assert [r["id"] for r in json.loads(capsys.readouterr().out)["scenarios"]] == ["italian-war-pays"]


def test_an_expectation_may_name_its_engines(tmp_path):
    spec = write_spec(tmp_path, """\
scenarios:
  - id: worded-differently
    rule: PAY
    expect:
      - {history: AA fire in France, engines: [1.9]}
      - history: French roll AA dice in France
        engines: [current]
      - fired: triggerAttachment_PAY
""")
    (scenario,) = load_scenarios(spec).scenarios
    assert [(e.kind, e.engines) for e in scenario.expect] == [
        ("history", ("1.9",)), ("history", ("current",)), ("fired", ("1.9", "current"))]
