"""Warm JVMs (generator/engine/warm.py, the harness's serve mode): game after game in one JVM gives
the reports a JVM per game gives; a refused game or one out of time does not spoil the next."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.core.diagnostics import DiagnosticError
from generator.engine.harness import play_scenario_game
from generator.engine.warm import WarmPool
from tests.conftest import REPO, requires_current_engine, requires_engine

SMALL_GAME = REPO / "tests" / "fixtures" / "engine" / "two_player_trigger.xml"
OPTIONS = ["--rounds", "2", "--seed", "3", "--history", "true"]
TIMINGS = ("round_seconds", "slowest_steps", "total_seconds", "path")


def comparable(report: dict) -> dict:
    return {key: value for key, value in report.items() if key not in TIMINGS}


def engines():
    return [pytest.param("1.9", marks=[pytest.mark.engine, requires_engine]),
            pytest.param("current", marks=[pytest.mark.engine_current, requires_current_engine])]


@pytest.mark.parametrize("engine", engines())
def test_a_warm_jvm_plays_games_as_fresh_ones_do(engine, tmp_path: Path):
    cold = play_scenario_game(SMALL_GAME, OPTIONS, 120, engine=engine)
    with WarmPool(engine, 1) as pool:
        first = pool.play(SMALL_GAME, OPTIONS, 120)
        second = pool.play(SMALL_GAME, OPTIONS, 120)
        (worker,) = pool._all
        process = worker.process
    assert comparable(first) == comparable(cold) == comparable(second)
    assert process.poll() is not None  # closing the pool ended the JVM
    assert first["fired"] and first["players"]


@pytest.mark.parametrize("engine", engines())
def test_a_refused_or_stuck_game_does_not_spoil_the_next(engine, tmp_path: Path):
    broken = tmp_path / "broken.xml"
    broken.write_text(SMALL_GAME.read_text(encoding="utf-8").replace('name="Reds"', 'name="Redz"', 1),
                      encoding="utf-8")
    with WarmPool(engine, 1) as pool:
        with pytest.raises(DiagnosticError) as caught:
            pool.play(broken, OPTIONS, 120)
        assert caught.value.diagnostics[0].code == "TG310"
        (worker,) = pool._all
        kept = worker.process
        assert pool.play(SMALL_GAME, OPTIONS, 120)["ok"] and worker.process is kept  # the same JVM plays on
        # Past its time limit the harness reports and halts its JVM; the next game gets a new one.
        stuck = pool.play(SMALL_GAME, ["--rounds", "500", "--seed", "1"], 0.2)
        assert stuck["stopped_by"] == "time limit" and worker.process is None
        assert comparable(pool.play(SMALL_GAME, OPTIONS, 120)) == comparable(
            play_scenario_game(SMALL_GAME, OPTIONS, 120, engine=engine))
