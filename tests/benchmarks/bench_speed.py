"""Speed and memory of triplea-gen against the real engine (not part of the test run).

    python3 tests/benchmarks/bench_speed.py [--runs 7] [--quick] [--json FILE]

Every figure is a whole process, run several times after one warm-up run, as on a
normal installation (compiled bytecode cached): median wall time, spread (min-max)
and peak resident memory. The yardstick is the TripleA 1.9 engine's own
load of the same game (a cold JVM running its GameParser), measured in the same
rounds as the triplea-gen commands it is compared with (each round runs every
command of a group once, in turn); each triplea-gen figure is also given as a
ratio to it. Files the 1.9 engine
refuses only for version reasons (no <info version>, no <loader>) are loaded by it
with those two added, so that the engine really parses the same content.

Measured: validate, import and build of the Global 1940 games and the corpus's
largest XMLs; the build of a Global 1940 mod (base plus overlay, validation
included) and its rebuild after a one-number change (as a new process, then as a new process
while the build server runs, then inside a warm `watch` process); the language server's time from
a keystroke to diagnostics on that mod (and from opening it to its first diagnostics) and to a
completion list of territory names (pygls's client over stdio); a synthetic game 10x the
size of Global 1940 against the same generator at 1x (linear scaling, memory);
and `triplea-gen --help` start-up."""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable, NamedTuple

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("TRIPLEA_GEN_SHARED", REPO.parent / "shared"))
GAMES = SHARED / "maps" / "world_war_ii_global" / "map" / "games"
CORPUS = SHARED / "corpus" / "xml"
CLI = [sys.executable, "-m", "generator"]

MOD_SPEC = """\
mod:
  name: Benchmark Mod
  version: "1.0"
  base: {{map: world_war_ii_global, game: ww2global40_2nd_edition.xml}}
  engine: "1.9"
change:
  units:
    cruiser: {{cost: {cost}}}
  territories:
    Urals: {{production: 2}}
rules:
  - id: B1
    text: Germany earns 2 PUs while it holds Poland and Denmark.
    use: national_objective
    with: {{player: Germans, amount: 2, owns: [Poland, Denmark]}}
  - id: B2
    text: Every major power earns 1 PU per round while it owns its capital.
    for: {{player: [Germans, Russians, Japanese, Americans, British, Italians]}}
    use: national_objective
    with: {{player: "{{{{ player }}}}", amount: 1, owns: []}}
"""


def installed_environment(env: dict | None = None) -> dict:
    """The environment of a normal installation: Python caches compiled bytecode (some sandboxes
    switch that off with PYTHONDONTWRITEBYTECODE, which would add a compile to every run).
    Every command runs in its own process unless the figure is about the build server."""
    env = dict(os.environ if env is None else env)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if not env.pop("BENCH_USE_SERVER", None):
        env["TRIPLEA_GEN_NO_SERVER"] = "1"
    return env


# Runs one command and reports its wall time and peak memory. Linux carries a process's peak
# resident memory over fork, so a command forked from this (large) benchmark process would report
# at least the benchmark's own size; forked from this small launcher, it reports its own.
LAUNCHER = """
import os, subprocess, sys, time
start = time.perf_counter()
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
print(time.perf_counter() - start, usage.ru_maxrss, os.waitstatus_to_exitcode(status))
"""


def run_once(command: list[str], cwd: Path = REPO, env: dict | None = None) -> tuple[float, float]:
    """Wall seconds and peak RSS (MiB) of one child process."""
    result = subprocess.run([sys.executable, "-c", LAUNCHER, *command], capture_output=True, text=True, cwd=cwd,
                            env=installed_environment(env))
    try:
        elapsed, peak_kib, status = result.stdout.split()
    except ValueError:
        raise SystemExit(f"launcher failed: {result.stderr[-2000:]}") from None
    if int(status) != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{result.stderr[-2000:]}")
    return float(elapsed), int(peak_kib) / 1024


