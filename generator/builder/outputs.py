"""What a build writes and checks: the game XML's place in a map folder, the notes and map
folder additions beside it, the validator on the result, and the all-or-nothing write."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.diagnostics import EXIT_ERRORS, Diagnostic, DiagnosticError, Position, display_path
from generator.mapgen.shapes import geometry_of
from generator.mapgen.values import MAP_OUTPUT
from generator.core.writer import safe_name, write_outputs

if TYPE_CHECKING:  # `import` needs none of the build pipeline: the command line stays quick to start
    from generator.builder.pipeline import CompiledGame


def print_warnings(diagnostics: list[Diagnostic]) -> None:
    for diagnostic in sorted(diagnostics, key=Diagnostic.sort_key):
        print(diagnostic.format(), file=sys.stderr)


def _print_spec_warnings(compiled: CompiledGame, diagnostics: list[Diagnostic], engine: str | None) -> None:
    """A mod's own warnings in full; the base game's own (the modder did not write them) in one line."""
    from generator.builder.basefindings import base_note, split_base_findings

    own, inherited = split_base_findings(compiled, diagnostics, engine or compiled.spec.engine)
    print_warnings(own)
    if inherited:
        print(base_note(compiled, inherited), file=sys.stderr)


def output_files(compiled: CompiledGame) -> dict[str, bytes]:
    """Where a built game goes inside OUTDIR: <map>/map/games/<game>.xml, the layout of a map folder."""
    game = compiled.game
    map_name = safe_name(game.property_value("mapName") or game.info.name or "", "map").lower()
    game_name = safe_name(Path(compiled.spec_path).stem)
    geometry = geometry_of(game)
    if geometry is not None:
        from generator.write.mapfolder import map_folder_files  # drawing needs Pillow and shapely; only maps pay for them

        return map_folder_files(game, geometry, map_name, f"{game_name}.xml", compiled.xml_bytes)
    return {f"{map_name}/map/games/{game_name}.xml": compiled.xml_bytes}


def notes_and_listing(compiled: CompiledGame, files: dict[str, bytes], outdir: str | None = None) -> dict[str, bytes]:
    """The game notes file next to the XML, and what else the clients read for the game, merged
    into the map folder (generator.write.modfolder): map.yml listing it beside every game already
    there, and for a mod the colours, flags, unit images and texts its new content needs;
    outdir is where an earlier build's files are merged with (None: the base map folder only)."""
    from generator.write.modfolder import map_folder_additions

    xml_path = next(path for path in files if path.endswith(".xml") and "/games/" in path)
    extra = {}
    notes = compiled.game.property_value("notes")
    if compiled.spec.rules and notes is not None:  # (rules always write the notes: pipeline.add_rules_to_notes)
        extra[xml_path[:-len(".xml")] + ".notes.html"] = notes.encode("utf-8")
    from generator.render.sections import is_warm

    if is_warm():  # reused while the game and every folder read are as they were
        from generator.builder.warmfolder import reused

        inputs = (xml_path, tuple((path, data) for path, data in files.items() if path != xml_path))
        additions, warnings = reused("additions", compiled, outdir, inputs,
                                     lambda: map_folder_additions(compiled, files, outdir),
                                     lambda found: (dict(found[0]), list(found[1])))
    else:
        additions, warnings = map_folder_additions(compiled, files, outdir)
    print_warnings(warnings)
    extra.update(additions)
    return extra


def check_compiled(compiled: CompiledGame, engine: str | None) -> list[Diagnostic]:
    """The validator on what was built, positions mapped back to the YAML; raises on errors."""
    from generator.check.validate import validate_tree
    from generator.render.sections import is_warm

    target = engine or compiled.spec.engine
    if is_warm():  # a warm process: the same game is not validated again
        from generator.builder.incremental import validated

        findings = validated(compiled, target)
    else:
        findings = validate_tree(compiled.tree, engine=target, source=compiled.spec_path,
                                 position_of=compiled.position_of)
    diagnostics = sorted(compiled.warnings + findings, key=Diagnostic.sort_key)
    if any(d.severity == "error" for d in diagnostics):
        raise DiagnosticError(diagnostics, EXIT_ERRORS)
    return diagnostics


