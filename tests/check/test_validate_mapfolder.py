"""validate --map-dir / build: the game checked against the map folder as each desktop client
reads it (generator/check/mapfolder.py, facts in generator/catalog/client.yaml)."""
from __future__ import annotations

from pathlib import Path

import pytest

from generator.catalog.client import load_client_catalog
from generator.cli.main import main
from generator.check.validate import validate_file

from conftest import GLOBAL_GAMES_DIR, GLOBAL_MAP_DIR, requires_shared
from folders import snapshot

REPO = Path(__file__).resolve().parents[2]
MINIMAL = REPO / "tests" / "fixtures" / "validate" / "minimal.xml"
PLAYERS = ("Reds", "Blues")
UNITS = ("infantry", "artillery", "fighter", "transport")
TERRITORIES = ("Alpha", "Beta", "Gamma", "Sea One", "Sea Two")
ACTION_SUFFIXES = ("BUTTON", "DESCRIPTION", "NOTIFICATION_SUCCESS", "OTHER_NOTIFICATION_SUCCESS",
                   "NOTIFICATION_FAILURE", "OTHER_NOTIFICATION_FAILURE")
# The validate fixture plus what needs texts: a notification trigger and a user action.
EXTRA_ATTACHMENTS = '''    <attachment name="triggerAttachmentRedsNotify" attachTo="Reds" javaClass="games.strategy.triplea.attachments.TriggerAttachment" type="player">
      <option name="conditions" value="conditionAttachmentRedsHoldBeta"/>
      <option name="notification" value="RedsHoldBeta"/>
      <option name="when" value="after:redsPurchase"/>
    </attachment>
    <attachment name="userActionAttachmentRedsBribe" attachTo="Reds" javaClass="games.strategy.triplea.attachments.UserActionAttachment" type="player">
      <option name="text" value="Reds_Bribe"/>
      <option name="costPU" value="1"/>
      <option name="activateTrigger" value="triggerAttachmentRedsNotify:1:false:false:false:false"/>
    </attachment>
  </attachmentList>'''


