"""Seed 002, A World at War's Nazi-Soviet Pact and Eastern Europe (rules 63-69), as the scenario
rules_yaml/s002_eastern_europe_1939.yaml on a generated hex map.

The spec carries every rule of seed-rules.md §5 with the status that analysis gives it; the game
notes list them all; the board holds every area the rules name; and in the real TripleA 1.9 engine
the rules act at the round and step they should. The engine tests play the scenario itself and two
variants of it that start from a later situation (border wars under way; Germany and Russia at war),
with seeded dice and AI, so every run is the same."""
from __future__ import annotations

import contextlib
import html
import io
import json
from pathlib import Path

import pytest
from lxml import etree

from engine_play import load_and_play, play_to_victory, player, when_fired
from conftest import REPO, build_game, requires_engine, requires_shared
from generator.cli.main import main
from generator.builder.pipeline import load_game
from generator.scenarios.run import load_scenarios
from reference import seed_rule_counts, seed_rule_statuses

SPEC = REPO / "rules_yaml" / "s002_eastern_europe_1939.yaml"
SEED_FILE = "002_b124fb1354b28974.txt"
MAP_NAME = "s002_eastern_europe_1939"
# Rules the analysis calls enforced whose claim is larger than what the engine plays (issue 18): each says
# in its note what is left to the players.
RELABELLED = {
    "S002-R21": "partial",  # Poland's army plays; the British seat is not bound to Poland
    "S002-R22": "partial",  # original owner Poland only decides liberation in 1.9
    "S002-R69": "partial",  # records a result; the roll is the players'
    "S002-R78": "partial",  # only a war begun on an associated minor; border wars leave the choice to Germany
}
# The spec's own rules, beside the document's: the victory, which the document leaves open.
OWN_RULES = {"S002-VICTORY": "enforced"}