class Job(NamedTuple):
    label: str
    command: list[str]
    cwd: Path = REPO
    env: dict | None = None
    prepare: Callable[[], None] | None = None  # run before each run, untimed


def measure_together(jobs: list[Job], runs: int) -> dict[str, dict]:
    """Each job once to warm caches, then `runs` rounds in which every job runs once in turn, so
    that the engine and triplea-gen meet the same machine (a shared machine's speed drifts)."""
    samples: dict[str, list] = {job.label: [] for job in jobs}
    for round_number in range(runs + 1):
        for job in jobs:
            if job.prepare:
                job.prepare()
            sample = run_once(job.command, job.cwd, job.env)
            if round_number:
                samples[job.label].append(sample)
    return {label: summary(values) for label, values in samples.items()}


def summary(samples: list[tuple[float, float]]) -> dict:
    walls = [wall for wall, _ in samples]
    return {"median": statistics.median(walls), "min": min(walls), "max": max(walls),
            "rss": max(rss for _, rss in samples)}


def engine_available() -> bool:
    try:
        from generator.engine.harness import engine_available as available
    except ImportError:
        return False
    return available()


def engine_loadable_copy(game: Path, folder: Path) -> Path:
    """The game as 1.9 can parse it: <info version> and <loader> added when missing."""
    text = game.read_text(encoding="utf-8")
    changed = text
    info = re.search(r"<info\b[^>]*?/?>", changed)
    if info and "version=" not in info.group(0):
        changed = changed.replace(info.group(0), info.group(0).replace("<info", '<info version="1.0"', 1), 1)
    if "<loader" not in changed:
        info = re.search(r"<info\b[^>]*?/>", changed)
        changed = changed.replace(info.group(0), info.group(0) +
                                  '\n<loader javaClass="games.strategy.triplea.TripleA"/>', 1)
    if changed == text:
        return game
    copy = folder / f"engine-{game.name}"
    copy.write_text(changed, encoding="utf-8")
    return copy


def engine_job(game: Path, folder: Path) -> Job | None:
    """The 1.9 engine's own load of game (its GameParser in a cold JVM), or None without an engine."""
    if not engine_available():
        return None
    from generator.engine.harness import check_games, engine_parse_command

    loadable = engine_loadable_copy(game, folder)
    (verdict,) = check_games([loadable])
    if not verdict.ok:
        print(f"  (the 1.9 engine refuses {game.name}: {verdict.error[:100]}; no engine yardstick)")
        return None
    home = folder / "engine-home"
    home.mkdir(exist_ok=True)
    command, cwd = engine_parse_command(loadable.resolve(), home)
    return Job(ENGINE, command, cwd)


