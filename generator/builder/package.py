"""`package`: a zip ready to unzip into TripleA's downloadedMaps, and a forum post
(Markdown and BBCode) with the mod's name, version, summary, rules and changes."""
from __future__ import annotations

import io
import re
import stat
import zipfile
import zlib
from collections.abc import Sequence
from pathlib import Path, PurePosixPath

from generator.core.diagnostics import Diagnostic, DiagnosticError, Position, display_path
from generator.core.progress import progress
from generator.core.writer import check_relative, safe_name

_ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # fixed, so the same build gives the same zip


def zip_bytes(files: dict[str, bytes], zip_name: str) -> bytes:
    """A deterministic zip of relative paths, in memory (written like every output, by the safe
    writer); every name is checked so nothing unzips outside the folder."""
    buffer = io.BytesIO()
    # safe-write: into memory
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive, \
            progress(f"packaging {zip_name}", len(files)) as shown:
        for name in sorted(files):
            check_relative(name, Path(zip_name))
            info = zipfile.ZipInfo(name, _ZIP_TIME)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name])
            shown.advance()
    return buffer.getvalue()


# Bounds for unzipping: a real map (tiles included) is a few hundred MiB in a few thousand files,
# and images and XML compress at most some tens to one; a zip bomb is far beyond each.
MAX_UNZIPPED_BYTES = 1024 * 1024 * 1024
MAX_ENTRY_BYTES = 512 * 1024 * 1024
MAX_ENTRIES = 50_000
MAX_RATIO = 200  # uncompressed / compressed, for entries over RATIO_FROM bytes
RATIO_FROM = 1024 * 1024
_CHUNK = 1024 * 1024


def _unsafe_zip(code: str, message: str, archive_path: Path, hint: str) -> DiagnosticError:
    return DiagnosticError([Diagnostic(code, message, Position(display_path(archive_path)), hint)])


def _zip_entry_problem(info: zipfile.ZipInfo, archive_path: Path) -> DiagnosticError | None:
    """Why one entry may not be unzipped, if it may not."""
    name = info.filename
    if name.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", name) or ".." in re.split(r"[/\\]", name):
        return _unsafe_zip("TG070", f"zip entry '{name}' would escape the target folder", archive_path,
                           "this zip is unsafe; do not use it")
    kind = stat.S_IFMT(info.external_attr >> 16) if info.create_system == 3 else 0  # 3: made on Unix
    if kind and kind not in (stat.S_IFREG, stat.S_IFDIR):
        what = "a symbolic link" if kind == stat.S_IFLNK else "not a regular file"
        return _unsafe_zip("TG072", f"zip entry '{name}' is {what}; only files and folders are unzipped",
                           archive_path, "this zip is unsafe; do not use it")
    if info.file_size > MAX_ENTRY_BYTES or (
            info.file_size > RATIO_FROM and info.file_size > MAX_RATIO * max(info.compress_size, 1)):
        return _unsafe_zip("TG073", f"zip entry '{name}' unzips to {info.file_size} bytes from "
                           f"{info.compress_size}; more than allowed", archive_path,
                           f"at most {MAX_ENTRY_BYTES} bytes an entry, compressed at most {MAX_RATIO} to 1: "
                           "is this a zip bomb?")
    return None


def safe_extract(archive_path: Path, destination: Path) -> list[Path]:
    """Unzip all or nothing: every entry checked first (no escaping the destination, no links or
    special files, sizes, entry count and compression ratio bounded against zip bombs), then
    written like every output (staged, swapped in; no link under destination followed)."""
    from generator.core.writer import write_outputs

    archive_path = Path(archive_path)
    try:
        with zipfile.ZipFile(archive_path) as archive:
            infos = archive.infolist()
            if len(infos) > MAX_ENTRIES:
                raise _unsafe_zip("TG073", f"the zip has {len(infos)} entries, more than the {MAX_ENTRIES} allowed",
                                  archive_path, "is this a zip bomb?")
            files, seen = {}, set()
            for info in infos:
                problem = _zip_entry_problem(info, archive_path)
                if problem is not None:
                    raise problem
                if info.is_dir():
                    continue
                if PurePosixPath(info.filename) in seen:
                    raise _unsafe_zip("TG072", f"zip entry '{info.filename}' is in the zip twice", archive_path,
                                      "this zip is damaged or crafted; do not use it")
                seen.add(PurePosixPath(info.filename))
                files[info.filename] = _entry_writer(archive, info, archive_path)
            total = sum(info.file_size for info in infos)
            if total > MAX_UNZIPPED_BYTES:
                raise _unsafe_zip("TG073", f"the zip unzips to {total} bytes, more than the {MAX_UNZIPPED_BYTES} "
                                  "allowed", archive_path, "is this a zip bomb?")
            return write_outputs(destination, files)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, EOFError, zlib.error,
            RuntimeError) as err:  # RuntimeError: an encrypted entry
        raise _unsafe_zip("TG074", f"not a zip file, or a damaged one: {err}", archive_path,
                          "download the file again") from None
    except FileNotFoundError:
        raise _unsafe_zip("TG001", "file not found", archive_path, "check the path") from None