# --- the rules of the document ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def report() -> dict:
    """What `triplea-gen report SPEC --format json` prints."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["report", str(SPEC), "--format", "json"]) == 0
    return json.loads(out.getvalue())


@requires_shared
def test_report_lists_exactly_the_rules_of_the_document_with_their_status(report):
    expected = seed_rule_statuses(SEED_FILE)
    assert len(expected) == 80
    assert {rule: expected[rule] for rule in RELABELLED} == dict.fromkeys(RELABELLED, "enforced")
    expected.update(RELABELLED)
    expected.update(OWN_RULES)
    listed = {rule["id"]: rule["status"] for rule in report["rules"]}
    assert sorted(listed) == sorted(expected)
    assert listed == expected


@requires_shared
def test_counts_per_status_equal_the_analysis(report):
    total, enforced, partial, notes = seed_rule_counts(SEED_FILE).values()
    assert (total, enforced, partial, notes) == (80, 35, 33, 12)
    enforced, partial = enforced - len(RELABELLED) + len(OWN_RULES), partial + len(RELABELLED)
    assert len(report["rules"]) == total + len(OWN_RULES)
    assert report["counts"] == {"enforced": enforced, "partial": partial, "notes": notes}


def test_enforced_and_partial_rules_generate_xml_and_partial_ones_say_what_is_honour(report):
    for rule in report["rules"]:
        if rule["status"] == "notes":
            assert rule["macro"] is None and not rule["generated"], rule["id"]
        else:
            assert rule["generated"], f"{rule['id']} generates nothing"
        if rule["status"] == "partial":
            assert rule["note"], f"{rule['id']} does not say what players keep by honour"


def test_every_enforced_rule_has_a_scenario_with_a_control_or_one_that_restates_the_game(report):
    # `triplea-gen test` plays them (issue 18). R01's production 0 is also each hex's own value (the game
    # XML is the same without it): its scenario is `control: same-game`, and test checks the game built
    # without it is the same game. R06's Turkey and Persia have no owner, so "Neutrals Are Impassable"
    # keeps Russia out anyway: its scenario turns that option off, and then R06 alone keeps Russia out.
    # The victory (S002-VICTORY, the spec's own) has its control too: without it nobody wins.
    scenarios = load_scenarios(SPEC).scenarios
    with_control = {rule for scenario in scenarios if scenario.control for rule in scenario.rules}
    same_game = {rule for scenario in scenarios if scenario.same_game for rule in scenario.rules}
    enforced = {rule["id"] for rule in report["rules"] if rule["status"] == "enforced"}
    assert same_game == {"S002-R01"}
    assert enforced - with_control == same_game
    assert "S002-VICTORY" in with_control
    # the findings of issue 18 each have their own scenario, and no scenario is left without expectations
    ids = {scenario.id for scenario in scenarios}
    assert {"russian-war-on-german-rumania-is-a-paid-war-with-germany", "rumanian-rebuilds-stop-after-eight",
            "swedes-and-finns-reinforce-helsinki", "no-swedes-for-a-german-finland",
            "finns-kept-out-of-russia-in-the-border-war", "rgt-one-level-a-turn", "no-pact-no-pact-line",
            "finland-refuses-at-once", "germany-declares-war-on-the-baltic-states"} <= ids
    assert all(scenario.expect for scenario in scenarios)


# Partial rules whose enforced part no scenario can show, and why (each note says so).
PARTIAL_WITHOUT_SCENARIO = {
    "S002-R22": "1.9 makes a territory's owner at the start its original owner, Poland here, without the rule too; "
                "and no ally of Poland moves on this board to liberate a hex",
    "S002-R71": "no production rule sells Ukrainian infantry; R70 places them by trigger, which no placement list binds",
    "S002-R73": "Britain, France and the USA have no turn and no units on this board",
}


def test_every_partial_rule_has_a_scenario_with_a_control_for_the_part_it_enforces_or_a_reason(report):
    scenarios = load_scenarios(SPEC).scenarios
    with_control = {rule for scenario in scenarios if scenario.control for rule in scenario.rules}
    partial = {rule["id"] for rule in report["rules"] if rule["status"] == "partial"}
    assert partial - with_control == set(PARTIAL_WITHOUT_SCENARIO)
    notes = {rule["id"]: rule["note"] for rule in report["rules"]}
    assert all("never" in notes[rule] or "no game" in notes[rule] for rule in PARTIAL_WITHOUT_SCENARIO)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("s002")
    assert main(["build", str(SPEC), "-o", str(out)]) == 0
    return out / MAP_NAME


def test_game_notes_list_every_rule_with_its_text_and_enforcement(built, report):
    notes = (built / "map" / "games" / f"{MAP_NAME}.notes.html").read_text(encoding="utf-8")
    flat = " ".join(html.unescape(notes).split())
    for rule in report["rules"]:
        assert rule["id"] in notes
        assert " ".join(rule["text"].split()) in flat, rule["id"]
    for label in ("enforced", "partly enforced", "not enforced"):
        assert label in notes
    xml = etree.parse(str(built / "map" / "games" / f"{MAP_NAME}.xml")).getroot()
    property_notes = next(p for p in xml.iter("property") if p.get("name") == "notes")
    assert "S002-R80" in etree.tostring(property_notes, encoding="unicode")


def test_validates_clean_for_the_1_9_engine(built, capsys):
    capsys.readouterr()
    xml = built / "map" / "games" / f"{MAP_NAME}.xml"
    assert main(["validate", str(xml), "--engine", "1.9", "--map-dir", str(built)]) == 0
    out = capsys.readouterr().out
    # Issue 31: 1.9's DTD check used to complain six times while loading (the closures' effect names had
    # spaces, and each effect's attachment started without an option); now it has nothing to say.
    assert out.endswith("0 errors, 0 warnings\n")
    assert "TG109" not in out

# --- the board ----------------------------------------------------------------------------------------------------

def test_the_board_holds_every_area_the_rules_name():
    game, _ = load_game(SPEC)
    land = {t.name for t in game.territories if t.water != "true"}
    named = ["A46", "B45", "C44", "Vilna", "Brest-Litovsk", "Lvov", "Riga", "Parnu", "Tallinn", "Cernauti",
             "Khotin", "Balti", "Kishinev", "Ismail", "Helsinki", "Kiev", "Ploesti", "Bucharest", "Warsaw",
             "Berlin", "Moscow", "East Prussia", "Danzig Corridor", "Sweden", "Turkey", "Persia"]
    assert set(named) <= land
    links = {frozenset((c.t1, c.t2)) for c in game.connections}

    def touch(a: str, b: str) -> bool:
        return frozenset((a, b)) in links

    # the Finnish border hexes run south-west from Lake Ladoga to Leningrad, between Finland and Russia
    assert touch("A46", "B45") and touch("B45", "C44") and touch("C44", "Leningrad")
    assert touch("A46", "Eastern Finland") and touch("B45", "Kymi")
    # Bessarabia's five hexes form one strip along Rumania's eastern border
    bessarabia = ["Cernauti", "Khotin", "Balti", "Kishinev", "Ismail"]
    assert all(touch(a, b) for a, b in zip(bessarabia, bessarabia[1:]))
    assert touch("Cernauti", "Lvov") or touch("Cernauti", "Stanislawow")
    # the partition line: Eastern Poland meets Poland west of it, and Russia east of it
    assert touch("Brest-Litovsk", "Lublin") and touch("Vilna", "Lithuania") and touch("Novogrudok", "Minsk")
    # the southern extension of the Pact line: Turkey and Persia border Russia
    assert touch("Turkey", "Georgia") and (touch("Persia", "Armenia") or touch("Persia", "Azerbaijan"))
    # Sweden has no land border on this map
    assert not any(touch("Sweden", other) for other in land - {"Sweden"})


# --- in the engine ---------------------------------------------------------------------------------------------

def fired(report) -> list[tuple[str, int, str]]:
    return [(f["trigger"], f["round"], f["step"]) for f in report.fired]


def play(xml: Path, rounds: int, map_dir: Path):
    return load_and_play(xml, rounds=rounds, map_dir=map_dir)


@pytest.fixture(scope="module")
def opening(built):
    """The scenario as it is: Fall 1939 to Spring 1940 (the first YSS)."""
    return play(built / "map" / "games" / f"{MAP_NAME}.xml", 3, built)


def variant(tmp_path_factory, name: str, changes: str) -> Path:
    folder = tmp_path_factory.mktemp(name)
    spec = folder / f"{name}.yaml"
    spec.write_text(f"""\
