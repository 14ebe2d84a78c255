"""The real TripleA engine in the loop: its own parser on our files (check) and
headless games played by its AI (play), through a small Java program of ours
(java/: the engine-neutral common/ with the adapter package of the engine, v19/ or current/;
engines.SOURCE_ROOTS), compiled for engines.JAVA_RELEASE on first use into the user's cache.
Which engine: an Engine of engines.py (default: 1.9). What it prints is read through
harness-records.schema.json (records.py).

Everything the engine writes (settings, autosaves, map links) goes to a scratch
user.home that is deleted afterwards; the user's ~/triplea is never touched."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from generator.core.datacache import cache_folder
from generator.core.diagnostics import (EXIT_ERRORS, EXIT_OK, EXIT_UNUSABLE, Diagnostic, DiagnosticError,
                                        Position, display_path)
from generator.engine import lifecycle, memory
from generator.engine.engines import (JAVA_RELEASE, MAIN_CLASSES, SOURCE_ROOTS, Engine, engine_class_path,  # noqa: F401 (engine_class_path: re-exported)
                                      engine_named, java_sources, legacy_engine)
from generator.engine.install import engine_jar, engine_problem
from generator.engine.records import Record, read_output
from generator.core.enginename import EngineName

HARNESS_CLASS = MAIN_CLASSES[EngineName.V1_9]
AI_CHOICES = ("easy", "fast")
DEFAULT_PLAY_TIMEOUT = 600.0
# Time on top of the game's own limit for starting the JVM and reading the game, after
# which the JVM is presumed stuck and killed.
_JVM_GRACE_SECONDS = 60.0
_CHECK_SECONDS_PER_FILE = 20.0
_JVM_OPTIONS = (
    "-Djava.awt.headless=true",
    # The AIs draw decisions from Math.random and Collections.shuffle; the harness seeds
    # those through reflection, which Java 17 allows only for opened packages.
    "--add-opens", "java.base/java.lang=ALL-UNNAMED",
    "--add-opens", "java.base/java.util=ALL-UNNAMED",
    # ... and gives the units' ids a fixed VMID (1.9's PlayMode.repeatableIds).
    "--add-opens", "java.rmi/java.rmi.dgc=ALL-UNNAMED",
)
# On every java command line, after the caller's options so that they win: the engine's
# GameParser (its only XML reader) gets our guarded DOM factory, which serves game.dtd from
# the jar and refuses every other DTD or entity; any other XML API of the JDK may open no
# external DTD, schema or stylesheet at all; entity expansion and nesting are bounded.
XML_GUARD_PROPERTIES = (
    "-Djavax.xml.parsers.DocumentBuilderFactory=tripleagen.guard.GuardedDocumentBuilderFactory",
    "-Djavax.xml.accessExternalDTD=",
    "-Djavax.xml.accessExternalSchema=",
    "-Djavax.xml.accessExternalStylesheet=",
    "-Djdk.xml.entityExpansionLimit=100",
    "-Djdk.xml.maxElementDepth=256",
)


@dataclass
class CheckResult:
    """The engine parser's verdict on one file."""

    path: Path
    ok: bool
    counts: dict[str, int] = field(default_factory=dict)
    error: str = ""
    warnings: list[str] = field(default_factory=list)  # the DTD complaints the engine prints and ignores

    def as_json(self) -> dict:
        data = asdict(self)
        data["path"] = display_path(self.path)
        return data


