"""The TG code registry (generator/core/codes.py) against the code that raises the codes and the
README tables that document them: a code used but undeclared, a row that disagrees with the
registry, or a warning raised as an error fails here."""
from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

from generator.core import codes
from generator.core.codes import _ALL, CODES, ERROR, GEOMETRY, INPUT, VALIDATION, WARNING, Code
from generator.core.codetables import begin_marker, rewritten, table
from generator.core.diagnostics import Collector, Diagnostic, MisreportedSeverity, Position, UnregisteredCode

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "generator"
CODE_TEXT = re.compile(r"TG[0-9]{3}\Z")
SECTIONS = (INPUT, VALIDATION, GEOMETRY)


def _python_files() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _code_literals(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE_TEXT.match(node.value):
            yield node


def used_codes() -> dict[str, list[str]]:
    """Every TG code written as a string in the package, with where."""
    found = defaultdict(list)
    for path in _python_files():
        for node in _code_literals(ast.parse(path.read_text(encoding="utf-8"))):
            found[node.value].append(f"{path.relative_to(REPO)}:{node.lineno}")
    return found


# ---------------------------------------------------------------- how the package raises a code

def _constant_codes(trees) -> dict[str, str]:
    """NAME -> code for module constants such as BAD_VALUE = "TG508" (names bound to one code only)."""
    seen = defaultdict(set)
    for tree in trees:
        for node in ast.walk(tree):
            if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                    and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
                    and CODE_TEXT.match(node.value.value)):
                seen[node.targets[0].id].add(node.value.value)
    return {name: codes.pop() for name, codes in seen.items() if len(codes) == 1}


