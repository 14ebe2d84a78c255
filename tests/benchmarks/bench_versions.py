"""Two checkouts of triplea-gen timed against each other, command by command (not part of the test run).

    python3 tests/benchmarks/bench_versions.py OTHER_CHECKOUT [--runs 9]

Runs each command as a whole process from this checkout and from OTHER_CHECKOUT in turn
(A, B, A, B, ...), so that load on the machine falls on both alike, after one warm-up run
of each; prints the median wall time of each and the ratio this/other. Use it to show that a
change (a restructure) made nothing slower; bench_speed.py gives the figures against the
engine. Needs ../shared (the Global 1940 map and the corpus)."""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("TRIPLEA_GEN_SHARED", HERE.parent / "shared"))


def _commands(work: Path) -> dict[str, list[str]]:
    balanced = str(SHARED / "corpus" / "xml" / "ww2_g40_balanced.xml")
    imported = str(work / "balanced.yaml")
    return {
        "--help": ["--help"],
        "validate ww2_g40_balanced.xml": ["validate", balanced],
        "import ww2_g40_balanced.xml": ["import", balanced, "-o", imported],
        "build of the imported YAML": ["build", imported, "-o", str(work / "out-full")],
        "build s000 (a Global 1940 mod)": ["build", "rules_yaml/s000_nonaggression_pacts.yaml", "-o", str(work / "out-mod")],
        "build s001 (a mod with 60 rules)": ["build", "rules_yaml/s001_kaihlhac_balance.yaml", "-o", str(work / "out-s001")],
        "build hex_skirmish (a generated map)": ["build", "rules_yaml/hex_skirmish.yaml", "-o", str(work / "out-hex")],
    }


def _run(checkout: Path, args: list[str]) -> float:
    env = dict(os.environ, PYTHONPATH=str(checkout), TRIPLEA_GEN_NO_SERVER="1", TRIPLEA_MAPS=str(SHARED / "maps"))
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "generator", *args], cwd=checkout, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="the other checkout (e.g. a git worktree of the old commit)")
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args(argv)
    other = args.other.resolve()
    print(f"{'command':40} {'this':>8} {'other':>8} {'this/other':>10}")
    with tempfile.TemporaryDirectory() as temp:
        work = Path(temp)
        for name, command in _commands(work).items():
            times: dict[Path, list[float]] = {HERE: [], other: []}
            for checkout in (HERE, other):
                _run(checkout, command)  # warm-up: bytecode and caches
            for _ in range(args.runs):
                for checkout in (HERE, other):
                    times[checkout].append(_run(checkout, command))
            mine, theirs = statistics.median(times[HERE]), statistics.median(times[other])
            print(f"{name:40} {mine:8.3f} {theirs:8.3f} {mine / theirs:10.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
