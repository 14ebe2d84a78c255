"""Colour contrast for generated maps: players must be told apart from each other and from the
sea and impassable ground they sit beside, and text must read on the colour under it.

Distances are CIE76 delta E in CIELAB (the Euclidean distance of perceptual lightness and two
colour axes): about 2.3 is the smallest difference an eye notices side by side; map makers want
far more, since territories are seen apart and under unit counters."""
from __future__ import annotations

from dataclasses import dataclass

# Below this two owners' territories, or an owner's territory and the sea, are easily confused.
MIN_PLAYER_DISTANCE = 20.0
MIN_TERRAIN_DISTANCE = 20.0


def rgb(hex_color: str) -> tuple[int, int, int]:
    text = hex_color.lstrip("#")
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def lab(color: tuple[int, int, int]) -> tuple[float, float, float]:
    """sRGB to CIELAB (D65 white)."""
    r, g, b = (_linear(c) for c in color)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def distance(a: str | tuple[int, int, int], b: str | tuple[int, int, int]) -> float:
    la, lb = lab(rgb(a) if isinstance(a, str) else a), lab(rgb(b) if isinstance(b, str) else b)
    return sum((p - q) ** 2 for p, q in zip(la, lb)) ** 0.5


def luminance(color: tuple[int, int, int]) -> float:
    """Relative luminance (0 black .. 1 white), as in WCAG."""
    r, g, b = (_linear(c) for c in color)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrasting(color: tuple[int, int, int]) -> tuple[int, int, int]:
    """Near-black or white, whichever reads better on the colour."""
    return (20, 20, 20) if luminance(color) > 0.23 else (255, 255, 255)


@dataclass(frozen=True)
class Clash:
    first: str
    first_color: str
    second: str
    second_color: str
    distance: float

    def message(self) -> str:
        return (f"the colours of {self.first} #{self.first_color} and {self.second} #{self.second_color} are too "
                f"close to tell apart on the map (difference {self.distance:.0f}, at least "
                f"{MIN_PLAYER_DISTANCE:.0f} wanted)")


def clashes(players: list[tuple[str, str]], terrain: list[tuple[str, str]]) -> list[Clash]:
    """Pairs of players, and players against terrain colours (sea, impassable), that are too close.
    Colours are RRGGBB; each player is compared with the ones before it and with every terrain."""
    found = []
    for index, (player, color) in enumerate(players):
        for other, other_color in players[:index]:
            d = distance(color, other_color)
            if d < MIN_PLAYER_DISTANCE:
                found.append(Clash(player, color, other, other_color, d))
        for name, terrain_color in terrain:
            d = distance(color, terrain_color)
            if d < MIN_TERRAIN_DISTANCE:
                found.append(Clash(player, color, name, terrain_color, d))
    return found


def pick_free(palette: tuple[str, ...], taken: list[str], avoid: list[str]) -> str | None:
    """The first palette colour far enough from every taken colour and every colour to avoid."""
    for color in palette:
        if color in taken:
            continue
        if all(distance(color, other) >= MIN_PLAYER_DISTANCE for other in taken) and all(
                distance(color, other) >= MIN_TERRAIN_DISTANCE for other in avoid):
            return color
    return None
