"""Does a screenshot of the desktop client plausibly show a map? Decided from the pixels
alone: a map panel is large and full of colours (land, sea, borders, units, names), while the
failures look different: an error dialog over the bare X screen (one dark colour almost
everywhere), an empty grey frame (one grey), or a panel too small to show anything."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PIL import Image

# Measured on the client's real shots (generated maps and Global 1940) and on
# error-dialog-like pictures: see tests/engine/test_engine_gui.py.
MIN_SIDE = 200  # pixels: smaller than this, no map can be judged
MAX_DOMINANT_SHARE = 0.80  # one colour (an empty panel, the X screen's black) covers more
MIN_COLOURS = 24  # distinct colours after coarse quantisation; a dialog of text has a few
# The share of the map panel the map itself must cover: a map drawn too small for the window
# leaves the panel's plain background below and to the right of it (a 560 x 420 map in the
# 1280 x 1024 client covers about 28 %).
MIN_COVERAGE = 0.6
_SAMPLE_WIDTH = 400  # pictures are scaled down to this for speed; the verdict does not need detail
_QUANTUM = 16  # colour channels in steps of 16: antialiasing and JPEG noise do not count as colours


@dataclass(frozen=True)
class PictureVerdict:
    plausible_map: bool
    width: int
    height: int
    colours: int  # distinct colours, quantised
    dominant_share: float  # share of the commonest (quantised) colour
    reason: str  # why not a map; "" when it is one
    coverage: float = 1.0  # share of the picture the map covers (less the plain margin right and below)

    def summary(self) -> str:
        facts = (f"{self.width}x{self.height}, {self.colours} colours, "
                 f"commonest colour {self.dominant_share:.0%} of the picture")
        if self.coverage < 1:
            facts += f", map covers {self.coverage:.0%} of the panel"
        return f"looks like a map ({facts})" if self.plausible_map else f"not a map: {self.reason} ({facts})"


def _near(colour: tuple[int, ...], others: tuple[tuple[int, int, int], ...]) -> bool:
    """Whether a quantised colour is one of others (quantised alike), give or take a step."""
    return any(all(abs(c - o // _QUANTUM * _QUANTUM) <= _QUANTUM for c, o in zip(colour, other)) for other in others)


def judge_picture(picture: Image.Image, map_colours: tuple[tuple[int, int, int], ...] = ()) -> PictureVerdict:
    """The verdict on one picture (a screenshot, or its map panel cut out). map_colours: the players'
    colours of the map folder (map.properties): one of them may fill the view (a large map scrolled to a
    big power's land), which an empty frame or a bare screen never does."""
    width, height = picture.size
    sample = picture.convert("RGB")
    if width > _SAMPLE_WIDTH:
        sample = sample.resize((_SAMPLE_WIDTH, max(1, round(height * _SAMPLE_WIDTH / width))), Image.Resampling.NEAREST)
    coarse = sample.point(lambda value: value // _QUANTUM * _QUANTUM)
    counts = coarse.getcolors(coarse.width * coarse.height) or []
    colours = len(counts)
    top_count, top = max(counts, default=(0, (0, 0, 0)))
    # getcolors gives an RGB picture's colours as (r, g, b) (its typing allows a one-band number too)
    top_colour = top if isinstance(top, tuple) else (int(top),) * 3
    dominant = top_count / max(1, coarse.width * coarse.height)
    coverage = map_coverage(sample)
    if min(width, height) < MIN_SIDE:
        reason = f"only {width}x{height} pixels"
    elif dominant > MAX_DOMINANT_SHARE and not _near(top_colour, map_colours):
        reason = "one colour covers almost everything (an empty frame, or a dialog on a bare screen)"
    elif colours < MIN_COLOURS:
        reason = "too few colours for land, sea, borders and units (a dialog or a blank panel)"
    elif coverage < MIN_COVERAGE:
        reason = "the map fills only a corner of the window (drawn too small for the client)"
    else:
        reason = ""
    return PictureVerdict(not reason, width, height, colours, dominant, reason, coverage)


def map_coverage(picture: Image.Image) -> float:
    """The client draws the map from the panel's top-left corner; where the map is smaller than
    the panel, whole rows at the bottom and whole columns at the right are the panel's plain
    background (the colour of the bottom-right pixel). The share left after cutting them off."""
    pixels = picture.convert("RGB").load()
    assert pixels is not None, "load() gives None only for an image without pixel data; a converted copy has them"
    width, height = picture.size
    background = pixels[width - 1, height - 1]

    def plain_row(y: int) -> bool:
        return all(pixels[x, y] == background for x in range(width))

    def plain_column(x: int) -> bool:
        return all(pixels[x, y] == background for y in range(height))

    rows = height
    while rows > 0 and plain_row(rows - 1):
        rows -= 1
    columns = width
    while columns > 0 and plain_column(columns - 1):
        columns -= 1
    return (rows * columns) / max(1, width * height)


def judge_screenshot(png: Path, map_panel: list[int] | None = None,
                     map_colours: tuple[tuple[int, int, int], ...] = ()) -> PictureVerdict:
    """The verdict on a screenshot; with the map panel's [x, y, width, height] on it, on that part."""
    with Image.open(png) as screen:
        screen.load()
        if map_panel and map_panel[2] > 0 and map_panel[3] > 0:
            x, y, width, height = map_panel
            return judge_picture(screen.crop((x, y, x + width, y + height)), map_colours)
        return judge_picture(screen, map_colours)


def player_colours(properties: dict[str, str]) -> tuple[tuple[int, int, int], ...]:
    """The `color.<Player>=RRGGBB` values of a map.properties, as RGB."""
    found = []
    for key, value in sorted(properties.items()):
        value = value.strip().lstrip("#")
        if key.startswith("color.") and len(value) == 6:
            try:
                found.append((int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)))
            except ValueError:
                continue
    return tuple(found)
