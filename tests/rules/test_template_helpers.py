"""The helpers that took the computing out of the rule macros' templates (issue 28), each with
the values the examples' rules give it (rules_yaml/ and tests/golden/rules/), on the golden base
game: Frontier 1939 with politics."""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import pytest
from conftest import REPO

from generator.builder.pipeline import load_spec
from generator.model import game as m
from generator.rules.actions import partners, slot_gate
from generator.rules.conversions import Rung, conversion_pairs, conversion_rungs
from generator.rules.counts import checked_chance, checked_combine, needed_count
from generator.rules.conditions import Conditions
from generator.rules.helpers import GameHelpers, Window, whole_number
from generator.rules.macros import CONDITION_PARAMS
from generator.rules.ladders import (Level, RoundAmount, condition_type, count_ladder, counter_levels, partitions,
                                     round_amounts)
from generator.rules.naming import each_once
from generator.rules.newpower import capital_first, default_step_prefix
from generator.rules.zones import allowed_zones, barred_units, placement_places

BASE = REPO / "tests" / "golden" / "rules" / "base.yaml"


@lru_cache(maxsize=1)
def base_game() -> m.Game:
    return load_spec(BASE).game


def game_with(*attachments: m.Attachment) -> GameHelpers:
    """The base game with more attachments (a copy: the cached game stays as it is)."""
    game = base_game()
    return GameHelpers(replace(game, attachments=[*(game.attachments or []), *attachments]))


def attachment(name: str, attach_to: str, class_name: str, **options: str | None) -> m.Attachment:
    return m.Attachment(name, attach_to, m.ATTACHMENT_PACKAGE + class_name,
                        options=[m.Option(key, value) for key, value in options.items()])


# --- unit_count_penalty: the ladder counting units across territories -------------------------------------------

def test_partitions_fall_with_the_larger_parts_first():
    assert partitions(4, 4) == [[4], [3, 1], [2, 2], [2, 1, 1], [1, 1, 1, 1]]
    assert partitions(4, 2) == [[2, 2], [2, 1, 1], [1, 1, 1, 1]]


def test_the_count_ladder_of_three_units_in_three_territories():
    # G-COUNT: German units in Minsk, Kiev and Smolensk, at most 3
    ladder = count_ladder(3, 3)
    assert ladder.checks == [(1, 1), (1, 2), (2, 1), (1, 3), (3, 1)]
    assert ladder.totals == [(1, [[(1, 1)]]), (2, [[(1, 2)], [(2, 1)]]),
                             (3, [[(1, 3)], [(1, 2), (2, 1)], [(3, 1)]])]


def test_the_count_ladder_leaves_out_ways_needing_more_territories_than_there_are():
    # G-COUNT-TANKS: two territories; three units one each would need three
    assert count_ladder(3, 2).totals[2] == (3, [[(1, 3)], [(1, 2), (2, 1)]])
    assert count_ladder(2, 2).checks == [(1, 1), (1, 2), (2, 1)]


def test_the_count_ladder_of_the_soviet_lands():
    # S001: Allied units in the 33 Soviet territories, at most 3
    assert count_ladder(3, 33) == count_ladder(3, 3)


@pytest.mark.parametrize("j, places, kind", [(1, 3, "OR"), (3, 3, "AND"), (2, 3, "2-3"), (1, 1, "OR")])
def test_condition_type(j, places, kind):
    assert condition_type(j, places) == kind


# --- counter_ladder ------------------------------------------------------------------------------------------------

def test_counter_levels_above_the_start_each_after_the_one_below():
    # S002-R13: the Russian guards ladder
    assert counter_levels([15, 25, 35, 40, 45, 50], 0) == [
        Level(15, None, 15), Level(25, 15, 10), Level(35, 25, 10), Level(40, 35, 5), Level(45, 40, 5),
        Level(50, 45, 5)]
    assert counter_levels([15, 25, 35], 20) == [Level(25, 15, 5), Level(35, 25, 10)]


@pytest.mark.parametrize("levels, message", [([], "give at least one level"),
                                             ([25, 15], "levels must rise: 25, 15"),
                                             ([15, 15, 25], "levels must rise: 15, 15, 25")])
def test_counter_levels_must_rise(levels, message):
    with pytest.raises(LookupError) as err:
        counter_levels(levels, 0)
    assert err.value.args[0] == message


