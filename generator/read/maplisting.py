"""map.yml as the current engine reads it: `map_name:` and a `games:` list of {game_name, file_name}.
The file comes from a map folder (a zip may have planted it), so it is read as untrusted YAML:
bounded, no anchors or aliases (TG026). A listing that does not read as one is a located error
(TG027): the build that would merge into it must not take it for empty and drop its games."""
from __future__ import annotations

from generator.core.diagnostics import Diagnostic, DiagnosticError, Position

# Refusals that are about the file as a whole (kept as they are); any other is "does not parse".
_KEPT_CODES = {"TG003", "TG004", "TG005", "TG026"}


def _not_a_listing(message: str, position: Position) -> DiagnosticError:
    return DiagnosticError([Diagnostic(
        "TG027", message, position,
        "fix or remove this map.yml by hand (it is left as it is: the games it lists would be lost); "
        "it holds 'map_name: NAME' and 'games:' with '- {game_name: NAME, file_name: FILE.xml}' items")])


def listing_games(data: bytes | None, shown: str) -> tuple[str | None, list[tuple[str, str]]]:
    """(map_name, [(game_name, file_name)]) of a listing; (None, []) for none or an empty file."""
    if not data or not data.strip():
        return None, []
    # Only a folder that has a listing loads the YAML reader: `validate` of a game XML alone needs none.
    from generator.read.yamlio import LocatedDict, load_untrusted_yaml

    try:
        parsed = load_untrusted_yaml(data, shown)
    except DiagnosticError as err:
        if any(d.code in _KEPT_CODES for d in err.diagnostics):
            raise
        first = err.diagnostics[0]
        raise _not_a_listing(f"map.yml does not parse: {first.message}", first.position) from None
    if not isinstance(parsed, LocatedDict):  # every mapping the loader makes is one
        return None, []  # a text or list lists no game: nothing in it can be lost by writing it anew
    games = parsed.get("games")
    if games is not None and not isinstance(games, list):
        raise _not_a_listing("map.yml's games is not a list", parsed.position_of("games"))
    entries = []
    for game in games or []:
        # An entry without a file name lists nothing the engine can load; kept in the file, not read.
        if isinstance(game, dict) and game.get("file_name") not in (None, ""):
            file_name = _text(game["file_name"])
            name = game.get("game_name")
            entries.append((_text(name) if name not in (None, "") else file_name, file_name))
    name = parsed.get("map_name")
    return (_text(name) if name is not None else None), entries


def _text(value) -> str:
    """A scalar as the engine's YAML reader gives it to a String; mappings and lists are not names."""
    if isinstance(value, (dict, list)):
        raise _not_a_listing("a map.yml name or file name that is a mapping or list",
                             getattr(value, "pos", Position("map.yml")))
    return str(value)
