"""What the model says about unit types (generator/model/units.py): the picture kind a unit is
drawn as, whether it can be damaged, and its combat factors, from its unitAttachment."""
from __future__ import annotations

from generator.model import game as m
from generator.model.units import unit_factors, unit_kinds


def _game(**options_by_unit: dict[str, str]) -> m.Game:
    return m.Game(units=[m.Named(name) for name in options_by_unit], attachments=[
        m.Attachment("unitAttachment", unit, "games.strategy.triplea.attachments.UnitAttachment",
                     options=[m.Option(name, value) for name, value in options.items()])
        for unit, options in options_by_unit.items()])


def test_kinds_follow_the_attachment_options():
    game = _game(infantry={"attack": "1"}, destroyer={"isSea": "true"}, fighter={"isAir": "true"},
                 factory={"isFactory": "true", "canBeDamaged": "true"}, battleship={"isSea": "true", "hitPoints": "2"})
    assert unit_kinds(game) == {"infantry": ("land", False), "destroyer": ("sea", False), "fighter": ("air", False),
                                "factory": ("building", True), "battleship": ("sea", True)}


def test_factors_are_attack_defense_movement_with_zero_for_what_is_missing_or_not_a_number():
    game = _game(armour={"attack": "3", "defense": "3", "movement": "2"}, militia={"defense": "x"})
    assert unit_factors(game) == {"armour": (3, 3, 2), "militia": (0, 0, 0)}


def test_attachments_of_other_objects_are_not_read():
    game = _game(infantry={"attack": "1"})
    game.attachments.append(m.Attachment("unitAttachment", "ghost", "x", options=[m.Option("isSea", "true")]))
    game.attachments.append(m.Attachment("rulesAttachment", "infantry", "x", options=[m.Option("isAir", "true")]))
    assert unit_kinds(game) == {"infantry": ("land", False)}
