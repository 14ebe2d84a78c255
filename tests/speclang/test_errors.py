"""Bad input: a located message with a code and a hint, exit 2, no traceback, nothing written."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import REPO
from folders import snapshot
from generator.cli.main import main

EXAMPLE = REPO / "rules_yaml" / "frontier_1939.yaml"


CASES = {
    "malformed": (
        "info: {name: Broken, version: '1.0'\nmap: {}\n",
        "spec.yaml:2:1: error[TG020]: YAML syntax error: the {...} mapping that starts at line 1, column 7 is not "
        "closed: '}' or a ',' between entries is missing",
        "hint: close the mapping with '}' and separate its entries with ','"),
    "tab-indented": (
        "info:\n\tname: X\n",
        "spec.yaml:2:1: error[TG020]: YAML syntax error: line 2 starts with a tab; YAML indents with spaces only",
        "hint: replace the tab with spaces"),
    "unknown-section": (
        "info: {name: X, version: '1.0'}\nterritorys:\n  A: {}\n",
        "spec.yaml:2:1: error[TG030]: unknown key 'territorys' in the spec",
        "hint: did you mean 'territoryEffects'?"),
    "duplicate-key": (
        "info: {name: X, version: '1.0'}\nplayers:\n  Germans: {}\n  Russians: {}\n  Germans: {optional: true}\n",
        "spec.yaml:5:3: error[TG021]: duplicate key 'Germans' (first at line 3)",
        "hint: each key may appear once in a mapping; remove or rename one"),
    "wrong-type": (
        "info: {name: X, version: '1.0'}\nsequence: {name: oops}\n",
        "spec.yaml:2:1: error[TG031]: sequence must be a list, not a mapping",
        "hint: write sequence as '- item' lines"),
    # an entry keyed by null (~) has no name: said at its key, not by the XSD on the built game (issue 28's types)
    "null-name": (
        "info: {name: X, version: '1.0'}\nmap:\n  territories:\n    ~: {}\n",
        "spec.yaml:4:5: error[TG032]: a name in territories is missing",
        "hint: give a name in territories a value"),
    # a grid's water cell is [x, y], both needed
    "null-water-cell": (
        "info: {name: X, version: '1.0'}\nmap:\n  grids:\n  - {name: g, type: square, x: 2, y: 1, water: [[1, ~]]}\n",
        "spec.yaml:4:5: error[TG032]: water y is missing",
        "hint: give water y a value"),
}


@pytest.mark.parametrize("case", CASES)
def test_bad_spec_is_reported_and_nothing_is_written(case: str, tmp_path: Path, previous_build: Path, capsys,
                                                     monkeypatch):
    outdir = previous_build
    text, message, hint = CASES[case]
    monkeypatch.chdir(tmp_path)
    Path("spec.yaml").write_text(text, encoding="utf-8")
    before = snapshot(outdir)
    status = main(["build", "spec.yaml", "-o", str(outdir)])
    captured = capsys.readouterr()
    assert status == 2
    lines = captured.err.splitlines()
    assert lines[0] == message
    assert lines[1].strip().startswith(hint)
    assert "Traceback" not in captured.err
    assert captured.out == ""
    assert snapshot(outdir) == before
    assert not list(outdir.glob(".triplea-gen-staging-*"))


def test_all_spec_errors_are_reported_in_one_pass(tmp_path: Path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("spec.yaml").write_text(
        "info: {name: X, version: '1.0'}\nplayer: {}\nmap:\n  territory: {}\nsequence: 3\n", encoding="utf-8")
    assert main(["build", "spec.yaml", "-o", "out"]) == 2
    errors = [line for line in capsys.readouterr().err.splitlines() if ": error[" in line]
    assert errors == [
        "spec.yaml:2:1: error[TG030]: unknown key 'player' in the spec",
        "spec.yaml:4:3: error[TG030]: unknown key 'territory' in map",
        "spec.yaml:5:1: error[TG031]: sequence must be a list, not the value 3",
    ]
    assert not Path("out").exists() or not any(Path("out").iterdir())


def test_bad_xml_import_writes_nothing(tmp_path: Path, capsys):
    bad = tmp_path / "bad.xml"
    bad.write_text('<?xml version="1.0"?>\n<game>\n  <info name="x">\n</game>\n', encoding="utf-8")
    target = tmp_path / "spec.yaml"
    assert main(["import", str(bad), "-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert ": error[TG010]: XML syntax error:" in err
    assert ":4:" in err.splitlines()[0]
    assert not target.exists()


def test_missing_file(tmp_path: Path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["build", "nowhere.yaml", "-o", "out"]) == 2
    assert capsys.readouterr().err.splitlines()[0] == "nowhere.yaml: error[TG001]: file not found"
