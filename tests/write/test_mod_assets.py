"""A mod's build holds what the desktop clients read for its new players, units and texts:
colours, flags and unit images derived from the real Global 1940 map folder, and text files that
cover every key the game uses while keeping every line of the map's own files."""
from __future__ import annotations

import io
import re
from pathlib import Path

import numpy
import pytest
from lxml import etree
from PIL import Image

from conftest import GLOBAL_MAP_DIR, REPO, SHARED, requires_shared
from textedit import replaced
from generator.cli.main import main
from generator.read.propfile import property_line, read_properties
from generator.write.modfolder.texts import objectives_prefix

pytestmark = requires_shared

BASE = GLOBAL_MAP_DIR / "map"
FIXTURE = REPO / "tests" / "fixtures" / "g40_player_ready.yaml"
ACTION_SUFFIXES = ("BUTTON", "DESCRIPTION", "NOTIFICATION_SUCCESS", "NOTIFICATION_FAILURE",
                   "OTHER_NOTIFICATION_SUCCESS", "OTHER_NOTIFICATION_FAILURE", "ACCEPT_QUESTION")


@pytest.fixture(autouse=True)
def _maps(monkeypatch):
    monkeypatch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))


def _build(spec: Path, out: Path) -> Path:
    assert main(["build", str(spec), "-o", str(out)]) == 0
    return out / "world_war_ii_global" / "map"


@pytest.fixture(scope="module")
def s004(tmp_path_factory) -> Path:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
        return _build(REPO / "rules_yaml" / "s004_corrupting_g40.yaml", tmp_path_factory.mktemp("s004"))


@pytest.fixture(scope="module")
def s001(tmp_path_factory) -> Path:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
        return _build(REPO / "rules_yaml" / "s001_kaihlhac_balance.yaml", tmp_path_factory.mktemp("s001"))


def _game(folder: Path, name: str) -> etree._Element:
    return etree.parse(str(folder / "games" / name)).getroot()


def _players(root) -> list[str]:
    return [p.get("name") for p in root.iter("player")]


def _colour(folder: Path, player: str) -> str | None:
    for source in (folder / "map.properties", BASE / "map.properties"):
        if source.is_file():
            value = read_properties(source.read_bytes()).get(f"color.{player}")
            if value:
                return value
    return None


def _has(folder: Path, relpath: str) -> bool:
    return (folder / relpath).is_file() or (BASE / relpath).is_file()


def _base_keeps(folder: Path, name: str) -> None:
    """The merged file starts with the base file's bytes, so every base line is still there."""
    base = (BASE / name).read_bytes()
    merged = (folder / name).read_bytes()
    assert merged.startswith(base if base.endswith(b"\n") else base + b"\n")


# --- colours and flags ---------------------------------------------------------------------------

def test_s004_vichy_gets_a_colour_and_every_flag_the_clients_load(s004):
    base_colours = {v.upper() for k, v in read_properties((BASE / "map.properties").read_bytes()).items()
                    if k.startswith("color.")}
    colour = _colour(s004, "Vichy")
    assert colour is not None and re.fullmatch(r"[0-9A-F]{6}", colour) and colour not in base_colours
    for suffix in ("", "_small", "_large", "_fade"):
        image = Image.open(s004 / "flags" / f"Vichy{suffix}.png")
        reference = BASE / "flags" / f"French{suffix}.png"
        if reference.is_file():  # the map's own sizes
            assert image.size == Image.open(reference).size
    _base_keeps(s004, "map.properties")


def test_s001_every_player_has_a_colour_and_a_small_flag(s001):
    root = _game(s001, "s001_kaihlhac_balance.xml")
    colours = {}
    for player in _players(root):
        colours[player] = _colour(s001, player)
        assert colours[player], player  # 1.9: UnsupportedOperationException in MapData.getPlayerColor
        assert _has(s001, f"flags/{player}_small.png"), player  # 1.9: Image Not Found in CommentPanel
    new = [p for p in colours if not (BASE / "flags" / f"{p}.png").is_file()]
    assert len(new) >= 10 and "Vichy" in new
    assert len({colours[p] for p in new}) == len(new)  # the new players can be told apart


# --- unit images ---------------------------------------------------------------------------------

