"""`triplea-gen engine ...`: the real TripleA 1.9 engine's verdict on game files
(check), headless games played by its AI (play), the same in the desktop client (gui),
and installing it (install).
The engine modules are imported inside the handlers so that `--help` stays fast."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from generator.core.enginename import ENGINE_NAMES, EngineName


def register(subparsers) -> None:
    engine = subparsers.add_parser(
        "engine", help="run game XMLs in the real TripleA 1.9 engine (load check, AI games)",
        description="Run game XMLs in the real TripleA 1.9 engine (Debian's 'triplea' package).")
    actions = engine.add_subparsers(dest="engine_action", metavar="ACTION")
    actions.required = True

    check = actions.add_parser(
        "check", help="load each file in the engine's own parser",
        description="Load each game XML in the engine's parser (one JVM for all files). "
                    "Exit status 0 when every file loads, 1 otherwise.")
    check.add_argument("games", nargs="+", metavar="GAME.xml", help="game XML files")
    check.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    check.add_argument("--warnings", action="store_true",
                       help="also list the DTD complaints the engine prints (and ignores) for each file")
    engine_option(check)
    check.set_defaults(run=_run_check)

    play = actions.add_parser(
        "play", help="play rounds headlessly with the engine's AI controlling every player",
        description="Play a game headlessly, every player controlled by the engine's AI, and report "
                    "exceptions, triggers fired and the end state. Exit status 0 when the rounds were "
                    "played (or the game was won) without exceptions, 1 otherwise.")
    play.add_argument("game", metavar="GAME.xml", help="the game XML")
    play.add_argument("--rounds", type=_positive_int, default=2, help="rounds to play (default: 2)")
    play.add_argument("--ai", choices=("easy", "fast"), default="easy",
                      help="the engine's AI for every player (default: easy, the one that plays fully on "
                           "Java 17; the fast AI's planning copies of the game can fail there)")
    play.add_argument("--seed", type=int, help="seed for the dice and the AI's choices, for a repeatable game")
    play.add_argument("--map-dir", help="the map folder (for notifications and victory messages)")
    play.add_argument("--timeout", type=float, default=600.0, help="wall-clock limit in seconds (default: 600)")
    play.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    engine_option(play)
    play.set_defaults(run=_run_play)

    gui = actions.add_parser(
        "gui", help="open the game in the desktop client under Xvfb, let the AI play, take a screenshot",
        description="Open the game in TripleA's desktop client (its game window, under Xvfb) with the map "
                    "folder installed, let the easy AI play every player, and photograph the screen. "
                    "Exit status 1 when the client logs an exception or a MISSING IMAGE line (current: "
                    "draws a placeholder for a unit or resource, or shows its error window), opens no "
                    "window, dies, runs out of time, or the screenshot does not look like a map.")
    gui.add_argument("game", metavar="GAME.xml", help="the game XML")
    gui.add_argument("--map-dir", required=True, help="the map folder (the one holding map/)")
    gui.add_argument("--rounds", type=_positive_int, default=1, help="rounds to play (default: 1)")
    gui.add_argument("--screenshot", help="save the screenshot here (PNG)")
    gui.add_argument("--timeout", type=float, default=600.0, help="wall-clock limit in seconds (default: 600)")
    gui.add_argument("--seed", type=int, help="seed for the dice and the AI's choices")
    gui.add_argument("--centre", metavar="TERRITORY", help="scroll the map to this territory before the screenshot")
    gui.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    engine_option(gui)
    gui.set_defaults(run=_run_gui)

    install = actions.add_parser(
        "install", help="install Debian's TripleA 1.9 package with apt",
        description="Install the TripleA 1.9 engine (apt-get install triplea) where this machine allows it.")
    install.add_argument("--optional", action="store_true",
                         help="exit 0 even when it cannot be installed here (the engine tests then skip)")
    install.add_argument("--browser", action="store_true",
                         help="also Debian's Chromium and ChromeDriver (the tests open `balance`'s report in them)")
    install.set_defaults(run=_run_install)


def engine_option(parser) -> None:
    parser.add_argument("--engine", choices=ENGINE_NAMES, default="1.9",
                        help="the engine to run in: Debian's 1.9 (default) or an installed TripleA 2.x "
                             "(TRIPLEA_CURRENT_HOME, else its usual install folders; it needs Java 25)")


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _run_check(args) -> int:
    import json
    from generator.core.diagnostics import EXIT_ERRORS, EXIT_OK
    from generator.engine.harness import check_games, engine_check_files

    paths = [Path(game) for game in args.games]
    if args.format == "text":
        return engine_check_files(paths, show_warnings=args.warnings, engine=args.engine)
    results = check_games(paths, engine=args.engine)
    print(json.dumps([result.as_json() for result in results], indent=2))
    return EXIT_OK if all(result.ok for result in results) else EXIT_ERRORS


def _run_play(args) -> int:
    import json
    from generator.core.diagnostics import EXIT_ERRORS, EXIT_OK
    from generator.engine.harness import play_game

    report = play_game(Path(args.game), rounds=args.rounds, ai=args.ai, seed=args.seed,
                       map_dir=Path(args.map_dir) if args.map_dir else None, timeout=args.timeout,
                       engine=args.engine)
    if args.format == "json":
        print(json.dumps(report.as_json(), indent=2))
    else:
        print(format_play_report(report))
    for diagnostic in report.diagnostics():
        print(diagnostic.format(), file=sys.stderr)
    return EXIT_OK if report.ok else EXIT_ERRORS


def _run_gui(args) -> int:
    import json
    from generator.core.diagnostics import EXIT_ERRORS, EXIT_OK
    from generator.engine.gui import run_gui

    report = run_gui(Path(args.game), Path(args.map_dir), rounds=args.rounds,
                     screenshot=Path(args.screenshot) if args.screenshot else None, timeout=args.timeout,
                     seed=args.seed, centre=args.centre, engine=args.engine)
    print(json.dumps(report.as_json(), indent=2) if args.format == "json" else format_gui_report(report))
    for diagnostic in report.diagnostics():
        print(diagnostic.format(), file=sys.stderr)
    return EXIT_OK if report.ok else EXIT_ERRORS


def _run_install(args) -> int:
    from generator.engine.install import install_engine

    status = install_engine(optional=args.optional, browser=args.browser)
    _report_current()
    return status


def _report_current() -> None:
    """Says whether `--engine current` can run here, and if not why (never a failure: TripleA 2.x
    is the user's own install, not something apt brings)."""
    from generator.engine.engines import current_engine, engine_problem_named

    problem = engine_problem_named("current")
    if problem:
        print(f"TripleA 2.x (--engine current) cannot run here: {problem}", file=sys.stderr)
    else:
        engine = current_engine()
        print(f"TripleA 2.x present: {engine.jar} (Java: {engine.java}; compiler: {engine.compiler[0]})")


def format_message(entry: dict) -> str:
    """One message the engine showed players: when, to whom, its title and text on one line."""
    audience = ", ".join(entry["to"]) or "everyone"
    if entry["not_to"]:
        audience += f" (not {', '.join(entry['not_to'])})"
    text = " ".join(entry["text"].split())
    return f"  round {entry['round']}  {entry['step']}  to {audience}: {entry['title']}: {text}"


def format_play_report(report) -> str:
    """The play report as text: outcome, exceptions, triggers fired, end state per player."""
    from generator.core.diagnostics import display_path

    lines = [f"game: {report.game} ({display_path(report.path)})",
             f"ai: {report.ai}, seed: {report.seed if report.seed is not None else 'none'}, "
             f"map folder: {report.map_dir or 'none (engine assets only)'}"]
    times = ", ".join(f"round {index}: {seconds:.1f} s" for index, seconds in enumerate(report.round_seconds, 1))
    lines.append(f"rounds: {report.rounds_completed} of {report.rounds_requested} played "
                 f"(stopped by: {report.stopped_by}), {report.steps_run} steps, "
                 f"{report.total_seconds:.1f} s" + (f" ({times})" if times else ""))
    if report.slowest_steps:
        lines.append("slowest steps: " + ", ".join(
            f"round {entry['round']} {entry['step']} ({entry['player'] or 'no player'}) {entry['seconds']:.1f} s"
            for entry in report.slowest_steps))
    if report.exceptions:
        lines.append(f"exceptions: {len(report.exceptions)}")
        for entry in report.exceptions:
            lines.append(f"  {entry['kind']} in round {entry['round']}, step {entry['step']}: {entry['message']}")
            lines.extend(f"      at {frame}" for frame in entry["at"][:3])
    else:
        lines.append("exceptions: none")
    for warning, count in report.console_warnings.items():
        lines.append(f"engine warning ({count}x): {warning}")
    if report.winners is not None:
        lines.append(f"winners: {', '.join(report.winners) or 'none named'}")
    lines.append(f"triggers fired: {len(report.fired)}")
    lines.extend(f"  round {entry['round']}  {entry['step']}  {entry['trigger']}" for entry in report.fired)
    lines.append(f"messages to players: {len(report.messages)}")
    lines.extend(format_message(entry) for entry in report.messages)
    lines.append("players at the end:")
    for player in report.players:
        resources = ", ".join(f"{name} {amount}" for name, amount in player["resources"].items())
        units = ", ".join(f"{name} {count}" for name, count in player["units"].items())
        line = (f"  {player['name']}: {resources or 'no resources'}; {player['territories']} territories; "
                f"{sum(player['units'].values())} units ({units or 'none'})")
        if player["unplaced_units"]:
            line += f"; unplaced: {', '.join(f'{n} {c}' for n, c in player['unplaced_units'].items())}"
        lines.append(line)
    return "\n".join(lines)


def format_gui_report(report) -> str:
    """The desktop-client report as text."""
    from generator.core.diagnostics import display_path

    lines = [f"game: {report.game} ({display_path(report.path)}), map folder: {report.map_dir}",
             f"rounds: {report.rounds_completed} of {report.rounds_requested} played in the desktop client "
             f"(stopped by: {report.stopped_by}), {report.total_seconds:.1f} s",
             f"window: {report.frame_title or 'none'}"]
    others = [window for window in report.windows if not window.startswith("TripleAFrame")]
    lines.append(f"other windows: {', '.join(others) if others else 'none'}")
    if report.picture is not None:
        where = display_path(report.screenshot) if report.screenshot else "screenshot"
        lines.append(f"{where}: {report.picture.summary()}")
    lines.append(f"exceptions: {len(report.game_exceptions) or 'none'}")
    for entry in report.game_exceptions:
        lines.append(f"  {entry['kind']} in round {entry['round']}, step {entry['step']}: {entry['message']}")
        lines.extend(f"      at {frame}" for frame in entry["at"][:3])
    for entry in report.engine_defects:
        lines.append(f"engine defect, not the game's (round {entry['round']}, step {entry['step']}): "
                     f"{entry['engine_defect']}")
    lines.append(f"missing images: {len(report.missing_images) or 'none'}")
    lines.extend(f"  {line}" for line in dict.fromkeys(report.missing_images))
    if report.engine != EngineName.V1_9:
        lines.append(f"placeholder resource icons: {', '.join(report.placeholder_resources) or 'none'}")
        lines.append(f"error windows for warnings: {len(report.warnings_shown) or 'none'}")
        lines.extend(f"  round {entry['round']}, step {entry['step'] or '-'}: {entry['message']}"
                     for entry in report.warnings_shown)
    lines.append(f"messages to players: {len(report.messages)}")
    lines.extend(format_message(entry) for entry in report.messages)
    return "\n".join(lines)