def synthetic_game(scale: int) -> str:
    """A complete, valid game with `scale` times the territories, attachments and triggers of Global 1940
    (about 330 territories, 560 attachments with 5,000 options, 90 triggers, 1,000 unit placements per 1x)."""
    players = ["Germans", "Russians", "Japanese", "Americans", "British", "Italians"]
    lines = [f'info: {{name: Synthetic x{scale}, version: "1.0"}}', "loader: games.strategy.triplea.TripleA",
             "engine: '1.9'", "map:", "  territories:"]
    count = 330 * scale
    names = [f"T{i:05d}" for i in range(count)]
    lines += [f"    {n}: {{}}" for n in names]
    lines.append("  connections:")
    width = 30
    for i in range(count):
        if (i + 1) % width:
            lines.append(f"    - [{names[i]}, {names[min(i + 1, count - 1)]}]")
        if i + width < count:
            lines.append(f"    - [{names[i]}, {names[i + width]}]")
    lines += ["resources: {PUs: {}}", "players:"] + [f"  {p}: {{optional: false}}" for p in players]
    lines += ["alliances:", "  Axis: [Germans, Japanese, Italians]", "  Allies: [Russians, Americans, British]"]
    units = ["infantry", "artillery", "armour", "fighter", "bomber", "factory"]
    lines += [f"units: [{', '.join(units)}]", "delegates:",
              "  init: {class: InitializationDelegate}", "  purchase: {class: PurchaseDelegate}",
              "  move: {class: MoveDelegate}", "  battle: {class: BattleDelegate}", "  place: {class: PlaceDelegate}",
              "  endTurn: {class: EndTurnDelegate}", "  endRound: {class: EndRoundDelegate}",
              "sequence:", "  - {name: gameInit, delegate: init, maxRunCount: 1}"]
    for p in players:
        for phase, delegate in (("Purchase", "purchase"), ("CombatMove", "move"), ("Battle", "battle"),
                                ("NonCombatMove", "move"), ("Place", "place"), ("EndTurn", "endTurn")):
            lines.append(f"  - {{name: {p.lower()}{phase}, delegate: {delegate}, player: {p}}}")
    lines.append("  - {name: endRound, delegate: endRound}")
    lines += ["production:", "  rules:"] + [f"    buy{u}: {{cost: {{PUs: {3 + i}}}, result: {{{u}: 1}}}}"
                                            for i, u in enumerate(units)]
    lines += ["  frontiers:", f"    production: [{', '.join('buy' + u for u in units)}]", "  playerProduction:"]
    lines += [f"    {p}: production" for p in players]
    lines += ["attachments:"]
    for u in units:
        stats = "{isFactory: true}" if u == "factory" else \
            "{movement: 1, attack: 1, defense: 2, transportCost: 2, isInfantry: true}"
        lines.append(f"  - {{name: unitAttachment, attachTo: {u}, class: UnitAttachment, type: unitType, "
                     f"options: {stats}}}")
    capitals = {p: names[i * (count // len(players))] for i, p in enumerate(players)}
    for i, n in enumerate(names):
        capital = next((p for p, c in capitals.items() if c == n), None)
        extra = f", capital: {capital}" if capital else ""
        lines.append(f"  - {{name: territoryAttachment, attachTo: {n}, class: TerritoryAttachment, "
                     f"type: territory, options: {{production: {1 + i % 4}, victoryCity: {i % 2}{extra}, "
                     f"unitProduction: {1 + i % 4}, originalFactory: false}}}}")
    for k in range(15 * scale):
        p = players[k % len(players)]
        owned = ":".join(names[(k * 7 + j) % count] for j in range(4))
        lines.append(f"  - {{name: conditionAttachment_S{k}, attachTo: {p}, class: RulesAttachment, type: player, "
                     f"options: {{directOwnershipTerritories: {{value: '{owned}', count: 2}}, rounds: 2-+}}}}")
        lines.append(f"  - {{name: triggerAttachment_S{k}, attachTo: {p}, class: TriggerAttachment, type: player, "
                     f"options: {{conditions: conditionAttachment_S{k}, when: 'before:{p.lower()}Purchase', "
                     f"players: {p}, resource: PUs, resourceCount: 1, uses: 3}}}}")
        lines.append(f"  - {{name: objectiveAttachment_S{k}, attachTo: {p}, class: RulesAttachment, type: player, "
                     f"options: {{objectiveValue: 2, alliedOwnershipTerritories: {{value: '{owned}', count: 3}}}}}}")
    lines += ["initialize:", "  owners:"]
    lines += [f"    {n}: {players[i * len(players) // count]}" for i, n in enumerate(names)]
    lines.append("  units:")
    for i, n in enumerate(names):
        owner = players[i * len(players) // count]
        lines.append(f"    {n}:\n      {owner}: {{infantry: {1 + i % 3}, artillery: 1, armour: {i % 2}}}")
    lines += ["  resources:"] + [f"    {p}: {{PUs: 30}}" for p in players]
    lines += ["properties:", f"  mapName: {{value: synthetic_x{scale}}}",
              "  Use Triggers: {value: true, editable: false, type: boolean}",
              "  National Objectives: {value: true, editable: false, type: boolean}"]
    return "\n".join(lines) + "\n"


class Table:
    def __init__(self):
        self.rows: list[dict] = []

    def add(self, group: str, label: str, figures: dict | None, yardstick: dict | None,
            yardstick_name: str = "engine") -> None:
        if figures is None:
            return
        row = dict(group=group, label=label, **figures)
        if yardstick is not None:
            row["ratio"] = figures["median"] / yardstick["median"]
        self.rows.append(row)
        ratio = f"{row['ratio']:.2f}" if "ratio" in row else "-"
        print(f"  {label:44} {figures['median']:7.3f} s  ({figures['min']:.3f}-{figures['max']:.3f})  "
              f"{figures['rss']:7.1f} MiB  x {yardstick_name} {ratio}", flush=True)


ENGINE = "engine load (1.9, cold JVM)"


def add_group(table: Table, group: str, figures: dict[str, dict]) -> dict | None:
    engine = figures.get(ENGINE)
    for label, values in figures.items():
        table.add(group, label, values, None if label == ENGINE else engine)
    return engine


def bench_game(table: Table, game: Path, runs: int, temp: Path) -> None:
    print(f"\n{game.name} ({game.stat().st_size / 1e6:.2f} MB)")
    spec = temp / f"{game.stem}.yaml"
    subprocess.run(CLI + ["import", str(game), "-o", str(spec)], check=True, capture_output=True, cwd=REPO)
    jobs = [engine_job(game, temp),
            Job("validate", CLI + ["validate", str(game)]),
            Job("import", CLI + ["import", str(game), "-o", str(spec)]),
            Job("build (validation included)", CLI + ["build", str(spec), "-o", str(temp / "out"), "--engine",
                                                      "current"])]
    add_group(table, game.name, measure_together([job for job in jobs if job], runs))


def bench_mod(table: Table, runs: int, temp: Path) -> None:
    """The mod's first build, its rebuild after a one-number change as a new process, and the same
    with the build server running, alternating with the engine's load of the built mod."""
    print("\nGlobal 1940 mod (base ww2global40_2nd_edition.xml + overlay + 7 rules)")
    runtime = temp / "rt"
    runtime.mkdir()
    env = dict(os.environ, TRIPLEA_MAPS=str(SHARED / "maps"))
    server_env = dict(env, XDG_RUNTIME_DIR=str(runtime), BENCH_USE_SERVER="1")
    costs = iter(range(1000, 100000))
    specs = {name: temp / f"{name}.yaml" for name in ("bench_mod", "bench_rebuild", "bench_server")}
    for spec in specs.values():
        spec.write_text(MOD_SPEC.format(cost=11))
    out = temp / "mod-out"
    run_once(CLI + ["build", str(specs["bench_mod"]), "-o", str(out)], env=env)
    built = out / "world_war_ii_global" / "map" / "games" / "bench_mod.xml"
    engine = engine_job(built, temp)

    def one_number_change(spec: Path) -> Callable[[], None]:
        return lambda: spec.write_text(MOD_SPEC.format(cost=next(costs)))

    jobs = [engine,
            Job("build of the mod", CLI + ["build", str(specs["bench_mod"]), "-o", str(out)], env=env),
            Job("rebuild after a one-number change", CLI + ["build", str(specs["bench_rebuild"]), "-o", str(out)],
                env=env, prepare=one_number_change(specs["bench_rebuild"])),
            Job("the same rebuild, build server running", CLI + ["build", str(specs["bench_server"]), "-o", str(out)],
                env=server_env, prepare=one_number_change(specs["bench_server"]))]
    subprocess.run(CLI + ["server", "start"], check=True, capture_output=True, env=installed_environment(server_env))
    try:
        figures = measure_together([job for job in jobs if job], runs)
        status = subprocess.run(CLI + ["server", "status"], capture_output=True, text=True,
                                env=installed_environment(server_env), check=True)
    finally:
        subprocess.run(CLI + ["server", "stop"], capture_output=True, env=installed_environment(server_env))
    if f"{runs + 1} job(s) served" not in status.stdout:
        raise SystemExit(f"the builds did not all go to the server: {status.stdout}")
    engine_figures = add_group(table, "mod", figures)
    print(f"  (build server: {status.stdout.split(';')[0].split(', ', 1)[1]})")
    bench_warm_rebuild(table, runs, temp, engine_figures)
    bench_lsp(table, runs, temp, engine_figures)


WARM_REBUILD = """
import statistics, sys, time
from pathlib import Path
from generator.builder.outputs import build_spec
from generator.speclang.basecache import keep_in_memory, prepare_spare
keep_in_memory()  # as watch does
spec, out, runs = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
text = spec.read_text()
assert "cost: 11" in text, "the spec no longer has the cost each rebuild changes"
build_spec(str(spec), out, only_changed=True)  # the first build of a watch session
prepare_spare()  # as watch does after each build, while it waits for the next edit (not timed)
times, cpu = [], []
for cost in range(runs):
    spec.write_text(text.replace("cost: 11", f"cost: {1000 + cost}"))
    start, start_cpu = time.perf_counter(), time.process_time()
    build_spec(str(spec), out, only_changed=True)  # as watch does: only changed files written
    times.append(time.perf_counter() - start)
    cpu.append(time.process_time() - start_cpu)
    prepare_spare()
print(statistics.median(times), min(times), max(times), statistics.median(cpu))
"""


def bench_warm_rebuild(table: Table, runs: int, temp: Path, engine: dict | None) -> None:
    """The rebuild as `triplea-gen watch` does it: in a process that already built once."""
    env = dict(os.environ, TRIPLEA_MAPS=str(SHARED / "maps"))
    spec = temp / "bench_mod_watch.yaml"
    spec.write_text(MOD_SPEC.format(cost=11))
    result = subprocess.run([sys.executable, "-c", WARM_REBUILD, str(spec), str(temp / "watch-out"), str(runs)],
                            capture_output=True, text=True, env=installed_environment(env), cwd=REPO, check=True)
    median, low, high, cpu = map(float, result.stdout.split())
    table.add("mod", "rebuild in watch mode (warm process)", {"median": median, "min": low, "max": high,
                                                               "rss": float("nan")}, engine)
    # a loaded machine stretches wall time; the CPU time of the rebuild is its own work
    table.add("mod", "  the same, CPU time", {"median": cpu, "min": cpu, "max": cpu, "rss": float("nan")}, engine)


LSP_SESSION = """
import asyncio, os, statistics, sys, time
from lsprotocol import types as t
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

spec, runs = sys.argv[1], int(sys.argv[2])
text = open(spec).read()
assert "cost: 11" in text and "owns: [Poland, Denmark]" in text, "the mod no longer has what the edits change"

async def main():
    client = LanguageClient("bench", "1")
    published = asyncio.Queue()
    client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(lambda params: published.put_nowait(params))
    client.feature(t.WINDOW_LOG_MESSAGE)(lambda params: None)
    await client.start_io(sys.executable, "-m", "generator", "lsp")
    await client.initialize_async(t.InitializeParams(capabilities=t.ClientCapabilities()))
    client.initialized(t.InitializedParams())
    uri = from_fs_path(os.path.abspath(spec))
    start = time.perf_counter()
    client.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(uri, "yaml", 1, text)))
    await published.get()
    first = time.perf_counter() - start
    keystrokes, completions = [], []
    for run in range(runs):
        start = time.perf_counter()
        client.text_document_did_change(t.DidChangeTextDocumentParams(
            t.VersionedTextDocumentIdentifier(uri=uri, version=run + 2),
            [t.TextDocumentContentChangeWholeDocument(text.replace("cost: 11", f"cost: {1000 + run}"))]))
        while (await published.get()).version != run + 2:
            pass
        keystrokes.append(time.perf_counter() - start)
        line = next(n for n, l in enumerate(text.split("\\n")) if "owns: [Poland, Denmark]" in l)
        column = text.split("\\n")[line].index("Denmark]") + len("Den")
        start = time.perf_counter()
        listed = await client.text_document_completion_async(t.CompletionParams(
            t.TextDocumentIdentifier(uri), t.Position(line, column)))
        completions.append(time.perf_counter() - start)
        assert any(item.label == "Denmark" for item in listed.items)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    for values in (keystrokes, completions):
        print(statistics.median(values), min(values), max(values))
    print(first)

asyncio.run(main())
"""


def bench_lsp(table: Table, runs: int, temp: Path, engine: dict | None) -> None:
    """`triplea-gen lsp` on the mod: first diagnostics after opening it, a keystroke (a one-number
    change) to its diagnostics (the debounce included), and a completion list of the base's territories."""
    env = dict(os.environ, TRIPLEA_MAPS=str(SHARED / "maps"), PYTHONPATH=str(REPO))
    spec = temp / "bench_mod_lsp.yaml"
    spec.write_text(MOD_SPEC.format(cost=11))
    result = subprocess.run([sys.executable, "-c", LSP_SESSION, str(spec), str(runs)], capture_output=True,
                            text=True, env=installed_environment(env), cwd=temp)
    if result.returncode:
        print(f"  language server: not measured ({result.stderr.strip().splitlines()[-1:]})")
        return
    keystroke, completion, first = result.stdout.strip().splitlines()
    for label, line in (("lsp: keystroke to diagnostics (warm)", keystroke),
                        ("lsp: completion of territory names", completion)):
        median, low, high = map(float, line.split())
        table.add("lsp", label, {"median": median, "min": low, "max": high, "rss": float("nan")}, engine)
    table.add("lsp", "lsp: open to first diagnostics", {"median": float(first), "min": float(first),
                                                         "max": float(first), "rss": float("nan")}, engine)


def bench_scaling(table: Table, runs: int, temp: Path) -> None:
    print("\nSynthetic game: 1x and 10x the size of Global 1940 (build, validation included)")
    figures = {}
    for scale in (1, 10):
        spec = temp / f"synthetic_x{scale}.yaml"
        spec.write_text(synthetic_game(scale))
        figures[scale] = measure_together([Job("x", CLI + ["build", str(spec), "-o", str(temp / "synthetic")])],
                                          runs)["x"]
        table.add("synthetic", f"build + validate, {scale}x", figures[scale], figures.get(1) if scale > 1 else None,
                  "1x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--quick", action="store_true", help="only ww2_g40_balanced.xml, the mod and --help")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args()
    if not SHARED.is_dir():
        raise SystemExit(f"{SHARED} not found: the benchmark needs ../shared (corpus and Global 1940 map)")
    games = [CORPUS / "ww2_g40_balanced.xml"]
    if not args.quick:
        games += [GAMES / "ww2global40_2nd_edition.xml", GAMES / "ww2global40_balanced.xml",
                  CORPUS / "victory_test.xml", CORPUS / "pact_of_steel_2_test.xml"]
    table = Table()
    with tempfile.TemporaryDirectory() as temp:
        temp = Path(temp)
        for game in games:
            bench_game(table, game, args.runs, temp)
        bench_mod(table, args.runs, temp)
        if not args.quick:
            bench_scaling(table, max(3, args.runs // 2), temp)
        print("\nstart-up")
        table.add("cli", "triplea-gen --help", measure_together([Job("x", CLI + ["--help"])], args.runs)["x"], None)
    if args.json:
        args.json.write_text(json.dumps(table.rows, indent=2))


if __name__ == "__main__":
    main()
