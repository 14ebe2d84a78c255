"""The package's layout holds: a folder per stage, imports only downwards, no import cycle,
and a README in every stage folder. Read from the code's own import statements (every one,
also those inside functions), so a new arrow running back up fails here."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "generator"

# The data flow, from the bottom up; a folder may import its own folder and any folder before it.
# Beneath every stage: `core` (diagnostics, caches), the engines' facts (`catalog`) and the data that
# flows (`model`), with the tools of every stage (`render`'s templates, `mapgen`'s geometry, the
# `engine` installs). Then a spec goes read → spec and overlays → rules and macros → check → write
# → package (`builder`), played by `scenarios`, driven by `cli`. Nothing downstream is imported
# upstream: `write` reads no spec and expands no rule, the load phase (`speclang`) knows no map folder.
FOUNDATION = [("core",), ("catalog", "model"), ("render", "mapgen")]
DATA_FLOW = [("read",), ("engine",), ("speclang",), ("rules",), ("check",), ("write",), ("builder",), ("scenarios",),
             ("balance",), ("cli",), ("lsp",)]  # engine: the installed engines' files, read like any other input
LAYERS = FOUNDATION + DATA_FLOW
RANK = {folder: rank for rank, folders in enumerate(LAYERS) for folder in folders}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py")) if "__pycache__" not in p.parts}


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Modules of the package that a module imports (a name imported from a package counts as
    the submodule when there is one)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            for alias in node.names:
                target = f"{base}.{alias.name}"
                found.add(target if target in known else base)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {module for module in found if module in known and module != name}


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, set(modules)) for name, path in modules.items()}


def _folder(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and (PACKAGE / parts[1]).is_dir()) else None


def test_every_folder_is_a_known_stage_with_a_readme():
    folders = sorted(p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__")
    assert folders == sorted(RANK)
    missing = [f for f in folders if not (PACKAGE / f / "README.md").is_file()]
    assert not missing, f"stage folders without a README.md: {missing}"


def test_imports_only_go_down_the_stages():
    upward = []
    for module, targets in _graph().items():
        source = _folder(module)
        for target in targets:
            destination = _folder(target)
            if source and destination and RANK[destination] > RANK[source]:
                upward.append(f"{module} imports {target}")
    assert not upward, "imports that run back up:\n" + "\n".join(sorted(upward))


@pytest.mark.parametrize("source, destination", [("write", "speclang"), ("write", "rules"), ("speclang", "write"),
                                                 ("speclang", "check"), ("rules", "check"), ("catalog", "check")])
def test_no_stage_imports_one_the_data_reaches_later(source, destination):
    """The arrows the data flow forbids, named: writing reads no spec and expands no rule, loading a
    spec knows no map folder and no validator, the engine's facts sit beneath all of them."""
    arrows = sorted(f"{module} imports {target}" for module, targets in _graph().items() for target in targets
                    if _folder(module) == source and _folder(target) == destination)
    assert not arrows, "\n".join(arrows)


def test_no_import_cycle():
    graph = _graph()
    cycles = []
    state: dict[str, int] = {}

    def visit(module: str, trail: list[str]) -> None:
        state[module] = 1
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                cycles.append(" -> ".join(trail[trail.index(target):] + [target]))
            elif target not in state:
                visit(target, trail + [target])
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert not cycles, "import cycles:\n" + "\n".join(cycles)


@pytest.mark.parametrize("arrow", ["generator.cli.main -> generator.cli.buildserver",
                                   "generator.model.game -> generator.builder.pipeline"])
def test_the_checks_see_a_cycle_and_an_upward_import(arrow, tmp_path, monkeypatch):
    """The detectors themselves work: an extra arrow of either kind is found."""
    source, target = arrow.split(" -> ")
    graph = _graph()
    graph[source] = graph[source] | {target}
    monkeypatch.setattr(sys.modules[__name__], "_graph", lambda: graph)
    check = test_no_import_cycle if _folder(source) == _folder(target) else test_imports_only_go_down_the_stages
    with pytest.raises(AssertionError):
        check()


def test_the_tests_mirror_the_package():
    """A test folder per stage folder (tests/<stage>/ tests generator/<stage>/), besides the
    examples (rules_yaml/), the red-team tests of hostile input across stages and the fixtures."""
    tests = PACKAGE.parent / "tests"
    folders = {p.name for p in tests.iterdir() if p.is_dir() and p.name != "__pycache__"}
    stages = {p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert stages <= folders, f"stages without tests: {sorted(stages - folders)}"
    assert folders - stages <= {"examples", "redteam", "fixtures", "golden", "benchmarks"}, sorted(folders - stages)
    assert not list(tests.glob("test_*.py")), "test modules belong in the folder of the stage they test"


def test_every_test_folder_is_collected():
    """pytest leaves out folders named like build output (build/, dist/) unless told otherwise:
    every test module of every stage must be in the run."""
    import subprocess

    tests = PACKAGE.parent / "tests"
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                          cwd=PACKAGE.parent, capture_output=True, text=True, timeout=120)
    collected = {line.split("::")[0] for line in done.stdout.splitlines() if "::" in line}
    modules = {p.relative_to(PACKAGE.parent).as_posix() for p in tests.rglob("test_*.py")}
    assert modules <= collected, f"never collected: {sorted(modules - collected)}"
