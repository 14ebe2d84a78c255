"""Map generation: connections from geometry (hand-checked grids), the map folder's files
and their formats, placement inside territories, determinism, located errors, the
`preview` command, speed, and the real TripleA 1.9 client showing a generated map."""
from __future__ import annotations

import argparse
import io
import math
import os
import shutil
import time
from pathlib import Path

import pytest
import shapely
import yaml
from lxml import etree
from PIL import Image
from shapely.geometry import Polygon

from conftest import PLAIN_GAME, REPO
from folders import snapshot
from generator.builder.outputs import output_files
from generator.cli.commands import build_command
from generator.core.diagnostics import DiagnosticError
from generator.cli import preview as mapgen_cli
from generator.mapgen import art
from generator.mapgen.grids import Grid, cell_id, parse_cell_id
from generator.mapgen.pointfiles import even_odd_contains, parse_points, parse_polygons
from generator.read.yamlio import load_yaml_file
from generator.builder.pipeline import load_game
from generator.builder.compiler import compile_spec

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "mapgen"
HEX_SKIRMISH = REPO / "rules_yaml" / "hex_skirmish.yaml"


def _spec(tmp_path: Path, map_section: str, name: str = "grid_test", extra: str = "") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(f'info: {{name: {name}, version: "1.0"}}\nmap:\n{map_section}{extra}'
                    f"properties:\n  mapName: {{value: {name}}}\n", "utf-8")
    return path


def _connections(spec: Path) -> set[frozenset[str]]:
    game, _ = load_game(spec)
    return {frozenset((c.t1, c.t2)) for c in game.connections}


def _pairs(text: str) -> set[frozenset[str]]:
    return {frozenset(pair.split("-")) for pair in text.split()}


# Connections on small grids, worked out by hand -------------------------------------------------

# 3 x 3 pointy hexes, odd rows (row 2) shifted right by half a hex:
#    A1  B1  C1
#      A2  B2  C2
#    A3  B3  C3
POINTY_3X3 = _pairs("""
    A1-B1 B1-C1 A2-B2 B2-C2 A3-B3 B3-C3
    A2-A1 A2-B1 B2-B1 B2-C1 C2-C1
    A2-A3 A2-B3 B2-B3 B2-C3 C2-C3
""")

# 3 columns x 2 rows of flat hexes, odd columns (B) shifted down by half a hex:
#    A1    C1
#       B1
#    A2    C2
#       B2
FLAT_3X2 = _pairs("""
    A1-A2 B1-B2 C1-C2
    B1-A1 B1-A2 B2-A2
    B1-C1 B1-C2 B2-C2
""")

SQUARE_3X3 = _pairs("""
    A1-B1 B1-C1 A2-B2 B2-C2 A3-B3 B3-C3
    A1-A2 A2-A3 B1-B2 B2-B3 C1-C2 C2-C3
""")
SQUARE_3X3_DIAGONALS = SQUARE_3X3 | _pairs("A1-B2 B1-A2 B1-C2 C1-B2 A2-B3 B2-A3 B2-C3 C2-B3")


def test_pointy_hex_3x3_connections(tmp_path: Path):
    spec = _spec(tmp_path, "  hexes: {columns: 3, rows: 3, size: 40}\n")
    assert _connections(spec) == POINTY_3X3
    assert len(POINTY_3X3) == 16


def test_flat_hex_3x2_connections(tmp_path: Path):
    spec = _spec(tmp_path, "  hexes: {columns: 3, rows: 2, size: 40, orientation: flat}\n")
    assert _connections(spec) == FLAT_3X2
    assert len(FLAT_3X2) == 9


def test_even_offset_mirrors_odd(tmp_path: Path):
    """With even rows shifted, row 1 reaches right instead of left: A1 touches A2 and B2."""
    spec = _spec(tmp_path, "  hexes: {columns: 2, rows: 2, size: 40, offset: even}\n")
    assert _connections(spec) == _pairs("A1-B1 A2-B2 A1-A2 A1-B2 B1-B2")


def test_square_3x3_connections(tmp_path: Path):
    assert _connections(_spec(tmp_path, "  squares: {columns: 3, rows: 3}\n")) == SQUARE_3X3
    assert _connections(_spec(tmp_path, "  squares: {columns: 3, rows: 3, diagonals: true}\n")) == \
        SQUARE_3X3_DIAGONALS


