"""Mods as overlays on a base game (first slice of the rule language)."""
from __future__ import annotations

from pathlib import Path

from lxml import etree

from conftest import GLOBAL_GAMES_DIR, PLAIN_GAME, SHARED, build_game, requires_shared
from textedit import replaced
from generator.cli.main import main

EXAMPLE = PLAIN_GAME

MOD = """\
mod:
  name: Frontier Rebalanced
  version: "1.1"
  base: {BASE}
change:
  units:
    armour: {cost: 5, attack: 4}
  territories:
    Warsaw: {production: 4, owner: Germans}
  players:
    Italians: {optional: true}
  properties:
    Total Victory: true
    Low Luck: true
  attachments:
    - name: triggerAttachment_Russians_Mobilisation
      attachTo: Russians
      options: {resourceCount: 9}
add:
  map:
    territories:
      Crimea: {}
    connections:
      - [Crimea, Kiev]
  attachments:
    - {name: territoryAttachment, attachTo: Crimea, class: TerritoryAttachment, type: territory,
       options: {production: 1}}
remove:
  connections:
    - [Minsk, Leningrad]
"""


def _build(spec: Path, out: Path) -> etree._Element:
    return etree.parse(str(build_game(spec, out))).getroot()


def _options(root, name: str, attach_to: str) -> list[tuple]:
    attachment = root.find(f"attachmentList/attachment[@name='{name}'][@attachTo='{attach_to}']")
    return [(o.get("name"), o.get("value"), o.get("count")) for o in attachment]


def test_mod_states_only_the_difference(tmp_path: Path):
    spec = tmp_path / "rebalanced.yaml"
    spec.write_text(replaced(MOD, "{BASE}", str(EXAMPLE)))
    root = _build(spec, tmp_path / "out")
    assert root.find("info").attrib == {"name": "Frontier Rebalanced", "version": "1.1"}
    assert [(c.get("resource"), c.get("quantity")) for c in
            root.findall("production/productionRule[@name='buyArmour']/cost")] == [("PUs", "5")]
    assert ("attack", "4", None) in _options(root, "unitAttachment", "armour")
    assert ("attack", "3", None) not in _options(root, "unitAttachment", "armour")
    assert _options(root, "territoryAttachment", "Warsaw")[0] == ("production", "4", None)
    owners = {o.get("territory"): o.get("owner") for o in root.iter("territoryOwner")}
    assert owners["Warsaw"] == "Germans"
    assert root.find("playerList/player[@name='Italians']").get("optional") == "true"
    low_luck = root.find("propertyList/property[@name='Low Luck']")
    assert low_luck.get("value") == "true" and low_luck.find("boolean") is not None
    assert ("resourceCount", "9", None) in _options(root, "triggerAttachment_Russians_Mobilisation", "Russians")
    connections = {frozenset((c.get("t1"), c.get("t2"))) for c in root.iter("connection")}
    assert frozenset(("Crimea", "Kiev")) in connections
    assert frozenset(("Minsk", "Leningrad")) not in connections
    assert root.find("map/territory[@name='Crimea']") is not None