@dataclass
class PlayReport:
    """What happened in a headless game played by the engine's AI."""

    path: Path
    game: str
    ai: str
    seed: int | None
    map_dir: str | None
    rounds_requested: int
    rounds_completed: int
    stopped_by: str  # rounds | game over | exception | time limit
    steps_run: int
    last_step: str | None
    round_seconds: list[float]
    total_seconds: float
    ai_randomness_seeded: bool
    exceptions: list[dict]  # {kind, type, message, round, step, at}
    fired: list[dict]  # {trigger, round, step, event}
    air_removed: list[dict]  # {round, step, event}: aircraft the engine removed as unable to land
    players: list[dict]  # {name, resources, territories, units, unplaced_units}
    console_warnings: dict[str, int]
    winners: list[str] | None  # None while nobody has won
    # What the engine showed the players in message windows (notifications, victory, politics):
    # {kind, title, text, to, not_to, round, step}
    messages: list[dict] = field(default_factory=list)
    # The steps that took longest, slowest first: {round, step, player, seconds} (StepTimes.java)
    slowest_steps: list[dict] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """The requested rounds were played (or the game was won first) without any exception."""
        return not self.exceptions and self.stopped_by in ("rounds", "game over")

    def diagnostics(self) -> list[Diagnostic]:
        position = Position(display_path(self.path))
        return [
            Diagnostic("TG311", f"{entry['kind']} exception in round {entry['round']}, step "
                       f"{entry['step']}: {entry['message']}", position,
                       "the engine could not play this game; the step names where it broke")
            for entry in self.exceptions
        ]

    def as_json(self) -> dict:
        data = asdict(self)
        data["path"] = display_path(self.path)
        data["ok"] = self.ok
        return data


def engine_available(engine: str | None = None) -> bool:
    """Whether the engine named (None: 1.9) can run here."""
    if engine in (None, EngineName.V1_9):
        return engine_problem() is None
    from generator.engine.engines import engine_problem_named

    return engine_problem_named(engine) is None


def _require_engine() -> Path:
    problem = engine_problem()
    if problem:
        raise _error("TG301", problem, "triplea-gen",
                     "run 'triplea-gen engine install' (Debian/Ubuntu: apt-get install triplea), "
                     "or point TRIPLEA_JAR at a 1.9 triplea.jar")
    return engine_jar()


def _error(code: str, message: str, where: str, hint: str = "") -> DiagnosticError:
    # The game's own failures (TG31x, and a game too large for the engine's memory: TG083) exit
    # like a failed check; a missing engine or a bad argument (TG30x, TG084) exits as unusable input.
    status = EXIT_ERRORS if code.startswith("TG31") or code == "TG083" else EXIT_UNUSABLE
    return DiagnosticError([Diagnostic(code, message, Position(where), hint)], exit_status=status)


def _java_sources() -> list[Path]:
    return list(java_sources(*SOURCE_ROOTS[EngineName.V1_9]))


def _harness_key(jar: Path, sources: list[Path]) -> str:
    """Changes whenever the compiled classes could be stale: sources, engine jar or JDK (1.9's)."""
    return legacy_engine(jar).cache_key(sources)


def resolve_engine(engine: Engine | str | None = None) -> Engine:
    """The Engine for engine: one already made, a name of engines.ENGINE_NAMES, or None for 1.9."""
    if isinstance(engine, Engine):
        return engine
    if engine in (None, EngineName.V1_9):
        return replace(legacy_engine(_require_engine()), sources=tuple(_java_sources()))
    return engine_named(engine)


@lru_cache(maxsize=1)
def _classes_of_this_process() -> Path:
    return Path(lifecycle.scratch_folder_for_process("classes"))  # safe-write: made exclusively, private (lifecycle)


def compile_java(sources: list[Path], kind: str, engine: Engine | str | None = None) -> Path:
    """Java sources of ours compiled against the engine into ~/.cache/triplea-gen/<kind>/<key>,
    once; returns the class folder.

    Race-safe without locks: each compiler writes a private temporary folder and
    renames it into place; whoever renames second throws its copy away."""
    engine = resolve_engine(engine)
    # No private cache folder (one others may write to would let them plant classes): this process's own
    folder = cache_folder(kind) or _classes_of_this_process()
    target = folder / engine.cache_key(sources)
    if target.is_dir():
        return target
    # safe-write: javac writes only inside this folder, made exclusively (mode 700) in the private
    # cache folder (cache_folder) or this process's own; the rename moves that folder into place,
    # and fails rather than replace anything (a non-empty folder, a file, a link) already there.
    building = Path(tempfile.mkdtemp(prefix=".building-", dir=target.parent))
    try:
        command = [*engine.compiler, "-d", str(building),
                   "-cp", os.pathsep.join(engine.class_path()), *map(str, sources)]
        compiled = subprocess.run(command, capture_output=True, text=True)
        if compiled.returncode != 0:
            said = compiled.stderr.strip() or compiled.stdout.strip()
            raise _error("TG302", f"could not compile the {engine.name} harness ({len(sources)} files, "
                         f"--release {JAVA_RELEASE}): " + said, compile_error_place(said, sources),
                         f"the installed engine ({engine.jar}) may not be the {engine.name} version "
                         "triplea-gen drives")
        try:
            os.rename(building, target)  # safe-write: see above
        except OSError:
            if not target.is_dir():
                raise
    finally:
        shutil.rmtree(building, ignore_errors=True)  # safe-write: our own folder (rmtree follows no link)
    return target


