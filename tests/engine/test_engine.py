"""The real TripleA 1.9 engine in the loop: its parser's verdicts, headless AI games,
and the harness plumbing (compile cache, errors). Skips when the engine or ../shared
is absent; each check batch runs in one JVM."""
from __future__ import annotations

import contextlib
import io
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from conftest import GLOBAL_GAMES_DIR, GLOBAL_MAP_DIR, REPO, SHARED_MISSING, corpus_xmls, missing, requires_engine, xml_params
from engine_play import player
from generator.cli.main import main
from generator.core.diagnostics import DiagnosticError, display_path
from generator.engine import harness
from generator.engine.harness import check_games, play_game
from generator.read.safexml import parse_xml_file

pytestmark = pytest.mark.engine

SMALL_GAME = Path(__file__).resolve().parents[1] / "fixtures" / "engine" / "two_player_trigger.xml"
G40_SECOND_EDITION = GLOBAL_GAMES_DIR / "ww2global40_2nd_edition.xml"
TRIGGER = "triggerAttachmentRedsWarChest"

VERSION_REFUSAL = "invalid version string"  # what 1.9 says when <info> has no version
LOADER_REFUSAL = "No child called loader"


def expected_refusal(path: Path) -> str | None:
    """What the 1.9 parser must refuse a file for, judged from the file itself: it reads
    <info version> first and <loader> right after, and needs both."""
    root = parse_xml_file(path).getroot()
    info = root.find("info")
    if info is None or not info.get("version"):
        return VERSION_REFUSAL
    if root.find("loader") is None:
        return LOADER_REFUSAL
    return None


