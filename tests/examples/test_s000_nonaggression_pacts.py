"""Seed 000, the German-Soviet and Japanese-Soviet non-aggression pacts
(rules_yaml/s000_nonaggression_pacts.yaml): the spec carries exactly the rules
../shared/reference/seed-rules.md lists for the seed, with the same statuses and
counts, the game notes show every rule, and the pacts work in the TripleA 1.9
engine. Engine games are seeded, and the events they check are forced by small
test mods on top of the spec (a declaration of war, a Soviet unit in China), so
every assertion is tied to a round and a step.

The helpers at the top are shared with tests/examples/test_s004_corrupting_g40.py."""
from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from engine_play import air_removed_before_battle, load_and_play, when_fired
from conftest import GLOBAL_MAP_DIR, REPO, SHARED, build_game, requires_engine, tier
from generator.cli.main import main
from reference import seed_rule_counts, seed_rule_statuses

SPEC = REPO / "rules_yaml" / "s000_nonaggression_pacts.yaml"
SEED_FILE = "000_f6eed90c07c0a39a.txt"
NOTES_LABELS = {"enforced": "enforced", "partial": "PARTLY ENFORCED", "notes": "NOT ENFORCED"}


# --- shared helpers ------------------------------------------------------------------------------------------

def spec_report(spec: Path, capsys) -> dict:
    capsys.readouterr()
    assert main(["report", str(spec), "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def events(report, trigger: str) -> list[str]:
    return [f["event"] for f in report.fired if f["trigger"] == trigger]


def play(xml: Path, rounds: int):
    return load_and_play(xml, rounds=rounds, map_dir=GLOBAL_MAP_DIR)


def check_report_matches_seed_rules(spec: Path, seed_file: str, capsys,
                                    relabelled: dict[str, tuple[str, str]] | None = None) -> None:
    """The report lists the document's rules with its statuses, except the `relabelled` ones:
    rule id -> (the document's status, the spec's), where a scenario showed the engine does less."""
    expected = seed_rule_statuses(seed_file)
    counts = seed_rule_counts(seed_file)
    for rule, (documented, now) in (relabelled or {}).items():
        assert expected[rule] == documented, rule
        expected[rule] = now
        counts[documented] -= 1
        counts[now] += 1
    report = spec_report(spec, capsys)
    assert [r["id"] for r in report["rules"]] and sorted(r["id"] for r in report["rules"]) == sorted(expected)
    assert {r["id"]: r["status"] for r in report["rules"]} == expected
    assert len(report["rules"]) == counts["rules"]
    assert report["counts"] == {key: counts[key] for key in ("enforced", "partial", "notes")}
    # every enforced or partial rule is carried by generated XML: a macro or its own changes
    for rule in report["rules"]:
        if rule["status"] != "notes":
            assert rule["macro"] or rule["generated"], rule["id"]


def check_notes_list_every_rule(spec: Path, xml: Path, capsys) -> None:
    notes = (xml.parent / f"{xml.stem}.notes.html").read_text(encoding="utf-8")
    for rule in spec_report(spec, capsys)["rules"]:
        row = re.search(rf"<tr[^>]*><td>{re.escape(rule['id'])}</td><td>(.*?)</td><td>(.*?)</td></tr>", notes, re.S)
        assert row, f"{rule['id']} is not in the notes"
        shown = html.unescape(row.group(1))
        assert rule["text"] in shown
        assert NOTES_LABELS[rule["status"]] in row.group(2)
        if rule["note"]:
            assert rule["note"] in shown


@pytest.fixture(scope="module")
@tier("shared")
def maps_env():
    """TRIPLEA_MAPS pointing at ../shared/maps for the whole module (the specs are Global 1940 mods)."""
    patch = pytest.MonkeyPatch()
    patch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    yield
    patch.undo()


# --- the spec against seed-rules.md ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def built(maps_env, tmp_path_factory) -> Path:
    return build_game(SPEC, tmp_path_factory.mktemp("s000"))


def test_report_lists_exactly_the_seed_rules_with_their_statuses(maps_env, capsys):
    check_report_matches_seed_rules(SPEC, SEED_FILE, capsys)


def test_notes_list_every_rule_with_its_enforcement(built, capsys):
    check_notes_list_every_rule(SPEC, built, capsys)


def test_validates_clean_for_the_1_9_engine(built, capsys):
    capsys.readouterr()
    assert main(["validate", str(built), "--engine", "1.9"]) == 0
    assert " error[" not in capsys.readouterr().out


def test_pact_windows_sit_inside_the_aggressors_turns(built):
    from lxml import etree

    steps = [s.get("name") for s in etree.parse(str(built)).getroot().iterfind("gamePlay/sequence/step")]

    def right_after(anchor: str) -> list[str]:
        at = steps.index(anchor)
        return steps[at + 1:at + 3]

    assert right_after("germansAirborneCombatMove") == ["russiansPactGermansPurchase", "russiansPactGermansPlace"]
    assert right_after("italiansAirborneCombatMove") == ["russiansPactItaliansPurchase", "russiansPactItaliansPlace"]
    # before the Japanese battles: a Japanese attack is found as it begins (issue 31)
    assert right_after("japaneseAirborneCombatMove") == ["russiansPactJapanesePurchase", "russiansPactJapanesePlace"]
    assert right_after("russiansNonCombatMove") == ["japanesePactRussiansPurchase", "japanesePactRussiansPlace"]


def test_every_rule_the_engine_plays_has_a_scenario_with_a_control():
    import yaml

    from generator.scenarios.run import load_scenarios

    rules = yaml.safe_load(SPEC.read_text(encoding="utf-8"))["rules"]
    played = {rule["id"] for rule in rules if rule.get("status", "enforced") != "notes"}
    controlled = {rule for scenario in load_scenarios(SPEC).scenarios if scenario.control for rule in scenario.rules}
    assert played == controlled


def test_pact_windows_let_the_victim_place_units_where_no_factory_stands(built):
    # placementAnyTerritory alone lets 1.9 place only buildings where no factory stood (issue 18: R02's and R14's
    # units were refused); placementPerTerritory out of reach lets units be placed there too
    from lxml import etree

    root = etree.parse(str(built)).getroot()
    for key in ("S000_R02", "S000_R14_Russians", "S000_R14_Japanese"):
        on = root.find(f"attachmentList/attachment[@name='triggerAttachment_{key}_Anywhere']")
        off = root.find(f"attachmentList/attachment[@name='triggerAttachment_{key}_Anywhere_Off']")
        assert [(o.get("value"), o.get("count")) for o in on.iterfind("option[@name='playerProperty']")] == [
            ("placementAnyTerritory", "true"), ("placementPerTerritory", "9999999")]
        assert [(o.get("value"), o.get("count")) for o in off.iterfind("option[@name='playerProperty']")] == [
            ("placementAnyTerritory", "false"), ("placementPerTerritory", "-1")]
    properties = {p.get("name"): p.get("value") for p in root.iterfind("propertyList/property")}
    assert properties["Place in Any Territory"] == properties["Unit Placement Per Territory Restricted"] == "true"


def test_pact_windows_sell_no_more_than_the_pact_money(built):
    """Issue 31: a pact window let the USSR spend its whole treasury out of turn. Every price of a window's
    menu also costs as much of the window's allowance as PUs; the allowance is the pact money."""
    from lxml import etree

    root = etree.parse(str(built)).getroot()
    rules = {r.get("name"): r for r in root.iterfind("production/productionRule")}
    for key, amounts in (("S000_R02", ["9"]), ("S000_R14_Russians", ["8", "7", "6", "5", "4", "3", "2", "1"]),
                         ("S000_R14_Japanese", ["8", "7", "6", "5", "4", "3", "2", "1"])):
        menu = root.find(f"production/productionFrontier[@name='productionPriced_{key}']")
        assert len(menu) > 5
        for entry in menu:
            costs = {c.get("resource"): c.get("quantity") for c in rules[entry.get("name")].iterfind("cost")}
            assert costs[f"{key}_Allowance"] == costs["PUs"], entry.get("name")
        grants = [t for t in root.iterfind("attachmentList/attachment")
                  if t.get("name").startswith(f"triggerAttachment_{key}_Allowance")]
        assert [t.find("option[@name='resourceCount']").get("value") for t in grants] == amounts


def test_the_mongolia_rule_needs_the_pact_out_of_force(built):
    from lxml import etree

    root = etree.parse(str(built)).getroot()
    # each of its triggers needs the pact out of force when that player's combat move began (issue 31)
    for trigger, player in (("triggerAttachment_Japanese_Conquer_Russians_Territory_By_Mongolia_1", "Japanese"),
                            ("triggerAttachment_Russians_Conquer_Japanese_Territory_By_Mongolia", "Russians")):
        conditions = root.find(f"attachmentList/attachment[@name='{trigger}']/option[@name='conditions']")
        assert f"conditionAttachment_S000_R16_Not_Held_{player}" in conditions.get("value").split(":")
    # nothing switches the base game's own Mongolia switch any more
    assert not [o for o in root.iterfind("attachmentList/attachment/option[@name='playerAttachmentName']")
                if o.get("count") == "conditionAttachment_Mongolia_May_Change_To_Russians_Control_Switch"
                and "S000" in o.getparent().get("name")]


# --- in the engine -------------------------------------------------------------------------------------------------

FORCED_EVENTS = """\
mod:
  name: Pacts with forced events
  version: "1.0"
  base: {spec}
  engine: "1.9"
rules:
  - id: T-BARBAROSSA
    text: Germany declares war on the USSR at the start of its round-1 politics step.
    use: relationship_change
    with: {{player: Germans, first: [Germans], second: [Russians], to: War, when: [before:germansPolitics],
            rounds: "1"}}
  - id: T-CHINA
    text: A Soviet infantry appears in Yunnan (China) in round 3, before the Soviet non-combat move.
    use: free_placement
    with: {{player: Russians, territory: Yunnan, units: {{infantry: 1}}, only_if_held: false, rounds: "3",
            when: [before:russiansNonCombatMove]}}
"""


@pytest.fixture(scope="module")
def forced_game(maps_env, tmp_path_factory):
    """Four rounds: Germany goes to war with the USSR in round 1; in round 3, with the Japanese-Soviet pact
    in force, a Soviet unit stands in China after the Soviet non-combat move (the penalty is collected in
    round 4)."""
    folder = tmp_path_factory.mktemp("s000_forced")
    spec = folder / "forced.yaml"
    spec.write_text(FORCED_EVENTS.format(spec=SPEC), encoding="utf-8")
    return play(build_game(spec, folder / "out"), rounds=4)


@requires_engine
def test_the_soviets_are_paid_and_may_buy_when_germany_declares_war(forced_game):
    report = forced_game
    assert when_fired(report, "triggerAttachment_T_BARBAROSSA") == [(1, "germansPolitics")]
    # the 9 IPC right after the German politics step, once; the Soviet forfeit never comes
    assert when_fired(report, "triggerAttachment_S000_R01") == [(1, "germansPolitics")]
    assert when_fired(report, "triggerAttachment_S000_R05") == []
    # the window opens at the same moment and the German-turn purchase keeps its menu ...
    assert when_fired(report, "triggerAttachment_S000_R02_Open") == [(1, "germansPolitics")]
    shut = when_fired(report, "triggerAttachment_S000_R02_Shut")
    assert (1, "russiansPactGermansPurchase") not in shut
    assert when_fired(report, "triggerAttachment_S000_R02_Anywhere") == [(1, "russiansPactGermansPurchase")]
    assert when_fired(report, "triggerAttachment_S000_R02_Anywhere_Off") == [(1, "russiansPactGermansPlace")]
    # ... and once used, every later window is shut (the payment comes only once)
    assert (1, "russiansPactItaliansPurchase") in shut and (2, "russiansPactGermansPurchase") in shut
    assert all(step.startswith("russiansPact") for _, step in shut)
    assert when_fired(report, "triggerAttachment_S000_R03") == [(1, "russiansPurchase"), (2, "russiansPurchase"),
                                                            (3, "russiansPurchase"), (4, "russiansPurchase")]


@requires_engine
def test_the_japanese_soviet_pact_starts_in_round_3_and_the_first_violation_pays(forced_game):
    report = forced_game
    assert when_fired(report, "triggerAttachment_S000_R07") == [(3, "germansTech")]
    # the Mongolia rule is void while the pact holds, not switched off for good (issue 31)
    assert "triggerAttachment_S000_R16" not in {f["trigger"] for f in report.fired}
    # a Soviet unit in China after the Soviet non-combat move of round 3: 8 IPC from the bank to Japan at
    # once, and the pact ends; the USSR has bought already, so its 8 IPC are owed and taken before its next
    # purchase (charged at once, it paid what was left of its treasury: "-8 PUs; end with 0 PUs")
    assert when_fired(report, "triggerAttachment_T_CHINA") == [(3, "russiansNonCombatMove")]
    assert when_fired(report, "triggerAttachment_S000_R12_Russians_R3_Owed") == [(3, "russiansNonCombatMove")]
    assert when_fired(report, "triggerAttachment_S000_R12_Russians_R3_Payee") == [(3, "russiansNonCombatMove")]
    assert when_fired(report, "triggerAttachment_S000_R12_Russians_R3_Payer") == [(4, "russiansPurchase")]
    paid = re.search(r"an additional -8 PUs; end with (\d+) PUs",
                     events(report, "triggerAttachment_S000_R12_Russians_R3_Payer")[0])
    assert paid and int(paid.group(1)) > 0, "the treasury ran dry: the USSR paid less than 8"
    assert "Japanese met a national objective for an additional 8 PUs" in events(
        report, "triggerAttachment_S000_R12_Russians_R3_Payee")[0]
    assert when_fired(report, "triggerAttachment_S000_R08_Russians") == [(3, "russiansNonCombatMove")]
    assert when_fired(report, "triggerAttachment_S000_R08_Japanese") == []
    # Japan spends its compensation in the window right after the Soviet non-combat move
    assert when_fired(report, "triggerAttachment_S000_R14_Japanese_Open") == [(3, "russiansNonCombatMove")]
    assert when_fired(report, "triggerAttachment_S000_R14_Japanese_Anywhere") == [(3, "japanesePactRussiansPurchase")]
    # no other rung of either ladder was paid
    ladder = [f["trigger"] for f in report.fired if f["trigger"].startswith("triggerAttachment_S000_R12_")]
    assert sorted(ladder) == ["triggerAttachment_S000_R12_Russians_R3_Owed",
                              "triggerAttachment_S000_R12_Russians_R3_Payee",
                              "triggerAttachment_S000_R12_Russians_R3_Payer"]


@requires_engine
def test_without_aggression_nothing_is_paid_and_the_windows_stay_shut(built):
    report = play(built, rounds=2)
    assert when_fired(report, "triggerAttachment_S000_R07") == []  # the Japanese-Soviet pact starts in round 3
    for window in ("triggerAttachment_S000_R02_Open", "triggerAttachment_S000_R14_Russians_Open",
                   "triggerAttachment_S000_R14_Japanese_Open"):
        assert when_fired(report, window) == []
    assert when_fired(report, "triggerAttachment_S000_R02_Shut") == [
        (1, "russiansPactGermansPurchase"), (1, "russiansPactItaliansPurchase"),
        (2, "russiansPactGermansPurchase"), (2, "russiansPactItaliansPurchase")]
    russians = next(p for p in report.players if p["name"] == "Russians")
    assert russians["resources"]["PUs"] < 60, "the Soviets could not buy in their own turns"


SHUT_WINDOW_PROBE = """
  - id: shut-window-asks-nobody
    rule: S000-R02
    control: false
    text: At peace with Germany, the USSR (scripted to buy 1 infantry) is not asked in the shut window.
    given: {round: 1, step: germansPolitics}
    play:
      until: {step: germansBattle}
      purchases: {Russians: {infantry: 1}}
    expect:
      - no_exception: true
"""


@requires_engine
def test_a_shut_pact_window_asks_the_player_nothing(maps_env, tmp_path):
    """Issue 31: the fast AI thought 82-146 s a game in pact purchase steps that could buy nothing. The engine
    asked for a purchase whenever a repair was affordable; a shut window now fails the step's capital test,
    so the engine skips it: the scripted USSR is never asked (before: "Russians has no production rule for
    infantry in round 1, step russiansPactGermansPurchase")."""
    from generator.scenarios.run import test_spec

    spec = tmp_path / SPEC.name
    spec.write_text(SPEC.read_text(encoding="utf-8") + SHUT_WINDOW_PROBE, encoding="utf-8")
    (result,) = test_spec(spec, only="shut-window-asks-nobody")
    assert result.run.passed, result.run.error
    assert not [note for note in result.run.script_notes if "Pact" in note], result.run.script_notes


@requires_engine
def test_1_9_loads_the_game_without_dtd_complaints(built, capsys):
    """Issue 31: 1.9 printed 4 DTD errors (rule and frontier sharing an ID, an attachment without options)."""
    capsys.readouterr()
    assert main(["engine", "check", "--warnings", str(built)]) == 0
    assert "DTD:" not in capsys.readouterr().out


@requires_engine
def test_pact_place_steps_leave_the_aggressors_aircraft_alone(built):
    """The Soviet place steps inside the German and Italian turns come after their combat moves; the
    place delegate's air-landing check there once removed every German bomber, fighter and tactical
    bomber flying to a battle ("could not land in France") before the battle was fought."""
    report = load_and_play(built, rounds=1, map_dir=GLOBAL_MAP_DIR)
    assert air_removed_before_battle(report, built) == []
    assert not [entry for entry in report.air_removed if "Pact" in entry["step"]]
