"""Territory outlines and connections.

Grids: territories are unions of cells (exact, on the integer lattice) and two
territories are connected when any of their cells are neighbours. Free shapes
(sites, polygons): connected when their outlines share an edge of some length;
touching in a single corner is not a connection, as on a real TripleA map.
Every shared edge is a connection whatever the terrain: land-land, land-sea
(coast) and sea-sea; unnamed impassable cells are not territories at all.
"""
from __future__ import annotations

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from generator.mapgen.grids import Cell, Grid

# Free shapes closer than this (pixels) count as touching; shared edges shorter than
# MIN_SHARED_EDGE are corners, not borders.
TOUCH_TOLERANCE = 1.0
MIN_SHARED_EDGE = 4.0


def lattice_to_pixels(grid: Grid, shape: BaseGeometry) -> BaseGeometry:
    sx, sy = grid.lattice_scale()
    scale = np.array([sx, sy])

    def to_pixels(points: np.ndarray) -> np.ndarray:
        return np.round(grid.margin + points * scale)

    return shapely.transform(shape, to_pixels)


def merge_cells(grid: Grid, cells: list[Cell]) -> BaseGeometry:
    """The pixel outline of a group of cells (a Polygon, or a MultiPolygon when they do not touch)."""
    polygons = [Polygon(grid.lattice_corners(cell)) for cell in cells]
    merged = polygons[0] if len(polygons) == 1 else shapely.union_all(polygons)
    return lattice_to_pixels(grid, merged)


def grid_connections(grid: Grid, owner: dict[Cell, str]) -> set[tuple[str, str]]:
    pairs = set()
    for cell, name in owner.items():
        for neighbour in grid.neighbours(cell):
            other = owner.get(neighbour)
            if other is not None and other != name:
                pairs.add((name, other) if name < other else (other, name))
    return pairs


def shape_connections(shapes: dict[str, BaseGeometry]) -> set[tuple[str, str]]:
    names = list(shapes)
    geometries = [shapes[name] for name in names]
    tree = shapely.STRtree(geometries)
    left, right = tree.query(geometries, predicate="dwithin", distance=TOUCH_TOLERANCE)
    pairs = set()
    for a, b in zip(left.tolist(), right.tolist()):
        if a >= b:
            continue
        near_a = geometries[a].buffer(TOUCH_TOLERANCE)
        if geometries[b].boundary.intersection(near_a).length >= MIN_SHARED_EDGE:
            first, second = names[a], names[b]
            pairs.add((first, second) if first < second else (second, first))
    return pairs


def ordered_connections(pairs: set[tuple[str, str]], order: list[str]) -> list[tuple[str, str]]:
    """Connections in a stable, readable order: by the first territory's position, then the second's."""
    index = {name: i for i, name in enumerate(order)}
    oriented = [(a, b) if index[a] < index[b] else (b, a) for a, b in pairs]
    return sorted(oriented, key=lambda pair: (index[pair[0]], index[pair[1]]))