def _frontier_units(root) -> dict[str, set[str]]:
    results = {rule.get("name"): {r.get("resourceOrUnit") for r in rule.iter("result")}
               for rule in root.iter("productionRule")}
    frontiers = {f.get("name"): set().union(*(results.get(r.get("name"), set()) for r in f.iter("frontierRules")))
                 for f in root.iter("productionFrontier")}
    owned: dict[str, set[str]] = {}
    for entry in root.iter("playerProduction"):
        owned.setdefault(entry.get("player"), set()).update(frontiers.get(entry.get("frontier"), set()))
    for placement in root.iter("unitPlacement"):
        owned.setdefault(placement.get("owner") or "Neutral", set()).add(placement.get("unitType"))
    return owned


@pytest.mark.parametrize("build, game", [("s004", "s004_corrupting_g40.xml"), ("s001", "s001_kaihlhac_balance.xml")])
def test_every_unit_a_player_buys_or_starts_with_has_an_image(build, game, request):
    folder = request.getfixturevalue(build)
    root = _game(folder, game)
    units = {u.get("name") for u in root.iter("unitType")}
    missing = [f"{player}/{unit}" for player, owned in _frontier_units(root).items() for unit in owned & units
               if not _has(folder, f"units/{player}/{unit}.png")]
    assert not missing  # 1.9 logs MISSING IMAGE and draws nothing
    for player in _players(root):  # a new player may come to own any unit type
        if not (BASE / "units" / player).is_dir():
            assert all(_has(folder, f"units/{player}/{unit}.png") for unit in units), player


def test_derived_unit_images_are_recoloured_copies_of_the_base_map_images(s004):
    french = Image.open(BASE / "units" / "French" / "infantry.png")
    vichy = Image.open(s004 / "units" / "Vichy" / "infantry.png")
    assert vichy.size == french.size
    assert vichy.convert("RGBA").tobytes() != french.convert("RGBA").tobytes()
    # the same outline: transparent exactly where the base image is
    assert vichy.getchannel("A").tobytes() == french.convert("RGBA").getchannel("A").tobytes()
    # the damaged look comes along where the base map has one
    assert (s004 / "units" / "Vichy" / "factory_major_hit.png").is_file()


