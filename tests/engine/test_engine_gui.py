"""The real TripleA 1.9 desktop client in the loop (`triplea-gen engine gui`): every example in
rules_yaml/ opens in its game window, the easy AI plays a round, and nothing in the client's log
or on its screen says the game is broken; a map folder that lacks a flag or a unit image fails
with the client's own words; a client past its time limit is stopped. Also: `engine play` lists
the notifications the players are shown, and the screenshot judge on pictures made here.

Slow (a JVM and an X server per game); the Global 1940 mods take longest. Set
TRIPLEA_GEN_SCREENSHOTS to a folder to keep every screenshot for a human to look at."""
from __future__ import annotations

import os
import shutil
import subprocess
import time
import zipfile
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from conftest import REPO, SHARED, SHARED_MISSING, build_game, missing, requires_engine
from generator.core.diagnostics import DiagnosticError
from generator.engine.screenshot import judge_picture, judge_screenshot
from generator.read.yamlio import load_yaml_file

EXAMPLES = sorted((REPO / "rules_yaml").glob("*.yaml"))
FRONTIER = REPO / "rules_yaml" / "frontier_1939.yaml"
HEX_SKIRMISH = REPO / "rules_yaml" / "hex_skirmish.yaml"


def _client_problem() -> str | None:
    from generator.engine.gui import client_problem

    return client_problem()


def requires_client(test):
    """An engine test that also needs Xvfb; skipped with the reason when either is missing."""
    return pytest.mark.engine(pytest.mark.skipif(_client_problem() is not None, reason=str(_client_problem()))(test))


def _keep(picture: Path | None, name: str) -> None:
    folder = os.environ.get("TRIPLEA_GEN_SCREENSHOTS")
    if folder and picture is not None and picture.is_file():
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(picture, Path(folder) / f"{name}.png")


def client_ready(spec: Path, tmp_path: Path, monkeypatch) -> tuple[Path, Path]:
    """The game XML and map folder a player would have: a generated map's folder as built, or
    for a mod its package unzipped over a copy of the base map folder."""
    data = load_yaml_file(spec)
    if not (isinstance(data, dict) and "mod" in data):
        xml = build_game(spec, tmp_path / "out")
        return xml, xml.parent.parent.parent
    if not SHARED.is_dir():
        missing(SHARED_MISSING)
    from generator.cli.main import main

    monkeypatch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    base_map = data["mod"]["base"]["map"]
    maps = tmp_path / "downloadedMaps"
    shutil.copytree(SHARED / "maps" / base_map, maps / base_map)
    assert main(["package", str(spec), "-o", str(tmp_path / "package")]) == 0
    (archive,) = (tmp_path / "package").glob("*.zip")
    with zipfile.ZipFile(archive) as package:
        package.extractall(maps)
    (xml,) = (maps / base_map).glob(f"**/games/{spec.stem}.xml")
    return xml, maps / base_map


# Every example, as a player opens it -----------------------------------------------------------


@requires_client
@pytest.mark.parametrize("spec", EXAMPLES, ids=[spec.stem for spec in EXAMPLES])
def test_example_opens_in_the_desktop_client_and_plays_a_round(spec: Path, tmp_path: Path, monkeypatch):
    from generator.cli.engine import format_gui_report
    from generator.engine.gui import run_gui

    xml, map_dir = client_ready(spec, tmp_path, monkeypatch)
    started = time.monotonic()
    report = run_gui(xml, map_dir, rounds=1, screenshot=tmp_path / "shot.png", seed=1, timeout=900)
    print(f"{spec.stem}: {time.monotonic() - started:.1f} s in the client\n{format_gui_report(report)}")
    _keep(report.screenshot, spec.stem)
    assert [d.format() for d in report.diagnostics()] == [], report.console_tail[-15:]
    assert report.game_exceptions == [] and report.missing_images == []
    assert report.stopped_by in ("rounds", "game over") and report.frame_title == f"TripleA - {report.game}"
    assert [w for w in report.windows if not w.startswith("TripleAFrame")] == []  # no error dialog
    assert report.picture is not None and report.picture.plausible_map, report.picture


