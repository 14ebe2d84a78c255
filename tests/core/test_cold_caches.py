"""The caches a new process starts from (issue 30, cold start): a large spec kept parsed, a base
game's own warnings kept worked out. Each gives exactly what the uncached path gives, misses on
any change of its inputs, and parses or validates again whatever a damaged or planted file holds;
a build with an empty cache folder and one with the filled folder write the same bytes."""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from generator.builder import basefindings
from generator.core import datacache
from generator.read import yamlio
from generator.speclang import basecache

from conftest import CORPUS_DIR, PLAIN_GAME, REPO, SHARED, SHARED_MISSING
from folders import snapshot

PADDING = "\n# " + "padding " * 9000 + "\n"  # a comment: the text is large, the data the same


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch) -> Path:
    home = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.setattr(basecache, "_in_memory", None)
    basefindings._base_warnings.cache_clear()  # each build as in a new process
    yield home
    basefindings._base_warnings.cache_clear()


def parses_counted(monkeypatch) -> list[str]:
    calls = []
    original = yamlio._construct

    def counting(loader, text, shown):
        calls.append(shown)
        return original(loader, text, shown)

    monkeypatch.setattr(yamlio, "_construct", counting)
    return calls


@pytest.fixture
def large_spec(tmp_path: Path) -> Path:
    spec = tmp_path / "large.yaml"
    spec.write_text(PLAIN_GAME.read_text(encoding="utf-8") + PADDING, encoding="utf-8")
    assert spec.stat().st_size > 64 * 1024  # generator.read.speccache.MIN_CACHED_CHARS
    return spec


def _positions(data) -> list:
    """Every key's position, depth first: what diagnostics are made from."""
    found = []
    if isinstance(data, dict):
        for key, value in data.items():
            found.append((key, str(data.position_of(key))))
            found += _positions(value)
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found.append((index, str(data.position_of(index))))
            found += _positions(value)
    return found


def test_a_large_spec_read_twice_is_kept_and_read_back_with_every_position(cache_home, large_spec, monkeypatch):
    calls = parses_counted(monkeypatch)
    first = yamlio.load_yaml_file(large_spec)
    assert not list((cache_home / "triplea-gen" / "specs").glob("*.pickle"))  # an edit read once: not kept
    yamlio.load_yaml_file(large_spec)
    (stored,) = (cache_home / "triplea-gen" / "specs").glob("*.pickle")
    second = yamlio.load_yaml_file(large_spec)
    assert len(calls) == 2
    assert second == first and type(second) is yamlio.LocatedDict
    assert _positions(second) == _positions(first) and str(second.pos) == str(first.pos)
    second["info"]["name"] = "Changed By A Caller"
    assert yamlio.load_yaml_file(large_spec)["info"]["name"] == first["info"]["name"]  # a fresh copy each time
    assert stored.stat().st_size > 0


def test_a_small_spec_is_not_kept(cache_home, monkeypatch):
    calls = parses_counted(monkeypatch)
    for _ in range(3):
        yamlio.load_yaml_file(PLAIN_GAME)
    assert len(calls) == 3 and not (cache_home / "triplea-gen" / "specs").exists()


def test_an_editors_text_is_not_kept(cache_home, large_spec, monkeypatch):
    """The language server parses the unsaved text at every keystroke, in a process that lives on."""
    calls = parses_counted(monkeypatch)
    text = large_spec.read_text(encoding="utf-8")
    for _ in range(3):
        yamlio.load_yaml_text(text, "large.yaml")
    assert len(calls) == 3 and not (cache_home / "triplea-gen" / "specs").exists()


def test_a_spec_is_parsed_again_when_its_text_or_name_changes(cache_home, large_spec, tmp_path, monkeypatch):
    calls = parses_counted(monkeypatch)
    yamlio.load_yaml_file(large_spec)
    yamlio.load_yaml_file(large_spec)  # kept from here on
    large_spec.write_text(large_spec.read_text(encoding="utf-8").replace("name: Frontier", "name: Border", 1), encoding="utf-8")
    assert yamlio.load_yaml_file(large_spec)["info"]["name"].startswith("Border")
    moved = tmp_path / "moved.yaml"
    moved.write_bytes(large_spec.read_bytes())
    assert yamlio.load_yaml_file(moved).pos.file.endswith("moved.yaml")  # positions carry the name shown
    assert len(calls) == 4


class _Planted:
    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return os.mkdir, (str(self.marker),)


@pytest.mark.parametrize("content", ["garbage", "planted code", "other data"])
def test_a_damaged_or_foreign_spec_file_is_parsed_again(content, cache_home, large_spec, tmp_path, monkeypatch):
    calls = parses_counted(monkeypatch)
    yamlio.load_yaml_file(large_spec)
    expected = yamlio.load_yaml_file(large_spec)
    (stored,) = (cache_home / "triplea-gen" / "specs").glob("*.pickle")
    marker = tmp_path / "planted-code-ran"
    stored.write_bytes({"garbage": b"\x80\x05not a pickle",
                        "planted code": pickle.dumps({"info": _Planted(marker)}),
                        "other data": pickle.dumps(("another key", {"info": {"name": "Not From The Text"}}))}[content])
    again = yamlio.load_yaml_file(large_spec)
    assert not marker.exists()
    assert len(calls) == 3 and again == expected


def test_no_spec_pickle_is_read_from_a_folder_others_can_write(cache_home, large_spec, monkeypatch):
    calls = parses_counted(monkeypatch)
    folder = cache_home / "triplea-gen" / "specs"
    folder.mkdir(parents=True)
    folder.chmod(0o777)
    for _ in range(3):
        yamlio.load_yaml_file(large_spec)
    assert len(calls) == 3 and not list(folder.iterdir())


