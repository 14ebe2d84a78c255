"""Issue #25, items 6 and 7 in the real engine: interrupted runs leave no engine running and no
scratch folder behind, and a game too large for the engine's heap fails at once.

Each run gets a TMPDIR of its own: every scratch folder of the run is made there, and every process
of the run (the JVMs: their user.home; xvfb-run and its X server: their -auth file) names it on its
command line, which is how the tests find what survives. Before the fix, SIGINT to `test --jobs 2`
printed "interrupted" while both JVMs played on and Python waited for them; SIGTERM or SIGKILL left
the JVMs running under PID 1 and their folders behind."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO, missing, requires_engine

pytestmark = [pytest.mark.engine, requires_engine]

RULES_BASE = REPO / "tests" / "golden" / "rules" / "base.yaml"
# Two scenarios that play long (ten rounds of the easy AI), so that both engines are caught running.
LONG_GAMES = f"""\
mod:
  name: Frontier played long
  version: "1.0"
  base: {RULES_BASE}
  engine: "1.9"
rules:
  - {{id: PAY, text: The USSR gets 9 when Italy first goes to war with it., use: first_war_payment,
     with: {{receiver: Russians, amount: 9, attackers: [Italians]}}}}
scenarios:
  - id: long-one
    rule: PAY
    control: false
    play: {{rounds: 10, ai: easy}}
    expect:
      - no_exception: true
  - id: long-two
    rule: PAY
    control: false
    play: {{rounds: 10, ai: easy, seed: 2}}
    expect:
      - no_exception: true
"""
STOP_SECONDS = 8  # "at once": the engines get 2 s to stop politely, then are killed
START_SECONDS = 240  # a cold start compiles the harness and builds the spec


def processes_naming(marker: str) -> list[tuple[int, str]]:
    """Live processes (zombies aside) whose command line contains marker: (pid, command line)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if marker in command and state != "Z":
            found.append((int(entry.name), command))
    return found


def engines(marker: str, kind: str = "java") -> list[int]:
    return [pid for pid, command in processes_naming(marker) if command.split(" ", 1)[0].endswith(kind)]


def scratch(tmpdir: Path) -> list[str]:
    return sorted(entry.name for entry in tmpdir.iterdir() if entry.name.startswith("triplea-gen-"))


@pytest.fixture
def run_tmp(tmp_path: Path):
    """A private TMPDIR for the run; whatever of it survives a failed test is killed afterwards."""
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    yield tmpdir
    for pid, _ in processes_naming(str(tmpdir)):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def start(args: list[str], tmpdir: Path, **environment) -> subprocess.Popen:
    env = {**os.environ, "TMPDIR": str(tmpdir), "PYTHONPATH": str(REPO), "TRIPLEA_GEN_NO_SERVER": "1",
           **environment}
    output = tmpdir.parent
    return subprocess.Popen([sys.executable, "-m", "generator", *args], cwd=REPO, env=env,
                            stdout=open(output / "stdout.txt", "wb"), stderr=open(output / "stderr.txt", "wb"))


def wait_until(condition, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"{what} within {seconds} s")


def start_two_games(tmp_path: Path, tmpdir: Path) -> subprocess.Popen:
    """`test --jobs 2` of LONG_GAMES, returned once both of its engines run."""
    spec = tmp_path / "long.yaml"
    spec.write_text(LONG_GAMES, encoding="utf-8")
    run = start(["test", str(spec), "--jobs", "2", "--no-control", "-o", str(tmp_path / "out")], tmpdir)
    wait_until(lambda: len(engines(str(tmpdir))) == 2 or run.poll() is not None, START_SECONDS,
               "two engines did not start")
    assert run.poll() is None, (tmp_path / "stderr.txt").read_text()
    assert len(engines(str(tmpdir))) == 2
    time.sleep(1)  # the engines are loading the game
    return run


def assert_all_gone(tmpdir: Path, seconds: float = STOP_SECONDS) -> float:
    """Every process of the run ends within seconds; how long it took."""
    started = time.monotonic()
    deadline = started + seconds
    while processes_naming(str(tmpdir)) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = processes_naming(str(tmpdir))
    assert left == [], f"still running {seconds} s after the signal: {left}"
    return time.monotonic() - started


@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["SIGINT", "SIGTERM"])
def test_a_signal_to_test_jobs_2_stops_both_engines_at_once(tmp_path: Path, run_tmp: Path, signum, status):
    run = start_two_games(tmp_path, run_tmp)
    run.send_signal(signum)
    assert_all_gone(run_tmp)
    assert run.wait(timeout=STOP_SECONDS) == status
    assert "interrupted" in (tmp_path / "stderr.txt").read_text()
    assert scratch(run_tmp) == []  # the run's scratch folders (its games, the engines' homes) are gone


