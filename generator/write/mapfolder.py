"""The whole map folder for a game with generated geometry, as relative path ->
bytes for the all-or-nothing writer:

    <map>/map.yml  description.html  preview.png
    <map>/map/polygons.txt centers.txt place.txt name_place.txt capitols.txt map.properties smallMap.jpeg
    <map>/map/baseTiles/<x>_<y>.png  reliefTiles/<x>_<y>.png (grid, borders, coasts, lines, names)
             units/<Player>/<unit>.png  flags/<Player>*.png
    <map>/map/games/<game>.xml
"""
from __future__ import annotations


from markupsafe import Markup

from generator.model import game as m
from generator.model.units import unit_factors, unit_kinds
from generator.core.diagnostics import Diagnostic, DiagnosticError, Position
from generator.render.templates import environment
from generator.write.modfolder.listing import yaml_quoted
from generator.core.writer import safe_name
from generator.mapgen import art
from generator.mapgen import colors as contrast
from generator.mapgen.placement import Layout, layout_region, separate_labels
from generator.mapgen.pointfiles import points_text, polygons_text
from generator.mapgen.shapes import IMPASSABLE, MapGeometry
from generator.mapgen.values import MAP_OUTPUT

# Distinct, readable on land and sea; given to players in order unless the spec's style names a colour.
PALETTE = ("B22222", "1E5AA8", "2E8B57", "D4A017", "6A3D9A", "E07B24", "008B8B", "8B4513", "C71585", "556B2F",
           "F0F0F0", "9ACD32", "000080", "2F2F2F")
NEUTRAL_UNITS = "9E9E9E"
LAYOUT_WORDS = {"hexes": "hex", "squares": "square grid", "sites": "region", "polygons": "hand-drawn"}


def territory_options(game: m.Game, option: str) -> dict[str, str]:
    """An option of every territoryAttachment, by territory (the last one wins, as in the engine)."""
    values = {}
    for attachment in game.attachments or []:
        if attachment.name == "territoryAttachment":
            for opt in attachment.options:
                if opt.name == option and opt.value is not None:
                    values[attachment.attach_to] = opt.value
    return values


def production_values(game: m.Game) -> dict[str, int]:
    return {name: int(value) for name, value in territory_options(game, "production").items()
            if value.lstrip("-").isdigit()}


def player_colors(game: m.Game, geometry: MapGeometry) -> list[tuple[str, str]]:
    style = geometry.style
    chosen = dict(style.player_colors)
    players = [p.name for p in game.players]
    taken = [chosen[name] for name in players if name in chosen]
    colors = []
    for name in players:
        colour = chosen.get(name)
        if colour is None:
            # The first palette colour that stands apart from the colours in use, the sea, impassable
            # ground and unowned land; the next unused one when the palette has none left that does.
            colour = (contrast.pick_free(PALETTE, taken, [style.sea, style.impassable, style.land]) or
                      next((c for c in PALETTE if c not in taken), "808080"))
            taken.append(colour)
        colors.append((name, colour))
    # Unowned land keeps the map's land colour instead of a colour from the engine's palette.
    return colors + [("Neutral", geometry.style.land)]


def unit_size(geometry: MapGeometry) -> int:
    return round(art.UNIT_IMAGE * (geometry.style.unit_scale or 1.0))


def marker_size(geometry: MapGeometry) -> int:
    """The capital marker (flags/<Player>_large.png, drawn unscaled): a little smaller than a unit,
    so that it fits beside the name and a unit even in one hex."""
    return max(16, round(unit_size(geometry) * 0.8))


def layouts(geometry: MapGeometry, production: dict[str, int]) -> dict[str, Layout]:
    unit, marker, style = unit_size(geometry), marker_size(geometry), geometry.style

    def size_of(name: str, font_size: int) -> tuple[float, float]:
        return art.label_size(name, style, production.get(name, 0) > 0, font_size)

    cache: dict = {}
    placed = {region.name: layout_region(region.shape, region.name, unit,
                                         lambda font_size, name=region.name: size_of(name, font_size),
                                         0 if region.water else marker, style.font_size, cache)
              for region in geometry.regions}
    return separate_labels(placed, unit, marker, size_of)


def check_game_fits_map(game: m.Game, geometry: MapGeometry, map_name: str) -> None:
    problems = []
    declared = game.property_value("mapName")
    props_pos = getattr(game.find_property("mapName"), "pos", None) or game.pos
    if declared != map_name:
        problems.append(Diagnostic(
            MAP_OUTPUT, "a game with a generated map needs the property mapName set to its folder name "
            f"'{map_name}'" + (f", not '{declared}'" if declared else ""), props_pos or Position("<spec>"),
            f"add properties: mapName: {{value: {map_name}, editable: false}} (lower case, no spaces: the 1.9 "
            "engine finds the map folder by this name)"))
    impassable = territory_options(game, "isImpassable")
    for region in geometry.regions:
        if region.terrain == IMPASSABLE and impassable.get(region.name) != "true":
            problems.append(Diagnostic(
                MAP_OUTPUT, f"territory {region.name} is drawn impassable but its territoryAttachment does not "
                "say isImpassable: true", region.pos or geometry.pos or Position("<spec>"),
                f"add a territoryAttachment for {region.name} with options: {{isImpassable: true}}"))
    if problems:
        raise DiagnosticError(problems)


