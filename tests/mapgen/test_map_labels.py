"""Names on generated maps: for the hex scenarios, no name box overlaps another name, a unit
spot or a capital or victory-city marker, and each name's font is fitted to its territory."""
from __future__ import annotations

import itertools

import pytest

from conftest import REPO
from generator.builder.pipeline import load_game
from generator.mapgen.placement import MIN_FONT
from generator.write.mapfolder import layouts, marker_size, production_values, unit_size

HEX_SPECS = ["s002_eastern_europe_1939", "s003_manchuria_1945", "hex_skirmish"]


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.fixture(scope="module", params=HEX_SPECS)
def placed(request):
    game, _ = load_game(REPO / "rules_yaml" / f"{request.param}.yaml")
    geometry = game.geometry
    return geometry, layouts(geometry, production_values(game))


def test_no_label_overlaps_another_label(placed):
    _, places = placed
    boxes = [(name, layout.label_box) for name, layout in places.items()]
    clashes = [(a, b) for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2) if _overlap(box_a, box_b)]
    assert clashes == []


def test_no_label_overlaps_a_unit_spot_or_a_marker(placed):
    geometry, places = placed
    unit, marker = unit_size(geometry), marker_size(geometry)
    things = []
    for name, layout in places.items():
        things += [(name, "units", (x, y, x + unit, y + unit)) for x, y in layout.spots]
        for kind, corner in (("capital", layout.marker), ("victory city", layout.vc)):
            if corner:
                x, y = corner
                things.append((name, kind, (x, y, x + marker, y + marker)))
    clashes = [(name, owner, kind) for name, layout in places.items() for owner, kind, box in things
               if _overlap(layout.label_box, box)]
    assert clashes == []


def test_fonts_are_fitted_and_readable(placed):
    geometry, places = placed
    sizes = [layout.font_size for layout in places.values()]
    assert min(sizes) >= MIN_FONT - 1
    assert max(sizes) <= geometry.style.font_size
    # Larger territories get larger names: the largest territory's name has the largest size used
    # (on a map drawn large enough, every name may reach the style's size).
    largest = max(geometry.regions, key=lambda region: region.shape.area)
    assert places[largest.name].font_size == max(sizes)


def test_every_land_territory_has_a_marker_spot_inside_the_map(placed):
    geometry, places = placed
    for region in geometry.regions:
        layout = places[region.name]
        if not region.water:
            x, y = layout.marker
            assert 0 <= x < geometry.width and 0 <= y < geometry.height, region.name
