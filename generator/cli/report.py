"""`triplea-gen report SPEC`: a per-rule coverage table (enforced / partial / notes only)."""
from __future__ import annotations


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "report", help="list every rule of a spec and how far the engine enforces it",
        description="List every rule of a spec with its id, status (enforced, partial, notes) and what it "
                    "generated. Exit status 0, or 2 when the spec cannot be read.")
    parser.add_argument("spec", help="the YAML spec")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    parser.set_defaults(run=run_report)


def run_report(args) -> int:
    import json

    from generator.write.notes import status_counts
    from generator.build.pipeline import load_spec

    loaded = load_spec(args.spec)
    counts = status_counts(loaded.rules)
    if args.format == "json":
        print(json.dumps({"spec": loaded.source, "game": loaded.game.info.name, "counts": counts,
                          "rules": [r.as_json() for r in loaded.rules]}, indent=2, ensure_ascii=False))
        return 0
    width = max([len(r.id) for r in loaded.rules] + [4])
    print(f"{'rule':{width}}  {'status':9} {'macro':24} text")
    for record in loaded.rules:
        text = record.text if len(record.text) <= 70 else record.text[:67] + "..."
        print(f"{record.id:{width}}  {record.status:9} {record.macro or '-':24} {text}")
    print(f"{len(loaded.rules)} rules: {counts['enforced']} enforced, {counts['partial']} partial, "
          f"{counts['notes']} notes only")
    return 0