def replaced(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"not exactly once: {old!r}"
    return text.replace(old, new)


def with_new_unit(text: str, unit: str, option: str, value: str) -> str:
    """The game text with a new unit type and its unitAttachment (one option)."""
    text = replaced(text, '<unit name="transport"/>', f'<unit name="transport"/>\n    <unit name="{unit}"/>')
    return replaced(text, "  </attachmentList>",
                    f'    <attachment name="unitAttachment" attachTo="{unit}" '
                    'javaClass="games.strategy.triplea.attachments.UnitAttachment" type="unitType">\n'
                    f'      <option name="{option}" value="{value}"/>\n    </attachment>\n  </attachmentList>')


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """game.xml: the fixture with a notification trigger and a user action."""
    text = replaced(MINIMAL.read_text(encoding="utf-8"), "  </attachmentList>", EXTRA_ATTACHMENTS)
    target = tmp_path / "game.xml"
    target.write_text(text, encoding="utf-8")
    return target


@pytest.fixture
def spec(game: Path, tmp_path: Path) -> Path:
    """spec.yaml: the same game as a YAML spec."""
    assert main(["import", str(game), "-o", str(tmp_path / "spec.yaml")]) == 0
    return tmp_path / "spec.yaml"


def write_complete_folder(folder: Path) -> Path:
    """A map folder holding everything both clients read for the game; returns its content root."""
    root = folder / "map"
    (root / "games").mkdir(parents=True)
    (root / "polygons.txt").write_text("".join(f"{t}  <  (0,0) (10,0) (10,10)  >\n" for t in TERRITORIES))
    (root / "centers.txt").write_text("".join(f"{t}  (5,5)\n" for t in TERRITORIES))
    (root / "place.txt").write_text("".join(f"{t}  (5,5) (6,6)\n" for t in TERRITORIES))
    (root / "map.properties").write_text("color.Reds=FF0000\ncolor.Blues=0000FF\n")
    for player in PLAYERS:
        (root / "flags").mkdir(exist_ok=True)
        for suffix in ("", "_small", "_large"):
            (root / "flags" / f"{player}{suffix}.png").write_bytes(b"\x89PNG")
        (root / "units" / player).mkdir(parents=True)
        for unit in UNITS:
            (root / "units" / player / f"{unit}.png").write_bytes(b"\x89PNG")
    (root / "notifications.properties").write_text("RedsHoldBeta=The Reds hold Beta\n")
    (root / "politicstext.properties").write_text("".join(f"Reds_Truce.{s}=text\n" for s in ACTION_SUFFIXES))
    (root / "actionstext.properties").write_text("".join(f"Reds_Bribe.{s}=text\n" for s in ACTION_SUFFIXES))
    (folder / "map.yml").write_text("map_name: validate_fixture\ngames:\n"
                                    "- {game_name: Fixture, file_name: game.xml}\n"
                                    "- {game_name: Validate Fixture, file_name: spec.xml}\n")  # as build lists it
    return root


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    return tmp_path / "validate_fixture"


@pytest.fixture
def root(folder: Path) -> Path:
    return write_complete_folder(folder)


def map_findings(path: Path, folder: Path, engine: str) -> list[str]:
    """The map-folder diagnostics (TG170, TG4xx) of validate, formatted."""
    from generator.builder.compiler import compile_spec
    from generator.check.validate import validate_tree

    if path.suffix == ".yaml":
        compiled = compile_spec(path)
        found = validate_tree(compiled.tree, engine=engine, source=str(path), map_dir=folder,
                              position_of=compiled.position_of, game_file=compiled.game_file)
    else:
        found = validate_file(path, engine=engine, map_dir=folder)
    return [d.format() for d in found if d.code == "TG170" or d.code.startswith("TG4")]


def yaml_line(spec: Path, text: str, after: str = "") -> int:
    """The line of the first `text` in the spec (after the first `after`)."""
    source = spec.read_text(encoding="utf-8")
    start = source.index(after) if after else 0
    return source[: source.index(text, start)].count("\n") + 1


def xml_line(game: Path, text: str) -> int:
    source = game.read_text(encoding="utf-8")
    return source[: source.index(text)].count("\n") + 1


# ---------------------------------------------------------------- the catalog


def test_catalog_names_a_behaviour_and_its_source_for_each_engine():
    catalog = load_client_catalog()
    assert {"player_colour", "flag_small", "unit_image", "political_action_text", "map_yml_game"} <= set(catalog)
    colour = catalog["player_colour"]
    assert colour.rule("1.9").severity == "error" and colour.rule("current").severity == "none"
    assert "UnsupportedOperationException" in colour.rule("1.9").consequence
    small = catalog["flag_small"]
    assert small.rule("1.9").describe(player="Vichy") == (
        'IllegalStateException "Image Not Found: flags/Vichy_small.png" as the game window opens (CommentPanel)')
    assert small.rule("current").paths(player="Vichy")[-1] == (False, "flags/missing_flag.png")
    for entry in catalog.values():
        for engine in ("1.9", "current"):
            assert entry.rule(engine).source and entry.rule(engine).consequence, entry.id


# ---------------------------------------------------------------- a complete folder


@pytest.mark.parametrize("engine", ["1.9", "current"])
def test_a_complete_folder_gives_nothing(game: Path, spec: Path, folder: Path, root: Path, engine: str):
    assert map_findings(game, folder, engine) == []
    assert map_findings(spec, folder, engine) == []


# ---------------------------------------------------------------- players


def test_player_without_colour_crashes_1_9_only(spec: Path, folder: Path, root: Path):
    (root / "map.properties").write_text("color.Reds=FF0000\n")
    line = yaml_line(spec, "Blues: {optional: false}")
    assert map_findings(spec, folder, "1.9") == [
        f"{spec}:{line}:3: error[TG410]: player 'Blues' has no colour in map.properties; 1.9: "
        "java.lang.UnsupportedOperationException at MapData.getPlayerColor (it takes a colour from a fixed-size "
        "default list) as the map is drawn; a value that is not 6 hex digits throws IllegalStateException "
        "\"Player colors must be a 6 digit hex number, eg FF0011\"\n"
        f"  hint: add 'color.Blues=RRGGBB' (6 hex digits) to {root / 'map.properties'}"]
    assert map_findings(spec, folder, "current") == []  # a default colour


def test_malformed_colour(game: Path, folder: Path, root: Path):
    (root / "map.properties").write_text("color.Reds=FF0000\ncolor.Blues=blue\n")
    (found,) = map_findings(game, folder, "1.9")
    assert "error[TG410]: player 'Blues' has colour 'blue' in map.properties, not 6 hex digits" in found


def test_new_player_without_flags_crashes_both_clients(game: Path, folder: Path, root: Path):
    # s004-like: a player the map has no flags for (here: Blues' flags removed)
    for suffix in ("", "_small", "_large"):
        (root / "flags" / f"Blues{suffix}.png").unlink()
    player = xml_line(game, '<player name="Blues"')
    capital = xml_line(game, '<option name="capital" value="Blues"/>')
    assert map_findings(game, folder, "1.9") == [
        f"{game}:{player}:1: error[TG411]: player 'Blues' has no flags/Blues_small.png; 1.9: IllegalStateException "
        "\"Image Not Found: flags/Blues_small.png\" as the game window opens (CommentPanel)\n"
        f"  hint: add {root / 'flags' / 'Blues_small.png'}",
        f"{game}:{player}:1: error[TG411]: player 'Blues' has no flags/Blues.png; 1.9: IllegalStateException "
        "\"Image Not Found: flags/Blues.png\" when the politics or user action panel, the politics overview or the "
        "player chooser shows the player, or unit flags are switched on\n"
        f"  hint: add {root / 'flags' / 'Blues.png'}",
        f"{game}:{capital}:1: error[TG411]: player 'Blues' has no flags/Blues_large.png; 1.9: IllegalStateException "
        "\"Image Not Found: flags/Blues_large.png\" as the map is drawn\n"
        f"  hint: add {root / 'flags' / 'Blues_large.png'}"]
    current = map_findings(game, folder, "current")
    assert [f.split("; ")[0].split(": ", 2)[2] for f in current] == ["player 'Blues' has no flags/Blues_small.png",
                                                                     "player 'Blues' has no flags/Blues.png",
                                                     "player 'Blues' has no flags/Blues_large.png"]
    assert ('current: IllegalStateException "Image Not Found: flags/Blues_small.gif" in an error window as the game '
            'window opens (CommentPanel); the fallback flags/missing_flag.png is in no released assets set') in current[0]


def test_a_gif_flag_counts(game: Path, folder: Path, root: Path):
    (root / "flags" / "Blues_small.png").rename(root / "flags" / "Blues_small.gif")
    assert map_findings(game, folder, "current") == []


def test_no_capital_markers_means_no_large_flags(game: Path, folder: Path, root: Path):
    (root / "flags" / "Blues_large.png").unlink()
    assert len(map_findings(game, folder, "1.9")) == 1
    (root / "map.properties").write_text("color.Reds=FF0000\ncolor.Blues=0000FF\nmap.showCapitolMarkers=false\n")
    assert map_findings(game, folder, "1.9") == []


# ---------------------------------------------------------------- units


def test_unit_bought_after_a_trigger_without_image(spec: Path, folder: Path, root: Path):
    # Reds can buy artillery only once a trigger gives them the frontier that sells it
    (root / "units" / "Reds" / "artillery.png").unlink()
    line = yaml_line(spec, "frontier: productionWithArtillery")
    assert map_findings(spec, folder, "1.9") == [
        f"{spec}:{line}:5: warning[TG420]: player 'Reds' can own unit type 'artillery' (buys it once a trigger "
        "gives it the frontier) but there is no "
        "units/Reds/artillery.png; 1.9: the client logs \"MISSING IMAGE (this unit or image will be invisible): "
        "...\" and the unit is not drawn on the map\n"
        f"  hint: add {root / 'units' / 'Reds' / 'artillery.png'}"]
    (current,) = map_findings(spec, folder, "current")
    assert current.endswith("current: the unit is drawn as the engine's missing_unit_image.png in the player's "
                            f"colour, labelled with the image name\n  hint: add {root / 'units' / 'Reds' / 'artillery.png'}")


def test_current_falls_back_to_an_image_for_every_player(game: Path, folder: Path, root: Path):
    (root / "units" / "Reds" / "artillery.png").rename(root / "units" / "artillery.png")
    assert map_findings(game, folder, "current") == []
    assert len(map_findings(game, folder, "1.9")) == 1  # 1.9 looks in units/<player>/ only


def test_new_unit_bought_by_a_player_without_image(game: Path, folder: Path, root: Path):
    # a new unit type in the fixture's production frontier: both players can buy it
    text = with_new_unit(game.read_text(encoding="utf-8"), "elite_infantry", "movement", "1")
    text = replaced(text, '    <productionRule name="buyArtillery">',
                    '    <productionRule name="buyElite">\n      <cost resource="PUs" quantity="4"/>\n'
                    '      <result resourceOrUnit="elite_infantry" quantity="1"/>\n    </productionRule>\n'
                    '    <productionRule name="buyArtillery">')
    text = replaced(text, '<productionFrontier name="production">',
                    '<productionFrontier name="production">\n      <frontierRules name="buyElite"/>')
    game.write_text(text, encoding="utf-8")
    rule = xml_line(game, '<productionRule name="buyElite">')
    found = map_findings(game, folder, "1.9")
    assert [f.split("; ")[0] for f in found] == [
        f"{game}:{rule}:1: warning[TG420]: player 'Blues' can own unit type 'elite_infantry' (buys it) but there is "
        "no units/Blues/elite_infantry.png",
        f"{game}:{rule}:1: warning[TG420]: player 'Reds' can own unit type 'elite_infantry' (buys it) but there is "
        "no units/Reds/elite_infantry.png"]


# ---------------------------------------------------------------- resources


def with_resource(text: str, name: str) -> str:
    return replaced(text, '<resource name="techTokens"/>', f'<resource name="techTokens"/>\n    <resource name="{name}"/>')


def test_resource_without_icon_is_a_placeholder_in_current_and_nothing_in_1_9(game: Path, folder: Path, root: Path):
    # PUs and techTokens have icons in every 2.x install's assets; a game's own resource has none
    game.write_text(with_resource(game.read_text(encoding="utf-8"), "RGT"), encoding="utf-8")
    line = xml_line(game, '<resource name="RGT"/>')
    assert map_findings(game, folder, "current") == [
        f"{game}:{line}:1: warning[TG421]: resource 'RGT' has no resources/RGT.png; current: a grey placeholder box "
        "(20x20, light grey with a dark border and the first two letters of the name) stands for the resource in "
        "the status bar, the Economy tab and the purchase panel\n"
        f"  hint: add {root / 'resources' / 'RGT.png'} (20x20 pixels; `build` draws one for a resource the game adds)"]
    assert map_findings(game, folder, "1.9") == []  # 1.9 shows resources as text
    (root / "resources").mkdir()
    (root / "resources" / "RGT.png").write_bytes(b"\x89PNG")
    assert map_findings(game, folder, "current") == []


def test_victory_points_show_no_icon(game: Path, folder: Path, root: Path):
    game.write_text(with_resource(game.read_text(encoding="utf-8"), "VPs"), encoding="utf-8")
    assert map_findings(game, folder, "current") == []


def test_a_resource_players_buy_needs_its_large_icon(game: Path, folder: Path, root: Path):
    text = with_resource(game.read_text(encoding="utf-8"), "Grain")
    text = replaced(text, '      <result resourceOrUnit="fighter" quantity="1"/>',
                    '      <result resourceOrUnit="fighter" quantity="1"/>\n'
                    '      <result resourceOrUnit="Grain" quantity="1"/>')
    game.write_text(text, encoding="utf-8")
    (root / "resources").mkdir()
    (root / "resources" / "Grain.png").write_bytes(b"\x89PNG")
    result = xml_line(game, '<result resourceOrUnit="Grain"')
    assert map_findings(game, folder, "1.9") == [
        f"{game}:{result}:1: error[TG422]: resource 'Grain' has no resources/Grain_large.png; 1.9: "
        "IllegalStateException \"Cant load: Grain_large looking in: resources/Grain_large.png\" when the purchase "
        "panel shows the rule (its rule panel is not built)\n"
        f"  hint: add {root / 'resources' / 'Grain_large.png'} (48x48 pixels; `build` draws one for a resource the "
        "game adds)"]
    (current,) = map_findings(game, folder, "current")
    assert ": warning[TG422]: " in current and "48x48" in current


# ---------------------------------------------------------------- texts


def test_notification_without_text(spec: Path, folder: Path, root: Path):
    (root / "notifications.properties").write_text("Other=x\n")
    line = yaml_line(spec, "notification: RedsHoldBeta")
    assert map_findings(spec, folder, "1.9") == [
        f"{spec}:{line}:5: warning[TG170]: notification key 'RedsHoldBeta' is not in notifications.properties; "
        "no message is shown\n"
        f"  hint: add 'RedsHoldBeta=<the text players see>' to {root / 'notifications.properties'}"]


def test_political_action_text_missing(spec: Path, folder: Path, root: Path):
    (root / "politicstext.properties").write_text("Reds_Truce.BUTTON=Truce\nReds_Truce.DESCRIPTION=Make peace\n")
    line = yaml_line(spec, "- name: politicalActionAttachmentRedsTruce")
    assert map_findings(spec, folder, "current") == [
        f"{spec}:{line}:3: warning[TG430]: text 'Reds_Truce' has no NOTIFICATION_SUCCESS, OTHER_NOTIFICATION_SUCCESS, "
        "NOTIFICATION_FAILURE, OTHER_NOTIFICATION_FAILURE in politicstext.properties; current: the button and "
        "messages show the placeholder \"NO: Reds_Truce.<SUFFIX> set.\"\n"
        "  hint: add Reds_Truce.NOTIFICATION_SUCCESS=..., Reds_Truce.OTHER_NOTIFICATION_SUCCESS=..., "
        f"Reds_Truce.NOTIFICATION_FAILURE=..., Reds_Truce.OTHER_NOTIFICATION_FAILURE=... to "
        f"{root / 'politicstext.properties'}"]


def test_user_action_without_any_text(spec: Path, folder: Path, root: Path):
    (root / "actionstext.properties").unlink()
    line = yaml_line(spec, "- name: userActionAttachmentRedsBribe")
    (found,) = map_findings(spec, folder, "1.9")
    assert found.startswith(f"{spec}:{line}:3: warning[TG431]: text 'Reds_Bribe' has no BUTTON, DESCRIPTION, "
                            "NOTIFICATION_SUCCESS, OTHER_NOTIFICATION_SUCCESS, NOTIFICATION_FAILURE, "
                            "OTHER_NOTIFICATION_FAILURE in actionstext.properties; 1.9: the button and messages show "
                            "the placeholder \"NO: Reds_Bribe.<SUFFIX> set.\"")


# ---------------------------------------------------------------- geometry and map.yml


def test_territory_missing_from_polygons(spec: Path, folder: Path, root: Path):
    text = (root / "polygons.txt").read_text()
    (root / "polygons.txt").write_text(replaced(text, "Gamma  <  (0,0) (10,0) (10,10)  >\n", ""))
    line = yaml_line(spec, "Gamma: {}")
    expected = (f"{spec}:{line}:5: error[TG401]: territory 'Gamma' is not in polygons.txt; 1.9: IllegalStateException "
                "\"No data of type polygons for territory:Gamma\" as the game window opens\n"
                f"  hint: add a line for 'Gamma' to {root / 'polygons.txt'}")
    assert map_findings(spec, folder, "1.9") == [expected]
    (current,) = map_findings(spec, folder, "current")
    assert 'current: IllegalStateException "No data of type polygons for territory: Gamma"' in current


def test_no_polygons_file(game: Path, folder: Path, root: Path):
    (root / "polygons.txt").unlink()
    (found,) = map_findings(game, folder, "1.9")
    assert found.startswith(f"{game}:{xml_line(game, '<game')}:1: error[TG400]: the map folder has no polygons.txt; 1.9: IllegalStateException "
                            "\"Error in resource loading. Unable to load expected resource: polygons.txt, ...\"")


def test_map_yml_must_list_the_game_for_the_current_engine(game: Path, folder: Path, root: Path):
    (folder / "map.yml").write_text("map_name: validate_fixture\ngames:\n- {game_name: Other, file_name: other.xml}\n")
    assert map_findings(game, folder, "1.9") == []  # 1.9 does not read map.yml
    (found,) = map_findings(game, folder, "current")
    assert found == (
        f"{game}:{xml_line(game, '<game')}:1: error[TG402]: map.yml ({folder / 'map.yml'}) does not list 'game.xml'; current: GameParser.parse "
        "→ MapDescriptionYaml.findGameNameFromXmlFileName throws IllegalStateException \"map.yml file at: <path>, did "
        "not contain an entryfor <xml path>\" outside the parser's error handling: the game cannot be loaded\n"
        f"  hint: add '- {{game_name: <the game's name>, file_name: game.xml}}' to the games: list of "
        f"{folder / 'map.yml'}")


def test_cli_exit_status_and_json(game: Path, folder: Path, root: Path, capsys):
    (root / "flags" / "Reds_small.png").unlink()
    capsys.readouterr()
    assert main(["validate", str(game), "--engine", "1.9", "--map-dir", str(folder), "--format", "json"]) == 1
    import json

    report = json.loads(capsys.readouterr().out)
    assert [(d["code"], d["severity"]) for d in report["diagnostics"]] == [("TG411", "error")]


# ---------------------------------------------------------------- build


def test_build_into_a_map_folder_checks_it_and_writes_nothing_on_error(spec: Path, tmp_path: Path, capsys):
    out = tmp_path / "out"
    root = write_complete_folder(out / "validate_fixture")
    (root / "flags" / "Blues_small.png").unlink()
    before = snapshot(out)
    capsys.readouterr()
    assert main(["build", str(spec), "-o", str(out)]) == 1
    errors = [line for line in capsys.readouterr().err.splitlines() if "error[" in line]
    line = yaml_line(spec, "Blues: {optional: false}")
    assert errors == [f"{spec}:{line}:3: error[TG411]: player 'Blues' has no flags/Blues_small.png; current: "
                      "IllegalStateException \"Image Not Found: flags/Blues_small.gif\" in an error window as the "
                      "game window opens (CommentPanel); the fallback flags/missing_flag.png is in no released assets set"]
    assert snapshot(out) == before
    (root / "flags" / "Blues_small.png").write_bytes(b"\x89PNG")
    assert main(["build", str(spec), "-o", str(out)]) == 0
    assert (root / "games" / "spec.xml").is_file()


# ---------------------------------------------------------------- the real Global 1940 folder


@requires_shared
@pytest.mark.parametrize("engine", ["1.9", "current"])
@pytest.mark.parametrize("name", ["ww2global40_2nd_edition.xml", "ww2global42_2nd_edition.xml"])
def test_real_global_1940_games_need_nothing_more_from_their_folder(name: str, engine: str):
    assert map_findings(GLOBAL_GAMES_DIR / name, GLOBAL_MAP_DIR, engine) == []


@requires_shared
def test_a_mod_adding_a_player_to_global_1940(tmp_path: Path):
    # s004-like: Vichy added to the real game; the real folder has neither its colour nor its flags
    text = (GLOBAL_GAMES_DIR / "ww2global40_2nd_edition.xml").read_text(encoding="utf-8")
    first_player = text[text.index("<player name="):].split("\n", 1)[0]
    copy = tmp_path / "vichy.xml"  # only the XML is copied; the real folder is read in place
    copy.write_text(replaced(text, first_player, first_player + '\n    <player name="Vichy" optional="false"/>'),
                    encoding="utf-8")
    found = map_findings(copy, GLOBAL_MAP_DIR, "1.9")
    messages = [f.split("; ")[0].split(": ", 2)[2] for f in found]
    assert messages == ["player 'Vichy' has no colour in map.properties",
                        "player 'Vichy' has no flags/Vichy_small.png",
                        "player 'Vichy' has no flags/Vichy.png"]
    assert all(": error[" in f for f in found)  # and nothing about map.yml: 1.9 does not read it


def test_infrastructure_can_be_captured_by_the_other_alliance(game: Path, folder: Path, root: Path):
    # a factory only the Reds start with: the Blues (another alliance, with a move step) can take it
    text = with_new_unit(game.read_text(encoding="utf-8"), "factory", "isInfrastructure", "true")
    text = replaced(text, '      <unitPlacement unitType="transport"',
                    '      <unitPlacement unitType="factory" territory="Alpha" quantity="1" owner="Reds"/>\n'
                    '      <unitPlacement unitType="transport"')
    game.write_text(text, encoding="utf-8")
    (root / "units" / "Reds" / "factory.png").write_bytes(b"\x89PNG")
    placed = xml_line(game, '<unitPlacement unitType="factory"')
    assert [f.split("; ")[0] for f in map_findings(game, folder, "1.9")] == [
        f"{game}:{placed}:1: warning[TG420]: player 'Blues' can own unit type 'factory' (captures it from Reds) but "
        "there is no units/Blues/factory.png"]
