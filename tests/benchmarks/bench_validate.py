"""Benchmark: `triplea-gen validate` of real games as whole processes (not part of the test run).

    python3 tests/benchmarks/bench_validate.py [--runs 7] [--engine current|1.9] [GAME.xml ...]

Each validation is its own process (interpreter start, imports, catalog and schema
load, parse, checks), run several times after one warm-up; prints the median and
the spread (min..max) of wall and CPU time, and the in-process CPU time of the
validation alone for comparison."""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("TRIPLEA_GEN_SHARED", REPO.parent / "shared"))
DEFAULT_GAMES = [SHARED / "corpus" / "xml" / "ww2_g40_balanced.xml"]


def run_once(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    completed = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=REPO)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if completed.returncode not in (0, 1):  # 1 = the game has errors, still a measurement
        raise SystemExit(f"failed ({completed.returncode}): {' '.join(command)}\n{completed.stderr.decode()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def in_process_cpu(game: Path, engine: str, runs: int) -> list[float]:
    sys.path.insert(0, str(REPO))
    from generator.check.validate import validate_file

    validate_file(game, engine=engine)  # catalog and schema are loaded once per process
    samples = []
    for _ in range(runs):
        start = time.process_time()
        validate_file(game, engine=engine)
        samples.append(time.process_time() - start)
    return samples


def spread(samples: list[float]) -> str:
    return (f"median {statistics.median(samples) * 1000:7.1f} ms  "
            f"(min {min(samples) * 1000:.1f} .. max {max(samples) * 1000:.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", type=Path, default=DEFAULT_GAMES)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--engine", choices=("current", "1.9"), default="current")
    args = parser.parse_args()
    for game in args.games:
        if not game.is_file():
            raise SystemExit(f"{game}: not found (set TRIPLEA_GEN_SHARED to the shared folder)")
        command = [sys.executable, "-m", "generator", "validate", "--engine", args.engine, str(game)]
        run_once(command)  # warm the file cache and the compiled bytecode
        samples = [run_once(command) for _ in range(args.runs)]
        print(f"{game.name} ({game.stat().st_size / 1e6:.2f} MB), engine {args.engine}, {args.runs} runs")
        print(f"  process wall  {spread([wall for wall, _ in samples])}")
        print(f"  process CPU   {spread([cpu for _, cpu in samples])}")
        print(f"  in-process CPU of the validation alone: {spread(in_process_cpu(game, args.engine, args.runs))}")


if __name__ == "__main__":
    main()
