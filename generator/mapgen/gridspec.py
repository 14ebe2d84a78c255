"""`map: hexes:` and `map: squares:` — a board described by a terrain mask, a
legend, groups of cells that form one territory, and name patterns for the
cells that stay on their own.

    hexes:
      columns: 6
      rows: 4
      size: 40                 # centre to corner, pixels
      orientation: pointy      # pointy | flat
      offset: odd              # odd | even: which rows (pointy) / columns (flat) shift by half a hex
      terrain: |               # one character per cell, spaces ignored
        ~ ~ . . W W
         ~ . . # W ~
        ~ . . . ~ ~
         ~ ~ B B ~ ~
      legend:
        W: Westmark            # a name: these cells form one land territory
        B: {territory: Bay, terrain: sea}
      groups:
        Ridge: [C2, D2]        # cells by id (column letter, row number) or ranges A1:B3
      naming: {land: "{id}", sea: "Sea {id}"}
"""
from __future__ import annotations

import re

import shapely
from shapely.geometry import Polygon

from generator.core.diagnostics import Position
from generator.mapgen import values as v
from generator.mapgen.grids import Cell, Grid, cell_id, parse_cell_id
from generator.mapgen.shapes import IMPASSABLE, LAND, SEA, TERRAINS, Region
from generator.mapgen.topology import grid_connections, lattice_to_pixels, merge_cells

NONE = "none"
DEFAULT_LEGEND = {".": LAND, "~": SEA, "#": IMPASSABLE, "-": NONE}
DEFAULT_NAMING = {LAND: "{id}", SEA: "Sea {id}"}  # unnamed impassable cells are no territories
HEX_KEYS = ("columns", "rows", "size", "orientation", "offset", "margin", "terrain", "default", "legend", "groups",
            "naming")
SQUARE_KEYS = ("columns", "rows", "size", "margin", "terrain", "default", "legend", "groups", "naming", "diagonals")
MAX_CELLS = 20_000
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_PLACEHOLDERS = ("id", "col", "row", "n")


class _Owner:
    """Who a cell belongs to: a named territory (from the legend or groups) or its own cell."""

    __slots__ = ("name", "terrain", "pos")

    def __init__(self, name: str, terrain: str, pos: Position):
        self.name, self.terrain, self.pos = name, terrain, pos


def read_grid(r, data, what: str, pos: Position):
    """Returns (grid, regions, connections, blocked shapes, cell outlines) or None when the section is unusable."""
    is_hex = what == "hexes"
    section = r.mapping(data, what, pos, HEX_KEYS if is_hex else SQUARE_KEYS)
    if section is None:
        return None
    at = section.position_of
    errors_before = v.error_count(r)
    columns = _required_number(r, section, "columns", what, 1, 500, True)
    rows = _required_number(r, section, "rows", what, 1, 500, True)
    size = v.number(r, section.get("size", 40 if is_hex else 64), f"{what} size", at("size"), 12, 400)
    margin = v.number(r, section.get("margin", 0), f"{what} margin", at("margin"), 0, 1000, True)
    kind: str | None = "square"  # None: a bad value, reported (the grid below takes the default)
    offset: str | None = "odd"
    if is_hex:
        kind = v.keyword(r, section.get("orientation", "pointy"), "hexes orientation", at("orientation"),
                         ("pointy", "flat"))
        offset = v.keyword(r, section.get("offset", "odd"), "hexes offset", at("offset"), ("odd", "even"))
    diagonals = v.flag(r, section.get("diagonals", False), "squares diagonals", at("diagonals"))
    if columns is None or rows is None:
        return None
    if columns * rows > MAX_CELLS:
        r.error(v.BAD_VALUE, f"{columns} x {rows} = {columns * rows} cells; at most {MAX_CELLS} are allowed",
                r.pos(section), "make the board smaller")
        return None
    # Bad values above are reported already; carry on with defaults to report the mask's problems too.
    grid = Grid(kind or "pointy", columns, rows, size or 40, offset or "odd", margin or 0, bool(diagonals))
    width, height = grid.pixel_size()
    if width > v.MAX_SIDE or height > v.MAX_SIDE or width * height > v.MAX_PIXELS:
        r.error(v.BAD_VALUE, f"the map would be {width} x {height} pixels; too large", at("size"),
                f"use a smaller size or fewer cells (at most {v.MAX_SIDE} pixels a side)")
        return None

    legend = _read_legend(r, section.get("legend"), at("legend"))
    default = section.get("default", LAND)
    if default not in TERRAINS + (NONE,):
        r.error(v.BAD_VALUE, f"default terrain must be one of land, sea, impassable, none, not {default!r}",
                at("default"), "write default: land")
        default = LAND
    mask = _read_mask(r, section, grid, legend, default)
    owners, row_positions = mask or ({cell: LAND for cell in grid.cells()}, [r.pos(section)] * grid.rows)
    _read_groups(r, section.get("groups"), at("groups"), grid, owners)
    naming = _read_naming(r, section.get("naming"), at("naming"))
    if v.error_count(r) > errors_before:
        return None
    regions, cell_owner, blocked_cells = _regions(r, grid, owners, naming, row_positions)
    connections = grid_connections(grid, cell_owner)
    blocked = []
    if blocked_cells:
        union = shapely.union_all([Polygon(grid.lattice_corners(cell)) for cell in blocked_cells])
        blocked = [lattice_to_pixels(grid, union)]
    terrain_of = {region.name: region.terrain for region in regions}
    cells = [(terrain_of[name], cell_outline(grid, cell)) for cell, name in sorted(cell_owner.items(),
                                                                                  key=lambda item: item[0][::-1])]
    cells += [(IMPASSABLE, cell_outline(grid, cell)) for cell in blocked_cells]
    return grid, regions, connections, blocked, cells


