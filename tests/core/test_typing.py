"""The type and lint gates: mypy and ruff pass outright on the package (settings: pyproject.toml),
and mypy's settings are strict enough to follow None through the code."""
from __future__ import annotations

import importlib.util
import subprocess
import sys

from conftest import REPO, missing


def _need(module: str) -> None:
    if importlib.util.find_spec(module) is None:
        missing(f"{module} is not installed (pip install -e '.[test]')")


def _mypy(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary", *arguments], cwd=REPO,
                          capture_output=True, text=True, timeout=900)


def test_mypy_passes():
    _need("mypy")
    done = _mypy()
    assert done.returncode == 0, "mypy finds errors in generator/ (fix them, no blanket ignores):\n" + \
        done.stdout + done.stderr


def test_mypy_settings_catch_a_none_flow(tmp_path):
    """The gate is only worth what its settings catch: a value that may be None used as a string, in a
    function without annotations, must be an error under pyproject.toml's [tool.mypy]."""
    _need("mypy")
    sample = tmp_path / "none_flow.py"
    sample.write_text("import os\n\n\ndef home():\n    found = os.environ.get('HOME')\n"
                      "    return found.upper()\n", encoding="utf-8")
    done = _mypy("--config-file", str(REPO / "pyproject.toml"), str(sample))
    assert done.returncode == 1, done.stdout + done.stderr
    assert 'Item "None" of "str | None" has no attribute "upper"  [union-attr]' in done.stdout, done.stdout


def test_ruff_passes():
    _need("ruff")
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "generator", "tests"], cwd=REPO,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
