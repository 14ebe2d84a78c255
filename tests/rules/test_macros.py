"""The rule macros: each one's rendered fragment against a reviewed golden file,
the macro header language (typed parameters, helpers), and the errors a rule
gets for an unknown macro or a missing or mistyped parameter.

Regenerate the golden files after a deliberate change with
    TRIPLEA_GEN_UPDATE_GOLDEN=1 python -m pytest tests/rules/test_macros.py
and review the difference before committing it."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import REPO, missing, requires_engine
from generator.cli.main import main
from generator.rules.macros import load_macros
from generator.builder.pipeline import load_spec
from generator.read.yamlio import load_yaml_file

GOLDEN = REPO / "tests" / "golden" / "rules"
CASES = sorted(p for p in GOLDEN.glob("*.yaml") if p.name != "base.yaml")


def rendered_fragments(spec: Path) -> str:
    """Every rule's rendered fragments, each headed by its rule id and macro."""
    return "".join(f"<!-- {record.id}: {record.macro or 'status notes'} -->\n" + "".join(record.fragments)
                   for record in load_spec(spec).rules)


def test_every_shipped_macro_has_a_golden_case():
    assert sorted(load_macros()) == [p.stem for p in CASES]


def test_the_g40_showcase_uses_the_original_macro_set():
    rules = load_yaml_file(REPO / "rules_yaml" / "g40_showcase.yaml")["rules"]
    assert {rule.get("use") for rule in rules} - {None} >= {
        "national_objective", "national_penalty", "first_war_payment", "round_payment", "round_ladder",
        "political_action", "relationship_change", "ownership_transfer", "free_placement", "marines",
        "paratroopers", "capture_destroys_money", "impassable", "territory_value", "turn_order", "new_power",
        "neutral_garrison", "notes_only"}


def test_every_shipped_macro_is_used_by_an_example():
    """tests/examples/test_examples.py plays every example in the engine, so each macro reaches it."""
    used = set()
    for spec in (REPO / "rules_yaml").glob("*.yaml"):
        data = load_yaml_file(spec)
        used |= {rule.get("use") for rule in (data or {}).get("rules") or [] if isinstance(rule, dict)}
    assert set(load_macros()) - used == set()


@pytest.mark.parametrize("spec", CASES, ids=[p.stem for p in CASES])
def test_macro_renders_its_golden_fragment(spec: Path):
    actual = rendered_fragments(spec)
    golden = spec.with_suffix(".xml")
    if os.environ.get("TRIPLEA_GEN_UPDATE_GOLDEN"):
        # Update mode only writes: comparing with what was just written could never fail.
        changed = not golden.is_file() or golden.read_text(encoding="utf-8") != actual
        if changed:
            golden.write_text(actual, encoding="utf-8")
        pytest.skip(f"update mode: {golden.name} {'written; review the difference' if changed else 'unchanged'}, "
                    "then run without TRIPLEA_GEN_UPDATE_GOLDEN to compare")
    assert golden.is_file(), f"no golden file {golden.name}: run with TRIPLEA_GEN_UPDATE_GOLDEN=1 and review it"
    assert actual == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("spec", CASES, ids=[p.stem for p in CASES])
@pytest.mark.parametrize("engine", ["1.9", "current"])
def test_golden_case_builds_and_validates_clean(spec: Path, engine: str, tmp_path: Path, capsys):
    assert main(["build", str(spec), "-o", str(tmp_path), "--engine", engine]) == 0
    assert " error[" not in capsys.readouterr().err


