"""What a build writes and checks: the game XML's place in a map folder, the notes and map
folder additions beside it, the validator on the result, and the all-or-nothing write."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.diagnostics import EXIT_ERRORS, Diagnostic, DiagnosticError, display_path
from generator.write.writer import safe_name, write_outputs

if TYPE_CHECKING:  # `import` needs none of the build pipeline: the command line stays quick to start
    from generator.build.pipeline import CompiledGame


def print_warnings(diagnostics: list[Diagnostic]) -> None:
    for diagnostic in sorted(diagnostics, key=Diagnostic.sort_key):
        print(diagnostic.format(), file=sys.stderr)


def _print_spec_warnings(compiled: CompiledGame, diagnostics: list[Diagnostic], engine: str | None) -> None:
    """A mod's own warnings in full; the base game's own (the modder did not write them) in one line."""
    from generator.build.basefindings import base_note, split_base_findings

    own, inherited = split_base_findings(compiled, diagnostics, engine or compiled.spec.engine)
    print_warnings(own)
    if inherited:
        print(base_note(compiled, inherited), file=sys.stderr)


def output_files(compiled: CompiledGame) -> dict[str, bytes]:
    """Where a built game goes inside OUTDIR: <map>/map/games/<game>.xml, the layout of a map folder."""
    game = compiled.game
    map_name = safe_name(game.property_value("mapName") or game.info.name or "", "map").lower()
    game_name = safe_name(Path(compiled.spec_path).stem)
    if game.geometry is not None:
        from generator.write.mapfolder import map_folder_files  # drawing needs Pillow and shapely; only maps pay for them

        return map_folder_files(game, map_name, f"{game_name}.xml", compiled.xml_bytes)
    return {f"{map_name}/map/games/{game_name}.xml": compiled.xml_bytes}


def notes_and_listing(compiled: CompiledGame, files: dict[str, bytes], outdir: str | None = None) -> dict[str, bytes]:
    """The game notes file next to the XML, and what else the clients read for the game, merged
    into the map folder (generator.write.modfolder): map.yml listing it beside every game already
    there, and for a mod the colours, flags, unit images and texts its new content needs;
    outdir is where an earlier build's files are merged with (None: the base map folder only)."""
    from generator.write.modfolder import map_folder_additions

    xml_path = next(path for path in files if path.endswith(".xml") and "/games/" in path)
    extra = {}
    if compiled.spec.rules:
        extra[xml_path[:-len(".xml")] + ".notes.html"] = compiled.game.property_value("notes").encode("utf-8")
    additions, warnings = map_folder_additions(compiled, files, outdir)
    print_warnings(warnings)
    extra.update(additions)
    return extra


def check_compiled(compiled: CompiledGame, engine: str | None) -> list[Diagnostic]:
    """The validator on what was built, positions mapped back to the YAML; raises on errors."""
    from generator.check.validate import validate_tree

    target = engine or compiled.spec.engine
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
    folder = build_map_folder(files, outdir, compiled.spec.base_path, target)
    if folder is None:
        return diagnostics
    found = check_map_folder(compiled.tree.getroot(), folder, engine=target, position_of=compiled.position_of,
                             game_file=compiled.game_file)
    diagnostics = sorted(diagnostics + found, key=Diagnostic.sort_key)
    if any(d.severity == "error" for d in found):
        raise DiagnosticError(diagnostics, EXIT_ERRORS)
    return diagnostics


def build_spec(spec: str, outdir: str, engine: str | None = None,
               skip_validation: bool = False) -> tuple[CompiledGame, list[Path]]:
    """Compile, validate (warnings printed), write all or nothing; raises on errors."""
    from generator.build.collisions import check_not_another_game, portable_name_warnings
    from generator.build.pipeline import compile_spec

    compiled = compile_spec(spec)
    diagnostics = compiled.warnings if skip_validation else check_compiled(compiled, engine)
    files = output_files(compiled)
    check_not_another_game(compiled, files, outdir)
    files.update(notes_and_listing(compiled, files, outdir))
    if not skip_validation:
        diagnostics = check_built_map_folder(compiled, files, outdir, engine, diagnostics)
    diagnostics = diagnostics + portable_name_warnings(compiled, files, outdir)
    _print_spec_warnings(compiled, diagnostics, engine)
    return compiled, write_outputs(outdir, files)
