"""The spec reader's side of map generation: the geometry keys of the `map:`
section become a MapGeometry, and the game gets the generated territories and
connections unless the spec lists its own."""
from __future__ import annotations

import statistics
from dataclasses import replace
from typing import Any

import shapely

from generator.model import game as m
from generator.core.diagnostics import Position
from generator.mapgen import colors, values as v
from generator.mapgen.features import read_features
from generator.mapgen.freeshapes import read_polygons, read_sites
from generator.mapgen.gridspec import read_grid
from generator.mapgen.scaling import client_scale, scaled_geometry, scaled_size, too_large
from generator.mapgen.shapes import IMPASSABLE, LAND, SEA, MapGeometry, Region, Style
from generator.mapgen.topology import ordered_connections

LAYOUT_KEYS = ("hexes", "squares", "sites", "polygons")
STYLE_KEYS = ("land", "sea", "impassable", "background", "border", "label", "seaLabel", "labels",
              "production", "fontSize", "unitScale", "mapScale", "unitImages", "players", "boxes")
_STYLE_COLORS = {"land": "land", "sea": "sea", "impassable": "impassable", "background": "background",
                 "border": "border", "label": "label", "seaLabel": "sea_label"}
# The unit scales map makers use; the engine's unit images are 48 pixels before scaling. A spec
# may ask for 1.25 by hand; chosen automatically, counters are at most the engine's own size.
UNIT_SCALES = (1.0, 0.875, 0.8333, 0.75, 0.6666, 0.5625, 0.5)
UNIT_IMAGE_SIZE = 48


def apply_geometry(r, section, game: m.Game) -> None:
    """Read the geometry keys of `map:` and give the game its territories and connections."""
    geometry = read_geometry(r, section)
    if geometry is None:
        return
    game.geometry = geometry
    at = section.position_of
    if "territories" in section:
        _check_listed(r, geometry, game, at("territories"))
    else:
        game.territories = [m.Territory(region.name, "true" if region.water else None, region.pos)
                            for region in geometry.regions]
    if "connections" not in section:
        positions = {region.name: region.pos for region in geometry.regions}
        game.connections = [m.Connection(a, b, positions[a]) for a, b in geometry.connections]


def read_geometry(r, section) -> MapGeometry | None:
    at = section.position_of
    layouts = [key for key in LAYOUT_KEYS if key in section]
    if len(layouts) != 1:
        where = at(layouts[1]) if layouts else r.pos(section)
        r.error(v.NO_LAYOUT, "map needs exactly one of hexes, squares, sites or polygons" +
                (f", not {' and '.join(layouts)}" if layouts else ""), where,
                "describe the board with one layout; join maps by hand with polygons")
        return None
    layout = layouts[0]
    errors_before = v.error_count(r)
    style = read_style(r, section.get("style"), at("style")) if "style" in section else Style()
    blocked, cells, grid = [], [], None
    if layout in ("hexes", "squares"):
        result = read_grid(r, section[layout], layout, at(layout))
        if result is None:
            return None
        grid, regions, pairs, blocked, cells = result
        width, height = grid.pixel_size()
        cell_size = grid.size if grid.kind == "square" else 3 ** 0.5 * grid.size
    else:
        reader = read_sites if layout == "sites" else read_polygons
        result = reader(r, section[layout], at(layout))
        if result is None:
            return None
        regions, pairs, width, height = result
        cell_size = statistics.median(region.shape.area for region in regions) ** 0.5
    if not regions:
        r.error(v.NO_LAYOUT, "the map has no territories", at(layout), "mark some cells as land or sea")
        return None
    names = [region.name for region in regions]
    touching = set(pairs)
    pairs = _override_connections(r, section, pairs, set(names))
    barriers = sorted(touching - pairs)
    if v.error_count(r) > errors_before or style is None:
        return None
    _warn_lone_territories(r, regions, pairs, style, at(layout))
    regions = _boxes_for_lone_territories(regions, pairs)
    boxes = [region.shape for region in regions if region.box]
    if boxes:  # a box shows no cells
        cells = [(terrain, ring) for terrain, ring in cells
                 if not any(box.contains(shapely.Polygon(ring).centroid) for box in boxes)]
    warn_close_colors(r, style, regions, blocked)
    features = read_features(r, section["lines"], at("lines"), regions, grid) if "lines" in section else []
    if v.error_count(r) > errors_before:
        return None
    geometry = MapGeometry(layout, width, height, regions, ordered_connections(pairs, names), style, blocked,
                           cell_size, "sea" if layout == "sites" else "none", at(layout), cells, features, barriers)
    factor = style.map_scale if style.map_scale is not None else client_scale(width, height, cell_size)
    if too_large(width, height, factor):
        new_width, new_height = scaled_size(width, height, factor)
        r.error(v.BAD_VALUE, f"style mapScale {factor} would draw the map {new_width} x {new_height} pixels; too large",
                at("style"), f"keep each side under {v.MAX_SIDE} and the map under {v.MAX_PIXELS:,} pixels")
        return None
    geometry = scaled_geometry(geometry, factor)
    if style.unit_scale is None:
        geometry = replace(geometry, style=_with_unit_scale(style, geometry.cell_size))
    return geometry


