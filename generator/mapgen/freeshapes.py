"""`map: sites:` (named points whose regions are computed, Voronoi style, inside
a frame or a coastline) and `map: polygons:` (outlines drawn by hand).

    sites:
      width: 900
      height: 600
      coast:                       # land outlines; the rest of the frame is sea
        - [[80, 60], [520, 40], [600, 380], [120, 420]]
        - [[700, 420], [820, 400], [840, 520], [690, 540]]     # an island
      land: {Westmark: [200, 150], Eastmark: [450, 200], Isle: [760, 470]}
      sea: {North Sea: [700, 100], South Sea: [400, 540]}

    polygons:
      Alpha: [[10, 10], [200, 10], [200, 180], [10, 180]]     # land
      Beta: {terrain: sea, points: [[200, 10], [400, 10], [400, 180], [200, 180]]}
"""
from __future__ import annotations

import math

import shapely
from shapely.geometry import MultiPoint, Polygon, box
from shapely.geometry.base import BaseGeometry

from generator.core.diagnostics import Position
from generator.mapgen import values as v
from generator.mapgen.shapes import LAND, SEA, TERRAINS, Region
from generator.mapgen.topology import shape_connections

SITE_KEYS = ("width", "height", "coast", "land", "sea", "impassable")
MAX_POINTS = 100_000
MAX_TERRITORIES = 5_000
MIN_PART_AREA = 4.0  # pixels; smaller slivers left by rounding are dropped


def _ring(r, value, what: str, pos: Position, width: float, height: float) -> Polygon | None:
    if not isinstance(value, list) or len(value) < 3:
        r.error(v.BAD_POLYGON, f"{what} needs at least 3 points [[x, y], ...]", pos, "list the outline's corners")
        return None
    points = [v.point(r, p, f"a point of {what}", pos, width, height) for p in value[:MAX_POINTS]]
    if None in points:
        return None
    polygon = Polygon(points)
    if not polygon.is_valid or polygon.area < 1:
        reason = shapely.is_valid_reason(polygon) if polygon.area >= 1 else "no area"
        r.error(v.BAD_POLYGON, f"{what} is not a simple outline ({reason})", pos,
                "list the corners in order around the outline, without crossing edges")
        return None
    return polygon


def _rings(r, value, what: str, pos: Position, width: float, height: float) -> list[Polygon]:
    """One outline [[x, y], ...] or several [[[x, y], ...], ...]."""
    if isinstance(value, list) and value and v.is_point(value[0]):
        value = [value]
    if not isinstance(value, list) or not value:
        r.error(v.BAD_POLYGON, f"{what} must be an outline [[x, y], ...] or a list of outlines", pos,
                "write [[x, y], [x, y], [x, y], ...]")
        return []
    parts = [_ring(r, ring, what, pos, width, height) for ring in value]
    return [p for p in parts if p is not None]


def to_pixels(shape: BaseGeometry) -> BaseGeometry:
    """Whole-pixel corners (what polygons.txt can hold), tiny slivers dropped, still valid."""
    snapped = shapely.set_precision(shape, 1.0)
    parts = [p for p in shapely.get_parts(snapped) if isinstance(p, Polygon) and p.area >= MIN_PART_AREA]
    if not parts:
        return Polygon()
    return parts[0] if len(parts) == 1 else shapely.MultiPolygon(parts)


