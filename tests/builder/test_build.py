"""Building specs: determinism, escaping, the default example, output layout."""
from __future__ import annotations

from pathlib import Path

import yaml
from lxml import etree

from canonical import canonical_file, first_difference
from conftest import REPO, build_game
from generator.cli.main import main

EXAMPLE = REPO / "rules_yaml" / "frontier_1939.yaml"

MINIMAL = """\
info: {name: Escapes, version: "1.0"}
loader: games.strategy.triplea.TripleA
map:
  territories:
    'Fish & Chips <Bay>': {}
    "Cape \\"Quote\\" O'Neil": {water: true}
  connections:
    - ['Fish & Chips <Bay>', "Cape \\"Quote\\" O'Neil"]
players:
  'Smith & Sons': {}
alliances:
  '<Axis> & "Friends"': ['Smith & Sons']
delegates:
  init: {class: InitializationDelegate}
sequence:
  - {name: gameInit, delegate: init, maxRunCount: 1}
attachments:
  - name: territoryAttachment
    attachTo: 'Fish & Chips <Bay>'
    class: TerritoryAttachment
    type: territory
    options:
      production: 2
      capital: 'Smith & Sons'
properties:
  mapName: {value: escapes}
  notes: {text: "<b>bold</b> & 'quoted' \\"text\\"\\nsecond line"}
  Odd value: {value: "a\\tb\\nc & d"}
"""


def test_building_twice_gives_identical_bytes(tmp_path: Path):
    first = build_game(EXAMPLE, tmp_path / "a").read_bytes()
    second = build_game(EXAMPLE, tmp_path / "b").read_bytes()
    assert first == second


def test_importing_twice_gives_identical_yaml(tmp_path: Path):
    built = build_game(EXAMPLE, tmp_path / "a")
    assert main(["import", str(built), "-o", str(tmp_path / "one.yaml")]) == 0
    assert main(["import", str(built), "-o", str(tmp_path / "two.yaml")]) == 0
    assert (tmp_path / "one.yaml").read_bytes() == (tmp_path / "two.yaml").read_bytes()


def test_default_example_layout_and_content(tmp_path: Path, capsys):
    built = build_game(EXAMPLE, tmp_path)
    assert built.relative_to(tmp_path).as_posix() == "frontier_1939/map/games/frontier_1939.xml"
    printed = {Path(line).relative_to(tmp_path).as_posix() for line in capsys.readouterr().out.splitlines()}
    # The whole map folder the desktop client reads, not just the game XML.
    for part in ("map/games/frontier_1939.xml", "map.yml", "map/polygons.txt", "map/centers.txt", "map/place.txt",
                 "map/map.properties", "map/objectives.properties", "map/notifications.properties", "map/baseTiles/0_0.png", "map/flags/Russians_small.png",
                 "map/units/Italians/infantry.png"):
        assert f"frontier_1939/{part}" in printed, part
    listing = yaml.safe_load((tmp_path / "frontier_1939" / "map.yml").read_text())
    assert listing == {"map_name": "frontier_1939",
                       "games": [{"game_name": "Frontier 1939", "file_name": "frontier_1939.xml"}]}
    root = etree.parse(str(built)).getroot()
    assert len(root.findall("map/territory")) == 22  # 16 land regions, 4 seas, 2 impassable neutrals
    assert [p.get("name") for p in root.findall("playerList/player")] == ["Germans", "Russians", "Italians"]
    trigger = root.find("attachmentList/attachment[@name='triggerAttachment_Russians_Mobilisation']")
    assert {o.get("name"): o.get("value") for o in trigger} == {
        "conditions": "conditionAttachment_Russians_First_Round", "when": "before:russiansPurchase",
        "players": "Russians", "resource": "PUs", "resourceCount": "6", "uses": "1"}
    objective = root.find("attachmentList/attachment[@name='objectiveAttachment_Germans_1_Hold_Warsaw']")
    assert [(o.get("name"), o.get("value"), o.get("count")) for o in objective] == [
        ("objectiveValue", "5", None), ("directOwnershipTerritories", "Warsaw", "1")]


def test_special_characters_survive_a_round_trip(tmp_path: Path):
    spec = tmp_path / "escapes.yaml"
    spec.write_text(MINIMAL, encoding="utf-8")
    built = build_game(spec, tmp_path / "out")
    root = etree.parse(str(built)).getroot()
    names = [t.get("name") for t in root.findall("map/territory")]
    assert names == ["Fish & Chips <Bay>", "Cape \"Quote\" O'Neil"]
    assert root.find("playerList/alliance").get("alliance") == '<Axis> & "Friends"'
    capital = root.find("attachmentList/attachment/option[@name='capital']")
    assert capital.get("value") == "Smith & Sons"
    assert root.find("propertyList/property[@name='notes']/value").text == \
        "<b>bold</b> & 'quoted' \"text\"\nsecond line"
    assert root.find("propertyList/property[@name='Odd value']").get("value") == "a\tb\nc & d"
    # and back again: XML -> YAML -> XML keeps every character
    assert main(["import", str(built), "-o", str(tmp_path / "again.yaml")]) == 0
    rebuilt = build_game(tmp_path / "again.yaml", tmp_path / "out2")
    assert canonical_file(built) == canonical_file(rebuilt), first_difference(
        canonical_file(built), canonical_file(rebuilt))
