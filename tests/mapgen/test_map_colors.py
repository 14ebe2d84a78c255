"""Colour checks of generated maps: players told apart from each other and from the sea,
impassable ground and unowned land; a located warning naming both colours; the default palette
skips colours the map already uses."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import REPO
from generator.builder.pipeline import load_game
from generator.mapgen import colors
from generator.write.mapfolder import PALETTE, player_colors

HEX_SPECS = ["s002_eastern_europe_1939", "s003_manchuria_1945", "hex_skirmish", "frontier_1939"]


def _spec(tmp_path: Path, style: str, players: str = "Reds: {}\n  Blues: {}\n") -> Path:
    path = tmp_path / "colours.yaml"
    path.write_text('info: {name: colours, version: "1.0"}\n'
                    "map:\n  hexes:\n    columns: 3\n    rows: 2\n    terrain: |\n      . . ~\n       . ~ ~\n"
                    f"  style:\n{style}"
                    f"players:\n  {players}"
                    "properties:\n  mapName: {value: colours}\n", "utf-8")
    return path


def test_distance_tells_near_and_far_colours():
    assert colors.distance("7FA6C9", "6E9CC8") < colors.MIN_PLAYER_DISTANCE  # s002's Baltic States on its sea
    assert colors.distance("B22222", "1E5AA8") > 3 * colors.MIN_PLAYER_DISTANCE
    assert colors.distance("FFFFFF", "000000") == pytest.approx(100, abs=0.5)


def test_close_colours_are_warned_at_the_player_with_both_names(tmp_path: Path):
    spec = _spec(tmp_path, "    sea: '#6E9CC8'\n    players:\n      Reds: '#B22222'\n      Blues: '#7FA6C9'\n")
    _, warnings = load_game(spec)
    (warning,) = [w for w in warnings if w.code == "TG460"]
    text = warning.format()
    assert "Blues #7FA6C9" in text and "the sea #6E9CC8" in text
    assert spec.read_text().splitlines()[warning.position.line - 1].strip() == "Blues: '#7FA6C9'"


def test_two_players_too_alike_are_warned(tmp_path: Path):
    spec = _spec(tmp_path, "    players:\n      Reds: '#C9A227'\n      Blues: '#C8A040'\n")
    _, warnings = load_game(spec)
    messages = [w.message for w in warnings if w.code == "TG460"]
    assert messages == [m for m in messages if "Blues #C8A040 and Reds #C9A227" in m] and len(messages) == 1


def test_distinct_colours_give_no_warning(tmp_path: Path):
    spec = _spec(tmp_path, "    players:\n      Reds: '#B22222'\n      Blues: '#1E5AA8'\n")
    _, warnings = load_game(spec)
    assert not [w for w in warnings if w.code == "TG460"]


def test_impassable_colour_counts_only_where_the_map_has_impassable_ground(tmp_path: Path):
    spec = _spec(tmp_path, "    impassable: '#6E6E6E'\n    players:\n      Reds: '#6E6E6E'\n      Blues: '#1E5AA8'\n")
    _, warnings = load_game(spec)
    assert not [w for w in warnings if w.code == "TG460"]  # no impassable cell on this board


@pytest.mark.parametrize("name", HEX_SPECS)
def test_example_maps_have_no_colour_clashes(name: str):
    _, warnings = load_game(REPO / "rules_yaml" / f"{name}.yaml")
    assert not [w.format() for w in warnings if w.code == "TG460"]


def test_default_palette_skips_a_colour_like_the_sea(tmp_path: Path):
    # The sea painted in the palette's first colour: the first player must get another one.
    spec = _spec(tmp_path, "    sea: '#B22222'\n")
    game, _ = load_game(spec)
    assigned = dict(player_colors(game, game.geometry))
    assert assigned["Reds"] != "B22222" and assigned["Reds"] in PALETTE
    assert colors.distance(assigned["Reds"], "B22222") >= colors.MIN_TERRAIN_DISTANCE
    assert colors.distance(assigned["Reds"], assigned["Blues"]) >= colors.MIN_PLAYER_DISTANCE


def test_default_palette_colours_stand_apart():
    for index, color in enumerate(PALETTE):
        assert colors.distance(color, "6E9CC8") >= colors.MIN_TERRAIN_DISTANCE, color  # the default sea
        for other in PALETTE[:index]:
            assert colors.distance(color, other) >= colors.MIN_PLAYER_DISTANCE, (color, other)
