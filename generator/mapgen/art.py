"""The map's pictures, drawn with Pillow: the full map (cut into 256-pixel base
tiles), the mini map, the preview, and simple unit and flag images in each
player's colour (the 1.9 engine ships no unit art, so without them the units
would be invisible).

Deterministic: no timestamps or metadata are written; PNG and JPEG encoder
settings are fixed; the font is the one bundled with Pillow, not a system font.
"""
from __future__ import annotations

import io
import math

import numpy as np
import shapely
from PIL import Image, ImageDraw
from shapely.geometry import Polygon

from generator.core.progress import progress
from generator.mapgen import colors, features
from generator.mapgen.fonts import font, text_width
from generator.mapgen.placement import Layout
from generator.mapgen.shapes import IMPASSABLE, LAND, SEA, MapGeometry

TILE = 256
SMALL_MAP_WIDTH = 250
PREVIEW_WIDTH = 1024
UNIT_IMAGE = 48
PNG_OPTIONS: dict[str, object] = {"compress_level": 6}
JPEG_OPTIONS: dict[str, object] = {"quality": 88, "optimize": False, "progressive": False, "subsampling": 0}


def rgb(hex_color: str) -> tuple[int, int, int]:
    return int(hex_color[0:2], 16), int(hex_color[2:4], 16), int(hex_color[4:6], 16)


def _mix(color: tuple[int, int, int], other: tuple[int, int, int], amount: float) -> tuple[int, int, int]:
    (r, g, b), (r2, g2, b2) = color, other
    return (int(round(r + (r2 - r) * amount)), int(round(g + (g2 - g) * amount)), int(round(b + (b2 - b) * amount)))


