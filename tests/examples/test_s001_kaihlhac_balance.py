"""Seed 001, Kaihlhac's Balance and History Mod v3.2.8 for Global 1940
(rules_yaml/s001_kaihlhac_balance.yaml).

Coverage: the spec holds exactly the rules that ../shared/reference/seed-rules.md
lists for the seed, each with the status the reference gives it, the counts of
its §8.1 table, and game notes that show every rule with its text and how far
the game enforces it.

Play: two seeded games of two rounds in the TripleA 1.9 engine with the easy AI.
The first is the mod as it is (Canada's own turn, the US isolationism penalty).
The second is a small test scenario on top of the built mod that makes rare
events happen in round 1 or 2: Commonwealth infantry standing in Soviet lands
(Stalin Doctrine), the USA at war from the start (Pearl Harbor repaired, the
Pacific barrier lifted) and the Vichy instatement taken as soon as it is offered
(the AI never takes user actions, so the scenario takes it by trigger: it fires
the very effect triggers the German player's action fires)."""
from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from lxml import etree

from engine_play import air_removed_before_battle, load_and_play, player, when_fired
from conftest import REPO, SHARED, build_game, requires_engine, requires_shared
from generator.cli.main import main
from generator.scenarios.run import load_scenarios
from reference import seed_rule_counts, seed_rule_statuses

SPEC = REPO / "rules_yaml" / "s001_kaihlhac_balance.yaml"
SEED_FILE = "001_abb9cb8dfc09361d.txt"

pytestmark = requires_shared


# --- the reference -------------------------------------------------------------------------------------------

def reference_statuses() -> dict[str, str]:
    """Rule id -> enforced / partial / notes, from the seed's section of seed-rules.md."""
    return seed_rule_statuses(SEED_FILE)


def reference_counts() -> dict[str, int]:
    """The seed's row of the counts table (§8.1)."""
    return seed_rule_counts(SEED_FILE)


# --- building and playing (once per module: a Global 1940 game takes ~20 s a game) ------------------------------

@pytest.fixture(scope="module")
def maps_folder():
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
        yield SHARED / "maps"


@pytest.fixture(scope="module")
def report(maps_folder) -> dict:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["report", str(SPEC), "--format", "json"]) == 0
    return json.loads(out.getvalue())


@pytest.fixture(scope="module")
def built(maps_folder, tmp_path_factory) -> Path:
    return build_game(SPEC, tmp_path_factory.mktemp("s001"))


def _play(xml: Path, map_dir: Path):
    return load_and_play(xml, map_dir=map_dir)


@pytest.fixture(scope="module")
def played(built):
    return _play(built, built.parent.parent.parent)


# The test scenario: rare events brought to rounds 1 and 2 (see the module docstring).
SCENARIO = """\
mod:
  name: Kaihlhac test scenario
  version: "1.0"
  base: {base}
  engine: "1.9"
change:
  initialUnits:                     # four Commonwealth infantry in Soviet lands: the Stalin Doctrine counts three
    Archangel: {{British: {{infantry: 2}}}}
    Karelia: {{ANZAC: {{infantry: 2}}}}
  relationships:                    # the USA at war with Japan from the start
    - [Americans, Japanese, War]
add:
  attachments:
    # Southern France may go to Vichy whether it is French or held by Germany's partner
    - name: conditionAttachment_TEST_Southern_France_Eligible
      attachTo: Germans
      class: RulesAttachment
      type: player
      options:
        conditions: "conditionAttachment_S001_R89_Germans_SF_Free:conditionAttachment_S001_R89_Germans_SF_Partner"
        conditionType: OR
    # Germany instates Vichy as soon as the mod offers it: the effects of its user action, by trigger
    # (with all its conditions: France held, and Normandy held by the Axis side, the _Side_Held one)
    - name: triggerAttachment_TEST_Germans_Instate_Vichy
      attachTo: Germans
      class: TriggerAttachment
      type: player
      options:
        conditions: "conditionAttachment_S001_R89_Germans_Free:conditionAttachment_S001_R89_Germans_Free_Side_Held:conditionAttachment_S001_Vichy_Offer_Open:conditionAttachment_TEST_Southern_France_Eligible"
        activateTrigger:
          - "triggerAttachment_S001_R89_Germans_Free_Instated:1:false:false:false:false"
          - "triggerAttachment_S001_R89_Germans_Free_Remembered:1:false:false:false:false"
          - "triggerAttachment_S001_R89_Germans_Free_Victor:1:false:false:false:false"
          - "triggerAttachment_S001_R89_Germans_Free_Offer_Taken:1:false:false:false:false"
        when: before:germansVichyUserActions
        uses: 1
"""