def cell_outline(grid: Grid, cell: Cell) -> tuple[tuple[int, int], ...]:
    """The cell's corners in pixels, rounded the way territory outlines are (so grid lines meet borders)."""
    sx, sy = grid.lattice_scale()
    return tuple((round(grid.margin + x * sx), round(grid.margin + y * sy)) for x, y in grid.lattice_corners(cell))


def _required_number(r, section, key: str, what: str, low, high, integer):
    if key not in section:
        r.error("TG032", f"{what} has no {key}", r.pos(section), f"add {key}: <number>")
        return None
    return v.number(r, section[key], f"{what} {key}", section.position_of(key), low, high, integer)


def _read_legend(r, data, pos: Position) -> dict[str, _Owner | str]:
    legend: dict[str, _Owner | str] = dict(DEFAULT_LEGEND)
    section = r.mapping(data, "legend", pos)
    for key, value in (section or {}).items():
        kpos = section.position_of(key)
        symbol = "~" if key is None else str(key)
        if len(symbol) != 1 or symbol.isspace():
            r.error(v.BAD_VALUE, f"legend key {symbol!r} must be a single character", kpos,
                    "use one character per cell in the terrain mask; quote '~', '#' and '-'")
            continue
        if isinstance(value, str) and value in TERRAINS + (NONE,):
            legend[symbol] = value
        elif isinstance(value, dict):
            r.check_keys(value, ("territory", "terrain"), f"legend {symbol}")
            name = v.territory_name(r, value.get("territory"), f"territory of legend {symbol}", kpos)
            terrain = v.keyword(r, value.get("terrain", LAND), f"terrain of legend {symbol}", kpos, TERRAINS)
            if name and terrain:
                legend[symbol] = _Owner(name, terrain, kpos)
        else:
            name = v.territory_name(r, value, f"legend {symbol}", kpos)
            if name:
                legend[symbol] = _Owner(name, LAND, kpos)
    return legend


