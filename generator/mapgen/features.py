"""`map: lines:` — named lines and areas drawn over a generated map, with a legend: the lines
the rules depend on (a pact line, a front, a zone) become visible on the board.

    lines:
      Nazi-Soviet Pact line:               # the border between two groups of territories
        between: [[Warsaw, Lublin], [Brest-Litovsk, Lvov]]
        color: '#C00000'
        dashed: true
      Finnish front: {through: [A46, B45, C44]}      # through territories' (or cells') centres
      Demarcation: {points: [[10, 20], [300, 40]]}   # pixels
      Soviet sphere: {around: [Riga, Tallinn, Parnu], color: '#B22222'}   # an area: outlined, tinted
"""
from __future__ import annotations

import shapely
from PIL import ImageDraw
from shapely.ops import linemerge, polylabel

from generator.core.diagnostics import Position
from generator.mapgen import values as v
from generator.mapgen.fonts import font
from generator.mapgen.grids import parse_cell_id
from generator.mapgen.shapes import Feature, MapGeometry

LINE_KEYS = ("between", "through", "points", "around", "color", "dashed", "width")
DEFAULT_COLORS = ("C00000", "1A1A1A", "6A3D9A", "E07B24")
BAD_FEATURE = "TG461"
LEGEND_FONT = 12


def read_features(r, data, pos: Position, regions, grid=None) -> list[Feature]:
    section = r.mapping(data, "lines", pos)
    shapes = {region.name: region.shape for region in regions}
    features = []
    for index, (name, body) in enumerate((section or {}).items()):
        fpos = section.position_of(name)
        if not isinstance(body, dict):
            r.error(BAD_FEATURE, f"line {name} must be a mapping with between, through, points or around", fpos,
                    "write e.g. Pact line: {between: [[A, B], [C, D]], color: '#C00000'}")
            continue
        r.check_keys(body, LINE_KEYS, f"line {name}")
        forms = [key for key in ("between", "through", "points", "around") if key in body]
        if len(forms) != 1:
            r.error(BAD_FEATURE, f"line {name} needs exactly one of between, through, points or around" +
                    (f", not {' and '.join(forms)}" if forms else ""), fpos,
                    "between: two lists of territories; through: territories or cells; points: pixels; "
                    "around: territories (an area)")
            continue
        color = v.color(r, body["color"], f"colour of line {name}", fpos) if "color" in body else \
            DEFAULT_COLORS[index % len(DEFAULT_COLORS)]
        dashed = v.flag(r, body.get("dashed", False), f"dashed of line {name}", fpos)
        width = v.number(r, body.get("width", 4), f"width of line {name}", fpos, 1, 20, True)
        form = forms[0]
        paths = _paths(r, form, body[form], name, fpos, shapes, grid)
        if paths is None or color is None or width is None:
            continue
        features.append(Feature(str(name), "area" if form == "around" else "line", paths, color, bool(dashed),
                                int(width), fpos))
    return features


def _names(r, value, what: str, pos: Position, shapes, grid, cells_allowed: bool = False):
    if not isinstance(value, list) or not value:
        r.error(BAD_FEATURE, f"{what} must be a list of territories", pos, "write [Name, Name, ...]")
        return None
    found = []
    for item in value:
        name = str(item)
        if name in shapes:
            found.append(shapes[name])
        elif cells_allowed and grid is not None and parse_cell_id(name) and grid.contains(parse_cell_id(name)):
            found.append(shapely.Polygon(_cell_pixels(grid, parse_cell_id(name))))
        else:
            r.error(BAD_FEATURE, f"{what}: no territory {name!r} on the map", pos,
                    "use the names the map generates (run triplea-gen preview to see them)" +
                    (" or cell ids such as C4" if cells_allowed and grid is not None else ""))
            return None
    return found


def _cell_pixels(grid, cell):
    sx, sy = grid.lattice_scale()
    return [(grid.margin + x * sx, grid.margin + y * sy) for x, y in grid.lattice_corners(cell)]


def _centre(shape) -> tuple[int, int]:
    part = max(shapely.get_parts(shape), key=lambda p: p.area)
    point = polylabel(part, tolerance=1.0)
    return int(round(point.x)), int(round(point.y))


def _paths(r, form: str, value, name: str, pos: Position, shapes, grid):
    if form == "points":
        if not isinstance(value, list) or len(value) < 2:
            r.error(BAD_FEATURE, f"points of line {name} needs at least 2 points [[x, y], ...]", pos,
                    "list the line's corners in pixels")
            return None
        points = [v.point(r, p, f"a point of line {name}", pos) for p in value]
        return None if None in points else (tuple((int(x), int(y)) for x, y in points),)
    if form == "through":
        found = _names(r, value, f"through of line {name}", pos, shapes, grid, cells_allowed=True)
        if found is None:
            return None
        if len(found) < 2:
            r.error(BAD_FEATURE, f"line {name} goes through fewer than 2 places", pos, "list at least two")
            return None
        return (tuple(_centre(shape) for shape in found),)
    if form == "around":
        found = _names(r, value, f"around of line {name}", pos, shapes, grid)
        if found is None:
            return None
        area = shapely.union_all([shape.buffer(0.5) for shape in found]).buffer(-0.5)
        return tuple(tuple((int(round(x)), int(round(y))) for x, y in part.exterior.coords)
                     for part in shapely.get_parts(area) if part.area > 1)
    # between: the border the two groups share
    if not (isinstance(value, list) and len(value) == 2):
        r.error(BAD_FEATURE, f"between of line {name} must be two lists of territories", pos,
                "write between: [[West A, West B], [East A, East B]]")
        return None
    sides = [_names(r, side, f"between of line {name}", pos, shapes, grid) for side in value]
    if None in sides:
        return None
    first, second = (shapely.union_all(side) for side in sides)
    lines = _line_parts(first.boundary.intersection(second.boundary))  # exact on grids
    if not lines:  # free shapes share their borders only to within a pixel
        lines = _line_parts(first.boundary.intersection(second.buffer(1.5)))
    merged = linemerge(lines) if lines else None
    parts = [part for part in shapely.get_parts(merged) if part.length >= 2] if merged is not None else []
    if not parts:
        r.error(BAD_FEATURE, f"the two sides of line {name} share no border", pos,
                "list territories that touch each other, one side in each list")
        return None
    return tuple(tuple((int(round(x)), int(round(y))) for x, y in part.coords) for part in parts)


