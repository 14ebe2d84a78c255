"""Everything the desktop clients read for a game besides its XML, merged into the map folder:

    <map>/map.yml                     the game listed beside every game already there
    <map>/[map/]map.properties        color.<Player> for each new player
    <map>/[map/]flags/, units/        flags and unit images for new players and unit types
    <map>/[map/]resources/            icons of the resources the game adds (generated maps too)
    <map>/[map/]*text.properties ...  notifications, political and user action texts, objectives
    <map>/.triplea-gen-drawn.sha256   (a build's output folder only) the images this tool drew there

Merging: what is in the output folder (else the base map folder) keeps every byte; entries it
lacks are appended in a block named after the game file, which a rebuild of the same game
replaces; nothing is ever removed. An image an earlier build drew is drawn again (its recipe may
have changed: a unit's values choose what it looks like) while its bytes are the ones recorded in
.triplea-gen-drawn.sha256; one changed or put there by hand is kept. So a rebuild into the same
folder writes what a build into a new folder writes. The result is complete file bytes for the writer.
"""
from __future__ import annotations

from pathlib import Path

from generator.core.diagnostics import Diagnostic, DiagnosticError, display_path
from generator.model.looks import AssetSpec
from generator.write.modfolder.basefolder import BaseFolder
from generator.write.modfolder.drawnrecord import DRAWN_RECORD, parse_record, record_bytes
from generator.write.modfolder.listing import merge_listing
from generator.write.modfolder.resources import resource_icon_files
from generator.read.mapfiles import read_map_file
from generator.read.propfile import merge_properties, properties_before
from generator.write.modfolder.texts import TEXT_FILES, text_entries


class _OutputFolder:
    """Reads what an earlier build left in the output folder (nothing when there is none), through
    the map folder reader: no link followed, regular files only, bounded."""

    def __init__(self, outdir: Path | None):
        self.outdir = outdir

    def read(self, relpath: str, kind: str | None = None) -> bytes | None:
        if self.outdir is None:
            return None
        try:
            return read_map_file(self.outdir, relpath, kind)
        except DiagnosticError as err:
            if any(d.code != "TG003" for d in err.diagnostics):
                raise
            return None  # a link: never read; the writer refuses it (TG043) before anything is written

    def shown(self, relpath: str) -> str:
        return display_path(self.outdir.joinpath(*relpath.split("/"))) if self.outdir is not None else relpath


def map_folder_additions(compiled, files: dict[str, bytes], outdir: str | Path | None) -> tuple[
        dict[str, bytes], list[Diagnostic]]:
    """The files to add to (or merge into) the game's map folder besides `files` (the built game:
    <map>/.../games/<game>.xml, and for a generated map its whole folder); outdir is the build's
    output folder (None: merge with the base map folder only, as for a package)."""
    xml_path = next(path for path in files if path.endswith(".xml") and "/games/" in path)
    content = xml_path.rsplit("/games/", 1)[0] + "/"
    root = xml_path.split("/", 1)[0] + "/"
    xml_name = xml_path.rsplit("/", 1)[1]
    output = _OutputFolder(Path(outdir) if outdir is not None else None)
    base = BaseFolder.of_game(compiled.spec.base_path)
    look: AssetSpec = compiled.spec.assets
    game = compiled.game
    generated = content + "map.properties" in files  # a drawn map: its folder is made whole, not merged
    additions: dict[str, bytes] = {}
    warnings: list[Diagnostic] = []

    def start(relpath: str) -> bytes | None:
        """What a merged file starts from: the output folder's, else the base map's."""
        found = output.read(content + relpath)
        if found is None and base is not None:
            found = base.read(relpath)
        return found

    if base is not None and not generated:
        # Pillow and the map drawing: loaded only for a mod's images
        from generator.write.modfolder.assets import asset_files

        properties = start("map.properties")
        owned = set(compiled.map_needs.units)  # what validate --map-dir asks images for
        inside = content[len(root):]  # the content folder below the map folder: "map/" or ""
        earlier_record = output.read(root + DRAWN_RECORD, "properties")
        recorded = parse_record(earlier_record)
        drawn_before = {path[len(inside):]: digest for path, digest in recorded.items() if path.startswith(inside)}
        assets = asset_files(game, owned, look, base, lambda rel: output.read(content + rel),
                             properties_before(properties, xml_name), compiled.spec_path, drawn_before)
        additions.update({content + rel: data for rel, data in assets.files.items()})
        if outdir is not None:
            record = record_bytes(recorded, {inside + rel: data for rel, data in assets.files.items()})
            if record is not None and record != earlier_record:
                additions[root + DRAWN_RECORD] = record
        warnings += assets.warnings
        merged = merge_properties(properties, assets.colours, xml_name)
        if merged is not None:
            additions[content + "map.properties"] = merged
    def present(relpath: str) -> bool:
        """Whether the map folder has the file: being written, in the output folder, in the base map."""
        return (content + relpath in files or output.read(content + relpath) is not None
                or (base is not None and not generated and base.exists(relpath)))

    additions.update({content + rel: data for rel, data in resource_icon_files(compiled.tree.getroot(),
                                                                                present).items()})
    base_objectives = base.read(TEXT_FILES["objectives"]) if base is not None else None
    for file_name, entries in text_entries(game, compiled.spec.rules, look, base_objectives).items():
        # A drawn map's folder is made whole, but its text files hold every game's entries: another game
        # built into the same map folder keeps its own (only this game's block is replaced).
        earlier = output.read(content + file_name) if generated else start(file_name)
        merged = merge_properties(earlier, entries, xml_name)
        if merged is not None:
            additions[content + file_name] = merged
    existing = output.read(root + "map.yml")
    listing = merge_listing([existing, files.get(root + "map.yml"), base.listing() if base is not None else None],
                            root.rstrip("/"), [(game.info.name or xml_name, xml_name)],
                            shown=[output.shown(root + "map.yml"), f"{root}map.yml (generated)",
                                   base.shown_listing() if base is not None else ""],
                            target=output.shown(root + "map.yml"))
    if listing != existing:
        additions[root + "map.yml"] = listing
    return additions, warnings