@pytest.fixture(scope="module")
def scenario(built, tmp_path_factory):
    folder = tmp_path_factory.mktemp("s001_scenario")
    spec = folder / "scenario.yaml"
    spec.write_text(SCENARIO.format(base=built), encoding="utf-8")
    return _play(build_game(spec, folder / "out"), built.parent.parent.parent)


def fired_like(report, prefix: str) -> list[tuple[str, int, str]]:
    return [(entry["trigger"], entry["round"], entry["step"]) for entry in report.fired
            if entry["trigger"].startswith(prefix)]


# --- the spec against the reference ----------------------------------------------------------------------------

def test_report_lists_exactly_the_rules_of_the_seed(report):
    ids = [rule["id"] for rule in report["rules"]]
    assert len(ids) == len(set(ids))
    assert sorted(ids, key=lambda i: int(i.rsplit("R", 1)[1])) == sorted(
        reference_statuses(), key=lambda i: int(i.rsplit("R", 1)[1]))


def test_each_rule_has_the_status_of_the_reference(report):
    expected = reference_statuses()
    assert {rule["id"]: rule["status"] for rule in report["rules"]} == expected


def test_counts_per_status_equal_the_reference_table(report):
    expected = reference_counts()
    assert expected == {"rules": 106, "enforced": 71, "partial": 22, "notes": 13}
    assert sum(report["counts"].values()) == expected["rules"]
    assert report["counts"] == {status: expected[status] for status in ("enforced", "partial", "notes")}


# Enforced rules that restate the base game: built without them it is the same game, which their scenario's
# `control: same-game` checks (no control could fail). Every other enforced rule has a scenario with a control.
RESTATING = {"S001-R07"}  # G40 already makes the Commonwealth and France Unfriendly_Neutral to Neutral_Axis
# Enforced rules that change the game but whose effect no reachable game shows, so no control could fail:
# their scenario shows the rule's situation with `control: false` (issue 31).
MOOT = {"S001-R41"}  # G40 puts the USA at war with Japan in round 3, which ends the trade objective anyway


def test_every_enforced_rule_has_a_controlled_scenario_or_restates_the_game(report, maps_folder):
    scenarios = load_scenarios(SPEC).scenarios
    controlled = {rule for scenario in scenarios if scenario.control for rule in scenario.rules}
    same_game = {rule for scenario in scenarios if scenario.same_game for rule in scenario.rules}
    enforced = {rule["id"] for rule in report["rules"] if rule["status"] == "enforced"}
    assert enforced - controlled == RESTATING | MOOT
    assert RESTATING == same_game & enforced
    assert MOOT <= {rule for scenario in scenarios if not scenario.control for rule in scenario.rules}
    assert not controlled - {rule["id"] for rule in report["rules"]}
    # a scenario's control leaves out only rules of the spec
    assert {rule for scenario in scenarios for rule in scenario.control_also_without} <= enforced | {
        rule["id"] for rule in report["rules"] if rule["status"] == "partial"}