mod:
  name: {name}
  version: "1.0"
  base: {SPEC}
  engine: "1.9"
change:
{changes}""", encoding="utf-8")
    return build_game(spec, folder / "out")


@pytest.fixture(scope="module")
def border_wars(tmp_path_factory, built):
    """Russia has demanded the Finnish border hexes, and a Russo-Rumanian border war is under way
    while Rumania's army is not yet in Bessarabia."""
    xml = variant(tmp_path_factory, "border_wars", """\
  relationships:
    - [Russia, Rumania, BorderWar, 1]
  attachments:
    - {name: conditionAttachment_S002_R51_Demand_Made, attachTo: Russia, options: {switch: true}}
""")
    return play(xml, 2, built)


@pytest.fixture(scope="module")
def barbarossa(tmp_path_factory, built):
    """Germany and Russia are at war from the start, after a Russo-Finnish border war."""
    xml = variant(tmp_path_factory, "barbarossa", """\
  relationships:
    - [Germany, Russia, War, 1]
  attachments:
    - {name: conditionAttachment_S002_R51_Demand_Made, attachTo: Russia, options: {switch: true}}
""")
    return play(xml, 1, built)


@requires_engine
def test_eastern_poland_passes_to_russia_at_the_end_of_the_invasion_turn(opening):
    # S002-R26: the Pact partition, at the end of the German turn of round 1, once
    assert when_fired(opening, "triggerAttachment_S002_R26") == [(1, "germanyNonCombatMove")]
    # S002-R25: German units left east of the line are withdrawn in the same step
    assert when_fired(opening, "triggerAttachment_S002_R25_Withdrawal") == [(1, "germanyNonCombatMove")]
    # S002-R23: holding Vilna, Brest-Litovsk and Lvov, Russia conquers Eastern Poland after its battles
    assert when_fired(opening, "triggerAttachment_S002_R23_Russia_Conquers") == [(1, "russiaBattle")]
    assert when_fired(opening, "triggerAttachment_S002_R23_Germany_Conquers") == []
    # Russia starts with 51 territories (Russia and the Ukraine) and gains Eastern Poland's 9;
    # Poland keeps at most its 9 western ones
    assert player(opening, "Russia")["territories"] >= 60
    assert player(opening, "Poland")["territories"] <= 9


