"""Numbers both engines load without a word but make something else of: an attack of -1 or 9
on a six-sided die, a movement no route of the map needs, a production cost below 0 (which pays
the buyer). The ranges and what the engines do outside them live in the catalog (`sensible:` of
an attachment option, `production_numbers` in gameplay.yaml); this module only compares."""
from __future__ import annotations

from generator.catalog import Sensible

DEFAULT_DICE_SIDES = 6  # both engines' GameParser, when the game has no <diceSides>


def game_bounds(root, routes: int | None = None) -> dict[str, int]:
    """The values the catalog's named bounds stand for in this game; `routes`: the map's
    longest_route_bound when the caller knows it already (a warm build whose map is unchanged)."""
    dice = root.find("diceSides")
    try:
        sides = int(dice.get("value")) if dice is not None else DEFAULT_DICE_SIDES
    except (TypeError, ValueError):
        sides = DEFAULT_DICE_SIDES  # the schema check reports a bad number
    return {"diceSides": sides, "routes": longest_route_bound(root.find("map")) if routes is None else routes}


def longest_route_bound(game_map) -> int:
    """A number of moves no shortest route of the map exceeds, for land, sea or air units: twice
    the distance from one territory to the farthest one, in each connected part of the map, of its
    land and of its sea (one search each, not every pair: G40 has 370 territories)."""
    if game_map is None:
        return 0
    water = {t.get("name"): t.get("water") == "true" for t in game_map.iterfind("territory")}
    neighbours: dict[str, set[str]] = {name: set() for name in water}
    for connection in game_map.iterfind("connection"):
        a, b = connection.get("t1"), connection.get("t2")
        if a in neighbours and b in neighbours and a != b:
            neighbours[a].add(b)
            neighbours[b].add(a)
    bound = 0
    for keep in (lambda a, b: True, lambda a, b: water[a] == water[b]):  # any unit; land or sea only
        seen: set[str] = set()
        for start in water:
            if start not in seen:
                distance = _farthest(start, neighbours, keep, seen)
                bound = max(bound, 2 * distance)
    return bound


def _farthest(start: str, neighbours: dict, keep, seen: set) -> int:
    frontier, distance = [start], 0
    seen.add(start)
    while frontier:
        following = [n for t in frontier for n in neighbours[t] if n not in seen and keep(t, n)]
        following = list(dict.fromkeys(following))
        seen.update(following)
        if following:
            distance += 1
        frontier = following
    return distance


def outside(sensible: Sensible, number: int, bounds: dict[str, int]) -> tuple[str, str] | None:
    """(what is wrong, what the engine makes of it) when number is outside the sensible range."""
    low, high = _bound(sensible.low, bounds), _bound(sensible.high, bounds)
    if low is not None and number < low:
        return f"below {_named(sensible.low, low)}", sensible.below
    if high is not None and number > high:
        return f"above {_named(sensible.high, high)}", sensible.above
    return None


def expected(sensible: Sensible, bounds: dict[str, int]) -> str:
    low, high = _bound(sensible.low, bounds), _bound(sensible.high, bounds)
    if high is None:
        return f"write {low} or more"
    return f"write a number from {low} to {high}"


def _bound(bound, bounds: dict[str, int]) -> int | None:
    if bound is None:
        return None
    return bounds[bound] if isinstance(bound, str) else int(bound)


def _named(bound, value: int) -> str:
    if bound == "diceSides":
        return f"the dice sides ({value})"
    if bound == "routes":
        return f"the longest route of this map ({value} moves at most)"
    return str(value)