# javac: "PATH:LINE: error: ..."; ecj: "1. ERROR in PATH (at line LINE)".
_JAVAC_PLACE = re.compile(r"^(?P<path>\S+\.java):(?P<line>\d+): error:", re.MULTILINE)
_ECJ_PLACE = re.compile(r"^\d+\. ERROR in (?P<path>.+?\.java) \(at line (?P<line>\d+)\)", re.MULTILINE)


def compile_error_place(said: str, sources: list[Path]) -> str:
    """Where the compiler's first error is, as file:line (the source's shown path), or the first
    source's folder when the compiler named no place."""
    for pattern in (_JAVAC_PLACE, _ECJ_PLACE):
        found = pattern.search(said)
        if found:
            return str(Position(display_path(Path(found["path"])), int(found["line"])))
    return display_path(sources[0].parent) if sources else "triplea-gen"


def harness_classes(engine: Engine | str | None = None) -> Path:
    """The folder of compiled harness classes, compiling them first if needed."""
    engine = resolve_engine(engine)
    return compile_java(list(engine.sources), engine.cache_kind, engine)


def xml_guard_classes(engine: Engine | str | None = None) -> Path:
    """The folder of the compiled guarded XML parser factories that every JVM of ours uses."""
    engine = resolve_engine(engine)
    return compile_java(list(engine.guard_sources), engine.cache_kind + "-guard", engine)


def java_command(classes: Path, main_class: str, arguments: list[str], home, options=_JVM_OPTIONS,
                 watch_parent: bool = True, engine: Engine | str | None = None) -> list[str]:
    """`java` running main_class (compiled into classes) against the engine's jars, with home as
    its user.home and temporary folder; run it in the engine jar's folder.

    Every JVM triplea-gen starts is built here: it adds the XML guard (XML_GUARD_PROPERTIES and
    the guard's classes first on the class path), so that no game file can make the engine
    read a DTD or entity other than the jar's game.dtd. Game files given to it on the command
    line must come from vet_for_engine (stage_for_engine).

    The JVM also gets its memory bound and the marks of this run (engine_jvm_limits); with
    watch_parent (for run_bounded, which gives it the pipe) it halts when its stdin ends."""
    engine = resolve_engine(engine)
    class_path = os.pathsep.join([str(xml_guard_classes(engine)), str(classes), *engine.class_path()])
    limits = [option for option in engine_jvm_limits() if watch_parent or option != lifecycle.PARENT_OPTION]
    return [engine.java, f"-Duser.home={home}", f"-Djava.io.tmpdir={home}", *engine.jvm_options, *options, *limits,
            *XML_GUARD_PROPERTIES, *engine.guard_properties, "-cp", class_path, main_class, *arguments]


def engine_jvm_limits() -> tuple[str, ...]:
    """What every JVM of ours gets after the caller's options: its memory bound (engine.memory:
    sized to the machine and to the engines running at once) and the marks that tie it to this run
    (engine.lifecycle: it ends when triplea-gen does). Raises TG084 for a bad TRIPLEA_GEN_ENGINE_HEAP."""
    try:
        heap = memory.heap_options()
    except memory.HeapSettingError as err:
        raise _error("TG084", str(err), memory.HEAP_VARIABLE, "give the heap in MiB, e.g. "
                     f"{memory.HEAP_VARIABLE}=1024, or unset it to size the heap to the machine") from None
    return (*heap, *lifecycle.owner_options())


