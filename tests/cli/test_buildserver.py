"""The build server: `build` and `validate` handed to a warm process give exactly what they
give in their own process (files, messages, exit status), with the caller's folder and
environment; the server is used only when it is private, of this installation and current."""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import PLAIN_GAME, REPO, SHARED, requires_shared
from folders import snapshot
from textedit import replaced
from generator.cli import buildserver

GOLDEN_BASE = REPO / "tests" / "golden" / "rules" / "base.yaml"
EXAMPLE = PLAIN_GAME

MACRO = """\
{#---
description: A fixed payment at the start of a player's first purchase.
params:
  player: {type: player}
  amount: {type: int}
---#}
{% import "_common.j2" as c %}
<fragment>
  <attachmentList>
    <attachment name="triggerAttachment_{{ key }}" attachTo="{{ player }}" javaClass="{{ c.TRIGGER }}" type="player">
      {{ c.option("resource", "PUs") }}
      {{ c.option("resourceCount", amount) }}
      {{ c.option("when", "before:" ~ game.phase_step(player, "Purchase")) }}
      {{ c.option("uses", 1) }}
    </attachment>
  </attachmentList>
</fragment>
"""


def cli(args: list[str], env: dict, cwd: Path = REPO) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", *args], env=env, cwd=cwd, capture_output=True,
                          text=True, timeout=120)


def served(env: dict) -> int:
    status = cli(["server", "status"], env)
    assert status.returncode == 0, status.stdout + status.stderr
    return int(status.stdout.split(", ")[1].split()[0])


