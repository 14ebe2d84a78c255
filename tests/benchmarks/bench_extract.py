"""Speed of `import MOD.xml --base BASE` against `import MOD.xml` (not part of the test run).

    python3 tests/benchmarks/bench_extract.py [--runs 7]

Whole processes, one warm-up run each, then RUNS rounds that run both commands in turn;
medians. Pairs: Global 1940 Balanced (1.29 MB) from 2nd edition, and a 2.4 MB game made
in a temporary folder from Balanced by declaring each of its attachments a second time
under a new name (nothing of it is kept), from 2nd edition. Also prints each overlay's
line count against the full import's."""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("TRIPLEA_GEN_SHARED", REPO.parent / "shared"))
GAMES = SHARED / "maps" / "world_war_ii_global" / "map" / "games"
CLI = [sys.executable, "-m", "generator"]


def doubled_attachments(source: Path, target: Path) -> Path:
    """source with every attachment declared once more under a new name (about twice the size)."""
    text = source.read_text(encoding="utf-8")
    start, end = text.index("<attachmentList>") + len("<attachmentList>"), text.index("</attachmentList>")
    copies = re.sub(r'(<attachment name=")([^"]*)"', r'\1\2_copy"', text[start:end])
    target.write_text(text[:end] + copies + text[end:], encoding="utf-8")
    return target


def timed(command: list[str]) -> float:
    began = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO)))
    return time.perf_counter() - began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    if not GAMES.is_dir():
        print(f"needs {GAMES}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        base = GAMES / "ww2global40_2nd_edition.xml"
        pairs = [("Global 1940 Balanced", GAMES / "ww2global40_balanced.xml"),
                 ("Balanced, attachments twice", doubled_attachments(GAMES / "ww2global40_balanced.xml", folder / "big.xml"))]
        print("| game (size) | import | import --base 2nd edition | ratio | overlay lines / full import lines |")
        print("| --- | --- | --- | --- | --- |")
        for label, mod in pairs:
            full, overlay = folder / f"{mod.stem}.full.yaml", folder / f"{mod.stem}.mod.yaml"
            plain = CLI + ["import", str(mod), "-o", str(full)]
            extract = CLI + ["import", str(mod), "--base", str(base), "-o", str(overlay)]
            timed(plain), timed(extract)  # warm-up: bytecode, the base game's cache
            plain_times, extract_times = [], []
            for _ in range(args.runs):
                plain_times.append(timed(plain))
                extract_times.append(timed(extract))
            a, b = statistics.median(plain_times), statistics.median(extract_times)
            lines = [len(p.read_text(encoding="utf-8").splitlines()) for p in (overlay, full)]
            size = mod.stat().st_size / 1e6
            print(f"| {label} ({size:.2f} MB) | {a:.3f} s | {b:.3f} s | {b / a:.2f} | "
                  f"{lines[0]} / {lines[1]} ({100 * lines[0] / lines[1]:.0f} %) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
