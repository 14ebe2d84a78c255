"""map.yml, the list of a map's games the current engine loads (a game it does not list is
refused). Merged, never rewritten: the listing already in the output folder (or the base map's)
keeps its bytes and gains an entry for each game it lacks."""
from __future__ import annotations

import json

import yaml


def _games(data: bytes | None) -> tuple[str | None, list[dict]]:
    if not data:
        return None, []
    try:
        parsed = yaml.safe_load(data.decode("utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError):
        return None, []
    if not isinstance(parsed, dict):
        return None, []
    games = [g for g in parsed.get("games") or [] if isinstance(g, dict) and g.get("file_name")]
    name = parsed.get("map_name")
    return (str(name) if name is not None else None), games


def listed_games(data: bytes | None) -> list[tuple[str, str]]:
    """(file_name, game_name) of each game a map.yml lists (a game without a name: its file name)."""
    return [(str(g["file_name"]), str(g.get("game_name") or g["file_name"])) for g in _games(data)[1]]


def _entry(game_name: str, file_name: str) -> str:
    # JSON strings are valid YAML flow scalars, whatever characters the names hold.
    return (f"{{game_name: {json.dumps(game_name, ensure_ascii=False)}, "
            f"file_name: {json.dumps(file_name, ensure_ascii=False)}}}")


def _render(map_name: str, games: list[tuple[str, str]]) -> bytes:
    lines = [f"map_name: {json.dumps(map_name, ensure_ascii=False)}", "games:"]
    lines += [f"- {_entry(name, file)}" for name, file in games]
    return ("\n".join(lines) + "\n").encode("utf-8")


def _list_indent(text: str) -> str | None:
    """The indentation of the games list's items when that list ends the file (so entries can be
    appended), else None."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.rstrip() == "games:"), None)
    if start is None:
        return None
    indent = None
    for line in lines[start + 1:]:
        stripped = line.lstrip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        prefix = line[:len(line) - len(stripped)]
        if stripped.startswith("- ") and (indent is None or prefix == indent):
            indent = prefix
        elif indent is not None and len(prefix) > len(indent):
            continue  # a block-style entry's further keys
        else:
            return None
    return indent if indent is not None else "  "


def merge_listing(listings: list[bytes | None], map_name: str, games: list[tuple[str, str]]) -> bytes:
    """The first existing listing (the output folder's, else the base's) with every game of the
    later listings and then `games` (game_name, file_name) it does not list appended."""
    start = next((data for data in listings if data), None)
    listed_name, listed = _games(start)
    present = {str(g["file_name"]) for g in listed}
    wanted: list[tuple[str, str]] = []
    for data in listings:
        for game in _games(data)[1]:
            wanted.append((str(game.get("game_name") or game["file_name"]), str(game["file_name"])))
    wanted += games
    missing = []
    for name, file in wanted:
        if file not in present:
            present.add(file)
            missing.append((name, file))
    if start is None or listed_name is None:
        return _render(listed_name or map_name, [(str(g.get("game_name") or g["file_name"]), str(g["file_name"]))
                                                 for g in listed] + missing)
    if not missing:
        return start
    text = start.decode("utf-8")
    indent = _list_indent(text)
    if indent is None:  # an unusual layout: written anew, with the same games in the same order
        return _render(listed_name, [(str(g.get("game_name") or g["file_name"]), str(g["file_name"]))
                                     for g in listed] + missing)
    if not text.endswith("\n"):
        text += "\n"
    return (text + "".join(f"{indent}- {_entry(name, file)}\n" for name, file in missing)).encode("utf-8")
