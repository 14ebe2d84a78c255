"""A mod's build does each piece of map-folder work once: what the game asks of its map folder
(game_needs) is worked out once for the folder additions and the folder check together; a file of
the base map is read once however many new flags and images start from it, and whether a file is
there is answered from one listing per folder (before: a walk down from the root per question and
per read, 505 walks to Global 1940's flags/ for the s001 mod)."""
from __future__ import annotations

from collections import Counter

import pytest

from conftest import REPO, SHARED, SHARED_MISSING
from generator.check import mapfolder
from generator.cli.main import main
from generator.read import mapfiles

pytestmark = pytest.mark.skipif(not SHARED.is_dir(), reason=SHARED_MISSING)


def test_a_mod_build_works_out_map_needs_once_and_lists_each_folder_once(tmp_path, monkeypatch):
    monkeypatch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    needs_calls, walks = [], Counter()
    real_needs, real_open = mapfolder.game_needs, mapfiles._open_folder
    monkeypatch.setattr(mapfolder, "game_needs", lambda root: needs_calls.append(root) or real_needs(root))
    monkeypatch.setattr(mapfiles, "_open_folder",
                        lambda root, parts: walks.update([(str(root), tuple(parts))]) or real_open(root, parts))
    assert main(["build", str(REPO / "rules_yaml" / "s001_kaihlhac_balance.yaml"), "-o", str(tmp_path)]) == 0
    assert len(needs_calls) == 1
    base_flags = walks[(str(SHARED / "maps" / "world_war_ii_global"), ("map", "flags"))]
    assert 0 < base_flags < 100, walks.most_common(3)  # one listing, and one walk per file read
