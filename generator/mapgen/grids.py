"""Hex and square grids: cell outlines, neighbours and cell ids.

Cell outlines are computed on an integer lattice (for hexes: half a hex width
horizontally and half a side vertically), so two neighbouring cells share
exactly the same corner coordinates and merging cells into territories is an
exact union, never a near-miss of floating-point corners. Pixels come last:
one affine step from the lattice, rounded once per corner.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

Cell = tuple[int, int]  # (column, row), both from 0


def column_letters(column: int) -> str:
    """Spreadsheet-style column names: A..Z, AA..AZ, BA..."""
    letters = ""
    column += 1
    while column:
        column, rest = divmod(column - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def cell_id(cell: Cell) -> str:
    """The id modders write: column letters and row number from 1, e.g. C4."""
    return f"{column_letters(cell[0])}{cell[1] + 1}"


def parse_cell_id(text: str) -> Cell | None:
    text = text.strip().upper()
    split = 0
    while split < len(text) and "A" <= text[split] <= "Z":
        split += 1
    letters, digits = text[:split], text[split:]
    if not letters or not digits.isdigit() or int(digits) < 1 or len(letters) > 3:
        return None
    column = 0
    for letter in letters:
        column = column * 26 + (ord(letter) - ord("A") + 1)
    return column - 1, int(digits) - 1


@dataclass(frozen=True)
class Grid:
    """A columns x rows board of hexes or squares.

    kind: "pointy" or "flat" hexes, or "square".
    size: hex circumradius (centre to corner) or square side, in pixels.
    offset: for hexes, which rows (pointy) or columns (flat) are pushed by half
    a cell: "odd" (1, 3, 5, ...) or "even" (0, 2, 4, ...).
    """

    kind: str
    columns: int
    rows: int
    size: float
    offset: str = "odd"
    margin: int = 0
    diagonals: bool = False  # squares only: corner neighbours count as connected

    def _shifted(self, index: int) -> bool:
        return index % 2 == (1 if self.offset == "odd" else 0)

    def cells(self) -> list[Cell]:
        """Every cell in reading order: row by row, left to right."""
        return [(c, r) for r in range(self.rows) for c in range(self.columns)]

    def contains(self, cell: Cell) -> bool:
        return 0 <= cell[0] < self.columns and 0 <= cell[1] < self.rows

    # Lattice geometry ------------------------------------------------------------------------

    def lattice_corners(self, cell: Cell) -> list[tuple[int, int]]:
        """The cell's outline on the integer lattice, clockwise on screen (y down)."""
        c, r = cell
        if self.kind == "pointy":
            i, j = 1 + 2 * c + (1 if self._shifted(r) else 0), 2 + 3 * r
            return [(i, j - 2), (i + 1, j - 1), (i + 1, j + 1), (i, j + 2), (i - 1, j + 1), (i - 1, j - 1)]
        if self.kind == "flat":
            i, j = 2 + 3 * c, 1 + 2 * r + (1 if self._shifted(c) else 0)
            return [(i - 1, j - 1), (i + 1, j - 1), (i + 2, j), (i + 1, j + 1), (i - 1, j + 1), (i - 2, j)]
        return [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]

    def lattice_scale(self) -> tuple[float, float]:
        """Pixels per lattice step, horizontally and vertically."""
        if self.kind == "pointy":
            return math.sqrt(3) * self.size / 2, self.size / 2
        if self.kind == "flat":
            return self.size / 2, math.sqrt(3) * self.size / 2
        return float(self.size), float(self.size)

    def lattice_extent(self) -> tuple[int, int]:
        """The lattice width and height that every cell fits in."""
        if self.kind == "pointy":
            shifted = self.rows > 1 or self._shifted(0)
            return 2 * self.columns + (1 if shifted else 0), 3 * self.rows + 1
        if self.kind == "flat":
            shifted = self.columns > 1 or self._shifted(0)
            return 3 * self.columns + 1, 2 * self.rows + (1 if shifted else 0)
        return self.columns, self.rows

    def to_pixel(self, lattice_x: float, lattice_y: float) -> tuple[int, int]:
        sx, sy = self.lattice_scale()
        return round(self.margin + lattice_x * sx), round(self.margin + lattice_y * sy)

    def pixel_size(self) -> tuple[int, int]:
        width, height = self.lattice_extent()
        x, y = self.to_pixel(width, height)
        return x + self.margin, y + self.margin

    # Topology --------------------------------------------------------------------------------

    def neighbours(self, cell: Cell) -> list[Cell]:
        """Cells sharing an edge (and, for squares with diagonals, a corner), inside the grid."""
        c, r = cell
        if self.kind == "pointy":
            # The row above and below: a shifted row reaches right, an unshifted row left.
            lo, hi = (c, c + 1) if self._shifted(r) else (c - 1, c)
            candidates = [(c - 1, r), (c + 1, r), (lo, r - 1), (hi, r - 1), (lo, r + 1), (hi, r + 1)]
        elif self.kind == "flat":
            lo, hi = (r, r + 1) if self._shifted(c) else (r - 1, r)
            candidates = [(c, r - 1), (c, r + 1), (c - 1, lo), (c - 1, hi), (c + 1, lo), (c + 1, hi)]
        else:
            candidates = [(c, r - 1), (c - 1, r), (c + 1, r), (c, r + 1)]
            if self.diagonals:
                candidates += [(c - 1, r - 1), (c + 1, r - 1), (c - 1, r + 1), (c + 1, r + 1)]
        return [n for n in candidates if self.contains(n)]