def test_a_new_unit_type_is_derived_from_the_named_unit_with_a_badge(tmp_path):
    folder = _build(FIXTURE, tmp_path / "out")
    germans = Image.open(BASE / "units" / "Germans" / "infantry.png").convert("RGBA")
    elite = Image.open(folder / "units" / "Germans" / "elite_infantry.png").convert("RGBA")
    assert elite.size == germans.size
    # the German colours are kept (same player) and only the top-right badge differs
    width, height = germans.size
    badge = (width // 2, 0, width, height // 2)
    lower = (0, height // 2, width, height)
    assert elite.crop(lower).tobytes() == germans.crop(lower).tobytes()
    assert elite.crop(badge).tobytes() != germans.crop(badge).tobytes()
    assert not (folder / "units" / "Chinese" / "elite_infantry.png").exists()  # China cannot buy it


def test_assets_choose_colour_flag_and_drawn_images(tmp_path, capsys):
    spec = tmp_path / "looks.yaml"
    text = FIXTURE.read_text()
    spec.write_text(replaced(text, "    elite_infantry: {image: {from: infantry, mark: E}}\n",
                             "    elite_infantry: {image: drawn}\n  players:\n"
                             "    Germans: {color: '123456'}\n", 1))
    assert spec.read_text() != text
    folder = _build(spec, tmp_path / "out")
    elite = Image.open(folder / "units" / "Germans" / "elite_infantry.png").convert("RGBA")
    germans = Image.open(BASE / "units" / "Germans" / "infantry.png").convert("RGBA")
    assert elite.getchannel("A").tobytes() != germans.getchannel("A").tobytes()  # a counter, not the soldier
    # Germans have a colour in the map already: the map's entry is never changed, and the spec hears so
    assert not (folder / "map.properties").exists()
    assert re.search(r"looks\.yaml:\d+:\d+: warning\[TG456\]: Germans has the colour 5a5a5a", capsys.readouterr().err,
                     re.IGNORECASE)


# --- texts ---------------------------------------------------------------------------------------

def _keys(root, class_name: str, option: str) -> set[str]:
    return {o.get("value") for a in root.iter("attachment") if a.get("javaClass", "").endswith(class_name)
            for o in a.iter("option") if o.get("name") == option}


@pytest.mark.parametrize("build, game", [("s004", "s004_corrupting_g40.xml"), ("s001", "s001_kaihlhac_balance.xml")])
def test_text_files_cover_every_key_and_keep_every_base_line(build, game, request):
    folder = request.getfixturevalue(build)
    root = _game(folder, game)
    for name, class_name, option, suffixes in (
            ("politicstext.properties", "PoliticalActionAttachment", "text", ACTION_SUFFIXES),
            ("actionstext.properties", "UserActionAttachment", "text", ACTION_SUFFIXES),
            ("notifications.properties", "TriggerAttachment", "notification", ("",))):
        keys = _keys(root, class_name, option)
        source = folder / name if (folder / name).is_file() else BASE / name
        texts = read_properties(source.read_bytes()) if source.is_file() else {}
        missing = [key + ("." + s if s else "") for key in keys for s in suffixes
                   if key + ("." + s if s else "") not in texts]
        assert not missing, (name, missing[:5])
        if (BASE / name).is_file() and (folder / name).is_file():
            _base_keeps(folder, name)


def test_s001_user_actions_and_political_actions_all_get_texts(s001):
    root = _game(s001, "s001_kaihlhac_balance.xml")
    actions = read_properties((s001 / "actionstext.properties").read_bytes())
    assert len(_keys(root, "UserActionAttachment", "text")) == 8
    assert all(not value.startswith("NO:") and value for value in actions.values())
    politics = read_properties((s001 / "politicstext.properties").read_bytes())
    assert len(_keys(root, "PoliticalActionAttachment", "text")) == 34
    assert politics["S001_R05_Spain_War.BUTTON"] == "Declare war on Neutral Spain"


def test_spec_texts_and_rule_texts_are_written(tmp_path):
    folder = _build(FIXTURE, tmp_path / "out")
    actions = read_properties((folder / "actionstext.properties").read_bytes())
    assert actions["PR_War_Bonds.BUTTON"] == "Sell war bonds"
    assert actions["PR_War_Bonds.NOTIFICATION_FAILURE"] == "Failed: Sell war bonds"  # from the spec's button
    politics = read_properties((folder / "politicstext.properties").read_bytes())
    assert politics["PR_Mongolia.BUTTON"] == "Invade Mongolia"
    notes = read_properties((folder / "notifications.properties").read_bytes())
    assert notes["PR_Elite_Ready"] == "<body>Germany's elite infantry stands ready in Berlin.</body>"
    for name in ("politicstext.properties", "notifications.properties", "objectives.properties"):
        _base_keeps(folder, name)


def test_objectives_are_listed_under_the_mods_game_name(s004):
    """1.9's Objectives tab reads only keys that start with the game's name."""
    prefix = objectives_prefix("Corrupting Global 1940")
    assert prefix == "Corrupting_Global_1940."
    objectives = read_properties((s004 / "objectives.properties").read_bytes())
    groups = [k for k in objectives if k.startswith(prefix + "TABLEGROUP.")]
    listed = {name for k in groups for name in objectives[k].split(";")}
    assert "objectiveAttachment_S004_R23_Vichy_Income" in listed
    assert objectives[prefix + "Germans;objectiveAttachment_Germans_3_Control_Caucasus"] == \
        "<b>5 PUs</b> if Axis controls the Caucasus."  # the base's own text, re-keyed


def test_same_spec_twice_gives_the_same_bytes_and_a_rebuild_changes_nothing(tmp_path):
    first, second = _build(FIXTURE, tmp_path / "a"), _build(FIXTURE, tmp_path / "b")
    files = sorted(p.relative_to(first).as_posix() for p in first.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(second).as_posix() for p in second.rglob("*") if p.is_file())
    assert all((first / f).read_bytes() == (second / f).read_bytes() for f in files)
    before = {f: (first / f).read_bytes() for f in files}
    _build(FIXTURE, tmp_path / "a")
    assert {f: (first / f).read_bytes() for f in files} == before


# --- the spec sections' errors -------------------------------------------------------------------

@pytest.mark.parametrize("section, code, line", [
    ("assets:\n  players:\n    Vichyy: {color: 123456}\n", "TG450", 3),
    ("assets:\n  units:\n    marines: {image: {from: infantry}}\n", "TG451", 3),
    ("assets:\n  players:\n    Germans: {color: red}\n", "TG452", 3),
    ("assets:\n  units:\n    infantry: {image: {from: armour, mark: TOOLONG}}\n", "TG455", 3),
    ("assets:\n  units:\n    infantry: {image: painted}\n", "TG455", 3),
    ("assets:\n  unit:\n    infantry: {image: drawn}\n", "TG030", 2),
])
def test_bad_assets_are_reported_at_their_line(tmp_path, capsys, section, code, line):
    spec = tmp_path / "bad.yaml"
    spec.write_text("mod:\n  name: Bad\n  base: {map: world_war_ii_global, game: ww2global40_2nd_edition.xml}\n"
                    + section.replace("\n", "\n", 1))
    assert main(["build", str(spec), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert re.search(rf"bad\.yaml:{line + 3}:\d+: error\[{code}\]", err), err
    assert "hint:" in err and not (tmp_path / "out").exists()


def test_a_text_for_a_key_the_game_does_not_use_is_a_warning(tmp_path, capsys):
    spec = tmp_path / "typo.yaml"
    text = FIXTURE.read_text()
    spec.write_text(replaced(text, "    PR_Elite_Ready: ", "    PR_Elite_Redy: ", 1))
    assert main(["build", str(spec), "-o", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert re.search(r"typo\.yaml:\d+:\d+: warning\[TG454\].*PR_Elite_Redy", err) and "PR_Elite_Ready" in err


# --- properties files ----------------------------------------------------------------------------

@pytest.mark.parametrize("key, value", [("a b=c", " leading space"), ("k:x", "é ü \u4e2d #!"),
                                        ("plain", "line\nbreak\\ and tab\t"), ("e", "")])
def test_written_properties_read_back_as_java_reads_them(key, value):
    assert read_properties(property_line(key, value).encode("latin-1")) == {key: value}


def test_properties_reader_knows_continuations_comments_and_separators():
    data = b"# comment\n! other\nkey1 = one \\\n    two\nkey2:three\nkey3 four\n\\#notcomment=5\n"
    assert read_properties(data) == {"key1": "one two", "key2": "three", "key3": "four", "#notcomment": "5"}


def test_s004_tokens_get_resource_icons_and_the_base_resources_none(s004):
    # the 2.x client drew grey placeholder boxes for MarineToken and ParatroopToken (issue 26)
    icons = sorted(p.name for p in (s004 / "resources").glob("*.png"))
    assert icons == ["MarineToken.png", "ParatroopToken.png"]  # PUs, techTokens, SuicideAttackTokens: engine assets
    assert all(Image.open(s004 / "resources" / name).size == (20, 20) for name in icons)


def test_base_images_are_never_shipped_again(s004):
    shipped = {p.relative_to(s004).as_posix() for p in s004.rglob("*.png")}
    assert shipped and not any((BASE / rel).exists() for rel in shipped)
    assert all(Image.open(io.BytesIO((s004 / rel).read_bytes())).format == "PNG" for rel in sorted(shipped)[:20])


def test_the_files_written_are_those_the_client_catalog_names():
    """generator/catalog/client.yaml lists what each client reads; the build writes all of it."""
    from generator.catalog.client import load_client_catalog
    from generator.write.modfolder.assets import FLAG_SUFFIXES
    from generator.model.looks import ACTION_TEXT_SUFFIXES

    catalog = load_client_catalog()
    flags = {re.fullmatch(r"flags/\{player\}(\w*)\.png", e.what).group(1) for e in catalog.values()
             if e.what.startswith("flags/{player}")}
    assert flags and flags <= set(FLAG_SUFFIXES)
    for entry in ("political_action_text", "user_action_text"):
        assert set(catalog[entry].key_suffixes) == set(ACTION_TEXT_SUFFIXES)


KAMIKAZE_MOD = """\
mod:
  name: Italian Kamikaze
  version: "1.0"
  base: {map: world_war_ii_global, game: ww2global40_2nd_edition.xml}
change:
  territories:
    97 Sea Zone: {kamikazeZone: true, originalOwner: Italians}
    6 Sea Zone: {kamikazeZone: true}
"""


def test_a_kamikaze_zone_of_a_map_player_gets_the_faded_flag_the_clients_draw(tmp_path):
    """Both clients draw a kamikaze zone's original owner with flags/<Player>_fade.png; the Global 1940
    map has one only for Japan. The mod ships Italy's, washed out from Italy's own flag, and nothing the
    map folder already has (6 Sea Zone is Japan's: its fade is the map's)."""
    spec = tmp_path / "kamikaze.yaml"
    spec.write_text(KAMIKAZE_MOD, encoding="utf-8")
    folder = _build(spec, tmp_path / "out")
    faded = Image.open(folder / "flags" / "Italians_fade.png").convert("RGBA")
    plain = Image.open(BASE / "flags" / "Italians.png").convert("RGBA")
    assert faded.size == plain.size

    def brightness(image):
        pixels = numpy.asarray(image, dtype=float)
        return pixels[..., :3].sum(axis=2)[pixels[..., 3] > 0].mean()

    assert brightness(faded) > brightness(plain) + 60  # washed out towards white
    shipped = sorted(p.name for p in (folder / "flags").iterdir())
    assert shipped == ["Italians_fade.png"]


# --- rebuilds into the same folder ---------------------------------------------------------------

def _lower_outline(path: Path) -> bytes:
    """The outline (alpha) of an image's lowest third: a badge is drawn at the top right."""
    image = Image.open(path).convert("RGBA")
    width, height = image.size
    return image.crop((0, height * 2 // 3, width, height)).getchannel("A").tobytes()


def test_a_new_unit_named_after_a_base_unit_looks_like_it_whatever_its_values(tmp_path):
    """elite_infantry with no image named, and armour's values: still an infantryman (its name says
    so), so a changed value never turns its picture into another unit's."""
    spec = tmp_path / "named.yaml"
    text = replaced(FIXTURE.read_text(), "    elite_infantry: {image: {from: infantry, mark: E}}\n", "    {}\n", 1)
    text = replaced(text, "options: {movement: 1, transportCost: 2, isInfantry: true, attack: 2, defense: 2}",
                    "options: {movement: 2, transportCost: 3, canBlitz: true, attack: 3, defense: 3}", 1)
    spec.write_text(text.replace("assets:\n  units:\n    {}\n", ""))
    assert "assets:" not in spec.read_text()
    folder = _build(spec, tmp_path / "out")
    elite = _lower_outline(folder / "units" / "Germans" / "elite_infantry.png")
    assert elite == _lower_outline(BASE / "units" / "Germans" / "infantry.png")
    assert elite != _lower_outline(BASE / "units" / "Germans" / "armour.png")


def test_a_rebuild_draws_again_what_it_drew_and_keeps_what_a_modder_changed(tmp_path):
    """Built into the folder of an earlier build, a changed spec gives the bytes a build into a new
    folder gives (the images it drew are recorded with their SHA-256, and drawn again); an image
    the modder painted over is kept."""
    spec = tmp_path / "game.yaml"
    spec.write_text(FIXTURE.read_text())
    folder = _build(spec, tmp_path / "out")
    record = (folder.parent / ".triplea-gen-drawn.sha256").read_text()
    assert re.search(r"^[0-9a-f]{64}  map/units/Germans/elite_infantry\.png$", record, re.MULTILINE)
    assert "flags/" not in record  # Global 1940 has every flag this mod's players need
    spec.write_text(replaced(FIXTURE.read_text(), "{image: {from: infantry, mark: E}}",
                             "{image: {from: armour, mark: E}}", 1))
    _build(spec, tmp_path / "out")
    fresh = _build(spec, tmp_path / "fresh")
    image = "units/Germans/elite_infantry.png"
    assert (folder / image).read_bytes() == (fresh / image).read_bytes()
    assert _lower_outline(folder / image) == _lower_outline(BASE / "units" / "Germans" / "armour.png")
    painted = (BASE / "units" / "Germans" / "fighter.png").read_bytes()
    (folder / image).write_bytes(painted)
    spec.write_text(FIXTURE.read_text())
    _build(spec, tmp_path / "out")
    assert (folder / image).read_bytes() == painted
