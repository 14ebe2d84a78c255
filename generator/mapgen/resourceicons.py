"""Icons for a game's own resources (resources/<name>.png and <name>_large.png): a round token
in a colour chosen from the name, with the name's initials. The current client draws the small
icon at 20x20 pixels in its status bar, Economy tab and purchase panel, the large one at 48x48
for a resource players buy (ResourceImageFactory IMAGE_SIZE, LARGE_IMAGE_SIZE); without a file
it shows a grey box with the first two letters, which reads as a missing image."""
from __future__ import annotations

import hashlib
import re

from PIL import Image, ImageDraw

from generator.mapgen.art import png_bytes, rgb
from generator.mapgen.fonts import font

SMALL = 20
LARGE = 48
# Saturated and dark enough for white letters; none of them the placeholder's grey.
TOKEN_COLOURS = ("1E5AA8", "B22222", "2E7D32", "8E24AA", "C05800", "00796B", "6D4C41", "3949AB", "AD1457", "5D6B00")
# Drawn large and scaled down: the token's edge is smooth at 20 pixels too.
_OVERSAMPLE = 4


def initials(name: str) -> str:
    """What the token shows: a short all-capitals name whole (RGT), else the first letters of its
    words (MarineToken -> MT, war_bonds -> WB), else its first two letters (Coal -> Co)."""
    if re.fullmatch(r"[A-Z0-9]{1,3}", name):
        return name
    words = [w for w in re.split(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])", name) if w]
    if len(words) > 1:
        return "".join(w[0] for w in words[:3]).upper()
    return (name[:1].upper() + name[1:2].lower()) if name else "?"


def token_colour(name: str) -> str:
    """The same colour for a name on every machine and in every run (not Python's salted hash)."""
    digest = hashlib.sha256(name.encode("utf-8")).digest()
    return TOKEN_COLOURS[digest[0] % len(TOKEN_COLOURS)]


def resource_icon(name: str, size: int) -> bytes:
    """A PNG of size x size pixels: a coloured disc with a light rim and the initials in white."""
    big = size * _OVERSAMPLE
    fill = rgb(token_colour(name))
    rim = tuple(int(c * 0.45) for c in fill)
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    edge = max(_OVERSAMPLE, big // 14)
    draw.ellipse((0, 0, big - 1, big - 1), fill=rim + (255,))
    draw.ellipse((edge, edge, big - 1 - edge, big - 1 - edge), fill=fill + (255,))
    image = image.resize((size, size), Image.Resampling.LANCZOS)
    # The letters are drawn at their final size: scaled-down text is blurred at 20 pixels.
    text = initials(name)
    draw = ImageDraw.Draw(image)
    inner = size - 2 * max(1, size // 14) - 2
    letter_size = max(6, round(size * (0.62 if len(text) == 1 else 0.5 if len(text) == 2 else 0.4)))
    while letter_size > 6 and font(letter_size).getlength(text) > inner:
        letter_size -= 1
    draw.text((size / 2, size / 2 + 0.5), text, font=font(letter_size), fill=(255, 255, 255, 255), anchor="mm")
    return png_bytes(image)
