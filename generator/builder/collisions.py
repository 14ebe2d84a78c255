"""Before a build writes: the game file it would write must not be another game's, and the names
it writes should work on every system the map folder may be shared to.

- TG035 (error): the output folder (or the base map folder of a mod) already has a game of that file
  name, or of one equal but for case, that is another game: two specs whose file names clean up to
  the same game file (`my mod.yaml`, `my_mod.yaml`) built into one folder would replace each other's
  game and leave map.yml naming the wrong one. Told apart by the game's name, which the game XML
  (`<info name>`) and its map.yml entry both record.
- TG034 (warning): files and folders named after players, unit types or the spec that Windows
  reserves (`CON`, `aux`) or that differ only in case from another (`Germans`, `germans`); the
  engine accepts such names, so the build goes on and says which files will not survive a copy
  to Windows or macOS."""
from __future__ import annotations

import os
import stat
from pathlib import Path

from generator.core.diagnostics import Diagnostic, DiagnosticError, Position, display_path
from generator.write.modfolder.listing import listed_games
from generator.write.portable import clashes, folded

_HEAD_BYTES = 1024 * 1024  # <info> comes right after <game>; no need to read a whole game for it


def _spec_position(compiled) -> Position:
    pos = compiled.game.info.pos
    return pos if pos is not None and pos.file == compiled.spec_path else Position(compiled.spec_path, 1, 1)


# --- another game's file -------------------------------------------------------------------------------------

def game_name_in(path: Path) -> tuple[bool, str | None]:
    """(whether the file is a game XML whose name could be read, its <info name>); never through
    a link, never anything but a regular file, at most its first MiB, all of which must parse."""
    head = _read_plain(path, _HEAD_BYTES)
    if head is None:
        return False, None
    kept = _written.get(str(path))
    if kept is not None and kept[0] == head:  # the game this process wrote there, byte for byte
        return kept[1]
    return _answer_for(head)


KEPT_WRITTEN = 4
_written: dict[str, tuple[bytes, tuple[bool, str | None]]] = {}  # path -> (the bytes written, their answer)


def remember_written_game(outdir: str, xml_path: str, xml_bytes: bytes, tree) -> None:
    """A warm process's rebuild asks game_name_in of its own previous output: the answer for the
    bytes it wrote is read from the tree parsed from them (the whole game, so well-formed), kept
    for when the file still begins with exactly the bytes game_name_in reads."""
    root = tree.getroot()
    first = next((child for child in root if isinstance(child.tag, str)), None)
    if root.tag != "game" or first is None or first.tag != "info":
        return  # only the plain case; anything else is read as any file is
    path = str(Path(outdir).joinpath(*xml_path.split("/")))
    _written.pop(path, None)
    # game_name_in reads the first _HEAD_BYTES: a beginning of a well-formed game is well-formed so far
    _written[path] = (xml_bytes[:_HEAD_BYTES], (True, first.get("name")))
    while len(_written) > KEPT_WRITTEN:
        _written.pop(next(iter(_written)))


def _answer_for(head: bytes) -> tuple[bool, str | None]:
    # Every rebuild asks this of its own previous output: the first 64 KiB settle it, and the rest
    # is only checked to be well-formed, by a parser that reports no elements (half the time).
    found = _info_name(head[:_FIRST_BYTES]) if len(head) > _FIRST_BYTES else None
    if found is None:
        found = _info_name(head)
        return (False, None) if found is None else found
    if found[0] and not _well_formed_so_far(head):
        return False, None
    return found


_FIRST_BYTES = 64 * 1024


def _parser_options() -> dict:
    return {"resolve_entities": False, "no_network": True, "load_dtd": False, "huge_tree": False}


class _FirstTags:
    """A parser target keeping the first two start tags (name, attributes): no element objects
    are made, and nothing refers back to the parser (an event parser's elements and events form
    cycles, left for the cyclic collector)."""

    def __init__(self):
        self.tags: list[tuple[str, dict]] = []

    def start(self, tag, attrib):
        if len(self.tags) < 2:
            self.tags.append((tag, dict(attrib)))

    def close(self):
        return None


def _info_name(head: bytes) -> tuple[bool, str | None] | None:
    """game_name_in's answer for these bytes fed to a parser at once; None (undecided) when they
    end before the root's first child."""
    from lxml import etree

    first = _FirstTags()
    try:
        etree.XMLParser(target=first, **_parser_options()).feed(head)
    except etree.XMLSyntaxError:
        return False, None
    for tag, attributes in first.tags:
        if tag == "info":
            return True, attributes.get("name")
        if tag not in ("game",):
            return False, None
    return None


def _well_formed_so_far(head: bytes) -> bool:
    """Whether feeding head raises no syntax error (an end not yet seen is no error)."""
    from lxml import etree

    try:
        etree.XMLParser(**_parser_options()).feed(head)
    except etree.XMLSyntaxError:
        return False
    return True