@pytest.mark.parametrize("kind, columns, rows, offset", [
    ("pointy", 7, 5, "odd"), ("pointy", 6, 4, "even"), ("flat", 5, 6, "odd"), ("flat", 4, 3, "even"),
    ("square", 5, 4, "odd")])
def test_grid_neighbours_are_exactly_the_cells_sharing_an_edge(kind, columns, rows, offset):
    """An independent check of the neighbour rules: shared edges of the pixel outlines."""
    grid = Grid(kind, columns, rows, 30, offset)
    outlines = {cell: Polygon([grid.to_pixel(*p) for p in grid.lattice_corners(cell)]) for cell in grid.cells()}
    for cell in grid.cells():
        by_edges = {other for other in grid.cells() if other != cell and
                    outlines[cell].boundary.intersection(outlines[other].boundary).length > 1}
        assert set(grid.neighbours(cell)) == by_edges, cell_id(cell)


def test_cell_ids_round_trip():
    for cell in [(0, 0), (25, 3), (26, 9), (701, 0)]:
        assert parse_cell_id(cell_id(cell)) == cell
    assert cell_id((26, 0)) == "AA1"
    assert parse_cell_id("b12") == (1, 11)
    assert parse_cell_id("12") is None and parse_cell_id("A0") is None


def test_terrain_groups_and_sea_land_rules(tmp_path: Path):
    """Land-land, coast and sea-sea are connections; unnamed impassable cells are no territory."""
    spec = _spec(tmp_path, """\
  squares:
    columns: 4
    rows: 2
    terrain: |
      . # ~ ~
      K K ~ .
    legend: {K: Keep}
""")
    game, _ = load_game(spec)
    assert [(t.name, t.water) for t in game.territories] == [
        ("A1", None), ("Sea C1", "true"), ("Sea D1", "true"), ("Keep", None), ("Sea C2", "true"), ("D2", None)]
    assert _connections(spec) == {frozenset(pair) for pair in [
        ("A1", "Keep"), ("Keep", "Sea C2"), ("Sea C1", "Sea D1"), ("Sea C1", "Sea C2"), ("Sea D1", "D2"),
        ("Sea C2", "D2")]}
    assert game.geometry.blocked and not game.geometry.region("B1")


def test_extra_and_blocked_connections(tmp_path: Path):
    spec = _spec(tmp_path, """\
  squares: {columns: 3, rows: 1, terrain: ". ~ ."}
  extraConnections: [[A1, C1]]
  blockedConnections: [[A1, Sea B1]]
""")
    assert _connections(spec) == {frozenset(("A1", "C1")), frozenset(("Sea B1", "C1"))}


def test_explicit_territories_are_kept_and_checked(tmp_path: Path):
    spec = _spec(tmp_path, """\
  squares: {columns: 2, rows: 1}
  territories:
    B1: {}
    A1: {}
  connections: []
""")
    game, warnings = load_game(spec)
    assert [t.name for t in game.territories] == ["B1", "A1"] and game.connections == []
    assert not warnings


# Every generated map: every territory has a polygon, a centre and unit spots inside it ------------


def _map_specs() -> list[Path]:
    # A mod (`mod:`) changes an existing map and draws none; only full games may define geometry.
    specs = [p for p in sorted((REPO / "rules_yaml").glob("*.yaml"))
             if "mod" not in (load_yaml_file(p) or {}) and load_game(p)[0].geometry is not None]
    return specs + sorted(FIXTURES.glob("*.yaml"))


MAP_SPECS = _map_specs()


def _folder(spec: Path) -> tuple[str, dict[str, bytes]]:
    compiled = compile_spec(spec)
    files = output_files(compiled)
    (yml,) = [path for path in files if path.endswith("/map.yml") and path.count("/") == 1]
    return yml.split("/")[0], files


def test_examples_with_maps_are_found():
    assert HEX_SKIRMISH in MAP_SPECS and len(MAP_SPECS) >= 5


