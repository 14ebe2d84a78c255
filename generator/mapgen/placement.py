"""Where things go inside each territory: its centre, its name, and the spots
where the engine draws unit stacks (place.txt: the top-left corner of each
unit image, in order of use).

The centre is the pole of inaccessibility (the point deepest inside the shape,
so it is inside even for crescents and rings). Spots are picked greedily from a
fine grid of candidate boxes, nearest to the centre first, each box wholly
inside the territory and clear of the name label. Small territories (a hex)
try the label a little higher when that leaves more room for units.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import polylabel

MAX_SPOTS = 8
WANTED_SPOTS = 6
MAX_CANDIDATES = 20_000
# The 1.9 client writes names in a 12 pt bold font; about 7 pixels a character.
ENGINE_CHAR_WIDTH = 7
ENGINE_ASCENT = 9


@dataclass(frozen=True)
class Layout:
    center: tuple[int, int]
    label: tuple[int, int]  # centre of the name label on the map art
    name_place: tuple[int, int]  # left end of the name's baseline, as the engine reads name_place.txt
    spots: tuple[tuple[int, int], ...]


def largest_part(shape: BaseGeometry) -> Polygon:
    parts = [p for p in shapely.get_parts(shape) if isinstance(p, Polygon)]
    return max(parts, key=lambda p: (p.area, p.bounds))


def label_box(label: tuple[float, float], name: str, label_width: float, label_height: float):
    width = max(label_width, len(name) * ENGINE_CHAR_WIDTH) + 4
    x, y = label
    return x - width / 2, y - label_height / 2, x + width / 2, y + label_height / 2


def layout_region(shape: BaseGeometry, name: str, unit: int, label_size: tuple[float, float]) -> Layout:
    part = largest_part(shape)
    inside = part.buffer(-1.0) if part.area > 64 else part
    if inside.is_empty:
        inside = part
    shapely.prepare(inside)
    pole = polylabel(part, tolerance=1.0)
    center = (int(round(pole.x)), int(round(pole.y)))
    if not part.contains(shapely.Point(center)):
        rep = part.representative_point()
        center = (int(round(rep.x)), int(round(rep.y)))
    candidates = _candidates(inside, unit, center)
    start = _fitted_label(inside, center, name, label_size)
    best_label, best_spots = start, ()
    height = part.bounds[3] - part.bounds[1]
    start_fits = _label_fits(inside, start, name, label_size)
    for lift in (0.0, 0.2, 0.32):
        label = (start[0], int(round(start[1] - lift * height)))
        if lift and not (_label_fits(inside, label, name, label_size) or
                         not start_fits and part.contains(shapely.Point(label))):
            continue
        spots = _pick(candidates, center, unit, label_box(label, name, *label_size))
        if len(spots) > len(best_spots):
            best_label, best_spots = label, spots
        if len(best_spots) >= WANTED_SPOTS:
            break
    if not best_spots:
        # No room beside the name (a small hex): cover as little of it as possible.
        best_spots = _pick(candidates, center, unit, label_box(best_label, name, *label_size), soft=True) or (
            (center[0] - unit // 2, center[1] - unit // 2),)
    text_width = len(name) * ENGINE_CHAR_WIDTH
    name_place = (int(best_label[0] - text_width / 2), int(best_label[1] + ENGINE_ASCENT / 2))
    return Layout(center, best_label, name_place, best_spots)


def _box_points(name: str, label_size) -> tuple[tuple[float, float], ...]:
    x0, y0, x1, y1 = label_box((0, 0), name, *label_size)
    return (x0, y0), (x1, y0), (x0, y1), (x1, y1), (0, y0), (0, y1), (x0, 0), (x1, 0)


def _label_fits(inside: BaseGeometry, label: tuple[int, int], name: str, label_size) -> bool:
    return all(inside.contains(shapely.Point(label[0] + dx, label[1] + dy)) for dx, dy in _box_points(name, label_size))


def _fitted_label(inside: BaseGeometry, center: tuple[int, int], name: str, label_size) -> tuple[int, int]:
    """The label position nearest the centre whose whole label box lies inside (the centre if none does)."""
    if _label_fits(inside, center, name, label_size):
        return center
    x0, y0, x1, y1 = label_box((0, 0), name, *label_size)
    corners = _box_points(name, label_size)
    minx, miny, maxx, maxy = inside.bounds
    step = max(3.0, ((maxx - minx) * (maxy - miny) / MAX_CANDIDATES) ** 0.5)
    xs, ys = np.meshgrid(np.arange(minx - x0, maxx - x1 + 1, step), np.arange(miny - y0, maxy - y1 + 1, step))
    points = np.stack([xs.ravel(), ys.ravel()], axis=1)
    if not len(points):
        return center
    ok = np.ones(len(points), dtype=bool)
    for dx, dy in corners:
        ok &= shapely.contains_xy(inside, points[:, 0] + dx, points[:, 1] + dy)
    points = points[ok]
    if not len(points):
        return center
    distance = (points[:, 0] - center[0]) ** 2 + (points[:, 1] - center[1]) ** 2
    best = points[np.lexsort((points[:, 0], points[:, 1], distance))[0]]
    return int(round(best[0])), int(round(best[1]))


def _candidates(inside: BaseGeometry, unit: int, center: tuple[int, int]) -> np.ndarray:
    """Top-left corners of unit boxes that lie wholly inside, on a grid through the centre."""
    minx, miny, maxx, maxy = inside.bounds
    step = max(2, unit // 4)
    while ((maxx - minx) / step) * ((maxy - miny) / step) > MAX_CANDIDATES:
        step *= 2
    cx, cy = center[0] - unit // 2, center[1] - unit // 2
    xs = cx + step * np.arange(int(np.floor((minx - cx) / step)), int(np.ceil((maxx - unit - cx) / step)) + 1)
    ys = cy + step * np.arange(int(np.floor((miny - cy) / step)), int(np.ceil((maxy - unit - cy) / step)) + 1)
    if not len(xs) or not len(ys):
        return np.empty((0, 2), dtype=np.int64)
    gx, gy = np.meshgrid(xs, ys)
    corners = np.stack([gx.ravel(), gy.ravel()], axis=1).astype(np.int64)
    ok = np.ones(len(corners), dtype=bool)
    half = unit / 2
    for dx, dy in ((0, 0), (unit, 0), (0, unit), (unit, unit), (half, 0), (0, half), (unit, half), (half, unit),
                   (half, half)):
        ok &= shapely.contains_xy(inside, corners[:, 0] + dx, corners[:, 1] + dy)
    return corners[ok]


def _pick(candidates: np.ndarray, center: tuple[int, int], unit: int, avoid,
          soft: bool = False) -> tuple[tuple[int, int], ...]:
    """Non-overlapping unit boxes, nearest the centre first, clear of `avoid` (or, soft, least over it)."""
    if not len(candidates):
        return ()
    mid = candidates + unit / 2
    distance = (mid[:, 0] - center[0]) ** 2 + (mid[:, 1] - center[1]) ** 2
    overlap_x = np.clip(np.minimum(candidates[:, 0] + unit, avoid[2]) - np.maximum(candidates[:, 0], avoid[0]), 0, None)
    overlap_y = np.clip(np.minimum(candidates[:, 1] + unit, avoid[3]) - np.maximum(candidates[:, 1], avoid[1]), 0, None)
    overlap = overlap_x * overlap_y
    order = np.lexsort((candidates[:, 0], candidates[:, 1], distance, overlap if soft else np.zeros(len(overlap))))
    chosen: list[tuple[int, int]] = []
    gap = 2
    for index in order:
        x, y = int(candidates[index, 0]), int(candidates[index, 1])
        if overlap[index] > 0 and not soft:
            continue
        if any(abs(x - px) < unit + gap and abs(y - py) < unit + gap for px, py in chosen):
            continue
        chosen.append((x, y))
        if len(chosen) == MAX_SPOTS:
            break
    return tuple(chosen)
