"""Checks of a generated map against the game it carries: each player's land should hang
together by land or sea, else the player's pieces cannot reach each other at all."""
from __future__ import annotations

from generator.core.diagnostics import Diagnostic, Position
from generator.mapgen.shapes import geometry_of
from generator.mapgen.values import SPLIT_LAND
from generator.model import game as m


def split_land_warnings(game: m.Game) -> list[Diagnostic]:
    """TG464 for each player whose starting land falls into pieces that no land or sea path
    through the player's own land and the seas joins. Declared off-map boxes are left out."""
    geometry = geometry_of(game)
    if geometry is None or game.initialize is None or not game.initialize.owners:
        return []
    water = {region.name for region in geometry.regions if region.water}
    boxes = set(geometry.style.boxes) | {region.name for region in geometry.regions if region.box}
    neighbours: dict[str, set[str]] = {}
    for connection in game.connections or []:
        neighbours.setdefault(connection.t1, set()).add(connection.t2)
        neighbours.setdefault(connection.t2, set()).add(connection.t1)
    owned: dict[str, list[m.TerritoryOwner]] = {}
    for entry in game.initialize.owners:
        if entry.territory not in water and entry.territory not in boxes:
            owned.setdefault(entry.owner, []).append(entry)
    warnings = []
    for player, entries in owned.items():
        land = {entry.territory for entry in entries}
        pieces = _pieces([entry.territory for entry in entries], land | water, neighbours)
        if len(pieces) < 2:
            continue
        main, *others = sorted(pieces, key=lambda piece: (-len(piece), min(piece)))
        cut_off = sorted(name for piece in others for name in piece)
        first = next(entry for entry in entries if entry.territory in cut_off)
        warnings.append(Diagnostic(
            SPLIT_LAND, f"the land of {player} is in {len(pieces)} pieces that neither land nor sea joins: "
            f"{', '.join(cut_off)} cannot be reached from {sorted(main)[0]}", first.pos or geometry.pos or
            Position("<spec>"), "join them with extraConnections (a strait, a railway) or give the pieces a "
            "shared sea zone", "warning"))
    return warnings


def _pieces(order: list[str], passable: set[str], neighbours: dict[str, set[str]]) -> list[set[str]]:
    """The player's territories grouped by what joins them through passable territories."""
    seen: set[str] = set()
    pieces = []
    for start in order:
        if start in seen:
            continue
        piece, stack = set(), [start]
        seen.add(start)
        while stack:
            name = stack.pop()
            piece.add(name)
            for other in sorted(neighbours.get(name, ())):
                if other in passable and other not in seen:
                    seen.add(other)
                    stack.append(other)
        pieces.append({name for name in piece if name in order})
    return pieces
