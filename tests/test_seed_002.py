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
from conftest import REPO, SHARED, SHARED_MISSING, build_game, requires_engine
from generator.cli.main import main
from generator.build.pipeline import load_game
from reference import seed_rule_counts, seed_rule_statuses

SPEC = REPO / "rules_yaml" / "s002_eastern_europe_1939.yaml"
SEED_FILE = "002_b124fb1354b28974.txt"
MAP_NAME = "s002_eastern_europe_1939"


# --- the rules of the document ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def report() -> dict:
    """What `triplea-gen report SPEC --format json` prints."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["report", str(SPEC), "--format", "json"]) == 0
    return json.loads(out.getvalue())


@pytest.mark.skipif(not SHARED.is_dir(), reason=SHARED_MISSING)
def test_report_lists_exactly_the_rules_of_the_document_with_their_status(report):
    expected = seed_rule_statuses(SEED_FILE)
    assert len(expected) == 80
    listed = {rule["id"]: rule["status"] for rule in report["rules"]}
    assert sorted(listed) == sorted(expected)
    assert listed == expected


@pytest.mark.skipif(not SHARED.is_dir(), reason=SHARED_MISSING)
def test_counts_per_status_equal_the_analysis(report):
    total, enforced, partial, notes = seed_rule_counts(SEED_FILE).values()
    assert (total, enforced, partial, notes) == (80, 35, 33, 12)
    assert len(report["rules"]) == total
    assert report["counts"] == {"enforced": enforced, "partial": partial, "notes": notes}


def test_enforced_and_partial_rules_generate_xml_and_partial_ones_say_what_is_honour(report):
    for rule in report["rules"]:
        if rule["status"] == "notes":
            assert rule["macro"] is None and not rule["generated"], rule["id"]
        else:
            assert rule["generated"], f"{rule['id']} generates nothing"
        if rule["status"] == "partial":
            assert rule["note"], f"{rule['id']} does not say what players keep by honour"


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
    # What 1.9's DTD check prints and then loads anyway: the three closures' effect names are readable
    # phrases (players see them among a territory's details), and each closure's effect starts empty
    # (its trigger fills unitsNotAllowed). Nothing else may be reported.
    assert out.endswith("0 errors, 6 warnings\n")
    assert out.count("warning[TG109]: 1.9's DTD check: territoryEffect name 'Closed To ") == 3
    assert out.count("warning[TG109]: 1.9's DTD check: attachment 'territoryEffectAttachment' has no option") == 3


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
    # nobody holds the Baltic States, Bessarabia or the Finnish border hexes: nothing is paid for them
    for area in ("S002_R29", "S002_R38", "S002_R08"):
        assert not [t for t, _, _ in fired(opening) if t.startswith(f"triggerAttachment_{area}_")], area


@requires_engine
def test_border_wars_deploy_close_and_end(border_wars):
    report = border_wars
    # S002-R52/R53: the Finnish demand starts a border war in Russia's diplomacy step, and Finland's
    # army appears at once: one infantry in each border hex, two and the air factor in Helsinki
    assert when_fired(report, "triggerAttachment_S002_R52") == [(1, "russiaUserActions")]
    for hex_ in ("A46", "B45", "C44", "Helsinki"):
        assert when_fired(report, f"triggerAttachment_S002_R53_{hex_}") == [(1, "russiaUserActions")]
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
    # S002-R11 and R78: the associated minor's war follows Germany's, and the other way round
    assert when_fired(report, "triggerAttachment_S002_R11_Finland") == [(1, "russiaPolitics")]
    assert when_fired(report, "triggerAttachment_S002_R78") == [(1, "russiaPolitics")]
    # S002-R04, R07, R09: the Pact line's movement restrictions are lifted for both sides
    assert when_fired(report, "triggerAttachment_S002_R04_Russia_Lifted") == [(1, "russiaCombatMove")]
    assert when_fired(report, "triggerAttachment_S002_R07_Germany_Lifted") == [(1, "germanyCombatMove")]
    assert when_fired(report, "triggerAttachment_S002_R09_Germany_Lifted") == [(1, "germanyCombatMove")]
    # S002-R15: surprise, RGT below 40: Russian armour and infantry slowed for the Russian moves only
    for unit in ("ru_armor", "ru_infantry"):
        assert when_fired(report, f"triggerAttachment_S002_R15_{unit}") == [(1, "russiaCombatMove")]
        assert when_fired(report, f"triggerAttachment_S002_R15_{unit}_Restore") == [(1, "russiaNonCombatMove")]
    # S002-R57: at full war with Finland a Swedish volunteer (and a Finnish infantry) reach Helsinki
    assert when_fired(report, "triggerAttachment_S002_R57") == [(1, "finlandCombatMove")]
    # S002-R05/R26: no Pact any more, so no partition of Poland
    assert when_fired(report, "triggerAttachment_S002_R26") == []


# --- victory ----------------------------------------------------------------------------------

# With this seed the easy AI takes Eastern Poland for Russia and nothing more in the Pact years.
VICTORY_SEED = 1


@requires_engine
def test_the_pact_years_end_with_a_winner_in_spring_1941(built):
    # the scenario's victory (see the notes): at the end of round 7 Russia, holding only Eastern
    # Poland of Eastern Europe, has not made good its sphere, so Germany and Italy win; before the
    # victory triggers existed the game ran on with no winner
    xml = built / "map" / "games" / f"{MAP_NAME}.xml"
    result = play_to_victory(xml, rounds=8, seed=VICTORY_SEED, map_dir=built)
    assert result.rounds_completed == 7
    assert sorted(result.winners) == ["Germany", "Italy"]
    texts = (built / "map" / "notifications.properties").read_text(encoding="utf-8")
    assert "Victory_Axis_At_Barbarossa=" in texts