def _entry_writer(archive: zipfile.ZipFile, info: zipfile.ZipInfo, archive_path: Path):
    """Copies one entry to a stream, stopping at its declared size (the header could lie)."""
    def write(stream) -> None:
        left = info.file_size
        with archive.open(info) as entry:
            while chunk := entry.read(min(_CHUNK, left + 1)):
                left -= len(chunk)
                if left < 0:
                    raise _unsafe_zip("TG073", f"zip entry '{info.filename}' is larger than its header says",
                                      archive_path, "this zip is damaged or crafted; do not use it")
                stream.write(chunk)
    return write


def install_steps(game_name: str, map_folder: str, xml_name: str, base: str | None) -> list[str]:
    """How a player installs and starts the game, step by step (the package's README and the forum post)."""
    folder = "TripleA's downloadedMaps folder (usually triplea/downloadedMaps in your home folder)"
    if base:
        return [f"In TripleA, install the map '{map_folder}' if you do not have it yet (Download Maps).",
                f"Unzip this file into {folder}: its folder '{map_folder}' goes over the map's folder of that name. "
                f"It deletes nothing: it adds the game {xml_name} with its notes (and the images of any new players "
                f"and units), and brings the map's map.yml and text files with this game's entries added.",
                f"Start TripleA, choose a local (or network) game, open the game list and pick '{game_name}'."]
    return [f"Unzip this file into {folder}; it creates the folder '{map_folder}'.",
            f"Start TripleA, choose a local (or network) game, open the game list and pick '{game_name}'."]


# A word joiner (U+2060, zero width, no line break) put after every '[' of a spec's text: a BBCode tag
# opens only with '[' directly followed by its name, '/' or '*', so no name or rule text can open or
# close one, and the post still shows the text as written. Chosen over the alternatives because it
# holds for any BBCode parser: `[noparse]` is not a tag every forum plugin knows (unknown, it is shown
# as text), and an entity such as `&#91;` is turned back into '[' by any pass that decodes entities
# before the BBCode one (NodeBB's Markdown parser decodes them), whose order a post cannot choose.
_INERT_BRACKET = "[\u2060"


def bbcode_text(text: str) -> str:
    """A spec's text as BBCode shows it: one line, control characters escaped, no tag possible."""
    from generator.core.diagnostics import escaped

    return escaped(" ".join(text.split())).replace("[", _INERT_BRACKET)


def instructions(game_name: str, map_folder: str, xml_name: str, base: str | None) -> str:
    """The README inside the package: for players, who install and play it (not for its modder)."""
    steps = install_steps(game_name, map_folder, xml_name, base)
    lines = [game_name, "", "To install and play:"] + [f"{n}. {step}" for n, step in enumerate(steps, 1)]
    lines += ["", "The house rules are in the game notes (the Game Notes of the game list, and of the Help menu "
                  "during play); rules the game cannot enforce are marked there, to be kept by the players."]
    if base:
        lines += ["", f"If you added other mods to the map folder '{map_folder}' since you downloaded the map, "
                      "unzipping this file replaces their lines in map.yml and the text files, and their games leave "
                      "the game list: keep a copy of the folder first, or install this mod in a fresh copy of the map."]
    return "\n".join(lines) + "\n"


