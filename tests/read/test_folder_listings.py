"""FolderListings answers what map_file_exists answers (a file, a folder, nothing, a refused link
or FIFO), from one listing per folder; and a build lists each folder once instead of walking down
to it for every file it asks about."""
from __future__ import annotations

import os

import pytest

from generator.core.diagnostics import DiagnosticError
from generator.read import mapfiles
from generator.read.mapfiles import FolderListings, map_file_exists


def _folder(tmp_path):
    (tmp_path / "units" / "Germans").mkdir(parents=True)
    (tmp_path / "units" / "Germans" / "infantry.png").write_bytes(b"png")
    (tmp_path / "units" / "Germans" / "sub").mkdir()
    (tmp_path / "flags").mkdir()
    (tmp_path / "flags" / "Germans.png").write_bytes(b"png")
    (tmp_path / "secret.txt").write_text("no")
    os.symlink(tmp_path / "secret.txt", tmp_path / "flags" / "Russians.png")
    os.symlink(tmp_path / "flags", tmp_path / "linked")
    os.mkfifo(tmp_path / "flags" / "Japanese.png")
    return tmp_path


ASKED = ["units/Germans/infantry.png", "units/Germans/armour.png", "units/Germans/sub", "units/Italians/x.png",
         "flags/Germans.png", "flags/Russians.png", "flags/Japanese.png", "linked/Germans.png", "../secret.txt",
         "", "secret.txt", "./flags//Germans.png"]


def _answer(ask, root, relpath):
    try:
        return ask(root, relpath)
    except DiagnosticError as err:
        return [d.format() for d in err.diagnostics]


@pytest.mark.parametrize("relpath", ASKED)
def test_listings_answer_as_map_file_exists(tmp_path, relpath):
    root = _folder(tmp_path)
    listings = FolderListings()
    expected = _answer(map_file_exists, root, relpath)
    assert _answer(listings.exists, root, relpath) == expected
    assert _answer(listings.exists, root, relpath) == expected  # and again, from the listing


def test_each_folder_is_opened_once(tmp_path, monkeypatch):
    root = _folder(tmp_path)
    opened = []
    real = mapfiles._open_folder
    monkeypatch.setattr(mapfiles, "_open_folder", lambda r, parts: opened.append(tuple(parts)) or real(r, parts))
    listings = FolderListings()
    for name in ("infantry", "armour", "artillery", "fighter"):
        listings.exists(root, f"units/Germans/{name}.png")
    assert opened == [("units", "Germans")]


def test_a_name_in_another_case_is_asked_of_the_disk(tmp_path, monkeypatch):
    """On a case-insensitive disk lstat finds flags/germans.png; the listing holds Germans.png only."""
    root = _folder(tmp_path)
    asked = []
    monkeypatch.setattr(mapfiles, "map_file_exists", lambda r, rel: asked.append(rel) or True)
    listings = FolderListings()
    assert listings.exists(root, "flags/germans.png") is True
    assert listings.exists(root, "flags/Italians.png") is False  # no name like it: absent on any disk
    assert asked == ["flags/germans.png"]


def test_a_found_file_is_answered_without_making_a_path(tmp_path, monkeypatch):
    """A build asks about thousands of files (a mod's unit images): the usual answer, a file the
    listing holds, is given from the listing alone (a Path per answer was a warm rebuild's ms)."""
    root = _folder(tmp_path)
    listings = FolderListings()
    assert listings.exists(root, "units/Germans/armour.png") is False  # the folder listed once
    monkeypatch.setattr(mapfiles, "Path", None)  # any Path made now fails
    assert listings.exists(root, "units/Germans/infantry.png") is True
    assert listings.exists(root, "units/Germans/sub") is False
