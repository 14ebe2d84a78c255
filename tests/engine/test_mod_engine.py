"""Every rule macro in the real TripleA 1.9 engine: the games load in its parser and
its easy AI plays them, and what each macro promises happens at the round and step
it should. Deterministic: triggers are tied to rounds and steps, the dice and the
AI's own randomness are seeded.

Two games: the Global 1940 showcase (rules_yaml/g40_showcase.yaml, needs ../shared)
and a mod of the small Frontier 1939 with every macro (needs only the engine)."""
from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from engine_play import load_and_play, player, when_fired
from conftest import GLOBAL_MAP_DIR, REPO, SHARED, build_game, requires_engine, tier

pytestmark = [pytest.mark.engine, requires_engine]

SHOWCASE = REPO / "rules_yaml" / "g40_showcase.yaml"
RULES_BASE = REPO / "tests" / "golden" / "rules" / "base.yaml"

FRONTIER_RULES = f"""\
mod:
  name: Frontier with every macro
  version: "1.0"
  base: {RULES_BASE}
  engine: "1.9"
rules:
  - {{id: NEW, text: Hungary is a new Axis power., use: new_power,
     with: {{player: Hungarians, template: Italians, capital: Danube, after: Italians, pus: 5}}}}
  - {{id: ORDER, text: The USSR moves last., use: turn_order,
     with: {{order: [Germans, Italians, Hungarians, Russians]}}}}
  - {{id: HUNGARY, text: Hungary gets 1 infantry a turn., use: free_placement,
     with: {{player: Hungarians, territory: Danube, units: {{infantry: 1}}}}}}
  - {{id: OBJ, text: Italy earns 5 while it holds Rome., use: national_objective,
     with: {{player: Italians, amount: 5, owns: [Rome Region]}}}}
  - {{id: PEN, text: Germany loses 2 in rounds 1-2., use: national_penalty,
     with: {{player: Germans, amount: 2, rounds: "1-2"}}}}
  - {{id: WAR, text: Italy goes to war with the USSR in round 2., use: relationship_change,
     with: {{player: Italians, first: [Italians], second: [Russians], to: War,
            when: [before:italiansPolitics], rounds: "2"}}}}
  - {{id: PAY, text: The USSR gets 9 when Italy first goes to war with it., use: first_war_payment,
     with: {{receiver: Russians, amount: 9, attackers: [Italians]}}}}
  - {{id: ATTACK, text: The USSR gets 4 when Germany first attacks it., use: first_war_payment,
     with: {{receiver: Russians, amount: 4, attackers: [Germans], event: attack}}}}
  - {{id: DECLARE, text: The USSR may declare war on Italy for 2., use: political_action,
     with: {{player: Russians, targets: [Italians], to: War, cost: 2}}}}
  - {{id: AID, text: Germany pays Italy 3 - round in rounds 1-2., for: {{round: 1..2}}, use: round_payment,
     with: {{payer: Germans, payee: Italians, amount: "{{{{ 3 - round }}}}", rounds: "{{{{ round }}}}"}}}}
  - {{id: LADDER, text: The USSR pays Germany 3 then 2 after its battles., use: round_ladder,
     with: {{payer: Russians, payee: Germans, first_round: 1, amounts: [3, 2], when: [after:russiansBattle]}}}}
  - {{id: DEFECT, text: Smolensk and its infantry go over to Germany in round 1., use: ownership_transfer,
     with: {{territories: [Smolensk], from: Russians, to: Germans, convert_units: true, max_units: 3,
            rounds: "1"}}}}
  - {{id: ROME, text: Italy gets 1 infantry in Rome a turn., use: free_placement,
     with: {{player: Italians, territory: Rome Region, units: {{infantry: 1}}}}}}
  - {{id: MARINES, text: Infantry are marines., use: marines, with: {{units: [infantry]}}}}
  - {{id: PARA, text: Fighters carry infantry., use: paratroopers,
     with: {{units: [infantry], carriers: [fighter], capacity: 2, non_combat: true}}}}
  - {{id: MONEY, text: Capitals lost twice lose their money., use: capture_destroys_money,
     with: {{players: [Germans, Russians, Italians]}}}}
  - {{id: RUINED, text: Capturing Budapest destroys Hungarian money., use: capture_destroys_money,
     with: {{players: [Hungarians], immediately: true}}}}
  - {{id: PASS, text: The Carpathians are closed., use: impassable, with: {{territories: [Carpathia]}}}}
  - {{id: KIEV, text: Kiev is worth 5 from round 2., use: territory_value,
     with: {{territories: [Kiev], production: 5, rounds: 2-+, when: [before:russiansPurchase]}}}}
  - {{id: WARSAW, text: Warsaw is worth 5., use: territory_value, with: {{territories: [Warsaw], production: 5}}}}
  - {{id: GARRISON, text: Romania holds 3 neutral infantry., use: neutral_garrison,
     with: {{garrisons: {{Romania: {{infantry: 3}}}}}}}}
  - {{id: HONOUR, text: No strategic bombing in round 1., use: notes_only, with: {{}}}}
"""