def forum_post(name: str, version: str | None, summary: str, rules, changes: list[str], *,
               install: Sequence[str] = (), units=()) -> tuple[str, str]:
    """The same post as Markdown and as BBCode (the TripleA forum takes either). install: the steps
    of install_steps; units: unittable.UnitRow for the new and changed unit types."""
    from generator.builder.diff import markdown_text

    # A spec's names and texts are shown, never read as markup; a line break would end a list item.
    def md_text(text: str) -> str:
        return markdown_text(" ".join(text.split()))

    escaped = bbcode_text

    title = f"{name}" + (f" {version}" if version else "")
    labels = {"enforced": "enforced", "partial": "partly enforced", "notes": "notes only"}
    md = [f"# {md_text(title)}", "", md_text(summary), ""]
    bb = [f"[size=150][b]{escaped(title)}[/b][/size]", "", escaped(summary), ""]
    # first-hour-b insertion point: the install steps (they name the game and the map: user text, escaped)
    if install:
        md += ["## Install", ""] + [f"{n}. {md_text(step)}" for n, step in enumerate(install, 1)] + [""]
        bb += ["[b]Install[/b]", "[list=1]"] + [f"[*]{escaped(step)}" for step in install] + ["[/list]", ""]
    if rules:
        md += ["## Rules", ""] + [f"- **{md_text(r.id)}** {md_text(r.text)} _({labels[r.status]})_"
                                  for r in rules] + [""]
        bb += ["[b]Rules[/b]", "[list]"] + [f"[*][b]{escaped(r.id)}[/b] {escaped(r.text)} [i]({labels[r.status]})[/i]"
                                            for r in rules] + ["[/list]", ""]
    # first-hour-b insertion point: the units table (unit names and option values: user text, escaped)
    if units:
        md += ["## New and changed units", "", "| Unit | Status | Cost | Attack | Defense | Movement | Also |",
               "| --- | --- | --- | --- | --- | --- | --- |"]
        md += ["| " + " | ".join(md_text(cell) or "-" for cell in _unit_cells(row)) + " |" for row in units] + [""]
        bb += ["[b]New and changed units[/b]", "[list]"]
        bb += [f"[*][b]{escaped(row.name)}[/b] ({row.status}): " + escaped(", ".join(_unit_summary(row)))
               for row in units] + ["[/list]", ""]
    if changes:
        md += ["## Changes since the previous version", ""] + [f"- {md_text(c)}" for c in changes] + [""]
        bb += ["[b]Changes since the previous version[/b]", "[list]"]
        bb += [f"[*]{escaped(c)}" for c in changes] + ["[/list]", ""]
    return "\n".join(md), "\n".join(bb)


def _unit_cells(row) -> list[str]:
    return [row.name, row.status, row.cost, row.stats["attack"], row.stats["defense"], row.stats["movement"],
            "; ".join(row.changes)]


def _unit_summary(row) -> list[str]:
    shown = [f"cost {row.cost}"] if row.cost else []
    shown += [f"{name} {value}" for name, value in row.stats.items() if value]
    return shown + row.changes


def package_spec(spec: str, outdir: str, previous: str | None = None) -> list[Path]:
    """Build the spec (validated), zip what belongs to it, write the forum post; returns the files written."""
    from generator.builder.collisions import check_not_another_game, portable_name_warnings
    from generator.builder.outputs import check_compiled, notes_and_listing, output_files, print_warnings
    from generator.builder.diff import diff_games, load_game_any
    from generator.write.notes import status_counts
    from generator.builder.compiler import compile_spec
    from generator.builder.unittable import unit_rows
    from generator.core.writer import write_outputs

    compiled = compile_spec(spec)
    check_compiled(compiled, None)
    files = output_files(compiled)
    check_not_another_game(compiled, files, None)  # unzipped over the base map, it would replace one of its games
    files.update(notes_and_listing(compiled, files))
    print_warnings(portable_name_warnings(compiled, files, None))
    game = compiled.game
    loaded = compiled.spec
    xml_path = next(p for p in files if p.endswith(".xml") and "/games/" in p)
    map_folder, xml_name = xml_path.split("/", 1)[0], xml_path.rsplit("/", 1)[1]
    base = loaded.base_path.name if loaded.base_path is not None else None
    game_name = game.info.name or xml_name
    files[f"{map_folder}/{xml_name[:-4]}.README.txt"] = instructions(game_name, map_folder, xml_name,
                                                                       base).encode("utf-8")
    version = game.info.version
    stem = safe_name(f"{Path(xml_name).stem}-{version}" if version else Path(xml_name).stem)
    archive = zip_bytes(files, f"{stem}.zip")
    rules = loaded.rules
    counts = status_counts(rules)
    summary = (f"A mod of {base}" if base else "A TripleA game") + (
        f" with {len(rules)} house rules: {counts['enforced']} enforced by the game, {counts['partial']} partly, "
        f"{counts['notes']} to play by honour." if rules else ".")
    changes = []
    if previous:
        changes = [c.text for c in diff_games(load_game_any(previous), game)]
    units = unit_rows(game, _base_game(loaded.base_path))
    markdown, bbcode = forum_post(game_name, version, summary, rules, changes,
                                  install=install_steps(game_name, map_folder, xml_name, base), units=units)
    return write_outputs(outdir, {f"{stem}.zip": archive, f"{stem}.forum.md": markdown.encode("utf-8"),
                                  f"{stem}.forum.bbcode": bbcode.encode("utf-8")})


def _base_game(base_path: Path | None):
    """The game a mod changes, to tell its new and changed units; none for a full game."""
    if base_path is None:
        return None
    from generator.builder.diff import load_game_any
    from generator.builder.pipeline import load_base_game

    return load_base_game(base_path) if base_path.suffix == ".xml" else load_game_any(base_path)
