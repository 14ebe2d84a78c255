"""Named lines and areas over the map (pact lines, fronts, zones) and their legend."""
from __future__ import annotations

from PIL import ImageDraw

from generator.mapgen.shapes import MapGeometry


def draw_features(draw: ImageDraw.ImageDraw, geometry: MapGeometry) -> None:
    return None


def draw_legend(draw: ImageDraw.ImageDraw, geometry: MapGeometry) -> None:
    return None
