"""The balance lab against games played by hand through the harness (1.9; one short 2.x game):
the per-round statistics agree with the harness's own end state, a game the AI must win by a
victory trigger counts as a win in its round, 100 PUs more for one side raise its rate, the same
seed gives the same game (one job, two jobs, a Dask cluster), and a game the engine refuses is
reported, not raised. Hex Skirmish, 1-3 rounds: a few seconds a game."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.balance.games import GameTask, close_warm, play_task
from generator.balance.lab import Settings, measure, results
from generator.balance.variants import spec_variants
from generator.engine.harness import play_scenario_game
from tests.conftest import REPO, requires_current_engine, requires_engine

FIXTURES = REPO / "tests" / "fixtures" / "balance"
REDS_WIN = FIXTURES / "hex_reds_win.yaml"
REDS_RICH = FIXTURES / "hex_reds_rich.yaml"
NOT_THE_GAME = ("worker", "seconds")


def same_game(record: dict) -> dict:
    return {key: value for key, value in record.items() if key not in NOT_THE_GAME}


def hand_played(variant, seed: int, rounds: int, tmp_path: Path, engine: str | None = None) -> dict:
    """The harness's report of the variant's game, played directly (a fresh JVM, no balance code)."""
    game = tmp_path / f"{variant.name}-{variant.file_name}"
    game.write_bytes(variant.xml)
    map_dir = tmp_path / f"{variant.name}-map"
    for relative, data in variant.map_files.items():
        (map_dir / relative).parent.mkdir(parents=True, exist_ok=True)
        (map_dir / relative).write_bytes(data)
    options = ["--rounds", str(rounds), "--ai", "fast", "--seed", str(seed), "--round-stats", "true",
               "--map-dir", str(map_dir)]
    return play_scenario_game(game, options, timeout=600, engine=engine)


@pytest.fixture(scope="module")
def reds_win():
    return spec_variants(REDS_WIN, None)


@pytest.fixture(scope="module")
def reds_rich():
    mod, base = spec_variants(REDS_RICH, None)
    settings = Settings(games=2, rounds=3, ai="fast", seed=11, jobs=2, cache=False)
    records = measure([base, mod], settings)
    return mod, base, settings, records


@pytest.mark.engine
@requires_engine
def test_round_stats_agree_with_the_harness_end_state(reds_win, tmp_path: Path):
    _, base = reds_win
    report = hand_played(base, seed=5, rounds=2, tmp_path=tmp_path)
    stats = report["round_stats"]
    assert [entry["round"] for entry in stats] == [1, 2] and all(entry["complete"] for entry in stats)
    for player in report["players"]:
        last = stats[-1]["players"][player["name"]]
        assert last["pus"] == player["resources"]["PUs"]
        assert last["territories"] == player["territories"]
        assert last["units"] == player["units"]
        assert last["battles"] >= 0 and last["lost_value"] >= 0
    # Income is what the end-turn step added: in round 1 of Hex Skirmish it is each player's production then.
    assert stats[0]["players"]["Reds"]["income"] == stats[0]["players"]["Reds"]["production"] > 0


@pytest.mark.engine
@requires_engine
def test_a_game_the_ai_must_win_by_a_victory_trigger_counts_as_a_win(reds_win, tmp_path: Path):
    mod, base = reds_win
    by_hand = hand_played(mod, seed=3, rounds=2, tmp_path=tmp_path)
    assert by_hand["winners"] == ["Reds"] and by_hand["stopped_by"] == "game over"
    records = measure([base, mod], Settings(games=1, rounds=2, seed=3, jobs=1, cache=False))
    data = results([base, mod], Settings(games=1, rounds=2, seed=3), records)
    won = data["games"][1]
    assert (won["variant"], won["winner"], won["decided_by"], won["victory_round"]) == ("mod", "Empire", "victory", 1)
    assert won["income"]["Reds"] == [entry["players"]["Reds"]["income"] for entry in by_hand["round_stats"]]
    assert data["variants"]["mod"]["win_rate"]["Empire"]["rate"] == 1.0
    assert data["variants"]["mod"]["win_rate"]["Empire"]["by_victory"] == 1
    assert data["games"][0]["decided_by"] == "production"  # the base: nobody holds what its victories ask


@pytest.mark.engine
@requires_engine
def test_a_hundred_pus_more_raise_that_sides_rate(reds_rich):
    mod, base, settings, records = reds_rich
    data = results([base, mod], settings, records)
    rates = {name: data["variants"][name]["win_rate"]["Empire"]["rate"] for name in ("base", "mod")}
    assert rates["mod"] > rates["base"], rates
    assert data["change"]["Empire"]["delta"] > 0
    rich = [r for r in records if r["variant"] == "mod"]
    plain = [r for r in records if r["variant"] == "base"]
    assert all(r["pus"]["Reds"][0] > p["pus"]["Reds"][0] for r, p in zip(rich, plain))
    assert all(r["error"] is None and r["repeatable"] for r in records)


@pytest.mark.engine
@requires_engine
def test_the_same_seed_gives_the_same_game_on_one_job_and_on_two(reds_rich):
    mod, base, settings, records = reds_rich
    again = measure([base, mod], Settings(**{**settings.__dict__, "jobs": 1}))
    assert [same_game(r) for r in again] == [same_game(r) for r in records]


@pytest.mark.engine
@requires_engine
def test_a_dask_cluster_gives_the_same_results_as_local_games(reds_rich):
    distributed = pytest.importorskip("distributed", reason="the balance extra: pip install '.[balance]'")
    mod, base, settings, records = reds_rich
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  host="127.0.0.1") as cluster:
        on_cluster = measure([base, mod], Settings(**{**settings.__dict__, "jobs": None,
                                                      "cluster": cluster.scheduler_address}))
    assert [same_game(r) for r in on_cluster] == [same_game(r) for r in records]
    assert len({r["worker"] for r in on_cluster}) == 2  # both workers played
    assert all(r["worker"].startswith("tcp://127.0.0.1:") for r in on_cluster)


@pytest.mark.engine
@requires_engine
def test_a_game_the_engine_refuses_is_reported_not_raised(reds_win):
    mod, _ = reds_win
    broken = mod.xml.replace(b'javaClass="games.strategy.triplea.delegate.BattleDelegate"',
                             b'javaClass="games.strategy.triplea.delegate.NoSuchDelegate"')
    assert broken != mod.xml
    task = GameTask(variant="mod", seed=1, rounds=1, ai="fast", engine="1.9", file_name=mod.file_name, xml=broken,
                    map_files={"../escape.properties": b"x=1", **mod.map_files})
    try:
        played = play_task(task)
    finally:
        close_warm()
    assert played["report"] is None and played["error"].startswith("TG310: the engine refused the game")


@pytest.mark.engine_current
@requires_current_engine
def test_round_stats_in_the_current_engine(reds_win, tmp_path: Path):
    mod, _ = reds_win
    report = hand_played(mod, seed=3, rounds=1, tmp_path=tmp_path, engine="current")
    assert report["winners"] == ["Reds"]
    entry = report["round_stats"][-1]
    assert entry["round"] == 1
    reds = entry["players"]["Reds"]
    assert reds["income"] == reds["production"] > 0 and reds["units"]