@requires_engine
def test_area_values_and_the_economic_interest_are_paid_at_the_first_yss(opening):
    # round 3 = Spring 1940: S002-R23 (Eastern Poland, 10), S002-R65 (the Ukraine, 10) to Russia,
    # S002-R75 (the German economic interest in Russia, 10) to Germany; never before
    assert when_fired(opening, "triggerAttachment_S002_R23_Russia_Value") == [(3, "russiaEndTurn")]
    assert when_fired(opening, "triggerAttachment_S002_R65_Russia_Value") == [(3, "russiaEndTurn")]
    assert when_fired(opening, "triggerAttachment_S002_R75_Payee") == [(3, "germanyEndTurn")]
    # Bessarabia, ceded in round 1 (S002-R35/R36, automatic), pays Russia its 5 then too
    assert when_fired(opening, "triggerAttachment_S002_R38_Russia_Value") == [(3, "russiaEndTurn")]
    # the Finnish border hexes are still fought over (ceded only in round 4): nothing is paid for them
    assert not [t for t, _, _ in fired(opening) if t.startswith("triggerAttachment_S002_R08_")]


@requires_engine
def test_the_documents_events_happen_against_the_ai(opening):
    # The engine's AI takes no user action and declares no war, so before the rules' `automatic:`
    # option these 3 rounds fired 6 triggers (the partition, the withdrawal, Eastern Poland's
    # conquest and the three YSS payments) and none of the demands and wars below.
    # S002-R35/R36: Russia demands Bessarabia and Rumania cedes it, in round 1's Russian diplomacy
    assert when_fired(opening, "triggerAttachment_S002_R35_Demand") == [(1, "russiaUserActions")]
    assert when_fired(opening, "triggerAttachment_S002_R36_Cession") == [(1, "germanyAnswerUserActions")]
    assert when_fired(opening, "triggerAttachment_S002_R38_Russia_Conquers") == [(1, "russiaBattle")]
    # S002-R10: Russia declares war on the Baltic States, paying its 10 BRPs, once
    assert when_fired(opening, "triggerAttachment_S002_R10_Automatic") == [(1, "russiaPolitics")]
    # S002-R51/R52/R53: from its second turn Russia demands the Finnish border hexes; Finland refuses at
    # once: the border war and Finland's army follow in the next step (they used to wait a round, for
    # Russia's next diplomacy step, as the triggers tested the demand's switch before it was set)
    assert when_fired(opening, "triggerAttachment_S002_R51_Demand") == [(2, "russiaUserActions")]
    assert when_fired(opening, "triggerAttachment_S002_R52") == [(2, "germanyAnswerUserActions")]
    assert when_fired(opening, "triggerAttachment_S002_R53_Helsinki") == [(2, "germanyAnswerUserActions")]
    assert len(opening.fired) >= 20


