"""The balance lab's numbers without the engine: Wilson intervals, who won a game (a victory, else
the side leading in production, marked), win rates per side, the cache key, the progress lines,
the arguments refused (TG600) and the variants a spec is compared with."""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from lxml import etree

from generator.balance.cache import task_key
from generator.balance.games import GameTask
from generator.balance.lab import Settings
from generator.balance.progress import Progress
from generator.balance.stats import (difference, game_record, games_csv, rounds_csv, variant_summary,
                                     wilson)
from generator.balance.variants import Variant, unit_costs
from generator.core.diagnostics import DiagnosticError
from tests.conftest import REPO

HEX_SKIRMISH = REPO / "rules_yaml" / "hex_skirmish.yaml"
FRONTIER = REPO / "rules_yaml" / "frontier_1939.yaml"
REDS_RICH = REPO / "tests" / "fixtures" / "balance" / "hex_reds_rich.yaml"


def hex_variant(name: str = "mod") -> Variant:
    return Variant(name=name, label="test", file_name="t.xml", xml=b"<game/>", players=["Reds", "Blues", "Greens"],
                   sides={"Reds": "Empire", "Blues": "League", "Greens": "League"},
                   unit_costs={"infantry": 3.0, "armour": 6.0})


def stats_round(number: int, production: dict[str, int], units=None) -> dict:
    return {"round": number, "complete": True,
            "players": {p: {"pus": 10, "income": v, "territories": 3, "production": v, "units": units or {},
                            "battles": 1, "lost_value": 3} for p, v in production.items()}}


def report(winners=None, rounds=((22, 16, 13),), stopped_by="rounds", exceptions=()) -> dict:
    stats = [stats_round(n + 1, dict(zip(("Reds", "Blues", "Greens"), values)), {"infantry": 2, "armour": 1})
             for n, values in enumerate(rounds)]
    return {"report": {"stopped_by": stopped_by, "ai_randomness_seeded": True, "rounds_completed": len(rounds),
                       "exceptions": list(exceptions), "winners": winners, "round_stats": stats},
            "worker": "here", "seconds": 1.0, "error": None}


@pytest.mark.parametrize(("wins", "games", "interval"), [
    (0, 10, [0.0, 0.2775]), (5, 10, [0.2366, 0.7634]), (10, 10, [0.7225, 1.0]), (38, 100, [0.2910, 0.4779]),  # by hand: (0.3992 -+ 0.0971) / 1.0384
])
def test_the_wilson_interval_has_its_textbook_values(wins, games, interval):
    assert wilson(wins, games) == pytest.approx(interval, abs=1e-4)


def test_no_games_leave_the_whole_interval():
    assert wilson(0, 0) == [0.0, 1.0]


def test_a_victory_is_a_win_of_the_winners_side_in_the_round_it_came():
    record = game_record(hex_variant(), 7, 5, report(winners=["Blues", "Greens"], rounds=((22, 16, 13), (20, 18, 13)),
                                                  stopped_by="game over"))
    assert (record["winner"], record["decided_by"], record["victory_round"]) == ("League", "victory", 2)
    assert record["income"] == {"Reds": [22, 20], "Blues": [16, 18], "Greens": [13, 13]}
    assert record["unit_value"]["Reds"] == [12.0, 12.0]  # 2 infantry at 3 and 1 armour at 6


def test_without_a_victory_the_side_leading_in_production_wins_marked():
    record = game_record(hex_variant(), 1, 1, report(rounds=((30, 10, 10),)))
    assert (record["winner"], record["decided_by"], record["victory_round"]) == ("Empire", "production", None)
    record = game_record(hex_variant(), 1, 1, report(rounds=((20, 10, 10),)))
    assert (record["winner"], record["decided_by"]) == (None, "production")  # a tie: nobody


