"""Issue #25, item 7, without the engine: what a killed run leaves behind is cleared by the next one,
and nothing of a run still going (or of another program) is touched.

A killed triplea-gen leaves its scratch folders (triplea-gen-KIND-PID-*) and, should one not have
ended by itself, processes marked -Dtriplea-gen.owner=PID. The next engine command's sweep removes
those of owners that are gone. The engines themselves: tests/engine/test_engine_lifecycle.py."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from generator.engine import lifecycle


def dead_pid() -> int:
    """The id of a process that has ended (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_folders_of_dead_runs_go_and_the_rest_stay(tmp_path: Path):
    gone = dead_pid()
    stale = [tmp_path / f"triplea-gen-home-{gone}-abc", tmp_path / f"triplea-gen-scenarios-{gone}-x1"]
    live = tmp_path / f"triplea-gen-home-{os.getpid()}-def"  # this run's own
    unmarked = tmp_path / "triplea-gen-home-q8z0x1"  # an older triplea-gen's: no owner in the name
    other = tmp_path / f"something-{gone}-else"
    for folder in (*stale, live, unmarked, other):
        (folder / "triplea-gen-games").mkdir(parents=True)
    linked = tmp_path / f"triplea-gen-home-{gone}-link"
    linked.symlink_to(other)
    removed = lifecycle.sweep_stale(str(tmp_path))
    assert sorted(entry.name for entry in tmp_path.iterdir()) == sorted(
        [live.name, unmarked.name, other.name, linked.name])
    assert sorted(removed) == sorted(str(folder) for folder in stale)
    assert (other / "triplea-gen-games").is_dir()  # the link was not followed


def test_processes_of_dead_runs_are_stopped_and_those_of_live_runs_kept(tmp_path: Path):
    gone = dead_pid()
    sleeper = [sys.executable, "-c", "import time; time.sleep(120)"]
    orphan = subprocess.Popen([*sleeper, f"-D{lifecycle.OWNER_PROPERTY}={gone}"])
    ours = subprocess.Popen([*sleeper, f"-D{lifecycle.OWNER_PROPERTY}={os.getpid()}"])
    try:
        removed = lifecycle.sweep_stale(str(tmp_path))
        assert orphan.wait(timeout=10) == -signal.SIGTERM
        assert f"process {orphan.pid}" in removed
        assert ours.poll() is None
    finally:
        for process in (orphan, ours):
            process.kill()
            process.wait()


def test_a_run_marks_its_folders_with_its_own_id():
    with lifecycle.scratch_folder("home") as folder:
        assert Path(folder).name.startswith(f"triplea-gen-home-{os.getpid()}-")
        assert Path(folder).is_dir()
    assert not Path(folder).exists()
