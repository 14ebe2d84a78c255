"""`triplea-gen engine gui`: a game in the real TripleA desktop client, as a player meets it.

For 1.9 the harness (Harness.java, play mode with --screenshot) opens the client's game window
under Xvfb with the map folder installed in a scratch user.home (triplea/downloadedMaps/<mapName>),
lets the easy AI play every player for the requested rounds, and photographs the screen. For the
current engine (2.x) java/current/tripleagen/harness/current/ClientGui.java does the same through the client's own launch
action; 2.x shows every warning it logs in an error window, and draws placeholders for a unit
without an image and a resource without an icon, which its image factories are asked about.
Everything the client says goes to its log; an exception there, a "MISSING IMAGE" line, a
client that dies or opens no window, or a screenshot that is not plausibly a map is a failure
with the client's own words. Time is bounded: the harness stops itself at the time limit, and
the X server and JVM are killed as one process group if it does not."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from generator.core.diagnostics import EXIT_UNUSABLE, Diagnostic, DiagnosticError, Position, display_path
from generator.engine import lifecycle
from generator.engine.engines import Engine
from generator.engine.records import Record, read_output
from generator.engine.harness import (_JVM_GRACE_SECONDS, _JVM_OPTIONS, HARNESS_CLASS, _error,
                                      harness_classes, java_command, out_of_memory_error, resolve_engine,
                                      run_bounded, stage_for_engine, vet_for_engine)
from generator.engine.screenshot import PictureVerdict, judge_screenshot, player_colours
from generator.core.enginename import EngineName

SCREEN = "1280x1024x24"
DEFAULT_GUI_TIMEOUT = 600.0
# The client draws into a real (virtual) display: AWT must not be headless.
_CLIENT_JVM_OPTIONS = tuple("-Djava.awt.headless=false" if option == "-Djava.awt.headless=true" else option
                            for option in _JVM_OPTIONS)
_CONSOLE_LINES_KEPT = 40
# The 2.x client's entry (java/current/tripleagen/harness/current/ClientGui.java, 2.x's adapter package).
CURRENT_CLIENT_CLASS = "tripleagen.harness.current.ClientGui"


@dataclass
class GuiReport:
    """What the desktop client did with a game: how far it played, what it logged, what it showed."""

    path: Path
    game: str
    map_dir: str
    rounds_requested: int
    rounds_completed: int
    stopped_by: str  # rounds | game over | exception | time limit | no window
    total_seconds: float
    exceptions: list[dict]  # {kind, type, message, round, step, at, engine_defect}, as in `engine play`
    missing_images: list[str]  # the client's "MISSING IMAGE ..." lines
    messages: list[dict]  # what the players were shown, as in `engine play`
    frame_title: str | None
    windows: list[str]  # every window on screen at the end, "Class: title"
    screenshot: Path | None
    map_panel: list[int] | None  # [x, y, width, height] of the map panel on the screenshot
    picture: PictureVerdict | None  # None when no screenshot was taken
    console_tail: list[str] = field(default_factory=list)
    centred_on: str | None = None  # the territory the map was scrolled to before the screenshot
    engine: str = "1.9"
    # current: resource icons the client drew as its grey placeholder box ("resources/X.png")
    placeholder_resources: list[str] = field(default_factory=list)
    # current: what it logged at WARN, each shown to the player in its error window
    warnings_shown: list[dict] = field(default_factory=list)

    def diagnostics(self) -> list[Diagnostic]:
        where = Position(display_path(self.path))
        found = [Diagnostic("TG313", f"the client {_when(entry)}: {entry['message']}{_engine_frame(entry)}", where,
                            "the desktop client breaks on this game; the message names what it lacks")
                 for entry in self.game_exceptions]
        if self.engine == EngineName.V1_9:
            found += [Diagnostic("TG314", f"the client cannot draw a unit: {line}", where,
                                 "add the unit image the line names to the map folder's units/<player>/ "
                                 "(a mod: to its package)")
                      for line in dict.fromkeys(self.missing_images)]
        else:
            found += [Diagnostic("TG405", f"the client drew a unit as its labelled missing-unit square: no {image}",
                                 where, "add the image to the map folder (a mod: to its package)")
                      for image in dict.fromkeys(self.missing_images)]
        found += [Diagnostic("TG404", f"the client drew a grey placeholder box for a resource: no {icon}", where,
                             "add the icon (20x20 pixels; _large: 48x48) to the map folder; `build` draws one "
                             "for each resource a game adds")
                  for icon in self.placeholder_resources]
        found += [Diagnostic("TG403", f"the client showed its error window {_where(entry)}: {entry['message']}",
                             where, "the client logs this as a warning and shows it to the player; the text "
                             "names what it could not do")
                  for entry in self.warnings_shown]
        if self.stopped_by == "no window":
            found.append(Diagnostic("TG315", "the desktop client opened no game window"
                                    + (f" (windows on screen: {', '.join(self.windows)})" if self.windows else ""),
                                    where, "the client's log above says why; `engine play` runs the same game "
                                    "without the window"))
        if self.stopped_by == "time limit":
            found.append(Diagnostic("TG316", f"time limit reached after {self.rounds_completed} of "
                                    f"{self.rounds_requested} rounds; the client was stopped", where,
                                    "raise --timeout, or play fewer rounds"))
        if self.picture is not None and not self.picture.plausible_map:
            found.append(Diagnostic("TG318", f"the screenshot does not show a map: {self.picture.summary()}",
                                    # not asked to keep it: the client took it all the same; the game is the place
                                    Position(display_path(self.screenshot)) if self.screenshot is not None else where,
                                    "look at the screenshot: an error dialog or an empty window shows there"))
        return found

    @property
    def game_exceptions(self) -> list[dict]:
        """The exceptions the game causes: not those the 1.9 engine has on Java 17 with any game."""
        return [entry for entry in self.exceptions if not entry.get("engine_defect")]

    @property
    def engine_defects(self) -> list[dict]:
        return [entry for entry in self.exceptions if entry.get("engine_defect")]

    @property
    def map_panel_box(self) -> tuple[int, int, int, int] | None:
        """The map panel as a PIL crop box (left, top, right, bottom)."""
        if not self.map_panel:
            return None
        x, y, width, height = self.map_panel
        return x, y, x + width, y + height

    @property
    def ok(self) -> bool:
        return not self.diagnostics()

    def as_json(self) -> dict:
        return {
            "path": display_path(self.path), "game": self.game, "map_dir": self.map_dir, "ok": self.ok,
            "rounds_requested": self.rounds_requested, "rounds_completed": self.rounds_completed,
            "stopped_by": self.stopped_by, "total_seconds": self.total_seconds,
            "exceptions": self.exceptions, "missing_images": self.missing_images, "messages": self.messages,
            "frame_title": self.frame_title, "windows": self.windows, "map_panel": self.map_panel,
            "centred_on": self.centred_on, "engine": self.engine,
            "placeholder_resources": self.placeholder_resources, "warnings_shown": self.warnings_shown,
            "screenshot": display_path(self.screenshot) if self.screenshot else None,
            "picture": None if self.picture is None else {
                "plausible_map": self.picture.plausible_map, "summary": self.picture.summary()},
            "diagnostics": [diagnostic.as_json() for diagnostic in self.diagnostics()],
        }


def _engine_frame(entry: dict) -> str:
    """Where in the client it broke, when its message alone does not say (e.g. a bare
    UnsupportedOperationException): the first frame of TripleA's own code."""
    for frame in entry.get("at", []):
        if frame.startswith("games.strategy."):
            return f" (at {frame})"
    return ""


