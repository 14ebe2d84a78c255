"""Finding the base game a mod names: `{map: NAME, game: FILE.xml}` or a path.

Maps are looked up where modders keep them: $TRIPLEA_MAPS, then TripleA's own
downloadedMaps folder, then relative to the spec."""
from __future__ import annotations

import os
from pathlib import Path


def map_search_path(spec_dir: Path) -> list[Path]:
    folders = [Path(p) for p in os.environ.get("TRIPLEA_MAPS", "").split(os.pathsep) if p]
    folders.append(Path.home() / "triplea" / "downloadedMaps")
    folders.append(spec_dir)
    return folders


def _map_folder_names(map_name: str) -> list[str]:
    # TripleA's downloadedMaps folders are lower-case with underscores, sometimes with a `-master` suffix.
    base = map_name.strip().replace(" ", "_")
    return list(dict.fromkeys([base, base.lower(), f"{base.lower()}-master"]))


def find_base(map_name: str | None, game_file: str | None, spec_dir: Path) -> tuple[Path | None, str]:
    """The base game XML, or None and a hint saying where it was looked for."""
    if map_name is None:
        candidate = (spec_dir / (game_file or "")).resolve()
        return (candidate if candidate.is_file() else None), f"looked for {candidate}"
    searched = []
    for folder in map_search_path(spec_dir):
        for name in _map_folder_names(map_name):
            games = folder / name / "map" / "games"
            if not games.is_dir():
                games = folder / name / "games"
            searched.append(str(folder / name))
            if games.is_dir():
                if game_file is None:
                    return None, f"map '{map_name}' found at {folder / name}; name one of its games: " + \
                        ", ".join(sorted(p.name for p in games.glob("*.xml")))
                candidate = games / game_file
                if candidate.is_file():
                    return candidate, ""
                return None, f"{games} has no {game_file}; it has: " + ", ".join(
                    sorted(p.name for p in games.glob("*.xml")))
    return None, "looked in " + ", ".join(searched) + " (set TRIPLEA_MAPS to the folder holding your maps)"


def installed_map_folder(map_name: str | None, spec_dir: Path) -> Path | None:
    """The content folder (the one holding polygons.txt) of the installed map called map_name."""
    if not map_name:
        return None
    for folder in map_search_path(spec_dir):
        for name in _map_folder_names(map_name):
            for content in (folder / name / "map", folder / name):
                if (content / "polygons.txt").is_file():
                    return content
    return None
