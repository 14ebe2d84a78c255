"""The map's point files (polygons.txt, centers.txt, place.txt, name_place.txt):
writing them, and reading them back the way the engine does (for tests and
tools). One territory per line; the name is everything before the first '('
(or '<' in polygons.txt); points are (x,y) in pixels of the full map.

TripleA polygons have no holes, and the engine fills and hit-tests them with the
even-odd rule. A territory with a hole (a lake, an enclave, a sea zone around an
island) is therefore written as one "keyhole" outline: the outer ring, then a
zero-width cut to each hole and around it. Even-odd makes the hole empty again.
"""
from __future__ import annotations

import re

import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

_POINT = re.compile(r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")
Point = tuple[int, int]


def _ring(coords) -> list[Point]:
    points = [(int(round(x)), int(round(y))) for x, y in coords]
    return points[:-1] if len(points) > 1 and points[0] == points[-1] else points


def outlines(shape: BaseGeometry) -> list[list[Point]]:
    """One point list per polygon part, holes joined in as keyholes."""
    result = []
    for part in shapely.get_parts(shape):
        if not isinstance(part, Polygon) or part.is_empty:
            continue
        outer = _ring(part.exterior.coords)
        points = list(outer)
        for hole in part.interiors:
            ring = _ring(hole.coords)
            points += [outer[0], *ring, ring[0], outer[0]]
        result.append(points)
    return result


def _points(points) -> str:
    return " ".join(f"({x},{y})" for x, y in points)


def polygons_text(shapes: list[tuple[str, BaseGeometry]]) -> str:
    lines = []
    for name, shape in shapes:
        groups = "  ".join(f"<  {_points(points)}  >" for points in outlines(shape))
        lines.append(f"{name}  {groups}")
    return "\n".join(lines) + "\n"


def points_text(rows: list[tuple[str, list[Point]]]) -> str:
    return "\n".join(f"{name}  {_points(points)}" for name, points in rows) + "\n"


class PointFileError(ValueError):
    pass


def parse_points(text: str) -> dict[str, list[Point]]:
    """centers.txt, place.txt, name_place.txt, ...: name -> points, as the engine reads them."""
    result: dict[str, list[Point]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        line = line.split("|", 1)[0]  # modern engines' "| overflowToLeft" suffix
        if "(" not in line:
            raise PointFileError(f"line {number}: no point")
        name = line[:line.index("(")].strip()
        if name in result:
            raise PointFileError(f"line {number}: {name} appears twice")
        result[name] = [(int(x), int(y)) for x, y in _POINT.findall(line)]
    return result


def parse_polygons(text: str) -> dict[str, list[list[Point]]]:
    result: dict[str, list[list[Point]]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        if "<" not in line:
            raise PointFileError(f"line {number}: no polygon")
        name = line[:line.index("<")].strip()
        if name in result:
            raise PointFileError(f"line {number}: {name} appears twice")
        groups = re.findall(r"<([^<>]*)>", line)
        result[name] = [[(int(x), int(y)) for x, y in _POINT.findall(group)] for group in groups]
    return result


def even_odd_contains(polygon: list[Point], x: float, y: float) -> bool:
    """Point in polygon with the even-odd rule, as java.awt.Polygon decides it."""
    inside = False
    count = len(polygon)
    for i in range(count):
        x1, y1 = polygon[i]
        x2, y2 = polygon[(i + 1) % count]
        if (y1 > y) != (y2 > y):
            cross = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if x < cross:
                inside = not inside
    return inside
