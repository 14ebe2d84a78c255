"""Command line: argument parsing and the top-level error handler only.
Heavy modules are imported inside the command handlers so that `--help` stays fast, and
nothing but the build server's client is imported before a command is handed to a
running build server."""
from __future__ import annotations

import os
import sys

from generator import __version__
from generator.cli.serverlink import SERVED_COMMANDS  # the build server's client only: nothing heavy
from generator.core.enginename import ENGINE_NAMES

# Subcommand modules that register their own parsers, by the commands each registers; each
# exposes register(subparsers) and keeps its heavy imports inside its handlers. A command line
# naming one command loads only that command's module; --help and mistakes load them all.
_PLUGIN_COMMANDS = {
    "generator.cli.engine": ("engine",),
    "generator.cli.validate": ("validate",),
    "generator.cli.report": ("report",),
    "generator.cli.share": ("diff", "package", "watch", "schema", "new"),
    "generator.cli.preview": ("preview",),
    "generator.cli.buildserver": ("server",),
    "generator.cli.test": ("test",),
    "generator.cli.balance": ("balance", "odds"),
    "generator.lsp.command": ("lsp",),  # the language server: a stage above cli, loaded by name
}


def build_parser(command: str | None = None):
    """The whole command line, or (for speed) only the built-in commands and `command`'s module."""
    import argparse
    import importlib

    parser = argparse.ArgumentParser(
        prog="triplea-gen",
        description="Compile YAML rule specifications into TripleA game XML, and import game XMLs into YAML.",
    )
    parser.add_argument("--version", action="version", version=f"triplea-gen {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("import", help="convert a TripleA game XML into the full-game YAML form",
                       description="Convert any TripleA game XML into the full-game YAML form, losslessly.")
    p.add_argument("game_xml", help="the game XML to import")
    p.add_argument("-o", "--output", required=True, help="the YAML file to write")
    p.add_argument("--base", help="write a mod of this base game (a game XML, a spec, or MAP/GAME.xml): "
                                  "only the difference")
    p.set_defaults(run=_run_import)

    p = sub.add_parser("build", help="build a YAML spec into a game XML under OUTDIR",
                       description="Build a YAML spec into OUTDIR/<map>/map/games/<game>.xml.")
    p.add_argument("spec", help="the YAML spec to build")
    p.add_argument("-o", "--outdir", default="output", help="output folder (default: output)")
    p.add_argument("--engine", choices=ENGINE_NAMES,
                   help="the engine to validate for (default: the spec's engine:, else current)")
    p.add_argument("--skip-validation", action="store_true",
                   help="write the game even if validation finds errors (to inspect a broken game)")
    p.add_argument("--engine-check", action="store_true",
                   help="load what was built in the real TripleA engine's parser")
    p.set_defaults(run=_run_build)

    wanted = [module for module, commands in _PLUGIN_COMMANDS.items() if command in commands]
    if command not in ("import", "build") and not wanted:
        wanted = list(_PLUGIN_COMMANDS)
    for module_name in wanted:
        importlib.import_module(module_name).register(sub)
    return parser


def _run_import(args) -> int:
    if args.base:
        from generator.cli.extract import extract_command

        return extract_command(args.game_xml, args.base, args.output)
    from generator.cli.commands import import_command

    return import_command(args.game_xml, args.output)


def _run_build(args) -> int:
    from generator.cli.commands import build_command

    return build_command(args.spec, args.outdir, engine_check=args.engine_check, engine=args.engine,
                         skip_validation=args.skip_validation)


# Commands that run once and exit. Their process makes no cyclic garbage worth a pass of Python's
# cyclic collector (the objects of imports, a parsed game, a rendered XML all live until exit; the
# memory freed by collecting was measured at under 1 MiB of 40-75 MiB), while its passes over the
# growing heap cost 10-60 ms (a tenth of an `import` of Global 1940). Long-lived processes (watch,
# the build server, the language server, balance runs) keep collecting.
ONE_SHOT_COMMANDS = frozenset({"build", "validate", "import", "report", "diff", "package", "schema"})


def main(argv: list[str] | None = None) -> int:
    """The program: a command given on the command line goes to the build server when one runs."""
    if argv is None:
        argv = sys.argv[1:]
        if argv and argv[0] in ONE_SHOT_COMMANDS:
            import gc

            gc.disable()  # this process only: main(argv) called by a test or the server leaves it on
        if argv and argv[0] in SERVED_COMMANDS:
            from generator.cli.serverlink import run_on_server

            try:
                status = run_on_server(argv)
            except KeyboardInterrupt:
                print("interrupted", file=sys.stderr)
                return 130
            if status is not None:
                return status
    return run_command(argv)


def run_command(argv: list[str]) -> int:
    """One command in this process."""
    args = build_parser(argv[0] if argv else None).parse_args(argv)
    # after parsing: `--help` and a mistyped command line never load it (dataclasses, typing, re)
    from generator.core.diagnostics import EXIT_INTERNAL, DiagnosticError, printable

    try:
        return args.run(args)
    except DiagnosticError as err:
        for diagnostic in err.diagnostics:
            print(diagnostic.format(), file=sys.stderr)
        return err.exit_status
    except KeyboardInterrupt as err:
        # Ctrl-C, or SIGTERM/SIGHUP while engines ran (engine.lifecycle stopped them): 128 + the signal
        print("interrupted", file=sys.stderr)
        return getattr(err, "exit_status", 130)
    except BrokenPipeError:
        return 0
    except Exception as err:  # the last line of defence: no traceback for users
        if os.environ.get("TRIPLEA_GEN_DEBUG"):
            raise
        print(f"triplea-gen: internal error: {type(err).__name__}: {printable(str(err))}", file=sys.stderr)
        print("  this is a bug in triplea-gen; please report it with the input that caused it "
              "(set TRIPLEA_GEN_DEBUG=1 for a traceback)", file=sys.stderr)
        return EXIT_INTERNAL