def png_bytes(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", **PNG_OPTIONS)  # safe-write: into memory
    return buffer.getvalue()


def jpeg_bytes(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, "JPEG", **JPEG_OPTIONS)  # safe-write: into memory
    return buffer.getvalue()


def _rings(shape):
    for part in shapely.get_parts(shape):
        if isinstance(part, Polygon) and not part.is_empty:
            yield [tuple(map(int, c)) for c in part.exterior.coords], [
                [tuple(map(int, c)) for c in hole.coords] for hole in part.interiors]


def render_layers(geometry: MapGeometry, layouts: dict[str, Layout],
                  production: dict[str, int]) -> tuple[Image.Image, Image.Image]:
    """The base picture (terrain fills: what the client shows where it paints no owner colour, i.e.
    at sea) and the overlay (grid, borders, coasts, relief, named lines, labels) with transparency.
    The client paints each land territory in its owner's colour over the base tiles and the relief
    tiles over that, so everything that must stay visible on owned land lives in the overlay."""
    style = geometry.style
    colors = {LAND: rgb(style.land), SEA: rgb(style.sea), IMPASSABLE: rgb(style.impassable)}
    canvas = colors[SEA] if geometry.canvas == SEA else rgb(style.background)
    base = Image.new("RGB", (geometry.width, geometry.height), canvas)
    draw = ImageDraw.Draw(base)
    for shape in geometry.blocked:
        _fill(draw, shape, colors[IMPASSABLE], canvas)
    # Larger regions first: whatever sits in a region's hole (an island, an enclave) is drawn over it.
    regions = sorted(geometry.regions, key=lambda region: -region.shape.area)
    for region in regions:
        _fill(draw, region.shape, colors[region.terrain], canvas)
    _waves(draw, [region.shape for region in regions if region.water], colors[SEA], geometry.cell_size)
    overlay = Image.new("RGBA", (geometry.width, geometry.height), (0, 0, 0, 0))
    ink = ImageDraw.Draw(overlay)
    features.draw_area_tints(ink, geometry)
    for shape in geometry.blocked:
        _mountains(ink, shape, colors[IMPASSABLE], geometry.cell_size)
    for region in regions:
        if region.terrain == IMPASSABLE:
            _mountains(ink, region.shape, colors[IMPASSABLE], geometry.cell_size)
    _grid(ink, geometry)
    sea_border = _mix(colors[SEA], (255, 255, 255), 0.45) + (220,)
    for region in geometry.regions:
        if region.water:
            _outline(ink, region.shape, sea_border, 1)
    border = rgb(style.border) + (235,)
    for region in geometry.regions:
        if region.box:
            _box_frame(ink, region.shape, rgb(style.border))
        elif not region.water:
            _outline(ink, region.shape, border, 2)
    _coasts(ink, geometry, _mix(colors[SEA], (0, 0, 0), 0.55) + (255,))
    _barriers(ink, geometry, colors[SEA])
    features.draw_features(ink, geometry)
    if style.labels:
        for region in geometry.regions:
            _label(ink, region, layouts[region.name], production.get(region.name, 0) if style.production else 0,
                   style)
    features.draw_legend(ink, geometry)
    return base, overlay


def render_map(geometry: MapGeometry, layouts: dict[str, Layout], production: dict[str, int]) -> Image.Image:
    """The whole map as the client shows it at sea and before any owner colour: base and overlay."""
    base, overlay = render_layers(geometry, layouts, production)
    return composite(base, overlay)


def composite(base: Image.Image, overlay: Image.Image) -> Image.Image:
    picture = base.convert("RGBA")
    picture.alpha_composite(overlay)
    return picture.convert("RGB")


def _grid(draw: ImageDraw.ImageDraw, geometry: MapGeometry) -> None:
    """Every cell's outline, fine and half transparent: darker on land, lighter at sea, so the
    cells can be counted whatever colour the owner paints the territory."""
    shades = {LAND: (0, 0, 0, 70), IMPASSABLE: (0, 0, 0, 70), SEA: (255, 255, 255, 90)}
    for terrain, ring in geometry.cells:
        draw.line(ring + ring[:1], fill=shades[terrain], width=1)


def _coasts(draw: ImageDraw.ImageDraw, geometry: MapGeometry, color) -> None:
    """Where land meets sea: a strong line, so coasts read at a glance."""
    land = [r.shape for r in geometry.regions if not r.water]
    sea = [r.shape for r in geometry.regions if r.water]
    if not land or not sea:
        return
    sea_area = shapely.union_all(sea).buffer(1.0)
    for land_shape in land:
        if not land_shape.intersects(sea_area):
            continue
        coast = land_shape.boundary.intersection(sea_area)
        for part in shapely.get_parts(coast):
            if part.geom_type in ("LineString", "LinearRing") and part.length >= 2:
                draw.line([tuple(map(int, c)) for c in part.coords], fill=color, width=3, joint="curve")


def _box_frame(draw: ImageDraw.ImageDraw, shape, color) -> None:
    """An off-map box: a heavy frame with a thin inner line, as on a printed map's holding boxes."""
    x0, y0, x1, y1 = (int(v) for v in shape.bounds)
    draw.rectangle((x0, y0, x1, y1), outline=color + (255,), width=3)
    if x1 - x0 > 12 and y1 - y0 > 12:
        draw.rectangle((x0 + 5, y0 + 5, x1 - 5, y1 - 5), outline=color + (150,), width=1)


def _barriers(draw: ImageDraw.ImageDraw, geometry: MapGeometry, sea) -> None:
    """Borders the spec blocks (a strait, a river): a band of water with dark banks."""
    for first, second in geometry.barriers:
        a, b = geometry.region(first), geometry.region(second)
        if a is None or b is None:
            continue
        shared = a.shape.boundary.intersection(b.shape.boundary)
        for part in shapely.get_parts(shared):
            if part.geom_type == "LineString" and part.length >= 2:
                points = [tuple(map(int, c)) for c in part.coords]
                draw.line(points, fill=_mix(sea, (0, 0, 0), 0.55) + (255,), width=7, joint="curve")
                draw.line(points, fill=sea + (255,), width=4, joint="curve")


def _waves(draw: ImageDraw.ImageDraw, seas, color, cell_size: float) -> None:
    """Relief for the sea (which the client shows from the base tiles): small wave marks on a
    staggered grid, a shade lighter than the water."""
    if not seas:
        return
    water = shapely.union_all(seas)
    step = max(18, int(cell_size / 2.5))
    minx, miny, maxx, maxy = (int(b) for b in water.bounds)
    ys = np.arange(miny + step // 2, maxy, step)
    xs = np.arange(minx + step // 2, maxx, step)
    if not len(xs) or not len(ys):
        return
    gx, gy = np.meshgrid(xs, ys)
    gx = gx + (np.arange(len(ys))[:, None] % 2) * (step // 2)  # every other row shifted: staggered
    px, py = gx.ravel(), gy.ravel()
    half = max(3, step // 5)
    inside = shapely.contains_xy(water, px - half, py) & shapely.contains_xy(water, px + half, py)
    shade = _mix(color, (255, 255, 255), 0.22)
    for x, y in zip(px[inside].tolist(), py[inside].tolist()):
        draw.arc((x - half, y - half // 2, x, y + half // 2), 200, 340, fill=shade, width=1)
        draw.arc((x, y - half // 2, x + half, y + half // 2), 200, 340, fill=shade, width=1)


def _fill(draw: ImageDraw.ImageDraw, shape, color, canvas) -> None:
    for outer, holes in _rings(shape):
        draw.polygon(outer, fill=color)
        for hole in holes:
            draw.polygon(hole, fill=canvas)


def _outline(draw: ImageDraw.ImageDraw, shape, color, width: int) -> None:
    for outer, holes in _rings(shape):
        for ring in (outer, *holes):
            draw.line(ring, fill=color, width=width, joint="curve")


def _mountains(draw: ImageDraw.ImageDraw, shape, color, cell_size: float) -> None:
    """Small peaks on a regular grid, so impassable ground reads as mountains at a glance."""
    dark, light = _mix(color, (0, 0, 0), 0.35), _mix(color, (255, 255, 255), 0.35)
    step = max(14, int(cell_size / 3))
    size = step // 3
    minx, miny, maxx, maxy = (int(b) for b in shape.bounds)
    shapely.prepare(shape)
    for row, y in enumerate(range(miny + step // 2, maxy, step)):
        for x in range(minx + step // 2 + (step // 2 if row % 2 else 0), maxx, step):
            peak = [(x - size, y + size // 2), (x, y - size), (x + size, y + size // 2)]
            if all(shape.contains(shapely.Point(p)) for p in peak):
                draw.polygon(peak, fill=light, outline=dark)


def _label(draw: ImageDraw.ImageDraw, region, layout: Layout, production: int, style) -> None:
    """The name (and production under it) in the size placement chose, with a light halo so it
    reads on any owner's colour."""
    size = layout.font_size or style.font_size
    color = rgb(style.sea_label if region.water else style.label)
    halo = (20, 30, 45, 170) if region.water else (255, 255, 255, 170)
    x, y = layout.label
    top = y - label_height(size, bool(production)) / 2
    draw.text((x, top), region.name, font=font(size), fill=color + (255,), anchor="mt", stroke_width=1,
              stroke_fill=halo)
    if production:
        draw.text((x, top + size + 1), str(production), font=font(max(7, size - 1)), fill=color + (255,),
                  anchor="mt", stroke_width=1, stroke_fill=halo)


def label_height(size: int, with_value: bool) -> float:
    return size * 2 + 3 if with_value else size + 2


def label_size(name: str, style, with_value: bool, size: int | None = None) -> tuple[float, float]:
    """Width and height of a name label on the map art (and of the production line under it)."""
    size = size or style.font_size
    width = text_width(name, size) + 2  # the halo
    return width, label_height(size, with_value and style.production)


def tiles(image: Image.Image, skip_empty: bool = False) -> dict[str, bytes]:
    """baseTiles/<column>_<row>.png (or reliefTiles/), 256 x 256; the last row and column may be
    smaller. skip_empty: leave out wholly transparent tiles (the client draws nothing for them)."""
    result = {}
    rows, columns = range(0, image.height, TILE), range(0, image.width, TILE)
    with progress("drawing map tiles", len(rows) * len(columns)) as shown:
        for row in rows:
            for column in columns:
                tile = image.crop((column, row, min(column + TILE, image.width), min(row + TILE, image.height)))
                if skip_empty and tile.getchannel("A").getbbox() is None:
                    shown.advance()
                    continue
                result[f"{column // TILE}_{row // TILE}.png"] = png_bytes(tile)
                shown.advance()
    return result


def scaled(image: Image.Image, width: int) -> Image.Image:
    width = min(width, image.width)
    height = max(1, round(image.height * width / image.width))
    # reducing_gap: a fast box reduction first, Lanczos for the last factor (same look, a third of the time)
    return image.resize((width, height), Image.Resampling.LANCZOS, reducing_gap=2.0)


def small_map(image: Image.Image) -> bytes:
    return jpeg_bytes(scaled(image, SMALL_MAP_WIDTH))


def preview(image: Image.Image, width: int = PREVIEW_WIDTH) -> bytes:
    return png_bytes(scaled(image, width))


# Units and flags -----------------------------------------------------------------------------


def unit_abbreviation(unit: str) -> str:
    split = unit_words(unit)
    if len(split) > 1:
        return "".join(w[0] for w in split[:3]).upper()
    return (split[0][:3] if split else "?").capitalize()


# NATO-style symbols by the words in a land unit's name; the first match wins.
LAND_SYMBOLS = (("partisan", "guerrilla"), ("mech", "motor", "panzergren"), ("armor", "armour", "tank", "panzer"),
                ("aa", "flak", "antiair"), ("artillery", "gun", "howitzer"), ("cavalry", "cav", "horse"),
                ("marine",), ("para", "airborne"), ("mountain",), ("infantry", "inf", "militia", "rifle", "guard"))
SYMBOL_NAMES = ("partisan", "mech", "armor", "aa", "artillery", "cavalry", "marine", "airborne", "mountain",
                "infantry")


def land_symbol(unit: str) -> str | None:
    """The NATO symbol a land unit's name suggests (infantry, armor, ...), or None."""
    words = unit_words(unit)
    text = "".join(words)
    for symbol, keys in zip(SYMBOL_NAMES, LAND_SYMBOLS):
        if any(key in words or (len(key) > 3 and key in text) for key in keys):
            return symbol
    return None


def unit_words(unit: str) -> list[str]:
    words = [w for w in "".join(ch if ch.isalnum() else " " for ch in unit).split() if w]
    split: list[str] = []
    for word in words:  # camelCase counts as words too
        current = word[0]
        for ch in word[1:]:
            if ch.isupper() and not current[-1].isupper():
                split.append(current.lower())
                current = ch
            else:
                current += ch
        split.append(current.lower())
    return split


def factors_text(factors: tuple[int, int, int] | None) -> str:
    """Attack-defense-movement, as printed on a wargame counter."""
    if not factors or not any(factors):
        return ""
    return "-".join(str(f) for f in factors)


def unit_image(unit: str, kind: str, player_color: str, damaged: bool = False,
               factors: tuple[int, int, int] | None = None) -> bytes:
    """A 48-pixel wargame counter in the player's colour with a contrasting border: a NATO-style
    symbol for the unit's kind (infantry X, armour track, artillery dot, aircraft, ship, factory)
    and the combat factors (attack-defense-movement) under it."""
    fill = rgb(player_color)
    edge = contrasting(fill)
    outer = (0, 0, 0) if edge[0] > 128 else (255, 255, 255)
    image = Image.new("RGBA", (UNIT_IMAGE, UNIT_IMAGE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    s = UNIT_IMAGE
    draw.rounded_rectangle((0, 0, s - 1, s - 1), radius=5, fill=outer + (255,))
    draw.rounded_rectangle((2, 2, s - 3, s - 3), radius=4, fill=fill + (255,), outline=edge + (255,), width=2)
    text = factors_text(factors)
    box = (9, 7, s - 10, 27 if text else 36)
    ink = edge + (255,)
    if kind == "sea":
        _ship(draw, box, ink)
    elif kind == "air":
        _aircraft(draw, box, ink)
    elif kind == "building":
        (_seat_of_government if is_seat_of_government(unit) else _factory)(draw, box, ink)
    else:
        symbol = land_symbol(unit)
        draw.rectangle(box, outline=ink, width=2)
        if symbol is None:
            draw.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 1), unit_abbreviation(unit), font=font(11),
                      fill=ink, anchor="mm")
        else:
            _land_symbol(draw, symbol, box, ink)
    if text:
        size = 15
        while size > 9 and font(size).getlength(text) > s - 8:
            size -= 1
        draw.text((s // 2, s - 11), text, font=font(size), fill=ink, anchor="mm", stroke_width=0)
    if damaged:
        draw.line((8, 8, s - 8, s - 8), fill=(220, 20, 20, 255), width=4)
        draw.line((8, s - 8, s - 8, 8), fill=(220, 20, 20, 255), width=4)
    return png_bytes(image)


def _land_symbol(draw: ImageDraw.ImageDraw, symbol: str, box, ink) -> None:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    w, h = x1 - x0, y1 - y0
    if symbol in ("infantry", "mech", "marine", "airborne", "mountain"):
        draw.line((x0, y0, x1, y1), fill=ink, width=2)
        draw.line((x0, y1, x1, y0), fill=ink, width=2)
    if symbol in ("armor", "mech"):
        draw.rounded_rectangle((x0 + w * 0.18, y0 + h * 0.25, x1 - w * 0.18, y1 - h * 0.25), radius=h * 0.25,
                               outline=ink, width=2)
    elif symbol == "artillery":
        r = min(w, h) * 0.2
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink)
    elif symbol == "cavalry":
        draw.line((x0, y1, x1, y0), fill=ink, width=2)
    elif symbol == "aa":
        draw.arc((x0 + 2, y0 + h * 0.35, x1 - 2, y1 + h * 0.6), 180, 360, fill=ink, width=2)
    elif symbol == "partisan":
        draw.text((cx, cy + 1), "G", font=font(int(h * 0.8)), fill=ink, anchor="mm")
    elif symbol == "marine":
        draw.line((cx - w * 0.15, y1 - 3, cx + w * 0.15, y1 - 3), fill=ink, width=2)
    elif symbol == "airborne":
        draw.arc((cx - w * 0.25, y1 - h * 0.45, cx, y1 + h * 0.05), 180, 360, fill=ink, width=1)
        draw.arc((cx, y1 - h * 0.45, cx + w * 0.25, y1 + h * 0.05), 180, 360, fill=ink, width=1)
    elif symbol == "mountain":
        draw.polygon(((cx - w * 0.15, y1), (cx, y1 - h * 0.4), (cx + w * 0.15, y1)), fill=ink)


def _aircraft(draw: ImageDraw.ImageDraw, box, ink) -> None:
    """A plane seen from above: fuselage, wings and tail."""
    x0, y0, x1, y1 = box
    cx, w, h = (x0 + x1) / 2, x1 - x0, y1 - y0
    draw.line((cx, y0, cx, y1), fill=ink, width=3)
    draw.polygon(((x0, y0 + h * 0.55), (cx, y0 + h * 0.3), (x1, y0 + h * 0.55), (cx, y0 + h * 0.45)), fill=ink)
    draw.polygon(((cx - w * 0.22, y1), (cx, y1 - h * 0.2), (cx + w * 0.22, y1)), fill=ink)


def _ship(draw: ImageDraw.ImageDraw, box, ink) -> None:
    """A hull with a superstructure, side on."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    draw.polygon(((x0 - 2, y0 + h * 0.55), (x1 + 2, y0 + h * 0.55), (x1 - w * 0.12, y1), (x0 + w * 0.12, y1)),
                 fill=ink)
    draw.rectangle((x0 + w * 0.35, y0 + h * 0.25, x0 + w * 0.65, y0 + h * 0.55), fill=ink)
    draw.line((x0 + w * 0.5, y0, x0 + w * 0.5, y0 + h * 0.25), fill=ink, width=2)


SEAT_WORDS = ("government", "capital", "seat", "hq", "headquarters", "palace")


def is_seat_of_government(unit: str) -> bool:
    """A building named as a seat of government (a minor country's capital marker in a unit), which
    should not look like the factory a player can build in."""
    return any(word in SEAT_WORDS for word in unit_words(unit))


def _seat_of_government(draw: ImageDraw.ImageDraw, box, ink) -> None:
    """A flag on its pole above a stepped base."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    pole = x0 + w * 0.3
    draw.rectangle((x0 + w * 0.1, y1 - h * 0.12, x1 - w * 0.1, y1), fill=ink)
    draw.rectangle((x0 + w * 0.2, y1 - h * 0.24, x1 - w * 0.2, y1 - h * 0.12), fill=ink)
    draw.line((pole, y0, pole, y1 - h * 0.24), fill=ink, width=2)
    draw.polygon(((pole, y0), (x1 - w * 0.05, y0 + h * 0.2), (pole, y0 + h * 0.4)), fill=ink)


def _factory(draw: ImageDraw.ImageDraw, box, ink) -> None:
    """A saw-tooth roofed works with a chimney."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    teeth = [(x0, y1), (x0, y0 + h * 0.45)]
    for step in range(3):
        left = x0 + w * 0.25 * step
        teeth += [(left + w * 0.25, y0 + h * 0.25), (left + w * 0.25, y0 + h * 0.45)]
    teeth += [(x1, y0 + h * 0.45), (x1, y1)]
    draw.polygon(teeth, fill=ink)
    draw.rectangle((x1 - w * 0.18, y0, x1 - w * 0.06, y0 + h * 0.45), fill=ink)


def contrasting(color: tuple[int, int, int]) -> tuple[int, int, int]:
    return colors.contrasting(color)


def flag_images(player: str, player_color: str, marker_size: int = 100) -> dict[str, bytes]:
    """flags/<Player>.png (32), _small (12), and _large: the capital marker, drawn unscaled by the
    engine, so sized to the map's units rather than the engine's usual 100 pixels: a disc in the
    player's colour with a contrasting ring and star, to match the counters."""
    fill = rgb(player_color)
    edge = contrasting(fill)
    outer = (0, 0, 0) if edge[0] > 128 else (255, 255, 255)
    result = {}
    for suffix, size in (("", 32), ("_small", 12), ("_large", marker_size)):
        image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
        draw = ImageDraw.Draw(image)
        border = max(1, size // 12)
        if suffix == "_large":
            draw.ellipse((0, 0, size - 1, size - 1), fill=outer + (255,))
            draw.ellipse((1, 1, size - 2, size - 2), fill=fill + (255,), outline=edge + (255,), width=border)
            _star(draw, size / 2, size / 2 + size * 0.03, size * 0.3, edge + (255,))
        else:
            draw.rectangle((0, size // 8, size - 1, size - 1 - size // 8), fill=fill, outline=outer, width=1)
            if size >= 24:
                draw.rectangle((2, size // 8 + 2, size - 3, size - 3 - size // 8), outline=edge, width=1)
                draw.text((size // 2, size // 2), player[:1].upper(), font=font(int(size * 0.5)), fill=edge,
                          anchor="mm")
        result[f"{player}{suffix}.png"] = png_bytes(image)
    return result


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, radius: float, color) -> None:
    points = []
    for index in range(10):
        angle = math.pi / 2 + index * math.pi / 5
        r = radius if index % 2 == 0 else radius * 0.42
        points.append((cx + r * math.cos(angle), cy - r * math.sin(angle)))
    draw.polygon(points, fill=color)


def victory_city_marker(size: int) -> bytes:
    """misc/vc.png, sized like the capital marker: a gold star with a dark edge on a white disc."""
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.ellipse((0, 0, size - 1, size - 1), fill=(255, 255, 255, 235), outline=(40, 40, 40, 255),
                 width=max(1, size // 14))
    _star(draw, size / 2 + 0.5, size / 2 + size * 0.04, size * 0.42, (40, 40, 40, 255))
    _star(draw, size / 2 + 0.5, size / 2 + size * 0.04, size * 0.34, (230, 180, 20, 255))
    return png_bytes(image)
