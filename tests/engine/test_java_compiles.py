"""The Java harness compiled in CI (issue 28): each engine's source set (engines.SOURCE_ROOTS) and
its XML guard compile from a clean cache with the pinned --release and every warning fatal
(engines.strict_compiler), into class files of that release; and every mode of the harness, run in
each engine on a small game, prints only records harness-records.schema.json declares (the harness
reads every report through records.read_output, which refuses any other with TG093)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from generator.engine import engines, harness
from generator.engine.warm import WarmPool
from tests.conftest import REPO, build_game

SMALL_GAME = REPO / "tests" / "fixtures" / "engine" / "two_player_trigger.xml"
ENGINES = [pytest.param("1.9", marks=pytest.mark.engine, id="1.9"),
           pytest.param("current", marks=pytest.mark.engine_current, id="current")]


def _major_version(class_file: Path) -> int:
    return int.from_bytes(class_file.read_bytes()[6:8], "big")


@pytest.mark.parametrize("name", ENGINES)
def test_the_harness_compiles_clean_for_the_pinned_release(name, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    engine = harness.resolve_engine(name)
    assert engine.compiler[engine.compiler.index("--release") + 1] == str(engines.JAVA_RELEASE)
    strict = replace(engine, compiler=engines.strict_compiler(engine.compiler))
    classes = harness.harness_classes(strict)  # TG302 with the compiler's message on any error or warning
    guard = harness.xml_guard_classes(strict)
    main_class = classes / Path(*engine.harness_class.split(".")).with_suffix(".class")
    assert main_class.is_file()
    # Java 17's class files (major version 61), whichever JDK compiled them
    assert {_major_version(path) for path in [*classes.rglob("*.class"), *guard.rglob("*.class")]} == {
        engines.JAVA_RELEASE + 44}
    assert harness.harness_classes(strict) == classes  # cached: no second compile


@pytest.mark.parametrize("name", ENGINES)
def test_every_mode_prints_only_declared_records(name, tmp_path):
    hex_game = build_game(REPO / "rules_yaml" / "hex_skirmish.yaml", tmp_path / "hex")
    (small, bad) = harness.check_games([SMALL_GAME, tmp_path / "missing.xml"], engine=name)
    assert small.ok and small.counts["steps"] == 14 and not bad.ok
    played = harness.play_scenario_game(hex_game, ["--rounds", "2", "--seed", "3", "--round-stats", "true",
                                                   "--history", "true"], timeout=300, engine=name)
    assert played["stopped_by"] == "rounds" and len(played["round_stats"]) == 2 and played["history"]
    assert any(player["battles"] for entry in played["round_stats"] for player in entry["players"].values())
    battles = harness.battle_odds(hex_game, ["Reds|Blues|E6|armour=2|infantry=2", "Reds|Nobody|E6||"], seed=3,
                                  runs=20, engine=name)
    assert battles[0]["runs"] == 20 and battles[1]["error"] == "no player Nobody"
    with WarmPool(name, 1) as pool:  # serve mode: one report line a game
        served = pool.play(SMALL_GAME, ["--rounds", "1", "--seed", "1"], timeout=300)
    assert served["rounds_completed"] == 1 and served["fired"]