# What the client says about a broken map folder ------------------------------------------------


@pytest.fixture(scope="module")
def hex_map(tmp_path_factory) -> Path:
    """hex_skirmish's generated map folder: its players (Reds, Blues, Greens) have no flags or
    units in the engine's own assets, so what the folder lacks, the client lacks."""
    xml = build_game(HEX_SKIRMISH, tmp_path_factory.mktemp("hex"))
    return xml.parent.parent.parent


def _broken_copy(hex_map: Path, tmp_path: Path, remove: str) -> tuple[Path, Path]:
    folder = tmp_path / hex_map.name
    shutil.copytree(hex_map, folder)
    (folder / "map" / remove).unlink()
    return folder / "map" / "games" / "hex_skirmish.xml", folder


@requires_client
def test_a_missing_flag_fails_with_the_clients_message(hex_map: Path, tmp_path: Path, capsys):
    from generator.cli.main import main

    xml, folder = _broken_copy(hex_map, tmp_path, "flags/Reds_small.png")
    status = main(["engine", "gui", str(xml), "--map-dir", str(folder), "--screenshot", str(tmp_path / "s.png")])
    err = capsys.readouterr().err
    assert status == 1
    assert "error[TG313]: the client stopped on an exception while opening the game: " \
           "IllegalStateException: Image Not Found:flags/Reds_small.png" in err


@requires_client
def test_a_missing_unit_image_fails_with_the_clients_missing_image_line(hex_map: Path, tmp_path: Path):
    from generator.engine.gui import run_gui

    xml, folder = _broken_copy(hex_map, tmp_path, "units/Blues/infantry.png")
    report = run_gui(xml, folder, rounds=1, screenshot=tmp_path / "s.png", seed=1)
    assert report.exceptions == [] and report.stopped_by == "rounds"  # the client goes on, the unit unseen
    assert set(report.missing_images) == {"MISSING IMAGE (this unit or image will be invisible): "
                                          "UnitType{name=infantry}"}
    assert [d.code for d in report.diagnostics()] == ["TG314"]
    assert not report.ok


@requires_client
def test_a_map_folder_without_polygons_fails_as_the_default_example_did(tmp_path: Path):
    from generator.engine.gui import run_gui

    xml = build_game(FRONTIER, tmp_path / "out")
    folder = xml.parent.parent.parent
    (folder / "map" / "polygons.txt").unlink()
    report = run_gui(xml, folder, rounds=1, screenshot=tmp_path / "s.png")
    (problem,) = report.diagnostics()
    assert problem.code == "TG313" and "Unable to load expected resource: polygons.txt" in problem.message


@requires_client
def test_the_client_is_stopped_at_its_time_limit(hex_map: Path, tmp_path: Path):
    from generator.engine.gui import run_gui

    started = time.monotonic()
    try:
        report = run_gui(hex_map / "map" / "games" / "hex_skirmish.xml", hex_map, rounds=50, timeout=4)
        codes = [d.code for d in report.diagnostics()]
    except DiagnosticError as stopped:  # the JVM did not even reach its own time limit
        codes = [d.code for d in stopped.diagnostics]
    assert "TG316" in codes
    assert time.monotonic() - started < 4 + 60 + 15  # the limit, the JVM's grace, the kill
    # No JVM (user.home) and no X server (its -auth file, in the same scratch folder) left behind;
    # the folder's name carries this process's id, so other runs on the machine do not count.
    assert _processes_with(f"triplea-gen-client-{os.getpid()}-") == []