def _line_parts(shape) -> list:
    return [part for part in shapely.get_parts(shape)
            if part.geom_type in ("LineString", "LinearRing") and not part.is_empty]


# Drawing -------------------------------------------------------------------------------------


def _rgba(color: str, alpha: int = 255) -> tuple[int, int, int, int]:
    return int(color[0:2], 16), int(color[2:4], 16), int(color[4:6], 16), alpha


def _dashes(path, dash: float = 10.0, gap: float = 6.0):
    """The path cut into dashes (lists of points), the pattern running on across corners."""
    line = shapely.LineString(path)
    position, pieces = 0.0, []
    while position < line.length:
        piece = shapely.ops.substring(line, position, min(position + dash, line.length))
        if piece.geom_type == "LineString" and piece.length > 0:
            pieces.append([(int(round(x)), int(round(y))) for x, y in piece.coords])
        position += dash + gap
    return pieces


def draw_area_tints(draw: ImageDraw.ImageDraw, geometry: MapGeometry) -> None:
    """The areas' light tint: drawn first on the empty overlay (drawing replaces pixels there, it
    does not blend), so that the grid and borders stay on top."""
    for feature in geometry.features:
        if feature.kind == "area":
            for path in feature.paths:
                draw.polygon(path, fill=_rgba(feature.color, 40))


def draw_features(draw: ImageDraw.ImageDraw, geometry: MapGeometry) -> None:
    for feature in geometry.features:
        color = _rgba(feature.color)
        for path in feature.paths:
            closed = list(path) + ([path[0]] if feature.kind == "area" else [])
            pieces = _dashes(closed) if feature.dashed else [closed]
            for piece in pieces:  # a light casing first, so the line reads on any colour
                draw.line(piece, fill=(255, 255, 255, 170), width=feature.width + 2, joint="curve")
            for piece in pieces:
                draw.line(piece, fill=color, width=feature.width, joint="curve")


def legend_box(geometry: MapGeometry) -> tuple[int, int, int, int] | None:
    """Where the legend goes: along the map's edges, where it covers the least of any territory
    (the bottom right corner when several places are equally free)."""
    if not geometry.features:
        return None

    width = 52 + max(int(font(LEGEND_FONT).getlength(f.name)) for f in geometry.features) + 10
    height = 24 + 18 * len(geometry.features)
    board = shapely.union_all([r.shape for r in geometry.regions])
    shapely.prepare(board)
    margin = 6
    right, bottom = geometry.width - width - margin, geometry.height - height - margin
    step = max(16, min(geometry.width, geometry.height) // 24)
    spots = [(x, bottom) for x in range(right, margin - 1, -step)] + [(x, margin) for x in range(right, margin - 1, -step)]
    spots += [(right, y) for y in range(bottom, margin - 1, -step)] + [(margin, y) for y in range(bottom, margin - 1, -step)]
    spots = [(max(margin, x), max(margin, y)) for x, y in spots]
    best = min(spots, key=lambda c: board.intersection(shapely.box(c[0], c[1], c[0] + width, c[1] + height)).area)
    return best[0], best[1], best[0] + width, best[1] + height


def draw_legend(draw: ImageDraw.ImageDraw, geometry: MapGeometry) -> None:
    box = legend_box(geometry)
    if box is None:
        return

    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=(250, 248, 240, 255), outline=(30, 30, 30, 255), width=2)
    draw.text((x0 + 8, y0 + 5), "Legend", font=font(LEGEND_FONT + 1), fill=(20, 20, 20, 255))
    for row, feature in enumerate(geometry.features):
        y = y0 + 28 + 18 * row
        sample = [(x0 + 8, y), (x0 + 44, y)]
        if feature.kind == "area":
            tint = tuple(round(c + (b - c) * 0.75) for c, b in zip(_rgba(feature.color)[:3], (250, 248, 240)))
            draw.rectangle((x0 + 8, y - 6, x0 + 44, y + 6), fill=tint + (255,), outline=_rgba(feature.color),
                           width=2)
        else:
            for piece in (_dashes(sample) if feature.dashed else [sample]):
                draw.line(piece, fill=_rgba(feature.color), width=min(feature.width, 6))
        draw.text((x0 + 52, y), feature.name, font=font(LEGEND_FONT), fill=(20, 20, 20, 255), anchor="lm")
