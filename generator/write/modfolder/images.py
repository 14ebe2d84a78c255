"""Images for new players and unit types, in the base map's style: a base image recoloured into
the player's colour (its shading kept), with a small lettered badge where the spec asks for one,
or a drawn flag / counter when there is nothing to derive from. Deterministic PNGs (fixed
encoder settings, no metadata)."""
from __future__ import annotations

import io

from PIL import Image, ImageDraw, ImageOps

from generator.mapgen import art, fonts

# Sizes of flags/<Player><suffix>.png when the base map has no flag to measure: the engines'
# usual ones (the capital marker _large is drawn unscaled).
FLAG_SIZES = {"": (32, 32), "_small": (12, 12), "_large": (100, 100), "_fade": (32, 32), "_convoy": (32, 32)}


def _load(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image.convert("RGBA")


def size_of(data: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(data)).size


def _text_colour(fill: tuple[int, int, int]) -> tuple[int, int, int]:
    return (255, 255, 255) if sum(fill) < 420 else (20, 20, 20)


def tinted(data: bytes, colour: str) -> Image.Image:
    """The image in the colour's shades: dark parts dark, light parts a light tint, alpha kept."""
    image = _load(data)
    fill = art.rgb(colour)
    dark = tuple(int(c * 0.25) for c in fill)
    light = tuple(int(c + (255 - c) * 0.7) for c in fill)
    grey = ImageOps.autocontrast(image.convert("L"), cutoff=1)
    coloured = ImageOps.colorize(grey, black=dark, white=light, mid=fill).convert("RGBA")
    coloured.putalpha(image.getchannel("A"))
    return coloured


def with_badge(image: Image.Image, mark: str, colour: str) -> Image.Image:
    """A round badge with the mark's letters in the top-right corner."""
    image = image.copy()
    width, height = image.size
    diameter = max(8, round(min(width, height) * (0.42 if len(mark) == 1 else 0.5)))
    box = (width - diameter - 1, 0, width - 1, diameter)
    draw = ImageDraw.Draw(image)
    fill = art.rgb(colour)
    draw.ellipse(box, fill=(255, 255, 255, 255), outline=(20, 20, 20, 255), width=max(1, diameter // 12))
    if diameter >= 10:
        draw.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 0.5), mark,
                  font=fonts.font(max(6, round(diameter * (0.7 if len(mark) == 1 else 0.45)))),
                  fill=tuple(int(c * 0.6) for c in fill) + (255,), anchor="mm")
    return image


def png(image: Image.Image) -> bytes:
    return art.png_bytes(image)


def derived(data: bytes, colour: str | None, mark: str | None, badge_colour: str) -> bytes:
    """A base image recoloured (when colour is given) and badged (when mark is given)."""
    image = tinted(data, colour) if colour else _load(data)
    if mark:
        image = with_badge(image, mark, badge_colour)
    return png(image)


def faded(data: bytes) -> bytes:
    """The look of flags/<Player>_fade.png: the flag washed out towards white."""
    image = _load(data)
    white = Image.new("RGBA", image.size, (255, 255, 255, 255))
    blended = Image.blend(image, white, 0.5)
    blended.putalpha(image.getchannel("A"))
    return png(blended)


def drawn_flag(player: str, colour: str, suffix: str, size: tuple[int, int], mark: str | None) -> bytes:
    """A plain flag in the player's colour with its initial; the _large capital marker is round."""
    width, height = size
    fill = art.rgb(colour)
    dark = tuple(int(c * 0.5) for c in fill)
    image = Image.new("RGBA", size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    border = max(1, min(size) // 16)
    if suffix == "_large":
        draw.ellipse((0, 0, width - 1, height - 1), fill=(255, 255, 255), outline=dark, width=border)
        inset = max(2, min(size) // 8)
        draw.ellipse((inset, inset, width - 1 - inset, height - 1 - inset), fill=fill)
    else:
        draw.rectangle((0, height // 8, width - 1, height - 1 - height // 8), fill=fill, outline=dark, width=border)
    letters = mark or player[:1].upper()
    if min(size) >= 20:
        size_of_letters = max(6, int(min(size) * 0.5 / len(letters) ** 0.5))
        draw.text((width / 2, height / 2), letters, font=fonts.font(size_of_letters), fill=_text_colour(fill),
                  anchor="mm")
    if suffix == "_fade":
        return faded(png(image))
    return png(image)


def drawn_unit(unit: str, kind: str, colour: str, size: tuple[int, int], damaged: bool = False) -> bytes:
    """The generated maps' counter (shape by kind, letters by type), at the base map's unit size."""
    data = art.unit_image(unit, kind, colour, damaged=damaged)
    if size == (art.UNIT_IMAGE, art.UNIT_IMAGE):
        return data
    return png(_load(data).resize(size, Image.Resampling.LANCZOS))
