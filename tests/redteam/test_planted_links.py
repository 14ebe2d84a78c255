"""Every file a command writes goes through the one safe writer: a symbolic link planted at any
name a command writes (by an unzipped mod, a cloned project) is refused, never written through,
and the file it points to stays as it was. Each command is run once to learn the names it
writes, then again with a link at each of those names (and at each folder they lie in)."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conftest import PLAIN_GAME, REPO
from generator.cli.main import main

FRONTIER = REPO / "rules_yaml" / "frontier_1939.yaml"
EXTRACT_BASE = REPO / "tests" / "fixtures" / "extract" / "base.xml"
VICTIM_TEXT = b"the user's own file"


def _game_xml(tmp_path: Path) -> Path:
    built = tmp_path / "built"
    assert main(["build", str(PLAIN_GAME), "-o", str(built)]) == 0
    return next(built.glob("*/map/games/*.xml"))


# Each command: its arguments with OUT the folder its output goes into, the names it writes there
# besides those a first run shows (temporary names it once used), and whether its exit status
# reports the refusal (watch reports each build's errors and carries on watching).
COMMANDS = {
    "build": (lambda out, xml: ["build", str(PLAIN_GAME), "-o", str(out)], [], True),
    "watch": (lambda out, xml: ["watch", str(PLAIN_GAME), "-o", str(out), "--max-builds", "1"], [], False),
    "package": (lambda out, xml: ["package", str(PLAIN_GAME), "-o", str(out)], [], True),
    "import": (lambda out, xml: ["import", str(xml), "-o", str(out / "game.yaml")], [], True),
    "import --base": (lambda out, xml: ["import", str(EXTRACT_BASE), "--base", str(EXTRACT_BASE),
                                        "-o", str(out / "mod.yaml")], [], True),
    "schema": (lambda out, xml: ["schema", "-o", str(out / "rules.schema.json")], [], True),
    "preview": (lambda out, xml: ["preview", str(FRONTIER), "-o", str(out / "map.png"), "--width", "64"], [],
                True),
    "new": (lambda out, xml: ["new", "My Mod", "-d", str(out)], [], True),
    "test": (lambda out, xml: ["test", str(PLAIN_GAME), "--no-control", "--jobs", "1", "-o", str(out)],
             ["scenario-results/frontier_1939.json.tmp"], True),
}


def _files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def _listing(folder: Path) -> dict[str, bytes | str]:
    return {p.relative_to(folder).as_posix(): ("link" if p.is_symlink() else "dir" if p.is_dir() else p.read_bytes())
            for p in sorted(folder.rglob("*"))}


@pytest.fixture
def no_engine_games(monkeypatch):
    """`test` without the engine: no scenario played, so only its results file is written."""
    from generator.scenarios import run

    monkeypatch.setattr(run, "test_spec", lambda *args, **kwargs: [])


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_link_at_any_name_a_command_writes_is_not_written_through(command, tmp_path, capsys, no_engine_games):
    arguments, extra, reports = COMMANDS[command]
    xml = _game_xml(tmp_path)
    first = tmp_path / "first"
    first.mkdir()
    assert main(arguments(first, xml)) == 0, capsys.readouterr().err
    names = extra + _files(first)  # the temporary names first: written through before the rename
    assert names, f"{command} wrote nothing"
    folders = sorted({"/".join(n.split("/")[:i]) for n in names for i in range(1, n.count("/") + 1)})
    victim, victim_folder = tmp_path / "victim.txt", tmp_path / "victim-folder"
    victim.write_bytes(VICTIM_TEXT)
    victim_folder.mkdir()
    (victim_folder / "kept.txt").write_bytes(VICTIM_TEXT)
    for index, name in enumerate(names + folders):
        out = tmp_path / f"run-{index}"
        link = out / name
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(victim_folder if name in folders else victim, target_is_directory=name in folders)
        capsys.readouterr()
        status = main(arguments(out, xml))
        err = capsys.readouterr().err
        assert victim.read_bytes() == VICTIM_TEXT, f"{command} wrote through a link at {name}"
        assert _listing(victim_folder) == {"kept.txt": VICTIM_TEXT}, f"{command} wrote through a link at {name}"
        assert link.is_symlink(), f"{command} replaced the link at {name}"
        if name in extra:
            continue  # a name no longer written at all: the command succeeds and leaves the link alone
        if reports:
            assert status == 2, f"{command}, link at {name}: exit {status}\n{err}"
        assert "error[TG043]" in err or "error[TG071]" in err, f"{command}, link at {name}:\n{err}"


@pytest.mark.parametrize("flavour", ["to a file", "dangling"])
def test_a_dangling_link_creates_nothing_where_it_points(flavour, tmp_path, capsys):
    victim = tmp_path / "victim.txt"
    if flavour == "to a file":
        victim.write_bytes(VICTIM_TEXT)
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "rules.schema.json").symlink_to(victim)
    assert main(["schema", "-o", str(tmp_path / "out" / "rules.schema.json")]) == 2
    assert "error[TG043]" in capsys.readouterr().err
    assert (victim.read_bytes() == VICTIM_TEXT) if flavour == "to a file" else not victim.exists()


def test_test_keeps_earlier_results_without_reading_through_a_link(tmp_path, capsys, monkeypatch):
    """A single-scenario run merges the earlier results file; one planted as a link is not read."""
    from generator.scenarios import run

    monkeypatch.setattr(run, "test_spec", lambda *args, **kwargs: [])
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps({"spec_digest": run.spec_digest(PLAIN_GAME), "scenarios": [{"id": "leaked"}]}))
    results = tmp_path / "out" / "scenario-results" / "frontier_1939.json"
    results.parent.mkdir(parents=True)
    results.symlink_to(secret)
    assert main(["test", str(PLAIN_GAME), "--scenario", "x", "-o", str(tmp_path / "out")]) == 2
    assert "error[TG043]" in capsys.readouterr().err
    assert results.is_symlink()


# Caches and the build server's log: written by the tool into the user's own folders --------------

def test_caches_are_not_written_through_links(tmp_path, monkeypatch):
    from generator.core import datacache

    home = tmp_path / "cache"
    home.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    folder = datacache.cache_folder("yaml")
    text = "answer: 42\n"
    import hashlib

    name = f"{hashlib.sha256(text.encode()).hexdigest()[:40]}.marshal"
    victim, elsewhere = tmp_path / "victim", tmp_path / "elsewhere"
    victim.write_bytes(VICTIM_TEXT)
    (folder / name).symlink_to(victim)
    (folder / f"{name}.{os.getpid()}.tmp").symlink_to(elsewhere)  # the temporary name it used to write
    assert datacache.load_yaml_text(text) == {"answer": 42}
    assert victim.read_bytes() == VICTIM_TEXT and not elsewhere.exists()
    assert (folder / name).is_symlink()


def test_compiled_templates_are_not_written_through_links(tmp_path, monkeypatch):
    from jinja2.bccache import Bucket

    from generator.render.templates import _SafeBytecodeCache

    cache = _SafeBytecodeCache(str(tmp_path), "plain-%s.cache")
    bucket = Bucket(None, "key", "checksum")
    bucket.code = compile("x = 1", "t", "exec")
    victim = tmp_path / "victim"
    victim.write_bytes(VICTIM_TEXT)
    (tmp_path / "plain-key.cache").symlink_to(victim)
    cache.dump_bytecode(bucket)
    assert victim.read_bytes() == VICTIM_TEXT and (tmp_path / "plain-key.cache").is_symlink()


def test_the_build_server_log_is_made_afresh(tmp_path):
    from generator.core.writer import new_private_file

    victim = tmp_path / "victim"
    victim.write_bytes(VICTIM_TEXT)
    log = tmp_path / "server.log"
    log.symlink_to(victim)
    with new_private_file(log) as stream:
        stream.write(b"server output")
    assert victim.read_bytes() == VICTIM_TEXT
    assert not log.is_symlink() and log.read_bytes() == b"server output"
    assert log.stat().st_mode & 0o077 == 0


def test_the_engine_screenshot_is_written_by_the_safe_writer(tmp_path, monkeypatch):
    """The client (faked here: no JVM) writes its picture into its scratch home; the copy at the
    user's --screenshot name goes through the writer, which refuses a link there."""
    from PIL import Image

    from generator.core.diagnostics import DiagnosticError
    from generator.engine import gui

    xml = _game_xml(tmp_path)

    def fake_client(command, cwd, timeout, env):
        shot = Path(command[command.index("--screenshot") + 1])
        assert shot.is_relative_to(env["HOME"]), "the engine was given a path outside its scratch home"
        Image.new("RGB", (300, 300), (10, 120, 40)).save(shot)  # the fake engine's own write
        report = {"ok": True, "game": "g", "rounds_completed": 1, "stopped_by": "rounds", "total_seconds": 1,
                  "exceptions": [], "missing_images": [], "messages": [], "client": {}}
        return type("Done", (), {"stdout": json.dumps(report).encode(), "stderr": b"", "returncode": 0})()

    engine = type("FakeEngine", (), {"name": "1.9", "working_dir": tmp_path})()
    monkeypatch.setattr(gui, "resolve_engine", lambda engine_or_name=None: engine)
    monkeypatch.setattr(gui, "harness_classes", lambda *args: tmp_path)
    monkeypatch.setattr(gui, "java_command", lambda *args, **kwargs: list(args[2]))
    monkeypatch.setattr(gui, "run_bounded", fake_client)
    monkeypatch.setattr(gui.shutil, "which", lambda name: "/bin/true")
    victim = tmp_path / "victim.png"
    victim.write_bytes(VICTIM_TEXT)
    link = tmp_path / "shots" / "shot.png"
    link.parent.mkdir()
    link.symlink_to(victim)
    with pytest.raises(DiagnosticError) as err:
        gui.run_gui(xml, tmp_path, screenshot=link)
    assert err.value.diagnostics[0].code == "TG043"
    assert victim.read_bytes() == VICTIM_TEXT
    link.unlink()
    report = gui.run_gui(xml, tmp_path, screenshot=link)
    assert report.screenshot == link and Image.open(link).size == (300, 300)
