"""`triplea-gen balance SPEC [--against OTHER]`: the mod and its base played by the engine's AIs in
seeded games, compared (generator.balance)."""
from __future__ import annotations

import sys
from pathlib import Path

from generator.cli.engine import engine_option


def register(subparsers) -> None:
    balance = subparsers.add_parser(
        "balance", help="play seeded AI games of the mod and of its base, compare win rates, write a report",
        description="Build SPEC and OTHER (a spec, a game XML, or by default the mod's base game; for a full "
                    "game, the spec without its rules), play N seeded games of each with the engine's AI "
                    "for every player, and write DIR/balance.json, games.csv, rounds.csv and index.html with "
                    "plots. Games already played (same game, engine, AI, seed, rounds) come from the cache.")
    balance.add_argument("spec", metavar="SPEC", help="the spec (the mod) to measure")
    balance.add_argument("--against", metavar="OTHER", help="what to compare with: a spec or a game XML")
    balance.add_argument("--games", type=int, default=20, help="games per variant (default: 20)")
    balance.add_argument("--rounds", type=int, default=10, help="rounds per game at most (default: 10)")
    balance.add_argument("--ai", choices=("fast", "easy", "hard"), default="fast",
                         help="the engine's AI for every player (default: fast)")
    balance.add_argument("--player-ai", action="append", default=[], metavar="PLAYER=AI",
                         help="another AI (fast, easy, hard, none) for one player; repeatable")
    balance.add_argument("--seed", type=int, default=1, help="the first game's seed; game n plays seed+n (default: 1)")
    where = balance.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=int, help="games at a time on this machine (default: its cores)")
    where.add_argument("--cluster", metavar="ADDRESS", help="a Dask distributed scheduler, tcp://HOST:PORT")
    engine_option(balance)
    balance.add_argument("--timeout", type=float, default=1800.0, help="seconds one game may take (default: 1800)")
    balance.add_argument("--warm", action="store_true",
                         help="play game after game in one JVM per job: faster, but a seed's game then depends on "
                              "the games played before it (marked not repeatable)")
    balance.add_argument("--no-cache", action="store_true", help="play every game again, ignoring earlier results")
    balance.add_argument("-o", "--output", required=True, metavar="DIR", help="the folder to write the report into")
    balance.set_defaults(run=_run_balance)

    odds = subparsers.add_parser(
        "odds", help="the engine's battle calculator on typical battles of the units the mod changes",
        description="For every unit type whose stats SPEC changes against OTHER (by default its base game), "
                    "the unit attacking and defending in a typical battle (about 30 PUs a side), and the "
                    "battles given with --battle, in the engine's own battle calculator, on both: win "
                    "probability and expected losses before and after. Seconds, not hours.")
    odds.add_argument("spec", metavar="SPEC", help="the spec (the mod)")
    odds.add_argument("--against", metavar="OTHER", help="what to compare with: a spec or a game XML")
    odds.add_argument("--battle", action="append", default=[], metavar="A|D|TERRITORY|UNIT=N,...|UNIT=N,...",
                      help="a battle of its own: attacker, defender, territory, attacking and defending units")
    odds.add_argument("--runs", type=int, default=1000, help="battles simulated each (default: 1000)")
    odds.add_argument("--seed", type=int, default=1, help="the calculator's dice seed (default: 1)")
    engine_option(odds)
    odds.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")
    odds.set_defaults(run=_run_odds)


def _player_ais(values: list[str]) -> dict[str, str]:
    from generator.core.diagnostics import Diagnostic, DiagnosticError, Position

    chosen = {}
    for value in values:
        player, _, ai = value.partition("=")
        if not player or ai not in ("fast", "easy", "hard", "none"):
            raise DiagnosticError([Diagnostic("TG600", f"--player-ai takes PLAYER=fast|easy|hard|none, not '{value}'",
                                              Position("--player-ai"), "e.g. --player-ai Germans=hard")],
                                  exit_status=2)
        chosen[player] = ai
    return chosen


def _warn_failed(records: list[dict]) -> None:
    from generator.core.diagnostics import Diagnostic, Position

    for record in records:
        if record["error"]:
            print(Diagnostic("TG603", f"{record['variant']} seed {record['seed']}: {record['error']}",
                             Position("triplea-gen balance"), "the game is listed in the report and not counted; "
                             "'triplea-gen engine play' with its seed shows it alone", severity="warning").format(),
                  file=sys.stderr)


def _run_balance(args) -> int:
    from generator.balance.lab import Settings, measure, results, write_results
    from generator.balance.report import verdict_lines
    from generator.balance.variants import spec_variants
    from generator.core.diagnostics import EXIT_OK, display_path

    settings = Settings(games=args.games, rounds=args.rounds, ai=args.ai, player_ai=_player_ais(args.player_ai),
                        seed=args.seed, jobs=args.jobs, cluster=args.cluster, engine=args.engine,
                        timeout=args.timeout, cache=not args.no_cache, warm=args.warm)
    mod, base = spec_variants(Path(args.spec), args.against)
    settings.check(sorted(set(mod.players) | set(base.players)))
    variants = [base, mod]
    records = measure(variants, settings)
    _warn_failed(records)
    data = results(variants, settings, records)
    written = write_results(Path(args.output), variants, data)
    for line in verdict_lines(data):
        print(line)
    print(display_path(next(p for p in written if p.name == "index.html")))
    sys.stdout.flush()
    return EXIT_OK


def _run_odds(args) -> int:
    import json

    from generator.balance.odds import failed_battles, measure_odds, odds_lines
    from generator.balance.variants import spec_variants
    from generator.core.diagnostics import EXIT_OK, Diagnostic, DiagnosticError, Position

    if not 1 <= args.runs <= 100_000:
        raise DiagnosticError([Diagnostic("TG600", f"--runs must be 1 to 100,000, not {args.runs}",
                                          Position("--runs"), "1000 runs take a second or two")], exit_status=2)
    mod, base = spec_variants(Path(args.spec), args.against)
    data = measure_odds(mod, base, args.battle, seed=args.seed, runs=args.runs, engine=args.engine)
    print(json.dumps(data, indent=1) if args.format == "json" else "\n".join(odds_lines(data)))
    failed = failed_battles(data)
    if failed:
        # the figures that did come are printed above; a script must still see that some are missing
        raise DiagnosticError([Diagnostic("TG605", f"the engine's battle calculator gave no figures for {battle} "
                                          f"({variant}): {error}", Position("--battle" if given else args.spec),
                                          "check the battle's players, territory and unit types against the game")
                               for battle, variant, error, given in failed], exit_status=1)
    return EXIT_OK
