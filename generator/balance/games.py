"""One game of a balance run: the task (everything a worker needs, also on another machine: the
game XML and its map texts travel with it) and what playing it gives (a record of plain values,
the same wherever it ran). Each game gets a JVM of its own (with --warm: the worker's warm JVM,
engine.warm, kept for the next game: faster, not repeatable); a game the engine refuses, breaks on or
runs out of time with is recorded as failed, never raised, so that a cluster does not retry it for ever."""
from __future__ import annotations

import os
import socket
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import NotRequired, TypedDict

from generator.core.diagnostics import DiagnosticError
from generator.core.enginename import EngineName

# Bumped whenever a record's shape or meaning changes: it is part of the cache key.
RECORD_VERSION = 1
# The engine's heap changes the game: the same seed played with another -Xmx takes other turns
# (measured on Hex Skirmish, round 3), so every balance game gets the same heap wherever it runs,
# whatever the number of games at a time (TRIPLEA_GEN_ENGINE_HEAP, when set, instead).
GAME_HEAP_MIB = 1024
PER_ROUND = ("income", "pus", "territories", "production", "unit_value", "battles", "lost_value")


@dataclass(frozen=True)
class GameTask:
    variant: str
    seed: int
    rounds: int
    ai: str
    engine: str  # "1.9" or "current"
    file_name: str
    xml: bytes
    map_files: dict = field(default_factory=dict)
    player_ai: tuple = ()  # ((player, ai), ...)
    timeout: float = 1800.0
    heap_mib: int = GAME_HEAP_MIB
    # A JVM of its own for every game (repeatable), or one kept for game after game (faster, but the
    # games an engine JVM played before change the AI's later choices: measured, see play_task).
    warm: bool = False

    def play_options(self, map_dir: Path | None) -> list[str]:
        options = ["--rounds", str(self.rounds), "--ai", self.ai, "--seed", str(self.seed), "--round-stats", "true"]
        for player, ai in self.player_ai:
            options += ["--player-ai", f"{player}={ai}"]
        if map_dir is not None:
            options += ["--map-dir", str(map_dir)]
        return options


_local = threading.local()  # each thread (a local job, a Dask worker's thread) keeps its own JVM
_heap_lock = threading.Lock()


def _set_heap(heap_mib: int) -> None:
    """The JVM's heap comes from the engine's memory settings: the task's heap is set there (the
    same for every task of a run) before a JVM for it starts."""
    from generator.engine.memory import HEAP_VARIABLE

    with _heap_lock:
        os.environ[HEAP_VARIABLE] = str(heap_mib)


def _engine_named(engine: str):
    from generator.engine.harness import resolve_engine

    return resolve_engine(None if engine == EngineName.V1_9 else engine)


def _warm(engine: str, heap_mib: int):
    from generator.engine.warm import WarmHarness

    harnesses = getattr(_local, "harnesses", None)
    if harnesses is None:
        harnesses = _local.harnesses = {}
    if (engine, heap_mib) not in harnesses:
        _set_heap(heap_mib)
        harnesses[(engine, heap_mib)] = WarmHarness(_engine_named(engine))
    return harnesses[(engine, heap_mib)]


def close_warm() -> None:
    """Stops this thread's JVMs (the end of a local job)."""
    for harness in getattr(_local, "harnesses", {}).values():
        harness.close()
    _local.harnesses = {}


def worker_name() -> str:
    try:
        from distributed import get_worker

        return get_worker().address
    except (ImportError, ValueError):
        return f"{socket.gethostname()}:{os.getpid()}"


class PlayResult(TypedDict):
    """What playing one game gives: plain values, as they come back from a cluster's worker."""
    worker: str | None
    report: dict | None  # the harness's raw play report; None when the game did not play
    error: str | None  # "TGnnn: message" of a failed game
    seconds: float | None
    warm: NotRequired[bool]  # not known of a game the cluster lost (runner.play_on_cluster)
    engine: NotRequired[str]


def play_task(task: GameTask) -> PlayResult:
    """Plays the game; the raw harness report and where it ran. Failures are in the result."""
    started = time.monotonic()
    result = PlayResult(worker=worker_name(), report=None, error=None, warm=task.warm, engine=task.engine,
                        seconds=None)
    # safe-write: a private temporary folder of ours for the game file and its map texts
    with tempfile.TemporaryDirectory(prefix="triplea-gen-balance-game-") as folder:
        game = Path(folder) / task.file_name
        game.write_bytes(task.xml)  # safe-write: in our private temporary folder
        map_dir = None
        if task.map_files:
            map_dir = Path(folder) / "map-folder"
            for relative, data in task.map_files.items():
                target = map_dir / relative
                if ".." in Path(relative).parts or Path(relative).is_absolute():
                    continue  # only names inside the folder (a task may come from anywhere)
                target.parent.mkdir(parents=True, exist_ok=True)  # safe-write: in our private temporary folder
                target.write_bytes(data)  # safe-write: in our private temporary folder
        try:
            if task.warm:
                result["report"] = _warm(task.engine, task.heap_mib).play(game, task.play_options(map_dir),
                                                                          task.timeout)
            else:
                # A fresh JVM: a warm one gives the same seed another game once it has played other
                # games (Hex Skirmish, round 3: the mod's games differed by the order they were played in).
                from generator.engine.harness import play_scenario_game

                _set_heap(task.heap_mib)
                result["report"] = play_scenario_game(game, task.play_options(map_dir), task.timeout,
                                                      engine=_engine_named(task.engine))
        except DiagnosticError as err:
            first = err.diagnostics[0]
            result["error"] = f"{first.code}: {first.message}"
    result["seconds"] = round(time.monotonic() - started, 3)
    return result