def check_not_another_game(compiled, files: dict[str, bytes], outdir: str | None) -> None:
    """Refuse (TG035) to write the game file, or its map.yml entry, over another game's: in the
    output folder, and for a mod in the base map folder (which a package is unzipped over)."""
    from generator.write.modfolder.basefolder import BaseFolder

    xml_path = next(path for path in files if path.endswith(".xml") and "/games/" in path)
    root, xml_name = xml_path.split("/", 1)[0], xml_path.rsplit("/", 1)[1]
    name = compiled.game.info.name
    problems = []
    if outdir is not None:
        out = Path(outdir)
        problems += _problems(out.joinpath(*xml_path.split("/")[:-1]), out / root / "map.yml", xml_name, name, "")
    base = BaseFolder.of_game(compiled.spec.base_path)
    if base is not None:
        problems += _problems(base.content / "games", base.root / "map.yml", xml_name, name, "the base map's ")
    if problems:
        what, where = problems[0]
        raise DiagnosticError([Diagnostic(
            "TG035", f"the game file {xml_name} would replace {what} ({display_path(where)})",
            _spec_position(compiled),
            "two specs whose file names differ only in spaces, punctuation or case make the same game file; "
            "rename this spec (its file name names the game file). If it is this spec's own earlier build "
            "under another game name, delete that game file and its map.yml entry first")])


def _problems(games: Path, listing: Path, xml_name: str, name: str | None, whose: str) -> list[tuple[str, Path]]:
    """What in a map folder (its games/ folder and map.yml) the game file would replace: a game of
    another name under the same file name, or any game under a name equal but for case."""
    problems = []
    try:
        present = sorted(os.listdir(games)) if stat.S_ISDIR(os.lstat(games).st_mode) else []
    except OSError:
        present = []
    for other in present:
        if other == xml_name:
            readable, existing = game_name_in(games / other)
            if readable and existing != name:
                problems.append((f"{whose or 'the '}game '{existing}'", games / other))
        elif folded(other) == folded(xml_name):
            problems.append((f"{whose}{other}, the same file on Windows and macOS", games / other))
    for file_name, game_name in listed_games(_read_plain(listing)):
        if file_name == xml_name and name is not None and game_name != name:
            problems.append((f"{whose or 'the '}game '{game_name}' map.yml lists under that file name", listing))
        elif file_name != xml_name and folded(file_name) == folded(xml_name):
            problems.append((f"{whose}{file_name} that map.yml lists, the same file on Windows and macOS",
                             listing))
    return problems


def _read_plain(path: Path, limit: int = 16 * 1024 * 1024) -> bytes | None:
    """The start of a regular file; None for anything else (a link, a folder, a fifo: never waited on)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        chunks, left = [], limit
        while left > 0 and (chunk := os.read(fd, min(left, 1024 * 1024))):
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


# --- names other systems refuse or merge ---------------------------------------------------------------------

def portable_name_warnings(compiled, files: dict[str, bytes], outdir: str | None) -> list[Diagnostic]:
    """TG034 for the files and folders the build writes that Windows reserves or that are one file
    with another on Windows and macOS: one warning per player, unit type or spec they are named
    after, and kind of clash, located there."""
    names = _named_things(compiled)
    grouped: dict[tuple[str, bool], list] = {}
    for clash in clashes(list(files), Path(outdir) if outdir is not None else None):
        what, pos = _blame(clash.path, names, compiled)
        grouped.setdefault((what, clash.other is None), [pos]).append(clash)
    warnings = []
    for (what, reserved), (pos, first, *more) in grouped.items():
        also = f" (and {len(more)} more)" if more else ""
        if reserved:
            message = f"{what} names {first.path}{also}, which Windows reserves for a device"
            hint = "Windows cannot hold such a file, so the map will not work there; rename it"
        else:
            where = "written by this build too" if first.written else "already in the output folder"
            message = (f"{what} names {first.path}{also}, one file with {first.other} ({where}) on Windows "
                       "and macOS, where one replaces the other")
            hint = "names that differ only in case cannot share a map folder on Windows and macOS; rename one"
        warnings.append(Diagnostic("TG034", message, pos, hint, "warning"))
    return warnings


def _named_things(compiled) -> dict[str, tuple[str, Position | None]]:
    game = compiled.game
    things: dict[str, tuple[str, Position | None]] = {}
    for unit in game.units or []:
        things.setdefault(unit.name, (f"unit type '{unit.name}'", unit.pos))
    for player in game.players:
        things[player.name] = (f"player '{player.name}'", player.pos)
    return things


def _blame(path: str, names: dict, compiled) -> tuple[str, Position]:
    """The player or unit type a clashing path is named after (its longest name that starts the
    path's last part), else the spec (game files, map folder)."""
    last = path.rsplit("/", 1)[-1]
    stem = last.rsplit(".", 1)[0] if "." in last else last
    while stem:
        if stem in names:
            what, pos = names[stem]
            return what, pos or _spec_position(compiled)
        if "_" not in stem:
            break
        stem = stem.rsplit("_", 1)[0]  # flags/<Player>_small.png, units/<P>/<unit>_hit.png
    return f"the spec {display_path(compiled.spec_path)}", _spec_position(compiled)
