"""Speed of `balance` (not part of the test run): games per hour per core, the speed-up from one to
two workers here and on a two-worker Dask cluster on 127.0.0.1, and the harness's own overhead.

    python3 tests/benchmarks/bench_balance.py [--spec rules_yaml/hex_skirmish.yaml] [--games 4]
        [--rounds 3] [--ai fast] [--engine 1.9|current] [--what jobs,cluster,overhead]

Every game is played (no cache). "jobs": the spec's games with --jobs 1 and --jobs 2; "cluster":
the same games on a LocalCluster of 2 one-thread workers; "overhead": one game's harness report
(the engine's own time from reading the game to its end, total_seconds) against the wall time of
the fresh JVM that played it (JVM start, class loading, staging, the report)."""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from generator.balance.games import GameTask, play_task  # noqa: E402
from generator.balance.lab import Settings, measure  # noqa: E402
from generator.balance.variants import spec_variants  # noqa: E402


def timed_run(variants, settings: Settings) -> tuple[float, list[dict]]:
    started = time.monotonic()
    with open(os.devnull, "w") as quiet:
        records = measure(variants, settings, stream=quiet)
    return time.monotonic() - started, records


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--spec", default=str(REPO / "rules_yaml" / "hex_skirmish.yaml"))
    parser.add_argument("--games", type=int, default=4, help="games per variant")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--ai", default="fast")
    parser.add_argument("--engine", default="1.9")
    parser.add_argument("--what", default="jobs,cluster,overhead")
    args = parser.parse_args()
    what = set(args.what.split(","))
    mod, base = spec_variants(Path(args.spec), None)
    variants = [base, mod]
    games = 2 * args.games
    settings = Settings(games=args.games, rounds=args.rounds, ai=args.ai, engine=args.engine, cache=False)
    print(f"{Path(args.spec).name}: {games} games of at most {args.rounds} rounds, AI {args.ai}, "
          f"engine {args.engine}, {os.cpu_count()} cores")
    one = None
    if "jobs" in what:
        for jobs in (1, 2):
            seconds, records = timed_run(variants, Settings(**{**settings.__dict__, "jobs": jobs}))
            failed = sum(1 for r in records if r["error"])
            rate = games / seconds * 3600
            print(f"--jobs {jobs}: {seconds:.1f} s, {rate:.0f} games/hour, {rate / jobs:.0f} games/hour/core"
                  f"{f', {failed} failed' if failed else ''}")
            if jobs == 1:
                one = seconds
            elif one:
                print(f"  speed-up from 1 to 2 jobs: {one / seconds:.2f}x")
    if "cluster" in what:
        from distributed import LocalCluster

        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                          host="127.0.0.1") as cluster:
            seconds, records = timed_run(variants, Settings(**{**settings.__dict__, "cluster": cluster.scheduler_address}))
        rate = games / seconds * 3600
        print(f"Dask LocalCluster, 2 workers: {seconds:.1f} s, {rate:.0f} games/hour"
              + (f", speed-up against --jobs 1: {one / seconds:.2f}x" if one else ""))
    if "overhead" in what:
        task = GameTask(variant="mod", seed=1, rounds=args.rounds, ai=args.ai, engine=args.engine,
                        file_name=mod.file_name, xml=mod.xml, map_files=mod.map_files)
        play_task(task)  # warm-up: the harness compiled, the page cache filled
        samples = []
        for _ in range(3):
            played = play_task(task)
            samples.append((played["seconds"], played["report"]["total_seconds"]))
        for wall, engine in samples:
            print(f"one game: {wall:.1f} s in all, {engine:.1f} s in the engine's game; harness overhead "
                  f"{wall - engine:.1f} s = {(wall - engine) / wall * 100:.0f} % of the game's time")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory():
        main()