@requires_client
def test_a_map_folder_that_is_not_there_is_refused_before_the_client_starts(hex_map: Path, tmp_path: Path, capsys):
    from generator.cli.main import main

    xml = hex_map / "map" / "games" / "hex_skirmish.xml"
    assert main(["engine", "gui", str(xml), "--map-dir", str(tmp_path / "nowhere")]) == 2
    assert "error[TG319]: map folder not found" in capsys.readouterr().err


def test_a_stuck_process_group_is_killed_whole(tmp_path: Path):
    from generator.engine.harness import run_bounded

    marker = f"sleep-{os.getpid()}-{time.monotonic_ns()}"
    script = f"exec -a {marker} sleep 300 & exec -a {marker} sleep 300"
    started = time.monotonic()
    with pytest.raises(subprocess.TimeoutExpired):
        run_bounded(["bash", "-c", script], cwd=tmp_path, timeout=1)
    assert time.monotonic() - started < 10
    assert _processes_with(marker) == []  # the child and the grandchild are both gone


def _processes_with(text: str) -> list[int]:
    """Live processes whose command line contains text (zombies excluded)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if text in command and state != "Z" and int(entry.name) != os.getpid():
            found.append(int(entry.name))
    return found


# Messages the players see, in `engine play` ----------------------------------------------------

MOBILISATION_TEXT = "<b>Soviet mobilisation</b><br>The Red Army calls up its reserves and receives 6 PUs for its first purchase."


@pytest.mark.engine
@requires_engine
def test_engine_play_lists_the_notification_text_players_see(tmp_path: Path, capsys):
    """The default example's round-1 notification: its text (the spec's texts:, written into the
    map folder's notifications.properties) is what `engine play` lists, when and to whom."""
    from generator.cli.main import main

    xml = build_game(FRONTIER, tmp_path / "out")
    folder = xml.parent.parent.parent
    assert f"SOVIET_MOBILISATION={MOBILISATION_TEXT}" in (folder / "map" / "notifications.properties").read_text()

    capsys.readouterr()
    assert main(["engine", "play", str(xml), "--rounds", "1", "--seed", "3", "--map-dir", str(folder)]) == 0
    shown = capsys.readouterr().out
    assert "messages to players: 1\n" in shown
    assert (f"  round 1  russiansPurchase  to Germans, Russians, Italians: Notification: "
            f"<html>{MOBILISATION_TEXT}</html>") in shown

    # Without the map folder's text the engine shows nothing: the trigger is silent.
    assert main(["engine", "play", str(xml), "--rounds", "1", "--seed", "3", "--format", "json"]) == 0
    assert '"messages": []' in capsys.readouterr().out


# The screenshot judge ---------------------------------------------------------------------------


def _error_dialog_on_a_bare_screen() -> Image.Image:
    """What a client that died on start leaves: the X server's black screen and a grey dialog
    with a few lines of text and a button."""
    screen = Image.new("RGB", (1280, 1024), (0, 0, 0))
    draw = ImageDraw.Draw(screen)
    draw.rectangle((390, 400, 890, 600), fill=(238, 238, 238), outline=(120, 120, 120))
    draw.rectangle((390, 400, 890, 425), fill=(184, 207, 229))
    for line in range(5):
        draw.text((440, 440 + 22 * line), "java.lang.IllegalStateException: Image Not Found", fill=(0, 0, 0))
    draw.rectangle((600, 560, 680, 585), fill=(220, 220, 220), outline=(90, 90, 90))
    return screen


def test_an_error_dialog_on_a_bare_screen_is_not_a_map():
    verdict = judge_picture(_error_dialog_on_a_bare_screen())
    assert not verdict.plausible_map
    assert verdict.dominant_share > 0.8


def test_an_empty_grey_window_is_not_a_map():
    verdict = judge_picture(Image.new("RGB", (857, 963), (238, 238, 238)))
    assert not verdict.plausible_map and verdict.colours == 1