@pytest.mark.parametrize("spec", MAP_SPECS, ids=lambda p: p.stem)
def test_every_territory_has_polygon_center_and_spots_inside(spec: Path):
    map_name, files = _folder(spec)
    content = f"{map_name}/map/"
    polygons = parse_polygons(files[content + "polygons.txt"].decode())
    centers = parse_points(files[content + "centers.txt"].decode())
    places = parse_points(files[content + "place.txt"].decode())
    names = parse_points(files[content + "name_place.txt"].decode())
    (xml_path,) = [p for p in files if p.startswith(content + "games/")]
    territories = [t.get("name") for t in etree.fromstring(files[xml_path]).iter("territory")]
    assert territories and set(polygons) == set(centers) == set(places) == set(names) == set(territories)
    properties = _java_properties(files[content + "map.properties"].decode("latin-1"))
    width, height = int(properties["map.width"]), int(properties["map.height"])
    unit = round(48 * float(properties["units.scale"]))

    def inside(name, x, y):
        return any(even_odd_contains(outline, x, y) for outline in polygons[name])

    for name in territories:
        assert all(len(outline) >= 3 for outline in polygons[name]), name
        assert all(0 <= x <= width and 0 <= y <= height for outline in polygons[name] for x, y in outline), name
        (center,) = centers[name]
        assert inside(name, *center), f"centre of {name}"
        assert places[name], f"no unit spot in {name}"
        for x, y in places[name]:
            assert inside(name, x + 0.5, y + 0.5) and inside(name, x + unit / 2, y + unit / 2), \
                f"unit spot ({x},{y}) of {name}"
        (name_point,) = names[name]
        assert 0 <= name_point[1] <= height, name