def fired(report) -> list[tuple[str, int, str]]:
    return [(f["trigger"], f["round"], f["step"]) for f in report.fired]


def play(xml: Path, map_dir: Path | None = None):
    return load_and_play(xml, map_dir=map_dir)


# --- Frontier 1939 with every macro ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def frontier(tmp_path_factory):
    folder = tmp_path_factory.mktemp("frontier_rules")
    spec = folder / "frontier_rules.yaml"
    spec.write_text(FRONTIER_RULES, encoding="utf-8")
    xml = build_game(spec, folder / "out")
    return etree.parse(str(xml)).getroot(), play(xml)


def test_frontier_new_power_plays_its_turn_in_the_new_order(frontier):
    _, report = frontier
    assert when_fired(report, "triggerAttachment_HUNGARY") == [(1, "hungariansCombatMove"), (2, "hungariansCombatMove")]
    hungary = player(report, "Hungarians")
    assert hungary["territories"] == 1 and hungary["resources"]["PUs"] != 5  # it bought, or collected income
    # the new order: Italy, then Hungary, then the USSR (last)
    order = [s for _, r, s in fired(report) if r == 1]
    assert order.index("italiansCombatMove") < order.index("hungariansCombatMove") < order.index("russiansBattle")


def test_frontier_payments_fire_in_their_rounds(frontier):
    _, report = frontier
    assert when_fired(report, "triggerAttachment_PEN") == [(1, "germansEndTurn"), (2, "germansEndTurn")]
    for round_ in (1, 2):
        for role in ("Payer", "Payee"):
            assert when_fired(report, f"triggerAttachment_AID_{round_}_{role}") == [(round_, "germansEndTurn")]
            assert when_fired(report, f"triggerAttachment_LADDER_R{round_}_{role}") == [(round_, "russiansBattle")]


def test_frontier_war_by_trigger_then_the_first_war_payment(frontier):
    _, report = frontier
    assert when_fired(report, "triggerAttachment_WAR") == [(2, "italiansPolitics")]
    assert when_fired(report, "triggerAttachment_PAY") == [(2, "italiansPolitics")]
    assert when_fired(report, "triggerAttachment_PAY_Forfeit") == []  # paid first: nothing left to forfeit


def test_frontier_ownership_transfer_converts_each_unit(frontier):
    _, report = frontier
    assert when_fired(report, "triggerAttachment_DEFECT") == [(1, "germansCombatMove")]
    for rung in (1, 2):  # Smolensk starts with 2 Soviet infantry: two rungs fire, the third does not
        for role in ("Remove", "Place"):
            assert when_fired(report, f"triggerAttachment_DEFECT_Smolensk_infantry_{rung}_{role}") == [
                (1, "germansCombatMove")]
    assert when_fired(report, "triggerAttachment_DEFECT_Smolensk_infantry_3_Place") == []


def test_frontier_placement_and_territory_value_triggers(frontier):
    _, report = frontier
    assert when_fired(report, "triggerAttachment_ROME") == [(1, "italiansCombatMove"), (2, "italiansCombatMove")]
    assert when_fired(report, "triggerAttachment_KIEV") == [(2, "russiansPurchase")]


def test_frontier_static_macros_reach_the_engine(frontier):
    """What has no trigger: the options are in the game the engine loaded and played."""
    root, _ = frontier

    def option(attachment: str, attach_to: str, name: str) -> str | None:
        found = root.find(f"attachmentList/attachment[@name='{attachment}'][@attachTo='{attach_to}']"
                          f"/option[@name='{name}']")
        return None if found is None else found.get("value")

    assert option("unitAttachment", "infantry", "isMarine") == "1"
    assert option("unitAttachment", "infantry", "isAirTransportable") == "true"
    assert option("unitAttachment", "fighter", "isAirTransport") == "true"
    assert option("techAttachment", "Germans", "paratroopers") == "true"
    assert option("territoryAttachment", "Carpathia", "isImpassable") == "true"
    assert option("territoryAttachment", "Warsaw", "production") == "5"
    assert option("playerAttachment", "Hungarians", "destroysPUs") == "true"
    assert root.find("attachmentList/attachment[@name='politicalActionAttachment_DECLARE']") is not None
    assert [(u.get("unitType"), u.get("quantity"), u.get("owner")) for u in
            root.iterfind("initialize/unitInitialize/unitPlacement[@territory='Romania']")] == [("infantry", "3", None)]


def test_national_objective_pays_at_the_end_of_each_turn(tmp_path):
    """Italy cannot buy anything (a frontier priced in a resource nobody has), so with the same
    seed both games are the same but for the objective: 5 PUs in each of the 2 Italian turns."""
    no_purchases = f"""\
mod:
  name: Objective
  version: "1.0"
  base: {RULES_BASE}
add:
  resources: {{Gold: {{}}}}
  production:
    rules:
      buyWithGold: {{cost: {{Gold: 1}}, result: {{infantry: 1}}}}
    frontiers:
      nothing: [buyWithGold]
change:
  players:
    Italians: {{frontier: nothing}}
"""
    objective = no_purchases + """\
rules:
  - id: OBJ
    text: Italy earns 5 PUs while it holds Rome.
    use: national_objective
    with: {player: Italians, amount: 5, owns: [Rome Region]}
"""
    italian_money = []
    for name, text in (("without", no_purchases), ("with", objective)):
        spec = tmp_path / f"{name}.yaml"
        spec.write_text(text, encoding="utf-8")
        report = play(build_game(spec, tmp_path / name))
        italian_money.append(player(report, "Italians")["resources"]["PUs"])
    assert italian_money[1] - italian_money[0] == 10


