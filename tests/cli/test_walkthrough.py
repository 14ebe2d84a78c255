"""The README's "Your first hour" is run as a new modder would: every command of its ```sh blocks and
every file of its ```yaml blocks (the ones whose first line is `# file: PATH`), in the README's order,
in a fresh folder that stands for the repository root.

What the test supplies in place of the user's machine: `triplea-gen` on PATH is this checkout
(PYTHONPATH and the running interpreter), `rules_yaml/` is a link to the checkout's, and
TRIPLEA_MAPS is ../shared/maps whatever the README exports (that line still runs, so it must be
valid shell). Everything else is the README's text, to the letter.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import ENGINE_MISSING, GLOBAL_MAP_DIR, REPO, SHARED_MISSING, engine_available, missing, requires_shared

SECTION = "## Your first hour"
FILE_MARKER = re.compile(r"# file: (\S+)\n")
BLOCK = re.compile(r"```(sh|yaml)\n(.*?)```", re.S)


@dataclass(frozen=True)
class Step:
    kind: str  # "command" or "file"
    text: str  # the command line, or the file's whole text
    path: str = ""  # the file's path, for a file

    @property
    def needs_engine(self) -> bool:
        return self.kind == "command" and _words(self.text)[1:2] in (["test"], ["engine"])

    @property
    def needs_display(self) -> bool:
        return self.kind == "command" and _words(self.text)[1:3] == ["engine", "gui"]


def _words(command: str) -> list[str]:
    return shlex.split(command, comments=True)


def _section() -> str:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert SECTION + "\n" in readme, f"the README has no {SECTION!r} section"
    return readme.split(SECTION + "\n", 1)[1].split("\n## ", 1)[0]


def _commands(block: str) -> list[str]:
    """The block's command lines: comments and blank lines left out, `\\` continuations joined."""
    commands, pending = [], ""
    for line in block.splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1]
            continue
        commands.append(pending + line)
        pending = ""
    assert not pending, f"a command ends in a continuation: {pending!r}"
    return commands


def walkthrough_steps() -> list[Step]:
    steps = []
    for kind, body in BLOCK.findall(_section()):
        if kind == "sh":
            steps += [Step("command", command) for command in _commands(body)]
        else:
            marker = FILE_MARKER.match(body)
            assert marker, f"a yaml block of {SECTION!r} does not start with '# file: PATH':\n{body[:200]}"
            steps.append(Step("file", body, marker.group(1)))
    return steps


