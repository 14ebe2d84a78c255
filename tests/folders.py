"""Comparing output folders before and after a command."""
from __future__ import annotations

from pathlib import Path


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under folder by relative path, with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