def _read_mask(r, section, grid: Grid, legend, default: str):
    """Each cell's owner (a terrain keyword: a cell of its own, or a named territory) and each row's position."""
    if "terrain" not in section:
        return {cell: default for cell in grid.cells()}, [r.pos(section)] * grid.rows
    text = section["terrain"]
    tpos = section.position_of("terrain")
    if not isinstance(text, str):
        r.error("TG031", "terrain must be a text block, one line per row", tpos,
                "write terrain: | and then one line of characters per row")
        return None
    lines = [line for line in text.splitlines()]
    first_line = tpos.line + 1 if "\n" in text.rstrip("\n") or text.endswith("\n") else tpos.line
    while lines and not lines[-1].strip():
        lines.pop()
    skipped = 0
    while lines and not lines[0].strip():
        lines.pop(0)
        skipped += 1
    if len(lines) != grid.rows:
        r.error(v.MASK_SHAPE, f"terrain has {len(lines)} rows, the grid has {grid.rows}", tpos,
                "give one line per row (spaces inside a line are ignored)")
        return None
    owners: dict[Cell, _Owner | str] = {}
    row_positions: list[Position] = []
    ok = True
    for row, line in enumerate(lines):
        line_pos = Position(tpos.file, first_line + skipped + row, 1) if tpos.line else tpos
        row_positions.append(line_pos)
        symbols = [ch for ch in line if not ch.isspace()]
        if len(symbols) != grid.columns:
            r.error(v.MASK_SHAPE, f"terrain row {row + 1} has {len(symbols)} cells, the grid has {grid.columns} "
                    "columns", line_pos, "one character per cell; spaces are ignored")
            ok = False
            continue
        for column, symbol in enumerate(symbols):
            owner = legend.get(symbol)
            if owner is None:
                r.error(v.MASK_SYMBOL, f"terrain character {symbol!r} (cell {cell_id((column, row))}) is not in "
                        "the legend", line_pos,
                        "use . land, ~ sea, # impassable, - none, or add the character to legend:")
                ok = False
                continue
            owners[(column, row)] = owner if isinstance(owner, str) else _Owner(owner.name, owner.terrain, line_pos)
    return (owners, row_positions) if ok else None


def _cells_of(r, value, grid: Grid, what: str, pos: Position) -> list[Cell]:
    items = value if isinstance(value, list) else [value]
    cells: list[Cell] = []
    for item in items:
        text = str(item) if isinstance(item, str) else None
        parts = text.split(":") if text else []
        ends = [end for end in map(parse_cell_id, parts) if end is not None]
        if not parts or len(parts) > 2 or len(ends) < len(parts):
            r.error(v.BAD_CELL, f"{what}: {item!r} is not a cell id", pos,
                    "write cells as column letter + row number (C4), or a range C4:E6")
            continue
        (c1, r1), (c2, r2) = ends[0], ends[-1]
        block = [(c, rr) for rr in range(min(r1, r2), max(r1, r2) + 1) for c in range(min(c1, c2), max(c1, c2) + 1)]
        outside = [c for c in block if not grid.contains(c)]
        if outside:
            r.error(v.BAD_CELL, f"{what}: cell {cell_id(outside[0])} is outside the {grid.columns} x {grid.rows} "
                    "grid", pos, f"columns run A..{cell_id((grid.columns - 1, 0))[:-1]}, rows 1..{grid.rows}")
            continue
        cells.extend(block)
    return cells


def _read_groups(r, data, pos: Position, grid: Grid, owners: dict) -> None:
    """Cells listed in groups become one territory each; terrain from the mask unless given."""
    section = r.mapping(data, "groups", pos)
    claimed: dict[Cell, str] = {}
    for name, body in (section or {}).items():
        gpos = section.position_of(name)
        name = v.territory_name(r, name, "group name", gpos)
        if name is None:
            continue
        terrain = None
        cells_value = body
        if isinstance(body, dict):
            r.check_keys(body, ("cells", "terrain"), f"group {name}")
            cells_value = body.get("cells")
            if "terrain" in body:
                terrain = v.keyword(r, body["terrain"], f"terrain of group {name}", gpos, TERRAINS)
        cells = _cells_of(r, cells_value, grid, f"group {name}", gpos)
        if not cells:
            r.error(v.BAD_CELL, f"group {name} has no cells", gpos, "list its cells: [C3, C4] or C3:D4")
            continue
        terrains = set()
        for cell in cells:
            if cell in claimed and claimed[cell] != name:
                r.error(v.CELL_TWICE, f"cell {cell_id(cell)} is in group {claimed[cell]} and in group {name}", gpos,
                        "give each cell to one territory")
                continue
            current = owners[cell]
            if isinstance(current, _Owner):
                r.error(v.CELL_TWICE, f"cell {cell_id(cell)} belongs to {current.name} through the legend and to "
                        f"group {name}", gpos, "give each cell to one territory")
                continue
            if current == NONE and terrain is None:
                r.error(v.BAD_CELL, f"group {name}: cell {cell_id(cell)} is off the map (none) in the terrain mask",
                        gpos, "mark the cell as land or sea in terrain:, or set the group's terrain")
                continue
            claimed[cell] = name
            terrains.add(terrain or current)
        if len(terrains) > 1:
            r.error(v.MIXED_TERRAIN, f"group {name} mixes {' and '.join(sorted(terrains))} cells", gpos,
                    "a territory is land or sea; set terrain: on the group or fix the mask")
            continue
        if terrains:
            group_terrain = terrains.pop()
            for cell, owner_name in claimed.items():
                if owner_name == name:
                    owners[cell] = _Owner(name, group_terrain, gpos)


