"""`balance`: the two variants built, their games planned (seeds S, S+1, ... for each, so the two
play the same dice draws), taken from the cache or played, and the results written: balance.json,
games.csv, rounds.csv and the report index.html with its plots."""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from generator.balance.cache import ResultCache, task_key
from generator.balance.games import GAME_HEAP_MIB, GameTask, PlayResult
from generator.balance.progress import Progress
from generator.balance.stats import difference, game_record, games_csv, rounds_csv, variant_summary
from generator.balance.variants import Variant
from generator.core.diagnostics import Diagnostic, DiagnosticError, Position

MAX_GAMES = 100_000
MAX_ROUNDS = 1_000


@dataclass
class Settings:
    games: int = 20
    rounds: int = 10
    ai: str = "fast"
    player_ai: dict = field(default_factory=dict)
    seed: int = 1
    jobs: int | None = None
    cluster: str | None = None
    engine: str = "1.9"
    timeout: float = 1800.0
    cache: bool = True
    plots: bool = True
    warm: bool = False  # games after games in one JVM: faster, not repeatable (games.GameTask)

    def check(self, players: list[str]) -> None:
        problems = []
        if not 1 <= self.games <= MAX_GAMES:
            problems.append(("--games", f"--games must be 1 to {MAX_GAMES:,}, not {self.games}"))
        if not 1 <= self.rounds <= MAX_ROUNDS:
            problems.append(("--rounds", f"--rounds must be 1 to {MAX_ROUNDS:,}, not {self.rounds}"))
        if self.jobs is not None and self.jobs < 1:
            problems.append(("--jobs", f"--jobs must be at least 1, not {self.jobs}"))
        if not 0 <= self.seed <= 2**62:
            problems.append(("--seed", f"--seed must be 0 to 2**62, not {self.seed}"))
        for player in self.player_ai:
            if player not in players:
                problems.append(("--player-ai", f"--player-ai names no player of the game: {player}"))
        if problems:
            raise DiagnosticError([Diagnostic("TG600", text, Position(where), "see 'triplea-gen balance --help'")
                                   for where, text in problems], exit_status=2)


def game_heap_mib() -> int:
    """The heap of every game of the run: TRIPLEA_GEN_ENGINE_HEAP, else GAME_HEAP_MIB (see there)."""
    from generator.engine import memory

    try:
        return memory.fixed_heap_mib() or GAME_HEAP_MIB
    except memory.HeapSettingError as err:
        raise DiagnosticError([Diagnostic("TG084", str(err), Position(memory.HEAP_VARIABLE),
                                          f"give the heap in MiB, e.g. {memory.HEAP_VARIABLE}=1024")],
                              exit_status=2) from None


def plan(variants: list[Variant], settings: Settings) -> list[tuple[Variant, GameTask]]:
    return [(variant, GameTask(variant=variant.name, seed=settings.seed + n, rounds=settings.rounds,
                               ai=settings.ai, engine=settings.engine, file_name=variant.file_name,
                               xml=variant.xml, map_files=variant.map_files,
                               player_ai=tuple(sorted(settings.player_ai.items())), timeout=settings.timeout,
                               heap_mib=game_heap_mib(), warm=settings.warm))
            for variant in variants for n in range(settings.games)]


def measure(variants: list[Variant], settings: Settings, stream=None) -> list[dict]:
    """Every game's record, in plan order: cached ones as they were, the rest played now."""
    stream = stream or sys.stderr
    planned = plan(variants, settings)
    cache = ResultCache(settings.cache)
    records: list[dict | None] = [None] * len(planned)
    keys = [task_key(task, variant.digest) for variant, task in planned]
    for index, key in enumerate(keys):
        records[index] = cache.get(key)
    missing = [index for index, record in enumerate(records) if record is None]
    cached = len(planned) - len(missing)
    if cached:
        stream.write(f"balance: {cached} of {len(planned)} games from the cache\n")
    progress = Progress(len(missing), stream)

    def on_result(position: int, played: PlayResult) -> None:
        index = missing[position]
        variant, task = planned[index]
        record = game_record(variant, task.seed, task.rounds, played)
        records[index] = record
        cache.put(keys[index], record)
        outcome = record["error"] or (f"{record['winner'] or 'no winner'}"
                                      f"{' (by ' + record['decided_by'] + ')' if record['decided_by'] else ''}")
        progress.advance(f"{variant.name} seed {task.seed}: {outcome}")

    tasks = [planned[index][1] for index in missing]
    if settings.cluster:
        from generator.balance.runner import play_on_cluster

        play_on_cluster(tasks, settings.cluster, on_result)
    else:
        from generator.balance.runner import play_locally

        play_locally(tasks, settings.jobs or os.cpu_count() or 1, on_result)
    return records  # type: ignore[return-value]


def results(variants: list[Variant], settings: Settings, records: list[dict]) -> dict:
    """balance.json's content."""
    by_variant = {v.name: [r for r in records if r["variant"] == v.name] for v in variants}
    summaries = {v.name: variant_summary(v, by_variant[v.name]) for v in variants}
    data = {"settings": {"games": settings.games, "rounds": settings.rounds, "ai": settings.ai,
                         "player_ai": settings.player_ai, "seed": settings.seed, "engine": settings.engine,
                         "heap_mib": game_heap_mib(), "warm": settings.warm,
                         "measure": "production held at the end, when no victory condition fired"},
            "games": records,
            "variants": {name: dict(summary, games=len(by_variant[name])) for name, summary in summaries.items()}}
    if "mod" in summaries and "base" in summaries:
        sides = [s for s in summaries["mod"]["win_rate"] if s in summaries["base"]["win_rate"]]
        data["change"] = {side: difference(summaries["base"], summaries["mod"], side) for side in sides}
    return data


def write_results(outdir: Path, variants: list[Variant], data: dict, plots: bool = True) -> list[Path]:
    from generator.balance.report import report_files
    from generator.core.writer import write_outputs

    files = {"balance.json": (json.dumps(data, indent=1, sort_keys=False) + "\n").encode("utf-8"),
             "games.csv": games_csv(data["games"]).encode("utf-8"),
             "rounds.csv": rounds_csv(data["games"]).encode("utf-8")}
    files.update(report_files(variants, data, plots))
    return write_outputs(outdir, files)