def test_hex_skirmish_territories_get_several_spots():
    map_name, files = _folder(HEX_SKIRMISH)
    places = parse_points(files[f"{map_name}/map/place.txt"].decode())
    assert min(len(spots) for spots in places.values()) >= 1
    assert sorted(len(spots) for spots in places.values())[len(places) // 2] >= 2
    assert len(places["Redhold"]) >= 6 and len(places["North Sea"]) >= 6


def test_holes_become_keyhole_outlines_that_even_odd_excludes():
    map_name, files = _folder(FIXTURES / "polygons_islands.yaml")
    polygons = parse_polygons(files[f"{map_name}/map/polygons.txt"].decode())
    (ocean,) = polygons["Ocean"]
    (mainland,) = polygons["Mainland"]
    assert not even_odd_contains(ocean, 200, 150) and even_odd_contains(ocean, 50, 50)  # the atoll is cut out
    assert not even_odd_contains(mainland, 550, 150) and even_odd_contains(mainland, 450, 50)  # the lake too
    assert even_odd_contains(polygons["Blue Lake"][0], 550, 150)
    game, _ = load_game(FIXTURES / "polygons_islands.yaml")
    connections = {frozenset((c.t1, c.t2)) for c in game.connections}
    assert frozenset(("Mainland", "Cornerland")) not in connections  # a shared corner is not a border
    assert frozenset(("Ocean", "Highlands")) not in connections  # blocked in the spec
    assert frozenset(("Atoll", "Mainland")) in connections  # added in the spec


def test_sites_split_land_and_sea_separately():
    game, _ = load_game(FIXTURES / "sites_coast.yaml")
    regions = {region.name: region for region in game.geometry.regions}
    land = shapely.union_all([r.shape for r in regions.values() if not r.water])
    sea = shapely.union_all([r.shape for r in regions.values() if r.water])
    assert land.intersection(sea).area < 0.01 * land.area
    # The 900 x 600 spec is drawn 1.67 times larger to fill the client's window (1500 x 960), every
    # part alike.
    assert (game.geometry.width, game.geometry.height) == (1503, 1002)
    assert land.union(sea).area == pytest.approx(1503 * 1002, rel=0.01)
    connections = {frozenset((c.t1, c.t2)) for c in game.connections}
    assert frozenset(("Isle of Gulls", "East Sea")) in connections
    assert not any("Isle of Gulls" in pair and pair & {"Westmark", "Eastmark", "Northmark", "Southmark"}
                   for pair in connections)


# The files parse in the formats the engine reads ---------------------------------------------------


def _java_properties(text: str) -> dict[str, str]:
    result = {}
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith(("#", "!")):
            key, _, value = line.partition("=")
            result[key.strip()] = value.strip()
    return result


def test_map_folder_files_have_the_engine_formats():
    map_name, files = _folder(HEX_SKIRMISH)
    content = f"{map_name}/map/"
    assert map_name == "hex_skirmish"
    properties = _java_properties(files[content + "map.properties"].decode("latin-1"))
    width, height = int(properties["map.width"]), int(properties["map.height"])
    for player in ("Reds", "Blues", "Greens"):
        assert len(properties[f"color.{player}"]) == 6
    assert properties["color.Reds"] == "B22222"
    float(properties["units.scale"])

    tiles = {p[len(content + "baseTiles/"):]: data for p, data in files.items() if "/baseTiles/" in p}
    columns, rows = math.ceil(width / 256), math.ceil(height / 256)
    assert set(tiles) == {f"{x}_{y}.png" for x in range(columns) for y in range(rows)}
    mosaic = Image.new("RGB", (width, height))
    for name, data in tiles.items():
        tile = Image.open(io.BytesIO(data))
        assert tile.format == "PNG" and tile.width <= 256 and tile.height <= 256
        x, y = (int(n) for n in name[:-4].split("_"))
        mosaic.paste(tile, (x * 256, y * 256))
    (spot, *_) = parse_points(files[content + "place.txt"].decode())["North Sea"]
    assert mosaic.getpixel((spot[0] + 5, spot[1] + 5)) == (0x6E, 0x9C, 0xC8)  # the North Sea, in the sea colour

    small = Image.open(io.BytesIO(files[content + "smallMap.jpeg"]))
    assert small.format == "JPEG" and abs(small.width / small.height - width / height) < 0.02
    preview = Image.open(io.BytesIO(files[f"{map_name}/preview.png"]))
    assert preview.format == "PNG" and preview.width == min(width, art.PREVIEW_WIDTH)
    assert abs(preview.width / preview.height - width / height) < 0.01

    description = yaml.safe_load(files[f"{map_name}/map.yml"])
    assert description == {"map_name": "hex_skirmish",
                           "games": [{"game_name": "Hex Skirmish", "file_name": "hex_skirmish.xml"}]}
    assert b"<h2>Hex Skirmish</h2>" in files[f"{map_name}/description.html"]

    xml = etree.fromstring(files[content + "games/hex_skirmish.xml"])
    (map_property,) = [p for p in xml.iter("property") if p.get("name") == "mapName"]
    assert map_property.get("value") == map_name
    units = [u.get("name") for u in xml.iter("unit")]
    for player in ("Reds", "Blues", "Greens"):
        for unit in units:
            image = Image.open(io.BytesIO(files[f"{content}units/{player}/{unit}.png"]))
            assert image.size == (48, 48) and image.mode == "RGBA"
        for suffix in ("", "_small", "_large"):
            assert f"{content}flags/{player}{suffix}.png" in files


def test_impassable_named_territory_needs_the_attachment(tmp_path: Path):
    spec = _spec(tmp_path, "  squares:\n    columns: 2\n    rows: 1\n    terrain: '. M'\n"
                           "    legend: {M: {territory: Peaks, terrain: impassable}}\n")
    with pytest.raises(DiagnosticError) as caught:
        output_files(compile_spec(spec))
    assert "TG520" in str(caught.value) and "isImpassable" in str(caught.value)


# Determinism -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", [HEX_SKIRMISH, FIXTURES / "sites_coast.yaml"], ids=lambda p: p.stem)
def test_building_a_map_twice_gives_identical_bytes(spec: Path, tmp_path: Path, capsys):
    partial = spec.parent == FIXTURES  # the fixtures are maps, not complete games
    assert build_command(str(spec), str(tmp_path / "a"), skip_validation=partial) == 0
    assert build_command(str(spec), str(tmp_path / "b"), skip_validation=partial) == 0
    first, second = snapshot(tmp_path / "a"), snapshot(tmp_path / "b")
    assert first == second
    assert any(name.endswith("baseTiles/0_0.png") for name in first)
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 2 * len(first)


# Located errors --------------------------------------------------------------------------------------

ERROR_CASES = {
    "two-layouts": ("  hexes: {columns: 2, rows: 2}\n  squares: {columns: 2, rows: 2}\n",
                    ":4:3: error[TG501]: map needs exactly one of hexes, squares, sites or polygons"),
    "mask-rows": ("  hexes:\n    columns: 2\n    rows: 3\n    terrain: |\n      . .\n      . .\n",
                  ":6:5: error[TG502]: terrain has 2 rows, the grid has 3"),
    "mask-row-length": ("  hexes:\n    columns: 2\n    rows: 2\n    terrain: |\n      . .\n      . . .\n",
                        ":8:1: error[TG502]: terrain row 2 has 3 cells, the grid has 2 columns"),
    "mask-symbol": ("  hexes:\n    columns: 2\n    rows: 1\n    terrain: |\n      . ?\n",
                    ":7:1: error[TG503]: terrain character '?' (cell B1) is not in the legend"),
    "bad-cell": ("  hexes:\n    columns: 2\n    rows: 2\n    groups: {Home: [A1, C3]}\n",
                 ":6:14: error[TG504]: group Home: cell C3 is outside the 2 x 2 grid"),
    "cell-twice": ("  squares:\n    columns: 2\n    rows: 2\n    groups:\n      Home: [A1, B1]\n      Away: [B1:B2]\n",
                   ":8:7: error[TG505]: cell B1 is in group Home and in group Away"),
    "bad-name": ("  squares:\n    columns: 2\n    rows: 1\n    groups: {'Fort (old)': [A1]}\n",
                 ":6:14: error[TG507]: territory name 'Fort (old)' contains '(' ')'"),
    "mixed-terrain": ("  squares:\n    columns: 2\n    rows: 1\n    terrain: '. ~'\n    groups: {Both: [A1, B1]}\n",
                      ":7:14: error[TG511]: group Both mixes land and sea cells"),
    "bad-number": ("  hexes: {columns: 0, rows: 2}\n",
                   ":3:11: error[TG508]: hexes columns is 0, outside 1..500"),
    "unknown-connection": ("  squares: {columns: 2, rows: 1}\n  extraConnections: [[A1, Z9]]\n",
                           ":4:22: error[TG513]: extraConnections: no territory 'Z9' on the map"),
    "bad-colour": ("  squares: {columns: 2, rows: 1}\n  style: {land: green}\n",
                   ":4:11: error[TG508]: style land must be a colour like '#B22222', not 'green'"),
    "unknown-key": ("  squares: {columns: 2, rows: 1, colums: 3}\n",
                    ":3:34: error[TG030]: unknown key 'colums' in squares"),
    "site-at-sea": ("  sites:\n    width: 200\n    height: 200\n    coast: [[0, 0], [100, 0], [100, 100], [0, 100]]\n"
                    "    land: {Wet: [150, 150]}\n", ":7:12: error[TG510]: land site Wet is at sea"),
    "overlap": ("  polygons:\n    A: [[0, 0], [100, 0], [100, 100], [0, 100]]\n"
                "    B: [[50, 50], [150, 50], [150, 150], [50, 150]]\n",
                ":4:5: error[TG509]: polygons A and B overlap"),
}


@pytest.mark.parametrize("case", ERROR_CASES, ids=list(ERROR_CASES))
def test_geometry_errors_point_at_the_yaml_line(case: str, tmp_path: Path, capsys):
    section, expected = ERROR_CASES[case]
    spec = _spec(tmp_path, section, name="bad")
    from generator.cli.main import main

    assert main(["build", str(spec), "-o", str(tmp_path / "out")]) == 2
    errors = capsys.readouterr().err
    assert f"bad.yaml{expected}" in errors, errors
    assert "hint:" in errors
    assert not (tmp_path / "out" / "bad").exists()


def test_missing_map_name_is_reported(tmp_path: Path, capsys):
    spec = tmp_path / "nameless.yaml"
    spec.write_text('info: {name: Nameless Map, version: "1.0"}\nmap:\n  squares: {columns: 2, rows: 1}\n', "utf-8")
    from generator.cli.main import main

    assert main(["build", str(spec), "-o", str(tmp_path / "out"), "--skip-validation"]) == 2
    assert "error[TG520]: a game with a generated map needs the property mapName set to its folder name " \
           "'nameless_map'" in capsys.readouterr().err


# The preview command -----------------------------------------------------------------------------------


def _preview(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="triplea-gen")
    mapgen_cli.register(parser.add_subparsers())
    args = parser.parse_args(["preview", *arguments])
    return args.run(args)


def test_preview_draws_the_map(tmp_path: Path, capsys):
    assert _preview([str(HEX_SKIRMISH), "-o", str(tmp_path / "map.png")]) == 0
    picture = Image.open(tmp_path / "map.png")
    game, _ = load_game(HEX_SKIRMISH)
    assert picture.size == (game.geometry.width, game.geometry.height)
    assert str(tmp_path / "map.png") in capsys.readouterr().out or (tmp_path / "map.png").is_file()
    assert _preview([str(HEX_SKIRMISH), "-o", str(tmp_path / "small.png"), "--width", "300", "--spots"]) == 0
    assert Image.open(tmp_path / "small.png").width == 300


def test_preview_refuses_a_spec_without_geometry(tmp_path: Path):
    with pytest.raises(DiagnosticError) as caught:
        _preview([str(PLAIN_GAME), "-o", str(tmp_path / "x.png")])
    assert "TG501" in str(caught.value)
    assert not (tmp_path / "x.png").exists()


# Speed ------------------------------------------------------------------------------------------------


def test_600_hexes_generate_well_under_ten_seconds(tmp_path: Path):
    rows = []
    for row in range(20):
        cells = ["~" if row in (0, 19) or column in (0, 29) or (row * 7 + column * 3) % 11 == 0 else "."
                 for column in range(30)]
        rows.append("      " + " ".join(cells))
    spec = _spec(tmp_path, "  hexes:\n    columns: 30\n    rows: 20\n    size: 40\n    terrain: |\n"
                 + "\n".join(rows) + "\n", name="big_hexes", extra="players:\n  Reds: {}\nunits: [infantry]\n")
    start = time.perf_counter()
    files = output_files(compile_spec(spec))
    elapsed = time.perf_counter() - start
    assert len(parse_polygons(files["big_hexes/map/polygons.txt"].decode())) == 600
    assert elapsed < 10, f"{elapsed:.1f} s"


# The real TripleA 1.9 desktop client -----------------------------------------------------------------


def _client_problem() -> str | None:
    from generator.engine.gui import client_problem

    return client_problem()


@pytest.mark.engine
@pytest.mark.skipif(_client_problem() is not None, reason=str(_client_problem()))
def test_real_client_shows_the_generated_map_and_plays_a_round(tmp_path: Path):
    from generator.engine.gui import run_gui

    assert build_command(str(HEX_SKIRMISH), str(tmp_path / "out")) == 0
    folder = tmp_path / "out" / "hex_skirmish"
    report = run_gui(folder / "map" / "games" / "hex_skirmish.xml", folder, rounds=1,
                     screenshot=tmp_path / "client" / "screen.png", timeout=600)
    print(f"client screenshot: {report.screenshot}\nreport: {report.as_json()}")
    assert report.diagnostics() == [], report.console_tail
    assert report.frame_title == "TripleA - Hex Skirmish"
    assert report.rounds_completed == 1 and report.stopped_by == "rounds"
    assert report.windows == ["TripleAFrame: TripleA - Hex Skirmish"]  # no error dialog
    assert report.picture.plausible_map
    keep = os.environ.get("TRIPLEA_GEN_SCREENSHOTS")  # a folder to keep the pictures in, for a human to look at
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(report.screenshot, Path(keep) / "hex_skirmish_client.png")

    # The map panel shows our map: the sea colour of the base tiles, the players' colours the
    # client fills their land with, and the impassable colour of the Ashen Peaks.
    picture = Image.open(report.screenshot).convert("RGB").crop(report.map_panel_box)
    colours = picture.getcolors(picture.width * picture.height)
    total = picture.width * picture.height

    def share(hex_colour: str, tolerance: int = 6) -> float:
        target = tuple(int(hex_colour[i:i + 2], 16) for i in (0, 2, 4))
        return sum(count for count, colour in colours
                   if all(abs(a - b) <= tolerance for a, b in zip(colour, target))) / total

    assert share("6E9CC8") > 0.10, "sea"
    for player_colour in ("B22222", "1E5AA8", "2E8B57"):
        assert share(player_colour) > 0.02, player_colour
    assert share("8C7B68") > 0.002, "impassable"
    assert len(colours) > 50  # units, names and borders, not a blank panel
