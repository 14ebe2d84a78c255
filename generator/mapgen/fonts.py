"""The one font the map pictures are drawn with (Pillow's bundled one, so images are the same
on every machine), by size."""
from __future__ import annotations

from functools import lru_cache

from PIL import ImageFont

from generator.core.diagnostics import Diagnostic, DiagnosticError, Position


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    loaded = ImageFont.load_default(size)
    if not isinstance(loaded, ImageFont.FreeTypeFont):
        # A Pillow built without FreeType gives a bitmap font of one size: every label would be
        # drawn and measured wrongly, and the pictures would differ from every other machine's.
        raise DiagnosticError([Diagnostic(
            "TG320", "this Pillow has no FreeType support; the map pictures need its scalable font",
            Position("map pictures"), "install Pillow from its wheels (pip install --force-reinstall pillow), "
            "or a Pillow built with FreeType")])
    return loaded


@lru_cache(maxsize=65536)
def text_width(text: str, size: int) -> float:
    return font(size).getlength(text)
