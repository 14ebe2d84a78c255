"""A journal planted in an output folder (a zip unzipped into downloadedMaps, a cloned project
built into itself) must never steer the next build's rollback: the files it names survive, the
build stops with a located error, and nothing in the folder changes. A build that was really
killed half-way is still rolled back by the next write."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from generator.cli.main import main
from generator.core.writer import write_outputs

STAGING = ".triplea-gen-staging-0123456789abcdef01234567"
USER_FILE = "another_map/map/games/my_saved_work.xml"
USER_TEXT = b"<game>the user's own work</game>"
# A game that draws its own map: one without would be refused in downloadedMaps before any write (TG520).
GAME = REPO / "rules_yaml" / "frontier_1939.yaml"


def _listing(folder: Path) -> dict[str, bytes | str]:
    """Every entry under folder (links and folders by kind, files by their bytes), links not followed."""
    entries = {}
    for root, dirs, names in os.walk(folder):
        for name in dirs + names:
            path = Path(root) / name
            rel = path.relative_to(folder).as_posix()
            entries[rel] = ("link" if path.is_symlink() else "dir" if path.is_dir() else path.read_bytes())
    return entries


def _downloaded_maps(tmp_path: Path) -> Path:
    out = tmp_path / "downloadedMaps"
    (out / USER_FILE).parent.mkdir(parents=True)
    (out / USER_FILE).write_bytes(USER_TEXT)
    return out


def _build_refused(out: Path, capsys, code: str) -> str:
    before = _listing(out)
    capsys.readouterr()
    status = main(["build", str(GAME), "-o", str(out)])
    err = capsys.readouterr().err
    after = _listing(out)
    assert not [p for p in before if p not in after], "files named by the journal were deleted"
    assert not [p for p in before if after[p] != before[p]], "files named by the journal were replaced"
    assert after == before, "a refused journal changed the folder"
    assert status == 2 and f"error[{code}]" in err, err
    return err


def test_a_planted_journal_at_the_top_deletes_nothing(tmp_path, capsys):
    """The journal format the writer used to trust: backup null named files it then deleted,
    with their folders."""
    out = _downloaded_maps(tmp_path)
    (out / ".triplea-gen-journal").write_text(json.dumps(
        {"staging": STAGING, "files": [{"path": USER_FILE, "backup": None}],
         "folders": ["another_map", "another_map/map", "another_map/map/games"]}))
    err = _build_refused(out, capsys, "TG045")
    assert f"{out / '.triplea-gen-journal'}:" in err and "hint:" in err
    assert (out / USER_FILE).read_bytes() == USER_TEXT


def _planted_staging(out: Path, guess_the_folder: bool) -> Path:
    """A staging folder as a zip would carry it: a kept 'backup' of the attacker's choosing, and a
    journal saying it should be put back over the user's file. With guess_the_folder, the worst
    case: a planter who guessed the inode the folder would get."""
    staging = out / STAGING
    staging.mkdir()
    folder = os.lstat(staging)
    staging_id = {"dev": folder.st_dev, "ino": folder.st_ino} if guess_the_folder else {"dev": 1, "ino": 2}
    (staging / "o0").write_bytes(b"<game>the attacker's text</game>")
    kept = os.lstat(staging / "o0")
    target = os.lstat(out / USER_FILE)
    as_recorded = lambda info: {"dev": info.st_dev, "ino": info.st_ino, "size": info.st_size,
                                "mtime_ns": info.st_mtime_ns}
    entry = {"path": USER_FILE, "new": dict(as_recorded(target), sha256="0" * 64), "old": as_recorded(kept),
             "backup": dict(as_recorded(kept), name="o0")}
    (staging / "journal").write_text(json.dumps(
        {"version": 2, "staging": STAGING, "staging_id": staging_id,
         "files": [entry], "folders": []}))
    return staging


@pytest.mark.parametrize("how", ["old format, at the top", "new format, foreign folder",
                                 "new format, the right folder, someone else's file"])
def test_a_planted_staging_folder_replaces_nothing(tmp_path, capsys, how):
    out = _downloaded_maps(tmp_path)
    if how == "old format, at the top":
        (out / STAGING).mkdir()
        (out / STAGING / "o0").write_bytes(b"<game>the attacker's text</game>")
        (out / ".triplea-gen-journal").write_text(json.dumps(
            {"staging": STAGING, "files": [{"path": USER_FILE, "backup": "o0"}], "folders": []}))
        code = "TG045"
    else:
        # Even with the folder guessed right, the user's file differs from anything this journal
        # could have put there (its hash, at the least).
        _planted_staging(out, guess_the_folder="right folder" in how)
        code = "TG046" if "right folder" in how else "TG045"
    _build_refused(out, capsys, code)
    assert (out / USER_FILE).read_bytes() == USER_TEXT


def test_a_journal_of_a_real_build_unzipped_elsewhere_is_refused(tmp_path, capsys):
    """A genuine journal (of a build killed half-way) copied to another folder: its staging
    folder there is another folder."""
    first = tmp_path / "first"
    _kill_a_build(first, kill_after=3)
    staging = next(first.glob(".triplea-gen-staging-*"))
    out = _downloaded_maps(tmp_path)
    subprocess.run(["cp", "-a", str(staging), str(out)], check=True)
    _build_refused(out, capsys, "TG045")


_KILLED_WRITER = """
import os, sys
from generator.core.writer import write_outputs
done, kill_after, real = [0], int(sys.argv[2]), os.replace
def replace(*args, **kwargs):
    if done[0] == kill_after:
        os.kill(os.getpid(), 9)
    done[0] += 1
    return real(*args, **kwargs)