def test_a_game_that_broke_is_recorded_failed_and_not_counted():
    broken = report(stopped_by="exception", exceptions=[{"kind": "fatal", "round": 1, "step": "redsBattle",
                                                          "message": "NullPointerException"}])
    refused = {"report": None, "worker": "here", "seconds": 0.1, "error": "TG310: the engine refused the game"}
    records = [game_record(hex_variant(), 1, 1, broken), game_record(hex_variant(), 2, 1, refused),
               game_record(hex_variant(), 3, 1, report(rounds=((30, 10, 10),)))]
    assert records[0]["error"].startswith("TG311: fatal exception in round 1, step redsBattle")
    assert records[1]["error"].startswith("TG310")
    summary = variant_summary(hex_variant(), records)
    assert (summary["games"], summary["counted"], summary["failed"]) == (3, 1, 2)
    assert summary["win_rate"]["Empire"] == {"wins": 1, "games": 1, "rate": 1.0, "ci95": wilson(1, 1), "by_victory": 0}


def test_the_change_of_a_rate_has_an_interval_around_it():
    base = variant_summary(hex_variant("base"), [game_record(hex_variant("base"), n, 1, report(rounds=((20, 16, 13),)))
                                                 for n in range(10)])
    mod = variant_summary(hex_variant(), [game_record(hex_variant(), n, 1, report(rounds=((40, 16, 13),)))
                                          for n in range(10)])
    change = difference(base, mod, "Empire")
    assert change["delta"] == 1.0
    assert change["ci95"][0] > 0.5 and change["ci95"][1] == pytest.approx(1.0)
    same = difference(base, base, "League")
    assert same["delta"] == 0 and same["ci95"][0] < 0 < same["ci95"][1]


def test_unit_values_come_from_the_cheapest_production_rule_per_unit():
    root = etree.fromstring(b"""<game><production>
      <productionRule name="a"><cost resource="PUs" quantity="5"/><result resourceOrUnit="infantry" quantity="2"/></productionRule>
      <productionRule name="b"><cost resource="PUs" quantity="3"/><result resourceOrUnit="infantry" quantity="1"/></productionRule>
      <productionRule name="c"><cost resource="PUs" quantity="6"/><result resourceOrUnit="armour" quantity="1"/></productionRule>
      <productionRule name="d"><cost resource="techTokens" quantity="1"/><result resourceOrUnit="tank" quantity="1"/></productionRule>
    </production></game>""")
    assert unit_costs(root) == {"infantry": 2.5, "armour": 6.0}


def test_the_csv_files_have_a_row_per_game_and_per_player_round():
    records = [game_record(hex_variant(), 1, 2, report(rounds=((22, 16, 13), (23, 16, 12))))]
    assert games_csv(records).splitlines()[1] == "mod,1,League,production,,2,rounds,here,1.0,True,"
    rows = rounds_csv(records).splitlines()
    assert rows[0] == "variant,seed,player,round,income,pus,territories,production,unit_value,battles,lost_value"
    assert len(rows) == 1 + 3 * 2 and rows[1] == "mod,1,Reds,1,22,10,3,22,12.0,1,3"


def test_the_cache_key_changes_with_everything_that_decides_a_game():
    task = GameTask(variant="mod", seed=1, rounds=3, ai="fast", engine="1.9", file_name="g.xml", xml=b"<game/>")
    keys = {task_key(task, "hash"), task_key(task, "other hash")}
    for change in ({"seed": 2}, {"rounds": 4}, {"ai": "easy"}, {"engine": "current"},
                   {"player_ai": (("Reds", "hard"),)}, {"heap_mib": 2048}, {"warm": True}):
        keys.add(task_key(GameTask(**{**task.__dict__, **change}), "hash"))
    assert len(keys) == 9
    # where it runs and what the variant is called are no part of the game
    assert task_key(GameTask(**{**task.__dict__, "variant": "base", "timeout": 5}), "hash") == task_key(task, "hash")


def test_progress_is_plain_lines_when_not_a_terminal():
    out = io.StringIO()
    progress = Progress(4, out)
    progress.advance("mod seed 1: Empire")
    progress.advance()
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and "\r" not in out.getvalue()
    assert lines[0].startswith("balance: 1/4 games, ") and "games/min" in lines[0] and "left" in lines[0]
    assert lines[0].endswith("mod seed 1: Empire")
    assert Progress(4).line(2, 60.0) == "2/4 games, 2.0 games/min, 1 min left"