def vet_for_engine(path: Path) -> bytes:
    """The bytes of a game file that may be given to the engine: the file must pass
    triplea-gen's own safe read completely (size, encoding, DOCTYPE naming only a bare file,
    no entities, bounded nesting, well-formed, a <game> root). The engine's parser would
    otherwise fetch what a DOCTYPE or entity names, so any refusal is final: raises the
    located diagnostic."""
    from generator.read.safexml import parse_xml_bytes, read_input

    data = read_input(path)
    parse_xml_bytes(data, display_path(path))
    return data


def stage_for_engine(path: Path, home, data: bytes | None = None) -> Path:
    """A private copy, in the engine's scratch home, of the bytes vet_for_engine accepted (data,
    when the caller vetted them already), so that the engine reads exactly what was checked:
    the original may change in between. Keeps the file name: the engine names the game by it."""
    if data is None:
        data = vet_for_engine(path)
    games = Path(home) / "triplea-gen-games"
    # safe-write: home is the engine's scratch folder (a TemporaryDirectory of ours), and the copy
    # is made exclusively ("x") in a folder made exclusively under it
    games.mkdir(mode=0o700, exist_ok=True)
    staged = Path(tempfile.mkdtemp(dir=games)) / Path(path).name  # safe-write: see above
    with open(staged, "xb") as handle:  # safe-write: see above
        handle.write(data)
    return staged


def engine_parse_command(game: Path, home: Path, engine: Engine | str | None = None) -> tuple[list[str], Path]:
    """The java command (and its working folder) that parses one game in a fresh JVM: the
    engine's own load of a game, as the benchmarks time it. The caller runs it as it likes, so the
    JVM does not watch its stdin."""
    engine = resolve_engine(engine)
    staged = stage_for_engine(game, home)
    return (java_command(harness_classes(engine), engine.harness_class, ["check", str(staged)], home,
                         watch_parent=False, engine=engine), engine.working_dir)