def read_sites(r, data, pos: Position):
    section = r.mapping(data, "sites", pos, SITE_KEYS)
    if section is None:
        return None
    at = section.position_of
    errors_before = v.error_count(r)
    width = height = None
    for key in ("width", "height"):
        if key not in section:
            r.error("TG032", f"sites has no {key}", r.pos(section), f"add {key}: <pixels>")
    if "width" in section:
        width = v.number(r, section["width"], "sites width", at("width"), 64, v.MAX_SIDE, True)
    if "height" in section:
        height = v.number(r, section["height"], "sites height", at("height"), 64, v.MAX_SIDE, True)
    if width is None or height is None:
        return None
    if width * height > v.MAX_PIXELS:
        r.error(v.BAD_VALUE, f"the map would be {width} x {height} pixels; too large", at("width"),
                f"keep width x height under {v.MAX_PIXELS:,} pixels")
        return None
    frame = box(0, 0, width, height)
    coast = None
    if "coast" in section:
        outlines = _rings(r, section["coast"], "coast", at("coast"), width, height)
        coast = shapely.union_all(outlines).intersection(frame) if outlines else None
    sites: dict[str, tuple[str, tuple[float, float], Position]] = {}
    seen_points: dict[tuple[float, float], str] = {}
    if sum(len(section[t]) for t in TERRAINS if isinstance(section.get(t), dict)) > MAX_TERRITORIES:
        r.error(v.BAD_VALUE, f"more than {MAX_TERRITORIES} sites", r.pos(section), "use fewer sites")
        return None
    for terrain in TERRAINS:
        group = r.mapping(section.get(terrain), f"sites {terrain}", at(terrain))
        for key, value in (group or {}).items():
            kpos = group.position_of(key)
            name = v.territory_name(r, key, f"a {terrain} site", kpos)
            point = v.point(r, value, f"site {key}", kpos, width, height)
            if name is None or point is None:
                continue
            if name in sites:
                r.error(v.DUPLICATE_NAME, f"site {name} is defined twice", kpos, "site names are territory names")
                continue
            if point in seen_points:
                r.error(v.BAD_SITE, f"sites {seen_points[point]} and {name} stand on the same point", kpos,
                        "move one of them")
                continue
            on_land = coast is None or coast.contains(shapely.Point(point))
            if coast is not None and on_land != (terrain != SEA):
                r.error(v.BAD_SITE, f"{terrain} site {name} is {'on land' if on_land else 'at sea'}", kpos,
                        "move it inside the coast (land) or outside (sea)")
                continue
            seen_points[point] = name
            sites[name] = (terrain, point, kpos)
    if v.error_count(r) > errors_before:
        return None
    if not sites:
        r.error(v.NO_LAYOUT, "sites has no land or sea sites", r.pos(section), "add land: {Name: [x, y]}")
        return None
    if coast is None:
        areas = {LAND: frame}
        groups = [list(sites)]
    else:
        areas = {LAND: coast, SEA: frame.difference(coast)}
        groups = [[n for n in sites if sites[n][0] != SEA], [n for n in sites if sites[n][0] == SEA]]
    exact: dict[str, BaseGeometry] = {}
    for names in groups:
        if not names:
            continue
        area = areas[LAND] if coast is None or sites[names[0]][0] != SEA else areas[SEA]
        exact.update(_split_by_masses(names, {n: sites[n][1] for n in names}, area, frame))
    regions = []
    for name, (terrain, _, kpos) in sites.items():
        shape = to_pixels(exact[name])
        if shape.is_empty:
            r.error(v.EMPTY_REGION, f"site {name} gets no area of its own", kpos,
                    "move it away from its neighbours or the coast")
            continue
        regions.append(Region(name, terrain, shape, kpos))
    if v.error_count(r) > errors_before:
        return None
    connections = shape_connections({name: exact[name] for name in sites})
    return regions, connections, width, height


def _split_by_masses(names: list[str], points: dict[str, tuple[float, float]], area: BaseGeometry,
                     frame: Polygon) -> dict[str, BaseGeometry]:
    """Each site's region: the part of its own land mass (or body of water) nearest to it.

    Splitting the whole area at once would let a site's region reach across water onto another
    land mass (a sliver of Sweden for a site in Pomerania) and connect the two by land; so each
    connected piece of the area is shared only among the sites standing on it. A piece without a
    site (a small island) goes whole to the nearest site, whose territory then has an island."""
    pieces = [p for p in shapely.get_parts(area) if isinstance(p, Polygon) and not p.is_empty]
    shapes: dict[str, list[BaseGeometry]] = {name: [] for name in names}
    for piece in pieces:
        shapely.prepare(piece)
        standing = [n for n in names if piece.covers(shapely.Point(points[n]))]
        if not standing:
            nearest = min(names, key=lambda n: (piece.distance(shapely.Point(points[n])), names.index(n)))
            shapes[nearest].append(piece)
            continue
        for name, cell in zip(standing, _voronoi([points[n] for n in standing], frame)):
            shapes[name].append(cell.intersection(piece))
    return {name: shapely.union_all(parts) if parts else Polygon() for name, parts in shapes.items()}


