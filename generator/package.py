"""`package`: a zip ready to unzip into TripleA's downloadedMaps, and a forum post
(Markdown and BBCode) with the mod's name, version, summary, rules and changes."""
from __future__ import annotations

import re
import tempfile
import zipfile
from pathlib import Path

from .diagnostics import Diagnostic, DiagnosticError, Position
from .progress import progress
from .writer import check_relative, safe_name

_ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # fixed, so the same build gives the same zip


def zip_folder(files: dict[str, bytes], target: Path) -> Path:
    """A deterministic zip of relative paths; every name is checked so nothing unzips outside the folder."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive, \
            progress(f"packaging {target.name}", len(files)) as shown:
        for name in sorted(files):
            check_relative(name, target)
            info = zipfile.ZipInfo(name, _ZIP_TIME)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name])
            shown.advance()
    return target


def safe_extract(archive_path: Path, destination: Path) -> list[Path]:
    """Unzip, refusing any entry that would land outside destination (absolute, '..', drive letters)."""
    written = []
    with zipfile.ZipFile(archive_path) as archive:
        for info in archive.infolist():
            name = info.filename
            if name.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", name) or ".." in re.split(r"[/\\]", name):
                raise DiagnosticError([Diagnostic("TG070", f"zip entry '{name}' would escape the target folder",
                                                  Position(str(archive_path)), "this zip is unsafe; do not use it")])
            target = destination.joinpath(*name.split("/"))
            if info.is_dir():
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(archive.read(info))
            written.append(target)
    return written


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


def forum_post(name: str, version: str | None, summary: str, rules, changes: list[str]) -> tuple[str, str]:
    """The same post as Markdown and as BBCode (the TripleA forum takes either)."""
    title = f"{name}" + (f" {version}" if version else "")
    labels = {"enforced": "enforced", "partial": "partly enforced", "notes": "notes only"}
    md = [f"# {title}", "", summary, ""]
    bb = [f"[size=150][b]{title}[/b][/size]", "", summary, ""]
    if rules:
        md += ["## Rules", ""] + [f"- **{r.id}** {r.text} _({labels[r.status]})_" for r in rules] + [""]
        bb += ["[b]Rules[/b]", "[list]"] + [f"[*][b]{r.id}[/b] {r.text} [i]({labels[r.status]})[/i]"
                                            for r in rules] + ["[/list]", ""]
    if changes:
        md += ["## Changes since the previous version", ""] + [f"- {c}" for c in changes] + [""]
        bb += ["[b]Changes since the previous version[/b]", "[list]"] + [f"[*]{c}" for c in changes] + ["[/list]", ""]
    return "\n".join(md), "\n".join(bb)


def package_spec(spec: str, outdir: str, previous: str | None = None) -> list[Path]:
    """Build the spec (validated), zip what belongs to it, write the forum post; returns the files written."""
    from .commands import check_compiled, notes_and_listing, output_files
    from .diff import diff_games, load_game_any
    from .notes import status_counts
    from .pipeline import compile_spec
    from .writer import write_outputs

    compiled = compile_spec(spec)
    check_compiled(compiled, None)
    files = output_files(compiled)
    files.update(notes_and_listing(compiled, files))
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
    with tempfile.TemporaryDirectory() as temp:
        archive = zip_folder(files, Path(temp) / f"{stem}.zip").read_bytes()
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
