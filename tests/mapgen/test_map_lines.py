"""Named lines and areas of `map: lines:` (pact lines, fronts, zones): read with located errors,
drawn over the map with a legend that keeps off the board."""
from __future__ import annotations

from pathlib import Path

import pytest
import shapely

from conftest import REPO
from generator.builder.pipeline import load_game
from generator.core.diagnostics import DiagnosticError
from generator.mapgen import art
from generator.mapgen.features import legend_box
from generator.write.mapfolder import layouts, production_values

S002 = REPO / "rules_yaml" / "s002_eastern_europe_1939.yaml"


def _spec(tmp_path: Path, lines: str) -> Path:
    path = tmp_path / "lines.yaml"
    path.write_text('info: {name: lines, version: "1.0"}\n'
                    "map:\n  squares:\n    columns: 4\n    rows: 3\n    size: 40\n"
                    "    terrain: |\n      . . . .\n      . . . .\n      . . ~ ~\n"
                    "  style: {mapScale: 1}\n"  # pixels as written: the lines' coordinates are checked
                    f"  lines:\n{lines}"
                    "properties:\n  mapName: {value: lines}\n", "utf-8")
    return path


def _errors(spec: Path) -> list:
    with pytest.raises(DiagnosticError) as caught:
        load_game(spec)
    return [d for d in caught.value.diagnostics if d.code == "TG461"]


def test_between_draws_the_shared_border(tmp_path: Path):
    spec = _spec(tmp_path, "    Front: {between: [[A1, A2], [B1, B2]], color: '#C00000'}\n")
    game, _ = load_game(spec)
    (front,) = game.geometry.features
    assert front.kind == "line" and front.color == "C00000"
    (path,) = front.paths
    assert {x for x, _ in path} == {40} and min(y for _, y in path) == 0 and max(y for _, y in path) == 80
    picture = art.render_map(game.geometry, layouts(game.geometry, {}), {})
    assert picture.getpixel((40, 60)) == (0xC0, 0, 0)


def test_through_accepts_cells_and_area_tints_the_land(tmp_path: Path):
    spec = _spec(tmp_path, "    Road: {through: [A1, D1], dashed: true}\n    Zone: {around: [C1, D1]}\n")
    game, _ = load_game(spec)
    road, zone = game.geometry.features
    assert road.paths == (((20, 20), (140, 20)),) and road.dashed
    assert zone.kind == "area" and shapely.Polygon(zone.paths[0]).area == pytest.approx(3200, abs=50)


@pytest.mark.parametrize("lines, words", [
    ("    Front: {between: [[A1], [Nowhere]]}\n", "no territory 'Nowhere'"),
    ("    Front: {between: [[A1], [D2]]}\n", "share no border"),
    ("    Front: {between: [[A1], [B1]], points: [[0, 0], [5, 5]]}\n", "exactly one of"),
    ("    Front: {through: [A1]}\n", "fewer than 2"),
    ("    Front: [A1, B1]\n", "must be a mapping"),
])
def test_bad_lines_are_located_errors(tmp_path: Path, lines: str, words: str):
    spec = _spec(tmp_path, lines)
    (error,) = _errors(spec)
    assert words in error.message
    assert spec.read_text().splitlines()[error.position.line - 1].strip().startswith("Front:")


def test_s002_draws_the_pact_line_and_a_legend_off_the_board():
    game, _ = load_game(S002)
    geometry = game.geometry
    names = [feature.name for feature in geometry.features]
    assert names == ["Nazi-Soviet Pact line (AWAW 64.3)", "Soviet sphere of the Pact"]
    pact = geometry.features[0]
    assert sum(len(path) for path in pact.paths) >= 6  # it runs along several hex edges
    box = legend_box(geometry)
    board = shapely.union_all([region.shape for region in geometry.regions])
    legend = shapely.box(*box)
    assert board.intersection(legend).area < 0.05 * legend.area  # at most the tip of a hex
    base, overlay = art.render_layers(geometry, layouts(geometry, production_values(game)), production_values(game))
    x, y = pact.paths[0][len(pact.paths[0]) // 2]
    assert overlay.getpixel((x, y))[:3] == (0xC0, 0, 0)  # the line is in the relief layer, over owner colours
    assert overlay.getpixel((box[0] + 3, box[1] + 3))[3] == 255  # the legend is opaque


def test_a_map_without_lines_has_no_legend():
    game, _ = load_game(REPO / "rules_yaml" / "hex_skirmish.yaml")
    assert game.geometry.features == [] and legend_box(game.geometry) is None