# --- unit_conversion, ownership_transfer -----------------------------------------------------------------------------

def test_conversion_pairs_keep_types_first():
    # S001: the Pearl Harbor ships
    assert conversion_pairs([], {"battleship_pearl": "battleship", "cruiser_pearl": "cruiser"}) == [
        ("battleship_pearl", "battleship"), ("cruiser_pearl", "cruiser")]
    assert conversion_pairs(["infantry"], {"armour": "artillery"}) == [("infantry", "infantry"), ("armour", "artillery")]


def test_conversion_rungs_one_unit_at_a_time():
    # G-OT: Smolensk's infantry, at most 2
    assert conversion_rungs(2, 1, ["g"], ["before:germansCombatMove"], ["r"], []) == [
        Rung(1, 1, "1", ["g"], ["before:germansCombatMove"]), Rung(2, 1, "2", ["g"], ["before:germansCombatMove"])]


def test_conversion_rungs_in_blocks_then_the_rest():
    # G-OT-BLOCK: 6 infantry 3 at a time, 2 destroyers (fewer than a block: all in the rest)
    when, rest = ["after:germansCombatMove"], ["before:germansBattle"]
    assert conversion_rungs(6, 3, ["g"], when, ["rest"], rest) == [
        Rung(3, 3, "3", ["g"], when), Rung(6, 3, "6", ["g"], when),
        Rung(1, 1, "Rest_1", ["rest"], rest), Rung(2, 1, "Rest_2", ["rest"], rest)]
    assert [r.suffix for r in conversion_rungs(2, 3, ["g"], when, ["rest"], rest)] == ["Rest_1", "Rest_2"]
    # S004-R25: 16 of a type 4 at a time, a facility one (limit 1), a factory upgrade none (limit 0)
    assert [r.suffix for r in conversion_rungs(16, 4, [], [], [], [])] == [
        "4", "8", "12", "16", "Rest_1", "Rest_2", "Rest_3"]
    assert [r.suffix for r in conversion_rungs(1, 4, [], [], [], [])] == ["Rest_1"]
    assert conversion_rungs(0, 4, [], [], [], []) == []


# --- confined_units ----------------------------------------------------------------------------------------------------

def test_barred_units_of_each_zone():
    # S003: the leaders confined to their zones
    zones = {"Nationalist Zone": ["Sian"], "Communist Zone": ["Yenan"], "Japan": ["Honshu"]}
    confine = {"chiang": ["Nationalist Zone"], "mao": ["Communist Zone"], "guards": ["Nationalist Zone", "Japan"]}
    assert barred_units(zones, confine) == [("Nationalist Zone", ["mao"]), ("Communist Zone", ["chiang", "guards"]),
                                            ("Japan", ["chiang", "mao"])]
    assert barred_units({"A": ["x"]}, {"chiang": "A"}) == []
    assert allowed_zones("A") == ["A"] and allowed_zones(["A", "B"]) == ["A", "B"]


# --- victory -----------------------------------------------------------------------------------------------------------

def test_needed_count():
    places = ["Redhold", "Greenhold"]
    assert needed_count("all", places) == 2
    assert needed_count("1", places) == 1
    for count in ("3", "0", "x", "-1"):
        with pytest.raises(LookupError) as err:
            needed_count(count, places)
        assert err.value.args[0] == f"count must be all or a number from 1 to 2, not {count}"


def test_side_and_held_places():
    game = GameHelpers(base_game())
    # HS-VICTORY-LEAGUE: a winner with its allies
    assert game.side(["Germans"]) == ["Germans", "Italians"]
    assert game.side(["Germans"], False) == ["Germans"]
    assert game.side(["Italians", "Italians"], True) == ["Italians", "Germans"]
    assert game.held_places(["Russians", "Germans"], ["Kiev", "Moscow Region"]) == [
        "Moscow Region", "Berlin Region", "Kiev"]


# --- reaction_choice -------------------------------------------------------------------------------------------------