@pytest.fixture
def base_and_mod(tmp_path: Path) -> tuple[Path, Path]:
    from generator.cli.main import main

    assert main(["build", str(PLAIN_GAME), "-o", str(tmp_path / "built")]) == 0
    base = tmp_path / "built" / "frontier_1939" / "map" / "games" / "frontier_1939.xml"
    mod = tmp_path / "built" / "mod.yaml"
    mod.write_text("mod:\n  name: Dear Infantry\n  base: frontier_1939/map/games/frontier_1939.xml\n"
                   "change:\n  territories:\n    Warsaw: {production: 5}\n", encoding="utf-8")
    return base, mod


def validations_counted(monkeypatch) -> list[str]:
    from generator.check import validate

    calls = []
    original = validate.validate_tree

    def counting(tree, **kwargs):
        calls.append(kwargs["source"])
        return original(tree, **kwargs)

    monkeypatch.setattr(validate, "validate_tree", counting)
    return calls


def _build(mod: Path, out: Path, capsys) -> str:
    from generator.cli.main import main

    basefindings._base_warnings.cache_clear()  # a new process
    assert main(["build", str(mod), "-o", str(out)]) == 0
    return capsys.readouterr().err


def test_a_base_games_own_warnings_are_worked_out_once_across_processes(cache_home, base_and_mod, tmp_path,
                                                                        monkeypatch, capsys):
    base, mod = base_and_mod
    base.write_text(base.read_text(encoding="utf-8").replace(  # a warning of the base's own: a property no engine reads
        "<property ", '<property name="No Engine Reads This" value="true" editable="false"/>\n<property ', 1),
        encoding="utf-8")
    calls = validations_counted(monkeypatch)
    first = _build(mod, tmp_path / "out", capsys)
    assert "1 warning(s) come from the base game" in first
    assert len(calls) == 2  # the mod, and its base alone
    second = _build(mod, tmp_path / "out", capsys)
    assert second == first and len(calls) == 3
    (stored,) = (cache_home / "triplea-gen" / "findings").glob("*.marshal")
    base.write_text(base.read_text(encoding="utf-8").replace("No Engine Reads This", "Nor This"), encoding="utf-8")
    assert "1 warning(s) come from the base game" in _build(mod, tmp_path / "out", capsys)
    assert len(calls) == 5  # a changed base is validated again
    assert stored.exists()


@pytest.mark.parametrize("content", [b"\x00garbage", "a list of the wrong things", "other keys"])
def test_a_damaged_or_foreign_findings_file_is_worked_out_again(content, cache_home, base_and_mod, tmp_path,
                                                                monkeypatch, capsys):
    import marshal

    base, mod = base_and_mod
    first = _build(mod, tmp_path / "out", capsys)
    (stored,) = (cache_home / "triplea-gen" / "findings").glob("*.marshal")
    stored.write_bytes(content if isinstance(content, bytes) else marshal.dumps(
        (stored.stem, [["TG181", 3]]) if content == "a list of the wrong things"
        else ("another key", [("TG181", "warning", "x.xml", 1, "m")])))
    calls = validations_counted(monkeypatch)
    assert _build(mod, tmp_path / "out", capsys) == first
    assert len(calls) == 2


def test_the_package_stamp_changes_with_any_file_of_the_package(tmp_path):
    package = tmp_path / "generator"
    (package / "check").mkdir(parents=True)
    (package / "check" / "rules.py").write_text("A = 1\n")
    (package / "catalog.yaml").write_text("a: 1\n")
    before = datacache._package_stamp(str(package))
    (package / "check" / "rules.py").write_text("A = 22\n")
    datacache._package_stamp.cache_clear()
    assert datacache._package_stamp(str(package)) != before


def _cli_build(spec: Path, out: Path, cache: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache), TRIPLEA_MAPS=str(SHARED / "maps"), TRIPLEA_GEN_NO_SERVER="1",
               PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "generator", "build", str(spec), "-o", str(out)],
                          capture_output=True, text=True, env=env, cwd=cwd, timeout=300)


def test_a_build_with_an_empty_cache_and_with_the_filled_one_write_the_same_bytes(tmp_path):
    """A Global 1940 mod (base game, base warnings, catalog, templates from the caches) and
    Balanced as a full-game spec (its parsed YAML from the cache)."""
    if not SHARED.is_dir():
        pytest.skip(SHARED_MISSING)
    from generator.cli.main import main

    balanced = tmp_path / "balanced.yaml"
    assert main(["import", str(CORPUS_DIR / "ww2_g40_balanced.xml"), "-o", str(balanced)]) == 0
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    for spec in (REPO / "rules_yaml" / "s000_nonaggression_pacts.yaml", balanced):
        # cold, then seen once (a large spec is kept from its second parse), then all from the caches
        kinds = ("cold", "seen", "warm")
        runs = [_cli_build(spec, tmp_path / f"{spec.stem}-{kind}", cache, tmp_path) for kind in kinds]
        for kind, run in zip(kinds, runs):
            assert run.returncode == 0, run.stderr
            assert run.stderr.replace(f"-{kind}", "-cold") == runs[0].stderr
            assert snapshot(tmp_path / f"{spec.stem}-{kind}") == snapshot(tmp_path / f"{spec.stem}-cold")
    for kind in ("bases", "findings", "specs", "yaml", "jinja"):
        assert list((cache / "triplea-gen" / kind).iterdir()), f"nothing kept in {kind}"