class Walk:
    """A fresh folder standing for the repository root, and the shell environment of the walk."""

    def __init__(self, root: Path):
        self.root = root
        (root / "rules_yaml").symlink_to(REPO / "rules_yaml", target_is_directory=True)
        shim_dir = root.parent / "bin"
        shim_dir.mkdir(exist_ok=True)
        shim = shim_dir / "triplea-gen"
        shim.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m generator \"$@\"\n", encoding="utf-8")
        shim.chmod(0o755)
        env = {k: v for k, v in os.environ.items() if k not in ("TRIPLEA_MAPS", "VIRTUAL_ENV")}
        env.update(PATH=f"{shim_dir}{os.pathsep}{env.get('PATH', '')}", PYTHONPATH=str(REPO),
                   TRIPLEA_GEN_NO_SERVER="1")
        self.env = env
        self.outputs: dict[str, subprocess.CompletedProcess] = {}

    def run(self, step: Step) -> None:
        if step.kind == "file":
            target = self.root / step.path
            assert target.resolve().is_relative_to(self.root.resolve()), step.path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(step.text, encoding="utf-8")
            return
        if _words(step.text)[0] == "export":
            self._export(step.text)
            return
        done = subprocess.run(["bash", "-c", step.text], cwd=self.root, env=self.env, capture_output=True,
                              text=True, timeout=900)
        assert done.returncode == 0, f"`{step.text}` exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
        self.outputs[step.text] = done

    def _export(self, command: str) -> None:
        """Run the export line in bash and keep the environment it leaves; TRIPLEA_MAPS stays the tests'."""
        done = subprocess.run(["bash", "-c", f"{command} && env -0"], cwd=self.root, env=self.env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, f"`{command}` exited {done.returncode}:\n{done.stderr}"
        self.env = dict(item.split("=", 1) for item in done.stdout.split("\0") if "=" in item)
        self.env["TRIPLEA_MAPS"] = str(GLOBAL_MAP_DIR.parent)

    def output_of(self, *words: str) -> str:
        (done,) = [done for command, done in self.outputs.items() if _words(command)[1:1 + len(words)] == list(words)]
        return done.stdout


def _walk(tmp_path: Path, *, engine: bool, display: bool) -> Walk:
    if not GLOBAL_MAP_DIR.is_dir():
        missing(SHARED_MISSING)
    root = tmp_path / "repo"
    root.mkdir()
    walk = Walk(root)
    for step in walkthrough_steps():
        if (step.needs_engine and not engine) or (step.needs_display and not display):
            continue
        walk.run(step)
    return walk


def _display_problem() -> str | None:
    if not engine_available():
        return ENGINE_MISSING
    if shutil.which("xvfb-run") is None:
        return "no xvfb-run to give the desktop client a display (apt-get install xvfb); CI has it"
    return None


def test_the_section_has_every_step_of_the_walk():
    steps = walkthrough_steps()
    commands = [_words(step.text) for step in steps if step.kind == "command"]
    heads = [words[:2] for words in commands]
    for wanted in (["triplea-gen", "build"], ["triplea-gen", "engine"], ["triplea-gen", "new"],
                   ["triplea-gen", "validate"], ["triplea-gen", "test"], ["triplea-gen", "report"],
                   ["triplea-gen", "package"]):
        assert wanted in heads, f"no `{' '.join(wanted)}` command in {SECTION!r}"
    assert all(words[0] in ("triplea-gen", "export") for words in commands), commands
    assert [step.path for step in steps if step.kind == "file"] == ["mymod/my_house_rules.yaml"]
    # the mod is written after `new` scaffolds it, so the walk replaces the scaffold
    order = [step.path or _words(step.text)[1] for step in steps]
    assert order.index("mymod/my_house_rules.yaml") > order.index("new")


def test_the_walkthrough_without_the_engine(tmp_path):
    """Every step but `test` and `engine gui`: install-free commands a modder runs first."""
    walk = _walk(tmp_path, engine=False, display=False)
    root = walk.root
    assert (root / "output/frontier_1939/map/games/frontier_1939.xml").is_file()
    assert (root / "output/world_war_ii_global/map/games/my_house_rules.xml").is_file()
    assert "0 errors, 0 warnings" in walk.output_of("validate", "mymod/my_house_rules.yaml")
    assert (root / "dist/my_house_rules-0.1.zip").is_file()
    assert (root / "dist/my_house_rules-0.1.forum.md").is_file()
    assert (root / "output/my_little_war/map/games/my_little_war.xml").is_file()
    assert "R01   enforced  not run" in walk.output_of("report")


@pytest.mark.engine
@pytest.mark.skipif(not engine_available(), reason=ENGINE_MISSING)
def test_the_walkthrough_backs_the_house_rule_in_the_engine(tmp_path):
    """Every step but `engine gui`: the scenario passes, its control fails, the report says backed."""
    walk = _walk(tmp_path, engine=True, display=False)
    tested = walk.output_of("test")
    assert "PASS germany-buys-cheap-infantry (R01)" in tested, tested
    assert "control without R01: fails, as it should" in tested and "=> backed" in tested, tested
    report = walk.output_of("report")
    assert "R01   enforced  backed" in report, report
    assert "1 of 1 enforced rules backed by a passing scenario whose control fails" in report, report
    assert (walk.root / "dist/my_house_rules-0.1.zip").is_file()


@requires_shared
@pytest.mark.engine
@pytest.mark.skipif(_display_problem() is not None, reason=str(_display_problem()))
def test_the_walkthrough_opens_the_default_example_in_the_desktop_client(tmp_path):
    """Step 1 as written: build, then `engine gui` (the desktop client under Xvfb, one round)."""
    root = tmp_path / "repo"
    root.mkdir()
    walk = Walk(root)
    steps = walkthrough_steps()
    first_mod = next(i for i, step in enumerate(steps) if step.kind == "command" and _words(step.text)[1:2] == ["new"])
    for step in steps[:first_mod]:
        walk.run(step)
    shown = walk.output_of("engine", "gui")
    assert "exceptions: none" in shown, shown
