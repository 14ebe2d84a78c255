"""The TripleA 2.x desktop client in the loop (`triplea-gen engine gui --engine current`): every
example in rules_yaml/ opens in its game window, the easy AI plays a round, and the client
neither logs an exception, nor shows its error window, nor draws a placeholder for a unit or a
resource; a map folder that lacks a unit image or a resource icon fails with what the client
drew instead, a warning the client logs with the error window it shows, a game its parser
refuses with the parser's words.

Needs a TripleA 2.x install (TRIPLEA_CURRENT_HOME; tests find ../shared/engines/triplea-*), a Java
new enough for it (the [engine] extra), a compiler for the harness (ecj) and Xvfb; skipped with the
reason otherwise. Slow: a JVM and an X server per game. TRIPLEA_GEN_SCREENSHOTS keeps
the screenshots (as <example>-current.png)."""
from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from conftest import CURRENT_ENGINE_MISSING, REPO, SHARED, SHARED_MISSING, build_game, missing
from generator.core.diagnostics import DiagnosticError
from engine.test_engine_gui import _keep, client_ready
from textedit import replaced

EXAMPLES = sorted((REPO / "rules_yaml").glob("*.yaml"))
HEX_SKIRMISH = REPO / "rules_yaml" / "hex_skirmish.yaml"


def _current_client_problem() -> str | None:
    from generator.engine.gui import client_problem

    return client_problem("current")


def requires_current_client(test):
    """A test that needs the 2.x engine and Xvfb; skipped with the reason when either is missing."""
    problem = _current_client_problem()
    skip = pytest.mark.skipif(problem is not None, reason=CURRENT_ENGINE_MISSING + str(problem))
    return pytest.mark.engine_current(skip(test))


@requires_current_client
@pytest.mark.parametrize("spec", EXAMPLES, ids=[spec.stem for spec in EXAMPLES])
def test_example_opens_in_the_current_client_and_plays_a_round(spec: Path, tmp_path: Path, monkeypatch):
    from generator.cli.engine import format_gui_report
    from generator.engine.gui import run_gui

    xml, map_dir = client_ready(spec, tmp_path, monkeypatch)
    started = time.monotonic()
    report = run_gui(xml, map_dir, rounds=1, screenshot=tmp_path / "shot.png", seed=1, timeout=900,
                     engine="current")
    print(f"{spec.stem}: {time.monotonic() - started:.1f} s in the 2.x client\n{format_gui_report(report)}")
    _keep(report.screenshot, f"{spec.stem}-current")
    assert [d.format() for d in report.diagnostics()] == [], report.console_tail[-15:]
    assert report.placeholder_resources == [] and report.missing_images == [] and report.warnings_shown == []
    assert report.stopped_by in ("rounds", "game over") and report.frame_title == f"TripleA - {report.game}"
    assert [w for w in report.windows if not w.startswith("TripleAFrame")] == []  # no error window
    assert report.picture is not None and report.picture.plausible_map, report.picture
    if spec.stem == "frontier_1939":  # its round-1 trigger tells the players of the Soviet mobilisation
        assert [m["title"] for m in report.messages] == ["Notification"], report.messages


@pytest.fixture(scope="module")
def coal_map(tmp_path_factory) -> Path:
    """hex_skirmish with a resource of its own (Coal): the build draws resources/Coal.png."""
    folder = tmp_path_factory.mktemp("coal")
    spec = folder / "hex_skirmish.yaml"
    spec.write_text(replaced(HEX_SKIRMISH.read_text(encoding="utf-8"), "resources:\n  PUs: {}\n",
                             "resources:\n  PUs: {}\n  Coal: {}\n"), encoding="utf-8")
    xml = build_game(spec, folder / "out")
    assert (xml.parent.parent / "resources" / "Coal.png").is_file()
    return xml.parent.parent.parent


def _copy_without(map_dir: Path, tmp_path: Path, remove: str) -> tuple[Path, Path]:
    folder = tmp_path / map_dir.name
    shutil.copytree(map_dir, folder)
    (folder / "map" / remove).unlink()
    return folder / "map" / "games" / "hex_skirmish.xml", folder


@requires_current_client
def test_a_resource_without_icon_is_the_clients_grey_box(coal_map: Path, tmp_path: Path, capsys):
    from generator.cli.main import main

    xml, folder = _copy_without(coal_map, tmp_path, "resources/Coal.png")
    status = main(["engine", "gui", str(xml), "--map-dir", str(folder), "--engine", "current",
                   "--screenshot", str(tmp_path / "s.png"), "--seed", "1"])
    captured = capsys.readouterr()
    assert status == 1
    assert "placeholder resource icons: resources/Coal.png" in captured.out
    assert "error[TG404]: the client drew a grey placeholder box for a resource: no resources/Coal.png" in captured.err


@requires_current_client
def test_a_missing_unit_image_is_the_clients_labelled_square(coal_map: Path, tmp_path: Path):
    from generator.engine.gui import run_gui

    xml, folder = _copy_without(coal_map, tmp_path, "units/Blues/infantry.png")
    report = run_gui(xml, folder, rounds=1, screenshot=tmp_path / "s.png", seed=1, engine="current")
    assert report.exceptions == [] and report.stopped_by == "rounds"  # the client goes on
    assert report.missing_images == ["units/Blues/infantry.png"]
    assert report.placeholder_resources == []  # the build's Coal.png is there
    assert [d.code for d in report.diagnostics()] == ["TG405"]


@requires_current_client
def test_a_warning_the_client_logs_is_its_error_window(coal_map: Path, tmp_path: Path):
    # the game file is not in the map folder's games/: 2.x looks for it there (map.yml lists it),
    # logs a warning and so shows the player its error window
    from generator.engine.gui import run_gui

    folder = tmp_path / coal_map.name
    shutil.copytree(coal_map, folder)
    xml = tmp_path / "hex_skirmish.xml"
    (folder / "map" / "games" / "hex_skirmish.xml").rename(xml)
    report = run_gui(xml, folder, rounds=1, screenshot=tmp_path / "s.png", seed=1, engine="current")
    assert report.exceptions == [] and report.stopped_by == "rounds"
    (shown,) = {entry["message"] for entry in report.warnings_shown}
    assert shown.startswith("Failed to find game file: hex_skirmish.xml")
    assert {d.code for d in report.diagnostics()} == {"TG403"}
    assert any(w.startswith("JFrame: Error") for w in report.windows)  # on the screenshot too


@requires_current_client
def test_a_game_the_2x_parser_refuses_is_refused_in_its_words(coal_map: Path):
    from generator.engine.gui import run_gui

    if not (SHARED / "corpus" / "xml" / "GameExample.xml").is_file():
        missing(SHARED_MISSING)
    with pytest.raises(DiagnosticError) as refused:
        run_gui(SHARED / "corpus" / "xml" / "GameExample.xml", coal_map, rounds=1, engine="current")
    (problem,) = refused.value.diagnostics
    assert problem.code == "TG310" and "Could not find delegate 'TestDelegate'" in problem.message