def _when(entry: dict) -> str:
    """Where in the game an exception came, in a player's words."""
    verb = "stopped on an exception" if entry["kind"] == "fatal" else f"logged an exception ({entry['kind']})"
    return f"{verb} {_where(entry)}"


def _where(entry: dict) -> str:
    if not entry["step"]:
        return "while opening the game"
    return f"in round {entry['round']}, step {entry['step']}"


def client_problem(engine: str | None = None) -> str | None:
    """Why the desktop client (of the engine named; None: 1.9) cannot be run here, or None."""
    from generator.engine.engines import engine_problem_named

    problem = engine_problem_named(engine)
    if problem:
        return problem
    if shutil.which("xvfb-run") is None:
        return "xvfb-run not found (apt-get install xvfb): the desktop client needs a display"
    return None


def run_gui(game: Path, map_dir: Path, rounds: int = 1, screenshot: Path | None = None,
            timeout: float = DEFAULT_GUI_TIMEOUT, seed: int | None = None, centre: str | None = None,
            engine: Engine | str | None = None) -> GuiReport:
    """Plays `rounds` rounds of game in the desktop client (of engine; None: 1.9) with map_dir as
    its map folder.

    Raises (DiagnosticError) when it cannot start: no engine or display, a bad argument, a
    file the engine must not read (harness.vet_for_engine), a missing map folder, the engine refusing the game, a
    client that died without a report, or one stuck past the time limit."""
    game = Path(game)
    shown = display_path(game)
    engine = resolve_engine(engine)  # raises the located TG301 / TG090-TG092
    if shutil.which("xvfb-run") is None:
        raise DiagnosticError([Diagnostic("TG317", "xvfb-run not found: the desktop client needs a display",
                                          Position("triplea-gen"), "apt-get install xvfb")],
                              exit_status=EXIT_UNUSABLE)
    if rounds < 1:
        raise _error("TG304", f"rounds must be at least 1, not {rounds}", shown)
    vetted = vet_for_engine(game)  # raises the located refusal: the file is not given to the engine
    map_dir = Path(map_dir)
    if not map_dir.is_dir():
        raise DiagnosticError([Diagnostic("TG319", "map folder not found", Position(display_path(map_dir)),
                                          "give the map's top folder, the one that contains map/")],
                              exit_status=EXIT_UNUSABLE)
    # Named for this run: its X server (-auth in this folder) and JVM are found and stopped, and the
    # folder removed, by the next run should this one be killed outright.
    with lifecycle.scratch_folder("client") as home:  # safe-write: private, ours
        # The engine writes the picture into its private scratch home (it follows links); the
        # copy the user asked for is written by the safe writer.
        shot = Path(home) / "screenshot.png"
        staged = stage_for_engine(game, home, vetted)  # the engine reads exactly the bytes vetted
        arguments = [str(staged), "--rounds", str(rounds), "--ai", "easy",
                     "--timeout", str(timeout), "--map-dir", str(map_dir.resolve()), "--screenshot", str(shot.resolve())]
        if seed is not None:
            arguments += ["--seed", str(seed)]
        if centre is not None:  # the territory the screenshot shows in its middle
            arguments += ["--centre", centre]
        main = HARNESS_CLASS if engine.name == EngineName.V1_9 else CURRENT_CLIENT_CLASS
        arguments = ["play", *arguments] if engine.name == EngineName.V1_9 else arguments
        command = ["xvfb-run", "--auto-servernum", "--server-args", f"-screen 0 {SCREEN}",
                   *java_command(harness_classes(engine), main, arguments, home, options=_CLIENT_JVM_OPTIONS,
                                 engine=engine)]
        try:
            # The engine reads game_engine.properties from its working directory; HOME keeps
            # X and font caches out of the user's own, TMPDIR puts xvfb-run's auth file there too.
            finished = run_bounded(command, cwd=engine.working_dir, timeout=timeout + _JVM_GRACE_SECONDS,
                                   env={**os.environ, "HOME": home, "TMPDIR": home})
        except subprocess.TimeoutExpired:
            raise DiagnosticError([Diagnostic(
                "TG316", f"the desktop client did not finish within {timeout + _JVM_GRACE_SECONDS:.0f} s and was "
                "killed (with its X server)", Position(shown), "raise --timeout, or play fewer rounds")]) from None
        console = finished.stderr.decode("utf-8", "replace").splitlines()[-_CONSOLE_LINES_KEPT:]
        report = _read_report(finished.stdout, finished.returncode, console, shown, engine.name)
        client = report.get("client", {})
        if centre is not None and report["stopped_by"] in ("rounds", "game over") and client.get("centred_on") is None:
            raise _error("TG304", f"--centre: the game has no territory named '{centre}'", shown,
                         "give a territory name exactly as the game file spells it")
        picture = (judge_screenshot(shot, client.get("map_panel"), _map_colours(map_dir)) if shot.is_file()
                   else None)
        kept: Path | None  # the screenshot as reported: None when not asked for
        if screenshot is None:
            kept = None
        elif shot.is_file():
            from generator.core.writer import write_file_atomically

            kept = write_file_atomically(screenshot, shot.read_bytes())
        else:
            kept = Path(screenshot)  # asked for, not taken: the report says so
        return GuiReport(
            path=game, game=report["game"], map_dir=display_path(map_dir), rounds_requested=rounds,
            rounds_completed=report["rounds_completed"], stopped_by=report["stopped_by"],
            total_seconds=report["total_seconds"], exceptions=report["exceptions"],
            missing_images=report["missing_images"], messages=report["messages"],
            frame_title=client.get("frame_title"), windows=client.get("windows", []), screenshot=kept,
            map_panel=client.get("map_panel"), picture=picture, console_tail=console,
            centred_on=client.get("centred_on"), engine=engine.name,
            placeholder_resources=report.get("placeholder_resources", []),
            warnings_shown=report.get("warnings_shown", []))