# Partial rules whose enforced part is G40's own: their scenarios are `control: same-game` (test checks that
# the game built without the rule is the same game).
PARTIAL_RESTATING_G40 = {
    "S001-R18": "China places anywhere it holds: G40's Chinese placement rule",
    "S001-R59": "China and UK Pacific are Concordant in G40 already",
}


def test_every_partial_rule_has_a_scenario_for_the_part_it_enforces(report):
    scenarios = load_scenarios(SPEC).scenarios
    controlled = {rule for scenario in scenarios if scenario.control for rule in scenario.rules}
    same_game = {rule for scenario in scenarios if scenario.same_game for rule in scenario.rules}
    partial = {rule["id"] for rule in report["rules"] if rule["status"] == "partial"}
    assert partial - controlled == set(PARTIAL_RESTATING_G40)
    assert set(PARTIAL_RESTATING_G40) <= same_game


def test_enforced_and_partial_rules_are_carried_by_generated_xml(report):
    for rule in report["rules"]:
        if rule["status"] == "notes":
            assert rule["macro"] is None and rule["generated"] == [], rule["id"]
            assert rule["note"], f"{rule['id']}: a notes-only rule says what players do instead"
        else:  # a macro (turn_order makes steps, not attachments) or the rule's own changes
            assert rule["macro"] or rule["generated"], f"{rule['id']} is {rule['status']} but generates nothing"
        if rule["status"] == "partial":
            assert rule["note"], f"{rule['id']}: a partial rule says what is left to the players"


def test_game_notes_show_every_rule_with_its_enforcement(built, report):
    notes = built.with_name(built.stem + ".notes.html").read_text(encoding="utf-8")
    rows = {match.group(1): (html.unescape(match.group(2)), html.unescape(match.group(3))) for match in re.finditer(
        r"<tr[^>]*><td>(S001-R\d+)</td><td>(.*?)</td><td>(.*?)</td></tr>", notes, re.S)}
    assert set(rows) == set(reference_statuses())
    honour = re.search(r"<h3>Play by honour</h3>(.*)", notes, re.S).group(1)
    for rule in report["rules"]:
        text, enforcement = rows[rule["id"]]
        assert text.startswith(rule["text"])
        if rule["status"] == "enforced":
            assert enforcement == "enforced"
            assert f"<b>{rule['id']}</b>" not in honour
        else:
            assert enforcement.startswith({"partial": "<b>PARTLY ENFORCED</b>", "notes": "<b>NOT ENFORCED</b>"}[
                rule["status"]])
            assert f"<b>{rule['id']}</b>" in honour


def test_cruisers_cost_11_on_every_menu_that_sells_them(built):
    root = etree.parse(str(built)).getroot()
    cost = root.find("production/productionRule[@name='buyCruiser']/cost")
    assert (cost.get("resource"), cost.get("quantity")) == ("PUs", "11")
    menus = {frontier.get("name") for frontier in root.iterfind("production/productionFrontier")
             if frontier.find("frontierRules[@name='buyCruiser']") is not None}
    assert menus == {"production", "productionJapanese"}
    # the Shipyards price is left as it is (decision in the rule's text)
    assert root.find("production/productionRule[@name='buyCruiserShipyards']/cost").get("quantity") == "9"


def test_the_mod_builds_the_powers_it_needs(built):
    root = etree.parse(str(built)).getroot()
    players = {p.get("name"): p for p in root.iterfind("playerList/player")}
    assert "Canada" in players and players["Canada"].get("optional") == "false"
    for inert in ("Vichy", "Soviet_Burden", "Neutral_Spain", "Neutral_Turkey"):
        assert players[inert].get("defaultType") == "DoesNothing"
        assert not root.findall(f"gamePlay/sequence/step[@player='{inert}']"), f"{inert} never takes a turn"
    assert players["Soviet_Burden"].get("isHidden") == "true"
    # Spain's declaration costs the democracies its army's value, and is free for the Axis and the USSR
    spain = {a.get("attachTo"): a for a in root.iterfind("attachmentList/attachment")
             if a.get("name", "").startswith("politicalActionAttachment_S001_R05_Spain_")}
    costs = {owner: (a.find("option[@name='costPU']").get("value") if a.find("option[@name='costPU']") is not None
                     else "0") for owner, a in spain.items()}
    assert costs == {"Americans": "18", "British": "18", "Canada": "18", "ANZAC": "18", "French": "18",
                     "Germans": "0", "Italians": "0", "Japanese": "0", "Russians": "0"}


