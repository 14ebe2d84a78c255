"""The caches hold compiled templates (marshalled code behind a pickle), parsed YAML (marshal),
imported base games (pickle) and compiled engine classes: loading a planted one runs the planter's
code in the build. Each is used only from a folder that is the user's own and that nobody else may
write to, nor any folder above it up to the cache home (the tests run as root, so "somebody else"
is a folder open to everybody, or one owned by another uid)."""
from __future__ import annotations

import marshal
import os
import pickle
import subprocess
import zipfile
from pathlib import Path

import pytest
from jinja2.bccache import BytecodeCache, bc_magic

from folders import snapshot
from generator.speclang import basecache
from generator.core import datacache
from generator.engine import harness
from generator.builder.pipeline import load_base_game
from generator.render.templates import TEMPLATES_DIR

from .bounded import run_bounded
from .hostile_specs import BASE

OTHER_UID = 4242


class _Planted:
    """Unpickling this makes the marker folder: proof that the planted file ran."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return os.mkdir, (str(self.marker),)


def open_to_others(folder: Path, how: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    if how != "mode 777" and os.getuid() != 0:
        pytest.skip("giving a folder to another user needs root (the mode 777 cases cover the same check)")
    if how == "mode 777":
        folder.chmod(0o777)
    else:
        os.chown(folder, OTHER_UID, -1)


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch) -> Path:
    home = tmp_path / "cache"
    home.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.setattr(basecache, "_in_memory", None)
    return home


@pytest.mark.parametrize("where, how", [("jinja", "mode 777"), ("jinja", "other owner"), ("", "mode 777")],
                         ids=["folder open to all", "folder of another user", "parent open to all"])
def test_a_planted_compiled_template_is_never_loaded(where: str, how: str, cache_home: Path, tmp_path: Path):
    ours = cache_home / "triplea-gen"
    (ours / "jinja").mkdir(parents=True, mode=0o700)
    open_to_others(ours / where if where else ours, how)
    marker = tmp_path / "planted-code-ran"
    template = "game/game.xml.j2"
    key = BytecodeCache().get_cache_key(template, os.path.normpath(TEMPLATES_DIR / template))
    (ours / "jinja" / f"plain-{key}.cache").write_bytes(bc_magic + pickle.dumps(_Planted(marker)))
    done, _ = run_bounded(["build", str(BASE), "-o", str(tmp_path / "out")],
                          env=dict(os.environ, XDG_CACHE_HOME=str(cache_home)))
    assert done.returncode == 0, done.stderr
    assert not marker.exists()


def test_planted_yaml_data_is_never_returned(cache_home: Path):
    ours = cache_home / "triplea-gen" / "yaml"
    open_to_others(ours, "mode 777")
    text = "answer: 42\n"
    import hashlib

    (ours / f"{hashlib.sha256(text.encode('utf-8')).hexdigest()[:40]}.marshal").write_bytes(
        marshal.dumps({"answer": "planted"}))
    assert datacache.load_yaml_text(text) == {"answer": 42}


def test_a_planted_base_game_is_never_unpickled_below_a_folder_open_to_others(cache_home: Path, tmp_path: Path):
    from generator.cli.main import main

    assert main(["build", str(BASE), "-o", str(tmp_path / "built")]) == 0
    (base_xml,) = (tmp_path / "built").glob("*/map/games/*.xml")
    load_base_game(base_xml)
    (stored,) = (cache_home / "triplea-gen" / "bases").glob("*.pickle")  # the folder itself stays private
    marker = tmp_path / "planted-code-ran"
    stored.write_bytes(pickle.dumps(_Planted(marker)))
    (cache_home / "triplea-gen").chmod(0o777)
    game = load_base_game(base_xml)
    assert not marker.exists()
    assert "Warsaw" in [t.name for t in game.territories]


def test_planted_engine_classes_are_never_used(cache_home: Path, tmp_path: Path, monkeypatch):
    """No engine needed: javac is stood in for; what matters is which folder the classes come from."""
    jar = tmp_path / "triplea.jar"
    with zipfile.ZipFile(jar, "w") as archive:
        archive.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n")
    monkeypatch.setattr(harness, "_require_engine", lambda: jar)
    monkeypatch.setattr(harness, "engine_jar", lambda: jar)
    compiled = []

    def javac(command, **_):
        compiled.append(Path(command[command.index("-d") + 1]))
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(harness.subprocess, "run", javac)
    sources = harness._java_sources()
    planted = cache_home / "triplea-gen" / "engine" / harness._harness_key(jar, sources)
    planted.mkdir(parents=True)
    (planted / "Planted.class").write_bytes(b"\xca\xfe\xba\xbe")
    open_to_others(planted.parent, "mode 777")
    classes = harness.compile_java(sources, "engine")
    assert compiled, "the classes were not compiled again"
    assert not (classes / "Planted.class").exists() and classes != planted


def test_private_caches_are_still_used(cache_home: Path):
    """The check must not switch caching off for the ordinary, private folders it makes itself."""
    for name in ("jinja", "yaml", "bases", "engine"):
        folder = datacache.cache_folder(name)
        assert folder == cache_home / "triplea-gen" / name and folder.is_dir()
    before = snapshot(cache_home)
    datacache.load_yaml_text("kept: true\n")
    assert len(snapshot(cache_home)) == len(before) + 1
