"""`package`: a zip ready to unzip into TripleA's downloadedMaps, and a forum post
(Markdown and BBCode) with the mod's name, version, summary, rules and changes."""
from __future__ import annotations

import io
import re
import stat
import zipfile
import zlib
from pathlib import Path, PurePosixPath

from generator.core.diagnostics import Diagnostic, DiagnosticError, Position, display_path
from generator.core.progress import progress
from generator.write.writer import check_relative, safe_name

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
    from generator.write.writer import write_outputs

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


def instructions(game_name: str, map_folder: str, xml_name: str, base: str | None) -> str:
    if base:
        where = (f"This is a mod of {base}. Install the map '{map_folder}' in TripleA first (Download Maps), then "
                 f"unzip this file into TripleA's downloadedMaps folder (on most systems ~/triplea/downloadedMaps), "
                 f"over the map's folder '{map_folder}'. It deletes nothing: it adds games/{xml_name}, its notes and "
                 f"the images of the mod's new players and units, and brings map.yml, map.properties and the text "
                 f"files (notifications, politics, actions, objectives) with every entry the map's own files have "
                 f"plus this game's.\n"
                 f"If other mods were added to this map folder since it was downloaded, unzipping would replace "
                 f"their entries in those merged files; build this mod into the map folder instead "
                 f"(triplea-gen build SPEC -o ~/triplea/downloadedMaps), which merges with what is there.")
    else:
        where = ("Unzip this file into TripleA's downloadedMaps folder (on most systems ~/triplea/downloadedMaps); "
                 f"it creates the folder '{map_folder}'.")
    return f"{game_name}\n\n{where}\nThen start TripleA and choose '{game_name}' in the game list.\n"


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


def forum_post(name: str, version: str | None, summary: str, rules, changes: list[str]) -> tuple[str, str]:
    """The same post as Markdown and as BBCode (the TripleA forum takes either)."""
    from generator.build.diff import markdown_text

    # A spec's names and texts are shown, never read as markup; a line break would end a list item.
    def md_text(text: str) -> str:
        return markdown_text(" ".join(text.split()))

    escaped = bbcode_text

    title = f"{name}" + (f" {version}" if version else "")
    labels = {"enforced": "enforced", "partial": "partly enforced", "notes": "notes only"}
    md = [f"# {md_text(title)}", "", md_text(summary), ""]
    bb = [f"[size=150][b]{escaped(title)}[/b][/size]", "", escaped(summary), ""]
    if rules:
        md += ["## Rules", ""] + [f"- **{md_text(r.id)}** {md_text(r.text)} _({labels[r.status]})_"
                                  for r in rules] + [""]
        bb += ["[b]Rules[/b]", "[list]"] + [f"[*][b]{escaped(r.id)}[/b] {escaped(r.text)} [i]({labels[r.status]})[/i]"
                                            for r in rules] + ["[/list]", ""]
    if changes:
        md += ["## Changes since the previous version", ""] + [f"- {md_text(c)}" for c in changes] + [""]
        bb += ["[b]Changes since the previous version[/b]", "[list]"] + [f"[*]{escaped(c)}" for c in changes] + ["[/list]", ""]
    return "\n".join(md), "\n".join(bb)


def package_spec(spec: str, outdir: str, previous: str | None = None) -> list[Path]:
    """Build the spec (validated), zip what belongs to it, write the forum post; returns the files written."""
    from generator.build.collisions import check_not_another_game, portable_name_warnings
    from generator.build.outputs import check_compiled, notes_and_listing, output_files, print_warnings
    from generator.build.diff import diff_games, load_game_any
    from generator.write.notes import status_counts
    from generator.build.pipeline import compile_spec
    from generator.write.writer import write_outputs

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
    markdown, bbcode = forum_post(game_name, version, summary, rules, changes)
    return write_outputs(outdir, {f"{stem}.zip": archive, f"{stem}.forum.md": markdown.encode("utf-8"),
                                  f"{stem}.forum.bbcode": bbcode.encode("utf-8")})