# --- in play -----------------------------------------------------------------------------------------------------

@requires_engine
@pytest.mark.engine
def test_canada_takes_its_turn_between_china_and_britain(built, played):
    steps = [s.get("name") for s in etree.parse(str(built)).getroot().iterfind("gamePlay/sequence/step")]
    canada = [name for name in steps if name.startswith("canada")]
    assert canada[0] == "canadaTech" and canada[-1] == "canadaEndTurn"
    assert steps.index("chineseEndTurn") < steps.index("canadaTech") < steps.index("canadaEndTurn") < \
        steps.index("britishTech")
    # it started with 8 IPC and these units (S001-R60 to R63); after two turns it has bought and placed more
    start = {"infantry": 3, "artillery": 1, "armour": 1, "fighter": 1, "cruiser": 1, "factory_minor": 1, "harbour": 1}
    canada_now = player(played, "Canada")
    assert canada_now["territories"] == 6
    assert canada_now["units"] != start
    assert sum(canada_now["units"].values()) > sum(start.values())
    assert canada_now["resources"]["PUs"] != 8


@requires_engine
@pytest.mark.engine
def test_easy_rounds_remove_no_aircraft_between_a_combat_move_and_its_battle(built, played):
    """Issue 18: no step between a player's combat move and its battle runs the air-landing check
    (s000's inserted place steps once removed Germany's bombers there). Two rounds of the easy AI."""
    steps = [s.get("name") for s in etree.parse(str(built)).getroot().iterfind("gamePlay/sequence/step")]
    assert steps.index("germansCombatMove") + 1 < steps.index("germansBattle")  # there are steps between
    assert played.rounds_completed == 2
    assert air_removed_before_battle(played, built) == []


@requires_engine
@pytest.mark.engine
def test_burden_of_isolationism_is_paid_once_at_the_end_of_the_first_us_turn(played):
    assert when_fired(played, "triggerAttachment_S001_R50") == [(1, "americansEndTurn")]


@requires_engine
@pytest.mark.engine
def test_the_mod_changes_to_the_base_game_show_in_play(played):
    # China no longer gets artillery on its menu (the base game's Burma road trigger is gone)
    assert fired_like(played, "triggerAttachment_Chinese_Artillery_Supplies") == []
    # Pearl Harbor's ships stay moored and damaged while the USA is at peace
    assert player(played, "Americans")["units"].get("battleship_pearl") == 2
    assert fired_like(played, "triggerAttachment_S001_R45_") == []
    # the Burma road (S001-R58) pays although Burma is UK Pacific's, "Concordant" (neutral archetype)
    # with China: ownership by China's side counts. Seed 1: China ends round 2 with 16 PUs; with
    # 1.9's relationship-based alliedOwnershipTerritories it had 13 (the road never paid)
    assert player(played, "Chinese")["resources"]["PUs"] == 16
    # nothing counts against the Stalin Doctrine in an ordinary opening
    assert fired_like(played, "triggerAttachment_S001_R38_") == []


@requires_engine
@pytest.mark.engine
def test_stalin_doctrine_costs_one_per_allied_unit_up_to_three(scenario):
    # 2 British infantry in Archangel and 2 ANZAC infantry in Karelia: 4 units, 3 IPC, every Soviet turn
    for level in (1, 2, 3):
        assert when_fired(scenario, f"triggerAttachment_S001_R38_{level}") == [(1, "russiansEndTurn"),
                                                                             (2, "russiansEndTurn")]
    assert fired_like(scenario, "triggerAttachment_S001_R38_4") == []


