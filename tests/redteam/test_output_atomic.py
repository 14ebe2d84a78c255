"""Output is all or nothing: a build killed at any moment, a rename that fails half-way, a full
disk, links and special files inside the output folder. After a killed build, the next write into
the folder (here: a small unrelated one, as any next build would be) must find the folder entirely
as the old build left it or entirely as the new one wrote it, with other files kept."""
from __future__ import annotations

import os
import random
import resource
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from conftest import PLAIN_GAME, REPO
from fuzzseed import FUZZ_SEED
from generator.cli.main import main
from generator.core.writer import write_outputs

EXAMPLE = PLAIN_GAME  # line numbers and texts of Frontier 1939 without its map
FILE_COUNT = 150
NEXT_RUN = "unrelated.txt"  # what "the next run" writes into the folder


def _build_files(tag: str) -> dict[str, bytes]:
    files = {f"m/map/games/g{i:03}.xml": f"<game build='{tag}' n='{i}'/>".encode() * 20 for i in range(FILE_COUNT)}
    files["m/map.yml"] = f"build {tag}".encode()
    if tag == "new":  # the new build also adds files in folders the old one did not have
        files["m/map/extra/notes.html"] = b"<p>new</p>"
        files["m/map/games/new.notes.html"] = b"<p>new notes</p>"
    return files


def _tree(folder: Path) -> tuple[dict[str, bytes], list[str]]:
    """Every file (with its bytes) and every folder under folder."""
    files, folders = {}, []
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        if path.is_dir():
            folders.append(rel)
        else:
            files[rel] = path.read_bytes()
    return files, folders


def _expected(out: Path, tag: str) -> tuple[dict[str, bytes], list[str]]:
    """The folder as it is after `tag`'s build alone, on top of the foreign file."""
    with tempfile.TemporaryDirectory() as temp:
        reference = Path(temp)
        (reference / "m" / "map" / "games").mkdir(parents=True)
        (reference / "m" / "map" / "games" / "other_mod.xml").write_bytes(b"another mod's game")
        write_outputs(reference, _build_files(tag))
        write_outputs(reference, {NEXT_RUN: b"next"})
        return _tree(reference)


def _fresh_old_build(out: Path) -> None:
    import shutil

    if out.exists():
        shutil.rmtree(out)
    (out / "m" / "map" / "games").mkdir(parents=True)
    (out / "m" / "map" / "games" / "other_mod.xml").write_bytes(b"another mod's game")  # not ours: kept
    write_outputs(out, _build_files("old"))


_WRITER = """
import os, sys
from generator.core.writer import write_outputs
sys.path.insert(0, {tests!r})
from redteam.test_output_atomic import _build_files
kill_after = int(sys.argv[2])
if kill_after >= 0:  # die (as kill -9 would) after this many renames
    real_replace, done = os.replace, [0]
    def replace(*args, **kwargs):
        if done[0] == kill_after:
            os.kill(os.getpid(), 9)
        done[0] += 1
        return real_replace(*args, **kwargs)
    os.replace = replace
print("ready", flush=True)
write_outputs(sys.argv[1], _build_files("new"))
"""


