"""Unit counters on generated maps: NATO-style symbol by the unit's kind, combat factors from its
stats, the player's colour inside a contrasting border, capital markers to match."""
from __future__ import annotations

import io

import pytest
from PIL import Image

from conftest import REPO
from generator.builder.pipeline import load_game
from generator.mapgen import art, colors
from generator.write.mapfolder import unit_factors

S002 = REPO / "rules_yaml" / "s002_eastern_europe_1939.yaml"


def _image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGBA")


@pytest.mark.parametrize("unit, symbol", [("infantry", "infantry"), ("ru_infantry", "infantry"),
                                          ("armor", "armor"), ("ru_armor", "armor"), ("mechInfantry", "mech"),
                                          ("artillery", "artillery"), ("aaGun", "aa"),
                                          ("ru_partisan", "partisan"), ("marine", "marine"), ("zeppelin", None)])
def test_land_symbol_comes_from_the_unit_name(unit: str, symbol):
    assert art.land_symbol(unit) == symbol


def test_factors_come_from_the_unit_attachments():
    game, _ = load_game(S002)
    factors = unit_factors(game)
    options = {a.attach_to: {o.name: o.value for o in a.options} for a in game.attachments
               if a.name == "unitAttachment"}
    for unit in ("infantry", "armor", "ru_air"):
        expected = tuple(int(options[unit].get(key, 0)) for key in ("attack", "defense", "movement"))
        assert factors[unit] == expected and any(expected)
    assert art.factors_text(factors["armor"]) == "-".join(str(f) for f in factors["armor"])
    assert art.factors_text((0, 0, 0)) == ""


@pytest.mark.parametrize("color", ["B22222", "E0E0EA", "4F4F4F", "F2DC5D"])
def test_counter_has_the_players_colour_inside_a_contrasting_border(color: str):
    image = _image(art.unit_image("infantry", "land", color, factors=(1, 2, 1)))
    assert image.size == (48, 48)
    fill = colors.rgb(color)
    border = image.getpixel((3, 24))[:3]
    assert colors.distance(border, fill) > 40  # red on red no more: the border stands apart from the fill
    inside = image.getpixel((5, 30))[:3]
    assert colors.distance(inside, fill) < 3


def test_counters_differ_by_symbol_and_by_factors():
    infantry = art.unit_image("infantry", "land", "B22222", factors=(1, 2, 1))
    armor = art.unit_image("armor", "land", "B22222", factors=(1, 2, 1))
    stronger = art.unit_image("infantry", "land", "B22222", factors=(3, 3, 2))
    assert len({infantry, armor, stronger}) == 3
    # The factors line is drawn in the lower part only; the symbol box in the upper part.
    top = lambda data: _image(data).crop((0, 0, 48, 28)).tobytes()
    bottom = lambda data: _image(data).crop((0, 30, 48, 48)).tobytes()
    assert top(infantry) == top(stronger) and bottom(infantry) != bottom(stronger)
    assert top(infantry) != top(armor) and bottom(infantry) == bottom(armor)


def test_capital_marker_has_the_counters_colours():
    flags = art.flag_images("Russia", "B22222", 20)
    marker = _image(flags["Russia_large.png"])
    assert marker.size == (20, 20)
    assert colors.distance(marker.getpixel((10, 4))[:3], (255, 255, 255)) < 20  # the star's point, contrasting
    assert colors.distance(marker.getpixel((4, 10))[:3], (0xB2, 0x22, 0x22)) < 10  # the disc, player's colour


@pytest.mark.parametrize("unit, seat", [("government", True), ("seat_of_government", True), ("capitalMarker", True),
                                        ("factory", False), ("factory_minor", False), ("harbour", False)])
def test_a_seat_of_government_is_told_by_its_name(unit: str, seat: bool):
    assert art.is_seat_of_government(unit) is seat


def test_a_seat_of_government_does_not_look_like_a_factory():
    """s002's minor countries hold a `government` building in their capital: drawn as the factory, a
    player took it for one (issue 18's client check)."""
    government = _image(art.unit_image("government", "building", "B22222"))
    factory = _image(art.unit_image("factory", "building", "B22222"))
    symbol = (9, 7, 39, 36)
    assert government.crop(symbol).tobytes() != factory.crop(symbol).tobytes()
    assert government.getpixel((5, 40)) == factory.getpixel((5, 40))  # the same counter otherwise
