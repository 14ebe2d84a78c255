"""The scenarios of the Global 1940 mods (rules_yaml/g40_showcase.yaml, s004_corrupting_g40.yaml): every
name a scenario uses exists in the built game, and a few of them played in the real engine with their
controls (the rest run with `triplea-gen test`)."""
from __future__ import annotations

import pytest
from conftest import REPO, requires_engine

from examples.test_s000_nonaggression_pacts import maps_env  # noqa: F401  (a fixture)
from generator.cli.main import main
from generator.scenarios.run import build_xml, load_scenarios, prepare_variants

SHOWCASE = REPO / "rules_yaml" / "g40_showcase.yaml"
CORRUPTING = REPO / "rules_yaml" / "s004_corrupting_g40.yaml"


@pytest.mark.parametrize("spec", [SHOWCASE, CORRUPTING], ids=lambda p: p.stem)
def test_every_scenario_names_what_the_built_game_has(maps_env, spec):  # noqa: F811
    loaded = load_scenarios(spec)
    assert len(loaded.scenarios) >= 15
    _, collector = prepare_variants(build_xml(spec), loaded.scenarios)
    assert [d.format() for d in collector.diagnostics] == []


@pytest.mark.parametrize("spec", [SHOWCASE, CORRUPTING], ids=lambda p: p.stem)
def test_every_enforced_rule_with_a_scenario_names_the_rule(maps_env, spec):  # noqa: F811
    """A scenario's rule ids are the spec's (load_scenarios refuses others), and no scenario backs a notes rule."""
    from generator.read.yamlio import load_yaml_file

    statuses = {str(r["id"]): r.get("status", "enforced") for r in load_yaml_file(spec)["rules"]}
    for scenario in load_scenarios(spec).scenarios:
        for rule in scenario.rules:
            assert statuses[rule] != "notes", (scenario.id, rule)


@requires_engine
def test_switzerland_stays_closed_to_the_german_ai(maps_env, tmp_path, capsys):  # noqa: F811
    """Without the impassable rule the easy AI takes the weakly held Switzerland; with it, it cannot."""
    assert main(["test", str(SHOWCASE), "--scenario", "nobody-enters-switzerland", "-o", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "ok   owners" in out and "Switzerland is Russians's" in out
    assert "FAIL owners" in out and "Switzerland is Germans's (expected Russians)" in out
    assert "=> backed" in out


@requires_engine
def test_the_easy_ai_spends_its_money_despite_the_marine_tokens(maps_env, tmp_path, capsys):  # noqa: F811
    """Finding of issue 18 (fixed at 1b9f7a3): with the purchase tokens the easy AI ordered refused
    all-marine purchases and kept its 30 IPC; it now buys ordinary units."""
    assert main(["test", str(CORRUPTING), "--scenario", "easy-ai-still-buys-with-tokens", "-o", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "PASS easy-ai-still-buys-with-tokens" in out
    assert "Germans PUs: 30" not in out


@requires_engine
def test_japan_is_refused_the_war_on_the_ussr_the_gate_shuts(maps_env, tmp_path, capsys):  # noqa: F811
    """S004-R01: with no capital and not all of China in Axis hands the scripted declaration is not
    offered and Japan stays neutral to the USSR; G40 without the gate lets Japan declare."""
    assert main(["test", str(CORRUPTING), "--scenario", "japan-may-not-declare-war-on-the-ussr",
                 "-o", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Japanese was not offered politicalActionAttachment_Japanese_To_War_With_Russians" in out
    assert "ok   relationships" in out and "Japanese-Russians: Neutrality" in out
    assert "Japanese-Russians: War (expected Neutrality)" in out
    assert "=> backed" in out


@requires_engine
def test_a_second_marine_is_refused_for_want_of_a_token(maps_env, tmp_path, capsys):  # noqa: F811
    """S004-R05: a scripted purchase of two marines with one token is refused whole; without the token
    rule the same purchase costs 8 IPC and places both."""
    assert main(["test", str(CORRUPTING), "--scenario", "a-second-marine-is-refused", "-o", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Germans could not buy {marine=2}" in out
    assert "Germans PUs: 30, a change of +0" in out and "Germany: marine 0 (expected 0)" in out
    assert "Germans PUs: 22, a change of -8" in out and "Germany: marine 2 (expected 0)" in out
    assert "=> backed" in out


@requires_engine
def test_one_easy_round_removes_no_aircraft_between_a_combat_move_and_its_battle(maps_env, tmp_path):  # noqa: F811
    """Issue 18: an inserted step between a player's combat move and its battle must not run the
    air-landing check (s000's pact place steps once removed Germany's bombers there)."""
    from conftest import GLOBAL_MAP_DIR, build_game
    from engine_play import air_removed_before_battle, load_and_play

    built = build_game(SHOWCASE, tmp_path / "out")
    report = load_and_play(built, rounds=1, map_dir=GLOBAL_MAP_DIR)
    assert air_removed_before_battle(report, built) == []
