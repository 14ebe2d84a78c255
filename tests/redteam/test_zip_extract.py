"""Unzipping a map or mod from a forum: no entry lands outside the target, links and special
files are refused, zip bombs (huge entries, extreme ratios, huge entry counts) are refused before
anything is written, links already in the target are not followed, and a zip that fails half-way
leaves nothing behind."""
from __future__ import annotations

import stat
import zipfile

import pytest

from folders import snapshot
from generator.builder import package
from generator.core.diagnostics import DiagnosticError
from generator.builder.package import safe_extract


def _zip(path, entries: list[tuple[zipfile.ZipInfo | str, bytes]]):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for info, data in entries:
            archive.writestr(info, data)
    return path


def _refused(archive, destination) -> str:
    with pytest.raises(DiagnosticError) as err:
        safe_extract(archive, destination)
    return err.value.diagnostics[0].code


def _unix_entry(name: str, kind: int) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = (kind | 0o777) << 16
    return info


@pytest.fixture
def target(tmp_path):
    destination = tmp_path / "downloadedMaps"
    (destination / "other_map").mkdir(parents=True)
    (destination / "other_map" / "map.yml").write_bytes(b"someone else's map")
    return destination


def test_a_symlink_entry_is_refused(tmp_path, target):
    archive = _zip(tmp_path / "a.zip", [("m/ok.txt", b"fine"), (_unix_entry("m/passwd", stat.S_IFLNK), b"/etc/passwd")])
    assert _refused(archive, target) == "TG072"
    assert snapshot(target) == {"other_map/map.yml": b"someone else's map"}


def test_a_zip_bomb_entry_is_refused_before_anything_is_written(tmp_path, target):
    archive = _zip(tmp_path / "bomb.zip", [("m/ok.txt", b"fine"), ("m/zeros.bin", bytes(50 * 1024 * 1024))])
    assert archive.stat().st_size < 1024 * 1024
    assert _refused(archive, target) == "TG073"
    assert snapshot(target) == {"other_map/map.yml": b"someone else's map"}


def test_too_many_entries_or_bytes_are_refused(tmp_path, target, monkeypatch):
    archive = _zip(tmp_path / "many.zip", [(f"m/{i}.txt", b"x" * 100) for i in range(50)])
    monkeypatch.setattr(package, "MAX_ENTRIES", 20)
    assert _refused(archive, target) == "TG073"
    monkeypatch.setattr(package, "MAX_ENTRIES", 1000)
    monkeypatch.setattr(package, "MAX_UNZIPPED_BYTES", 1000)
    assert _refused(archive, target) == "TG073"
    assert snapshot(target) == {"other_map/map.yml": b"someone else's map"}


def test_a_zip_failing_half_way_leaves_nothing(tmp_path, target):
    archive = _zip(tmp_path / "damaged.zip", [("m/first.txt", b"first" * 1000), ("m/second.txt", b"second" * 1000)])
    data = bytearray(archive.read_bytes())
    at = data.index(b"m/second.txt") + len("m/second.txt") + 5  # inside the second entry's compressed data
    data[at] ^= 0xFF
    archive.write_bytes(bytes(data))
    assert _refused(archive, target) == "TG074"
    assert snapshot(target) == {"other_map/map.yml": b"someone else's map"}
    assert [p.name for p in target.iterdir()] == ["other_map"]


def test_a_link_in_the_target_folder_is_not_followed(tmp_path, target):
    outside = tmp_path / "outside"
    outside.mkdir()
    (target / "m").symlink_to(outside, target_is_directory=True)
    archive = _zip(tmp_path / "a.zip", [("m/evil.txt", b"written through a link")])
    assert _refused(archive, target) == "TG043"
    assert list(outside.iterdir()) == []


def test_a_good_zip_is_unzipped_and_other_files_kept(tmp_path, target):
    archive = _zip(tmp_path / "good.zip", [("m/map.yml", b"map"), ("m/map/games/g.xml", b"<game/>")])
    written = safe_extract(archive, target)
    assert sorted(p.relative_to(target).as_posix() for p in written) == ["m/map.yml", "m/map/games/g.xml"]
    assert snapshot(target) == {"m/map.yml": b"map", "m/map/games/g.xml": b"<game/>",
                                "other_map/map.yml": b"someone else's map"}