def test_a_specs_own_macro_can_use_the_shipped_helpers(tmp_path: Path):
    (tmp_path / "my_macros").mkdir()
    (tmp_path / "my_macros" / "war_chest.xml.j2").write_text("""\
{#---
description: Money for a player while conditions hold, paid before its purchase.
conditions: true
note: Paid before the purchase step.
params:
  player: {type: player}
  amount: {type: int}
---#}
{% import "_common.j2" as c %}
{% set base = "conditionAttachment_" ~ key %}
<fragment>
  <attachmentList>
    {{ c.conditions(condition, base, player) }}
    <attachment name="triggerAttachment_{{ key }}" attachTo="{{ player }}" javaClass="{{ c.TRIGGER }}" type="player">
      {{ c.conditions_option(condition.names(base)) }}
      {{ c.option("resource", "PUs") }}
      {{ c.option("resourceCount", amount) }}
      {{ c.option("when", "before:" ~ game.phase_step(player, "Purchase")) }}
    </attachment>
  </attachmentList>
</fragment>
""", encoding="utf-8")
    spec = tmp_path / "mod.yaml"
    spec.write_text(f"""\
mod: {{name: Own macros, base: {GOLDEN / 'base.yaml'}, macros: my_macros}}
rules:
  - {{id: W1, text: War chest., use: war_chest, with: {{player: Russians, amount: 4, owns: [Kiev]}}}}
""", encoding="utf-8")
    (record,) = load_spec(spec).rules
    assert record.details == ["Paid before the purchase step."]
    assert record.generated == ["conditionAttachment_W1", "triggerAttachment_W1"]
    assert '<option name="when" value="before:russiansPurchase"/>' in record.fragments[0]


