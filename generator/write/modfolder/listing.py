"""map.yml, the list of a map's games the current engine loads (a game it does not list is
refused). Merged, never rewritten: the listing already in the output folder (or the base map's)
keeps its bytes and gains an entry for each game it lacks. Names are written with YAML's escapes
for what may not stand raw, and the result is read back before it is written: one hostile name
must not break the file for every other game. A listing that does not parse stops the build."""
from __future__ import annotations

from generator.core.diagnostics import Diagnostic, DiagnosticError, Position
from generator.read.maplisting import listing_games

# YAML's escapes in a double-quoted scalar for what may not stand raw in one: C0 and C1 controls,
# DEL, the line breaks NEL, LS and PS (a raw one would be folded into a space), the byte order
# mark, and lone surrogates. Every other character is written as it is (names stay readable).
_SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _raw_in_quotes(code: int) -> bool:
    return (0x20 <= code <= 0x7E or (0xA0 <= code <= 0xD7FF and code not in (0x2028, 0x2029))
            or (0xE000 <= code <= 0xFFFD and code != 0xFEFF) or code >= 0x10000)


def yaml_quoted(text: str) -> str:
    """text as a YAML double-quoted scalar that any YAML reader (libyaml, the engine's SnakeYAML)
    reads back as text, whatever characters it holds."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[ch])
        elif _raw_in_quotes(code):
            out.append(ch)
        else:
            out.append(f"\\x{code:02X}" if code <= 0xFF else f"\\u{code:04X}")
    return '"' + "".join(out) + '"'


def listed_games(data: bytes | None, shown: str = "map.yml") -> list[tuple[str, str]]:
    """(file_name, game_name) of each game a map.yml lists (a game without a name: its file name);
    none for a listing that cannot be read (the merge that follows reports it, located)."""
    try:
        _, games = listing_games(data, shown)
    except DiagnosticError:
        return []
    return [(file_name, game_name or file_name) for game_name, file_name in games]


def _entry(game_name: str, file_name: str) -> str:
    return f"{{game_name: {yaml_quoted(game_name)}, file_name: {yaml_quoted(file_name)}}}"


def _render(map_name: str, games: list[tuple[str, str]]) -> bytes:
    lines = [f"map_name: {yaml_quoted(map_name)}", "games:"]
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


def merge_listing(listings: list[bytes | None], map_name: str, games: list[tuple[str, str]],
                  shown: list[str] | None = None, target: str = "map.yml") -> bytes:
    """The first existing listing (the output folder's, else the base's) with every game of the
    later listings and then `games` (game_name, file_name) it does not list appended. shown: where
    each listing is (for errors); a listing that does not parse is an error, never taken for empty
    (its games would be lost). The result is read back and must list exactly the games meant."""
    shown = shown or ["map.yml"] * len(listings)
    read = [listing_games(data, where) for data, where in zip(listings, shown)]
    start_index = next((i for i, data in enumerate(listings) if data and data.strip()), None)
    listed_name, listed = read[start_index] if start_index is not None else (None, [])
    start = listings[start_index] if start_index is not None else None  # never None when found: it has text
    present = {file for _, file in listed}
    wanted = [game for _, entries in read for game in entries] + list(games)
    missing = []
    for name, file in wanted:
        if file not in present:
            present.add(file)
            missing.append((name, file))
    intended = (listed_name or map_name, listed + missing)
    if start is None or listed_name is None:
        result = _render(*intended)
    elif not missing:
        return start
    else:
        text = start.decode("utf-8")
        indent = _list_indent(text)
        if indent is None:  # an unusual layout: written anew, with the same games in the same order
            result = _render(*intended)
        else:
            if not text.endswith("\n"):
                text += "\n"
            result = (text + "".join(f"{indent}- {_entry(name, file)}\n" for name, file in missing)).encode("utf-8")
    _check_reads_back(result, intended, target)
    return result


def _check_reads_back(result: bytes, intended: tuple[str, list[tuple[str, str]]], target: str) -> None:
    """Refuse to write a listing that would not read back as the games it should list (the next
    build would find a broken file, or fewer games)."""
    try:
        found = listing_games(result, target)
    except DiagnosticError as err:
        found, why = None, err.diagnostics[0].message
    else:
        why = "it would list other games than meant"
    if found != intended:
        raise DiagnosticError([Diagnostic(
            "TG027", f"the map.yml to be written does not read back as the games it lists ({why}); nothing written",
            Position(target), "a game or map name holds characters map.yml cannot keep; rename it")])
