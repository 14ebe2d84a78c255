"""TG412: a player's stacking cap that 2.x never applies (it lists only unit types the player never
has; 1.9 counts them against every unit the player moves or places). Found by running s003's
keep-apart scenarios in TripleA 2.x (issue 26)."""
from __future__ import annotations

from pathlib import Path

from lxml import etree

from generator.check.stacking import caps_without_effect
from generator.check.validate import validate_tree
from tests.conftest import REPO, build_game

GAME = """<game>
  <production>
    <productionRule name="buyTank"><cost resource="PUs" quantity="5"/><result resourceOrUnit="tank" quantity="1"/></productionRule>
    <productionFrontier name="redFrontier"><frontierRules name="buyTank"/></productionFrontier>
    <playerProduction player="Reds" frontier="redFrontier"/>
  </production>
  <attachmentList>
    <attachment name="playerAttachment" attachTo="Blues" javaClass="PlayerAttachment" type="player">
      <option name="placementLimit" value="total:tank" count="0"/>
      <option name="movementLimit" value="owned:infantry" count="3"/>
    </attachment>
    <attachment name="playerAttachment" attachTo="@Players@" javaClass="PlayerAttachment" type="player">
      <option name="placementLimit" value="total:tank" count="0"/>
    </attachment>
    <attachment name="playerAttachment" attachTo="Blues" javaClass="PlayerAttachment" type="player">
      <option name="placementLimit" value="total:$Vehicles$" count="0"/>
    </attachment>
    <attachment name="playerAttachment" attachTo="Reds" javaClass="PlayerAttachment" type="player">
      <option name="placementLimit" value="total:tank:infantry" count="2"/>
    </attachment>
  </attachmentList>
  <initialize><unitInitialize><unitPlacement unitType="infantry" territory="A" quantity="1" owner="Blues"/>
  </unitInitialize></initialize>
</game>"""


def test_a_cap_on_types_the_player_never_has_is_found():
    found = [(player, name, listed) for _, player, name, listed in caps_without_effect(etree.fromstring(GAME))]
    # Blues never has a tank (Reds buy them): 2.x ignores that cap; its own infantry cap and Reds'
    # cap (Reds buy tanks) work in both engines; caps with variables (@Players@, $Vehicles$) stand
    # for what the engine expands, not judged.
    assert found == [("Blues", "placementLimit", ["tank"])]


def test_validate_warns_for_the_current_engine_only(tmp_path: Path, monkeypatch):
    game = build_game(REPO / "rules_yaml" / "s003_manchuria_1945.yaml", tmp_path / "out")
    tree = etree.parse(str(game))
    current = [d for d in validate_tree(tree, engine="current", source=str(game)) if d.code == "TG412"]
    assert current and all(d.severity == "warning" for d in current)
    assert any("placementLimit of Nationalists lists only unit types Nationalists never has (ru_inf_army" in d.message
               for d in current)
    assert not [d for d in validate_tree(tree, engine="1.9", source=str(game)) if d.code == "TG412"]