def _java_properties_key(key: str) -> str:
    escaped = []
    for ch in key:
        if ch in "\\ =:#!":
            escaped.append("\\" + ch)
        elif ord(ch) < 32 or ord(ch) > 126:
            escaped.append(f"\\u{ord(ch):04x}")
        else:
            escaped.append(ch)
    return "".join(escaped)


def _unit_and_flag_images(game: m.Game, colors: list[tuple[str, str]], marker: int) -> dict[str, bytes]:
    files = {}
    owners = dict(colors[:-1])
    placements = (game.initialize.units if game.initialize else None) or []
    if any(p.owner in (None, "Neutral") for p in placements):
        owners["Neutral"] = NEUTRAL_UNITS
    # A name that is not a plain file name cannot be looked up as a file; the engine shows no image then.
    kinds = {unit: kind for unit, kind in unit_kinds(game).items() if safe_name(unit, "") == unit}
    factors = unit_factors(game)
    for player, colour in owners.items():
        if safe_name(player, "") != player:
            continue
        for unit, (kind, damageable) in kinds.items():
            files[f"units/{player}/{unit}.png"] = art.unit_image(unit, kind, colour, factors=factors.get(unit))
            if damageable:
                files[f"units/{player}/{unit}_hit.png"] = art.unit_image(unit, kind, colour, damaged=True,
                                                                         factors=factors.get(unit))
        if player != "Neutral":
            for name, data in art.flag_images(player, colour, marker).items():
                files[f"flags/{name}"] = data
    return files


def map_folder_files(game: m.Game, geometry: MapGeometry, map_name: str, game_file: str,
                     xml_bytes: bytes) -> dict[str, bytes]:
    """The whole map folder of a game whose spec draws its map (geometry: the game's own)."""
    check_game_fits_map(game, geometry, map_name)
    production = production_values(game)
    places = layouts(geometry, production)
    base, overlay = art.render_layers(geometry, places, production)
    picture = art.composite(base, overlay)
    colors = player_colors(game, geometry)
    env = environment()
    content = f"{map_name}/map/"
    files = {
        f"{map_name}/map.yml": env.get_template("map/map.yml.j2").render(
            map_name=yaml_quoted(map_name), game_name=yaml_quoted(game.info.name or map_name),
            file_name=yaml_quoted(game_file)).encode("utf-8"),
        f"{map_name}/description.html": _description(game, geometry).encode("utf-8"),
        f"{map_name}/preview.png": art.preview(picture),
        content + "polygons.txt": polygons_text([(r.name, r.shape) for r in geometry.regions]).encode("utf-8"),
        content + "centers.txt": points_text([(r.name, [places[r.name].center]) for r in geometry.regions]).encode(
            "utf-8"),
        content + "place.txt": points_text([(r.name, list(places[r.name].spots)) for r in geometry.regions]).encode(
            "utf-8"),
        content + "name_place.txt": points_text([(r.name, [places[r.name].name_place]) for r in geometry.regions]
                                                ).encode("utf-8"),
        content + "capitols.txt": points_text([(r.name, [marker]) for r in geometry.regions
                                               if (marker := places[r.name].marker)]).encode("utf-8"),
        content + "vc.txt": points_text([(r.name, [vc]) for r in geometry.regions
                                         if (vc := places[r.name].vc)]).encode("utf-8"),
        content + "misc/vc.png": art.victory_city_marker(marker_size(geometry)),
        content + "map.properties": env.get_template("map/map.properties.j2").render(
            width=geometry.width, height=geometry.height, unit_scale=geometry.style.unit_scale,
            impassable=geometry.style.impassable,
            colors=[(_java_properties_key(player), colour) for player, colour in colors]).encode("latin-1"),
        content + "smallMap.jpeg": art.small_map(picture),
        content + f"games/{game_file}": xml_bytes,
    }
    for name, data in art.tiles(base).items():
        files[content + f"baseTiles/{name}"] = data
    for name, data in art.tiles(overlay, skip_empty=True).items():
        files[content + f"reliefTiles/{name}"] = data
    if geometry.style.unit_images:
        for name, data in _unit_and_flag_images(game, colors, marker_size(geometry)).items():
            files[content + name] = data
    return files


def _description(game: m.Game, geometry: MapGeometry) -> str:
    notes = game.property_value("notes")
    return environment().get_template("map/description.html.j2").render(
        title=game.info.name or "", layout=LAYOUT_WORDS[geometry.layout],
        land=sum(1 for r in geometry.regions if not r.water),
        sea=sum(1 for r in geometry.regions if r.water), players=[p.name for p in game.players],
        preview_width=min(art.PREVIEW_WIDTH, geometry.width),
        # The notes are the modder's own HTML, shown by the game itself too; kept as written.
        notes=Markup(notes) if notes else "")
