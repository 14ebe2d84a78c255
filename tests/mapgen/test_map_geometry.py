"""Geometry checks of generated maps: no land connection across water unless the spec declares
one, a warning for a territory with no neighbour (unless declared an off-map box) and for a
player's land in pieces that neither land nor sea joins."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import REPO
from generator.builder.pipeline import load_game
from generator.core.diagnostics import DiagnosticError


def _connections(game) -> set[frozenset[str]]:
    return {frozenset((c.t1, c.t2)) for c in game.connections}


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "geometry.yaml"
    path.write_text('info: {name: geometry, version: "1.0"}\n' + body +
                    "properties:\n  mapName: {value: geometry}\n", "utf-8")
    return path


# A mainland (x < 180) and an island (x > 200) with a strait between. West B stands close to the
# strait: splitting all land at once gives it a sliver of the island, touching Isle across water.
TWO_MASSES = """map:
  sites:
    width: 400
    height: 200
    coast:
      - [[0, 0], [180, 0], [180, 200], [0, 200]]
      - [[200, 0], [400, 0], [400, 200], [200, 200]]
    land: {West A: [20, 100], West B: [170, 20], Isle: [380, 180]}
    sea: {Strait: [190, 100]}
"""


def test_sites_do_not_join_land_masses_across_water(tmp_path: Path):
    game, _ = load_game(_write(tmp_path, TWO_MASSES))
    connections = _connections(game)
    assert frozenset(("West B", "Isle")) not in connections
    assert frozenset(("West A", "West B")) in connections
    assert frozenset(("Isle", "Strait")) in connections and frozenset(("West B", "Strait")) in connections
    isle = game.geometry.region("Isle")
    assert isle.shape.bounds[0] >= 199  # the whole island, and nothing of the mainland


def test_a_declared_connection_across_water_is_kept(tmp_path: Path):
    game, _ = load_game(_write(tmp_path, TWO_MASSES + "  extraConnections: [[West B, Isle]]\n"))
    assert frozenset(("West B", "Isle")) in _connections(game)


LONE = """map:
  squares:
    columns: 4
    rows: 1
    size: 40
    terrain: '. . - .'
"""


def test_a_territory_without_neighbours_is_warned_and_drawn_as_a_box(tmp_path: Path):
    game, warnings = load_game(_write(tmp_path, LONE))
    (warning,) = [w for w in warnings if w.code == "TG463"]
    assert "D1 borders no other territory" in warning.message and "style: boxes" in warning.hint
    assert game.geometry.region("D1").box and not game.geometry.region("A1").box


def test_a_declared_box_is_not_warned(tmp_path: Path):
    _, warnings = load_game(_write(tmp_path, LONE + "  style: {boxes: [D1]}\n"))
    assert not [w for w in warnings if w.code == "TG463"]


def test_an_unknown_box_is_an_error(tmp_path: Path):
    with pytest.raises(DiagnosticError) as caught:
        load_game(_write(tmp_path, LONE + "  style: {boxes: [D1, Atlantis]}\n"))
    assert any("Atlantis" in d.message for d in caught.value.diagnostics)


def _owned(terrain: str) -> str:
    return f"""map:
  squares:
    columns: 3
    rows: 2
    size: 40
    terrain: |
{terrain}
players:
  Reds: {{}}
  Blues: {{}}
initialize:
  owners: {{A1: Reds, B1: Blues, C1: Reds}}
"""


def test_a_players_land_cut_in_two_is_warned(tmp_path: Path):
    game, warnings = load_game(_write(tmp_path, _owned("      . . .\n      - - -")))
    (warning,) = [w for w in warnings if w.code == "TG464"]
    assert "the land of Reds is in 2 pieces" in warning.message and "C1 cannot be reached from A1" in warning.message


def test_a_players_land_joined_by_sea_is_not_warned(tmp_path: Path):
    _, warnings = load_game(_write(tmp_path, _owned("      . . .\n      ~ ~ ~")))
    assert not [w for w in warnings if w.code == "TG464"]


def test_seed_maps_sumatra_by_sea_only_and_boxes_declared():
    game, warnings = load_game(REPO / "rules_yaml" / "s003_manchuria_1945.yaml")
    connections = _connections(game)
    assert not {frozenset(("Sumatra", "North Malaya")), frozenset(("Sumatra", "Singapore"))} & connections
    assert frozenset(("Sumatra", "South China Sea")) in connections
    assert ("Singapore", "Sumatra") in game.geometry.barriers  # drawn as water
    game, warnings = load_game(REPO / "rules_yaml" / "s002_eastern_europe_1939.yaml")
    assert not [w for w in warnings if w.code == "TG463"]
    assert {r.name for r in game.geometry.regions if r.box} == {"British Isles", "Western Front", "United States"}
