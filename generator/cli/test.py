"""`triplea-gen test SPEC`: the spec's scenarios played in the real engine, each with its control."""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from generator.core.enginename import ENGINE_NAMES


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "test", help="play the spec's scenarios in the real engine and check what they expect",
        description="Build the spec, play each scenario of its scenarios: section in the TripleA 1.9 engine "
                    "and check its expectations; then play its control (the same scenario on the game built "
                    "without the rules it backs), which must fail. A rule is backed when its scenario passes "
                    "and the control fails. Writes OUTDIR/scenario-results/<spec>.json for `report`. Exit "
                    "status 0 when every scenario passes and every control fails, 1 otherwise, 2 when the "
                    "spec or a scenario cannot be used.")
    parser.add_argument("spec", help="the YAML spec")
    parser.add_argument("--scenario", metavar="ID", help="play only this scenario")
    parser.add_argument("--no-control", action="store_true", help="skip the controls (faster; nothing is backed)")
    parser.add_argument("--jobs", type=_jobs, default=min(4, os.cpu_count() or 1), metavar="N",
                        help="games played at a time, each in its own JVM (default: the cores, at most 4)")
    parser.add_argument("--engine", choices=ENGINE_NAMES, default="1.9",
                        help="the engine to play in: Debian's 1.9 (default) or an installed TripleA 2.x "
                             "(scenarios whose engines: leaves it out are skipped)")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    parser.add_argument("-o", "--outdir", default="output", help="where the results file goes (default: output)")
    parser.set_defaults(run=run_test)


def _jobs(value: str) -> int:
    import argparse

    if not value.isdigit() or not 1 <= int(value) <= 16:
        raise argparse.ArgumentTypeError(f"jobs must be a whole number from 1 to 16, not {value!r}")
    return int(value)


def bounded_jobs(requested: int) -> int:
    """--jobs lowered to what this machine runs at once (its cores, and engines that fit in its memory
    at the heap each needs), with a TG211 warning when it is; a bad TRIPLEA_GEN_ENGINE_HEAP is TG084."""
    from generator.core.diagnostics import Diagnostic, DiagnosticError, EXIT_UNUSABLE, Position
    from generator.engine import memory

    try:
        allowed = memory.jobs_this_machine_runs()
    except memory.HeapSettingError as err:
        raise DiagnosticError([Diagnostic("TG084", str(err), Position(memory.HEAP_VARIABLE),
                                          f"give the heap in MiB, e.g. {memory.HEAP_VARIABLE}=1024")],
                              exit_status=EXIT_UNUSABLE) from None
    if requested <= allowed:
        return requested
    cores = os.cpu_count() or 1
    print(Diagnostic("TG211", f"--jobs {requested}: this machine runs {allowed} game{'s' if allowed > 1 else ''} at a "
                     f"time ({cores} cores, {memory.physical_memory_mib():,} MiB of memory, engines of at least "
                     f"{memory.fixed_heap_mib() or memory.HEAP_FLOOR_MIB} MiB heap); playing {allowed} at a time",
                     Position("triplea-gen"), "give --jobs at most the machine's cores", severity="warning").format(),
          file=sys.stderr)
    return allowed


def run_test(args) -> int:
    import json

    from generator.core.diagnostics import EXIT_ERRORS, EXIT_OK, Diagnostic
    from generator.scenarios.run import test_spec, write_results

    started = time.monotonic()
    progress = None if args.format == "json" else (lambda text: print(f"... {text}", file=sys.stderr, flush=True))
    results = test_spec(Path(args.spec), only=args.scenario, controls=not args.no_control, progress=progress,
                        jobs=bounded_jobs(args.jobs), engine=args.engine)
    seconds = time.monotonic() - started
    written = write_results(Path(args.spec), Path(args.outdir), results, seconds, complete=args.scenario is None,
                            engine=args.engine)
    problems: list[Diagnostic] = []
    for result in results:
        problems += _diagnostics(result, controls=not args.no_control)
    if args.format == "json":
        print(json.dumps({"spec": args.spec, "seconds": round(seconds, 1), "results_file": str(written),
                          "scenarios": [r.as_json() for r in results]}, indent=2, ensure_ascii=False))
    else:
        for result in results:
            print(format_result(result))
        backed = sum(r.backed for r in results)
        passed = sum(r.run.passed for r in results)
        print(f"{len(results)} scenarios: {passed} pass, {backed} backed by a failing control; {seconds:.0f} s")
    for diagnostic in problems:
        print(diagnostic.format(), file=sys.stderr)
    ok = all(r.run.passed and (args.no_control or r.backed or r.restates
                               or not (r.scenario.control or r.scenario.same_game)) for r in results)
    return EXIT_OK if ok else EXIT_ERRORS


