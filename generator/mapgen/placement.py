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
STACKED_SPOTS = 3  # spots a small territory gets, stacked if they do not fit side by side
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
    font_size: int = 0  # the label's font size, fitted to the territory (0: the style's)
    label_box: tuple[float, float, float, float] = (0, 0, 0, 0)  # the drawn label, name and production
    marker: tuple[int, int] | None = None  # top-left of the capital marker (capitols.txt)
    vc: tuple[int, int] | None = None  # top-left of the victory-city marker (vc.txt)


MIN_FONT = 7


def largest_part(shape: BaseGeometry) -> Polygon:
    parts = [p for p in shapely.get_parts(shape) if isinstance(p, Polygon)]
    return max(parts, key=lambda p: (p.area, p.bounds))


def label_box(label: tuple[float, float], name: str, label_width: float, label_height: float):
    width = label_width + 2
    x, y = label
    return x - width / 2, y - label_height / 2, x + width / 2, y + label_height / 2


def layout_region(shape: BaseGeometry, name: str, unit: int, label_size, marker: int = 0,
                  max_font: int = 14, cache: dict | None = None) -> Layout:
    """label_size: a function from a font size to the label's (width, height); the largest size
    (down to MIN_FONT) whose label fits inside the territory is used. cache: a dict shared by the
    territories of one map, to reuse work on repeated cell shapes."""
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
    candidates = _candidates(inside, unit, center, cache)
    height = part.bounds[3] - part.bounds[1]
    size, best_label, best_spots = _label_and_spots(inside, part, center, name, label_size, max_font, candidates,
                                                    unit, height)
    if not best_spots and size > MIN_FONT:
        # A small territory (one hex): a smaller name may leave room for a unit beside it.
        for smaller in range(size - 2, MIN_FONT - 1, -2):
            found = _label_and_spots(inside, part, center, name, label_size, smaller, candidates, unit, height)
            if found[2]:
                size, best_label, best_spots = found
                break
    box_size = label_size(size)
    box = label_box(best_label, name, *box_size)
    if not best_spots:
        # No room beside the name (a small hex): cover as little of it as possible.
        best_spots = _pick(candidates, center, unit, [box], soft=True) or (
            (center[0] - unit // 2, center[1] - unit // 2),)
    elif len(best_spots) < STACKED_SPOTS:
        # A small territory: further unit types would overflow to the right, over the neighbours'
        # names; stack them instead, a quarter of a counter apart, as on a wargame map.
        stacked = _pick(candidates, center, unit, [box], limit=STACKED_SPOTS - len(best_spots),
                        reach=max(2, unit // 4), taken=best_spots)
        best_spots = best_spots + stacked
    marker_at: tuple[int, int] | None = None
    vc_at: tuple[int, int] | None = None
    if marker:
        # The capital marker, then the victory-city marker: clear of the name, the first unit spot and
        # each other where there is room; clear of the name at least.
        marker_candidates = _candidates(inside, marker, center, cache)
        spot_boxes = [(x, y, x + unit, y + unit) for x, y in best_spots]
        placed_markers: list = []
        for _ in range(2):
            chosen: tuple[tuple[int, int], ...] = ()
            for avoid in ([box] + spot_boxes + placed_markers, [box] + spot_boxes[:1] + placed_markers,
                          [box] + placed_markers, [box]):
                chosen = _pick(marker_candidates, center, marker, avoid, limit=1)
                if chosen:
                    break
            at = chosen[0] if chosen else (center[0] - marker // 2, center[1] - marker // 2)
            placed_markers.append((at[0], at[1], at[0] + marker, at[1] + marker))
        marker_at, vc_at = ((int(b[0]), int(b[1])) for b in placed_markers)
    text_width = len(name) * ENGINE_CHAR_WIDTH
    name_place = (int(best_label[0] - text_width / 2), int(best_label[1] + ENGINE_ASCENT / 2))
    return Layout(center, best_label, name_place, best_spots, size, box, marker_at, vc_at)


def _label_and_spots(inside, part, center, name, label_size, max_font, candidates, unit, height):
    """The fitted font size, the label position (at the centre or lifted, whichever leaves most
    room) and the unit spots beside it."""
    size, start, start_fits = _fitted_font(inside, part, center, name, label_size, max_font)
    box_size = label_size(size)
    best_label = start
    best_spots: tuple[tuple[int, int], ...] = ()
    for lift in (0.0, 0.2, 0.32, -0.2):
        label = (start[0], int(round(start[1] - lift * height)))
        if lift and not (_label_fits(inside, label, name, box_size) or
                         not start_fits and part.contains(shapely.Point(label))):
            continue
        spots = _pick(candidates, center, unit, [label_box(label, name, *box_size)])
        if len(spots) > len(best_spots):
            best_label, best_spots = label, spots
        if len(best_spots) >= WANTED_SPOTS:
            break
    return size, best_label, best_spots


def _fitted_font(inside, part, center, name, label_size, max_font):
    """The largest font whose label fits inside, and where; else the smallest, at the centre."""
    width = part.bounds[2] - part.bounds[0]
    for size in range(max_font, MIN_FONT - 1, -1):
        box_size = label_size(size)
        if box_size[0] + 2 > width:
            continue
        label = _fitted_label(inside, center, name, box_size)
        if _label_fits(inside, label, name, box_size):
            return size, label, True
    return MIN_FONT, center, False


def separate_labels(layouts: dict[str, Layout], unit: int, marker: int, label_size_of) -> dict[str, Layout]:
    """A label may run into a unit spot, a capital marker or (when it sticks out of its territory)
    a neighbour's label: move such a label, or shrink it, to the nearest free place. label_size_of(
    name, size) gives a label's size. Deterministic: territories in the given order."""
    taken = []
    for layout in layouts.values():
        taken += [(x, y, x + unit, y + unit) for x, y in layout.spots]
        for corner in (layout.marker, layout.vc):
            if corner is not None:
                x, y = corner
                taken.append((x, y, x + marker, y + marker))
    taken_boxes = np.array(taken, dtype=float).reshape(-1, 4)
    placed: list[tuple[float, float, float, float]] = []
    result = dict(layouts)
    for name, layout in layouts.items():
        box = layout.label_box
        blocking = np.concatenate([taken_boxes, np.array(placed, dtype=float).reshape(-1, 4)])
        if _overlapping(np.array([box], dtype=float), blocking)[0]:
            moved = _free_place(layout, name, blocking, label_size_of)
            if moved:
                label, box, size = moved
                result[name] = Layout(layout.center, label, layout.name_place, layout.spots, size, box,
                                      layout.marker, layout.vc)
        placed.append(box)
    return result


_DIRECTIONS = ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, -1), (-1, 1), (1, 1))
_OFFSETS = [(0, 0)] + [(dx * d, dy * d) for d in range(2, 40, 2) for dx, dy in _DIRECTIONS]


def _free_place(layout: Layout, name: str, blocking: np.ndarray, label_size_of):
    """The nearest label position (in steps of 2 pixels, up to 40 away; then smaller fonts) that
    overlaps nothing in blocking, or None."""
    x, y = layout.label
    near = blocking[(blocking[:, 2] > x - 160) & (blocking[:, 0] < x + 160) & (blocking[:, 3] > y - 80) &
                    (blocking[:, 1] < y + 80)]
    offsets = _OFFSETS
    for size in range(layout.font_size or MIN_FONT, MIN_FONT - 2, -1):
        width, height = label_size_of(name, size)
        x0, y0, x1, y1 = label_box((x, y), name, width, height)
        boxes = np.array([(x0, y0, x1, y1)]) + np.tile(np.array(offsets, dtype=float), 2)
        free = ~_overlapping(boxes, near)
        if free.any():
            index = int(np.argmax(free))
            dx, dy = offsets[index]
            return (x + dx, y + dy), tuple(float(v) for v in boxes[index]), size
    return None


def _overlapping(boxes: np.ndarray, others: np.ndarray) -> np.ndarray:
    """For each box, whether it overlaps any of the others (touching edges do not count)."""
    if not len(others):
        return np.zeros(len(boxes), dtype=bool)
    a, b = boxes[:, None, :], others[None, :, :]
    overlaps = (a[..., 0] < b[..., 2]) & (b[..., 0] < a[..., 2]) & (a[..., 1] < b[..., 3]) & (b[..., 1] < a[..., 3])
    return np.asarray(overlaps.any(axis=1))  # an array: any() is typed as maybe one bool


def _box_points(name: str, label_size) -> tuple[tuple[float, float], ...]:
    x0, y0, x1, y1 = label_box((0, 0), name, *label_size)
    return (x0, y0), (x1, y0), (x0, y1), (x1, y1), (0, y0), (0, y1), (x0, 0), (x1, 0)


def _label_fits(inside: BaseGeometry, label: tuple[int, int], name: str, label_size) -> bool:
    points = np.array(_box_points(name, label_size)) + np.array(label, dtype=float)
    return bool(shapely.contains_xy(inside, points[:, 0], points[:, 1]).all())


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


def _candidates(inside: BaseGeometry, unit: int, center: tuple[int, int], cache: dict | None) -> np.ndarray:
    """Top-left corners of unit boxes that lie wholly inside, on a grid through the centre.
    Remembered (in the map's cache) by the outline relative to its corner: a grid's cells repeat."""
    if cache is None:
        return _grid_candidates(inside, unit, center)
    minx, miny = int(inside.bounds[0]), int(inside.bounds[1])
    outline = shapely.get_coordinates(inside) - (minx, miny)
    key = (unit, center[0] - minx, center[1] - miny, outline.tobytes())
    if key not in cache:
        cache[key] = _grid_candidates(inside, unit, center) - (minx, miny)
    return cache[key] + (minx, miny)


def _grid_candidates(inside: BaseGeometry, unit: int, center: tuple[int, int]) -> np.ndarray:
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


def _pick(candidates: np.ndarray, center: tuple[int, int], unit: int, avoid: list,
          soft: bool = False, limit: int = MAX_SPOTS, reach: int | None = None,
          taken: tuple = ()) -> tuple[tuple[int, int], ...]:
    """Non-overlapping unit boxes, nearest the centre first, clear of the boxes to avoid (or, soft,
    least over them)."""
    if not len(candidates):
        return ()
    mid = candidates + unit / 2
    distance = (mid[:, 0] - center[0]) ** 2 + (mid[:, 1] - center[1]) ** 2
    boxes = np.array(avoid, dtype=float).reshape(-1, 4)
    lefts, tops = candidates[:, 0:1], candidates[:, 1:2]
    overlap_x = np.clip(np.minimum(lefts + unit, boxes[:, 2]) - np.maximum(lefts, boxes[:, 0]), 0, None)
    overlap_y = np.clip(np.minimum(tops + unit, boxes[:, 3]) - np.maximum(tops, boxes[:, 1]), 0, None)
    overlap = (overlap_x * overlap_y).sum(axis=1)
    if not soft:
        keep = overlap == 0
        candidates, distance, overlap = candidates[keep], distance[keep], overlap[keep]
    order = np.lexsort((candidates[:, 0], candidates[:, 1], distance, overlap if soft else np.zeros(len(overlap))))
    xs, ys = candidates[order, 0], candidates[order, 1]
    alive = np.ones(len(order), dtype=bool)
    chosen: list[tuple[int, int]] = []
    reach = reach or unit + 2  # boxes keep a 2-pixel gap (stacked ones: a part of a counter apart)
    for x, y in taken:  # spots already given: none closer than reach to them
        alive &= (np.abs(xs - x) >= reach) | (np.abs(ys - y) >= reach)
    while len(chosen) < limit and alive.any():
        first = int(np.argmax(alive))  # the nearest box still free
        x, y = int(xs[first]), int(ys[first])
        chosen.append((x, y))
        alive &= (np.abs(xs - x) >= reach) | (np.abs(ys - y) >= reach)
    return tuple(chosen)