def test_a_screenshot_not_kept_that_shows_no_map_is_tg318_at_the_game():
    from generator.engine.gui import GuiReport

    report = GuiReport(path=Path("game.xml"), game="g", map_dir="m", rounds_requested=1, rounds_completed=1,
                       stopped_by="rounds", total_seconds=1.0, exceptions=[], missing_images=[], messages=[],
                       frame_title=None, windows=[], screenshot=None, map_panel=None,
                       picture=judge_picture(Image.new("RGB", (857, 963), (238, 238, 238))))
    [found] = report.diagnostics()
    assert found.code == "TG318" and found.position.file == "game.xml"


def test_a_tiny_picture_is_not_a_map():
    assert not judge_picture(Image.new("RGB", (120, 90), (10, 120, 200))).plausible_map


def test_the_generated_map_picture_is_a_map(tmp_path: Path):
    """The picture the map generator draws for the default example (its tiles' art)."""
    from generator.cli.main import main

    assert main(["preview", str(FRONTIER), "-o", str(tmp_path / "map.png")]) == 0
    verdict = judge_screenshot(tmp_path / "map.png")
    assert verdict.plausible_map, verdict.summary()


def test_a_map_filling_only_a_corner_of_the_window_fails(tmp_path: Path):
    """The issue's case: a generated map of about 560 x 420 in the 1280 x 1024 client leaves most of the
    map panel grey. The real map picture is pasted into the panel, as the client draws it."""
    from generator.cli.main import main

    assert main(["preview", str(FRONTIER), "-o", str(tmp_path / "map.png"), "--width", "560"]) == 0
    with Image.open(tmp_path / "map.png") as picture:
        small = picture.convert("RGB")
    panel = Image.new("RGB", (857, 963), (238, 238, 238))
    panel.paste(small, (0, 0))
    verdict = judge_picture(panel)
    assert not verdict.plausible_map
    assert verdict.reason == "the map fills only a corner of the window (drawn too small for the client)"
    assert 0.3 < verdict.coverage < 0.4, verdict.summary()  # 560 x 544 of 857 x 963
    assert "map covers" in verdict.summary()


def test_a_map_larger_than_the_panel_covers_it_all(tmp_path: Path):
    from generator.cli.main import main

    assert main(["preview", str(FRONTIER), "-o", str(tmp_path / "map.png")]) == 0
    with Image.open(tmp_path / "map.png") as picture:
        panel = picture.convert("RGB").crop((0, 0, 857, 963))
    verdict = judge_picture(panel)
    assert verdict.plausible_map and verdict.coverage == 1.0, verdict.summary()


def _one_power_fills_the_view() -> Image.Image:
    """A large map scrolled to a great power's land (s002 centred on Moscow): the player's colour
    over 90 % of the panel, with borders, names and a few counters."""
    panel = Image.new("RGB", (857, 963), (0xB2, 0x22, 0x22))
    draw = ImageDraw.Draw(panel)
    for row in range(0, 963, 120):
        draw.line((0, row, 857, row + 60), fill=(40, 40, 40), width=2)
    for index in range(30):
        x, y = 20 + (index * 97) % 800, 30 + (index * 61) % 900
        draw.rectangle((x, y, x + 14, y + 14), fill=(index * 8 % 256, 255 - index * 7, 60 + index * 5),
                       outline=(255, 255, 255))
    return panel


def test_a_view_filled_by_one_players_land_is_a_map():
    """The dominance rule catches empty frames and bare screens; a player's own colour filling the
    view is a map (it failed s002 once the map was drawn large enough to fill the window)."""
    picture = _one_power_fills_the_view()
    alone = judge_picture(picture)
    assert not alone.plausible_map and alone.dominant_share > 0.8
    assert judge_picture(picture, ((0xB2, 0x22, 0x22),)).plausible_map
    assert not judge_picture(Image.new("RGB", (857, 963), (238, 238, 238)), ((0xB2, 0x22, 0x22),)).plausible_map
