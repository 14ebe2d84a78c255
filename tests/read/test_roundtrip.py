"""Import then build must give back every real game XML's content (issue: lossless round-trip)."""
from __future__ import annotations

from pathlib import Path

import pytest

from canonical import canonical_file, first_difference, import_and_build
from conftest import xml_params
from textedit import replaced
from generator.cli.main import main


@pytest.mark.parametrize("xml_path", xml_params())
def test_import_then_build_is_lossless(xml_path: Path, tmp_path: Path, capsys):
    spec = tmp_path / f"{xml_path.stem}.yaml"
    assert main(["import", str(xml_path), "-o", str(spec)]) == 0
    # validation is tested on its own; two corpus fixtures use test-only classes the engine refuses
    assert main(["build", str(spec), "-o", str(tmp_path / "out"), "--skip-validation"]) == 0
    built = list((tmp_path / "out").glob("*/map/games/*.xml"))
    assert (tmp_path / "out" / built[0].relative_to(tmp_path / "out").parts[0] / "map.yml").is_file()
    assert len(built) == 1, built
    original, rebuilt = canonical_file(xml_path), canonical_file(built[0])
    assert original == rebuilt, first_difference(original, rebuilt)
    # the importer reports nothing for real maps: every element is understood
    err = capsys.readouterr().err
    assert "TG014" not in err and "TG015" not in err


# ---------------------------------------------------------------- verbatim extras (issue 16)

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "validate" / "minimal.xml"


def _with(old: str, new: str) -> str:
    text = FIXTURE.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    return text.replace(old, new)


def test_unknown_content_is_kept_at_its_place(tmp_path: Path, capsys):
    text = _with('<territory name="Beta"/>',
                 '<territory name="Beta" colour="red"/>\n    <note about="Beta">keep me</note>')
    text = replaced(text, "  </attachmentList>", '    "&gt;\n  </attachmentList>', 1)
    source = tmp_path / "game.xml"
    source.write_text(text, encoding="utf-8")
    spec = tmp_path / "game.yaml"
    assert main(["import", str(source), "-o", str(spec)]) == 0
    err = capsys.readouterr().err
    assert "TG014" in err and "TG015" in err and "kept verbatim" in err
    written = spec.read_text(encoding="utf-8")
    assert "- {at: 'map[1]/territory[2]', attributes: {colour: red}}" in written
    assert "- {at: 'map[1]', after: 2, xml: <note about=\"Beta\">keep me</note>}" in written
    assert main(["build", str(spec), "-o", str(tmp_path / "out"), "--skip-validation"]) == 0
    (built,) = (tmp_path / "out").glob("*/map/games/*.xml")
    original, rebuilt = canonical_file(source), canonical_file(built)
    assert original == rebuilt, first_difference(original, rebuilt)
    # the same spec builds to the same bytes
    assert main(["build", str(spec), "-o", str(tmp_path / "again"), "--skip-validation"]) == 0
    (again,) = (tmp_path / "again").glob("*/map/games/*.xml")
    assert again.read_bytes() == built.read_bytes()


def test_misplaced_known_elements_are_kept_where_they_were(tmp_path: Path):
    # a unit placement after the held units: the form would move it before them, so it stays verbatim
    text = _with('<heldUnits unitType="artillery" player="Blues" quantity="1"/>',
                 '<heldUnits unitType="artillery" player="Blues" quantity="1"/>\n'
                 '      <unitPlacement unitType="infantry" territory="Beta" quantity="1" owner="Reds"/>')
    source = tmp_path / "game.xml"
    source.write_text(text, encoding="utf-8")
    original, rebuilt = import_and_build(source, tmp_path)
    assert original == rebuilt, first_difference(original, rebuilt)


def test_diagnostics_of_a_spec_with_extras_point_at_its_yaml(tmp_path: Path, capsys):
    text = _with('<territory name="Beta"/>', '<territory name="Beta"/>\n    <note/>')
    text = replaced(text, '<unitPlacement unitType="infantry" territory="Gamma"',
                    '<unitPlacement unitType="infantri" territory="Gamma"', 1)
    source = tmp_path / "game.xml"
    source.write_text(text, encoding="utf-8")
    spec = tmp_path / "game.yaml"
    assert main(["import", str(source), "-o", str(spec)]) == 0
    capsys.readouterr()
    assert main(["build", str(spec), "-o", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    lines = spec.read_text(encoding="utf-8").splitlines()
    reported = [line for line in err.splitlines() if "TG122" in line]
    assert reported, err
    line = int(reported[0].split(":")[1])
    assert "infantri" in lines[line - 1], (reported[0], lines[line - 1])


def test_a_broken_extra_is_an_error_at_its_yaml_line(tmp_path: Path, capsys):
    source = tmp_path / "game.xml"
    source.write_text(_with('<territory name="Beta"/>', '<territory name="Beta"/>\n    <note/>'), encoding="utf-8")
    spec = tmp_path / "game.yaml"
    assert main(["import", str(source), "-o", str(spec)]) == 0
    text = spec.read_text(encoding="utf-8")
    assert "xml: <note/>" in text
    spec.write_text(text.replace("xml: <note/>", "xml: <note>"), encoding="utf-8")
    capsys.readouterr()
    assert main(["build", str(spec), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    line = text.splitlines().index(next(row for row in text.splitlines() if "xml: <note/>" in row)) + 1
    assert f"game.yaml:{line}:" in err and "TG031" in err, err