def test_opponents_and_the_candidates_lands():
    game = GameHelpers(base_game())
    # G-REACT: the USSR answers German and Italian attacks
    assert game.opponents(game.side(["Russians"]), ["Germans", "Italians"]) == ["Germans", "Italians"]
    assert game.opponents(game.side(["Germans"]), ["Russians"]) == ["Russians"]
    assert game.opponents(["Germans"], ["Italians"]) == ["Italians"]
    assert game.territories_of_players(["Italians", "Germans"]) == [
        "Rome Region", "Venetia", "Apulia", "Danube", "Berlin Region", "Pomerania", "Silesia", "Bavaria"]
    assert game.guest_stem("Russians", "Romania", "Germans", "Purchase") == "russiansRomaniaGermans"


# --- purchase_window -------------------------------------------------------------------------------------------------

def test_window_steps_and_the_players_own_purchase():
    game = GameHelpers(base_game())
    # G-PW: the USSR buys during the Italian turn
    assert game.window_steps("Russians", "Pact", ["italiansCombatMove"]) == [
        Window("italiansCombatMove", "russiansPactItaliansPurchase", "russiansPactItaliansPlace")]
    purchase, place = game.own_purchase_and_place("Russians")
    assert (purchase.name, purchase.delegate, place.name, place.delegate) == (
        "russiansPurchase", "purchase", "russiansPlace", "place")
    with pytest.raises(LookupError) as err:
        game.window_steps("Russians", "Pact", ["russiansCombatMove"])
    assert err.value.args[0] == "russiansCombatMove is not a step of another player's turn"


def test_own_purchase_is_not_a_window_step_inside_another_turn():
    game = base_game()
    steps = list(game.steps or [])
    at = [s.name for s in steps].index("italiansCombatMove") + 1
    window = [m.Step("russiansPactItaliansPurchase", "purchase", "Russians"),
              m.Step("russiansPactItaliansPlace", "place", "Russians")]
    helpers = GameHelpers(replace(game, steps=steps[:at] + window + steps[at:]))
    purchase, place = helpers.own_purchase_and_place("Russians")
    assert (purchase.name, place.name) == ("russiansPurchase", "russiansPlace")
    no_place = GameHelpers(replace(game, steps=[s for s in steps if s.name != "russiansPlace"]))
    with pytest.raises(LookupError) as err:
        no_place.own_purchase_and_place("Russians")
    assert err.value.args[0] == "Russians has no russiansPurchase step followed by a place step to copy"


# --- closed_territories, confined_units: effects a territory has already ---------------------------------------------

def test_territory_effects_already_listed():
    game = game_with(attachment("territoryAttachment", "Kiev", "TerritoryAttachment", production="3",
                                territoryEffect="Marsh:Forest"))
    assert game.territory_effects("Kiev") == ["Marsh", "Forest"]
    assert game.territory_effects("Warsaw") == []


# --- presence_payment ------------------------------------------------------------------------------------------------

def test_paying_territories_by_amount_or_production():
    game = GameHelpers(base_game())
    # G-PRESENCE and S003-R28: Romania is worth 2, a territory without attachment nothing
    assert game.paying_territories(["Romania", "Kiev", "Black Sea"], 0) == [("Romania", 2), ("Kiev", 3)]
    assert game.paying_territories(["Romania", "Black Sea"], 5) == [("Romania", 5), ("Black Sea", 5)]


@pytest.mark.parametrize("text, number", [("3", 3), ("2.7", 2), ("x", 0), (None, 0), ("inf", 0), ("-1", -1)])
def test_whole_number_reads_like_the_template_int_filter(text, number):
    assert whole_number(text) == number


# --- movement_restriction --------------------------------------------------------------------------------------------

def test_forbidden_territories_keep_the_players_own_first():
    game = GameHelpers(base_game())
    assert game.forbidden_territories("Germans", ["Kiev", "Minsk"]) == ["Kiev", "Minsk"]
    restricted = game_with(attachment("rulesAttachment", "Germans", "RulesAttachment",
                                      movementRestrictionTerritories="Minsk:Warsaw",
                                      movementRestrictionType="disallowed"))
    assert restricted.forbidden_territories("Germans", ["Kiev", "Minsk"]) == ["Minsk", "Warsaw", "Kiev"]
    allowed = game_with(attachment("rulesAttachment", "Germans", "RulesAttachment",
                                   movementRestrictionTerritories="Minsk", movementRestrictionType="allowed"))
    with pytest.raises(LookupError) as err:
        allowed.forbidden_territories("Germans", ["Kiev"])
    assert err.value.args[0] == ("Germans already has a list of allowed territories; a list of forbidden ones "
                                 "cannot be added to it")


