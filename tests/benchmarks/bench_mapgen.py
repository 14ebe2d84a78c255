"""Benchmark: map generation for a 30 x 20 hex map (600 territories), not part of the test run.

    python3 tests/benchmarks/bench_mapgen.py [--runs 5] [--columns 30] [--rows 20] [--size 40]

Writes a spec whose hexes are all single-hex territories (land and sea, from a
pseudo-random but fixed mask) and measures, in process,
the spec reading with geometry (territories, connections, outlines) and the whole
map folder (placement, rendering, tiles, PNG/JPEG encoding); then the whole
`triplea-gen build` as a separate process. Prints the median of each."""
from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))


def spec_text(columns: int, rows: int, size: int) -> str:
    chooser = random.Random(7)
    mask = []
    for row in range(rows):
        cells = []
        for column in range(columns):
            edge = row in (0, rows - 1) or column in (0, columns - 1)
            roll = chooser.random()
            cells.append("~" if edge or roll < 0.15 else ".")
        mask.append(("  " if row % 2 else " ") + " ".join(cells))
    terrain = "\n".join(mask)
    land = [f"{_column(column)}{row + 1}" for row in range(rows) for column in range(columns)
            if mask[row].split()[column] == "."]
    territory_attachments = "".join(
        f"  - {{name: territoryAttachment, attachTo: {name}, class: TerritoryAttachment, type: territory, "
        f"options: {{production: 1}}}}\n" for name in land)
    return f"""info: {{name: Bench Hexes, version: "1.0"}}
loader: games.strategy.triplea.TripleA
map:
  hexes:
    columns: {columns}
    rows: {rows}
    size: {size}
    terrain: |
{chr(10).join('      ' + line for line in terrain.splitlines())}
players:
  Reds: {{optional: false}}
  Blues: {{optional: false}}
units: [infantry]
delegates:
  initDelegate: {{class: InitializationDelegate}}
  endRound: {{class: EndRoundDelegate}}
sequence:
  - {{name: gameInitDelegate, delegate: initDelegate, maxRunCount: 1}}
  - {{name: endRoundStep, delegate: endRound}}
attachments:
  - {{name: unitAttachment, attachTo: infantry, class: UnitAttachment, type: unitType, options: {{movement: 1}}}}
{territory_attachments}properties:
  mapName: {{value: bench_hexes, editable: false}}
"""


def _column(index: int) -> str:
    from generator.mapgen.grids import column_letters

    return column_letters(index)


CPU_SECONDS: dict[str, float] = {}  # the median processor time of each timed step, by label


def timed(function, runs: int, label: str = "") -> tuple[float, object]:
    """Median wall-clock seconds (and, under label, median CPU seconds: steadier on a busy machine)."""
    samples, cpu, result = [], [], None
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = function()
        samples.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    if label:
        CPU_SECONDS[label] = statistics.median(cpu)
    return statistics.median(samples), result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--columns", type=int, default=30)
    parser.add_argument("--rows", type=int, default=20)
    parser.add_argument("--size", type=int, default=40)
    args = parser.parse_args()

    from generator.builder.outputs import output_files
    from generator.builder.pipeline import load_game
    from generator.builder.compiler import compile_spec

    with tempfile.TemporaryDirectory() as scratch:
        spec = Path(scratch) / "bench_hexes.yaml"
        spec.write_text(spec_text(args.columns, args.rows, args.size), "utf-8")
        load_game(spec)  # warm imports
        read_seconds, (game, _) = timed(lambda: load_game(spec), args.runs)
        compiled = compile_spec(spec)
        folder_seconds, files = timed(lambda: output_files(compiled), args.runs, "folder")
        total_seconds, _ = timed(lambda: output_files(compile_spec(spec)), args.runs)
        out = Path(scratch) / "out"
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "generator", "build", str(spec), "-o", str(out)], check=True,
                       cwd=REPO, stdout=subprocess.DEVNULL)  # with the validator, as a modder runs it
        process_seconds = time.perf_counter() - start
    geometry = game.geometry
    print(f"{args.columns} x {args.rows} hexes, size {args.size}: {len(game.territories)} territories, "
          f"{len(game.connections)} connections, map {geometry.width} x {geometry.height} px, "
          f"{len(files)} files ({sum(len(d) for d in files.values()) / 1e6:.1f} MB)")
    print(f"  read spec + geometry:            {read_seconds:6.3f} s (median of {args.runs})")
    print(f"  map folder (layout, art, files): {folder_seconds:6.3f} s (median of {args.runs}; "
          f"CPU {CPU_SECONDS['folder']:.3f} s)")
    print(f"  spec to all files in memory:     {total_seconds:6.3f} s (median of {args.runs})")
    print(f"  triplea-gen build, whole process: {process_seconds:5.3f} s (one run: validation, files written)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
