"""User mistakes are located TG errors with exit 1 or 2, never exit 3 ("internal error"), and
`watch` lives through every one of them, keeping the previous output."""
from __future__ import annotations

import os
import re
import sys
import tempfile
from pathlib import Path

import pytest

from conftest import PLAIN_GAME
from textedit import replaced
from folders import snapshot
from generator.cli.main import main
from generator.cli.watch import watch

EXAMPLE = PLAIN_GAME  # line numbers and texts of Frontier 1939 without its map
EXAMPLE_TEXT = EXAMPLE.read_text(encoding="utf-8")
LOCATED = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>TG\d{3})\]: ", re.M)


def _replace(text: str, old: str, new: str) -> str:
    return replaced(text, old, new, 1)


# Each mistake: the files of the spec folder (the spec is spec.yaml), the code and the line expected.
MISTAKES = {
    "omap players": ({"spec.yaml": _replace(EXAMPLE_TEXT, "players:\n  Germans: {optional: false}\n"
                                            "  Russians: {optional: false}\n  Italians: {optional: false}\n",
                                            "players: !!omap\n  - Germans: {optional: false}\n"
                                            "  - Russians: {optional: false}\n  - Italians: {optional: false}\n")},
                     "TG024", ("spec.yaml", 69)),
    "set of units": ({"spec.yaml": replaced(_replace(EXAMPLE_TEXT, "units: [infantry,", "units: !!set {infantry,"),
                                            "factory]", "factory}", 1)}, "TG024", ("spec.yaml", 77)),
    "pairs of alliances": ({"spec.yaml": replaced(_replace(EXAMPLE_TEXT, "alliances:\n  Axis:",
                                                          "alliances: !!pairs\n  - Axis:"),
                                                 "\n  Allies: [Russians]", "\n  - Allies: [Russians]", 1)},
                           "TG024", ("spec.yaml", 73)),
    "python tag": ({"spec.yaml": _replace(EXAMPLE_TEXT, 'info: {name: Frontier 1939,',
                                          'info: {name: !!python/object/apply:os.system [id],')},
                   "TG024", ("spec.yaml", 9)),
    "5000-digit integer": ({"spec.yaml": _replace(EXAMPLE_TEXT, "diceSides: 6", "diceSides: " + "7" * 5000)},
                           "TG025", ("spec.yaml", 12)),
    "mod based on itself": ({"spec.yaml": "mod: {name: Loop, base: spec.yaml}\n"}, "TG055", ("spec.yaml", 1)),
    "cycle of bases": ({"spec.yaml": "mod: {name: A, base: b.yaml}\n",
                        "b.yaml": "mod: {name: B, base: c.yaml}\n",
                        "c.yaml": "# the third mod closes the cycle\nmod:\n  name: C\n  base: spec.yaml\n"},
                       "TG055", ("c.yaml", 4)),
}


def _write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder / "spec.yaml"


@pytest.mark.parametrize("name", sorted(MISTAKES))
def test_mistake_is_a_located_error_and_nothing_is_written(tmp_path, capsys, name):
    files, code, (file, line) = MISTAKES[name]
    spec = _write(tmp_path, files)
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("previous output")
    os.chdir(tmp_path)
    status = main(["build", "spec.yaml", "-o", "out"])
    err = capsys.readouterr().err
    assert status in (1, 2), err
    found = [(m["file"], int(m["line"]), m["code"]) for m in LOCATED.finditer(err)]
    assert (file, line, code) in found, err
    assert snapshot(out) == {"keep.txt": b"previous output"}
    assert spec.exists()


def test_output_folder_that_is_a_file(tmp_path, capsys):
    (tmp_path / "afile").write_text("mine")
    assert main(["build", str(EXAMPLE), "-o", str(tmp_path / "afile")]) == 2
    assert "error[TG041]" in capsys.readouterr().err
    assert (tmp_path / "afile").read_text() == "mine"


def _file_access_as(uid: int) -> int:
    """Make this thread's file accesses those of uid (Linux setfsuid; root loses its file
    capabilities with it), returning the previous one."""
    import ctypes

    return ctypes.CDLL(None, use_errno=True).setfsuid(uid)


def test_read_only_output_folder(monkeypatch, capsys):
    folder = Path(tempfile.mkdtemp(prefix="tg-readonly-"))  # not under tmp_path: other users may enter it
    try:
        os.chmod(folder, 0o755)
        out, home = folder / "out", folder / "home"
        out.mkdir(mode=0o555)
        os.chmod(out, 0o555)
        home.mkdir()
        spec = folder / "spec.yaml"
        spec.write_text(EXAMPLE_TEXT)
        os.chmod(spec, 0o644)
        root = os.geteuid() == 0
        if root:
            if sys.platform != "linux":
                pytest.skip("as root, a read-only folder needs Linux's setfsuid to be read-only")
            os.chown(home, 65534, 65534)
        monkeypatch.chdir(folder)
        monkeypatch.setenv("HOME", str(home))  # caches of an unprivileged user
        monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
        assert main(["build", str(spec), "-o", str(folder / "warm")]) == 0  # every module imported
        capsys.readouterr()
        previous = _file_access_as(65534) if root else None
        try:
            status = main(["build", str(spec), "-o", str(out)])
            nested = main(["build", str(spec), "-o", str(out / "sub")])
        finally:
            if root:
                _file_access_as(previous)
        err = capsys.readouterr().err
        assert (status, nested) == (2, 2), err
        assert err.count("error[TG041]") == 2 and "internal error" not in err
        assert list(out.iterdir()) == []
    finally:
        os.chmod(folder / "out", 0o755)
        import shutil

        shutil.rmtree(folder)


def test_watch_lives_through_every_mistake_and_keeps_the_output(tmp_path, capsys):
    spec, out = tmp_path / "spec.yaml", tmp_path / "out"
    spec.write_text(EXAMPLE_TEXT)
    assert main(["build", str(spec), "-o", str(out)]) == 0
    built = snapshot(out)
    for name, (files, code, _) in sorted(MISTAKES.items()):
        for other in tmp_path.glob("*.yaml"):
            other.unlink()
        _write(tmp_path, files)
        assert watch(str(spec), str(out), interval=0.01, max_builds=1) == 0, name
        err = capsys.readouterr().err
        assert f"error[{code}]" in err and "internal error" not in err, (name, err)
        assert snapshot(out) == built, name