# --- unit_property, purchase_limit, ownership_transfer: unit types -------------------------------------------------------

def test_values_to_restore():
    game = GameHelpers(base_game())
    # G-UP and S002-R15: armour and infantry move farther for a turn
    assert game.values_to_restore(["armour", "infantry"], "movement") == {"armour": "2", "infantry": "1"}
    with pytest.raises(LookupError) as err:
        game.values_to_restore(["armour", "infantry"], "isAir")
    assert err.value.args[0] == "armour's unitAttachment sets no isAir to restore afterwards"


def test_without_build_limit():
    game = GameHelpers(base_game())
    units = game.units_costing("PUs")
    assert game.without_build_limit(units) == ["infantry", "artillery", "armour", "fighter", "transport", "destroyer"]
    limited = game_with(attachment("unitAttachment", "armour", "UnitAttachment", maxBuiltPerPlayer="0"),
                        attachment("unitAttachment", "fighter", "UnitAttachment", maxBuiltPerPlayer="-1"))
    assert limited.without_build_limit(units) == ["infantry", "artillery", "fighter", "transport", "destroyer"]


def test_convertible_units():
    game = GameHelpers(base_game())
    # G-OT: Smolensk's Soviet units; G-OT-BLOCK: the types given; S004-R25: every type sold for PUs too
    assert game.convertible_units("Smolensk", "Russians", [], False) == ["infantry"]
    assert game.convertible_units("Kiev", "Russians", [], False) == ["infantry", "armour"]
    assert game.convertible_units("Kiev", "Russians", ["infantry", "destroyer"], False) == ["infantry", "destroyer"]
    assert game.convertible_units("Kiev", "Russians", ["destroyer"], True) == [
        "destroyer", "infantry", "artillery", "armour", "fighter", "transport"]


# --- random_event ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("chance", ["2:6", "4:6", "6:6", "1:1"])
def test_checked_chance_takes_x_in_y(chance):
    # S003: 2:6 in turn 5, 4:6 after
    assert checked_chance(chance) == chance


@pytest.mark.parametrize("chance", ["7:6", "0:6", "2", "2:6:1", "a:6", "-1:6", "\u00b2:6", ""])
def test_checked_chance_refuses_other_odds(chance):
    with pytest.raises(LookupError) as err:
        checked_chance(chance)
    assert err.value.args[0] == f"chance must be x:y with 1 <= x <= y, e.g. 2:6, not '{chance}'"


def test_checked_relationship_changes():
    game = GameHelpers(base_game())
    # S003's Soviet declaration, in the base game's names
    changes = ["Russians:Italians:any:War", "Germans:Russians:War:Neutrality"]
    assert game.checked_relationship_changes(changes) == changes
    for change, message in [
            ("Russians:Italians:War", "a relationship change is PLAYER1:PLAYER2:OLD:NEW, not 'Russians:Italians:War'"),
            ("Russians:Japanese:any:War", "relationship change Russians:Japanese:any:War: the game has no player "
                                          "'Japanese'"),
            ("Russians:Italians:any:BorderWar", "relationship change Russians:Italians:any:BorderWar: the game has no "
                                                "relationship type 'BorderWar'")]:
        with pytest.raises(LookupError) as err:
            game.checked_relationship_changes(["Russians:Italians:any:War", change])
        assert err.value.args[0] == message


# --- invasion_roll ---------------------------------------------------------------------------------------------------

def test_with_phase_keeps_the_players_order():
    game = GameHelpers(base_game())
    assert game.with_phase(["Italians", "Germans"], "CombatMove") == ["Italians", "Germans"]
    assert game.with_phase(["Italians", "Germans"], "Politics") == ["Italians", "Germans"]
    assert game.with_phase(["Germans"], "Tech") == []


# --- new_power -------------------------------------------------------------------------------------------------------

def test_new_power_names_and_lands():
    # S001-R65: Canada from the British; G-NEW: Hungary after Italy
    assert default_step_prefix("Canada") == "canada"
    assert default_step_prefix("UK_Pacific") == "uK_Pacific"
    assert capital_first("Ontario", ["Quebec", "Ontario", "Alberta"]) == ["Ontario", "Quebec", "Alberta"]
    assert capital_first("Danube", []) == ["Danube"]
    game = GameHelpers(base_game())
    assert game.new_turn_anchor("Italians", "", "") == "italiansEndTurn"
    assert game.new_turn_anchor("Italians", "", "Germans") == "germansEndTurn"
    assert game.new_turn_anchor("Italians", "Russians", "") == "russiansPurchase"


