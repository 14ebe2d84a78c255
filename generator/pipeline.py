"""The build pipeline in one place: load -> spec check -> model -> render -> check.

`compile_spec` returns the rendered game together with a map from every
rendered XML line back to the YAML position that produced it, so that later
checks can point at the user's YAML."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path

from lxml import etree

from . import model as m
from .diagnostics import Collector, Diagnostic, DiagnosticError, Position, display_path
from .importer import import_tree
from .overlay import is_mod, read_mod
from .render import render_game
from .safexml import parse_xml_bytes, parse_xml_file
from .spec import read_game
from .yamlio import load_yaml_file


@dataclass
class CompiledGame:
    spec_path: str
    game: m.Game
    xml_bytes: bytes
    tree: etree._ElementTree
    warnings: list[Diagnostic] = field(default_factory=list)
    _line_positions: dict[int, Position] = field(default_factory=dict, repr=False)

    def position_of(self, element) -> Position:
        """The YAML position behind a rendered element (the nearest enclosing one that has one)."""
        while element is not None:
            pos = self._line_positions.get(element.sourceline)
            if pos is not None:
                return pos
            element = element.getparent()
        return self.game.pos or Position(self.spec_path)


def load_game(spec_path: str | os.PathLike) -> tuple[m.Game, list[Diagnostic]]:
    """Read and check a spec (a full game or a mod of a base game) into the model;
    raises with every problem found."""
    data = load_yaml_file(spec_path)
    collector = Collector()
    source = display_path(spec_path)
    if is_mod(data):
        game = read_mod(data, source, Path(spec_path).resolve().parent, collector, _load_base)
    else:
        game = read_game(data, source, collector)
    collector.raise_if_errors()
    return game, collector.diagnostics


def _load_base(path: Path) -> m.Game:
    if path.suffix in (".yaml", ".yml"):
        return load_game(path)[0]
    collector = Collector()
    game = import_tree(parse_xml_file(path), display_path(path), collector)
    collector.raise_if_errors()
    return game


def compile_spec(spec_path: str | os.PathLike) -> CompiledGame:
    game, warnings = load_game(spec_path)
    return compile_game(game, display_path(spec_path), warnings)


def compile_game(game: m.Game, source: str, warnings: list[Diagnostic] | None = None) -> CompiledGame:
    xml = render_game(game)
    try:
        tree = parse_xml_bytes(xml, f"{source} (rendered XML)")
    except DiagnosticError as err:
        # The renderer escapes everything, so this means a value holds characters XML cannot carry.
        raise DiagnosticError([Diagnostic("TG042", f"the rendered XML is not well-formed: {d.message}",
                                          game.pos or Position(source), "remove control characters from names and "
                                          "values") for d in err.diagnostics]) from None
    compiled = CompiledGame(source, game, xml, tree, list(warnings or []))
    compiled._line_positions = _line_positions(tree, game)
    return compiled


def _line_positions(tree: etree._ElementTree, game: m.Game) -> dict[int, Position]:
    """Pair rendered elements with model entities: for each tag the document order equals the model order."""
    production = game.production or m.Production()
    technology = game.technology or m.Technology()
    init = game.initialize or m.Initialize()
    attachments = game.attachments or []
    steps = game.steps or []
    rules = production.rules + production.repair_rules
    by_tag = {
        "info": [game.info],
        "territory": game.territories, "grid": game.grids, "connection": game.connections,
        "remove-connection": game.remove_connections, "resource": game.resources or [],
        "player": game.players, "alliance": game.alliances, "unit": game.units or [],
        "relationshipType": game.relationship_types or [], "territoryEffect": game.territory_effects or [],
        "delegate": game.delegates, "step": steps,
        "stepProperty": list(chain.from_iterable(s.properties for s in steps)),
        "productionRule": production.rules, "repairRule": production.repair_rules,
        "cost": list(chain.from_iterable(r.costs for r in rules)),
        "result": list(chain.from_iterable(r.results for r in rules)),
        "productionFrontier": production.frontiers, "repairFrontier": production.repair_frontiers,
        "playerProduction": production.player_production, "playerRepair": production.player_repair,
        "techname": technology.technologies or [], "playerTech": technology.player_techs,
        "category": list(chain.from_iterable(p.categories for p in technology.player_techs)),
        "attachment": attachments, "attatchment": attachments,
        "option": list(chain.from_iterable(a.options for a in attachments)),
        "territoryOwner": init.owners or [], "unitPlacement": init.units or [], "heldUnits": init.held_units,
        "resourceGiven": init.resources or [], "relationship": init.relationships or [],
        "property": game.properties or [],
    }
    positions: dict[int, Position] = {}
    for tag, entities in by_tag.items():
        for element, entity in zip(tree.getroot().iter(tag), entities):
            if entity.pos is not None:
                positions[element.sourceline] = entity.pos
    return positions
