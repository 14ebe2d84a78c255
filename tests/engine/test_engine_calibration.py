"""Issue 16: each construct the engines treat differently, in a small game of our own, with
the engines' verdicts beside the validator's.

`ENGINE_19` is what Debian's 1.9 parser does (checked by running it: test_the_1_9_parser_agrees);
`CURRENT` is what the current engine does, read from its source (triplea-game/triplea,
game-app/game-core/.../gameparser/GameParser.java, lib/xml-reader XmlParser, the attachments'
validate methods): it cannot run here. An error is what makes an engine refuse the game, a
warning what loads but is skipped or misbehaves."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from canonical import first_difference, import_and_build
from conftest import REPO, requires_engine
from generator.read.safexml import parse_xml_bytes
from generator.check.validate import validate_tree

MINIMAL = REPO / "tests" / "fixtures" / "validate" / "minimal.xml"
FIGHTER_MOVES = '<option name="movement" value="4"/>'
INFANTRY_MOVES = '<option name="movement" value="1"/>\n      <option name="attack" value="1"/>'
NON_COMBAT_STEP = '<stepProperty name="removeAirThatCanNotLand" value="true"/>'
EFFECT_OPTIONS = ('<option name="combatDefenseEffect" value="infantry:artillery" count="1"/>\n'
                  '      <option name="noBlitz" value="artillery"/>\n    ')


@dataclass(frozen=True)
class Construct:
    name: str
    edits: tuple[tuple[str, str], ...]  # (fixture text, replacement), each text found exactly once
    engine_19: str  # OK or FAIL: the 1.9 parser's verdict
    current: str  # OK or FAIL: the current engine's verdict (from its source)
    code: str | None  # the code the validator gives it
    severity_19: str | None  # error / warning / None (nothing reported for 1.9)
    severity_current: str | None

    def text(self) -> str:
        text = MINIMAL.read_text(encoding="utf-8")
        for old, new in self.edits:
            assert text.count(old) == 1, f"fixture text not unique: {old!r}"
            text = text.replace(old, new)
        return text


CONSTRUCTS = [
    # both load a property with an empty name (current: skips only a missing name)
    Construct("empty property name",
              (('<property name="East Economic Victory" value="40" editable="false"/>',
                '<property name="" value="false" editable="true"><boolean/></property>'),),
              "OK", "OK", None, None, None),
    # a missing name: current skips the property (GameParser.parseProperties), 1.9 stores ""
    Construct("property without name",
              (('<property name="East Economic Victory" value="40" editable="false"/>',
                '<property value="40" editable="false"/>'),),
              "OK", "OK", "TG158", "warning", "warning"),
    # both read only direct <step> children of <sequence>
    Construct("step inside a step",
              ((NON_COMBAT_STEP, NON_COMBAT_STEP + '\n        <step name="redsExtra" delegate="move" player="Reds"/>'),),
              "OK", "OK", "TG107", "warning", "warning"),
    Construct("player inside attachmentList",
              (("  </attachmentList>", '    <player name="Greens"/>\n  </attachmentList>'),),
              "OK", "OK", "TG107", "warning", "warning"),
    Construct("text inside attachmentList",
              (("  </attachmentList>", '    "&gt;\n  </attachmentList>'),),
              "OK", "OK", "TG107", "warning", "warning"),
    # current: GameParser skips an option whose value is null; 1.9 hands "" to the setter and fails
    Construct("option without value",
              ((FIGHTER_MOVES, FIGHTER_MOVES + '\n      <option name="attack" false="true"/>'),),
              "FAIL", "OK", "TG108", "error", "warning"),
    # UnitAttachment.validate: 1.9 forbids transportCapacity on land units, the current engine does not
    Construct("land unit with transportCapacity",
              ((INFANTRY_MOVES, INFANTRY_MOVES + '\n      <option name="transportCapacity" value="2"/>'),),
              "FAIL", "OK", "TG106", "error", None),
    # ... and both forbid canBlitz on an air unit
    Construct("air unit with canBlitz",
              ((FIGHTER_MOVES, FIGHTER_MOVES + '\n      <option name="canBlitz" value="true"/>'),),
              "FAIL", "FAIL", "TG106", "error", "error"),
    # 1.9's DTD: IDs share one namespace; it prints the complaint and loads the game
    Construct("production frontier named like a production rule",
              (('    <playerProduction player="Reds"',
                '    <productionFrontier name="buyFighter">\n      <frontierRules name="buyFighter"/>\n'
                '    </productionFrontier>\n    <playerProduction player="Reds"'),),
              "OK", "OK", "TG109", "warning", None),
    Construct("territory effect name with a space",
              (('<territoryEffect name="mountain"/>', '<territoryEffect name="high mountain"/>'),
               ('attachTo="mountain"', 'attachTo="high mountain"'),
               ('<option name="territoryEffect" value="mountain"/>', '<option name="territoryEffect" value="high mountain"/>')),
              "OK", "OK", "TG109", "warning", None),
    Construct("territory effect attachment without options",
              ((EFFECT_OPTIONS, ""),),
              "OK", "OK", "TG109", "warning", None),
    # 1.9: getSingleChild("info") refuses two; the current engine keeps one
    Construct("a second info",
              (('<loader javaClass', '<info name="Validate Fixture Again" version="1.1"/>\n  <loader javaClass'),),
              "FAIL", "OK", "TG157", "error", "warning"),
    # 1.9: Integer.parseInt("") fails; the current engine reads a missing int as 0
    Construct("unit placement without quantity",
              (('<unitPlacement unitType="infantry" territory="Gamma" quantity="4" owner="Blues"/>',
                '<unitPlacement unitType="infantry" territory="Gamma" owner="Blues"/>'),),
              "FAIL", "OK", "TG159", "error", "warning"),
]


def _found(text: str, engine: str):
    tree = parse_xml_bytes(text.encode("utf-8"), "game.xml")
    return validate_tree(tree, engine=engine, source="game.xml")


@pytest.mark.parametrize("construct", CONSTRUCTS, ids=lambda c: c.name)
@pytest.mark.parametrize("engine", ["1.9", "current"])
def test_the_validator_says_what_the_engine_does(construct: Construct, engine: str):
    found = _found(construct.text(), engine)
    verdict = construct.engine_19 if engine == "1.9" else construct.current
    severity = construct.severity_19 if engine == "1.9" else construct.severity_current
    errors = [d for d in found if d.severity == "error"]
    # an error exactly where the engine refuses the game
    assert bool(errors) == (verdict == "FAIL"), [d.format() for d in errors]
    mine = [d for d in found if d.code == construct.code]
    if severity is None:
        assert mine == [], [d.format() for d in mine]
    else:
        assert mine and all(d.severity == severity for d in mine), [d.format() for d in found]
        assert all(d.position.line > 0 for d in mine)  # at the element's line


def test_the_fixture_itself_is_clean():
    for engine in ("1.9", "current"):
        assert _found(MINIMAL.read_text(encoding="utf-8"), engine) == []


@pytest.mark.parametrize("construct", CONSTRUCTS, ids=lambda c: c.name)
def test_every_construct_survives_import_and_build(construct: Construct, tmp_path: Path):
    source = tmp_path / "game.xml"
    source.write_text(construct.text(), encoding="utf-8")
    original, rebuilt = import_and_build(source, tmp_path)
    assert original == rebuilt, first_difference(original, rebuilt)


@requires_engine
def test_the_1_9_parser_agrees(tmp_path: Path):
    """One JVM for every construct: the real 1.9 parser's verdict is the one the table states."""
    from generator.engine.harness import check_games

    paths = []
    for index, construct in enumerate(CONSTRUCTS):
        path = tmp_path / f"construct_{index}.xml"
        path.write_text(construct.text(), encoding="utf-8")
        paths.append(path)
    results = check_games(paths)
    for construct, result in zip(CONSTRUCTS, results):
        assert ("OK" if result.ok else "FAIL") == construct.engine_19, (construct.name, result.error)
        if construct.code in ("TG109", None):
            # every complaint 1.9's DTD check prints is one TG109, and there is no other
            dtd = [d for d in _found(construct.text(), "1.9") if d.code == "TG109"]
            assert len(result.warnings) == len(dtd), (construct.name, result.warnings, [d.format() for d in dtd])


