"""Two `balance --cluster` runs on one Dask scheduler at the same time each get their own games:
Dask hands a task whose key it already holds the result it has, so a key of variant, seed and
index alone gave frontier_1939 (played against itself) the Global 1940 games of s000, run beside it."""
from __future__ import annotations

import threading
import time

import pytest

from generator.balance import runner
from generator.balance.games import GameTask


def _fake_play(task: GameTask) -> dict:
    time.sleep(0.5)  # both runs' tasks are on the scheduler at once
    return {"worker": "fake", "report": task.xml.decode(), "error": None, "seconds": 0.5}


def test_two_runs_at_once_on_one_scheduler_get_their_own_games(monkeypatch):
    distributed = pytest.importorskip("distributed", reason="the balance extra: pip install '.[balance]'")
    monkeypatch.setattr(runner, "play_task", _fake_play)
    results: dict[str, dict[int, str]] = {"frontier": {}, "g40": {}}

    def run(name: str) -> None:
        tasks = [GameTask(variant="base", seed=1, rounds=1, ai="fast", engine="1.9", file_name="g.xml",
                          xml=f"<{name}/>".encode())]
        runner.play_on_cluster(tasks, address, lambda index, played: results[name].__setitem__(index, played["report"]))

    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, protocol="tcp", dashboard_address=None,
                                  host="127.0.0.1") as cluster:
        address = cluster.scheduler_address
        threads = [threading.Thread(target=run, args=(name,)) for name in results]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    assert results == {"frontier": {0: "<frontier/>"}, "g40": {0: "<g40/>"}}
