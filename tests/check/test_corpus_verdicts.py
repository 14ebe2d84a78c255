"""Every real game XML in ../shared, file by file: `validate --engine 1.9` predicts the 1.9
parser's verdict, `validate --engine current` reports no error where the current engine loads the
game, and import then build gives the document back (issue 16).

The engines' verdicts: corpus/xml2/MANIFEST.tsv for its 30 published maps (both engines, measured
when the corpus was made); for corpus/xml and the Global 1940 games the table below, from
`triplea-gen engine check` (1.9) and the current engine's own tests, which parse those files.
Where a TripleA 2.x install is found (TRIPLEA_CURRENT_HOME), the current engine's verdicts are
also checked against its real parser (`engine check --engine current`), file by file."""
from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from canonical import first_difference, import_and_build
from conftest import CORPUS_DIR, GLOBAL_GAMES_DIR, SHARED, SHARED_MISSING, missing, requires_current_engine, requires_engine, requires_shared
from generator.check.validate import validate_file

XML2_DIR = SHARED / "corpus" / "xml2"
# corpus/xml is the current engine's own test material: 1.9 refuses all of it (no <info version>,
# no <loader>, or, for 270BC, a unit type without unitAttachment). Two files name test-only classes
# that only the current engine's test class path has.
CORPUS_XML_VERDICTS = {"1.9": "FAIL", "current": "OK"}
CURRENT_REFUSES = {"GameExample.xml": "test-only classes", "Test.xml": "test-only classes"}


def _manifest() -> dict[str, dict[str, str]]:
    path = XML2_DIR / "MANIFEST.tsv"
    if not path.is_file():
        return {}
    with path.open(encoding="utf-8", newline="") as handle:
        return {row["file"]: row for row in csv.DictReader(handle, delimiter="\t")}


def verdicts() -> list:
    """(path, 1.9 verdict, current verdict) for every file, as pytest params."""
    if not SHARED.is_dir():
        return [pytest.param(None, None, None, marks=requires_shared, id="no-shared")]
    params = []
    for path in sorted(CORPUS_DIR.glob("*.xml")):
        current = "FAIL" if path.name in CURRENT_REFUSES else CORPUS_XML_VERDICTS["current"]
        params.append(pytest.param(path, CORPUS_XML_VERDICTS["1.9"], current, id=f"xml/{path.name}"))
    for name, row in sorted(_manifest().items()):
        params.append(pytest.param(XML2_DIR / name, row["engine_1.9"], row["engine_current"], id=f"xml2/{name}"))
    for path in sorted(GLOBAL_GAMES_DIR.glob("*.xml")):
        params.append(pytest.param(path, "OK", "OK", id=f"g40/{path.name}"))
    return params


def _errors(path: Path, engine: str) -> list[str]:
    return [d.format() for d in validate_file(path, engine=engine) if d.severity == "error"]


@pytest.mark.parametrize("path, verdict_19, verdict_current", verdicts())
def test_validate_predicts_each_engine(path: Path, verdict_19: str, verdict_current: str):
    errors_19 = _errors(path, "1.9")
    assert (verdict_19 == "FAIL") == bool(errors_19), (verdict_19, errors_19[:5])
    errors_current = _errors(path, "current")
    if verdict_current == "OK":
        assert errors_current == [], errors_current[:5]
    else:
        assert errors_current, f"the current engine refuses {path.name}: {CURRENT_REFUSES.get(path.name)}"


@pytest.mark.parametrize("path, verdict_19, verdict_current", verdicts())
def test_import_then_build_gives_the_document_back(path: Path, verdict_19, verdict_current, tmp_path: Path):
    original, rebuilt = import_and_build(path, tmp_path)
    assert original == rebuilt, first_difference(original, rebuilt)


def test_the_manifest_covers_every_file_of_xml2():
    if not XML2_DIR.is_dir():
        missing(SHARED_MISSING)
    assert sorted(_manifest()) == sorted(p.name for p in XML2_DIR.glob("*.xml"))


@pytest.mark.engine_current
@requires_current_engine
def test_the_real_current_parser_gives_each_current_verdict():
    """The current engine's verdict of every file (table and manifest), and so validate's, is the
    real 2.x parser's: the game selector's parse and validation, one JVM for every file."""
    from generator.engine.harness import check_games

    cases = [param.values for param in verdicts() if param.values[0] is not None]
    if not cases:
        missing(SHARED_MISSING)
    results = check_games([path for path, _, _ in cases], engine="current")
    disagreements = [f"{path.parent.name}/{path.name}: table {verdict}, 2.x {'OK' if result.ok else 'FAIL'}"
                     f"{'' if result.ok else ' (' + result.error[:160] + ')'}"
                     for (path, _, verdict), result in zip(cases, results) if (verdict == "OK") != result.ok]
    assert disagreements == []
    refused = {path.name for (path, _, _), result in zip(cases, results) if not result.ok}
    assert set(CURRENT_REFUSES) <= refused  # the test-only classes: the real parser names them too


@requires_engine
def test_every_dtd_complaint_of_1_9_is_a_warning_at_its_line():
    """1.9 checks each game against its DTD, prints what does not fit and loads it anyway: for
    every game it loads, each complaint it prints has a warning of `validate --engine 1.9` on
    that line. One JVM for all of them."""
    from generator.engine.harness import check_games

    loaded = [param.values[0] for param in verdicts() if param.values[0] is not None and param.values[1] == "OK"]
    if not loaded:
        missing(SHARED_MISSING)
    complaints = 0
    for path, result in zip(loaded, check_games(loaded)):
        assert result.ok, (path.name, result.error)
        warned = {d.position.line for d in validate_file(path, engine="1.9") if d.severity == "warning"}
        for complaint in result.warnings:
            line = int(re.search(r"line (\d+)", complaint).group(1))
            complaints += 1
            assert line in warned, (path.name, complaint)
    assert complaints  # the corpus has some (star_trek_dilithium_war: isDisplayedFor, which 1.9 lacks)
