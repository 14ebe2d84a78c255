"""The map's pictures, drawn with Pillow: the full map (cut into 256-pixel base
tiles), the mini map, the preview, and simple unit and flag images in each
player's colour (the 1.9 engine ships no unit art, so without them the units
would be invisible).

Deterministic: no timestamps or metadata are written; PNG and JPEG encoder
settings are fixed; the font is the one bundled with Pillow, not a system font.
"""
from __future__ import annotations

import io
from functools import lru_cache

import shapely
from PIL import Image, ImageDraw, ImageFont
from shapely.geometry import Polygon

from generator.core.progress import progress
from generator.mapgen import features
from generator.mapgen.placement import Layout
from generator.mapgen.shapes import IMPASSABLE, LAND, SEA, MapGeometry

TILE = 256
SMALL_MAP_WIDTH = 250
PREVIEW_WIDTH = 1024
UNIT_IMAGE = 48
PNG_OPTIONS = {"format": "PNG", "compress_level": 6}
JPEG_OPTIONS = {"format": "JPEG", "quality": 88, "optimize": False, "progressive": False, "subsampling": 0}


def rgb(hex_color: str) -> tuple[int, int, int]:
    return int(hex_color[0:2], 16), int(hex_color[2:4], 16), int(hex_color[4:6], 16)


def _mix(color: tuple[int, int, int], other: tuple[int, int, int], amount: float) -> tuple[int, int, int]:
    return tuple(int(round(a + (b - a) * amount)) for a, b in zip(color, other))


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size)


def png_bytes(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, **PNG_OPTIONS)
    return buffer.getvalue()


def jpeg_bytes(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, **JPEG_OPTIONS)
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
    overlay = Image.new("RGBA", (geometry.width, geometry.height), (0, 0, 0, 0))
    ink = ImageDraw.Draw(overlay)
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
    width = font(size).getlength(name) + 2  # the halo
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
    words = [w for w in "".join(ch if ch.isalnum() else " " for ch in unit).split() if w]
    split: list[str] = []
    for word in words:  # camelCase counts as words too
        current = word[0]
        for ch in word[1:]:
            if ch.isupper() and not current[-1].isupper():
                split.append(current)
                current = ch
            else:
                current += ch
        split.append(current)
    if len(split) > 1:
        return "".join(w[0] for w in split[:3]).upper()
    return (split[0][:3] if split else "?").capitalize()


def unit_image(unit: str, kind: str, player_color: str, damaged: bool = False) -> bytes:
    """A 48-pixel counter: the shape tells land, sea, air or building; the letters tell the type."""
    fill = rgb(player_color)
    dark = _mix(fill, (0, 0, 0), 0.55)
    text_color = (255, 255, 255) if sum(fill) < 420 else (20, 20, 20)
    image = Image.new("RGBA", (UNIT_IMAGE, UNIT_IMAGE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    s = UNIT_IMAGE
    if kind == "sea":
        draw.polygon([(2, 20), (s - 3, 20), (s - 9, s - 8), (8, s - 8)], fill=fill, outline=dark, width=2)
        draw.rectangle((s // 2 - 6, 9, s // 2 + 6, 20), fill=fill, outline=dark, width=2)
        text_at = (s // 2, 30)
    elif kind == "air":
        draw.polygon([(s // 2, 2), (s - 2, s - 8), (s // 2, s - 15), (2, s - 8)], fill=fill, outline=dark, width=2)
        text_at = (s // 2, 25)
    elif kind == "building":
        draw.polygon([(4, s - 5), (4, 16), (s // 2, 4), (s - 5, 16), (s - 5, s - 5)], fill=fill, outline=dark,
                     width=2)
        text_at = (s // 2, 30)
    else:
        draw.rounded_rectangle((4, 8, s - 5, s - 9), radius=7, fill=fill, outline=dark, width=2)
        text_at = (s // 2, s // 2)
    draw.text(text_at, unit_abbreviation(unit), font=font(13), fill=text_color, anchor="mm", stroke_width=1,
              stroke_fill=dark if text_color[0] > 128 else _mix(fill, (255, 255, 255), 0.6))
    if damaged:
        draw.line((8, 8, s - 8, s - 8), fill=(200, 20, 20), width=4)
        draw.line((8, s - 8, s - 8, 8), fill=(200, 20, 20), width=4)
    return png_bytes(image)


def flag_images(player: str, player_color: str, marker_size: int = 100) -> dict[str, bytes]:
    """flags/<Player>.png (32), _small (12), and _large: the round capital marker, drawn unscaled by
    the engine, so sized to the map's units rather than the engine's usual 100 pixels."""
    fill = rgb(player_color)
    dark = _mix(fill, (0, 0, 0), 0.5)
    text_color = (255, 255, 255) if sum(fill) < 420 else (20, 20, 20)
    result = {}
    for suffix, size in (("", 32), ("_small", 12), ("_large", marker_size)):
        image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
        draw = ImageDraw.Draw(image)
        border = max(1, size // 16)
        if suffix == "_large":
            draw.ellipse((0, 0, size - 1, size - 1), fill=(255, 255, 255), outline=dark, width=border)
            inset = max(2, size // 8)
            draw.ellipse((inset, inset, size - 1 - inset, size - 1 - inset), fill=fill)
        else:
            draw.rectangle((0, size // 8, size - 1, size - 1 - size // 8), fill=fill, outline=dark, width=border)
        if size >= 24:
            draw.text((size // 2, size // 2), player[:1].upper(), font=font(int(size * 0.5)), fill=text_color,
                      anchor="mm")
        result[f"{player}{suffix}.png"] = png_bytes(image)
    return result