def small_game_variant(directory: Path, name: str, old: str, new: str) -> Path:
    text = SMALL_GAME.read_text(encoding="utf-8")
    assert old in text, f"the fixture no longer contains {old!r}"
    path = directory / name
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def run_cli(*arguments: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(list(arguments))
    return status, out.getvalue()


# --- the engine's parser on real games ---------------------------------------------------

@pytest.fixture(scope="module")
def real_game_verdicts() -> dict[Path, dict]:
    """`engine check --format json` on every corpus and Global 1940 XML: one JVM."""
    files = corpus_xmls()
    if not files:
        missing(SHARED_MISSING)
    status, output = run_cli("engine", "check", "--format", "json", *map(str, files))
    verdicts = {Path(entry["path"]).resolve(): entry for entry in json.loads(output)}
    assert status == (0 if all(entry["ok"] for entry in verdicts.values()) else 1)
    return verdicts


@requires_engine
@pytest.mark.parametrize("path", xml_params())
def test_engine_verdict_follows_info_version_and_loader(path, real_game_verdicts):
    verdict = real_game_verdicts[path.resolve()]
    refusal = expected_refusal(path)
    if refusal:
        assert not verdict["ok"]
        assert refusal in verdict["error"]
    elif path.parent == GLOBAL_GAMES_DIR:
        assert verdict["ok"], verdict["error"]
        counts = verdict["counts"]
        assert counts["territories"] > 300 and counts["players"] >= 14 and counts["triggers"] > 0
    else:
        # Both are there, so whatever the engine thinks of the file, it is not about them.
        assert VERSION_REFUSAL not in verdict["error"] and LOADER_REFUSAL not in verdict["error"]


@requires_engine
def test_the_rule_is_exercised_both_ways(real_game_verdicts):
    refused = [path for path in real_game_verdicts if expected_refusal(path)]
    global_games = [path for path in real_game_verdicts if path.parent == GLOBAL_GAMES_DIR.resolve()]
    assert refused and len(global_games) >= 6


@requires_engine
def test_version_refusal_comes_with_the_dtd_complaint(real_game_verdicts):
    refused = [entry for path, entry in real_game_verdicts.items() if expected_refusal(path) == VERSION_REFUSAL]
    for entry in refused:
        assert any('Attribute "version" is required' in warning for warning in entry["warnings"])


# --- the hand-written two-player game ------------------------------------------------------

@pytest.fixture(scope="module")
def small_game_verdicts(tmp_path_factory) -> dict[str, harness.CheckResult]:
    directory = tmp_path_factory.mktemp("variants")
    broken_step = small_game_variant(directory, "broken_step.xml", '<step name="redsPlace" delegate="place"',
                                     '<step name="redsPlace" delegate="noSuchDelegate"')
    no_loader = small_game_variant(directory, "no_loader.xml",
                                   '<loader javaClass="games.strategy.triplea.TripleA"/>', "")
    results = check_games([SMALL_GAME, broken_step, no_loader])
    return {result.path.name: result for result in results}


@requires_engine
def test_small_game_loads_with_its_counts(small_game_verdicts):
    result = small_game_verdicts[SMALL_GAME.name]
    assert result.ok, result.error
    assert result.counts == {"territories": 4, "players": 2, "unit_types": 2, "attachments": 8,
                             "triggers": 1, "steps": 14}
    assert result.warnings == []


@requires_engine
def test_step_with_unknown_delegate_is_refused_with_the_engines_message(small_game_verdicts):
    result = small_game_verdicts["broken_step.xml"]
    assert not result.ok
    assert result.error == "MapName: broken_step.xml, Could not find delegate. name:noSuchDelegate"
    assert any("noSuchDelegate" in warning for warning in result.warnings)


@requires_engine
def test_missing_loader_is_refused(small_game_verdicts):
    result = small_game_verdicts["no_loader.xml"]
    assert not result.ok and LOADER_REFUSAL in result.error


@requires_engine
def test_trigger_fires_in_round_one_and_pays_once():
    report = play_game(SMALL_GAME, rounds=2, seed=5)
    assert report.ok and report.exceptions == []
    assert report.rounds_completed == 2 and report.stopped_by == "rounds"
    assert [(entry["trigger"], entry["round"], entry["step"]) for entry in report.fired] == [
        (TRIGGER, 1, "redsPurchase")]
    assert "end with 17 PUs" in report.fired[0]["event"]  # 10 at the start + 7
    # Both earn 5 a turn and cannot afford anything; the trigger's 7 PUs is the whole difference.
    assert player(report, "Reds")["resources"] == {"PUs": 10 + 7 + 5 + 5}
    assert player(report, "Blues")["resources"] == {"PUs": 10 + 5 + 5}
    assert player(report, "Reds")["territories"] == 2
    assert player(report, "Reds")["units"] == {"factory": 1, "infantry": 3}


@requires_engine
def test_cli_play_json_after_one_round():
    status, output = run_cli("engine", "play", str(SMALL_GAME), "--rounds", "1", "--seed", "1", "--format", "json")
    report = json.loads(output)
    assert status == 0 and report["ok"]
    assert report["rounds_completed"] == 1
    assert [entry["trigger"] for entry in report["fired"]] == [TRIGGER]
    resources = {state["name"]: state["resources"]["PUs"] for state in report["players"]}
    assert resources == {"Reds": 22, "Blues": 15}


@requires_engine
def test_cli_play_json_names_the_slowest_steps():
    """Each step's wall time, slowest first (issue 31: no AI step may think over 30 s choosing nothing)."""
    status, output = run_cli("engine", "play", str(SMALL_GAME), "--rounds", "1", "--seed", "1", "--format", "json")
    slowest = json.loads(output)["slowest_steps"]
    assert status == 0 and 0 < len(slowest) <= 10
    assert set(slowest[0]) == {"round", "step", "player", "seconds"}
    assert [entry["seconds"] for entry in slowest] == sorted((entry["seconds"] for entry in slowest), reverse=True)
    assert {entry["round"] for entry in slowest} == {1} and {entry["player"] for entry in slowest} <= {"Reds", "Blues", ""}


@requires_engine
def test_cli_check_lines_and_exit_status(tmp_path):
    broken = small_game_variant(tmp_path, "broken_step.xml", '<step name="redsPlace" delegate="place"',
                                '<step name="redsPlace" delegate="noSuchDelegate"')
    status, output = run_cli("engine", "check", str(SMALL_GAME), str(broken))
    assert status == 1
    assert output.splitlines() == [
        f"OK  {display_path(SMALL_GAME)}  (4 territories, 2 players, 2 units, 8 attachments, 1 triggers, 14 steps)",
        f"FAIL {display_path(broken)}: MapName: broken_step.xml, Could not find delegate. name:noSuchDelegate",
    ]
    status, output = run_cli("engine", "check", str(SMALL_GAME))
    assert status == 0 and output.startswith("OK  ")


@requires_engine
def test_exception_during_play_is_reported_with_round_and_step(tmp_path, capsys):
    # A non-optional player without a capital: the Easy AI looks it up while moving and throws.
    no_capital = small_game_variant(tmp_path, "no_capital.xml", '<option name="capital" value="Blues"/>', "")
    report = play_game(no_capital, rounds=1, seed=1)
    assert not report.ok and report.stopped_by == "exception"
    fatal = report.exceptions[0]
    assert fatal["kind"] == "fatal" and fatal["round"] == 1
    assert "Capital not found for:PlayerID named:Blues" in fatal["message"]
    assert fatal["step"].startswith("reds")
    assert [diagnostic.code for diagnostic in report.diagnostics()] == ["TG311"]

    assert main(["engine", "play", str(no_capital), "--rounds", "1"]) == 1
    assert "error[TG311]" in capsys.readouterr().err


@requires_engine
def test_play_of_a_refused_game_is_tg310(tmp_path):
    broken = small_game_variant(tmp_path, "broken_step.xml", '<step name="redsPlace" delegate="place"',
                                '<step name="redsPlace" delegate="noSuchDelegate"')
    with pytest.raises(DiagnosticError) as caught:
        play_game(broken, rounds=1)
    diagnostic = caught.value.diagnostics[0]
    assert diagnostic.code == "TG310" and "Could not find delegate" in diagnostic.message


VICTORY_TRIGGER = """    <attachment name="triggerAttachmentRedsVictory" attachTo="Reds"
        javaClass="games.strategy.triplea.attachments.TriggerAttachment" type="player">
      <option name="conditions" value="conditionAttachmentAlwaysTrue"/>
      <option name="when" value="before:endRoundStep"/>
      <option name="players" value="Reds"/>
      <option name="victory" value="RedsWin"/>
    </attachment>
  </attachmentList>"""


@requires_engine
def test_victory_needs_the_map_folder_and_ends_the_game(tmp_path):
    victory = small_game_variant(tmp_path, "victory.xml", "  </attachmentList>", VICTORY_TRIGGER)
    with_map = play_game(victory, rounds=3, seed=1, map_dir=SMALL_GAME.parent / "victory_map")
    assert with_map.ok and with_map.stopped_by == "game over"
    assert with_map.winners == ["Reds"] and with_map.rounds_completed == 1
    # 1.9 looks the victory text up in the map folder's notifications.properties; without it
    # the trigger does nothing and the game goes on.
    without_map = play_game(victory, rounds=3, seed=1)
    assert without_map.ok and without_map.stopped_by == "rounds"
    assert without_map.winners is None and without_map.rounds_completed == 3


# --- Global 1940 played by the Easy AI ------------------------------------------------------

@requires_engine
def test_global_1940_two_rounds_without_exceptions(shared_dir, record_property):
    report = play_game(G40_SECOND_EDITION, rounds=2, ai="easy", seed=1940, map_dir=GLOBAL_MAP_DIR)
    record_property("round_seconds", report.round_seconds)
    print(f"\nGlobal 1940 2nd edition, seconds per round: {report.round_seconds}")
    assert report.exceptions == [], report.exceptions
    assert report.ok and report.rounds_completed == 2 and len(report.round_seconds) == 2
    assert report.fired, "Global 1940 has triggers that fire every game (e.g. at gameInitDelegate)"
    assert {entry["round"] for entry in report.fired} <= {1, 2}
    assert len(report.players) == 15
    majors = [state for state in report.players
              if state["name"] in ("Germans", "Russians", "Japanese", "Americans", "British", "Italians")]
    assert len(majors) == 6
    assert all(state["territories"] > 0 and state["units"] and state["resources"]["PUs"] > 0 for state in majors)


@requires_engine
def test_same_seed_same_game(shared_dir):
    def outcome():
        report = play_game(G40_SECOND_EDITION, rounds=1, seed=42, map_dir=GLOBAL_MAP_DIR)
        return report.players, report.fired, report.steps_run

    assert outcome() == outcome()


@requires_engine
def test_time_limit_is_tg312(shared_dir):
    with pytest.raises(DiagnosticError) as caught:
        play_game(G40_SECOND_EDITION, rounds=5, timeout=1)
    diagnostic = caught.value.diagnostics[0]
    assert diagnostic.code == "TG312" and "time limit of 1 s reached after 0 of 5 rounds" in diagnostic.message
    assert caught.value.exit_status == 1


# --- the harness plumbing --------------------------------------------------------------------

@requires_engine
def test_harness_compiles_once_into_the_cache_not_the_repo(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    cache = tmp_path / "cache" / "triplea-gen" / "engine"
    # Two compilers racing for the same cache entry both end up with one complete copy.
    with ThreadPoolExecutor(max_workers=2) as pool:
        first, second = pool.map(lambda _: harness.harness_classes(), range(2))
    assert first == second and first.parent == cache
    main_class = first / "tripleagen" / "harness" / "Harness.class"
    assert main_class.is_file()
    assert [entry.name for entry in cache.iterdir()] == [first.name]  # no half-built leftovers
    stamp = main_class.stat().st_mtime_ns
    assert harness.harness_classes() == first and main_class.stat().st_mtime_ns == stamp
    assert not list((REPO / "generator").rglob("*.class"))


@requires_engine
def test_compile_failure_is_tg302(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    broken = tmp_path / "Broken.java"
    broken.write_text("class Broken { void f() { undefinedCall(); } }\n")
    monkeypatch.setattr(harness, "_java_sources", lambda: [broken])
    with pytest.raises(DiagnosticError) as caught:
        harness.harness_classes()
    diagnostic = caught.value.diagnostics[0]
    assert diagnostic.code == "TG302" and "undefinedCall" in diagnostic.message
    # the compiler's first error as file:line, and the release the harness is compiled for
    assert str(diagnostic.position).endswith("Broken.java:1:1") and "--release 17" in diagnostic.message
    assert list((tmp_path / "cache" / "triplea-gen" / "engine").iterdir()) == []


@requires_engine
def test_engine_class_path_comes_from_the_jar_manifest():
    jar = harness.engine_jar()
    class_path = harness.engine_class_path(jar)
    assert class_path[0] == str(jar)
    assert len(class_path) > 1 and all(Path(entry).is_file() for entry in class_path)


def test_missing_engine_is_tg301(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("TRIPLEA_JAR", str(tmp_path / "no" / "triplea.jar"))
    assert not harness.engine_available()
    with pytest.raises(DiagnosticError) as caught:
        check_games([SMALL_GAME])
    assert caught.value.diagnostics[0].code == "TG301"
    assert main(["engine", "check", str(SMALL_GAME)]) == 2
    assert "error[TG301]" in capsys.readouterr().err


def test_files_declaring_entities_never_reach_the_engine(tmp_path):
    # The engine's parser would expand the entity and show /etc/passwd in its error message.
    hostile = tmp_path / "hostile.xml"
    hostile.write_text('<?xml version="1.0"?>\n<!DOCTYPE game [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
                       '<game><info name="&x;" version="1"/></game>\n')
    [result] = check_games([hostile])
    assert not result.ok and result.error.startswith("not given to the engine:")
    with pytest.raises(DiagnosticError) as caught:
        play_game(hostile)
    assert caught.value.diagnostics[0].code == "TG011"
