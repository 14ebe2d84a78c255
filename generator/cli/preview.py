"""`triplea-gen preview SPEC -o map.png`: draw a spec's generated map, nothing else.
Heavy imports (shapely, Pillow) happen in the handler so that --help stays fast."""
from __future__ import annotations


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "preview", help="draw the map a spec's map: section generates, as a PNG",
        description="Draw the map that the spec's map: geometry generates (the same picture as the map "
                    "folder's tiles), with territory names and production values.")
    parser.add_argument("spec", help="the YAML spec with a map: hexes / squares / sites / polygons section")
    parser.add_argument("-o", "--output", required=True, help="the PNG file to write")
    parser.add_argument("--width", type=int, default=None,
                        help="scale the picture to this width in pixels (default: full size)")
    parser.add_argument("--spots", action="store_true",
                        help="also mark each territory's centre and the spots where units will stand")
    parser.set_defaults(run=_run_preview)


def _run_preview(args) -> int:
    import sys

    from generator.core.diagnostics import (EXIT_OK, EXIT_UNUSABLE, Diagnostic, DiagnosticError,
                                            Position, display_path)
    from generator.builder.pipeline import load_game
    from generator.core.writer import write_file_atomically
    from generator.mapgen import art
    from generator.mapgen.shapes import geometry_of
    from generator.write.mapfolder import layouts, production_values

    if args.width is not None and not 16 <= args.width <= 16384:
        print("triplea-gen preview: --width must be between 16 and 16384", file=sys.stderr)
        return EXIT_UNUSABLE
    game, warnings = load_game(args.spec)
    for warning in warnings:
        print(warning.format(), file=sys.stderr)
    geometry = geometry_of(game)
    if geometry is None:
        raise DiagnosticError([Diagnostic("TG501", "the spec's map: section has no geometry to draw",
                                          Position(display_path(args.spec)),
                                          "add map: hexes:, squares:, sites: or polygons: (see README)")])
    production = production_values(game)
    places = layouts(geometry, production)
    picture = art.render_map(geometry, places, production)
    if args.spots:
        _mark_spots(picture, places, round(art.UNIT_IMAGE * (geometry.style.unit_scale or 1.0)))
    data = art.preview(picture, args.width) if args.width else art.png_bytes(picture)
    print(display_path(write_file_atomically(args.output, data)))
    return EXIT_OK


def _mark_spots(picture, places, unit: int) -> None:
    from PIL import ImageDraw

    draw = ImageDraw.Draw(picture)
    for layout in places.values():
        for x, y in layout.spots:
            draw.rectangle((x, y, x + unit, y + unit), outline=(220, 30, 30))
        cx, cy = layout.center
        draw.ellipse((cx - 3, cy - 3, cx + 3, cy + 3), fill=(20, 20, 20))