def check_built_map_folder(compiled: CompiledGame, files: dict[str, bytes], outdir: str, engine: str | None,
                           diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """What the desktop client will miss in the map folder the build writes into (raises on errors)."""
    from generator.check.mapfolder import build_map_folder, check_map_folder

    target = engine or compiled.spec.engine
    installed = None if compiled.spec.base_path else installed_map_content(compiled)
    folder = build_map_folder(files, outdir, compiled.spec.base_path or installed, target)
    if folder is None:
        # Inside TripleA's maps folder the client lists the game and fails when it is opened: refused.
        # Elsewhere (a scratch output folder, the XML to be copied into an installed map by hand) the
        # same words as a warning, so that nobody copies the folder there as it is.
        refused = _is_maps_folder(Path(outdir), Path(compiled.spec_path).parent)
        problem = _no_map_to_open(compiled, files, "error" if refused else "warning")
        if not refused:
            return sorted(diagnostics + [problem], key=Diagnostic.sort_key)
        raise DiagnosticError(sorted(diagnostics + [problem], key=Diagnostic.sort_key), EXIT_ERRORS)
    def check() -> list[Diagnostic]:
        return check_map_folder(compiled.tree.getroot(), folder, engine=target, position_of=compiled.position_of,
                                game_file=compiled.game_file, needs=compiled.map_needs)

    from generator.render.sections import is_warm

    if is_warm():  # reused while the game and every folder read are as they were
        from generator.builder.warmfolder import reused

        xml_path = next(path for path in files if path.endswith(".xml") and "/games/" in path)
        inputs = (target, tuple(map(str, folder.roots)), str(folder.engine_assets), folder.pending_listing,
                  xml_path, tuple((path, data) for path, data in folder.pending.items()
                                  if not xml_path.endswith("/" + path)))
        found = reused("check", compiled, outdir, inputs, check, lambda kept: list(kept))
    else:
        found = check()
    diagnostics = sorted(diagnostics + found, key=Diagnostic.sort_key)
    if any(d.severity == "error" for d in found):
        raise DiagnosticError(diagnostics, EXIT_ERRORS)
    return diagnostics


def installed_map_content(compiled: CompiledGame) -> Path | None:
    """For a game without a map of its own: a game XML path inside the installed map folder its
    mapName names (TRIPLEA_MAPS, downloadedMaps, beside the spec), whose files the client will use."""
    from generator.speclang.basegame import installed_map_folder

    folder = installed_map_folder(compiled.game.property_value("mapName"), Path(compiled.spec_path).parent)
    return folder / "games" / compiled.game_file if folder is not None else None


def _is_maps_folder(outdir: Path, spec_dir: Path) -> bool:
    """A folder the desktop client reads maps from: TripleA's downloadedMaps, or one on TRIPLEA_MAPS."""
    from generator.speclang.basegame import map_search_path

    try:
        where = outdir.resolve()
        return outdir.name == "downloadedMaps" or any(where == folder.resolve() for folder in
                                                      map_search_path(spec_dir)[:-1])  # not the spec's own folder
    except OSError:
        return False


def _no_map_to_open(compiled: CompiledGame, files: dict[str, bytes], severity: str) -> Diagnostic:
    from generator.speclang.basegame import map_search_path

    map_folder = next(path for path in files if path.endswith(".xml") and "/games/" in path).split("/", 1)[0]
    map_name = compiled.game.property_value("mapName")
    prop = compiled.game.find_property("mapName")
    where = getattr(prop, "pos", None) or compiled.game.pos or Position(compiled.spec_path)
    looked = ", ".join(display_path(folder) for folder in map_search_path(Path(compiled.spec_path).parent))
    return Diagnostic(
        MAP_OUTPUT, f"the output folder's {map_folder}/ is a map folder the desktop "
        f"client cannot open: the game draws no map (`map:` has no hexes, squares, sites or polygons) and no "
        f"installed map '{map_name or map_folder}' was found to go with it (looked in {looked})", where,
        "draw the board in `map:` (README \"Drawing a map\"; `triplea-gen new NAME` starts with one), or set "
        "TRIPLEA_MAPS to the folder holding that map, or build into it (-o ~/triplea/downloadedMaps)", severity)


def build_spec(spec: str, outdir: str, engine: str | None = None,
               skip_validation: bool = False, only_changed: bool = False) -> tuple[CompiledGame, list[Path]]:
    """Compile, validate (warnings printed), write all or nothing; raises on errors. `only_changed`
    (watch): a file whose bytes are already there is not written again, nor returned."""
    from generator.builder.collisions import check_not_another_game, portable_name_warnings
    from generator.builder.compiler import compile_spec

    compiled = compile_spec(spec)
    diagnostics = compiled.warnings if skip_validation else check_compiled(compiled, engine)
    files = output_files(compiled)
    check_not_another_game(compiled, files, outdir)
    files.update(notes_and_listing(compiled, files, outdir))
    if not skip_validation:
        diagnostics = check_built_map_folder(compiled, files, outdir, engine, diagnostics)
    diagnostics = diagnostics + portable_name_warnings(compiled, files, outdir)
    _print_spec_warnings(compiled, diagnostics, engine)
    xml_path = next(path for path in files if path.endswith(".xml") and "/games/" in path)
    same_xml = files[xml_path] == compiled.xml_bytes
    if only_changed:
        files = changed_files(outdir, files)
        if not files:
            return compiled, []
    written = write_outputs(outdir, files)
    from generator.render.sections import is_warm

    if is_warm() and same_xml:  # the next rebuild asks what game this file holds (collisions.game_name_in)
        from generator.builder.collisions import remember_written_game

        remember_written_game(outdir, xml_path, compiled.xml_bytes, compiled.tree)
    return compiled, written


def changed_files(outdir: str, files: dict) -> dict:
    """The files whose bytes differ from what outdir holds (one written by a function always counts)."""
    from generator.core.writer import read_output

    return {rel: content for rel, content in files.items()
            if not isinstance(content, bytes) or read_output(outdir, rel, len(content) + 1) != content}
