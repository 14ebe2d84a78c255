"""The README's quickstart is what CI runs: the test command in .ci/run is the README's, to the letter."""
from __future__ import annotations

import re

from conftest import REPO


def _quickstart_commands() -> list[str]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```sh\n(.*?)```", section, re.S).group(1)
    return [line for line in block.splitlines() if line.strip() and not line.startswith("#")]


def test_quickstart_has_a_main_job_and_a_test_command():
    main_job, tests = _quickstart_commands()
    assert "triplea-gen build rules_yaml/" in main_job
    assert tests.endswith("-m pytest")


def test_ci_runs_the_readme_test_command_verbatim():
    _, tests = _quickstart_commands()
    ci_lines = (REPO / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert tests in ci_lines


def test_quickstart_needs_no_global_pip_install():
    # PEP 668 systems refuse `pip install` outside a virtual environment.
    for command in _quickstart_commands():
        assert "python3 -m pip" not in command
        assert ".venv/bin/python -m pip install" in command