# --- the Global 1940 showcase ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
@tier("shared")
def showcase(tmp_path_factory):
    patch = pytest.MonkeyPatch()
    patch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    try:
        xml = build_game(SHOWCASE, tmp_path_factory.mktemp("showcase"))
    finally:
        patch.undo()
    return etree.parse(str(xml)).getroot(), play(xml, GLOBAL_MAP_DIR)


def test_showcase_fixed_round_triggers_fire(showcase):
    _, report = showcase
    assert when_fired(report, "triggerAttachment_S001_R50") == [(1, "americansEndTurn")]
    assert when_fired(report, "triggerAttachment_S000_R12_R1_Payee") == [(1, "russiansEndTurn")]
    assert when_fired(report, "triggerAttachment_S000_R12_R2_Payee") == [(2, "russiansEndTurn")]
    for round_ in (1, 2):
        assert when_fired(report, f"triggerAttachment_S001_R10_{round_}_Payer") == [(round_, "americansEndTurn")]
        assert when_fired(report, f"triggerAttachment_S001_R10_{round_}_Payee") == [(round_, "americansEndTurn")]
    assert when_fired(report, "triggerAttachment_S003_SIBERIANS") == [(1, "russiansCombatMove"),
                                                                       (2, "russiansCombatMove")]
    assert when_fired(report, "triggerAttachment_S003_SIBERIA") == [(2, "russiansPurchase")]


def test_showcase_barbarossa_then_the_pact_payment(showcase):
    _, report = showcase
    assert when_fired(report, "triggerAttachment_S002_BARBAROSSA") == [(2, "germansPolitics")]
    (payment,) = when_fired(report, "triggerAttachment_S000_R01")  # once, by round 2 at the latest
    assert payment in [(1, "germansPolitics"), (1, "italiansPolitics"), (2, "germansPolitics")]


def test_showcase_canada_plays_a_full_turn_in_the_new_order(showcase):
    root, report = showcase
    steps = [s.get("name") for s in root.iterfind("gamePlay/sequence/step") if s.get("player") == "Canada"]
    assert steps == ["canadaTech", "canadaTechActivation", "canadaPurchase", "canadaPolitics", "canadaCombatMove",
                     "canadaAirborneCombatMove", "canadaBattle", "canadaNonCombatMove", "canadaNoAirCheckPlace",
                     "canadaEndTurn"]
    assert when_fired(report, "triggerAttachment_S001_R64B") == [(1, "canadaCombatMove"), (2, "canadaCombatMove")]
    canada = player(report, "Canada")
    assert canada["territories"] == 6
    assert canada["resources"]["PUs"] != 8  # it bought units and collected income
    bought = sum(canada["units"].values()) - 6 - 2  # 6 units taken over, 2 free infantry
    assert bought > 0, canada["units"]
    order = [s for _, r, s in fired(report) if r == 1]
    assert order.index("canadaCombatMove") < order.index("russiansCombatMove")  # Canada before the USSR now


def test_showcase_seeded_game_events(showcase):
    """With seed 1 Germany takes Paris in round 1: the French capital and the Vichy-style transfer fire."""
    _, report = showcase
    assert when_fired(report, "triggerAttachment_S001_R01_French") == [(1, "germansBattle")]
    assert when_fired(report, "triggerAttachment_S004_R25") == [(1, "germansBattle")]
    for territory in ("Morocco", "Algeria", "Tunisia", "Syria"):
        for role in ("Remove", "Place"):
            assert when_fired(report, f"triggerAttachment_S004_R25_{territory}_infantry_1_{role}") == [
                (1, "germansBattle")]


def test_showcase_garrisons_and_static_rules_reach_the_engine(showcase):
    root, report = showcase
    neutrals = player(report, "Neutral_True")["units"]
    assert neutrals["fighter"] == 3 and neutrals["armour"] == 1  # Spain, Sweden, Turkey (S004-R32)
    sea_26 = [(u.get("unitType"), u.get("quantity"), u.get("hitsTaken")) for u in
              root.iterfind("initialize/unitInitialize/unitPlacement[@territory='26 Sea Zone']")]
    assert ("battleship", "2", "1") in sea_26 and not any(u[0] == "submarine" for u in sea_26)
    assert root.find("attachmentList/attachment[@name='unitAttachment'][@attachTo='marine']"
                     "/option[@name='isMarine']").get("value") == "1"
    assert root.find("attachmentList/attachment[@name='territoryAttachment'][@attachTo='Switzerland']"
                     "/option[@name='isImpassable']").get("value") == "true"