@requires_engine
def test_border_wars_deploy_close_and_end(border_wars):
    report = border_wars
    # S002-R52/R53: the Finnish demand starts a border war right after Russia's diplomacy step, and
    # Finland's army appears at once: one infantry in each border hex, two and the air factor in Helsinki
    assert when_fired(report, "triggerAttachment_S002_R52") == [(1, "germanyAnswerUserActions")]
    for hex_ in ("A46", "B45", "C44", "Helsinki"):
        assert when_fired(report, f"triggerAttachment_S002_R53_{hex_}") == [(1, "germanyAnswerUserActions")]
    assert player(report, "Finland")["units"].get("air") == 1
    # S002-R55 and R40: Finland proper and Rumania proper close to Soviet units for the border wars
    assert when_fired(report, "triggerAttachment_S002_R55_Close") == [(1, "russiaCombatMove")]
    assert when_fired(report, "triggerAttachment_S002_R40_Close") == [(1, "russiaCombatMove")]
    # S002-R43: with no Rumanian unit in Bessarabia after its movement, Rumania renounces it ...
    assert when_fired(report, "triggerAttachment_S002_R43") == [(1, "rumaniaNonCombatMove")]
    assert player(report, "Rumania")["territories"] == 8
    # ... S002-R42/R38: Russia holds all five hexes after its battles: the border war ends and
    # Russia conquers Bessarabia; S002-R40: Rumania proper opens again before the non-combat move
    assert when_fired(report, "triggerAttachment_S002_R42") == [(1, "russiaBattle")]
    assert when_fired(report, "triggerAttachment_S002_R38_Russia_Conquers") == [(1, "russiaBattle")]
    assert when_fired(report, "triggerAttachment_S002_R40_Open") == [(1, "russiaNonCombatMove")]
    # the Finnish border war is still on: Finland proper stays closed
    assert when_fired(report, "triggerAttachment_S002_R55_Open") == []


@requires_engine
def test_war_with_germany_brings_finland_in_and_lifts_the_pact_line(barbarossa):
    report = barbarossa
    # S002-R62/R63: after the border war Finland associates with Germany and is at war with Russia
    assert when_fired(report, "triggerAttachment_S002_R62") == [(1, "germanyPolitics")]
    assert when_fired(report, "triggerAttachment_S002_R63") == [(1, "germanyPolitics")]
    # S002-R11: the associated minor's war follows Germany's; S002-R78 (Russia's war on a German
    # minor is a war with Germany) changes nothing here and charges nothing, Germany and Russia being
    # at war already (before the fix Russia paid 35 BRPs for it)
    assert when_fired(report, "triggerAttachment_S002_R11_Finland") == [(1, "russiaPolitics")]
    assert when_fired(report, "triggerAttachment_S002_R78") == []
    # S002-R04, R07, R09: the Pact line's movement restrictions are lifted for both sides
    assert when_fired(report, "triggerAttachment_S002_R04_Russia_Lifted") == [(1, "russiaCombatMove")]
    assert when_fired(report, "triggerAttachment_S002_R07_Germany_Lifted") == [(1, "germanyCombatMove")]
    assert when_fired(report, "triggerAttachment_S002_R09_Germany_Lifted") == [(1, "germanyCombatMove")]
    # S002-R15: surprise, RGT below 40: Russian armour and infantry slowed for the Russian moves only
    for unit in ("ru_armor", "ru_infantry"):
        assert when_fired(report, f"triggerAttachment_S002_R15_{unit}") == [(1, "russiaCombatMove")]
        assert when_fired(report, f"triggerAttachment_S002_R15_{unit}_Restore") == [(1, "russiaNonCombatMove")]
    # S002-R57: at full war no Swedish volunteer comes, as Finland is associated with Germany and no
    # Russian unit stands in Finland proper (before the fix one came every turn whatever Finland's side);
    # and Finland, which has not fought yet, rebuilds nothing (issue 31: it used to rebuild all the same)
    assert when_fired(report, "triggerAttachment_S002_R57_Finnish_Rebuild") == []
    assert when_fired(report, "triggerAttachment_S002_R57_Swedish_Volunteer") == []
    assert "swe_infantry" not in player(report, "Finland")["units"]
    # S002-R05/R26: no Pact any more, so no partition of Poland
    assert when_fired(report, "triggerAttachment_S002_R26") == []


