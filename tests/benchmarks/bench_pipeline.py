"""Benchmark: import and build of real games as whole processes (not part of the test run).

    python3 tests/benchmarks/bench_pipeline.py [--runs 5] [GAME.xml ...]

Each command runs as its own process, several times; prints the median and the
spread of wall time and the peak resident memory. When the TripleA engine is
installed, the engine's own load of the same game (a cold JVM running its
GameParser through `triplea-gen engine check`) is measured in the same run and
every figure is also given as a ratio to it."""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("TRIPLEA_GEN_SHARED", REPO.parent / "shared"))
DEFAULT_GAMES = [SHARED / "corpus" / "xml" / "ww2_g40_balanced.xml"]


def run_once(command: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one child process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=REPO)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"failed ({process.returncode}): {' '.join(command)}\n{process.stderr.read().decode()}")
    return elapsed, usage.ru_maxrss / 1024


def measure(label: str, command: list[str], runs: int) -> dict:
    run_once(command)  # warm the file cache and compiled bytecode
    samples = [run_once(command) for _ in range(runs)]
    walls = [wall for wall, _ in samples]
    return {"label": label, "median": statistics.median(walls), "min": min(walls), "max": max(walls),
            "rss": max(rss for _, rss in samples)}


def engine_installed() -> bool:
    try:
        from generator.engine.harness import engine_available
    except ImportError:
        return False
    return engine_available()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", type=Path, default=DEFAULT_GAMES)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    cli = [sys.executable, "-m", "generator"]
    with tempfile.TemporaryDirectory() as temp:
        for game in args.games:
            if not game.is_file():
                raise SystemExit(f"{game}: not found (is ../shared present?)")
            spec = Path(temp) / f"{game.stem}.yaml"
            subprocess.run(cli + ["import", str(game), "-o", str(spec)], check=True, capture_output=True)
            rows = []
            engine = None
            if engine_installed():
                engine = measure("engine load (1.9, cold JVM)", cli + ["engine", "check", str(game)], args.runs)
                rows.append(engine)
            rows.append(measure("import", cli + ["import", str(game), "-o", str(spec)], args.runs))
            rows.append(measure("build", cli + ["build", str(spec), "-o", str(Path(temp) / "out")], args.runs))
            rows.append(measure("--help", cli + ["--help"], args.runs))
            print(f"\n{game.name} ({game.stat().st_size / 1e6:.2f} MB), {args.runs} runs each")
            print(f"{'command':30} {'median s':>9} {'min':>7} {'max':>7} {'peak MiB':>9} {'x engine':>9}")
            for row in rows:
                ratio = f"{row['median'] / engine['median']:.2f}" if engine else "-"
                print(f"{row['label']:30} {row['median']:9.3f} {row['min']:7.3f} {row['max']:7.3f} "
                      f"{row['rss']:9.1f} {ratio:>9}")


if __name__ == "__main__":
    main()
