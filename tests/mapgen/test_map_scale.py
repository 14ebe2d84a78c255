"""A generated map is drawn at a size the desktop client shows well: it fills the client's map area,
its counters are of the size TripleA's own maps use, and no starting stack lands on a name."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
import shapely

from conftest import REPO
from generator.builder.pipeline import load_game
from generator.core.diagnostics import DiagnosticError
from generator.mapgen.scaling import CLIENT_MAP_AREA, MAX_AUTO_PIXELS, client_scale
from generator.write.mapfolder import layouts, production_values, unit_size

GENERATED = ["frontier_1939", "hex_skirmish", "s002_eastern_europe_1939", "s003_manchuria_1945"]


def _square_spec(tmp_path: Path, style: str = "") -> Path:
    path = tmp_path / "small.yaml"
    path.write_text('info: {name: small, version: "1.0"}\n'
                    "map:\n  squares:\n    columns: 4\n    rows: 3\n    size: 40\n"
                    "    terrain: |\n      . . . .\n      . . . .\n      . . ~ ~\n"
                    f"{style}"
                    "properties:\n  mapName: {value: small}\n", "utf-8")
    return path


def test_client_scale_fills_the_map_area_and_leaves_large_maps_alone():
    assert client_scale(860, 836, 150) == pytest.approx(1.75)  # width decides: 1500 / 860 = 1.744..
    assert client_scale(1200, 500, 200) == pytest.approx(1.92)  # height decides: 960 / 500
    assert client_scale(7705, 3213, 120) == 1.0  # Global 1940's size: nothing to do
    # Many small hexes: territories grow until a counter of the usual size fits a few times.
    assert client_scale(1000, 1000, 40) == pytest.approx(2.65)  # 106 / 40


def test_client_scale_never_makes_a_huge_map():
    factor = client_scale(3000, 3000, 8)  # tiny cells would want a factor of 13
    assert 1.0 <= factor and (3000 * factor) ** 2 <= MAX_AUTO_PIXELS
    assert client_scale(20, 20, 20) == 4.0  # a sketch of a map grows at most four times


@pytest.mark.parametrize("name", GENERATED)
def test_examples_fill_the_client_window_with_counters_of_the_usual_size(name: str):
    game, _ = load_game(REPO / "rules_yaml" / f"{name}.yaml")
    geometry = game.geometry
    assert geometry.width >= CLIENT_MAP_AREA[0] and geometry.height >= CLIENT_MAP_AREA[1]
    assert 0.75 <= geometry.style.unit_scale <= 1.0  # TripleA's own maps: 36 to 48 pixel counters


def test_scaling_keeps_every_border_shared(tmp_path: Path):
    """Each vertex is rounded alike, so neighbours still share whole edges after scaling."""
    small, _ = load_game(_square_spec(tmp_path, "  style: {mapScale: 1}\n"))
    large, _ = load_game(_square_spec(tmp_path))
    assert large.geometry.width > small.geometry.width * 3  # 160 x 120 is drawn to fill 1500 x 960
    assert [(c.t1, c.t2) for c in large.connections] == [(c.t1, c.t2) for c in small.connections]
    shapes = {region.name: region.shape for region in large.geometry.regions}
    for connection in large.connections:
        shared = shapes[connection.t1].intersection(shapes[connection.t2])
        assert shared.length > 100, (connection.t1, connection.t2)
    union = shapely.union_all(list(shapes.values()))
    assert union.area == pytest.approx(large.geometry.width * large.geometry.height, rel=0.02)


def test_a_map_scale_given_by_hand_is_kept_and_checked(tmp_path: Path):
    game, _ = load_game(_square_spec(tmp_path, "  style: {mapScale: 2}\n"))
    assert (game.geometry.width, game.geometry.height) == (320, 240)
    with pytest.raises(DiagnosticError) as caught:
        load_game(_square_spec(tmp_path, "  style: {mapScale: 9}\n"))
    assert [d.code for d in caught.value.diagnostics] == ["TG508"]


def _stacks_at_start(game) -> dict[str, int]:
    stacks = defaultdict(set)
    for placement in game.initialize.units:
        stacks[placement.territory].add((placement.owner, placement.unit_type))
    return {territory: len(kinds) for territory, kinds in stacks.items()}


@pytest.mark.parametrize("name", ["frontier_1939", "hex_skirmish", "s003_manchuria_1945"])
def test_every_starting_stack_has_a_spot_of_its_own(name: str):
    """A stack without a spot is drawn beside the last one (the engine's overflow), over whatever
    is there: names included. The default example used to put Berlin's stacks over its name."""
    game, _ = load_game(REPO / "rules_yaml" / f"{name}.yaml")
    places = layouts(game.geometry, production_values(game))
    short = {territory: (count, len(places[territory].spots)) for territory, count in _stacks_at_start(game).items()
             if count > len(places[territory].spots)}
    assert short == {}
    assert unit_size(game.geometry) >= 36
