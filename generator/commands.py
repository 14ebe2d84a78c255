"""The `import` and `build` commands: each returns an exit status; problems
with the input are raised as DiagnosticError and printed by the CLI."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from . import model as m
from .diagnostics import EXIT_OK, EXIT_UNUSABLE, Collector, Diagnostic, display_path
from .importer import import_tree
from .pipeline import CompiledGame, compile_spec
from .safexml import parse_xml_file
from .writer import safe_name, write_file_atomically, write_outputs
from .yamlform import dump_game


def _print_warnings(diagnostics: list[Diagnostic]) -> None:
    for diagnostic in sorted(diagnostics, key=Diagnostic.sort_key):
        print(diagnostic.format(), file=sys.stderr)


def import_game_xml(xml_path: str | os.PathLike) -> tuple[m.Game, list[Diagnostic]]:
    collector = Collector()
    game = import_tree(parse_xml_file(xml_path), display_path(xml_path), collector)
    collector.raise_if_errors()
    return game, collector.diagnostics


def import_command(xml_path: str, output: str) -> int:
    game, warnings = import_game_xml(xml_path)
    _print_warnings(warnings)
    written = write_file_atomically(output, dump_game(game).encode("utf-8"))
    print(display_path(written))
    return EXIT_OK


def property_value(game: m.Game, name: str) -> str | None:
    for prop in game.properties or []:
        if prop.name == name:
            return prop.value if prop.value is not None else prop.text
    return None


def output_files(compiled: CompiledGame) -> dict[str, bytes]:
    """Where a built game goes inside OUTDIR: <map>/map/games/<game>.xml, the layout of a map folder."""
    game = compiled.game
    map_name = safe_name(property_value(game, "mapName") or game.info.name or "", "map").lower()
    game_name = safe_name(Path(compiled.spec_path).stem)
    return {f"{map_name}/map/games/{game_name}.xml": compiled.xml_bytes}


def build_command(spec: str, outdir: str, engine_check: bool = False) -> int:
    compiled = compile_spec(spec)
    _print_warnings(compiled.warnings)
    written = write_outputs(outdir, output_files(compiled))
    for path in written:
        print(display_path(path))
    if engine_check:
        from .engine.harness import engine_check_files

        status = engine_check_files([p for p in written if p.suffix == ".xml"])
        if status != EXIT_OK:
            return status
    return EXIT_OK if written else EXIT_UNUSABLE
