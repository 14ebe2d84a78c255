"""A player's view of a mod (tests/fixtures/g40_player_ready.yaml, packaged and unzipped over a
copy of the Global 1940 map folder as a player installs it): the new unit is drawn in the desktop
client, the notification's text reaches `engine play`'s messages, and the political and user
action buttons show the spec's texts, as the 1.9 client's own text classes read them.

Each check ends with a control: the same question after the text or image is taken out of the
installed folder gets a different answer, so the check can fail."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import REPO, requires_engine
from generator.read.yamlio import load_yaml_file
from engine.test_engine_gui import client_ready, requires_client

SPEC = REPO / "tests" / "fixtures" / "g40_player_ready.yaml"
TEXTS = load_yaml_file(SPEC)["texts"]
UNIT_IMAGE = Path("units") / "Germans" / "elite_infantry.png"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path]:
    """The mod's game XML and the map folder it is installed in."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        return client_ready(SPEC, tmp_path_factory.mktemp("ready"), monkeypatch)


def _client_says(map_dir: Path, *questions: str) -> list[dict]:
    from generator.engine.harness import client_texts

    return client_texts(map_dir.name, map_dir, list(questions))


def _without_lines(path: Path, prefix: str) -> str:
    """Rewrites path without its lines starting with prefix; returns the old text to put back."""
    text = path.read_text(encoding="utf-8")
    kept = [line for line in text.splitlines(keepends=True) if not line.startswith(prefix)]
    assert len(kept) < len(text.splitlines()), f"{prefix} is not in {path.name}"
    path.write_text("".join(kept), encoding="utf-8")
    return text


# The unit is drawn -------------------------------------------------------------------------------


@requires_client
def test_the_client_draws_elite_infantry_from_the_shipped_image(installed, tmp_path: Path):
    from generator.cli.engine import format_gui_report
    from generator.engine.gui import run_gui

    xml, map_dir = installed
    shipped = map_dir / "map" / UNIT_IMAGE
    assert shipped.is_file()
    (answer,) = _client_says(map_dir, "unit:Germans:elite_infantry")
    # The client's UnitImageFactory takes Germany's elite infantry from the file the mod shipped
    assert answer["image"].endswith(f"/{map_dir.name}/map/{UNIT_IMAGE.as_posix()}")

    # Centred on Germany, where the mod puts two elite infantry (drawn with an "E" badge)
    report = run_gui(xml, map_dir, rounds=1, screenshot=tmp_path / "shot.png", seed=1, timeout=900, centre="Germany")
    print(format_gui_report(report))
    if os.environ.get("TRIPLEA_GEN_SCREENSHOTS") and report.screenshot:
        target = Path(os.environ["TRIPLEA_GEN_SCREENSHOTS"])
        target.mkdir(parents=True, exist_ok=True)
        (target / "g40_player_ready.png").write_bytes(report.screenshot.read_bytes())
    assert report.centred_on == "Germany"
    assert report.missing_images == [] and report.game_exceptions == []
    assert [d.format() for d in report.diagnostics()] == [], report.console_tail[-15:]
    assert report.stopped_by in ("rounds", "game over") and report.picture.plausible_map, report.picture

    # Control: without the shipped file the client finds no image for the unit
    aside = shipped.with_name("elite_infantry.png.aside")
    shipped.rename(aside)
    try:
        (answer,) = _client_says(map_dir, "unit:Germans:elite_infantry")
    finally:
        aside.rename(shipped)
    assert answer["image"] is None


# The notification reaches the players ------------------------------------------------------------


def _message_texts(xml: Path, map_dir: Path) -> list[str]:
    from generator.engine.harness import play_game

    report = play_game(xml, rounds=1, seed=1, map_dir=map_dir)
    assert report.exceptions == []
    return [message["text"] for message in report.messages]


@pytest.mark.engine
@requires_engine
def test_the_notification_text_is_in_engine_plays_messages(installed):
    xml, map_dir = installed
    spec_text = TEXTS["notifications"]["PR_Elite_Ready"]
    # The engine wraps the map's text in <html>; the trigger fires after Germany's purchase in round 1
    assert f"<html>{spec_text}</html>" in _message_texts(xml, map_dir)

    properties = map_dir / "map" / "notifications.properties"
    old = _without_lines(properties, "PR_Elite_Ready=")
    try:
        texts = _message_texts(xml, map_dir)
    finally:
        properties.write_text(old, encoding="utf-8")
    assert not any(spec_text in text for text in texts)  # control: the text came from the mod's file


# The action buttons show the spec's texts ----------------------------------------------------


@pytest.mark.engine
@requires_engine
def test_the_action_buttons_show_the_specs_texts(installed):
    _, map_dir = installed
    politics, action = _client_says(map_dir, "politics:PR_Mongolia", "actions:PR_War_Bonds")
    mongolia, bonds = TEXTS["politics"]["PR_Mongolia"], TEXTS["actions"]["PR_War_Bonds"]
    assert (politics["button"], politics["description"]) == (mongolia["BUTTON"], mongolia["DESCRIPTION"])
    assert (action["button"], action["description"]) == (bonds["BUTTON"], bonds["DESCRIPTION"])

    # Control: with the mod's lines taken out, the client's classes no longer give the spec's texts
    politics_file, actions_file = map_dir / "map" / "politicstext.properties", map_dir / "map" / "actionstext.properties"
    old_politics = _without_lines(politics_file, "PR_Mongolia.")
    old_actions = _without_lines(actions_file, "PR_War_Bonds.")
    try:
        politics, action = _client_says(map_dir, "politics:PR_Mongolia", "actions:PR_War_Bonds")
    finally:
        politics_file.write_text(old_politics, encoding="utf-8")
        actions_file.write_text(old_actions, encoding="utf-8")
    assert politics["button"] != mongolia["BUTTON"] and action["button"] != bonds["BUTTON"]
    assert politics["description"] != mongolia["DESCRIPTION"] and action["description"] != bonds["DESCRIPTION"]


@requires_client
def test_centring_on_a_territory_the_game_lacks_is_refused(installed, tmp_path: Path):
    from generator.core.diagnostics import DiagnosticError
    from generator.engine.gui import run_gui

    xml, map_dir = installed
    with pytest.raises(DiagnosticError) as refused:
        run_gui(xml, map_dir, rounds=1, screenshot=tmp_path / "shot.png", seed=1, centre="Atlantis")
    (problem,) = refused.value.diagnostics
    assert problem.code == "TG304" and "no territory named 'Atlantis'" in problem.message