def test_engines_of_a_killed_run_end_by_themselves_and_the_next_run_removes_its_folders(tmp_path: Path,
                                                                                        run_tmp: Path):
    run = start_two_games(tmp_path, run_tmp)
    run.kill()  # SIGKILL: triplea-gen can do nothing; its JVMs see their stdin end and halt
    run.wait()
    assert_all_gone(run_tmp)
    left = scratch(run_tmp)
    assert any(name.startswith(f"triplea-gen-scenarios-{run.pid}-") for name in left), left
    # The next run of any engine command sweeps the folders of runs that are gone.
    game = REPO / "tests" / "fixtures" / "plain_game"
    built = tmp_path / "built"
    subprocess.run([sys.executable, "-m", "generator", "build", str(game / "frontier_1939.yaml"), "-o", str(built)],
                   cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO), "TRIPLEA_GEN_NO_SERVER": "1"}, check=True,
                   capture_output=True)
    (xml,) = built.glob("*/map/games/*.xml")
    after = start(["engine", "check", str(xml)], run_tmp)
    assert after.wait(timeout=START_SECONDS) == 0, (tmp_path / "stderr.txt").read_text()
    assert scratch(run_tmp) == []


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_a_signal_to_engine_gui_stops_the_client_and_its_x_server(tmp_path: Path, run_tmp: Path, signum):
    import shutil

    if shutil.which("xvfb-run") is None:
        missing("xvfb-run is not installed (CI installs it with the engine)")
    built = tmp_path / "built"
    subprocess.run([sys.executable, "-m", "generator", "build", str(REPO / "rules_yaml" / "hex_skirmish.yaml"), "-o",
                    str(built)], cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO), "TRIPLEA_GEN_NO_SERVER": "1"},
                   check=True, capture_output=True)
    folder = built / "hex_skirmish"
    run = start(["engine", "gui", str(folder / "map" / "games" / "hex_skirmish.xml"), "--map-dir", str(folder),
                 "--rounds", "5"], run_tmp)
    wait_until(lambda: (engines(str(run_tmp)) and engines(str(run_tmp), "Xvfb")) or run.poll() is not None,
               START_SECONDS, "the client and its X server did not start")
    assert run.poll() is None, (tmp_path / "stderr.txt").read_text()
    time.sleep(2)
    run.send_signal(signum)
    # Killed outright, triplea-gen stops nothing: the JVM halts as its stdin ends, and xvfb-run then
    # stops its X server.
    assert_all_gone(run_tmp)
    assert run.wait(timeout=STOP_SECONDS) == (143 if signum == signal.SIGTERM else -signal.SIGKILL)
    if signum == signal.SIGTERM:
        assert scratch(run_tmp) == []


def test_a_game_too_large_for_the_heap_fails_at_once_with_tg083(tmp_path: Path, run_tmp: Path):
    built = tmp_path / "built"
    subprocess.run([sys.executable, "-m", "generator", "build", str(REPO / "rules_yaml" / "hex_skirmish.yaml"), "-o",
                    str(built)], cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO), "TRIPLEA_GEN_NO_SERVER": "1"},
                   check=True, capture_output=True)
    xml = built / "hex_skirmish" / "map" / "games" / "hex_skirmish.xml"
    text = xml.read_text(encoding="utf-8")
    placement = 'unitType="infantry" territory="Redhold" quantity="3"'
    assert placement in text
    huge = tmp_path / "huge.xml"  # five million infantry in one territory: far over a 128 MiB heap
    huge.write_text(text.replace(placement, placement.replace('"3"', '"5000000"')), encoding="utf-8")
    started = time.monotonic()
    run = start(["engine", "play", str(huge), "--rounds", "1", "--timeout", "120"], run_tmp,
                TRIPLEA_GEN_ENGINE_HEAP="128")
    status = run.wait(timeout=300)
    seconds = time.monotonic() - started
    err = (tmp_path / "stderr.txt").read_text()
    assert status == 1, err
    assert "error[TG083]: the engine ran out of memory (its heap limit is 128 MiB; exit status 3): " \
           "Terminating due to java.lang.OutOfMemoryError: Java heap space" in err
    assert seconds < 60  # not the time limit: the JVM stops at the first OutOfMemoryError
    assert_all_gone(run_tmp, 1)
    assert scratch(run_tmp) == []


def test_every_jvm_has_a_heap_limit_and_the_marks_that_tie_it_to_this_run(tmp_path: Path):
    from generator.engine import harness, memory

    for options in ((), ("-Xmx64g",)):  # after the caller's options: they cannot lift it
        command = harness.java_command(tmp_path, "some.Main", ["x"], tmp_path, options=options)
        heaps = [part for part in command if part.startswith("-Xmx")]
        assert heaps[-1] == f"-Xmx{memory.engine_heap_mib()}m"
        assert memory.HEAP_FLOOR_MIB <= memory.engine_heap_mib() <= memory.HEAP_CEILING_MIB
        assert {"-XX:MaxMetaspaceSize=256m", "-XX:+ExitOnOutOfMemoryError", f"-Dtriplea-gen.owner={os.getpid()}",
                "-Dtriplea-gen.parent=stdin"} <= set(command)
        assert command.index(heaps[-1]) < command.index("some.Main")
