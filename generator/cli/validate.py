"""`triplea-gen validate`: check a game XML (or a YAML spec, after compiling it)
against the schema and the engine's rules, and report every problem in one pass."""
from __future__ import annotations

import sys

from generator.core.enginename import ENGINE_NAMES


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "validate", help="check a game XML or YAML spec for one TripleA engine",
        description="Check a TripleA game XML (or a YAML spec, compiled first) against triplea-gen's "
                    "schema and the target engine's rules. Exit status: 0 no errors, 1 errors (or "
                    "warnings with --strict), 2 unusable input.")
    parser.add_argument("path", help="a game XML, or a .yaml/.yml spec")
    parser.add_argument("--engine", choices=ENGINE_NAMES,
                        help="the TripleA engine to check for (default: a spec's engine:, else current)")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    parser.add_argument("--strict", action="store_true", help="treat warnings as errors for the exit status")
    parser.add_argument("--map-dir", metavar="DIR",
                        help="the map folder: also check what the desktop client reads from it (geometry, "
                             "map.yml, colours, flags, unit images, texts) for the engine")
    parser.set_defaults(run=run_validate)


def run_validate(args) -> int:
    from generator.core.diagnostics import EXIT_ERRORS, EXIT_OK, display_path
    from generator.check.validate import validate_file

    path = args.path
    source = display_path(path)
    engine = args.engine or "current"
    inherited, note = [], None
    if path.endswith((".yaml", ".yml")):
        engine, diagnostics, inherited, note, _ = spec_findings(path, args.engine, args.map_dir)
    else:
        diagnostics = validate_file(path, engine=engine, map_dir=args.map_dir)
    errors = sum(1 for d in diagnostics if d.severity == "error")
    warnings = len(diagnostics) - errors
    if args.format == "json":
        import json

        report = {"file": source, "engine": engine, "errors": errors, "warnings": warnings,
                  "diagnostics": [d.as_json() for d in diagnostics]}
        if note:
            report["base_game_warnings"] = {"count": len(inherited), "note": note[len("note: "):]}
        print(json.dumps(report, indent=2, ensure_ascii=False))
    else:
        out = sys.stdout
        for diagnostic in diagnostics:
            print(diagnostic.format(), file=out)
        print(f"{_plural(errors, 'error')}, {_plural(warnings, 'warning')}", file=out)
        if note:
            print(note, file=out)
    if errors or (args.strict and warnings):
        return EXIT_ERRORS
    return EXIT_OK


def spec_findings(path: str, engine: str | None = None, map_dir: str | None = None, text: str | None = None):
    """What `validate` finds in a YAML spec: (engine, diagnostics sorted, the base game's own warnings
    left out of them, the note saying so or None, the compiled game). `text`: the spec as an editor holds it (the
    language server checks unsaved text with this same function). Unusable input raises
    DiagnosticError, as for the command."""
    from generator.builder.basefindings import base_note, split_base_findings
    from generator.builder.compiler import compile_spec
    from generator.check.validate import validate_tree
    from generator.core.diagnostics import Diagnostic, display_path

    compiled = compile_spec(path, text=text)
    engine = engine or compiled.spec.engine  # as build does: --engine wins, else the spec's
    from generator.render.sections import is_warm

    if map_dir is None and is_warm():  # the language server: the same game is not validated again
        from generator.builder.incremental import validated

        diagnostics = validated(compiled, engine)
    else:
        diagnostics = validate_tree(compiled.tree, engine=engine, source=display_path(path),
                                    position_of=compiled.position_of, map_dir=map_dir,
                                    game_file=compiled.game_file)
    diagnostics = sorted(compiled.warnings + diagnostics, key=Diagnostic.sort_key)
    # a mod answers for what it changes and adds: the base game's own warnings are one line
    diagnostics, inherited = split_base_findings(compiled, diagnostics, engine)
    note = base_note(compiled, inherited) if inherited else None
    return engine, diagnostics, inherited, note, compiled


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
