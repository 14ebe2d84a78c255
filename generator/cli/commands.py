"""The `import` and `build` commands: each returns an exit status; problems
with the input are raised as DiagnosticError and printed by the CLI."""
from __future__ import annotations

from generator.core.diagnostics import EXIT_OK, EXIT_UNUSABLE, display_path


def import_command(xml_path: str, output: str) -> int:
    # Each command imports what it needs: a build writes no YAML (PyYAML's dumper stays unloaded).
    from generator.builder.outputs import print_warnings
    from generator.core.writer import write_file_atomically
    from generator.read.importer import import_xml_file
    from generator.write.yamlform import dump_game

    game, warnings = import_xml_file(xml_path)
    print_warnings(warnings)
    written = write_file_atomically(output, dump_game(game).encode("utf-8"))
    print(display_path(written))
    return EXIT_OK


def build_command(spec: str, outdir: str, engine_check: bool = False, engine: str | None = None,
                  skip_validation: bool = False) -> int:
    from generator.builder.outputs import build_spec

    _, written = build_spec(spec, outdir, engine, skip_validation)
    for path in written:
        print(display_path(path))
    if engine_check:
        from generator.engine.harness import engine_check_files

        status = engine_check_files([p for p in written if p.suffix == ".xml"])
        if status != EXIT_OK:
            return status
    return EXIT_OK if written else EXIT_UNUSABLE
