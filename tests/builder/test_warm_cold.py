"""A warm process (watch, the build server, the language server: bases, macros and map files kept in
memory, only changed files written) builds exactly what a new process builds, after random edit
sequences on every example. The edits change numbers of the spec: costs, counts, rounds, values."""
from __future__ import annotations

import random
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fuzzseed import FUZZ_SEED, replay_hint
from conftest import REPO, SHARED, SHARED_MISSING
from folders import snapshot

EXAMPLES = sorted((REPO / "rules_yaml").glob("*.yaml"))
EDITS = 3
_NUMBER = re.compile(r"(?<=: )(\d{1,3})(?=[,}\s\]]|$)")


def _edited(text: str, rng: random.Random) -> str:
    """The text with one number (a YAML value, not in a comment) changed by one."""
    lines = text.split("\n")
    places = [(number, match) for number, line in enumerate(lines) if not line.lstrip().startswith("#")
              for match in _NUMBER.finditer(line.split(" #")[0])]
    number, match = rng.choice(places)
    value = int(match.group(1))
    new = str(value + 1 if value == 0 or rng.random() < 0.5 else value - 1)
    line = lines[number]
    lines[number] = line[:match.start()] + new + line[match.end():]
    return "\n".join(lines)


def _warm_build(spec: Path, out: Path) -> str:
    from generator.builder.outputs import build_spec
    from generator.core.diagnostics import DiagnosticError

    try:
        build_spec(str(spec), str(out), only_changed=True)
    except DiagnosticError as err:
        return "\n".join(d.format() for d in err.diagnostics)
    return ""


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_random_edits_build_the_same_warm_and_cold(example, tmp_path, monkeypatch):
    text = example.read_text(encoding="utf-8")
    if "world_war_ii_global" in text:
        if not SHARED.is_dir():
            pytest.skip(SHARED_MISSING)
        monkeypatch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    from generator.speclang.basecache import keep_in_memory

    keep_in_memory()
    monkeypatch.chdir(tmp_path)
    shutil.copytree(REPO / "rules_yaml", tmp_path / "specs")  # with what the specs name beside them
    spec, warm, cold = tmp_path / "specs" / example.name, tmp_path / "warm", tmp_path / "cold"
    rng = random.Random(f"{FUZZ_SEED}:{example.name}")
    spec.write_text(text, encoding="utf-8")
    _warm_build(spec, warm)
    for _ in range(EDITS):
        text = _edited(text, rng)
        spec.write_text(text, encoding="utf-8")
        failed_warm = _warm_build(spec, warm)
    done = subprocess.run([sys.executable, "-m", "generator", "build", str(spec), "-o", "cold"],
                          cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO), "TRIPLEA_GEN_NO_SERVER": "1"})
    if done.returncode:
        assert failed_warm and failed_warm in done.stderr, replay_hint()
        return
    assert not failed_warm, (failed_warm, replay_hint())
    cold_files = snapshot(cold)
    warm_files = {name: data for name, data in snapshot(warm).items() if name in cold_files}
    assert set(warm_files) == set(cold_files), replay_hint()
    differing = sorted(name for name in cold_files if warm_files[name] != cold_files[name])
    assert not differing, (differing, replay_hint())


def test_watch_writes_only_the_files_whose_bytes_change(tmp_path, monkeypatch, capsys):
    """A rebuild after a change of one number rewrites the game XML and leaves every other file
    (map art, point files, flags, map.yml) as it was: same inode, not touched."""
    from generator.cli.watch import watch

    monkeypatch.chdir(tmp_path)
    spec, out = tmp_path / "game.yaml", tmp_path / "out"
    text = (REPO / "rules_yaml" / "frontier_1939.yaml").read_text(encoding="utf-8")
    spec.write_text(text, encoding="utf-8")
    assert watch(str(spec), str(out), interval=0.01, max_builds=1) == 0
    before = {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in out.rglob("*") if p.is_file()}
    spec.write_text(text.replace("buyArmour: {cost: {PUs: 6}", "buyArmour: {cost: {PUs: 7}"), encoding="utf-8")
    assert watch(str(spec), str(out), interval=0.01, max_builds=1) == 0
    after = {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in out.rglob("*") if p.is_file()}
    assert set(after) == set(before)
    assert sorted(p.name for p in after if after[p] != before[p]) == ["game.xml"]
    assert "1 file(s) written" in capsys.readouterr().out
    assert watch(str(spec), str(out), interval=0.01, max_builds=1) == 0
    assert "[watch] built (the game is unchanged) in" in capsys.readouterr().out
