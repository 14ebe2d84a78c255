"""Warm rendering (generator.render.sections) gives the cold render's bytes and positions: on every
example, first render and again after an edit, and the table of the fields each section reads holds
every `game.<field>` its template reads."""
from __future__ import annotations

import re

import pytest

from conftest import REPO, SHARED, SHARED_MISSING
from generator.render import sections, templates

EXAMPLES = sorted((REPO / "rules_yaml").glob("*.yaml"))


def test_the_table_names_every_field_each_section_reads():
    texts = sections.section_templates(templates.TEMPLATES_DIR)
    for name, text in texts.items():
        assert set(re.findall(r"\bgame\.(\w+)", text)) == set(sections.SECTION_FIELDS[name]), name
        assert not re.search(r"\bgame\b(?!\.)", text.replace("<gamePlay>", "").replace("</gamePlay>", "")), name
        assert "include" not in text and "import" not in text, name
    frame = (templates.TEMPLATES_DIR / "game" / "game.xml.j2").read_text(encoding="utf-8")
    assert re.findall(r'include "game/(\w+)\.xml\.j2"', frame) == list(sections.SECTION_FIELDS)


def _cold(game):
    warm, sections._warm = sections._warm, None
    try:
        return templates.render_game_with_origins(game)
    finally:
        sections._warm = warm


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_warm_renders_are_the_cold_render(example, monkeypatch):
    text = example.read_text(encoding="utf-8")
    if "world_war_ii_global" in text:
        if not SHARED.is_dir():
            pytest.skip(SHARED_MISSING)
        monkeypatch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    from generator.builder.pipeline import load_spec

    monkeypatch.setattr(sections, "_warm", {})
    game = load_spec(example).game
    assert templates.render_game_with_origins(game) == _cold(game)  # the first: every section rendered
    assert templates.render_game_with_origins(game) == _cold(game)  # the second: every section kept
    game.players[0].name += "x"  # a change in one section: that one rendered again, the rest kept
    if game.properties:
        game.properties = game.properties[1:]
    assert templates.render_game_with_origins(game) == _cold(game)


def test_a_value_the_fingerprint_does_not_know_is_rendered_every_time():
    class Other:
        pass

    with pytest.raises(sections.Unfingerprintable):
        sections.fingerprint([Other()])
    assert sections.fingerprint(("a", 1)) != sections.fingerprint(["a", 1])


def _reference_fingerprint(value):
    """The fingerprint as first written (one isinstance chain per value), which the planned one
    must equal: the same tuples, so the same sections count as changed."""
    import dataclasses

    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    kind = type(value)
    if kind is list or isinstance(value, tuple):
        return (kind.__name__, *map(_reference_fingerprint, value))
    if isinstance(value, dict):
        return ("dict", *((_reference_fingerprint(k), _reference_fingerprint(v)) for k, v in value.items()))
    if dataclasses.is_dataclass(value):
        return (kind.__name__, *(_reference_fingerprint(getattr(value, f.name)) for f in dataclasses.fields(kind)))
    raise sections.Unfingerprintable(kind.__name__)


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_the_fingerprint_of_every_section_is_the_reference_one(example, monkeypatch):
    from generator.builder.pipeline import load_spec

    if "world_war_ii_global" in example.read_text(encoding="utf-8"):
        if not SHARED.is_dir():
            pytest.skip(SHARED_MISSING)
        monkeypatch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    game = load_spec(example).game
    for fields in sections.SECTION_FIELDS.values():
        values = tuple(getattr(game, field) for field in fields)
        try:
            expected = _reference_fingerprint(values)
        except sections.Unfingerprintable:
            with pytest.raises(sections.Unfingerprintable):
                sections.fingerprint(values)
            continue
        assert sections.fingerprint(values) == expected, fields
