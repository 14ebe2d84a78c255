"""Games already played, kept between runs: a game's record is found again by what decides it
(the game XML and map texts, the engine, the AIs, the seed, the rounds), so that a run with more
games plays only the new ones and a base already measured is not played again. JSON files in the
user's private cache folder (core.datacache.cache_folder); a cache that cannot be used is no error."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from generator.balance.games import RECORD_VERSION, GameTask
from generator.core.datacache import cache_folder


def task_key(task: GameTask, game_hash: str) -> str:
    parts = [f"v{RECORD_VERSION}", game_hash, task.engine, task.ai, repr(sorted(task.player_ai)), str(task.seed),
             str(task.rounds),
             f"heap {task.heap_mib}", f"warm {task.warm}"]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


class ResultCache:
    def __init__(self, enabled: bool = True):
        self.folder: Path | None = cache_folder("balance") if enabled else None

    def get(self, key: str) -> dict | None:
        if self.folder is None:
            return None
        try:
            return json.loads((self.folder / f"{key}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def put(self, key: str, record: dict) -> None:
        if self.folder is None or record.get("error"):  # a failure is tried again next time
            return
        from generator.core.writer import write_file_atomically

        try:
            write_file_atomically(self.folder / f"{key}.json", json.dumps(record, sort_keys=True).encode())
        except Exception:  # noqa: BLE001 - a cache that cannot be written is no error
            pass