def test_unknown_attributes_are_warnings_and_cost_linear_time(tmp_path: Path):
    """Both engines ignore attributes they do not read (1.9 prints a DTD complaint): a warning
    per element, with the declared names. 3,000 of them on one element validate in under a second
    (the speed relies on h-xml's schema change as well as on game.xsd taking any attribute)."""
    import time

    text = MINIMAL.read_text(encoding="utf-8")
    flood = " ".join(f'a{i}="x"' for i in range(3000))
    assert text.count('<info name="') == 1 and text.count(FIGHTER_MOVES) == 1
    text = text.replace('<info name="', f'<info {flood} name="').replace(
        FIGHTER_MOVES, FIGHTER_MOVES.replace("<option ", f"<option {flood} "))
    path = tmp_path / "flooded.xml"
    path.write_text(text, encoding="utf-8")
    _found(MINIMAL.read_text(encoding="utf-8"), "current")  # schema and catalog loaded
    for engine in ("current", "1.9"):
        started = time.perf_counter()
        found = _found(text, engine)
        elapsed = time.perf_counter() - started
        assert elapsed < 1.0, elapsed
        assert [d.severity for d in found] == ["warning", "warning"], [d.format() for d in found]
        assert all(d.code == "TG183" and "a0=, a1=" in d.message and "2995 more" in d.message for d in found)
        assert [d.position.line for d in found] == [
            text[: text.index(marker)].count("\n") + 1 for marker in ("<info ", f"<option {flood}")]


def test_a_misspelt_attribute_gets_the_declared_name_as_hint():
    text = MINIMAL.read_text(encoding="utf-8")
    assert text.count('<player name="Reds" optional="false"/>') == 1
    text = text.replace('<player name="Reds" optional="false"/>', '<player name="Reds" optinal="false"/>')
    for engine in ("current", "1.9"):
        (found,) = _found(text, engine)
        assert (found.code, found.severity) == ("TG183", "warning")
        assert "optinal=" in found.message and "optional" in found.hint
