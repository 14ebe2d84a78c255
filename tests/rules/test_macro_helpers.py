"""The Python helpers macro templates call: the merged sequence of combined_turns
(generator/rules/steps.py) and the options of effects and presence entries
(generator/rules/effects.py), each on small step lists and mappings."""
from __future__ import annotations

import pytest

from generator.model import game as m
from generator.rules.effects import effect_options, presence_conditions, presence_names
from generator.rules.steps import combine_turns, reorder_turns


def turn(prefix: str, player: str, *phases: str) -> list[m.Step]:
    return [m.Step(prefix + phase, phase[0].lower() + phase[1:], player) for phase in phases]


FULL = ("Purchase", "CombatMove", "Battle", "NonCombatMove", "Place", "EndTurn")
SEQUENCE = [m.Step("init", "initDelegate"), *turn("germans", "Germans", *FULL),
            *turn("russians", "Russians", *FULL), *turn("italians", "Italians", "Tech", *FULL),
            m.Step("endRound", "endRound")]


def names(steps: list[m.Step]) -> list[str]:
    return [s.name for s in steps]


def test_a_combined_turn_puts_the_members_steps_around_the_leaders_moves():
    combined = combine_turns(SEQUENCE, {"Germans": ["Italians"]})
    assert names(combined) == [
        "init", "germansPurchase", "italiansTech", "italiansPurchase", "germansCombatMove", "germansBattle",
        "germansNonCombatMove", "germansPlace", "germansEndTurn", "italiansPlace", "italiansEndTurn",
        *names(turn("russians", "Russians", *FULL)), "endRound"]
    moves = {s.name: s for s in combined if s.name.endswith("CombatMove")}
    assert [(p.name, p.value) for p in moves["germansCombatMove"].properties] == [("combinedTurns", "Germans:Italians")]
    assert [(p.name, p.value) for p in moves["germansNonCombatMove"].properties] == [
        ("combinedTurns", "Germans:Italians")]
    assert combined[5] is SEQUENCE[3]  # the battle step is the leader's own, unchanged
    assert SEQUENCE[2].properties == []  # the game's steps are not modified


def test_a_leaders_own_combined_turns_list_is_kept_and_extended():
    steps = [*turn("germans", "Germans", *FULL), *turn("italians", "Italians", *FULL)]
    steps[1] = m.Step("germansCombatMove", "move", "Germans",
                      properties=[m.StepProperty("combinedTurns", "Germans:Finns"), m.StepProperty("x", None)])
    combined = {s.name: s for s in combine_turns(steps, {"Germans": ["Italians"]})}
    assert [(p.name, p.value) for p in combined["germansCombatMove"].properties] == [("x", None),
                                                                   ("combinedTurns", "Germans:Finns:Italians")]


def test_a_combined_turn_stands_where_the_groups_first_turn_stood():
    combined = combine_turns(SEQUENCE, {"Italians": ["Germans"]})
    assert names(combined)[:5] == ["init", "italiansTech", "italiansPurchase", "germansPurchase",
                                   "italiansCombatMove"]
    assert names(combined)[9:12] == ["germansPlace", "germansEndTurn", "russiansPurchase"]
    assert "germansBattle" not in names(combined) and names(combined)[-1] == "endRound"


@pytest.mark.parametrize("groups, message", [
    ({"Germans": ["Italians"], "Russians": ["Italians"]}, "groups: Italians is in more than one group"),
    ({"Germans": ["Germans"]}, "groups: Germans is in more than one group"),
    ({"Germans": ["Finns"]}, "Finns has no turn in the game's sequence"),
])
def test_groups_the_sequence_cannot_serve_are_refused(groups, message):
    with pytest.raises(LookupError) as caught:
        combine_turns(SEQUENCE, groups)
    assert str(caught.value) == message


def test_a_turn_without_moves_cannot_be_combined():
    steps = [*turn("germans", "Germans", *FULL), *turn("finns", "Finns", "Purchase", "Place", "EndTurn")]
    with pytest.raises(LookupError, match="Finns has no move or battle step in its turn"):
        combine_turns(steps, {"Germans": ["Finns"]})


def test_reordered_turns_keep_set_up_and_end_of_round_steps_in_place():
    reordered = reorder_turns(SEQUENCE, ["Italians", "Germans", "Russians"])
    assert names(reordered)[:3] == ["init", "italiansTech", "italiansPurchase"] and names(reordered)[-1] == "endRound"
    with pytest.raises(LookupError, match="the new order leaves out Russians"):
        reorder_turns(SEQUENCE, ["Italians", "Germans"])


def test_an_effect_becomes_its_triggers_options_in_the_engines_order():
    effect = {"resource": -2, "territory_properties": {"originalOwner": "Italians"}, "territories": ["Bavaria"],
              "switch": "conditionAttachment_Open", "place": {"Kiev": {"infantry": 1, "armour": 2}},
              "gift": {"infantry": 3}, "ownership": ["Bavaria:Germans:Italians:false"]}
    assert effect_options(effect, "Germans") == [
        ("players", "Germans", None), ("purchase", "infantry", 3), ("placement", "Kiev:infantry", 1),
        ("placement", "Kiev:armour", 2), ("changeOwnership", "Bavaria:Germans:Italians:false", None),
        ("playerAttachmentName", "RulesAttachment", "conditionAttachment_Open"),
        ("playerProperty", "switch", "false"), ("territories", "Bavaria", None),
        ("territoryAttachmentName", "TerritoryAttachment", "territoryAttachment"),
        ("territoryProperty", "originalOwner", "Italians"), ("resource", "PUs", None), ("resourceCount", -2, None)]


