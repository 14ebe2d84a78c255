"""The one font the map pictures are drawn with (Pillow's bundled one, so images are the same
on every machine), by size."""
from __future__ import annotations

from functools import lru_cache

from PIL import ImageFont


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.load_default(size)


@lru_cache(maxsize=65536)
def text_width(text: str, size: int) -> float:
    return font(size).getlength(text)