def _diagnostics(result, controls: bool):
    from generator.core.diagnostics import Diagnostic

    scenario = result.scenario
    found = []
    if result.run.error:
        found.append(Diagnostic("TG208", f"scenario '{scenario.id}': {result.run.error}", scenario.position,
                                "the scenario's game could not be played to its end; see the step named"))
    for outcome in result.run.outcomes:
        if not outcome.passed:
            found.append(Diagnostic("TG205", f"scenario '{scenario.id}': expected {outcome.expectation.kind} "
                                    f"did not hold: {outcome.evidence}", outcome.expectation.position,
                                    "the engine played the scenario differently: the rule, its given or this "
                                    "expectation is wrong"))
    if result.differences:
        shown = "; ".join(result.differences[:5]) + (f" (and {len(result.differences) - 5} more)"
                                                     if len(result.differences) > 5 else "")
        found.append(Diagnostic("TG209", f"scenario '{scenario.id}': the game built without {', '.join(scenario.rules)} "
                                f"is not the same game: {shown}", scenario.position,
                                "control: same-game is for a rule that restates the game; give this one a control "
                                "that fails (control: true)"))
    if controls and scenario.control and result.run.passed and result.control is not None and not result.backed:
        reason = result.control.error or "every expectation holds without the rule too"
        found.append(Diagnostic("TG206", f"scenario '{scenario.id}' does not back {', '.join(scenario.rules)}: "
                                f"control: {reason}", scenario.position,
                                "expect something only the rule brings about (a trigger of the rule, "
                                "an amount it pays)", severity="warning"))
    return found


def _run_lines(run, indent: str) -> list[str]:
    lines = []
    if run.error:
        lines.append(f"{indent}error: {run.error}")
    lines += [f"{indent}note: {line}" for line in run.script_notes]
    for outcome in run.outcomes:
        mark = "ok  " if outcome.passed else "FAIL"
        lines.append(f"{indent}{mark} {outcome.expectation.kind} (line {outcome.expectation.position.line}): "
                     f"{outcome.evidence}")
    return lines


def format_result(result) -> str:
    """A scenario's result as text; ids, evidence and notes come from the spec and the game, so every
    line is shown with its control characters escaped (as diagnostics are)."""
    from generator.core.diagnostics import escaped

    scenario = result.scenario
    verdict = "PASS" if result.run.passed else "FAIL"
    heading = f"{verdict} {scenario.id} ({', '.join(scenario.rules)})  {result.run.seconds:.0f} s, " \
        f"stopped by {result.run.stopped_by}"
    lines = [heading]
    lines += _run_lines(result.run, "    ")
    if result.control is not None:
        control_verdict = "fails, as it should" if not result.control.passed and not result.control.error \
            else ("could not be played" if result.control.error else "PASSES TOO")
        lines.append(f"  control without {', '.join(scenario.rules + scenario.control_also_without)}: {control_verdict}  "
                     f"{result.control.seconds:.0f} s")
        lines += _run_lines(result.control, "    ")
        lines.append(f"  => {'backed' if result.backed else 'not backed'}")
    if result.differences is not None:
        without = ", ".join(scenario.rules + scenario.control_also_without)
        if result.differences:
            count = len(result.differences)
            lines.append(f"  built without {without}: not the same game ({count} change{'' if count == 1 else 's'})")
            lines += [f"    {change}" for change in result.differences]
        else:
            lines.append(f"  built without {without}: the same game")
        lines.append(f"  => {'restates the game' if result.restates else 'backs nothing'}")
    return "\n".join(escaped(line) for line in lines)