@pytest.mark.parametrize("rule, message", [
    ("{use: turn_order, with: {order: [Germans, Russians]}}",
     "macro 'turn_order': the new order leaves out Italians; list every turn: Germans, Russians, Italians"),
    ("{use: new_power, with: {player: Italians, template: Germans, capital: Danube}}",
     "macro 'new_power': the game already has a player called 'Italians'"),
    ("{use: marines, with: {units: [destroyer]}}",
     "macro 'marines': destroyer is not a land unit; only land units can be marines (1.9 refuses isMarine on sea "
     "units)"),
    ("{use: ownership_transfer, with: {territories: [Kiev], from: Russians, to: Germans, convert_units: true, "
     "block: 3}}",
     "macro 'ownership_transfer': block needs rest_when: the steps at which the units left over convert"),
    ("{use: ownership_transfer, with: {territories: [Kiev], from: Russians, to: Germans, convert_units: true, "
     "rest_when: [before:germansBattle]}}",
     "macro 'ownership_transfer': rest_when needs block: how many units a rung converts at when"),
    ("{use: neutral_garrison, with: {garrisons: {Kiev: {infantry: 2}}}}",
     "macro 'neutral_garrison': Kiev belongs to Russians, who plays turns; garrisons are for neutral territories "
     "(change the units with change: initialUnits)"),
    ("{use: political_action, with: {player: Russians, targets: [Italians], to: War, accept: [Germans], automatic: true}}",
     "macro 'political_action': an automatic action cannot wait for other players to accept it: leave out accept "
     "or automatic"),
    ("{use: user_action, with: {player: Russians, automatic: true, automatic_option: Auto Events, "
     "effects: {Paid: {resource: 1}}}}",
     "macro 'user_action': the game has no option 'Auto Events': declare it under add: properties: (Auto Events: "
     "{value: true, editable: true, type: boolean})"),
])
def test_what_a_macro_cannot_do_is_reported_at_the_rule(rule: str, message: str, tmp_path: Path, capsys):
    spec = tmp_path / "mod.yaml"
    spec.write_text(f"mod: {{name: Bad, base: {GOLDEN / 'base.yaml'}}}\nrules:\n  - {{id: R1, text: x, "
                    f"{rule[1:]}\n", encoding="utf-8")
    assert main(["build", str(spec), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"mod.yaml:3:5: error[TG063]: {message}" in err, err


# --- fixes of issue 18: actions the engine's AI never takes, paid wars, one level a turn ------------------------

def rule_options(spec: Path, rule_id: str) -> dict[str, list[tuple[str, str, str | None]]]:
    """Every attachment a rule renders: name -> its options as (name, value, count)."""
    from lxml import etree

    (record,) = [r for r in load_spec(spec).rules if r.id == rule_id]
    attachments = {}
    for fragment in record.fragments:
        for attachment in etree.fromstring(fragment.encode()).iter("attachment"):
            attachments[attachment.get("name")] = [(o.get("name"), o.get("value"), o.get("count"))
                                                  for o in attachment.iter("option")]
    return attachments


def option_values(options: list, name: str) -> list[str]:
    return [value for option, value, _ in options if option == name]


def test_counter_ladder_records_at_most_one_level_a_turn():
    # S002-R13: the RGT could be raised from 0 to 50 in one diplomacy step, every level's action being
    # open at once; now each action needs the turn's switch unset and sets it, and the switch is
    # cleared before the recording step
    attachments = rule_options(GOLDEN / "counter_ladder.yaml", "G-TENSION")
    actions = {name: options for name, options in attachments.items() if name.startswith("userActionAttachment_")}
    assert sorted(actions) == [f"userActionAttachment_G_TENSION_{level}" for level in (10, 20, 30)]
    for options in actions.values():
        assert "conditionAttachment_G_TENSION_Not_Raised" in option_values(options, "conditions")[0].split(":")
        assert "triggerAttachment_G_TENSION_Raised:1:false:false:false:false" in option_values(options, "activateTrigger")
    assert ("playerProperty", "switch", "true") in attachments["triggerAttachment_G_TENSION_Raised"]
    reset = attachments["triggerAttachment_G_TENSION_Raised_Reset"]
    assert ("playerProperty", "switch", "false") in reset
    assert option_values(reset, "when") == ["before:russiansUserActions"]


def test_an_automatic_declaration_happens_by_itself_after_politics_and_is_paid():
    attachments = rule_options(GOLDEN / "political_action.yaml", "G-PA-AUTO")
    trigger = attachments["triggerAttachment_G_PA_AUTO_Automatic"]
    assert option_values(trigger, "when") == ["after:russiansPolitics"]
    assert option_values(trigger, "relationshipChange") == ["Russians:Germans:any:War", "Russians:Italians:any:War"]
    assert option_values(trigger, "resourceCount") == ["-3"] and option_values(trigger, "players") == ["Russians"]
    # only while a war it declares is missing, so it is neither paid twice nor repeated every turn
    assert option_values(trigger, "conditions") == ["conditionAttachment_G_PA_AUTO:conditionAttachment_G_PA_AUTO_Not_Yet"]
    not_yet = attachments["conditionAttachment_G_PA_AUTO_Not_Yet"]
    assert option_values(not_yet, "relationship") == ["Russians:Germans:War", "Russians:Italians:War"]
    assert option_values(not_yet, "invert") == ["true"]
    # the button stays for a human player
    assert "politicalActionAttachment_G_PA_AUTO" in attachments
    assert not [name for name in rule_options(GOLDEN / "political_action.yaml", "G-PA") if name.endswith("_Automatic")]


def test_an_automatic_user_action_happens_when_nobody_took_it():
    attachments = rule_options(GOLDEN / "user_action.yaml", "G-DEMAND")
    trigger = attachments["triggerAttachment_G_DEMAND_Automatic"]
    assert option_values(trigger, "when") == ["after:russiansUserActions"]
    assert option_values(trigger, "conditions") == ["conditionAttachment_G_DEMAND:conditionAttachment_G_DEMAND_Not_Taken"]
    assert option_values(trigger, "activateTrigger") == ["triggerAttachment_G_DEMAND_Demand:1:false:false:false:false"]
    assert option_values(trigger, "resourceCount") == ["-1"]
    # taking the action by hand marks it taken for the turn; the mark is cleared before the step
    action = attachments["userActionAttachment_G_DEMAND"]
    assert "triggerAttachment_G_DEMAND_Taken:1:false:false:false:false" in option_values(action, "activateTrigger")
    assert option_values(attachments["triggerAttachment_G_DEMAND_Taken_Reset"], "when") == ["before:russiansUserActions"]


def converted(attachments: dict, territory: str, unit: str, present: int,
              stages=(["after:germansCombatMove"], ["before:germansBattle"])) -> int:
    """How many of `present` units an ownership_transfer's rungs convert, fired as the engine fires them:
    each step tests every condition once before any trigger of that step fires, so the blocks fire
    against the units first present and the rest rungs against what the blocks left."""
    def rungs(steps_of_stage):
        found = []
        for name, options in attachments.items():
            removal = [(value, count) for option, value, count in options if option == "removeUnits"]
            if name.endswith("_Remove") and removal and removal[0][0] == f"{territory}:{unit}":
                condition = next(value for option, value, _ in options if option == "conditions").split(":")[-1]
                threshold = int(next(c for o, _, c in attachments[condition] if o == "unitPresence"))
                if option_values(options, "when") == steps_of_stage:
                    found.append((threshold, int(removal[0][1])))
        return found
    left = present
    for stage in stages:
        left -= sum(amount for threshold, amount in rungs(stage) if left >= threshold)
    return present - left


def test_an_ownership_transfer_converts_every_unit_up_to_its_limit_in_blocks_and_the_rest():
    # S004-R25: of 3 French infantry and an armour in Algeria, 2 infantry became Vichy (2 rungs a type,
    # only the types France started with there); blocks of units then the rest convert them all with
    # few rungs
    attachments = rule_options(GOLDEN / "ownership_transfer.yaml", "G-OT-BLOCK")
    assert [converted(attachments, "Kiev", "infantry", n) for n in range(11)] == [0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8]
    assert [converted(attachments, "Black Sea", "destroyer", n) for n in range(4)] == [0, 1, 2, 2]
    # ships get no rungs on land, land units none at sea
    assert not [name for name in attachments if "Kiev_destroyer" in name or "Black_Sea_infantry" in name]
    # the rest converts only right after the blocks: a switch on with them, off again at the rest step
    assert option_values(attachments["triggerAttachment_G_OT_BLOCK_Rest_On"], "when") == ["after:germansCombatMove"]
    assert option_values(attachments["triggerAttachment_G_OT_BLOCK_Rest_Off"], "when") == ["before:germansBattle"]
    assert option_values(attachments["triggerAttachment_G_OT_BLOCK_Kiev_infantry_Rest_1_Place"], "conditions") == [
        "conditionAttachment_G_OT_BLOCK_Rest:conditionAttachment_G_OT_BLOCK_Kiev_infantry_Rest_1"]
    # one rung a unit, as before, without block
    single = rule_options(GOLDEN / "ownership_transfer.yaml", "G-OT")
    assert [converted(single, "Smolensk", "infantry", n, [["before:germansCombatMove"]]) for n in range(4)] == [
        0, 1, 2, 2]


def test_an_ownership_transfer_of_every_type_takes_what_the_menu_sells_and_what_stands_there(tmp_path: Path):
    # S004-R25 named the types France might hold; a control built without the rule that adds marines then
    # failed (no unit type 'marine'): every_type follows the game's menu instead
    spec = tmp_path / "mod.yaml"
    spec.write_text(f"""mod: {{name: Every, base: {GOLDEN / 'base.yaml'}}}
rules:
  - id: R1
    text: Kiev and the Black Sea go over to Germany with every Soviet unit in them.
    use: ownership_transfer
    with: {{territories: [Kiev, Black Sea], from: Russians, to: Germans, convert_units: true, every_type: true,
            max_units: 1, limits: {{factory: 0}}}}
""", encoding="utf-8")
    placed = {value for options in rule_options(spec, "R1").values() for option, value, _ in options
              if option == "placement"}
    assert placed == {"Kiev:infantry", "Kiev:artillery", "Kiev:armour", "Kiev:fighter",
                      "Black Sea:transport", "Black Sea:destroyer"}


def test_a_relationship_change_can_charge_the_player():
    # S002-R78: a Russian war on a German minor became a free war with Germany
    trigger = rule_options(GOLDEN / "relationship_change.yaml", "G-RC-PAID")["triggerAttachment_G_RC_PAID"]
    assert option_values(trigger, "relationshipChange") == ["Russians:Italians:any:War"]
    assert (option_values(trigger, "players"), option_values(trigger, "resource"),
            option_values(trigger, "resourceCount")) == (["Russians"], ["PUs"], ["-5"])
    # never paid for a change already made (S002-R78 charged Russia when it was at war with Germany already)
    attachments = rule_options(GOLDEN / "relationship_change.yaml", "G-RC-PAID")
    assert option_values(trigger, "conditions")[0].split(":")[-1] == "conditionAttachment_G_RC_PAID_Not_Yet"
    not_yet = attachments["conditionAttachment_G_RC_PAID_Not_Yet"]
    assert option_values(not_yet, "relationship") == ["Russians:Italians:War"]
    assert option_values(not_yet, "invert") == ["true"]
    unpaid = rule_options(GOLDEN / "relationship_change.yaml", "G-RC")["triggerAttachment_G_RC"]
    assert option_values(unpaid, "resourceCount") == []


def test_a_political_action_without_conditions_gets_one_that_always_holds(monkeypatch):
    # found by g40_showcase's scenario canada-declares-war-on-japan: 1.9 offers a political action only
    # when its conditions hold and holds an empty list false, so an action without any was never offered
    from conftest import SHARED, SHARED_MISSING

    if not (SHARED / "maps" / "world_war_ii_global").is_dir():
        missing(SHARED_MISSING)
    monkeypatch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    attachments = rule_options(REPO / "rules_yaml" / "g40_showcase.yaml", "S001-R70")
    action = attachments["politicalActionAttachment_S001_R70"]
    assert option_values(action, "conditions") == ["conditionAttachment_S001_R70_Always"]
    assert attachments["conditionAttachment_S001_R70_Always"] == [("switch", "true", None)]
    # an action with conditions of its own is left as it was
    assert not [name for name in rule_options(GOLDEN / "political_action.yaml", "G-PA") if name.endswith("_Always")]


HAND_WRITTEN_VICTORY = """\
rules:
  - id: WIN
    text: Germany wins holding Moscow Region.
    add:
      attachments:
        - {name: conditionAttachment_Win, attachTo: Germans, class: RulesAttachment, type: player,
           options: {directOwnershipTerritories: {value: Moscow Region, count: 1}}}
        - {name: triggerAttachment_Win, attachTo: Germans, class: TriggerAttachment, type: player,
           options: {conditions: conditionAttachment_Win, victory: Win, players: Germans}}
"""


def test_a_hand_written_victory_the_engine_never_fires_is_warned_at_its_yaml_line(tmp_path: Path, capsys):
    """Issue 27.1: without Triggered Victory a victory trigger with no `when` never fires (both engines'
    EndRoundDelegate); build and validate said nothing."""
    spec = tmp_path / "mod.yaml"
    spec.write_text(f"mod: {{name: Hand victory, base: {GOLDEN / 'base.yaml'}}}\n" + HAND_WRITTEN_VICTORY,
                    encoding="utf-8")
    assert main(["build", str(spec), "-o", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert (f"{spec}:10:59: warning[TG176]: victory trigger 'triggerAttachment_Win' never fires: without `when` a "
            "victory is tested at the end of each round, and only in a game with the property 'Triggered Victory' "
            "set to true\n  hint: switch the property on (a mod: change: {properties: {Triggered Victory: true}}), "
            "or write the rule with the `victory` macro, which does") in err
    spec.write_text(spec.read_text(encoding="utf-8") + "change: {properties: {Triggered Victory: true}}\n",
                    encoding="utf-8")
    assert main(["build", str(spec), "-o", str(tmp_path / "out")]) == 0
    assert "TG176" not in capsys.readouterr().err


def test_the_victory_macro_switches_on_what_its_trigger_needs():
    (at_round_end, at_a_step) = load_spec(GOLDEN / "victory.yaml").rules
    game = load_spec(GOLDEN / "victory.yaml").game
    assert {p.name: p.value for p in game.properties if p.name in ("Triggered Victory", "Use Triggers")} == {
        "Triggered Victory": "true", "Use Triggers": "true"}
    assert at_round_end.details == ["Tested at the end of every round."]
    assert at_a_step.details == ["Tested after russiansEndTurn."]


@pytest.mark.parametrize("with_, message", [
    ("{winners: [Germans]}", "give the territories or capitals the winners must hold"),
    ("{winners: [Germans], territories: [Kiev, Minsk], count: 3}", "count must be all or a number from 1 to 2, not 3"),
    ("{winners: [Germans], territories: [Kiev], count: some}", "count must be all or a number from 1 to 1, not some"),
])
def test_a_victory_without_what_to_hold_is_refused(tmp_path: Path, capsys, with_: str, message: str):
    spec = tmp_path / "mod.yaml"
    spec.write_text(f"mod: {{name: V, base: {GOLDEN / 'base.yaml'}}}\n"
                    f"rules:\n  - {{id: V, text: A victory., use: victory, with: {with_}}}\n", encoding="utf-8")
    assert main(["build", str(spec), "-o", str(tmp_path / "out")]) != 0
    assert message in capsys.readouterr().err


@pytest.mark.engine
@requires_engine
def test_the_victory_macro_ends_the_game_in_the_engine(tmp_path: Path, capsys):
    """rules_yaml/hex_skirmish.yaml: the Leagues hold Redhold at the end of round 1 and win (1.9's
    EndRoundDelegate fires the trigger because the macro set Triggered Victory); without the rule nobody wins."""
    spec = REPO / "rules_yaml" / "hex_skirmish.yaml"
    assert main(["test", str(spec), "--scenario", "league-wins-holding-redhold", "-o", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "ok   history" in out and "Players: Blues and Greens have just won the game" in out
    assert "FAIL history" in out and "=> backed" in out


@pytest.mark.engine
@requires_engine
def test_a_victory_at_a_step_ends_the_game_there(tmp_path: Path, capsys):
    """With `when` the trigger fires at that step (Use Triggers, which the macro sets), not at the round's end."""
    spec = tmp_path / "step_victory.yaml"
    spec.write_text(f"""\
mod: {{name: Step victory, base: {GOLDEN / 'base.yaml'}, engine: "1.9"}}
rules:
  - id: V
    text: Russia wins when it holds Warsaw and Kiev after its own turn.
    use: victory
    with: {{winners: [Russians], territories: [Warsaw, Kiev], when: [after:russiansEndTurn]}}
scenarios:
  - id: russia-wins-after-its-turn
    rule: V
    given: {{round: 1, step: russiansEndTurn}}
    play: {{rounds: 1}}
    expect:
      - history: "Players: Russians have just won the game"
      - no_history: Italians collect
""", encoding="utf-8")
    assert main(["test", str(spec), "-o", str(tmp_path / "out"), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "round 1, step russiansEndTurn: Players: Russians have just won the game" in out
    assert "=> backed" in out


def test_a_purchase_window_leaves_a_player_without_capital_able_to_buy(tmp_path: Path):
    """The window's playerAttachment makes the engine ask for retainCapitalProduceNumber capitals (1 by
    default) before any purchase, where a player without attachment and without capital was asked for
    none: such a player keeps 0 after each window, or it could never buy again."""
    spec = tmp_path / "window.yaml"
    spec.write_text(f"""mod: {{name: Window, version: "1.0", base: {GOLDEN / "base.yaml"}}}
change:
  attachments:
    - {{name: territoryAttachment, attachTo: Rome Region, options: {{capital: null}}}}
rules:
  - id: W
    text: Italy buys in the German turn while at war with the USSR.
    use: purchase_window
    with: {{player: Italians, after: [germansCombatMove], open_when: [after:germansPolitics],
            at_war_with: [Russians]}}
""", encoding="utf-8")
    fragment = "".join(load_spec(spec).rules[0].fragments)
    assert '<option name="playerProperty" value="retainCapitalProduceNumber" count="0"/>' in fragment
    assert '<option name="retainCapitalProduceNumber" value="0"/>' in fragment
