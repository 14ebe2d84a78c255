"""A warm process remembers what game it wrote (collisions.remember_written_game): the next
rebuild's question what game its output file holds (game_name_in) is answered from the tree of
the bytes written while the file holds exactly them, the same answer as reading the file."""
from __future__ import annotations

import shutil

import pytest

from conftest import REPO, SHARED, SHARED_MISSING
from tests.builder.test_warm_cold import EXAMPLES

from generator.builder import collisions


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_the_remembered_answer_is_the_files(example, tmp_path, monkeypatch):
    from generator.builder.compiler import compile_spec
    from generator.core.diagnostics import DiagnosticError

    if "world_war_ii_global" in example.read_text(encoding="utf-8"):
        if not SHARED.is_dir():
            pytest.skip(SHARED_MISSING)
        monkeypatch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    monkeypatch.setattr(collisions, "_written", {})
    shutil.copytree(REPO / "rules_yaml", tmp_path / "specs")
    try:
        compiled = compile_spec(tmp_path / "specs" / example.name)
    except DiagnosticError:
        pytest.skip("the example does not build alone")
    game = tmp_path / "out" / "m" / "games" / "g.xml"
    game.parent.mkdir(parents=True)
    game.write_bytes(compiled.xml_bytes)
    read = collisions.game_name_in(game)
    collisions.remember_written_game(str(tmp_path / "out"), "m/games/g.xml", compiled.xml_bytes, compiled.tree)
    assert str(game) in collisions._written
    monkeypatch.setattr(collisions, "_answer_for", lambda head: pytest.fail("read again"))
    assert collisions.game_name_in(game) == read == (True, compiled.game.info.name)


def test_a_file_changed_since_is_read_again(tmp_path, monkeypatch):
    monkeypatch.setattr(collisions, "_written", {})
    from lxml import etree

    mine = b'<?xml version="1.0"?>\n<game>\n<info name="Mine" version="1"/>\n</game>\n'
    game = tmp_path / "m" / "games" / "g.xml"
    game.parent.mkdir(parents=True)
    game.write_bytes(mine)
    collisions.remember_written_game(str(tmp_path), "m/games/g.xml", mine, etree.ElementTree(etree.fromstring(mine)))
    assert collisions.game_name_in(game) == (True, "Mine")
    game.write_bytes(mine.replace(b"Mine", b"Theirs"))
    assert collisions.game_name_in(game) == (True, "Theirs")
    game.write_bytes(b"<game><info name='Mine'/><bad></game>")  # the same name, broken
    assert collisions.game_name_in(game) == (False, None)