def _voronoi(points: list[tuple[float, float]], frame: Polygon) -> list[BaseGeometry]:
    if len(points) == 1:
        return [frame]
    cells = shapely.voronoi_polygons(MultiPoint(points), extend_to=frame, ordered=True)
    return [cell.intersection(frame) for cell in shapely.get_parts(cells)]


def read_polygons(r, data, pos: Position):
    section = r.mapping(data, "polygons", pos)
    if section is None:
        return None
    errors_before = v.error_count(r)
    if len(section) > MAX_TERRITORIES:
        r.error(v.BAD_VALUE, f"more than {MAX_TERRITORIES} polygons", r.pos(section), "use fewer territories")
        return None
    shapes: dict[str, tuple[str, BaseGeometry, Position]] = {}
    for key, body in section.items():
        kpos = section.position_of(key)
        name = v.territory_name(r, key, "a polygon's territory name", kpos)
        terrain: str | None = LAND  # None: a bad terrain, reported
        points = body
        if isinstance(body, dict):
            r.check_keys(body, ("terrain", "points"), f"polygon {key}")
            terrain = v.keyword(r, body.get("terrain", LAND), f"terrain of {key}", kpos, TERRAINS)
            points = body.get("points")
        parts = _rings(r, points, f"polygon {key}", kpos, v.MAX_SIDE, v.MAX_SIDE)
        if name is None or terrain is None or not parts:
            continue
        shapes[name] = (terrain, shapely.union_all(parts), kpos)
    if v.error_count(r) > errors_before:
        return None
    if not shapes:
        r.error(v.NO_LAYOUT, "polygons lists no territories", r.pos(section), "add Name: [[x, y], ...]")
        return None
    # Overlaps: a shape drawn wholly inside another cuts itself out of it (islands in a sea zone,
    # lakes and enclaves in land); where land and sea merely overlap, land wins, as in TripleA.
    exact: dict[str, BaseGeometry] = {}
    names = list(shapes)
    geometries = [shapes[name][1] for name in names]
    overlapping: dict[int, list[int]] = {}
    for a, b in zip(*(side.tolist() for side in shapely.STRtree(geometries).query(geometries, "intersects"))):
        if a != b:
            overlapping.setdefault(a, []).append(b)
    for index, name in enumerate(names):
        terrain, shape, kpos = shapes[name]
        cut = []
        for other_index in overlapping.get(index, []):
            other = names[other_index]
            other_terrain, other_shape, _ = shapes[other]
            if shape.intersection(other_shape).area <= 1:
                continue
            if shape.buffer(0.5).contains(other_shape):
                cut.append(other_shape)
            elif other_shape.buffer(0.5).contains(shape):
                continue  # this one is the inner shape; the outer one gives way
            elif terrain == SEA and other_terrain != SEA:
                cut.append(other_shape)
            elif (terrain == SEA) == (other_terrain == SEA) and index < other_index:
                r.error(v.BAD_POLYGON, f"polygons {name} and {other} overlap", kpos,
                        "territories may share edges, contain one another, or land may cover sea; "
                        "other overlaps are ambiguous")
        exact[name] = shape.difference(shapely.union_all(cut)) if cut else shape
    if v.error_count(r) > errors_before:
        return None
    regions = []
    for name, (terrain, _, kpos) in shapes.items():
        shape = to_pixels(exact[name])
        if shape.is_empty:
            r.error(v.EMPTY_REGION, f"polygon {name} has no area left (covered by other polygons)", kpos,
                    "make it reach beyond the shapes drawn over it")
            continue
        regions.append(Region(name, terrain, shape, kpos))
    if v.error_count(r) > errors_before:
        return None
    minx, miny, maxx, maxy = shapely.union_all([region.shape for region in regions]).bounds
    width, height = int(math.ceil(maxx)) + 1, int(math.ceil(maxy)) + 1
    if width * height > v.MAX_PIXELS:
        r.error(v.BAD_VALUE, f"the polygons span {width} x {height} pixels; too large", r.pos(section),
                f"keep the map under {v.MAX_PIXELS:,} pixels")
        return None
    return regions, shape_connections(exact), width, height
