"""The size a generated map is drawn at.

A spec's coordinates (hex size, sites, polygons, line points) are whatever was handy to write;
a map drawn at exactly that size can end up a small picture in a corner of the client's window,
with tiny counters and names. So the drawn map is scaled, by default, until it fills the map area
of the desktop client in a typical window (the window of a 1920 x 1080 screen, less the game's
side panels and bars); a larger map keeps its size (players scroll TripleA maps anyway). The
style's `mapScale` sets the factor by hand (1 keeps the spec's pixels).

Scaling happens once, on the finished geometry: connections are already decided, so they cannot
change with the size, and every later stage (placement, art, point files) sees one consistent
picture in whole pixels."""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import shapely

from generator.mapgen.shapes import Feature, MapGeometry
from generator.mapgen.values import MAX_PIXELS, MAX_SIDE

# The map panel of TripleA's desktop client in a maximised 1920 x 1080 window: the window less
# the history tree on the left, the territory/stats panel on the right, the menu, title and
# status bars. A 1280 x 1024 window shows about 860 x 960 of it.
CLIENT_MAP_AREA = (1500, 960)
# Past this a map gets unwieldy tiles for little gain: a spec that small is a sketch.
MAX_AUTO_SCALE = 4.0
# Nor is a map enlarged past this many pixels (about 3500 x 3500): drawing time grows with the area,
# and a map that large is legible anyway.
MAX_AUTO_PIXELS = 12_000_000
# Counters as TripleA's own maps draw them (units.scale 0.75 to 1 of the engine's 48 pixels) need
# territories of about this size (a unit takes at most a third of a typical territory's width,
# see reader._with_unit_scale), so a map of many small hexes is drawn larger still.
LEGIBLE_CELL = 0.75 * 48 / 0.34


def client_scale(width: float, height: float, cell_size: float) -> float:
    """The factor that makes a width x height map cover the client's map area, and its typical
    territory (cell_size pixels) big enough for counters of the usual size; 1 when both hold
    already. In hundredths, so that the same spec always gives the same pixels."""
    width, height = max(width, 1), max(height, 1)
    wanted = max(CLIENT_MAP_AREA[0] / width, CLIENT_MAP_AREA[1] / height, LEGIBLE_CELL / max(cell_size, 1))
    allowed = min(MAX_AUTO_SCALE, (MAX_AUTO_PIXELS / (width * height)) ** 0.5, MAX_SIDE / width, MAX_SIDE / height)
    factor = math.floor(min(wanted, allowed) * 100) / 100 if wanted > allowed else math.ceil(wanted * 100) / 100
    return max(1.0, factor)


def scaled_size(width: int, height: int, factor: float) -> tuple[int, int]:
    return int(math.ceil(width * factor)), int(math.ceil(height * factor))


def too_large(width: int, height: int, factor: float) -> bool:
    new_width, new_height = scaled_size(width, height, factor)
    return new_width > MAX_SIDE or new_height > MAX_SIDE or new_width * new_height > MAX_PIXELS


def _scaled_points(points, factor: float):
    return tuple((int(round(x * factor)), int(round(y * factor))) for x, y in points)


def scaled_geometry(geometry: MapGeometry, factor: float) -> MapGeometry:
    """The geometry drawn `factor` times larger, in whole pixels. Every vertex goes through the same
    rounding, so two territories that shared an edge still share it exactly."""
    if factor == 1:
        return geometry

    def grow(shape):
        return shapely.transform(shape, lambda coords: np.round(coords * factor))

    regions = [replace(region, shape=grow(region.shape)) for region in geometry.regions]
    features = [Feature(f.name, f.kind, tuple(_scaled_points(path, factor) for path in f.paths), f.color, f.dashed,
                        max(1, int(round(f.width * factor))), f.pos) for f in geometry.features]
    width, height = scaled_size(geometry.width, geometry.height, factor)
    return replace(geometry, width=width, height=height, regions=regions,
                   blocked=[grow(shape) for shape in geometry.blocked], cell_size=geometry.cell_size * factor,
                   cells=[(terrain, _scaled_points(ring, factor)) for terrain, ring in geometry.cells],
                   features=features)
