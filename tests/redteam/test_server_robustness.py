"""The build server runs each job in a child process with a time and a memory limit: a runaway job
is killed and answered with a located error (TG069) while the server goes on serving, answering
`status` truthfully meanwhile. Malformed requests get an error reply and the server lives; a
client that connects and sends nothing holds up nobody; a server that does not answer is not
waited for (the command runs in its own process)."""
from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import REPO
from generator.cli import buildserver

from .hostile_specs import BASE, MACRO_HEADER, macro_rule, write_mod

RECURSION = ("{% macro f(n) %}{% if n %}{{ f(n - 1) }}{{ f(n - 1) }}{% endif %}{% endmacro %}"
             "<fragment>{{ f(60) }}</fragment>")


def cli(args: list[str], env: dict, cwd: Path = REPO, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", *args], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture
def runtime_dir():
    folder = Path(tempfile.mkdtemp(prefix="tgr-", dir="/tmp"))  # short: a socket path has about 100 bytes
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def client_env(runtime_dir: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("TRIPLEA_GEN_NO_SERVER", "TRIPLEA_MAPS")}
    return dict(env, XDG_RUNTIME_DIR=str(runtime_dir), PYTHONPATH=str(REPO))


def start_server(env: dict, runtime_dir: Path, *options: str):
    started = cli(["server", "start", "--idle", "5", *options], env)
    assert started.returncode == 0, started.stderr
    return runtime_dir / f"triplea-gen-{os.getuid()}" / buildserver.SOCKET_NAME


@pytest.fixture
def server(client_env: dict, runtime_dir: Path):
    yield start_server(client_env, runtime_dir)
    cli(["server", "stop"], client_env)


@pytest.fixture
def strict_server(client_env: dict, runtime_dir: Path):
    """A server that stops jobs after 3 s (the sandbox's own deadline is far longer)."""
    yield start_server(client_env, runtime_dir, "--job-limit", "3")
    cli(["server", "stop"], client_env)


def raw_request(socket_path: Path, payload: bytes, length: int | None = None) -> dict:
    """Send payload with its length prefix (or the length given) and read the one reply."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(10)
        conn.connect(str(socket_path))
        conn.sendall((len(payload) if length is None else length).to_bytes(4, "big") + payload)
        return buildserver._receive(conn)


def status_line(env: dict) -> str:
    done = cli(["server", "status"], env, timeout=10)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_a_runaway_job_is_stopped_and_the_server_keeps_serving(strict_server: Path, client_env: dict, tmp_path: Path):
    spec = write_mod(tmp_path / "hostile", macro_rule("slow"), {"slow.xml.j2": MACRO_HEADER + RECURSION})
    started = time.monotonic()
    runaway = subprocess.Popen([sys.executable, "-m", "generator", "build", "spec.yaml", "-o", "out"], env=client_env,
                               cwd=spec.parent, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(1)
        assert ", 1 running," in status_line(client_env)
        good = cli(["build", str(BASE), "-o", str(tmp_path / "good")], client_env, timeout=30)
        assert good.returncode == 0, good.stderr
        assert runaway.poll() is None, "the good build was not served while the runaway job ran"
        _, err = runaway.communicate(timeout=30)
    finally:
        runaway.kill()
    assert runaway.returncode == 2
    assert "spec.yaml: error[TG069]: the build server stopped `build`: it ran longer than 3 seconds" in err
    assert time.monotonic() - started < 20
    assert not (spec.parent / "out").exists()
    assert ", 2 job(s) served, 0 running," in status_line(client_env)


@pytest.mark.parametrize("payload", [
    b"[" * 100_000 + b"]" * 100_000,
    b'{"request": "run"}',
    json.dumps({"request": "run", "package": buildserver.PACKAGE_DIR, "python": sys.version, "argv": ["build"],
                "cwd": "/", "env": {}}).encode(),
    json.dumps({"request": "run", "package": buildserver.PACKAGE_DIR, "python": sys.version, "argv": ["build"],
                "cwd": "/", "env": {}, "umask": 0}).encode().replace(b'"umask": 0', b'"umask": ' + b"9" * 5000),
    json.dumps({"request": "run", "package": buildserver.PACKAGE_DIR, "python": sys.version, "argv": ["build"],
                "cwd": "/", "env": {}, "umask": 2 ** 70}).encode(),
    json.dumps({"request": "run", "package": buildserver.PACKAGE_DIR, "python": sys.version, "argv": [["build"]],
                "cwd": "/", "env": ["x"], "umask": 18}).encode(),
    json.dumps({"request": ["status"]}).encode(),
    b"\xff\xfe not json",
    b'"a string"',
], ids=["deep", "missing fields", "no umask", "long number", "huge number", "wrong types", "list request",
        "not JSON", "not an object"])
def test_a_malformed_request_gets_an_error_reply_and_the_server_lives(payload: bytes, server: Path,
                                                                      client_env: dict):
    reply = raw_request(server, payload)
    assert set(reply) & {"error", "declined"}, reply
    assert "build server running" in status_line(client_env)


def test_an_oversized_request_is_refused_without_reading_it(server: Path, client_env: dict):
    reply = raw_request(server, b"{}", length=buildserver.MAX_MESSAGE + 1)
    assert "over the limit" in reply["error"]
    assert "build server running" in status_line(client_env)


def test_a_silent_client_holds_up_nobody(server: Path, client_env: dict):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as silent:
        silent.connect(str(server))
        started = time.monotonic()
        assert "build server running" in status_line(client_env)
        assert time.monotonic() - started < 5


def test_a_server_that_does_not_answer_is_not_waited_for(runtime_dir: Path, client_env: dict, tmp_path: Path):
    folder = runtime_dir / f"triplea-gen-{os.getuid()}"
    folder.mkdir(mode=0o700)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as wedged:
        wedged.bind(str(folder / buildserver.SOCKET_NAME))
        wedged.listen(8)  # accepts connections (the kernel does), never answers
        started = time.monotonic()
        built = cli(["build", str(BASE), "-o", str(tmp_path / "out")], client_env, timeout=60)
    assert built.returncode == 0, built.stderr
    assert list((tmp_path / "out").glob("*/map/games/frontier_1939.xml"))
    assert time.monotonic() - started < 20


def test_stop_while_a_job_runs_is_truthful(server: Path, client_env: dict, tmp_path: Path):
    spec = write_mod(tmp_path / "hostile", macro_rule("slow"), {"slow.xml.j2": MACRO_HEADER + RECURSION})
    runaway = subprocess.Popen([sys.executable, "-m", "generator", "build", "spec.yaml", "-o", "out"],
                               env=dict(client_env, TRIPLEA_GEN_NO_SERVER=""), cwd=spec.parent,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(1)
        stopped = cli(["server", "stop"], client_env, timeout=20)
        assert stopped.stdout == "build server stopped\n"
        assert not server.exists()
        assert cli(["server", "status"], client_env, timeout=10).stdout == "no build server is running\n"
    finally:
        runaway.kill()
        runaway.wait()


def test_a_job_over_its_memory_fails_and_the_server_keeps_serving(client_env: dict, runtime_dir: Path,
                                                                   tmp_path: Path):
    """60 lists of a million items (8 MB each, within the sandbox's bounds, and no output) in a job of
    200 MiB: the template runs out of memory, which is a located error; the next job gets a fresh worker.
    (The limit leaves the rest of the build ample room, so only the template can be what overruns it;
    lists, not strings, so that the output bound cannot be what stops it first.)"""
    start_server(client_env, runtime_dir, "--job-memory", "200")
    try:
        hog = ("{% set a = [0] * 999990 %}{% set ns = namespace(kept=[]) %}{% for i in range(60) %}"
               "{% set ns.kept = ns.kept + [a + [i]] %}{% endfor %}<fragment>{{ ns.kept | length }}</fragment>")
        spec = write_mod(tmp_path / "hostile", macro_rule("hog"), {"hog.xml.j2": MACRO_HEADER + hog})
        hungry = cli(["build", "spec.yaml", "-o", "out"], client_env, cwd=spec.parent)
        assert hungry.returncode == 2
        assert "spec.yaml:6:5: error[TG066]: rule R1: templates ran out of memory" in hungry.stderr
        assert not (spec.parent / "out").exists()
        good = cli(["build", str(BASE), "-o", str(tmp_path / "good")], client_env)
        assert good.returncode == 0, good.stderr
    finally:
        cli(["server", "stop"], client_env)


def test_a_job_over_its_memory_outside_templates_is_stopped(client_env: dict, runtime_dir: Path, shared_dir: Path,
                                                            tmp_path: Path):
    """A Global 1940 mod does not fit in 60 MiB: the job fails with TG069 at its spec, the server lives."""
    start_server(client_env, runtime_dir, "--job-memory", "60")
    try:
        env = dict(client_env, TRIPLEA_MAPS=str(shared_dir / "maps"))
        big = cli(["build", "rules_yaml/g40_showcase.yaml", "-o", str(tmp_path / "out")], env)
        assert big.returncode == 2
        assert "rules_yaml/g40_showcase.yaml: error[TG069]: the build server stopped `build`: it needed more than " \
               "its 60 MiB of memory" in big.stderr
        assert "build server running" in status_line(client_env)
    finally:
        cli(["server", "stop"], client_env)