# --- placement_area --------------------------------------------------------------------------------------------------

def test_placement_places():
    # G-PLACE: infantry also in the extra territories
    assert placement_places("infantry", ["Berlin Region", "Bavaria"], ["infantry"], ["Warsaw", "Bavaria"]) == [
        "Berlin Region", "Bavaria", "Warsaw"]
    assert placement_places("armour", ["Berlin Region"], ["infantry"], ["Warsaw"]) == ["Berlin Region"]


# --- user_action -----------------------------------------------------------------------------------------------------

def test_user_action_partners_and_slots():
    # the examples' user actions: accept: [British], per_turn: 2
    assert partners(["British", ""]) == ["British"] and partners([""]) == []
    shared = "conditionAttachment_S000_R02_Russians"
    assert slot_gate(shared, 1, 2) == [f"{shared}_Slot_1"]
    assert slot_gate(shared, 2, 2) == [f"{shared}_Slot_2", f"{shared}_Slot_1_Used"]
    assert slot_gate(shared, 1, 0) == []


# --- purchase_window: the allowance ----------------------------------------------------------------------------------

def test_round_amounts():
    # S000-R01: 9 PUs in every window; the examples' other window: 8 in round 3, one less each round after
    assert round_amounts([9], 1) == [RoundAmount(9, None, "")]
    assert round_amounts([8, 7, 6, 5, 4, 3, 2, 1], 3)[:3] == [
        RoundAmount(8, 3, "_R3"), RoundAmount(7, 4, "_R4"), RoundAmount(6, 5, "_R5")]
    assert round_amounts([8, 7, 6, 5, 4, 3, 2, 1], 3)[-1] == RoundAmount(1, 10, "_R10")
    assert round_amounts([8, 7], 0) == [RoundAmount(8, 0, "_R0"), RoundAmount(7, 1, "_R1")]


# --- condition -------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("combine", ["AND", "OR", "2", "2-3", "2-+"])
def test_checked_combine_takes_and_or_and_counts(combine):
    assert checked_combine(combine) == combine


@pytest.mark.parametrize("combine", ["and", "XOR", "", "two"])
def test_checked_combine_refuses_the_rest(combine):
    with pytest.raises(LookupError) as err:
        checked_combine(combine)
    assert err.value.args[0] == f"combine must be AND, OR or a range such as 2-3, not '{combine}'"


# --- user_action: clear_seas ----------------------------------------------------------------------------------------

def test_each_once_keeps_the_first_place_and_the_case():
    assert each_once(["Black Sea", "Baltic Sea", "Black Sea"]) == ["Black Sea", "Baltic Sea"]
    assert each_once(["Kiev", "kiev"]) == ["Kiev", "kiev"]


# --- the gate of a trigger (production_frontier, random_event, switch, unit_gift, unit_property) -------------------

def test_the_gate_is_the_conditions_or_one_that_always_holds():
    values = {name: default for name, (_, default, _) in CONDITION_PARAMS.items()}
    assert Conditions.from_params(values).gate("conditionAttachment_G_UP") == ["conditionAttachment_G_UP_Always"]
    # S002-R15: the rule's conditions and an at_war_with test
    given = dict(values, at_war_with=["Germany"], conditions=["conditionAttachment_S002_R15_War_New"])
    assert Conditions.from_params(given).gate("conditionAttachment_S002_R15") == [
        "conditionAttachment_S002_R15_War_New", "conditionAttachment_S002_R15"]


# --- purchase_window: the capitals a player must hold to buy --------------------------------------------------------

def test_capitals_kept():
    game = GameHelpers(base_game())
    assert game.capitals_kept("Russians") == "1"
    assert game.capitals_kept("Romanians") == "0"  # no capital (and no such player: nothing to read)
    kept = game_with(attachment("playerAttachment", "Russians", "PlayerAttachment", retainCapitalProduceNumber="2"))
    assert kept.capitals_kept("Russians") == "2"