def _warn_lone_territories(r, regions: list[Region], pairs, style: Style, pos: Position) -> None:
    """A territory that borders nothing can never be entered or left; fine for an off-map box
    declared in style boxes:, a slip otherwise (a cell cut off by impassable ground or off-map
    cells, a site on an islet)."""
    linked = {name for pair in pairs for name in pair}
    declared = set(style.boxes)
    for name in style.boxes:
        if name not in {region.name for region in regions}:
            r.error(v.BAD_VALUE, f"style boxes: no territory {name!r} on the map", style.boxes_pos or pos,
                    "list off-map boxes by the names the map generates")
    for region in regions:
        if region.name not in linked and region.name not in declared:
            r.collector.warning(v.NO_NEIGHBOUR, f"territory {region.name} borders no other territory, so no unit "
                                "can enter or leave it", region.pos or pos,
                                "if it is an off-map box, list it in style: boxes: [...]; else join it with "
                                "extraConnections or give it a neighbouring cell")


def _boxes_for_lone_territories(regions: list[Region], pairs) -> list[Region]:
    """Land territories that border nothing (off-map boxes) become rectangles, where the rectangle
    around their shape is free of other territories."""
    linked = {name for pair in pairs for name in pair}
    lone = {region.name for region in regions if region.name not in linked and region.terrain == LAND}
    if not lone:
        return regions
    others = shapely.STRtree([region.shape for region in regions])
    shapes = [region.shape for region in regions]
    result = []
    for region in regions:
        if region.name in lone:
            frame = shapely.box(*region.shape.bounds)
            near = [shapes[i] for i in others.query(frame, "intersects") if shapes[i] is not region.shape]
            if all(frame.intersection(shape).area < 1 for shape in near):
                region = replace(region, shape=frame, box=True)
        result.append(region)
    return result


def _override_connections(r, section, pairs: set[tuple[str, str]], names: set[str]) -> set[tuple[str, str]]:
    pairs = set(pairs)
    for key, adding in (("extraConnections", True), ("blockedConnections", False)):
        if key not in section:
            continue
        seq = r.sequence(section[key], key, section.position_of(key))
        for index, item in enumerate(seq or []):
            ipos = seq.position_of(index)
            if not (isinstance(item, list) and len(item) == 2):
                r.error("TG031", f"each item of {key} must be a pair [A, B]", ipos, "write [Territory A, Territory B]")
                continue
            a, b = (str(x) for x in item)
            unknown = [name for name in (a, b) if name not in names]
            if unknown or a == b:
                r.error(v.BAD_CONNECTION, f"{key}: " + (f"no territory {unknown[0]!r} on the map" if unknown
                                                        else f"{a} cannot connect to itself"), ipos,
                        "use the names the map generates (run triplea-gen preview to see them)")
                continue
            pair = (a, b) if a < b else (b, a)
            if adding:
                pairs.add(pair)
            elif pair in pairs:
                pairs.discard(pair)
            else:
                r.collector.warning(v.BAD_CONNECTION, f"blockedConnections: {a} and {b} do not touch anyway", ipos,
                                    "remove the entry")
    return pairs


