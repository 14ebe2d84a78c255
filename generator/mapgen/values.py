"""Checked scalar readers for the geometry keys: numbers, colours, names, points.
Each reports through the SpecReader with a TG5xx code and returns None when unusable."""
from __future__ import annotations

import math
import re

from generator.core.diagnostics import Position

# Geometry diagnostics (documented in README):
NO_LAYOUT = "TG501"        # no layout, two layouts, or no territories
MASK_SHAPE = "TG502"       # terrain mask rows/columns do not match the grid
MASK_SYMBOL = "TG503"      # a terrain mask character that the legend does not define
BAD_CELL = "TG504"         # a cell id that is malformed, outside the grid, or off the map
CELL_TWICE = "TG505"       # a cell given to two territories
DUPLICATE_NAME = "TG506"   # two territories with the same name
BAD_NAME = "TG507"         # a territory name the map files cannot carry
BAD_VALUE = "TG508"        # a number, colour or keyword out of range
BAD_POLYGON = "TG509"      # a polygon that is too small, self-intersecting or overlapping
BAD_SITE = "TG510"         # a site outside the frame or on top of another
MIXED_TERRAIN = "TG511"    # one territory made of land and sea cells
LISTED_MISMATCH = "TG512"  # explicit map.territories that disagree with the geometry
BAD_CONNECTION = "TG513"   # extraConnections / blockedConnections naming unknown territories
EMPTY_REGION = "TG515"     # a site whose region is empty after clipping
MAP_OUTPUT = "TG520"       # the map folder cannot be written as asked (mapName, attachments)
CLOSE_COLORS = "TG460"     # (warning) two players' colours, or a player's and the sea's, too close
NO_NEIGHBOUR = "TG463"     # (warning) a territory that borders no other territory, not declared a box
SPLIT_LAND = "TG464"       # (warning) a player's land in pieces that neither land nor sea joins

# How large a map picture may be: it is held in memory whole (3 bytes a pixel).
MAX_SIDE = 16384
MAX_PIXELS = 60_000_000

_COLOR = re.compile(r"#?([0-9A-Fa-f]{6})")
# polygons.txt ends a name at '<', the point files at '('; attachment lists split at ':'.
_FORBIDDEN_IN_NAMES = ("(", "<", ">", ")", ":", "|")


def error_count(r) -> int:
    return sum(1 for d in r.collector.diagnostics if d.severity == "error")


def number(r, value, what: str, pos: Position, low: float, high: float, integer: bool = False):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        r.error(BAD_VALUE, f"{what} must be a number, not {value!r}", pos, f"write a number from {low} to {high}")
        return None
    if integer and value != int(value):
        r.error(BAD_VALUE, f"{what} must be a whole number, not {value!r}", pos, f"write a whole number from {low} "
                f"to {high}")
        return None
    if not low <= value <= high:
        r.error(BAD_VALUE, f"{what} is {value}, outside {low}..{high}", pos, f"use a value from {low} to {high}")
        return None
    return int(value) if integer else float(value)


def color(r, value, what: str, pos: Position) -> str | None:
    if value is None:
        r.error(BAD_VALUE, f"{what} is empty", pos, "quote colours: '#B22222' (an unquoted # starts a YAML comment)")
        return None
    match = _COLOR.fullmatch(str(value).strip()) if isinstance(value, str) else None
    if match is None:
        r.error(BAD_VALUE, f"{what} must be a colour like '#B22222', not {value!r}", pos,
                "write six hex digits RRGGBB, quoted: '#B22222'")
        return None
    return match.group(1).upper()


def keyword(r, value, what: str, pos: Position, allowed: tuple[str, ...]) -> str | None:
    if value in allowed:
        return value
    r.error(BAD_VALUE, f"{what} must be one of {', '.join(allowed)}, not {value!r}", pos,
            f"write one of: {', '.join(allowed)}")
    return None


def flag(r, value, what: str, pos: Position) -> bool | None:
    if isinstance(value, bool):
        return value
    r.error(BAD_VALUE, f"{what} must be true or false, not {value!r}", pos, "write true or false")
    return None


def territory_name(r, value, what: str, pos: Position) -> str | None:
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        r.error(BAD_NAME, f"{what} must be a name, not {value!r}", pos, "write the territory name as text")
        return None
    name = str(value)
    bad = [ch for ch in _FORBIDDEN_IN_NAMES if ch in name]
    if not name.strip() or name != name.strip() or bad or any(ord(ch) < 32 for ch in name) or len(name) > 100:
        reason = f"contains {' '.join(repr(ch) for ch in bad)}" if bad else "is empty, too long, has control " \
                 "characters or spaces at either end"
        r.error(BAD_NAME, f"territory name {name!r} {reason}", pos,
                "the map files end a name at '(' or '<' and option lists split at ':'; rename it")
        return None
    return name


def point(r, value, what: str, pos: Position, width: float = 1e9, height: float = 1e9):
    if not (isinstance(value, list) and len(value) == 2):
        r.error(BAD_VALUE, f"{what} must be a point [x, y], not {value!r}", pos, "write [x, y] in pixels")
        return None
    x = number(r, value[0], f"x of {what}", pos, 0, width)
    y = number(r, value[1], f"y of {what}", pos, 0, height)
    return None if x is None or y is None else (x, y)


def is_point(value) -> bool:
    return isinstance(value, list) and len(value) == 2 and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