os.replace = replace
if sys.argv[3] == "copies":  # a file system without hard links: the kept files are copies
    def link(*args, **kwargs):
        raise OSError(1, "Operation not permitted")
    os.link = link
write_outputs(sys.argv[1], {f"m/map/games/g{i}.xml": b"new %d" % i for i in range(8)})
"""


def _kill_a_build(out: Path, kill_after: int, kept: str = "links") -> None:
    """An old build of eight files, then a new one killed (kill -9) after kill_after renames."""
    write_outputs(out, {f"m/map/games/g{i}.xml": b"old %d" % i for i in range(4)})
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([sys.executable, "-c", _KILLED_WRITER, str(out), str(kill_after), kept], env=env)
    assert done.returncode == -9
    assert list(out.glob(".triplea-gen-*")), "the killed build left nothing to roll back"


@pytest.mark.parametrize("kept", ["links", "copies"])
def test_a_build_really_killed_half_way_is_still_rolled_back(tmp_path, kept):
    out = tmp_path / "out"
    _kill_a_build(out, kill_after=6, kept=kept)  # 4 replaced, 2 new in place, 2 not yet
    write_outputs(out, {"unrelated.txt": b"next"})
    assert _listing(out) == {"unrelated.txt": b"next", "m": "dir", "m/map": "dir", "m/map/games": "dir",
                             **{f"m/map/games/g{i}.xml": b"old %d" % i for i in range(4)}}


def test_a_killed_build_whose_file_was_edited_since_is_not_rolled_back(tmp_path, capsys):
    """The rollback would delete (or replace) the edited file: refused, for the user to decide."""
    out = tmp_path / "out"
    _kill_a_build(out, kill_after=6)
    edited = out / "m" / "map" / "games" / "g5.xml"
    assert edited.read_bytes() == b"new 5"
    with open(edited, "r+b") as stream:  # same file, same size: only its content and times differ
        stream.write(b"mine!")
    _build_refused(out, capsys, "TG046")
    assert edited.read_bytes() == b"mine!"


@pytest.mark.parametrize("kept", ["links", "copies"])
def test_a_rollback_cut_short_is_finished_by_the_next_write(tmp_path, monkeypatch, kept):
    out = tmp_path / "out"
    _kill_a_build(out, kill_after=6, kept=kept)
    real_replace, calls = os.replace, []

    def failing_replace(*args, **kwargs):
        calls.append(args)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        return real_replace(*args, **kwargs)

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(Exception) as err:
        write_outputs(out, {"unrelated.txt": b"next"})
    assert "TG041" in str(err.value)
    monkeypatch.undo()
    write_outputs(out, {"unrelated.txt": b"next"})
    assert _listing(out) == {"unrelated.txt": b"next", "m": "dir", "m/map": "dir", "m/map/games": "dir",
                             **{f"m/map/games/g{i}.xml": b"old %d" % i for i in range(4)}}