def test_an_effect_for_other_players_and_a_switch_set_on():
    assert effect_options({"players": "Russians", "switch": "S", "switch_value": True}, "Germans") == [
        ("players", "Russians", None), ("playerAttachmentName", "RulesAttachment", "S"),
        ("playerProperty", "switch", "true")]


def test_presence_entries_become_conditions_with_an_inverted_upper_bound():
    presence = {"Guard post": {"territory": "Malta", "units": ["infantry"], "at_least": 2, "fewer_than": 4},
                "Fleet": {"territories": ["Sea 1", "Sea 2"], "players": ["British"], "count": 2}}
    assert presence_conditions(presence, "conditionAttachment_R1", "Italians") == [
        ("conditionAttachment_R1_Guard_post", [("players", "Italians", None),
                                               ("directPresenceTerritories", "Malta", 1),
                                               ("unitPresence", "infantry", 2)]),
        ("conditionAttachment_R1_Guard_post_Fewer", [("players", "Italians", None),
                                                     ("directPresenceTerritories", "Malta", 1),
                                                     ("unitPresence", "infantry", 4), ("invert", "true", None)]),
        ("conditionAttachment_R1_Fleet", [("players", "British", None),
                                          ("directPresenceTerritories", "Sea 1:Sea 2", 2),
                                          ("unitPresence", "ANY", 1)])]
    assert presence_names(presence, "c") == ["c_Guard_post", "c_Guard_post_Fewer", "c_Fleet"]


def test_class_names_come_from_the_catalog_not_from_the_templates():
    from conftest import REPO

    from generator.catalog import load_catalog
    from generator.rules.classes import java_class

    assert java_class("TriggerAttachment") == f"{load_catalog().attachment_package}.TriggerAttachment"
    with pytest.raises(LookupError, match="no attachment class 'RuleAttachment' .did you mean 'RulesAttachment'"):
        java_class("RuleAttachment")
    templates = sorted((REPO / "templates" / "rules").glob("*.j2"))
    assert templates and [p.name for p in templates if load_catalog().attachment_package in p.read_text()] == []


def test_an_attachment_takes_its_class_and_type_from_the_catalog():
    """One spelling: {{ c.attachment("RulesAttachment", name, player) }}; no template writes a class's
    javaClass and type= by hand (the two that copy an existing attachment's class excepted)."""
    import re

    from conftest import REPO

    from generator.rules.classes import attachment_type

    assert (attachment_type("RulesAttachment"), attachment_type("TerritoryEffectAttachment")) == \
        ("player", "territoryEffect")
    written = {path.name: re.findall(r'javaClass="\{\{ (?!copied\.|tech\.)[^"]*" type="\w+"', path.read_text())
               for path in (REPO / "templates" / "rules").glob("*.j2") if path.name != "_common.j2"}
    assert {name: found for name, found in written.items() if found} == {}


def _helpers_of(steps: list[tuple[str, str | None]]):
    from generator.model import game as m
    from generator.rules.helpers import GameHelpers

    game = m.Game(players=[m.Player("Germans"), m.Player("Russians")],
                  steps=[m.Step(name, "d", player) for name, player in steps])
    return GameHelpers(game)


TURN_SEQUENCE = [("gameInitDelegate", None), ("germansPurchase", "Germans"), ("germansBattle", "Germans"),
            ("germansEndTurn", "Germans"), ("russianPurchase", "Russians"), ("russianEndTurn", "Russians"),
            ("endRound", None)]


def test_the_turn_prefix_is_a_phase_step_without_its_phase():
    """Macros used to slice it off by length ([:-7] of EndTurn, [:-8] of Purchase)."""
    helpers = _helpers_of(TURN_SEQUENCE)
    assert helpers.turn_prefix("Germans") == "germans"
    assert helpers.turn_prefix("Russians", "Purchase") == "russian"


def test_the_steps_of_the_turns_and_the_host_of_a_step():
    helpers = _helpers_of(TURN_SEQUENCE)
    assert helpers.turn_step_names() == [name for name, player in TURN_SEQUENCE if player]
    assert [s.player for s in helpers.turn_steps()][:3] == ["Germans"] * 3
    assert helpers.host_of("russianPurchase") == "Russians"
    assert helpers.host_of("endRound") == "" and helpers.host_of("noSuchStep") == ""


def test_a_combined_turns_property_without_a_value_lists_the_leader_and_members():
    steps = [*turn("germans", "Germans", *FULL), *turn("italians", "Italians", *FULL)]
    steps[1] = m.Step("germansCombatMove", "move", "Germans", properties=[m.StepProperty("combinedTurns", None)])
    combined = {s.name: s for s in combine_turns(steps, {"Germans": ["Italians"]})}
    assert [(p.name, p.value) for p in combined["germansCombatMove"].properties] == [
        ("combinedTurns", "Germans:Italians")]
