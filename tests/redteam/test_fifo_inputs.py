"""A FIFO (or any non-regular file) named as input is refused at once with a located TG004, by
every command that takes an input path: opening one to read would block for ever. Each command
runs in its own process with a timeout, so a regression fails the test instead of hanging it."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import PLAIN_GAME, REPO, SHARED, requires_shared

SECONDS = 20
S003 = REPO / "rules_yaml" / "s003_manchuria_1945.yaml"


def _run(args: list[str], cwd) -> subprocess.CompletedProcess:
    env = dict(os.environ, TRIPLEA_GEN_NO_SERVER="1", PYTHONPATH=str(REPO), TRIPLEA_MAPS=str(SHARED / "maps"))
    return subprocess.run([sys.executable, "-m", "generator", *args], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=SECONDS)


# Each command with FIFO standing for the input path; the FIFO is named fifo.yaml or fifo.xml.
COMMANDS = {
    "import": (["import", "FIFO.xml", "-o", "out.yaml"], "FIFO.xml"),
    "import --base": (["import", "GAME", "--base", "FIFO.xml", "-o", "out.yaml"], "FIFO.xml"),
    "validate xml": (["validate", "FIFO.xml"], "FIFO.xml"),
    "validate spec": (["validate", "FIFO.yaml"], "FIFO.yaml"),
    "build": (["build", "FIFO.yaml", "-o", "out"], "FIFO.yaml"),
    "diff": (["diff", "FIFO.xml", "GAME"], "FIFO.xml"),
    "package": (["package", "FIFO.yaml", "-o", "out"], "FIFO.yaml"),
    "package --previous": (["package", "PLAIN", "-o", "out", "--previous", "FIFO.xml"], "FIFO.xml"),
    "report": (["report", "FIFO.yaml"], "FIFO.yaml"),
    "preview": (["preview", "FIFO.yaml", "-o", "out.png"], "FIFO.yaml"),
    "test": (["test", "FIFO.yaml"], "FIFO.yaml"),
    "engine check": (["engine", "check", "FIFO.xml"], "FIFO.xml"),
}


@pytest.fixture(scope="module")
def game_xml(tmp_path_factory):
    out = tmp_path_factory.mktemp("plain")
    done = _run(["build", str(PLAIN_GAME), "-o", str(out)], out)
    assert done.returncode == 0, done.stderr
    return out / "frontier_1939" / "map" / "games" / "frontier_1939.xml"


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_fifo_named_as_input_is_refused_without_blocking(name, tmp_path, game_xml):
    args, fifo_name = COMMANDS[name]
    os.mkfifo(tmp_path / fifo_name)
    args = [str(game_xml) if a == "GAME" else str(PLAIN_GAME) if a == "PLAIN" else a for a in args]
    done = _run(args, tmp_path)
    refusal = f"{fifo_name}: error[TG004]: not a regular file (a FIFO, device or socket); refused"
    if name == "engine check":  # its report lists each game as given to the engine or not
        assert done.returncode == 1 and f"not given to the engine: {refusal}" in done.stdout, done.stdout
        return
    assert done.returncode == 2, done.stdout + done.stderr
    assert refusal in done.stderr


@requires_shared
def test_a_fifo_named_as_report_results_is_refused_without_blocking(tmp_path):
    os.mkfifo(tmp_path / "results.json")
    done = _run(["report", str(S003), "--results", "results.json"], tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "results.json: error[TG004]: not a regular file" in done.stderr


def test_a_missing_results_file_still_means_not_run(tmp_path):
    from generator.scenarios.run import _read_json

    assert _read_json(tmp_path / "missing.json") is None
    (tmp_path / "broken.json").write_text("{not json")
    assert _read_json(tmp_path / "broken.json") is None
