"""File names that work here but collide on other systems, where maps are shared to: Windows
reserves device names (`CON`, `aux.png`, `LPT1`, ...) in any case and with any extension, and
Windows and macOS compare names without case (and macOS also without Unicode normalisation), so
`flags/Germans.png` and `flags/germans.png` are one file there and one replaces the other."""
from __future__ import annotations

import os
import stat
import unicodedata
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

_WINDOWS_DEVICES = frozenset({"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)),
                              *(f"LPT{i}" for i in range(1, 10))})


def windows_reserved(name: str) -> bool:
    """Whether Windows refuses name as a file or folder name: a device name, whatever follows
    its first dot, in any case, trailing spaces ignored."""
    return name.split(".", 1)[0].rstrip(" ").upper() in _WINDOWS_DEVICES


def folded(name: str) -> str:
    """A name as Windows and macOS compare it: case and Unicode normal form left out."""
    return unicodedata.normalize("NFC", name).casefold()


@dataclass(frozen=True)
class Clash:
    path: str  # the written path (relative, '/'-separated) up to the part that clashes
    other: str | None  # the path it is one file with on Windows and macOS; None: Windows reserves it
    written: bool = True  # whether `other` is written by this build too (else: already in the folder)


def clashes(relpaths: list[str], outdir: Path | None = None) -> list[Clash]:
    """The paths among relpaths (and their folders) Windows reserves, and those equal but for case
    to another written path or to what is already in outdir; each clash once, in path order."""
    prefixes: dict[str, None] = {}
    for rel in relpaths:
        parts = PurePosixPath(rel).parts
        for depth in range(1, len(parts) + 1):
            prefixes.setdefault("/".join(parts[:depth]))
    found: list[Clash] = []
    by_fold: dict[tuple[str, str], str] = {}
    for prefix in prefixes:
        parent, _, name = prefix.rpartition("/")
        if windows_reserved(name):
            found.append(Clash(prefix, None))
        key = (parent, folded(name))
        first = by_fold.setdefault(key, prefix)
        if first != prefix:
            found.append(Clash(prefix, first))
    if outdir is not None:
        found += _clashes_with_folder(prefixes, outdir)
    reported: set[str] = set()
    unique = []
    for clash in found:  # a folder that clashes makes every path in it clash: its own report is enough
        if not any(clash.path.startswith(done + "/") for done in reported):
            reported.add(clash.path)
            unique.append(clash)
    return sorted(unique, key=lambda c: c.path)


def _clashes_with_folder(prefixes: dict[str, None], outdir: Path) -> list[Clash]:
    found = []
    written: dict[str, dict[str, str]] = {}
    for prefix in prefixes:
        parent, _, name = prefix.rpartition("/")
        written.setdefault(parent, {}).setdefault(folded(name), prefix)
    for parent, names in sorted(written.items()):
        for name in _listing(outdir, parent):
            rel = f"{parent}/{name}" if parent else name
            ours = names.get(folded(name))  # the path we write that this one folds onto
            if ours is not None and rel not in prefixes:
                found.append(Clash(ours, rel, written=False))
    return found


def _listing(outdir: Path, parent: str) -> list[str]:
    """The names in outdir/parent; nothing when it is missing or reached through a link."""
    folder = outdir
    for part in PurePosixPath(parent).parts:
        folder = folder / part
        try:
            if not stat.S_ISDIR(os.lstat(folder).st_mode):
                return []
        except OSError:
            return []
    try:
        return sorted(os.listdir(folder))
    except OSError:
        return []
