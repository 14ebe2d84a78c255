"""What the map generator produces from the spec's `map:` geometry: named regions
(the territories) with pixel outlines, their connections, and the drawing style.
Everything here is plain data; the spec reader builds it, the folder writer and
the renderer read it."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from generator.core.diagnostics import Position

if TYPE_CHECKING:  # types only: the data here is plain, and a build without a map imports no shapely
    from shapely.geometry.base import BaseGeometry

    from generator.model.game import Game

LAND, SEA, IMPASSABLE = "land", "sea", "impassable"
TERRAINS = (LAND, SEA, IMPASSABLE)


@dataclass(frozen=True)
class Style:
    land: str = "C9B88C"
    sea: str = "6E9CC8"
    impassable: str = "8C7B68"
    background: str = "2F4858"  # outside the playing area (cells marked none)
    border: str = "2B2B2B"
    label: str = "1A1A1A"
    sea_label: str = "F4F8FC"
    labels: bool = True
    production: bool = True
    font_size: int = 14
    unit_scale: float | None = None  # None: chosen from the territory size
    # Pixels of the drawn map per pixel of the spec's coordinates; None: chosen so that the map
    # fills the client's map area (see mapgen/scaling.py).
    map_scale: float | None = None
    unit_images: bool = True
    player_colors: tuple[tuple[str, str], ...] = ()  # (player, RRGGBB) from the spec
    player_positions: tuple[tuple[str, Position], ...] = field(default=(), compare=False)  # for warnings
    boxes: tuple[str, ...] = ()  # territories declared as off-map boxes (no neighbours expected)
    boxes_pos: Position | None = field(default=None, compare=False)


@dataclass
class Region:
    """One territory's shape: a Polygon or MultiPolygon in whole pixels."""

    name: str
    terrain: str  # land | sea | impassable
    shape: BaseGeometry
    pos: Position | None = None
    # An off-map box (a territory with no neighbour, e.g. a power fighting elsewhere): drawn as a
    # titled box rather than a stray cell.
    box: bool = False

    @property
    def water(self) -> bool:
        return self.terrain == SEA


@dataclass(frozen=True)
class Feature:
    """A named line (open paths) or area (closed outlines) drawn over the map, in pixels."""

    name: str
    kind: str  # line | area
    paths: tuple[tuple[tuple[int, int], ...], ...]
    color: str  # RRGGBB
    dashed: bool = False
    width: int = 4
    pos: Position | None = None


@dataclass
class MapGeometry:
    layout: str  # hexes | squares | sites | polygons
    width: int
    height: int
    regions: list[Region]
    connections: list[tuple[str, str]]
    style: Style = field(default_factory=Style)
    # Unnamed impassable cells: drawn in the impassable colour, not territories.
    blocked: list[BaseGeometry] = field(default_factory=list)
    # Typical territory size in pixels (hex width, square side, ...): sets unit and font sizes.
    cell_size: float = 64.0
    # What fills the picture outside every territory: "sea" (open water) or "none" (the background colour).
    canvas: str = "none"
    pos: Position | None = None
    # Grids: every cell's pixel outline and terrain, so the art can draw the hexes or squares
    # inside each territory (a wargame map's cells must be countable).
    cells: list[tuple[str, tuple[tuple[int, int], ...]]] = field(default_factory=list)
    # Named lines and areas from the spec (pact lines, fronts, zones), drawn with a legend.
    features: list["Feature"] = field(default_factory=list)
    # Neighbours whose connection the spec blocks (blockedConnections: rivers, straits): their
    # shared border is drawn as water.
    barriers: list[tuple[str, str]] = field(default_factory=list)

    def region(self, name: str) -> Region | None:
        for region in self.regions:
            if region.name == name:
                return region
        return None


def geometry_of(game: Game) -> MapGeometry | None:
    """The game's map geometry, typed: the model holds it as an object (the model does not import
    the map generator), and only the map reader puts a MapGeometry there."""
    geometry = game.geometry
    if geometry is not None and not isinstance(geometry, MapGeometry):
        raise TypeError(f"game.geometry holds a {type(geometry).__name__}, not a MapGeometry")
    return geometry
