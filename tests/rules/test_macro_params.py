"""Mapping parameters that declare their keys and values in the macro header: the loader
checks a rule's mappings against the declaration, at the rule's line, before any template
renders; a header whose declaration is itself wrong is a located TG067."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO

from generator.cli.main import main
from generator.rules.macros import NO_DEFAULT, MacroError, _read_macro, load_macros

BASE = REPO / "tests" / "golden" / "rules" / "base.yaml"


def build_errors(tmp_path: Path, capsys, monkeypatch, rule: str) -> list[str]:
    monkeypatch.chdir(tmp_path)
    spec = tmp_path / "mod.yaml"
    spec.write_text(f"mod: {{name: Bad, base: {BASE}}}\nrules:\n  - id: R1\n    text: x\n{rule}", encoding="utf-8")
    assert main(["build", "mod.yaml", "-o", "out"]) == 2
    assert not (tmp_path / "out").exists()
    return [line for line in capsys.readouterr().err.splitlines() if line.strip()]


def test_shipped_mapping_parameters_declare_what_they_hold():
    macros = load_macros()
    groups = macros["combined_turns"].params["groups"]
    assert (groups.keys, groups.values.type) == ("player", "players")
    effect = macros["user_action"].params["effects"].values
    assert effect.what == "effect" and effect.fields["territory_properties"].needs == ("territories",)
    assert set(effect.fields) == set(macros["triggered_effects"].params["effects"].values.fields)
    entry = macros["triggered_effects"].params["presence"].values
    assert entry.one_of == ("territories", "territory") and entry.fields["at_least"].type == "int"
    assert macros["triggered_effects"].params["presence"].default == {}
    assert macros["user_action"].params["effects"].default is NO_DEFAULT


@pytest.mark.parametrize("rule, expected", [
    ("    use: combined_turns\n    with: {groups: {Germans: [Italiens]}}\n",
     ["mod.yaml:6:12: error[TG061]: parameter 'groups.Germans': the game has no player 'Italiens'",
      "  hint: did you mean 'Italians'?"]),
    ("    use: combined_turns\n    with: {groups: {Germns: [Italians]}}\n",
     ["mod.yaml:6:12: error[TG061]: parameter 'groups': the game has no player 'Germns'",
      "  hint: did you mean 'Germans'?"]),
    ("    use: unit_conversion\n    with: {territories: [Kiev], from: Russians, when: [after:russiansBattle],"
     " types: {infantry: armor}}\n",
     ["mod.yaml:6:79: error[TG061]: parameter 'types.infantry': the game has no unit type 'armor'",
      "  hint: did you mean 'armour'?"]),
    ("    use: territory_effect\n    with: {name: Mud, territories: [Kiev], offense: {armour: lots}}\n",
     ["mod.yaml:6:44: error[TG062]: parameter 'offense.armour' must be a whole number, not 'lots'",
      "  hint: write a number such as 5"]),
    ("    use: user_action\n    with: {player: Russians, effects: {}}\n",
     ["mod.yaml:6:30: error[TG062]: parameter 'effects' takes a mapping with at least one entry",
      "  hint: e.g. effects: {Gift: {gift: {infantry: 1}, players: [Russians]}}"]),
    ("    use: user_action\n    with: {player: Russians, effects: {Gift: [infantry]}}\n",
     ["mod.yaml:6:30: error[TG062]: parameter 'effects.Gift': each effect is a mapping such as "
      "{gift: {infantry: 1}, players: [Russians]}",
      "  hint: its keys: players, gift, remove, place, ownership, relationships, switch, switch_value, territories, "
      "territory_properties, resource"]),
    ("    use: triggered_effects\n    with: {player: Russians, effects: {Gift: {gifts: {infantry: 1}}}}\n",
     ["mod.yaml:6:30: error[TG062]: parameter 'effects.Gift': effect: unknown key 'gifts' (keys: players, gift, "
      "remove, place, ownership, relationships, switch, switch_value, territories, territory_properties, resource)",
      "  hint: did you mean 'gift'?"]),
    ("    use: triggered_effects\n    with: {player: Russians, effects: {Gift: {gift: {infantri: 1}}}}\n",
     ["mod.yaml:6:30: error[TG061]: parameter 'effects.Gift.gift': the game has no unit type 'infantri'",
      "  hint: did you mean 'infantry'?"]),
    ("    use: triggered_effects\n    with: {player: Russians, effects: {Deed: {territory_properties: {a: b}}}}\n",
     ["mod.yaml:6:30: error[TG062]: parameter 'effects.Deed': effect: territory_properties need territories",
      "  hint: give territories too"]),
    ("    use: triggered_effects\n    with: {player: Russians, effects: {Paid: {resource: 2}},"
     " presence: {Guard: {units: [infantry]}}}\n",
     ["mod.yaml:6:62: error[TG062]: parameter 'presence.Guard': presence entry without territories or territory",
      "  hint: give territories"]),
    ("    use: national_penalty\n    with: {player: Germans, amount: -2}\n",
     ["mod.yaml:6:29: error[TG062]: parameter 'amount' must be 1 or more, not -2",
      "  hint: PUs lost each turn the conditions hold (a positive number)"]),
    ("    use: unit_count_penalty\n    with: {player: Germans, territories: [Kiev], counted: [Russians], max_units: 7}\n",
     ["mod.yaml:6:71: error[TG062]: parameter 'max_units' must be at most 6, not 7",
      "  hint: how many units are counted at most (up to 6: the ladder grows with the partitions of the count)"]),
    ("    use: first_war_payment\n    with: {receiver: Russians, amount: 9, attackers: [Germans], event: atack}\n",
     ["mod.yaml:6:65: error[TG062]: parameter 'event' must be war or attack, not 'atack'",
      "  hint: did you mean 'attack'?"]),
    ("    use: stacking_limit\n    with: {players: [Germans], units: [infantry], max: 2, kinds: [moving]}\n",
     ["mod.yaml:6:59: error[TG062]: parameter 'kinds' must be movement, attacking or placement, not 'moving'",
      "  hint: what the cap binds: movement (into or through a territory), attacking (into an enemy territory), "
      "placement"]),
    ("    use: keep_apart\n    with: {first: [Germans], first_units: [infantry], second: [Russians],"
     " second_units: [armour], kinds: []}\n",
     ["mod.yaml:6:99: error[TG062]: parameter 'kinds' needs at least one value",
      "  hint: what the caps bind: movement, attacking, placement"]),
], ids=["member", "leader", "type value", "int value", "empty", "not a record", "unknown key", "field type",
        "needs", "one of", "min", "max", "choices", "choices of a list", "nonempty list"])
def test_a_mapping_is_checked_against_its_declaration_at_the_rule(rule, expected, tmp_path, capsys, monkeypatch):
    assert build_errors(tmp_path, capsys, monkeypatch, rule) == expected


MACRO = """\
{{#---
description: A test macro.
params:
  {param}
---#}}
<fragment/>
"""


@pytest.mark.parametrize("param, message", [
    ("counts: {type: mapping, keys: units}", "param 'counts': keys must be a one-value type, not 'units'"),
    ("counts: {type: ints, keys: unit}", "param 'counts': keys is only for a mapping, not a ints"),
    ("counts: {type: mapping, values: {type: mapping, fields: {a: int}, one_of: [b]}}",
     "param 'counts': 'b' is not one of its fields"),
    ("counts: {type: mapping, values: {type: mapping, fields: {a: {type: number}}}}",
     "param 'counts.a' has unknown type 'number'"),
    # an unquoted comma in a flow mapping starts a new key: the doc would lose its end unnoticed
    ("amount: {type: int, doc: how much is paid, once}", "param 'amount' has unknown key 'once'"),
    ("amount: {type: string, min: 1}", "param 'amount': min is for int, ints, not string"),
    ("amount: {type: int, max: many}", "param 'amount': max must be a whole number"),
], ids=["list keys", "not a mapping", "one_of", "field type", "comma in doc", "min of a string", "max not a number"])
def test_a_wrong_declaration_is_an_error_of_the_macro(param, message, tmp_path):
    path = tmp_path / "mine.xml.j2"
    path.write_text(MACRO.format(param=param), encoding="utf-8")
    with pytest.raises(MacroError) as caught:
        _read_macro(path, None, 0, 0)
    assert caught.value.message == message
    assert caught.value.position.line == 2
