"""Two checkouts of triplea-gen timed against each other, command by command (not part of the test run).

    python3 tests/benchmarks/bench_versions.py OTHER_CHECKOUT [--runs 9]

Runs each command as a whole process from this checkout and from OTHER_CHECKOUT in turn
(A, B, A, B, ...), so that load on the machine falls on both alike, after one warm-up run
of each; prints the median wall time and the median CPU time (user + system, which a loaded
machine distorts less) of each, and the ratios this/other. Use it to show that a
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
        "s000 after a one-number change": ["build", str(work / "s000_edited.yaml"), "-o", str(work / "out-mod")],
        "build s001 (a mod with 60 rules)": ["build", "rules_yaml/s001_kaihlhac_balance.yaml", "-o", str(work / "out-s001")],
        "build hex_skirmish (a generated map)": ["build", "rules_yaml/hex_skirmish.yaml", "-o", str(work / "out-hex")],
    }


def _run(checkout: Path, args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one command, as a normal installation runs it (bytecode cached)."""
    env = dict(os.environ, PYTHONPATH=str(checkout), TRIPLEA_GEN_NO_SERVER="1", TRIPLEA_MAPS=str(SHARED / "maps"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "generator", *args], cwd=checkout, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"failed in {checkout}: triplea-gen {' '.join(args)}")
    return time.perf_counter() - started, usage.ru_utime + usage.ru_stime


class _OneNumberChange:
    """Before each run: s000 with the cruiser's cost changed (s000 itself changes no unit), so that
    nothing kept of an earlier run of the whole spec could answer."""

    def __init__(self, work: Path):
        self.text = (HERE / "rules_yaml" / "s000_nonaggression_pacts.yaml").read_text(encoding="utf-8")
        assert "\nchange:" not in self.text, "s000 has a change: section now; edit a number in it instead"
        self.edited, self.cost = work / "s000_edited.yaml", 11

    def __call__(self) -> None:
        self.cost += 1
        self.edited.write_text(f"{self.text}\nchange:\n  units:\n    cruiser: {{cost: {self.cost}}}\n",
                               encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="the other checkout (e.g. a git worktree of the old commit)")
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args(argv)
    other = args.other.resolve()
    print(f"{'command':40} {'this':>8} {'other':>8} {'ratio':>6}   {'this CPU':>8} {'other CPU':>9} {'ratio':>6}")
    with tempfile.TemporaryDirectory() as temp:
        work = Path(temp)
        edit = _OneNumberChange(work)
        for name, command in _commands(work).items():
            prepare = edit if any("s000_edited" in part for part in command) else (lambda: None)
            times: dict[Path, list[tuple[float, float]]] = {HERE: [], other: []}
            for checkout in (HERE, other):
                prepare()
                _run(checkout, command)  # warm-up: bytecode and caches
            for _ in range(args.runs):
                for checkout in (HERE, other):
                    prepare()
                    times[checkout].append(_run(checkout, command))
            (mine, mine_cpu), (theirs, theirs_cpu) = (
                (statistics.median(w for w, _ in times[c]), statistics.median(u for _, u in times[c]))
                for c in (HERE, other))
            print(f"{name:40} {mine:8.3f} {theirs:8.3f} {mine / theirs:6.2f}   {mine_cpu:8.3f} {theirs_cpu:9.3f} "
                  f"{mine_cpu / theirs_cpu:6.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
