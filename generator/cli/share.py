"""Commands for iterating on and sharing a mod: diff, package, watch, schema, new."""
from __future__ import annotations


def register(subparsers) -> None:
    p = subparsers.add_parser("diff", help="what changed between two versions, in game terms",
                              description="A changelog in game terms between two versions of a game: YAML specs "
                                          "or game XMLs, in any mix.")
    p.add_argument("old", help="the older version (spec or game XML)")
    p.add_argument("new", help="the newer version (spec or game XML)")
    p.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    p.set_defaults(run=_run_diff)

    p = subparsers.add_parser("package", help="a zip for downloadedMaps and a forum post",
                              description="Build a spec and write a zip ready to unzip into TripleA's "
                                          "downloadedMaps, plus a forum post in Markdown and BBCode.")
    p.add_argument("spec", help="the YAML spec")
    p.add_argument("-o", "--outdir", required=True, help="where the zip and the posts go")
    p.add_argument("--previous", help="the previous version (spec or game XML), for the changes in the post")
    p.set_defaults(run=_run_package)

    p = subparsers.add_parser("watch", help="rebuild whenever the spec or what it uses changes",
                              description="Rebuild and revalidate whenever the spec, its base game, its macro "
                                          "templates or other YAML next to it change. Ctrl-C stops.")
    p.add_argument("spec", help="the YAML spec")
    p.add_argument("-o", "--outdir", default="output", help="output folder (default: output)")
    p.add_argument("--interval", type=float, default=0.25, help="seconds between checks (default 0.25)")
    p.add_argument("--max-builds", type=int, help=argparse_suppress())
    p.set_defaults(run=_run_watch)

    p = subparsers.add_parser("schema", help="write the JSON Schema of the rules YAML language",
                              description="Write the JSON Schema of the YAML spec language, for editors "
                                          "(VS Code's YAML extension, and others) to complete keys and underline "
                                          "mistakes.")
    p.add_argument("-o", "--output", required=True, help="the schema file to write, e.g. rules.schema.json")
    p.set_defaults(run=_run_schema)

    p = subparsers.add_parser("new", help="start a new spec: a mod of an existing game, or a new game",
                              description="Scaffold a spec: with --base MAP/GAME.xml a mod of that game, "
                                          "otherwise a small complete game to grow from.")
    p.add_argument("name", help="the name of the mod or game; the spec is written to NAME.yaml (snake case)")
    p.add_argument("--base", help="MAP/GAME.xml, e.g. world_war_ii_global/ww2global40_2nd_edition.xml")
    p.add_argument("-d", "--directory", default="rules_yaml", help="where to write it (default: rules_yaml)")
    p.set_defaults(run=_run_new)


def argparse_suppress():
    import argparse

    return argparse.SUPPRESS  # for tests: stop after N builds


def _run_diff(args) -> int:
    from generator.core.diagnostics import display_path
    from generator.builder.diff import diff_games, format_changes, load_game_any

    changes = diff_games(load_game_any(args.old), load_game_any(args.new))
    print(format_changes(changes, args.format, display_path(args.old), display_path(args.new)))
    return 0


def _run_package(args) -> int:
    from generator.core.diagnostics import display_path
    from generator.builder.package import package_spec

    for path in package_spec(args.spec, args.outdir, args.previous):
        print(display_path(path))
    return 0


def _run_watch(args) -> int:
    from generator.cli.watch import watch

    return watch(args.spec, args.outdir, args.interval, args.max_builds)


def _run_schema(args) -> int:
    from generator.core.diagnostics import display_path
    from generator.builder.jsonschema import write_schema

    print(display_path(write_schema(args.output)))
    return 0


def _run_new(args) -> int:
    from generator.core.diagnostics import display_path
    from generator.write.scaffold import new_spec

    print(display_path(new_spec(args.name, args.base, args.directory)))
    return 0