def _map_colours(map_dir: Path) -> tuple[tuple[int, int, int], ...]:
    """The players' colours of the map folder, for the screenshot's verdict (none when unreadable)."""
    from generator.read.mapfiles import read_map_file
    from generator.read.propfile import read_properties

    for relpath in ("map/map.properties", "map.properties"):
        try:
            data = read_map_file(map_dir, relpath)
        except (DiagnosticError, OSError):
            return ()
        if data:
            return player_colours(read_properties(data))
    return ()


def _read_report(stdout: bytes, status: int, console: list[str], shown: str, engine: str) -> Record:
    try:
        report = json.loads(stdout.decode("utf-8", "replace"))
    except json.JSONDecodeError:
        out_of_memory = out_of_memory_error(status, stdout.decode("utf-8", "replace").splitlines() + console)
        if out_of_memory:
            raise out_of_memory from None
        said = " | ".join(line.strip() for line in console[-8:] if line.strip()) or "nothing"
        raise DiagnosticError([Diagnostic(
            "TG315", f"the desktop client died without a report (exit status {status}); its last words: {said}",
            Position(shown), "the client's own message above names the cause")]) from None
    report = read_output("gui", report, engine)  # TG093 when it is no record the client prints
    if not report.get("ok"):
        raise _error("TG310", f"the engine refused the game: {report.get('error')}", shown,
                     "'triplea-gen engine check' shows the same verdict; fix what the engine names")
    return report
