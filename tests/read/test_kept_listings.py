"""Map folder listings kept by a warm process (generator.read.mapfiles.keep_listings): a kept
listing answers as a new one would, after files are added, removed or swapped for links, and a
folder changed less than SETTLED_NS before it was listed is not kept."""
from __future__ import annotations

import os
import time

import pytest

from generator.core.diagnostics import DiagnosticError
from generator.read import mapfiles
from generator.read.mapfiles import FolderListings


@pytest.fixture
def kept(monkeypatch):
    monkeypatch.setattr(mapfiles, "_kept", None)
    mapfiles.keep_listings()
    return mapfiles


_AGES = iter(range(60, 10**6))


def _settle(*folders):
    """Modification times set back (each time to another): a change time cannot be, so the tests
    that keep listings leave SETTLED_NS out (0)."""
    old = time.time() - next(_AGES)
    for folder in folders:
        os.utime(folder, (old, old))


def _answer(root, relpath):
    try:
        return FolderListings().exists(root, relpath)  # a new build's
    except DiagnosticError as err:
        return [d.code for d in err.diagnostics]


def test_a_settled_folder_is_listed_once_and_changes_are_seen(kept, tmp_path, monkeypatch):
    monkeypatch.setattr(mapfiles, "SETTLED_NS", 0)
    units = tmp_path / "units" / "Germans"
    units.mkdir(parents=True)
    (units / "infantry.png").write_bytes(b"png")
    _settle(tmp_path, tmp_path / "units", units)
    listed = []
    real = mapfiles._listing
    monkeypatch.setattr(mapfiles, "_listing", lambda root, folder: listed.append(folder) or real(root, folder))
    assert _answer(tmp_path, "units/Germans/infantry.png") is True
    assert _answer(tmp_path, "units/Germans/armour.png") is False
    assert listed == [["units", "Germans"]]  # the second build asked the kept listing
    (units / "armour.png").write_bytes(b"png")
    _settle(units)  # (SETTLED_NS is 0 here: each change gets a time of its own, not the clock's tick)
    assert _answer(tmp_path, "units/Germans/armour.png") is True
    (units / "infantry.png").unlink()
    _settle(units)
    assert _answer(tmp_path, "units/Germans/infantry.png") is False
    _settle(units)
    os.symlink(tmp_path / "units", units / "fighter.png")  # a link where a file was looked for
    assert _answer(tmp_path, "units/Germans/fighter.png") == ["TG003"]


def test_a_folder_on_the_way_swapped_for_a_link_is_refused_as_before(kept, tmp_path, monkeypatch):
    monkeypatch.setattr(mapfiles, "SETTLED_NS", 0)
    (tmp_path / "flags").mkdir()
    (tmp_path / "flags" / "Germans.png").write_bytes(b"png")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "Germans.png").write_bytes(b"png")
    _settle(tmp_path, tmp_path / "flags", tmp_path / "elsewhere")
    assert _answer(tmp_path, "flags/Germans.png") is True
    os.rename(tmp_path / "flags", tmp_path / "old")
    os.symlink(tmp_path / "elsewhere", tmp_path / "flags")
    _settle(tmp_path)  # even with the root's times set back: the link is not the folder that was listed
    assert _answer(tmp_path, "flags/Germans.png") == ["TG003"]


def test_a_folder_changed_just_now_is_not_kept(kept, tmp_path):
    (tmp_path / "flags").mkdir()
    assert _answer(tmp_path, "flags/Germans.png") is False
    assert not mapfiles._kept  # changed less than SETTLED_NS ago: listed again by the next build