def _writer(out: Path, kill_after: int = -1) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    code = _WRITER.format(tests=str(REPO / "tests"))
    return subprocess.Popen([sys.executable, "-c", code, str(out), str(kill_after)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _after_next_run(out: Path):
    write_outputs(out, {NEXT_RUN: b"next"})  # any next build into the folder
    return _tree(out)


def test_a_build_killed_after_any_number_of_renames_is_undone_by_the_next_run(tmp_path):
    out = tmp_path / "out"
    old, new = _expected(out, "old"), _expected(out, "new")
    for kill_after in [0, 1, 2, FILE_COUNT // 2, FILE_COUNT - 1, FILE_COUNT, FILE_COUNT + 1, FILE_COUNT + 2]:
        _fresh_old_build(out)
        process = _writer(out, kill_after)
        process.communicate(timeout=60)
        assert process.returncode in (-9, 0), process.returncode
        state = _after_next_run(out)
        assert state in (old, new), f"killed after {kill_after} renames: a mix of two builds"
        assert state == old or process.returncode == 0


def test_a_build_killed_at_random_moments_leaves_the_old_or_the_new_build(tmp_path):
    seed = FUZZ_SEED  # new each run; TRIPLEA_GEN_FUZZ_SEED replays one
    print(f"kill -9 delays from random seed {seed}")
    chance = random.Random(seed)
    out = tmp_path / "out"
    old, new = _expected(out, "old"), _expected(out, "new")
    _fresh_old_build(out)
    process = _writer(out)
    process.stdout.readline()
    started = time.perf_counter()
    process.communicate(timeout=60)
    writing = time.perf_counter() - started  # how long the write itself takes after start-up
    outcomes = set()
    for _ in range(20):
        _fresh_old_build(out)
        process = _writer(out)
        process.stdout.readline()  # started up; the write begins now
        time.sleep(chance.uniform(0, writing * 1.2))
        process.send_signal(signal.SIGKILL)
        process.communicate(timeout=60)
        state = _after_next_run(out)
        assert state in (old, new), f"seed {seed}: a mix of two builds"
        outcomes.add("old" if state == old else "new")
    print(f"outcomes: {sorted(outcomes)}")


def test_a_rename_failing_half_way_leaves_the_old_build(tmp_path, monkeypatch):
    out = tmp_path / "out"
    _fresh_old_build(out)
    before = _tree(out)
    real_replace, calls = os.replace, []

    def failing_replace(*args, **kwargs):
        calls.append(args)
        if len(calls) == 3:
            raise OSError(28, "No space left on device")
        return real_replace(*args, **kwargs)

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(Exception) as err:
        write_outputs(out, _build_files("new"))
    monkeypatch.undo()
    assert "TG041" in str(err.value)
    assert _tree(out) == before


def test_a_folder_where_a_file_goes_is_refused_before_anything_changes(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["build", str(EXAMPLE), "-o", str(out)]) == 0
    (out / "frontier_1939" / "map.yml").unlink()
    (out / "frontier_1939" / "map.yml").mkdir()  # the second file of the build cannot be replaced
    before = _tree(out)
    capsys.readouterr()
    assert main(["build", str(EXAMPLE), "-o", str(out)]) == 2
    assert "error[TG044]" in capsys.readouterr().err
    assert _tree(out) == before


def test_stale_staging_folders_of_killed_builds_are_removed(tmp_path):
    out = tmp_path / "out"
    for name in (".triplea-gen-staging-12345-0badcafe", ".triplea-gen-staging-abc_def"):
        (out / name / "deep").mkdir(parents=True)
        (out / name / "deep" / "frontier_1939.xml").write_bytes(b"half a build")
    assert main(["build", str(EXAMPLE), "-o", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["frontier_1939"]


def test_a_folder_link_inside_the_output_is_not_followed(tmp_path, capsys):
    out, outside = tmp_path / "out", tmp_path / "outside"
    (outside / "games").mkdir(parents=True)
    (outside / "games" / "frontier_1939.xml").write_bytes(b"not yours")
    (out / "frontier_1939").mkdir(parents=True)
    (out / "frontier_1939" / "map").symlink_to(outside, target_is_directory=True)
    assert main(["build", str(EXAMPLE), "-o", str(out)]) == 2
    assert "error[TG043]" in capsys.readouterr().err
    assert (outside / "games" / "frontier_1939.xml").read_bytes() == b"not yours"
    assert sorted(p.name for p in (outside / "games").iterdir()) == ["frontier_1939.xml"]


def test_a_file_link_inside_the_output_is_not_replaced_or_written_through(tmp_path, capsys):
    out, secret = tmp_path / "out", tmp_path / "secret.yml"
    secret.write_bytes(b"not yours")
    assert main(["build", str(EXAMPLE), "-o", str(out)]) == 0
    listing = out / "frontier_1939" / "map.yml"
    listing.unlink()
    listing.symlink_to(secret)
    capsys.readouterr()
    assert main(["build", str(EXAMPLE), "-o", str(out)]) == 2
    assert "error[TG043]" in capsys.readouterr().err
    assert secret.read_bytes() == b"not yours" and listing.is_symlink()


def test_files_of_other_builds_in_the_folder_are_kept(tmp_path):
    out = tmp_path / "out"
    assert main(["build", str(EXAMPLE), "-o", str(out)]) == 0
    other = out / "frontier_1939" / "map" / "games" / "another_mod.xml"
    other.write_bytes(b"<game/>")
    assert main(["build", str(EXAMPLE), "-o", str(out)]) == 0
    assert other.read_bytes() == b"<game/>"


@pytest.mark.parametrize("kind", ["fifo", "folder", pytest.param("device", marks=pytest.mark.skipif(
    os.geteuid() != 0, reason="making a device node needs root (the case the defect was seen in)"))])
def test_import_replaces_only_regular_files(tmp_path, capsys, kind):
    """`import -o /dev/full` as root replaced the device node; here a node like it in tmp_path."""
    xml = tmp_path / "game.xml"
    assert main(["build", str(EXAMPLE), "-o", str(tmp_path / "out")]) == 0
    xml.write_bytes(next((tmp_path / "out").rglob("*.xml")).read_bytes())
    target = tmp_path / "special"
    if kind == "device":
        os.mknod(target, 0o666 | stat.S_IFCHR, os.makedev(1, 7))  # what /dev/full is
    else:
        os.mkfifo(target) if kind == "fifo" else target.mkdir()
    capsys.readouterr()
    assert main(["import", str(xml), "-o", str(target)]) == 2
    assert "error[TG044]" in capsys.readouterr().err
    mode = os.lstat(target).st_mode
    assert {"fifo": stat.S_ISFIFO, "folder": stat.S_ISDIR, "device": stat.S_ISCHR}[kind](mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.xml", "out", "special"]


def _limit_file_size():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) as on a full disk
    resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))


def test_import_on_a_full_disk_leaves_no_temporary_file(tmp_path):
    out = tmp_path / "out"
    assert main(["build", str(EXAMPLE), "-o", str(out)]) == 0
    xml = next(out.rglob("*.xml"))
    folder = tmp_path / "specs"
    folder.mkdir()
    (folder / "game.yaml").write_bytes(b"previous")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
               TRIPLEA_GEN_NO_SERVER="1")
    done = subprocess.run([sys.executable, "-m", "generator", "import", str(xml), "-o", str(folder / "game.yaml")],
                          env=env, capture_output=True, text=True, preexec_fn=_limit_file_size, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "error[TG041]" in done.stderr
    assert [p.name for p in folder.iterdir()] == ["game.yaml"]
    assert (folder / "game.yaml").read_bytes() == b"previous"


def test_written_files_follow_the_umask(tmp_path):
    out = tmp_path / "out"
    previous = os.umask(0o027)
    try:
        assert main(["build", str(EXAMPLE), "-o", str(out)]) == 0
        assert main(["schema", "-o", str(tmp_path / "rules.schema.json")]) == 0
        assert main(["import", str(next(out.rglob("*.xml"))), "-o", str(tmp_path / "game.yaml")]) == 0
    finally:
        os.umask(previous)
    for path in [next(out.rglob("*.xml")), tmp_path / "rules.schema.json", tmp_path / "game.yaml"]:
        assert stat.S_IMODE(path.stat().st_mode) == 0o640, path
