"""The caches between runs: imported base games (disk and memory), parsed data YAML, and hints
worked out only when shown. Each must give exactly what the uncached path gives."""
from __future__ import annotations

import marshal
import os
import pickle
from pathlib import Path

import pytest
import yaml

from generator.speclang import basecache
from generator.core import datacache
from generator.core.diagnostics import Diagnostic, LazyHint, Position
from generator.builder.pipeline import load_base_game
from generator.write.yamlform import dump_game

from conftest import PLAIN_GAME
from textedit import replaced

BASE_XML_SOURCE = PLAIN_GAME


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch) -> Path:
    home = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.setattr(basecache, "_in_memory", None)
    monkeypatch.setattr(basecache, "_spare", None)
    return home


@pytest.fixture
def base_xml(tmp_path: Path) -> Path:
    from generator.cli.main import main

    assert main(["build", str(BASE_XML_SOURCE), "-o", str(tmp_path / "built")]) == 0
    return tmp_path / "built" / "frontier_1939" / "map" / "games" / "frontier_1939.xml"


def imports_counted(monkeypatch) -> list[str]:
    """Every import of an XML base by the pipeline (parse and import_tree), by source name."""
    from generator.read import importer

    calls = []
    original = importer.import_tree

    def counting(tree, source, collector):
        calls.append(source)
        return original(tree, source, collector)

    monkeypatch.setattr(importer, "import_tree", counting)
    return calls


def test_a_base_game_is_imported_once_and_handed_out_as_fresh_copies(cache_home, base_xml, monkeypatch):
    calls = imports_counted(monkeypatch)
    first = load_base_game(base_xml)
    stored = list((cache_home / "triplea-gen" / "bases").glob("*.pickle"))
    assert len(stored) == 1
    first.territories[0].name = "Changed By A Mod"
    second = load_base_game(base_xml)
    assert len(calls) == 1
    assert second.territories[0].name != "Changed By A Mod"
    first.territories[0].name = second.territories[0].name
    assert dump_game(second) == dump_game(first)


def test_a_changed_base_is_imported_again(cache_home, base_xml, monkeypatch):
    calls = imports_counted(monkeypatch)
    load_base_game(base_xml)
    base_xml.write_text(replaced(base_xml.read_text(encoding="utf-8"), 'name="Warsaw"', 'name="Varsovia"'),
                        encoding="utf-8")
    game = load_base_game(base_xml)
    assert len(calls) == 2
    assert "Varsovia" in [t.name for t in game.territories]


def test_a_damaged_cache_file_is_ignored(cache_home, base_xml, monkeypatch):
    calls = imports_counted(monkeypatch)
    load_base_game(base_xml)
    (stored,) = (cache_home / "triplea-gen" / "bases").glob("*.pickle")
    stored.write_bytes(b"not a pickle")
    game = load_base_game(base_xml)
    assert len(calls) == 2 and len(game.territories) == 18
    assert pickle.loads(stored.read_bytes()).info.name == game.info.name  # written again, whole


def test_no_pickle_is_read_from_a_folder_others_can_write(cache_home, base_xml, monkeypatch):
    calls = imports_counted(monkeypatch)
    folder = cache_home / "triplea-gen" / "bases"
    folder.mkdir(parents=True)
    folder.chmod(0o777)
    load_base_game(base_xml)
    load_base_game(base_xml)
    assert len(calls) == 2 and not list(folder.iterdir())


def test_in_memory_the_file_stamp_decides(cache_home, base_xml, monkeypatch):
    basecache.keep_in_memory()
    calls = imports_counted(monkeypatch)
    load_base_game(base_xml)
    for stored in (cache_home / "triplea-gen" / "bases").glob("*.pickle"):
        stored.unlink()  # from now on only the memory can answer without an import
    load_base_game(base_xml)
    assert len(calls) == 1
    os.utime(base_xml, ns=(1, 1))
    load_base_game(base_xml)
    assert len(calls) == 2


