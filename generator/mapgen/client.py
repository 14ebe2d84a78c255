"""The real TripleA 1.9 desktop client on a generated map folder, under Xvfb:
the game frame opens on the map, the easy AI plays every player, and the
screen is photographed (ClientShot.java beside this module, compiled on first
use into the user's cache, like the engine harness).

Everything the client writes goes to a scratch user.home that holds the map
folder in triplea/downloadedMaps/<map>; the user's own ~/triplea is untouched."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.harness import compile_java, engine_problem, java_command
from ..engine.install import engine_jar

LAUNCHER_CLASS = "tripleagen.mapgen.ClientShot"
SCREEN = "1280x1024x24"


@dataclass
class ClientRun:
    started: bool
    screenshot: Path
    map_picture: Path
    report: dict = field(default_factory=dict)
    console: str = ""

    @property
    def errors(self) -> list[str]:
        return list(self.report.get("errors", []))


def client_problem() -> str | None:
    """Why the desktop client cannot be run here, or None."""
    problem = engine_problem()
    if problem:
        return problem
    if shutil.which("xvfb-run") is None:
        return "xvfb-run not found (apt-get install xvfb)"
    return None


def _launcher_classes() -> Path:
    package = Path(__file__).resolve().parent.parent
    return compile_java([package / "mapgen" / "ClientShot.java", package / "engine" / "Reflection.java",
                         package / "engine" / "Json.java"], "mapgen-client")


def run_client(map_folder: Path, game_file: str, out_dir: Path, rounds: int = 1, timeout: float = 300) -> ClientRun:
    """Opens map_folder's game `game_file` in the client; pictures and report go to out_dir."""
    problem = client_problem()
    if problem:
        raise RuntimeError(problem)
    map_folder = Path(map_folder).resolve()
    out_dir = Path(out_dir).resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    jar = engine_jar()
    screenshot, map_picture, report_path = out_dir / "screen.png", out_dir / "map-panel.png", out_dir / "report.json"
    with tempfile.TemporaryDirectory(prefix="triplea-gen-client-") as home:
        installed = Path(home) / "triplea" / "downloadedMaps" / map_folder.name
        shutil.copytree(map_folder, installed)
        game_xml = installed / "map" / "games" / game_file
        command = ["xvfb-run", "-a", "-s", f"-screen 0 {SCREEN}", *java_command(
            _launcher_classes(), LAUNCHER_CLASS,
            [str(game_xml), str(screenshot), str(map_picture), str(report_path), str(rounds)], home,
            options=("-Djava.awt.headless=false", "--add-opens", "java.base/java.lang=ALL-UNNAMED"))]
        # The engine reads game_engine.properties from its working directory.
        finished = subprocess.run(command, cwd=jar.parent, capture_output=True, timeout=timeout,
                                  env={**os.environ, "HOME": home})
    console = (finished.stdout + finished.stderr).decode("utf-8", "replace")
    report = json.loads(report_path.read_text("utf-8")) if report_path.is_file() else {"errors": [console[-2000:]]}
    return ClientRun(bool(report.get("started")), screenshot, map_picture, report, console)