def _code_of(node: ast.AST, constants: dict[str, str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE_TEXT.match(node.value):
        return node.value
    name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
    return constants.get(name)


def _literal_severity(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Constant) and node.value in (ERROR, WARNING):
        return node.value
    return None


def raised_severities() -> dict[str, dict[str, list[str]]]:
    """code -> severity -> where, for the calls whose severity the source states: collector.error/warning,
    Diagnostic(...) with a literal severity (or none: error) and report("warning", code, ...)."""
    parsed = {path: ast.parse(path.read_text(encoding="utf-8")) for path in _python_files()}
    constants = _constant_codes(parsed.values())
    found = defaultdict(lambda: defaultdict(list))
    for path, tree in parsed.items():
        for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
            func = call.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            code = severity = None
            if name in (ERROR, WARNING) and call.args:
                code, severity = _code_of(call.args[0], constants), name
            elif name == "Diagnostic" and call.args:
                given = {k.arg: k.value for k in call.keywords}.get("severity")
                if given is None and len(call.args) > 4:
                    given = call.args[4]
                code = _code_of(call.args[0], constants)
                severity = ERROR if given is None else _literal_severity(given)
            elif name == "report" and len(call.args) > 1:
                code, severity = _code_of(call.args[1], constants), _literal_severity(call.args[0])
            if code and severity:
                found[code][severity].append(f"{path.relative_to(REPO)}:{call.lineno}")
    return found


# ---------------------------------------------------------------- tests

def test_the_registry_declares_each_code_once_in_order():
    codes = [entry.code for entry in _ALL]
    assert len(codes) == len(set(codes)) == len(CODES)
    assert codes == sorted(codes)
    for entry in _ALL:
        assert CODE_TEXT.match(entry.code), entry
        assert entry.severity in (ERROR, WARNING), entry
        assert entry.section in SECTIONS, entry
        assert entry.meaning and "\n" not in entry.meaning, entry


def test_every_code_the_package_uses_is_registered():
    unregistered = {code: where for code, where in used_codes().items() if code not in CODES}
    assert not unregistered


def test_every_registered_code_is_still_used():
    assert not sorted(set(CODES) - set(used_codes()))


def test_the_readme_code_tables_are_the_ones_the_registry_makes():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert rewritten(text) == text, "README.md's code tables differ: run python -m generator.core.codetables --readme"


def test_every_code_has_one_row_in_the_table_of_its_section():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    for entry in _ALL:
        row = f"| {entry.code} | {entry.severity + ' | ' if entry.section == VALIDATION else ''}{entry.meaning} |"
        assert text.count(f"| {entry.code} |") == 1, entry
        assert row in table(entry.section), entry


def test_a_code_added_to_the_registry_shows_in_the_rewritten_readme(monkeypatch):
    text = (REPO / "README.md").read_text(encoding="utf-8")
    added = Code("TG999", WARNING, VALIDATION, "a made-up code")
    monkeypatch.setattr(codes, "_ALL", codes._ALL + (added,))
    assert "| TG999 | warning | a made-up code |" in rewritten(text)


def test_a_readme_without_a_tables_markers_is_refused():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="Validation codes"):
        rewritten(text.replace(begin_marker(VALIDATION), ""))


def test_codes_are_raised_at_their_registered_severity():
    problems = []
    for code, by_severity in sorted(raised_severities().items()):
        entry = CODES.get(code)
        if entry is None:
            continue  # reported by test_every_code_the_package_uses_is_registered
        other = set(by_severity) - {entry.severity}
        if other and not entry.mixed:
            problems.append(f"{code} is registered as {entry.severity} but raised as {other.pop()} at "
                            f"{', '.join(by_severity[WARNING if entry.severity == ERROR else ERROR])}")
    assert not problems, "\n".join(problems)


def test_the_severity_reader_sees_the_ways_codes_are_raised():
    found = raised_severities()
    assert set(found["TG014"]) == {WARNING}  # collector.warning("TG014", ...)
    assert set(found["TG080"]) == {WARNING}  # Diagnostic(..., "warning")
    assert set(found["TG040"]) == {ERROR}  # Diagnostic(...) without a severity
    assert set(found["TG513"]) == {ERROR, WARNING}  # r.error(v.BAD_CONNECTION, ...), through the constant
    assert len(found) > 100


def test_mixed_codes_are_raised_at_both_severities_or_say_why_not():
    """A code marked mixed whose other severity is nowhere readable must say in its meaning when it
    is raised so (the severity is then chosen at run time, e.g. by the target engine)."""
    found = raised_severities()
    for entry in (e for e in _ALL if e.mixed):
        other = WARNING if entry.severity == ERROR else ERROR
        assert other in found.get(entry.code, {}) or other in entry.meaning, entry


@pytest.mark.parametrize("make", [
    lambda: Diagnostic("TG999", "made up", Position("a.yaml", 1, 1)),
    lambda: Collector().error("TG998", "made up", Position("a.yaml")),
    lambda: Collector().warning("TG1000", "made up", Position("a.yaml")),
], ids=["diagnostic", "collector-error", "collector-warning"])
def test_an_unregistered_code_is_refused_when_the_diagnostic_is_made(make):
    with pytest.raises(UnregisteredCode, match="not declared in generator/core/codes.py"):
        make()


def test_a_registered_code_is_made_as_before():
    found = Diagnostic("TG030", "unknown key 'nmae'", Position("a.yaml", 2, 3), "did you mean 'name'?")
    assert found.format() == "a.yaml:2:3: error[TG030]: unknown key 'nmae'\n  hint: did you mean 'name'?"
    assert isinstance(CODES["TG030"], Code)


def test_no_second_code_table_in_the_package():
    """core/codes.py alone maps codes to wording or severity: no other module may hold a dict of codes."""
    tables = []
    for path in _python_files():
        if path.name in ("codes.py",):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict) and node.keys and sum(
                    isinstance(k, ast.Constant) and isinstance(k.value, str) and bool(CODE_TEXT.match(k.value))
                    for k in node.keys) >= 3:
                tables.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert not tables


@pytest.mark.parametrize("make", [
    lambda: Collector().error("TG014", "a warning code reported as an error", Position("a.yaml")),
    lambda: Collector().warning("TG030", "an error code reported as a warning", Position("a.yaml")),
    lambda: Diagnostic("TG080", "a warning code made as an error", Position("a.yaml"), "", "error"),
], ids=["error-of-a-warning", "warning-of-an-error", "diagnostic"])
def test_a_severity_the_registry_does_not_give_is_refused(make):
    with pytest.raises(MisreportedSeverity, match="registered as"):
        make()


def test_the_severity_comes_from_the_registry():
    assert Diagnostic("TG014", "extra", Position("a.xml")).severity == WARNING
    assert Diagnostic("TG030", "unknown", Position("a.yaml")).severity == ERROR
    out = Collector()
    out.report("TG080", "kept", Position("a.yaml"))
    out.report("TG031", "shape", Position("a.yaml"))
    assert [d.severity for d in out.diagnostics] == [WARNING, ERROR]
    # a mixed code is reported at either
    assert Diagnostic("TG512", "left out", Position("m.yaml"), "", WARNING).severity == WARNING


def test_the_kinds_of_names_are_declared_once():
    from generator.catalog.grammar import NAME_KINDS, REFERENCE_KINDS

    assert all(REFERENCE_KINDS[kind] == NAME_KINDS[kind] for kind in REFERENCE_KINDS)
    assert all(CODES[code].section == VALIDATION for code, _ in NAME_KINDS.values())