def run_bounded(command: list[str], cwd: Path, timeout: float, env: dict | None = None) -> subprocess.CompletedProcess:
    """Runs command in a process group of its own (lifecycle.start_group: stopped at once when
    triplea-gen is interrupted, and its JVM ends by itself when triplea-gen dies); past timeout
    the whole group (a JVM, and xvfb-run's X server) is stopped, politely first, and
    TimeoutExpired raised."""
    process = lifecycle.start_group(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        lifecycle.stop_group(process.pid, grace=5)
        raise
    finally:
        lifecycle.end_group(process)
    if lifecycle.stopping():  # stopped by an interruption: its output is no verdict
        raise lifecycle.Interrupted()
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def _run_harness(arguments, games: dict[Path, bytes], timeout: float, engine: Engine | str | None = None) -> Record:
    """Runs the harness in a fresh JVM with a scratch user.home; returns its JSON report, read as
    one of the records its mode (the first argument) may print (records.read_output; TG093).
    games maps each game file to its vetted bytes; arguments(staged) gives the harness
    arguments for their staged copies."""
    engine = resolve_engine(engine)
    with lifecycle.scratch_folder("home") as home:  # safe-write: made exclusively, private (lifecycle)
        staged = [stage_for_engine(game, home, data) for game, data in games.items()]
        harness_arguments = arguments(staged)
        command = java_command(harness_classes(engine), engine.harness_class, harness_arguments, home,
                               engine=engine)
        # The engine reads game_engine.properties from its working directory.
        try:
            finished = run_bounded(command, cwd=engine.working_dir, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise _error("TG312", f"the engine did not finish within {timeout:.0f} s and was stopped",
                         "triplea-gen", "raise --timeout, or play fewer rounds") from None
    stdout = finished.stdout.decode("utf-8", "replace")
    try:
        report = json.loads(stdout)
    except json.JSONDecodeError:
        console = finished.stderr.decode("utf-8", "replace").strip().splitlines()
        # The JVM's own "Terminating due to ..." line goes to stdout.
        out_of_memory = out_of_memory_error(finished.returncode, stdout.splitlines() + console)
        if out_of_memory:
            raise out_of_memory from None
        raise _error("TG303", f"the engine harness stopped without a report (exit status "
                     f"{finished.returncode}): " + " | ".join(console[-5:]), "triplea-gen",
                     "this is a bug in triplea-gen or a broken Java installation") from None
    return read_output(harness_arguments[0], report, engine.name)


def out_of_memory_error(status: int, console: list[str]) -> DiagnosticError | None:
    """TG083 when the JVM stopped on an OutOfMemoryError (-XX:+ExitOnOutOfMemoryError: exit status 3
    and the JVM's "Terminating due to java.lang.OutOfMemoryError" line), else None."""
    said = [line for line in console if "OutOfMemoryError" in line]
    if not said:
        return None
    return _error("TG083", f"the engine ran out of memory (its heap limit is {memory.engine_heap_mib()} MiB; exit "
                  f"status {status}): {said[-1].strip()}", "triplea-gen",
                  "the game holds more than a game can (units, territories): fewer units in the game or the "
                  f"scenario's given; {memory.HEAP_VARIABLE}=MiB sets a larger heap")


def check_games(paths: list[Path], engine: Engine | str | None = None) -> list[CheckResult]:
    """The engine parser's verdict on each file, all in one JVM. A file triplea-gen's own
    reader refuses is not given to the engine; its verdict is that located diagnostic."""
    paths = [Path(path) for path in paths]
    verdicts: dict[Path, CheckResult] = {}
    vetted: dict[Path, bytes] = {}
    for path in paths:
        try:
            vetted[path] = vet_for_engine(path)
        except DiagnosticError as err:
            refusal = err.diagnostics[0]
            verdicts[path] = CheckResult(path=path, ok=False, error="not given to the engine: "
                                         f"{refusal.position}: {refusal.severity}[{refusal.code}]: {refusal.message}")
    to_engine = {path: data for path, data in vetted.items() if path not in verdicts}
    if to_engine:
        report = _run_harness(lambda staged: ["check", *map(str, staged)], to_engine,
                              timeout=_JVM_GRACE_SECONDS + _CHECK_SECONDS_PER_FILE * len(to_engine), engine=engine)
        for path, result in zip(to_engine, report["results"]):
            verdicts[path] = CheckResult(path=path, ok=result["ok"], counts=result["counts"] or {},
                                         error=result["error"] or "", warnings=result["warnings"])
    return [verdicts[path] for path in paths]


def play_game(path: Path, rounds: int = 2, ai: str = "easy", seed: int | None = None,
              map_dir: Path | None = None, timeout: float = DEFAULT_PLAY_TIMEOUT,
              engine: Engine | str | None = None) -> PlayReport:
    """Plays the game headlessly with every player controlled by the engine's AI.

    Raises TG310 when the engine refuses the file and TG312 when the time limit is
    reached; exceptions during play are in the report (see PlayReport.diagnostics)."""
    path = Path(path)
    shown = display_path(path)
    if ai not in AI_CHOICES:
        raise _error("TG304", f"unknown AI '{ai}'", shown, f"choose one of: {', '.join(AI_CHOICES)}")
    if rounds < 1:
        raise _error("TG304", f"rounds must be at least 1, not {rounds}", shown)
    vetted = vet_for_engine(path)  # raises the located refusal: the file is not given to the engine
    arguments = ["--rounds", str(rounds), "--ai", ai, "--timeout", str(timeout)]
    if seed is not None:
        arguments += ["--seed", str(seed)]
    if map_dir is not None:
        map_dir = Path(map_dir)
        if not map_dir.is_dir():
            raise _error("TG304", "map folder not found", display_path(map_dir),
                         "give the map's top folder, the one that contains map/ (or the map/ folder itself)")
        arguments += ["--map-dir", str(map_dir.resolve())]
    report = _run_harness(lambda staged: ["play", str(staged[0]), *arguments], {path: vetted},
                          timeout=timeout + _JVM_GRACE_SECONDS, engine=engine)
    if not report["ok"]:
        raise _error("TG310", f"the engine refused the game: {report['error']}", shown,
                     "'triplea-gen engine check' shows the same verdict; fix what the engine names")
    if report["stopped_by"] == "time limit":
        raise _error("TG312", f"time limit of {timeout:g} s reached after {report.get('rounds_completed', 0)} "
                     f"of {rounds} rounds (at step {report.get('last_step')})", shown,
                     "raise --timeout, or play fewer rounds")
    return PlayReport(
        path=path, game=report["game"], ai=ai, seed=seed,
        map_dir=display_path(map_dir) if map_dir is not None else None,
        rounds_requested=rounds, rounds_completed=report["rounds_completed"],
        stopped_by=report["stopped_by"], steps_run=report["steps_run"], last_step=report["last_step"],
        round_seconds=report["round_seconds"], total_seconds=report["total_seconds"],
        ai_randomness_seeded=report["ai_randomness_seeded"], exceptions=report["exceptions"],
        fired=report["fired"], air_removed=report.get("air_removed", []), players=report["players"],
        console_warnings=report["console_warnings"], winners=report["winners"], messages=report["messages"],
        slowest_steps=report.get("slowest_steps", []))


def format_check_line(result: CheckResult) -> str:
    shown = display_path(result.path)
    if not result.ok:
        return f"FAIL {shown}: {result.error}"
    counts = result.counts
    return (f"OK  {shown}  ({counts['territories']} territories, {counts['players']} players, "
            f"{counts['unit_types']} units, {counts['attachments']} attachments, "
            f"{counts['triggers']} triggers, {counts['steps']} steps)")


def engine_check_files(paths: list[Path], show_warnings: bool = False, engine: Engine | str | None = None) -> int:
    """Prints the engine's verdict on each file; 0 when all load, 1 otherwise."""
    results = check_games(paths, engine=engine)
    for result in results:
        print(format_check_line(result))
        if show_warnings:
            for warning in result.warnings:
                print(f"    DTD: {warning}")
    sys.stdout.flush()
    return EXIT_OK if all(result.ok for result in results) else EXIT_ERRORS


def client_texts(map_name: str, map_dir: Path, questions: list[str], timeout: float = 120,
                 engine: Engine | str | None = None) -> list[dict]:
    """What the desktop client's own classes answer for an installed map folder (map_dir, under
    the name map_name): each question is politics:KEY or actions:KEY (button and description),
    notification:KEY (message) or unit:PLAYER:TYPE (the image URL). See TextsMode.java."""
    report = _run_harness(lambda staged: ["texts", map_name, str(Path(map_dir).resolve()), *questions], {},
                          timeout=timeout, engine=engine)
    return report["answers"]


def play_scenario_game(path: Path, options: list[str], timeout: float, engine: Engine | str | None = None) -> dict:
    """The harness's raw play report for one scenario game (generator.scenarios): options are the
    play options (--player-ai, --start-step, --until-step ...; see Harness.java). The file is
    vetted and staged like every game given to the engine; raises TG310 when the engine refuses it."""
    path = Path(path)
    vetted = vet_for_engine(path)
    arguments = [*options, "--timeout", str(timeout)]
    report = _run_harness(lambda staged: ["play", str(staged[0]), *arguments], {path: vetted},
                          timeout=timeout + _JVM_GRACE_SECONDS, engine=engine)
    if not report["ok"]:
        raise _error("TG310", f"the engine refused the game: {report['error']}", display_path(path),
                     "'triplea-gen engine check' shows the same verdict; fix what the engine names")
    return report


def battle_odds(path: Path, battles: list[str], seed: int = 1, runs: int = 500, timeout: float = 600,
                engine: Engine | str | None = None) -> list[dict]:
    """The engine's own battle calculator on battles of one game (OddsMode.java: each battle is
    ATTACKER|DEFENDER|TERRITORY|UNIT=N,...|UNIT=N,...), seeded: the same seed, the same figures."""
    path = Path(path)
    vetted = vet_for_engine(path)
    report = _run_harness(lambda staged: ["odds", str(staged[0]), str(seed), str(runs), *battles], {path: vetted},
                          timeout=timeout + _JVM_GRACE_SECONDS, engine=engine)
    if not report["ok"]:
        raise _error("TG310", f"the engine refused the game: {report['error']}", display_path(path),
                     "'triplea-gen engine check' shows the same verdict; fix what the engine names")
    return report["battles"]
