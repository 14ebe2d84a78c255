"""The one font of the map pictures: Pillow's scalable default. A Pillow without FreeType gives a
bitmap font of one size instead, which would draw and measure every label wrongly: refused (TG320)."""
from __future__ import annotations

import pytest
from PIL import ImageFont

from generator.core.diagnostics import DiagnosticError
from generator.mapgen import fonts


@pytest.fixture
def fresh_fonts():
    fonts.font.cache_clear()
    yield
    fonts.font.cache_clear()


def test_the_font_scales(fresh_fonts):
    assert isinstance(fonts.font(20), ImageFont.FreeTypeFont)
    assert fonts.text_width("Poland", 20) > fonts.text_width("Poland", 10)


def test_a_pillow_without_freetype_is_refused(fresh_fonts, monkeypatch):
    # what load_default gives where Pillow was built without FreeType
    monkeypatch.setattr(ImageFont, "load_default", lambda size=None: ImageFont.load_default_imagefont())
    with pytest.raises(DiagnosticError) as raised:
        fonts.font(14)
    assert [d.code for d in raised.value.diagnostics] == ["TG320"]
    assert "FreeType" in raised.value.diagnostics[0].message