@requires_engine
@pytest.mark.engine
def test_pearl_harbor_ships_are_repaired_once_the_usa_is_at_war(scenario):
    # the USA is at war from the start, but the ships are repaired only in its own politics step
    # (where the USA declares war), not after the politics of the powers before it: an Axis
    # strike earlier in the round meets them damaged (before the fix: at (1, germansPolitics))
    repaired = fired_like(scenario, "triggerAttachment_S001_R45_26_Sea_Zone_")
    assert {(round_, step) for _, round_, step in repaired} == {(1, "americansPolitics")}
    assert {trigger for trigger, _, _ in repaired} == {
        f"triggerAttachment_S001_R45_26_Sea_Zone_{unit}_{rung}_{role}"
        for unit, rung in (("battleship_pearl", 1), ("battleship_pearl", 2), ("cruiser_pearl", 1))
        for role in ("Remove", "Place")}
    assert "battleship_pearl" not in player(scenario, "Americans")["units"]
    # and the Commonwealth's barrier before the US Pacific lifts at each power's first combat move
    assert when_fired(scenario, "triggerAttachment_S001_R68_Canada_Lifted") == [(1, "canadaCombatMove")]
    assert when_fired(scenario, "triggerAttachment_S001_R79_British_Lifted") == [(1, "britishCombatMove")]
    assert when_fired(scenario, "triggerAttachment_S001_R82_ANZAC_Lifted") == [(1, "anzacCombatMove")]


@requires_engine
@pytest.mark.engine
def test_vichy_takes_over_the_french_empire_when_france_falls(scenario):
    # Germany holds Paris and Normandy after its round-1 battles; at the end of its round-2 turn it instates Vichy
    assert when_fired(scenario, "triggerAttachment_Germans_Conquer_France") == [(1, "germansBattle")]
    instated = (2, "germansVichyUserActions")
    for effect in ("Instated", "Remembered", "Victor", "Offer_Taken"):
        assert when_fired(scenario, f"triggerAttachment_S001_R89_Germans_Free_{effect}") == [instated]
    # French colonies without other Allied troops pass to Vichy right after the step, with their garrisons ...
    colonies = {trigger for trigger, round_, step in fired_like(scenario, "triggerAttachment_S001_R91_")
                if (round_, step) == instated and not trigger.endswith(("_Remove", "_Place"))}
    assert {"triggerAttachment_S001_R91_Algeria", "triggerAttachment_S001_R91_Syria",
            "triggerAttachment_S001_R91_French_Indo_China"} <= colonies
    assert when_fired(scenario, "triggerAttachment_S001_R91_Algeria_Algeria_infantry_1_Place") == [instated]
    # ... the French ships in sea zone 93 become Vichy ships, and the Axis army in Southern France goes to Paris
    assert when_fired(scenario, "triggerAttachment_S001_R100_93_Sea_Zone_cruiser_1_Place") == [instated]
    assert fired_like(scenario, "triggerAttachment_S001_R90_")
    assert {(round_, step) for _, round_, step in fired_like(scenario, "triggerAttachment_S001_R90_")} == {instated}
    # the offer was taken, so it does not lapse; Vichy's army grows, and the Free French appear in West Africa
    assert when_fired(scenario, "triggerAttachment_S001_R89_Offer_Lapsed") == []
    assert when_fired(scenario, "triggerAttachment_S001_R99") == [(2, "frenchEndTurn")]
    assert when_fired(scenario, "triggerAttachment_S001_R101") == [(2, "frenchPlace")]
    vichy = player(scenario, "Vichy")
    assert vichy["territories"] >= 1 and vichy["units"].get("infantry", 0) >= 1