def test_a_spare_copy_made_while_waiting_is_handed_out_once_and_never_stale(cache_home, base_xml, monkeypatch):
    """A warm process unpickles the next build's copy of the base while it waits (prepare_spare):
    the next load takes that copy, which no build had; the one after unpickles its own; a base
    file changed meanwhile is imported again, its old spare never handed out."""
    basecache.keep_in_memory()
    unpickled = []
    real_loads = pickle.loads
    monkeypatch.setattr(basecache.pickle, "loads", lambda blob: unpickled.append(1) or real_loads(blob))
    first = load_base_game(base_xml)
    first.territories[0].name = "Changed By A Mod"
    basecache.prepare_spare()
    made = len(unpickled)
    second = load_base_game(base_xml)
    assert len(unpickled) == made  # taken, not unpickled now
    assert second is not first and second.territories[0].name != "Changed By A Mod"
    second.territories[0].name = "Changed Again"
    third = load_base_game(base_xml)
    assert len(unpickled) == made + 1 and third.territories[0].name not in ("Changed By A Mod", "Changed Again")
    basecache.prepare_spare()
    base_xml.write_text(replaced(base_xml.read_text(encoding="utf-8"), 'name="Warsaw"', 'name="Varsovia"'),
                        encoding="utf-8")
    changed = load_base_game(base_xml)
    assert "Varsovia" in [t.name for t in changed.territories]
    assert basecache._spare is None  # the stale spare was dropped, not kept for later


def test_the_disk_cache_keeps_the_most_recent_bases(cache_home, tmp_path, base_xml, monkeypatch):
    monkeypatch.setattr(basecache, "KEPT_ON_DISK", 3)
    text = base_xml.read_text(encoding="utf-8")
    for number in range(5):
        variant = tmp_path / f"variant{number}.xml"
        variant.write_text(replaced(text, 'name="Warsaw"', f'name="Warsaw {number}"'), encoding="utf-8")
        load_base_game(variant)
    assert len(list((cache_home / "triplea-gen" / "bases").glob("*.pickle"))) == 3


def test_cached_yaml_equals_parsed_yaml(cache_home):
    text = "a: 1\nb: [x, {c: true, d: null}]\nе: 'unicode'\n"
    assert datacache.load_yaml_text(text) == {"a": 1, "b": ["x", {"c": True, "d": None}], "е": "unicode"}
    (stored,) = (cache_home / "triplea-gen" / "yaml").glob("*.marshal")
    assert marshal.loads(stored.read_bytes()) == yaml.safe_load(text)  # what is kept is what a parse gives
    stored.write_bytes(marshal.dumps({"kept": True}))
    assert datacache.load_yaml_text(text) == {"kept": True}  # and the next load reads it, not the text
    stored.write_bytes(b"\x00garbage")
    assert datacache.load_yaml_text(text)["a"] == 1
    dated = "when: 2026-11-21\n"  # marshal cannot hold a date: parsed every time, never an error
    assert str(datacache.load_yaml_text(dated)["when"]) == "2026-11-21"


def test_a_lazy_hint_is_worked_out_once_and_only_when_shown():
    calls = []

    def make():
        calls.append(1)
        return "did you mean 'Kiev'?"

    hint = LazyHint(make)
    found = Diagnostic("TG181", "unknown", Position("a.xml", 3, 1), hint, "warning")
    assert {found: 1} and not calls  # hashing does not work it out
    assert found.format() == "a.xml:3:1: warning[TG181]: unknown\n  hint: did you mean 'Kiev'?"
    assert found.as_json()["hint"] == "did you mean 'Kiev'?" and found.hint == "did you mean 'Kiev'?"
    assert len(calls) == 1


def test_yaml_an_earlier_reader_cached_is_not_found_again(cache_home):
    """Anchors and aliases are refused now; what an earlier version cached from such a text (a
    macro header from a zip, say) must not come back from the cache unchecked."""
    import hashlib

    text = "description: &d a macro\nnote: *d\nparams: {}\n"
    folder = datacache.cache_folder("yaml")
    (folder / f"{hashlib.sha256(text.encode('utf-8')).hexdigest()[:40]}.marshal").write_bytes(
        marshal.dumps({"description": "a macro", "note": "a macro", "params": {}}))
    with pytest.raises(yaml.YAMLError, match="an anchor or alias"):
        datacache.load_yaml_text(text)
