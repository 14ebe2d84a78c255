"""`triplea-gen report SPEC`: a per-rule coverage table (enforced / partial / notes only)."""
from __future__ import annotations


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "report", help="list every rule of a spec and how far the engine enforces it",
        description="List every rule of a spec with its id, status (enforced, partial, notes) and what it "
                    "generated. Exit status 0, or 2 when the spec cannot be read.")
    parser.add_argument("spec", help="the YAML spec")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    parser.add_argument("--results", metavar="FILE",
                        help="the scenario results `test` wrote (default: output/scenario-results/<spec>.json)")
    parser.set_defaults(run=run_report)


def run_report(args) -> int:
    import json

    from generator.write.notes import status_counts
    from generator.builder.pipeline import load_spec

    loaded = load_spec(args.spec)
    counts = status_counts(loaded.rules)
    backing = _scenario_backing(args)
    if args.format == "json":
        document: dict[str, object] = {"spec": loaded.source, "game": loaded.game.info.name, "counts": counts,
                    "rules": [r.as_json() for r in loaded.rules]}
        if backing is not None:
            document["scenarios"] = backing
        print(json.dumps(document, indent=2, ensure_ascii=False))
        return 0
    width = max([len(r.id) for r in loaded.rules] + [4])
    column = f"{'scenario':19} " if backing is not None else ""
    print(f"{'rule':{width}}  {'status':9} {column}{'macro':24} text")
    for record in loaded.rules:
        text = record.text if len(record.text) <= 70 else record.text[:67] + "..."
        shown = f"{backing.get(record.id, '-'):19} " if backing is not None else ""
        print(f"{record.id:{width}}  {record.status:9} {shown}{record.macro or '-':24} {text}")
    print(f"{len(loaded.rules)} rules: {counts['enforced']} enforced, {counts['partial']} partial, "
          f"{counts['notes']} notes only")
    if backing is not None:
        enforced = [r.id for r in loaded.rules if r.status == "enforced"]
        restating = sum(backing.get(rule) == "restates the game" for rule in enforced)
        print(f"{sum(backing.get(rule) == 'backed' for rule in enforced)} of {len(enforced)} enforced rules backed by "
              f"a passing scenario whose control fails (triplea-gen test)"
              + (f"; {restating} restate the game (the same game without them) and their scenario passes"
                 if restating else ""))
    return 0


def _scenario_backing(args) -> dict[str, str] | None:
    """Per rule with a scenario, what the last `test` showed; None when the spec has no scenarios."""
    from pathlib import Path

    from generator.scenarios.run import load_scenarios, read_results, results_path, rule_backing

    scenarios = load_scenarios(Path(args.spec))
    if not scenarios.scenarios:
        return None
    results_file = Path(args.results) if args.results else results_path(Path(args.spec), Path("output"))
    return rule_backing(scenarios, read_results(Path(args.spec), results_file))
