"""The type and lint gates: mypy's per-file error counts may only go down (tests/typing_ratchet.py
against .ci/mypy-baseline.json) and ruff passes outright (settings: pyproject.toml)."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

from conftest import REPO, missing

import typing_ratchet


def _need(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        missing(f"{module} is not installed (pip install -e '.[test]')")


def test_no_file_has_more_mypy_errors_than_the_baseline():
    _need("mypy")
    output = typing_ratchet.run_mypy()
    baseline = json.loads(typing_ratchet.BASELINE.read_text(encoding="utf-8"))
    problems = typing_ratchet.rises(baseline, typing_ratchet.counts(output))
    assert not problems, ("more mypy errors than .ci/mypy-baseline.json allows (fix them; after fixing "
                          "others, python3 tests/typing_ratchet.py --update lowers the baseline):\n"
                          + "\n".join(problems))


def test_the_ratchet_reads_mypy_output_and_finds_a_rise():
    output = ("src/a.py:3: error: Item \"None\" of \"X | None\" has no attribute \"y\"  [union-attr]\n"
              "src/a.py:9: note: see above\n"
              "src/b.py:1: error: Need type annotation for \"z\"  [var-annotated]\n"
              "src/a.py:12: error: Argument 1 has incompatible type  [arg-type]\n")
    now = typing_ratchet.counts(output)
    assert now == {"src/a.py": 2, "src/b.py": 1}
    assert typing_ratchet.rises({"src/a.py": 2}, now) == ["src/b.py: 0 -> 1 mypy errors"]
    assert typing_ratchet.rises({"src/a.py": 3, "src/b.py": 1}, now) == []


def test_ruff_passes():
    _need("ruff")
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "generator", "tests"], cwd=REPO,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