def read_style(r, data, pos: Position) -> Style | None:
    section = r.mapping(data, "style", pos, STYLE_KEYS)
    if section is None:
        return None
    at = section.position_of
    errors_before = v.error_count(r)
    # Style's fields by name; Any: a value is None only where an error was reported, and then no Style is made
    fields: dict[str, Any] = {}
    for key, attribute in _STYLE_COLORS.items():
        if key in section:
            fields[attribute] = v.color(r, section[key], f"style {key}", at(key))
    for key in ("labels", "production"):
        if key in section:
            fields[key] = v.flag(r, section[key], f"style {key}", at(key))
    if "unitImages" in section:
        fields["unit_images"] = v.flag(r, section["unitImages"], "style unitImages", at("unitImages"))
    if "fontSize" in section:
        fields["font_size"] = v.number(r, section["fontSize"], "style fontSize", at("fontSize"), 6, 72, True)
    if "unitScale" in section and section["unitScale"] != "auto":
        fields["unit_scale"] = v.number(r, section["unitScale"], "style unitScale", at("unitScale"), 0.25, 2.0)
    if "mapScale" in section and section["mapScale"] != "auto":
        fields["map_scale"] = v.number(r, section["mapScale"], "style mapScale", at("mapScale"), 0.25, 4.0)
    players = r.mapping(section.get("players"), "style players", at("players"))  # None: reported, no Style made
    fields["player_colors"] = tuple(
        (str(player), v.color(r, colour, f"colour of {player}", players.position_of(player)))
        for player, colour in (players or {}).items())
    if v.error_count(r) > errors_before:
        return None
    if "boxes" in section:
        boxes = r.sequence(section["boxes"], "style boxes", at("boxes")) or []
        fields["boxes"] = tuple(str(name) for name in boxes)
        fields["boxes_pos"] = at("boxes")
    fields["player_positions"] = tuple((str(player), players.position_of(player)) for player in players)
    return Style(**fields)


def warn_close_colors(r, style: Style, regions, blocked) -> None:
    """A warning at each player's colour that is hard to tell from an earlier player's, or from the
    sea, impassable ground (where the map has them) or unowned land (which keeps the land colour)."""
    terrains = {region.terrain for region in regions}
    terrain = [("unowned land", style.land)]
    if SEA in terrains:
        terrain.insert(0, ("the sea", style.sea))
    if IMPASSABLE in terrains or blocked:
        terrain.insert(1, ("impassable ground", style.impassable))
    positions = dict(style.player_positions)
    for clash in colors.clashes(list(style.player_colors), terrain):
        r.collector.warning(v.CLOSE_COLORS, clash.message(), positions.get(clash.first),
                            f"choose a colour for {clash.first} further from {clash.second}'s: lighter or darker, "
                            "or another hue")


def _with_unit_scale(style: Style, cell_size: float) -> Style:
    """The largest customary unit scale whose images leave room for a few stacks per territory."""
    wanted = cell_size * 0.34 / UNIT_IMAGE_SIZE
    scale = next((s for s in UNIT_SCALES if s <= wanted), UNIT_SCALES[-1])
    return replace(style, unit_scale=scale)


def _check_listed(r, geometry: MapGeometry, game: m.Game, pos: Position) -> None:
    """A spec may list territories itself (e.g. to order them); they must match the map."""
    regions = {region.name: region for region in geometry.regions}
    listed = {t.name for t in game.territories}
    for territory in game.territories:
        region = regions.get(territory.name)
        if region is None:
            r.error(v.LISTED_MISMATCH, f"territory {territory.name} has no shape on the generated map",
                    territory.pos or pos, "remove it from map.territories or add it to the geometry")
        elif (territory.water == "true") != region.water:
            r.error(v.LISTED_MISMATCH, f"territory {territory.name} is {'sea' if region.water else 'land'} on the "
                    "map but listed otherwise", territory.pos or pos, "make water: match the map, or drop the list")
    for region in geometry.regions:
        if region.name not in listed:
            r.collector.warning(v.LISTED_MISMATCH, f"the map draws {region.terrain} territory {region.name}, which "
                                "map.territories does not list", region.pos or pos,
                                "list it, or drop map.territories to take the generated list")