@pytest.mark.parametrize(("settings", "text"), [
    (Settings(games=0), "--games must be 1 to 100,000, not 0"),
    (Settings(rounds=0), "--rounds must be 1 to 1,000, not 0"),
    (Settings(jobs=0), "--jobs must be at least 1, not 0"),
    (Settings(seed=-1), "--seed must be 0 to 2**62, not -1"),
    (Settings(player_ai={"Redz": "hard"}), "--player-ai names no player of the game: Redz"),
])
def test_bad_arguments_are_tg600(settings, text):
    with pytest.raises(DiagnosticError) as caught:
        settings.check(["Reds", "Blues"])
    assert caught.value.diagnostics[0].code == "TG600" and caught.value.diagnostics[0].message == text


def test_a_full_game_is_compared_with_itself_without_its_rules():
    from generator.balance.variants import spec_variants

    mod, base = spec_variants(HEX_SKIRMISH, None)
    assert base.label.endswith("hex_skirmish.yaml without its rules")
    assert b"HS-VICTORY" in mod.xml.replace(b"_", b"-") and b"HS_VICTORY" not in base.xml
    assert mod.sides == {"Reds": "Empire", "Blues": "League", "Greens": "League"}
    assert mod.colours == {"Reds": "#b22222", "Blues": "#1e5aa8", "Greens": "#2e8b57"}
    assert mod.unit_costs["infantry"] == 3.0
    assert set(mod.map_files) >= {"map/map.properties", "map/notifications.properties"}
    assert mod.digest != base.digest


def test_a_mod_is_compared_with_its_base_game():
    from generator.balance.variants import spec_variants

    mod, base = spec_variants(REDS_RICH, None)
    assert base.label.endswith("rules_yaml/hex_skirmish.yaml")
    assert b'<resourceGiven player="Reds" resource="PUs" quantity="120"/>' in mod.xml
    assert b'<resourceGiven player="Reds" resource="PUs" quantity="20"/>' in base.xml


def test_a_game_without_rules_and_nothing_to_compare_with_is_tg601(tmp_path: Path):
    from generator.balance.variants import spec_variants

    with pytest.raises(DiagnosticError) as caught:
        spec_variants(FRONTIER, None)
    assert caught.value.diagnostics[0].code == "TG601"
    with pytest.raises(DiagnosticError) as caught:
        spec_variants(FRONTIER, str(tmp_path / "missing.xml"))
    assert caught.value.diagnostics[0].code == "TG601"


def test_optional_players_and_those_of_no_alliance_are_no_side():
    from generator.balance.variants import _variant

    xml = b"""<game><playerList><player name="Germans"/><player name="Russians"/><player name="Dutch" optional="true"/>
      <player name="Swiss"/><alliance player="Germans" alliance="Axis"/><alliance player="Russians" alliance="Allies"/>
      <alliance player="Dutch" alliance="Dutch"/></playerList></game>"""
    variant = _variant("mod", "test", "t.xml", xml, {})
    assert variant.sides == {"Germans": "Axis", "Russians": "Allies"} and variant.side_names() == ["Axis", "Allies"]
    record = {"production": {"Germans": [10], "Russians": [12], "Dutch": [40], "Swiss": [50]}}
    from generator.balance.stats import leader

    assert leader(record, variant) == "Allies"  # the Dutch's and the Swiss's count for nobody


def test_games_of_a_warm_jvm_or_of_the_current_engine_are_not_known_to_repeat():
    assert game_record(hex_variant(), 1, 1, report())["repeatable"] is True
    assert game_record(hex_variant(), 1, 1, {**report(), "warm": True})["repeatable"] is False
    assert game_record(hex_variant(), 1, 1, {**report(), "engine": "current"})["repeatable"] is False