def test_unknown_names_in_a_mod_point_at_the_yaml_line(tmp_path: Path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = replaced(MOD, "{BASE}", str(EXAMPLE))
    for old, new in (("armour: {cost", "armor: {cost"), ("Warsaw: {production", "Warsau: {production"),
                     ("[Minsk, Leningrad]", "[Minsk, Moscow Region]")):
        text = replaced(text, old, new)
    Path("mod.yaml").write_text(text)
    assert main(["build", "mod.yaml", "-o", "out"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "mod.yaml:7:5: error[TG051]: the base game has no unit type 'armor'",
        "  hint: did you mean 'armour'?",
        "mod.yaml:9:5: error[TG051]: the base game has no territory 'Warsau'",
        "  hint: did you mean 'Warsaw'?",
        "mod.yaml:30:7: error[TG051]: the base game has no connection between 'Minsk' and 'Moscow Region'",
        "  hint: Minsk connects to: Kiev, Leningrad, Smolensk, Warsaw",
    ]
    assert not Path("out").exists()


def test_missing_base_says_where_it_looked(tmp_path: Path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TRIPLEA_MAPS", str(tmp_path / "maps"))
    Path("mod.yaml").write_text("mod:\n  name: X\n  base: {map: no_such_map, game: g.xml}\n")
    assert main(["build", "mod.yaml", "-o", "out"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "mod.yaml:3:3: error[TG050]: base game not found: no_such_map/g.xml"
    assert "no_such_map" in err[1] and "TRIPLEA_MAPS" in err[1]


@requires_shared
def test_mod_of_global_1940_found_through_triplea_maps(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    spec = tmp_path / "cheap_cruisers.yaml"
    spec.write_text("mod:\n  name: Cheap Cruisers\n  base: {map: world_war_ii_global, game: "
                    "ww2global40_2nd_edition.xml}\nchange:\n  units:\n    cruiser: {cost: 11}\n")
    root = _build(spec, tmp_path / "out")
    assert root.find("production/productionRule[@name='buyCruiser']/cost").get("quantity") == "11"
    base = etree.parse(str(GLOBAL_GAMES_DIR / "ww2global40_2nd_edition.xml")).getroot()
    assert len(root.findall("attachmentList/attachment")) == len(base.findall("attachmentList/attachment"))
    assert (tmp_path / "out" / "world_war_ii_global" / "map" / "games" / "cheap_cruisers.xml").is_file()


def test_a_change_edits_the_attachment_the_engine_keeps(tmp_path: Path):
    """Two territoryAttachments on one territory: the engine keeps the later one, so a mod edits that one."""
    base = tmp_path / "base.yaml"
    base.write_text(replaced(
        EXAMPLE.read_text(),
        "  - {name: territoryAttachment, attachTo: Warsaw, class: TerritoryAttachment, type: territory,\n"
        "     options: {production: 3, victoryCity: 1}}\n",
        "  - {name: territoryAttachment, attachTo: Warsaw, class: TerritoryAttachment, type: territory,\n"
        "     options: {production: 3, victoryCity: 1}}\n"
        "  - {name: territoryAttachment, attachTo: Warsaw, class: TerritoryAttachment, type: territory,\n"
        "     options: {production: 5}}\n"))
    spec = tmp_path / "mod.yaml"
    spec.write_text(f"mod:\n  name: M\n  base: {base}\nchange:\n  territories:\n    Warsaw: {{production: 7}}\n")
    root = _build(spec, tmp_path / "out")
    warsaw = root.findall("attachmentList/attachment[@name='territoryAttachment'][@attachTo='Warsaw']")
    assert [[(o.get("name"), o.get("value")) for o in a] for a in warsaw] == [
        [("production", "3"), ("victoryCity", "1")], [("production", "7")]]


# --- per-player prices (issue 27.11) ----------------------------------------------------------------------------

def _frontiers(root: etree._Element) -> dict[str, list[str]]:
    return {f.get("name"): [r.get("name") for r in f.iterfind("frontierRules")]
            for f in root.iterfind("production/productionFrontier")}


def _costs(root: etree._Element) -> dict[str, str]:
    return {r.get("name"): ",".join(f"{c.get('resource')}={c.get('quantity')}" for c in r.iterfind("cost"))
            for r in root.iterfind("production/productionRule")}


def test_a_player_price_derives_its_own_frontier(tmp_path: Path):
    """Germany's cheaper infantry without copying the whole frontier: the others keep the shared one."""
    spec = tmp_path / "prices.yaml"
    spec.write_text(f"""\
mod: {{name: Prices, base: {EXAMPLE}}}
change:
  players:
    Germans: {{prices: {{infantry: 2, armour: {{PUs: 5}}}}}}
""", encoding="utf-8")
    root = _build(spec, tmp_path / "out")
    frontiers = _frontiers(root)
    assert frontiers["production_Germans"] == [
        name.replace("buyInfantry", "buyInfantry_Germans").replace("buyArmour", "buyArmour_Germans")
        for name in frontiers["production"]]
    costs = _costs(root)
    assert (costs["buyInfantry"], costs["buyInfantry_Germans"]) == ("PUs=3", "PUs=2")
    assert (costs["buyArmour"], costs["buyArmour_Germans"]) == ("PUs=6", "PUs=5")
    players = {p.get("player"): p.get("frontier") for p in root.iterfind("production/playerProduction")}
    assert players == {"Germans": "production_Germans", "Russians": "production", "Italians": "production"}
    assert main(["validate", str(build_game(spec, tmp_path / "out2")), "--engine", "1.9"]) == 0


def test_a_second_price_for_the_same_player_reuses_its_frontier(tmp_path: Path):
    spec = tmp_path / "prices.yaml"
    spec.write_text(f"""\
mod: {{name: Prices, base: {EXAMPLE}}}
change:
  players:
    Germans: {{prices: {{infantry: 2}}}}
rules:
  - id: R1
    text: German infantry costs 1 from now on.
    change: {{players: {{Germans: {{prices: {{infantry: 1, fighter: 9}}}}}}}}
""", encoding="utf-8")
    root = _build(spec, tmp_path / "out")
    assert [name for name in _frontiers(root) if name.startswith("production")] == ["production", "production_Germans"]
    costs = _costs(root)
    assert (costs["buyInfantry_Germans"], costs["buyFighter_Germans"], costs["buyFighter"]) == ("PUs=1", "PUs=9", "PUs=10")


def test_a_price_the_frontier_cannot_take_is_located(tmp_path: Path, capsys):
    spec = tmp_path / "prices.yaml"
    spec.write_text(f"""\
mod: {{name: Prices, base: {EXAMPLE}}}
add:
  units: [militia]
  attachments:
    - {{name: unitAttachment, attachTo: militia, class: UnitAttachment, type: unitType, options: {{movement: 1}}}}
change:
  players:
    Germans:
      prices:
        militia: 1
        infantri: 2
""", encoding="utf-8")
    assert main(["build", str(spec), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"{spec}:10:9: error[TG221]: Germans's production frontier production_Germans has no rule buying one " \
           "'militia'" in err
    assert f"{spec}:11:9: error[TG051]: the base game has no unit type 'infantri'" in err