@pytest.fixture
def runtime_dir():
    # Short on purpose: a Unix socket path has a limit of about 100 bytes.
    folder = Path(tempfile.mkdtemp(prefix="tgs-", dir="/tmp"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def server_env(runtime_dir: Path):
    env = {k: v for k, v in os.environ.items() if k not in ("TRIPLEA_GEN_NO_SERVER", "TRIPLEA_MAPS")}
    env["XDG_RUNTIME_DIR"] = str(runtime_dir)
    started = cli(["server", "start", "--idle", "5"], env)
    assert started.returncode == 0, started.stderr
    assert started.stdout.startswith("build server started: pid ")
    yield env
    cli(["server", "stop"], env)


def own_process(env: dict) -> dict:
    return dict(env, TRIPLEA_GEN_NO_SERVER="1")


def test_a_build_on_the_server_equals_a_build_in_its_own_process(server_env: dict, tmp_path: Path):
    on_server = cli(["build", str(EXAMPLE), "-o", str(tmp_path / "a")], server_env)
    alone = cli(["build", str(EXAMPLE), "-o", str(tmp_path / "b")], own_process(server_env))
    assert served(server_env) == 1
    assert on_server.returncode == alone.returncode == 0
    assert on_server.stdout == alone.stdout.replace(f"{tmp_path / 'b'}", f"{tmp_path / 'a'}")
    assert on_server.stderr == alone.stderr
    assert snapshot(tmp_path / "a") == snapshot(tmp_path / "b")
    assert len(snapshot(tmp_path / "a")) == 3  # the game, its objectives file, map.yml


def test_bad_input_on_the_server_gives_the_same_messages_and_writes_nothing(server_env: dict, tmp_path: Path,
                                                                              previous_build: Path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(replaced(EXAMPLE.read_text(encoding="utf-8"), "diceSides: 6", "diceSides: 6\ndiceSides: 8"))
    before = snapshot(previous_build)
    on_server = cli(["build", str(bad), "-o", str(previous_build)], server_env, cwd=tmp_path)
    alone = cli(["build", str(bad), "-o", str(previous_build)], own_process(server_env), cwd=tmp_path)
    assert served(server_env) == 1
    assert on_server.returncode == alone.returncode == 2
    assert on_server.stderr == alone.stderr
    assert on_server.stderr.startswith("bad.yaml:") and "error[TG021]" in on_server.stderr
    assert snapshot(previous_build) == before
    usage = cli(["build"], server_env)  # argparse's own refusal comes back too
    assert usage.returncode == 2 and "the following arguments are required: spec" in usage.stderr


def test_validate_on_the_server_in_the_callers_folder(server_env: dict):
    args = ["validate", "rules_yaml/frontier_1939.yaml", "--format", "json", "--engine", "1.9"]
    on_server, alone = cli(args, server_env), cli(args, own_process(server_env))
    assert served(server_env) == 1
    assert (on_server.returncode, on_server.stdout, on_server.stderr) == \
        (alone.returncode, alone.stdout, alone.stderr)
    assert on_server.stdout.lstrip().startswith(("{", "["))


def test_an_edited_macro_is_used_on_the_next_rebuild(server_env: dict, tmp_path: Path):
    (tmp_path / "macros").mkdir()
    macro = tmp_path / "macros" / "bonus.xml.j2"
    macro.write_text(MACRO, encoding="utf-8")
    spec = tmp_path / "bonus.yaml"
    spec.write_text(f"mod: {{name: Bonus, base: {GOLDEN_BASE}, macros: macros}}\n"
                    "rules:\n  - {id: B1, text: Soviet bonus., use: bonus, with: {player: Russians, amount: 3}}\n",
                    encoding="utf-8")
    game = tmp_path / "out" / "frontier_1939" / "map" / "games" / "bonus.xml"
    assert cli(["build", "bonus.yaml", "-o", "out"], server_env, cwd=tmp_path).returncode == 0
    assert '<option name="resourceCount" value="3"/>' in game.read_text(encoding="utf-8")
    macro.write_text(replaced(MACRO, 'c.option("resourceCount", amount)', 'c.option("resourceCount", amount * 2)'),
                     encoding="utf-8")
    assert cli(["build", "bonus.yaml", "-o", "out"], server_env, cwd=tmp_path).returncode == 0
    assert '<option name="resourceCount" value="6"/>' in game.read_text(encoding="utf-8")
    assert served(server_env) == 2


@requires_shared
def test_a_mod_of_global_1940_rebuilt_on_the_server(server_env: dict, tmp_path: Path):
    """The base game is imported once and kept: each rebuild must still start from the
    untouched base (a mod changes the model it gets), with the caller's TRIPLEA_MAPS."""
    env = dict(server_env, TRIPLEA_MAPS=str(SHARED / "maps"))
    spec = tmp_path / "g40.yaml"
    text = ("mod: {name: G40 costs, base: {map: world_war_ii_global, game: ww2global40_2nd_edition.xml}}\n"
            "change:\n  units:\n    cruiser: {cost: COST}\n")
    game = tmp_path / "out" / "world_war_ii_global" / "map" / "games" / "g40.xml"
    outputs = {}
    for cost in (13, 14, 13):
        spec.write_text(text.replace("COST", str(cost)), encoding="utf-8")
        result = cli(["build", "g40.yaml", "-o", "out"], env, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        outputs.setdefault(cost, []).append(game.read_bytes())
    spec.write_text(text.replace("COST", "14"), encoding="utf-8")
    assert cli(["build", "g40.yaml", "-o", "alone"], own_process(env), cwd=tmp_path).returncode == 0
    assert served(server_env) == 3
    assert outputs[13][0] == outputs[13][1]
    assert outputs[14][0] == (tmp_path / "alone" / "world_war_ii_global" / "map" / "games" / "g40.xml").read_bytes()
    assert outputs[13][0] != outputs[14][0]


def test_no_server_when_the_folder_is_not_private(runtime_dir: Path, tmp_path: Path):
    env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime_dir))
    env.pop("TRIPLEA_GEN_NO_SERVER", None)
    folder = runtime_dir / f"triplea-gen-{os.getuid()}"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    refused = cli(["server", "start"], env)
    assert refused.returncode == 2
    assert f"{folder} is not a folder that only you can enter" in refused.stderr
    # Somebody's socket in an open folder is never used: the build runs here.
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener:
        listener.bind(str(folder / buildserver.SOCKET_NAME))
        listener.listen(1)
        built = cli(["build", str(EXAMPLE), "-o", str(tmp_path)], env)
    assert built.returncode == 0 and (tmp_path / "frontier_1939" / "map" / "games" / "frontier_1939.xml").is_file()


def test_a_stale_socket_is_ignored_and_cleaned_up_by_start(runtime_dir: Path, tmp_path: Path):
    env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime_dir))
    env.pop("TRIPLEA_GEN_NO_SERVER", None)
    folder = runtime_dir / f"triplea-gen-{os.getuid()}"
    folder.mkdir(mode=0o700)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as dead:
        dead.bind(str(folder / buildserver.SOCKET_NAME))  # bound, never listening: a killed server's leftover
    assert cli(["build", str(EXAMPLE), "-o", str(tmp_path)], env).returncode == 0
    try:
        assert cli(["server", "start", "--idle", "1"], env).returncode == 0
        assert served(env) == 0
    finally:
        cli(["server", "stop"], env)


def test_the_server_stops_when_idle(runtime_dir: Path):
    env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime_dir))
    assert cli(["server", "start", "--idle", "0.02"], env).returncode == 0  # 1.2 seconds
    socket_path = runtime_dir / f"triplea-gen-{os.getuid()}" / buildserver.SOCKET_NAME
    assert socket_path.exists()
    deadline = time.monotonic() + 30
    while socket_path.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not socket_path.exists()
    assert cli(["server", "status"], env).stdout == "no build server is running\n"


def test_jobs_from_another_installation_or_after_a_code_change_are_declined(monkeypatch, tmp_path: Path):
    server = buildserver.BuildServer(str(tmp_path), idle_seconds=0)
    job = {"request": "run", "package": buildserver.PACKAGE_DIR, "python": sys.version, "argv": ["build"],
           "cwd": str(tmp_path), "env": {}, "umask": 0o022}
    assert server.handle(dict(job, package="/elsewhere/generator")) == \
        {"declined": "another installation of triplea-gen"}
    assert server.handle(dict(job, python="2.7")) == {"declined": "another installation of triplea-gen"}
    assert server.handle(dict(job, argv=["package", "x"])) == {"declined": "not a command the server runs"}
    assert server.running
    monkeypatch.setattr(buildserver, "code_stamp", lambda: ("changed",))
    assert server.handle(job) == {"declined": "triplea-gen's code changed since the server started"}
    assert not server.running