# --- victory ----------------------------------------------------------------------------------

# With this seed the easy AI takes Eastern Poland, Bessarabia (ceded) and the Finnish border hexes
# (ceded) for Russia in the Pact years.
VICTORY_SEED = 1


@requires_engine
def test_the_pact_years_end_with_a_winner_in_spring_1941(built):
    # the scenario's victory (see the notes): at the end of round 7 Russia holds Eastern Poland and
    # more of Eastern Europe, so it wins the Pact years; before the victory triggers existed the game
    # ran on with no winner (and before the automatic demands Russia held only Eastern Poland: the
    # Axis won)
    xml = built / "map" / "games" / f"{MAP_NAME}.xml"
    result = play_to_victory(xml, rounds=8, seed=VICTORY_SEED, map_dir=built)
    assert result.rounds_completed == 7
    assert result.winners == ["Russia"]
    texts = (built / "map" / "notifications.properties").read_text(encoding="utf-8")
    assert "Victory_Russia_Holds_Its_Sphere=" in texts


# --- fixes of issue 18 -----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def russian_war_on_rumania(tmp_path_factory, built):
    """Russia is at war with a Rumania associated with Germany (RGT 0)."""
    xml = variant(tmp_path_factory, "war_on_rumania", """\
  relationships:
    - [Russia, Rumania, War, 1]
    - [Rumania, Germany, Allied, 1]
""")
    return play(xml, 1, built)


@requires_engine
def test_a_russian_war_on_a_german_minor_is_a_paid_russian_declaration(russian_war_on_rumania):
    report = russian_war_on_rumania
    # S002-R78: the war with Germany follows in Russia's politics step ...
    assert when_fired(report, "triggerAttachment_S002_R78") == [(1, "russiaPolitics")]
    # ... as Russia's declaration: after the Baltic declaration (10 of its 24) its 35 BRPs leave Russia
    # nothing to buy, so it ends round 1 with its starting army (unpaid, it bought 2 infantry and 4
    # partisans with the 14 left) and its income alone (Moscow 8, Leningrad 4, Kharkov 4) ...
    russia = player(report, "Russia")
    assert russia["units"] == {"factory": 3, "ru_air": 2, "ru_armor": 4, "ru_infantry": 28}
    assert russia["resources"]["PUs"] == 16
    # ... and no Russian surprise slow-down (S002-R15) for the aggressor, which the war brought before
    for unit in ("ru_armor", "ru_infantry"):
        assert when_fired(report, f"triggerAttachment_S002_R15_{unit}") == []
    assert when_fired(report, "triggerAttachment_S002_R15_German_Declaration") == []


@pytest.fixture(scope="module")
def finnish_full_war(tmp_path_factory, built):
    """A full Russo-Finnish war (S002-R58 chosen), Finland alone."""
    xml = variant(tmp_path_factory, "finnish_full_war", """\
  relationships:
    - [Russia, Finland, War, 1]
""")
    return play(xml, 1, built)


@requires_engine
def test_a_lone_finland_at_full_war_gets_swedes_and_may_enter_russia(finnish_full_war):
    report = finnish_full_war
    # S002-R57: a Swedish volunteer reaches Helsinki in the Finnish turn; Finland has lost nothing yet, so
    # nothing is rebuilt (issue 31: a rebuild used to come every turn)
    assert when_fired(report, "triggerAttachment_S002_R57_Swedish_Volunteer") == [(1, "finlandCombatMove")]
    assert when_fired(report, "triggerAttachment_S002_R57_Finnish_Rebuild") == []
    # S002-R55: the ban on entering Russia ends with the border war
    assert when_fired(report, "triggerAttachment_S002_R55_Finns_Free") == [(1, "finlandCombatMove")]


