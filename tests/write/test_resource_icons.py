"""Icons for the resources a game adds (resources/<name>.png, <name>_large.png for one players
buy): drawn by `build` for generated maps and mods where neither the map folder nor the current
engine's own assets have one, so that the 2.x client shows no grey placeholder box; a file the
map folder has is never replaced."""
from __future__ import annotations

import io
from pathlib import Path

from lxml import etree
from PIL import Image

from conftest import REPO
from textedit import replaced
from generator.cli.main import main
from generator.mapgen.resourceicons import LARGE, SMALL, initials, resource_icon
from generator.write.modfolder.resources import resource_icon_files

HEX = REPO / "rules_yaml" / "hex_skirmish.yaml"


def _spec_with_coal(tmp_path: Path) -> Path:
    spec = tmp_path / "hex_skirmish.yaml"
    spec.write_text(replaced(HEX.read_text(encoding="utf-8"), "resources:\n  PUs: {}\n",
                             "resources:\n  PUs: {}\n  Coal: {}\n"), encoding="utf-8")
    return spec


def _icons(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.glob("*/map/resources/*"))}


def test_a_generated_map_gets_an_icon_for_the_resource_it_adds(tmp_path: Path):
    out = tmp_path / "out"
    assert main(["build", str(_spec_with_coal(tmp_path)), "-o", str(out)]) == 0
    icons = _icons(out)
    assert list(icons) == ["hex_skirmish/map/resources/Coal.png"]  # PUs: the engines' own assets have it
    image = Image.open(io.BytesIO(icons["hex_skirmish/map/resources/Coal.png"]))
    assert image.format == "PNG" and image.size == (SMALL, SMALL)
    # what the client reads now has the icon: validate --map-dir finds nothing missing
    assert main(["validate", str(out / "hex_skirmish" / "map" / "games" / "hex_skirmish.xml"),
                 "--map-dir", str(out / "hex_skirmish"), "--engine", "current", "--strict"]) == 0


def test_an_icon_the_map_folder_has_is_kept(tmp_path: Path):
    out = tmp_path / "out"
    own = out / "hex_skirmish" / "map" / "resources" / "Coal.png"
    own.parent.mkdir(parents=True)
    own.write_bytes(b"the player's own icon")
    assert main(["build", str(_spec_with_coal(tmp_path)), "-o", str(out)]) == 0
    assert own.read_bytes() == b"the player's own icon"


def test_the_same_game_gives_the_same_icon_bytes(tmp_path: Path):
    spec = _spec_with_coal(tmp_path)
    assert main(["build", str(spec), "-o", str(tmp_path / "a")]) == 0
    assert main(["build", str(spec), "-o", str(tmp_path / "b")]) == 0
    assert list(_icons(tmp_path / "a").values()) == list(_icons(tmp_path / "b").values())


GAME = """<game>
  <resourceList>
    <resource name="PUs"/><resource name="VPs"/><resource name="Grain"/><resource name="Iron"/>
    <resource name="bad/name"/>
  </resourceList>
  <production>
    <productionRule name="buyGrain"><cost resource="PUs" quantity="2"/><result resourceOrUnit="Grain" quantity="1"/></productionRule>
    <productionRule name="buyIron"><cost resource="PUs" quantity="2"/><result resourceOrUnit="Iron" quantity="1"/></productionRule>
  </production>
</game>"""


def test_which_icons_are_drawn():
    files = resource_icon_files(etree.fromstring(GAME), lambda relpath: False)
    # PUs: bundled; VPs: not shown; Iron: bundled small, but the 2.x assets have no Iron_large;
    # a name that is no file name is left to the engine
    assert sorted(files) == ["resources/Grain.png", "resources/Grain_large.png", "resources/Iron_large.png"]
    assert Image.open(io.BytesIO(files["resources/Grain_large.png"])).size == (LARGE, LARGE)
    assert resource_icon_files(etree.fromstring(GAME), lambda relpath: relpath.startswith("resources/G")) == {
        "resources/Iron_large.png": files["resources/Iron_large.png"]}


def test_icons_show_the_initials_in_a_colour_of_their_own():
    assert [initials(n) for n in ("RGT", "MarineToken", "ParatroopToken", "war_bonds", "Coal")] == [
        "RGT", "MT", "PT", "WB", "Co"]
    icon = Image.open(io.BytesIO(resource_icon("MarineToken", SMALL))).convert("RGBA")
    assert resource_icon("MarineToken", SMALL) == resource_icon("MarineToken", SMALL)
    colours = {icon.getpixel((x, y))[:3] for x in range(SMALL) for y in range(SMALL) if icon.getpixel((x, y))[3] == 255}
    # not the client's placeholder (light grey 230,230,230 with dark grey letters): a coloured
    # token with white letters, transparent corners
    letters = [c for c in colours if min(c) > 180]
    assert icon.getpixel((0, 0))[3] == 0 and letters and (230, 230, 230) not in colours
    assert icon.getpixel((SMALL // 2, 2))[3] == 255  # the disc fills the square