def _read_naming(r, data, pos: Position) -> dict[str, str]:
    naming = dict(DEFAULT_NAMING)
    section = r.mapping(data, "naming", pos, (LAND, SEA))
    for key, pattern in (section or {}).items():
        kpos = section.position_of(key)
        if not isinstance(pattern, str):
            r.error(v.BAD_VALUE, f"naming {key} must be a text pattern", kpos, 'write e.g. "Sea {id}"')
            continue
        unknown = [p for p in _PLACEHOLDER.findall(pattern) if p not in _PLACEHOLDERS]
        if unknown or "{" not in pattern:
            r.error(v.BAD_VALUE, f"naming {key} pattern {pattern!r} " + (
                f"uses unknown placeholder {{{unknown[0]}}}" if unknown else "has no placeholder"), kpos,
                    "placeholders: {id} (C4), {col} (C), {row} (4), {n} (running number); one is needed so names "
                    "differ")
            continue
        if v.territory_name(r, _cell_name(pattern, (0, 0), 1), f"naming {key} (for A1)", kpos) is None:
            continue
        naming[key] = pattern
    return naming


def _cell_name(pattern: str, cell: Cell, running: int) -> str:
    fields = {"id": cell_id(cell), "col": cell_id(cell).rstrip("0123456789"), "row": str(cell[1] + 1),
              "n": str(running)}
    return _PLACEHOLDER.sub(lambda match: fields[match.group(1)], pattern)


def _regions(r, grid: Grid, owners: dict, naming: dict[str, str], row_positions: list[Position]):
    named_cells: dict[str, list[Cell]] = {}
    generated: set[str] = set()
    named_owner: dict[str, _Owner] = {}
    cell_owner: dict[Cell, str] = {}
    blocked: list[Cell] = []
    running = {LAND: 0, SEA: 0}
    order: list[str] = []
    for cell in grid.cells():
        owner = owners[cell]
        if isinstance(owner, _Owner):
            name = owner.name
            if name in generated:
                r.error(v.DUPLICATE_NAME, f"territory {name!r} is also the generated name of another cell",
                        owner.pos, "rename the territory or change the naming pattern")
                continue
            if name not in named_cells:
                named_cells[name], named_owner[name] = [], owner
                order.append(name)
            elif named_owner[name].terrain != owner.terrain:
                r.error(v.MIXED_TERRAIN, f"territory {name} is given both {named_owner[name].terrain} and "
                        f"{owner.terrain} cells", owner.pos, "use one terrain per territory")
            named_cells[name].append(cell)
            cell_owner[cell] = name
        elif owner == NONE:
            continue
        elif owner == IMPASSABLE:
            blocked.append(cell)  # unnamed mountains: painted, not a territory
        else:
            running[owner] += 1
            name = _cell_name(naming[owner], cell, running[owner])
            if name in named_cells:
                r.error(v.DUPLICATE_NAME, f"cell {cell_id(cell)} would be named {name!r}, which is taken",
                        row_positions[cell[1]], "change the naming pattern or the group name")
                continue
            named_cells[name] = [cell]
            named_owner[name] = _Owner(name, owner, row_positions[cell[1]])
            generated.add(name)
            order.append(name)
            cell_owner[cell] = name
    regions = [Region(name, named_owner[name].terrain, merge_cells(grid, named_cells[name]), named_owner[name].pos)
               for name in order]
    return regions, cell_owner, blocked