@requires_engine
def test_finland_stays_out_of_russia_during_the_border_war(border_wars):
    # S002-R55 (67.23B): during the border war Finnish units may not enter Russia; the list of
    # forbidden territories stays (before the fix Finland had none)
    assert when_fired(border_wars, "triggerAttachment_S002_R55_Finns_Free") == []


def test_finnish_units_are_kept_out_of_russia_until_a_full_war(built):
    tree = etree.parse(str(built / "map" / "games" / f"{MAP_NAME}.xml"))
    rules = tree.find(".//attachment[@name='rulesAttachment'][@attachTo='Finland']")
    forbidden = rules.find("option[@name='movementRestrictionTerritories']").get("value").split(":")
    assert {"Leningrad", "Karelia", "Moscow", "Kiev"} <= set(forbidden) and "Helsinki" not in forbidden
    lift = tree.find(".//attachment[@name='triggerAttachment_S002_R55_Finns_Free']")
    assert lift.find("option[@name='conditions']").get("value") == "conditionAttachment_S002_R55_Full_War"


def test_rebuilds_stop_at_the_armys_size_or_follow_the_fighting(built):
    # S002-R45: Rumanian rebuilds came every turn forever; now at most the army the rules deploy.
    # S002-R57 (issue 31): a Finnish rebuild comes only in a turn after Finland fought Russia, which the
    # battle steps record in a switch; the rebuild trigger clears it
    tree = etree.parse(str(built / "map" / "games" / f"{MAP_NAME}.xml"))

    def option(trigger: str, name: str) -> str | None:
        found = tree.find(f".//attachment[@name='{trigger}']/option[@name='{name}']")
        return None if found is None else found.get("value")

    assert option("triggerAttachment_S002_R45", "uses") == "8"
    assert option("triggerAttachment_S002_R57_Finnish_Rebuild", "uses") is None
    assert "conditionAttachment_S002_R57_Rebuild_Due" in option("triggerAttachment_S002_R57_Finnish_Rebuild", "conditions")
    assert option("triggerAttachment_S002_R57_Losses_Recorded", "conditions") == "conditionAttachment_S002_R57_Finland_Fought"


@pytest.fixture(scope="module")
def without_the_pact(tmp_path_factory, built):
    """The game option "Nazi-Soviet Pact" switched off (S002-R05)."""
    xml = variant(tmp_path_factory, "no_pact", """\
  properties:
    Nazi-Soviet Pact: {value: false}
""")
    return play(xml, 1, built)


@requires_engine
def test_without_the_pact_no_pact_line_binds(without_the_pact):
    report = without_the_pact
    # S002-R05 with R04, R07, R09: the Pact line's bans are lifted at each side's first move ...
    assert when_fired(report, "triggerAttachment_S002_R07_Germany_Lifted") == [(1, "germanyCombatMove")]
    assert when_fired(report, "triggerAttachment_S002_R09_Germany_Lifted") == [(1, "germanyCombatMove")]
    assert when_fired(report, "triggerAttachment_S002_R04_Russia_Lifted") == [(1, "russiaCombatMove")]
    # ... nobody withdraws German units from east of it (S002-R25), and no partition (S002-R26)
    assert when_fired(report, "triggerAttachment_S002_R25_Withdrawal") == []
    assert when_fired(report, "triggerAttachment_S002_R26") == []


@pytest.fixture(scope="module")
def diplomacy_by_hand(tmp_path_factory, built):
    """The game option "Automatic Diplomacy" switched off: the players make every choice."""
    xml = variant(tmp_path_factory, "diplomacy_by_hand", """\
  properties:
    Automatic Diplomacy: {value: false}
""")
    return play(xml, 2, built)


@requires_engine
def test_without_automatic_diplomacy_the_choices_wait_for_the_players(diplomacy_by_hand):
    for trigger in ("S002_R10_Automatic", "S002_R35_Automatic", "S002_R51_Automatic", "S002_R35_Demand",
                    "S002_R36_Cession"):
        assert when_fired(diplomacy_by_hand, f"triggerAttachment_{trigger}") == [], trigger
