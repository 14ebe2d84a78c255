"""A normal (non-editable) install works: the wheel is built from a copy of the sources,
installed into a fresh virtual environment outside the checkout, and that install builds the
default example, a Global 1940 mod and a `new` game, and plays a scenario.

Everything the tool reads besides Python (the templates/ folder, mapped into the package as
generator/templates, the catalog, the schema, the engine's Java sources) must be in the wheel:
an editable install or PYTHONPATH hides a missing file, because the checkout is still there.
The dependencies come from the environment running the tests (a .pth file names the folders
they are installed in), so only the wheel's own build needs a package index or pip's cache.
"""
from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import GLOBAL_MAP_DIR, REPO, SHARED_MISSING, missing, requires_engine

# What a wheel is built from: the project's own files (no .venv, output/ or tests/).
SOURCES = ("generator", "templates", "pyproject.toml", "setup.py", "README.md")
DEPENDENCIES = ("lxml", "jinja2", "pyyaml", "xmlschema", "shapely", "pillow", "numpy")

G40_MOD = """\
mod:
  name: Wheel Check
  version: "1.0"
  base: {map: world_war_ii_global, game: ww2global40_2nd_edition.xml}
  engine: "1.9"
change:
  units:
    cruiser: {cost: 11}
rules:
  - id: R1
    text: China collects 3 PUs while Yunnan is Allied-controlled at the end of its turn.
    use: national_objective
    with: {player: Chinese, amount: 3, allied_owns: [Yunnan]}
scenarios:
  - id: china-collects-for-yunnan
    rule: R1
    given: {round: 1, step: chinesePlace}
    play: {until: {step: endRoundStep}}
    expect:
      - history: "Objective R1: Chinese met a national objective for an additional 3 PUs"
"""


def _run(args: list, cwd: Path, env: dict | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    done = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(map(str, args))} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


def _can_build_without_isolation() -> bool:
    """The running environment has a build backend: no package index needed for the wheel."""
    return all(importlib.util.find_spec(name) for name in ("setuptools", "wheel"))


def _build_wheel(work: Path) -> Path:
    source = work / "src"
    source.mkdir()
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in SOURCES:
        path = REPO / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=ignore)
        else:
            shutil.copy2(path, source / name)
    isolation = ["--no-build-isolation"] if _can_build_without_isolation() else []
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", *isolation, "-w", work / "dist", source], cwd=work)
    (wheel,) = (work / "dist").glob("triplea_gen-*.whl")
    return wheel


def _dependency_folders() -> list[str]:
    """The folders the running interpreter imports the dependencies from."""
    folders = []
    for name in DEPENDENCIES:
        folder = str(importlib.metadata.distribution(name).locate_file(""))
        if folder not in folders:
            folders.append(folder)
    return folders


def _fresh_venv(work: Path, wheel: Path) -> Path:
    venv = work / "venv"
    _run([sys.executable, "-m", "venv", venv], cwd=work)
    python = venv / "bin" / "python"
    site = _run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=work).stdout.strip()
    # A plain folder line: the folder goes on sys.path after the venv's own site-packages, and
    # the .pth files inside it (an editable install of this checkout) are not run.
    Path(site, "_test_dependencies.pth").write_text("\n".join(_dependency_folders()) + "\n", encoding="utf-8")
    _run([python, "-m", "pip", "install", "-q", "--no-index", "--find-links", wheel.parent, "--no-deps",
          "--force-reinstall", wheel], cwd=work)
    return venv


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path, dict]:
    """(the fresh venv, a work folder outside the checkout, the environment to run it in)."""
    if not _can_build_without_isolation() and os.environ.get("PIP_NO_INDEX"):
        pytest.fail("no build backend installed and no package index allowed: cannot build the wheel")
    work = tmp_path_factory.mktemp("wheel")
    wheel = _build_wheel(work)
    venv = _fresh_venv(work, wheel)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["XDG_CACHE_HOME"] = str(work / "cache")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    run_dir = work / "run"
    run_dir.mkdir()
    return venv, run_dir, env


def test_the_wheel_holds_every_file_the_tool_reads(tmp_path):
    wheel = _build_wheel(tmp_path)
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {f"generator/{p.relative_to(REPO).as_posix()}" for p in sorted((REPO / "templates").rglob("*")) if p.is_file()}
    package = REPO / "generator"
    for pattern in ("*.yaml", "*.xsd", "*.java", "*.json"):
        expected |= {f"generator/{p.relative_to(package).as_posix()}" for p in package.rglob(pattern)}
    missing = sorted(expected - names)
    assert expected and not missing, f"{len(missing)} files missing from the wheel, the first: {missing[:3]}"


def test_the_installed_wheel_is_the_one_imported(installed):
    venv, run_dir, env = installed
    where = _run([venv / "bin" / "python", "-c", "import generator; print(generator.__file__)"], run_dir, env).stdout
    assert Path(where.strip()).is_relative_to(venv), where
    assert not Path(where.strip()).is_relative_to(REPO), where


def test_the_installed_wheel_builds_the_default_example(installed):
    venv, run_dir, env = installed
    out = run_dir / "frontier"
    _run([venv / "bin" / "triplea-gen", "build", REPO / "rules_yaml" / "frontier_1939.yaml", "-o", out], run_dir, env)
    assert (out / "frontier_1939" / "map" / "games" / "frontier_1939.xml").is_file()
    assert (out / "frontier_1939" / "map.yml").is_file()


def test_the_installed_wheel_scaffolds_and_builds_a_new_game(installed):
    venv, run_dir, env = installed
    _run([venv / "bin" / "triplea-gen", "new", "wheel_game", "-d", run_dir / "specs"], run_dir, env)
    (spec,) = (run_dir / "specs").glob("wheel_game*.yaml")
    _run([venv / "bin" / "triplea-gen", "build", spec, "-o", run_dir / "new"], run_dir, env)
    assert list((run_dir / "new").glob("*/map/games/*.xml"))


def _g40_mod(run_dir: Path) -> Path:
    if not GLOBAL_MAP_DIR.is_dir():
        missing(SHARED_MISSING)
    spec = run_dir / "wheel_check.yaml"
    spec.write_text(G40_MOD, encoding="utf-8")
    return spec


def test_the_installed_wheel_builds_a_global_1940_mod(installed):
    venv, run_dir, env = installed
    spec = _g40_mod(run_dir)
    env = {**env, "TRIPLEA_MAPS": str(GLOBAL_MAP_DIR.parent)}
    _run([venv / "bin" / "triplea-gen", "build", spec, "-o", run_dir / "g40"], run_dir, env)
    assert list((run_dir / "g40").glob("*/map/games/wheel_check.xml"))


@pytest.mark.engine
@requires_engine
def test_the_installed_wheel_plays_a_scenario(installed):
    venv, run_dir, env = installed
    spec = _g40_mod(run_dir)
    env = {**env, "TRIPLEA_MAPS": str(GLOBAL_MAP_DIR.parent)}
    done = _run([venv / "bin" / "triplea-gen", "test", spec, "--no-control", "--jobs", "1", "-o", run_dir / "test"],
                run_dir, env)
    assert "PASS china-collects-for-yunnan" in done.stdout, done.stdout
