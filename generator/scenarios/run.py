"""`triplea-gen test`: each scenario of a spec played in the real engine, and its control (the same
scenario on the game built without the rules it backs). A rule is backed when a scenario for it
passes and the control fails: the expectation holds because of the rule."""
from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.diagnostics import (
    Collector,
    Diagnostic,
    DiagnosticError,
    Position,
    closest,
    display_path,
)
from generator.read.safexml import read_input
from generator.read.yamlio import LocatedList, load_yaml_file
from generator.scenarios.check import Outcome, evaluate
from generator.scenarios.results import digest, mark_stale, merged, scenario_digests, stamped
from generator.scenarios.spec import Scenario, read_scenarios
from generator.scenarios.variant import GameNames, Variant, apply_given, check_names, given_within
from generator.core.enginename import EngineName

if TYPE_CHECKING:
    from generator.engine.harness import Engine

RESULTS_VERSION = 1
# Builds share process-wide state (the template sandbox's budget, the paused collector): one at a time.
_BUILDING = threading.Lock()
# Time for one scenario game: loading a Global 1940 game and a few AI steps take well under this.
SCENARIO_TIMEOUT = 300.0


@dataclass
class Run:
    """One game played for a scenario (the scenario itself, or its control)."""

    outcomes: list[Outcome]
    seconds: float
    stopped_by: str
    error: str = ""  # the game could not be built or played
    script_notes: list[str] = field(default_factory=list)  # what a scripted player could not do

    @property
    def passed(self) -> bool:
        return not self.error and all(o.passed for o in self.outcomes)

    def as_json(self) -> dict:
        return {"passed": self.passed, "seconds": round(self.seconds, 1), "stopped_by": self.stopped_by,
                "error": self.error, "script_notes": self.script_notes,
                "expectations": [o.as_json() for o in self.outcomes]}


@dataclass
class ScenarioResult:
    scenario: Scenario
    run: Run
    control: Run | None = None
    # control: same-game: how the game built without the rule differs from the built game, in game
    # terms (none: the rule restates the game), or why it could not be built
    differences: list[str] | None = None
    game_digest: str = ""  # the built game XML it ran on (the results file marks each result with it)

    @property
    def backed(self) -> bool:
        return self.run.passed and self.control is not None and not self.control.passed and not self.control.error

    @property
    def restates(self) -> bool:
        """A rule of control: same-game whose scenario passes and whose game is the same without it."""
        return self.run.passed and self.differences == []

    def as_json(self) -> dict:
        found = {"id": self.scenario.id, "rules": self.scenario.rules, "passed": self.run.passed,
                 "backed": self.backed, "run": self.run.as_json(),
                 "control": self.control.as_json() if self.control else None}
        if self.differences is not None:
            found["restates"] = self.restates
            found["differences"] = self.differences
        return found


@dataclass
class LoadedScenarios:
    spec_path: Path
    scenarios: list[Scenario]
    rule_ids: list[str]
    warnings: list[Diagnostic] = field(default_factory=list)


def spec_digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def load_scenarios(spec_path: Path) -> LoadedScenarios:
    """The spec's scenarios, shape-checked and their rule ids checked against the spec's rules
    (no build, no engine): raises the located diagnostics (TG200-TG203)."""
    data = load_yaml_file(spec_path)
    collector = Collector()
    source = display_path(spec_path)
    scenarios = read_scenarios(data, source, collector)
    rules = data.get("rules") if isinstance(data, dict) else None
    rule_ids = [str(r["id"]) for r in rules or [] if isinstance(r, dict) and "id" in r]
    for scenario in scenarios:
        for rule, pos in zip(scenario.rules + scenario.control_also_without,
                             scenario.rule_positions + scenario.control_positions):
            if rule not in rule_ids:
                collector.error("TG203", f"scenario '{scenario.id}' backs rule '{rule}', which the spec does not have",
                                pos, closest(rule, rule_ids) or "name a rule id of the spec's rules:")
    collector.raise_if_errors()
    return LoadedScenarios(Path(spec_path), scenarios, rule_ids, collector.diagnostics)


def _without(rule_ids: list[str]):
    """An edit_rules for load_spec: the rules list without those ids (positions kept)."""
    def edit(rules):
        if not isinstance(rules, LocatedList):
            return [r for r in rules if not (isinstance(r, dict) and str(r.get("id")) in rule_ids)]
        kept = LocatedList()
        kept._pos, kept._mark, kept._source = rules._pos, rules._mark, rules._source
        for index, rule in enumerate(rules):
            if not (isinstance(rule, dict) and str(rule.get("id")) in rule_ids):
                kept.append(rule)
                if index < len(rules._item_marks):
                    kept._item_marks.append(rules._item_marks[index])
        return kept
    return edit


def build_xml(spec_path: Path, without: Sequence[str] = ()) -> bytes:
    return _build(spec_path, without).xml_bytes


def _build(spec_path: Path, without: Sequence[str]):
    from generator.builder.pipeline import compile_game, load_spec

    # A control only needs the game XML: the spec's assets may name what the left-out rules make.
    loaded = load_spec(spec_path, edit_rules=_without(list(without)) if without else None,
                       check_assets=not without)
    return compile_game(loaded)


def _differences_without(spec_path: Path, scenario: Scenario, built) -> list[str]:
    """For control: same-game, the changes from the game built without the scenario's rules to the
    built game, in game terms."""
    from generator.builder.diff import diff_games

    try:
        with _BUILDING:
            without = _build(spec_path, scenario.rules + scenario.control_also_without).game
    except DiagnosticError as err:
        return ["the spec without " + ", ".join(scenario.rules) + " does not build: "
                + "; ".join(d.format() for d in err.diagnostics[:3])]
    return [change.text for change in diff_games(_comparable(without), _comparable(built))]


def _comparable(game):
    """A shallow copy of the game without what never makes two games play differently: the game notes
    (they list the rules, so they always differ) and every option written at the value the engine
    gives it anyway (the catalog's `default:`), so a rule that spells out a default changes nothing."""
    import copy
    import dataclasses

    from generator.catalog import load_catalog

    classes = load_catalog().classes

    def at_default(attachment, option) -> bool:
        known = classes.get(attachment.class_name)
        spec = known.options.get(option.name) if known else None
        return spec is not None and spec.default is not None and option.value == spec.default

    plain = copy.copy(game)
    plain.properties = [p for p in game.properties or [] if p.name != "notes"]
    plain.attachments = [dataclasses.replace(a, options=[o for o in a.options if not at_default(a, o)])
                         for a in game.attachments or []]
    return plain


def play_options(scenario: Scenario, names: GameNames) -> list[str]:
    """The harness's play options for the scenario in a game with these names: each player gets its AI;
    a scripted action the game lacks (a control left its rule out) is not attempted."""
    given, play = scenario.given, scenario.play
    options = ["--rounds", str(play.rounds), "--ai", "easy" if play.ai in ("none", "idle") else play.ai,
               "--seed", str(play.seed), "--history", "true"]
    for player in names.players:  # every player named: the harness's own default is the easy AI
        options += ["--player-ai", f"{player}={play.players.get(player, play.ai)}"]
    for player, actions in play.actions.items():
        for action in actions:
            if action in names.political_actions:
                options += ["--political-action", f"{player}={action}"]
            elif action in names.user_actions:
                options += ["--user-action", f"{player}={action}"]
    for player, units in play.purchases.items():
        options += [o for unit, count in units.items() for o in ("--purchase", f"{player}={unit}:{count}")]
    for player, moves in play.moves.items():
        for move in moves:
            moved = ",".join(f"{unit}*{count}" for unit, count in move.units.items())
            options += ["--move", f"{player}={move.phase}:{'>'.join(move.path)}:{moved}"]
    for player, territories in play.placements.items():
        options += [o for territory, units in territories.items() for unit, count in units.items()
                    for o in ("--place", f"{player}={territory}:{unit}:{count}")]
    if given.round is not None:
        options += ["--start-round", str(given.round)]
    if given.step is not None:
        options += ["--start-step", given.step]
    if play.until_step is not None:
        options += ["--until-step", play.until_step]
        options += ["--until-round", str(play.until_round if play.until_round is not None else (given.round or 1))]
    return options


def play_variant(scenario: Scenario, variant: Variant, name: str, folder: Path, map_dir: Path | None = None,
                 engine=None, pool=None) -> Run:
    from generator.engine.harness import play_scenario_game

    game = folder / name
    # safe-write: folder is test_spec's own (inside a mkdtemp folder it made; nobody else writes there)
    game.write_bytes(variant.xml)
    started = time.monotonic()
    options = play_options(scenario, variant.names) + (["--map-dir", str(map_dir.resolve())] if map_dir else [])
    try:
        report = pool.play(game, options, SCENARIO_TIMEOUT) if pool is not None \
            else play_scenario_game(game, options, SCENARIO_TIMEOUT, engine=engine)
    except DiagnosticError as err:
        return Run([], time.monotonic() - started, "error", "; ".join(d.message for d in err.diagnostics))
    engine_name = getattr(engine, "name", engine) or "1.9"
    expected = [e for e in scenario.expect if engine_name in e.engines]  # per-engine expectations
    outcomes = evaluate(expected, report, variant.start_resources)
    error = ""
    if report.get("stopped_by") == "exception" and not any(e.kind == "no_exception" for e in scenario.expect):
        first = (report.get("exceptions") or [{}])[0]
        error = f"the game stopped with an exception in round {first.get('round')}, step {first.get('step')}: " \
                f"{first.get('message')}"
    elif scenario.play.until_step and report.get("stopped_by") != "until step":
        error = f"the game never reached step {scenario.play.until_step} (stopped by: {report.get('stopped_by')})"
    return Run(outcomes, time.monotonic() - started, report.get("stopped_by", "?"), error,
               list(report.get("script_notes") or []))


def prepare_variants(built: bytes, scenarios: list[Scenario]) -> tuple[dict[str, Variant], Collector]:
    """Each scenario's game (its given written into the built XML), after checking every name it
    uses against that game; no engine. The collector holds what is wrong (TG204)."""
    names = GameNames.of(_root(built))
    collector = Collector()
    for scenario in scenarios:
        check_names(scenario, names, collector)
    return {s.id: apply_given(built, s.given, collector) for s in scenarios}, collector


def test_spec(spec_path: Path, only: str | None = None, controls: bool = True, progress=None,
              jobs: int = 1, engine: str | None = None, warm: bool = True) -> list[ScenarioResult]:
    """Plays every scenario (or only the one with id `only`) and, with controls, its control; `jobs`
    games at a time (each is its own JVM; the Python builds of controls take turns). The results
    come in the spec's order whatever finished first. engine: "1.9" (None) or "current"; a scenario
    whose engines: leaves that engine out is not played. warm: the games are played in `jobs` JVMs
    that each play one game after the other (generator.engine.warm), not a JVM per game."""
    loaded = load_scenarios(spec_path)
    scenarios = loaded.scenarios
    if only is not None:
        scenarios = [s for s in scenarios if s.id == only]
        if not scenarios:
            raise DiagnosticError([Diagnostic("TG207", f"the spec has no scenario '{only}'",
                                              Position(display_path(spec_path)),
                                              "its scenarios: " + (", ".join(s.id for s in loaded.scenarios) or "none"))])
    engine_name = engine or "1.9"
    scenarios = [s for s in scenarios if engine_name in s.engines]
    chosen: Engine | str | None = engine  # 1.9 by its name or None; another engine resolved here
    if engine_name != EngineName.V1_9:
        from generator.engine.harness import resolve_engine

        chosen = resolve_engine(engine_name)  # found once, before any build: a missing engine is one error
    compiled = _compiled(spec_path)
    variants, collector = prepare_variants(compiled.xml_bytes, scenarios)
    collector.raise_if_errors()
    game_name = Path(spec_path).stem + ".xml"
    from generator.engine import lifecycle, memory
    from generator.engine.warm import WarmPool

    lifecycle.install_signal_handlers()  # here, in the main thread: the games start in worker threads
    with lifecycle.scratch_folder("scenarios") as folder, \
            memory.engines_at_once(min(jobs, len(scenarios))), \
            WarmPool(chosen, min(jobs, len(scenarios))) as warm_pool:  # safe-write: scratch_folder is private, ours
        jvms = warm_pool if warm else None
        map_dir = write_map_folder(compiled, Path(folder) / "map-folder")

        def play(index: int, scenario: Scenario) -> ScenarioResult:
            own = Path(folder) / f"scenario-{index:03d}"  # each game its own file: several play at once
            own.mkdir()  # safe-write: inside the private mkdtemp folder made above
            if progress:
                progress(f"scenario {scenario.id}")
            run = play_variant(scenario, variants[scenario.id], game_name, own, map_dir, chosen, jvms)
            run.script_notes[:0] = variants[scenario.id].notes
            control, differences = None, None
            if controls and scenario.control:
                if progress:
                    progress(f"scenario {scenario.id}: control without {', '.join(scenario.rules)}")
                control = _control(spec_path, scenario, game_name, own, map_dir, chosen, jvms)
            if controls and scenario.same_game:
                differences = _differences_without(spec_path, scenario, compiled.game)
            return ScenarioResult(scenario, run, control, differences, digest(compiled.xml_bytes))

        if jobs <= 1 or len(scenarios) <= 1:
            return [play(index, scenario) for index, scenario in enumerate(scenarios)]
        pool = ThreadPoolExecutor(max_workers=jobs)
        try:
            return list(pool.map(play, range(len(scenarios)), scenarios))
        finally:
            # Interrupted: the games not started are dropped; those running were stopped (lifecycle),
            # so their threads end at once and the scratch folder goes with them.
            pool.shutdown(wait=True, cancel_futures=True)


def _compiled(spec_path: Path):
    from generator.builder.compiler import compile_spec

    return compile_spec(spec_path)


def write_map_folder(compiled, folder: Path) -> Path:
    """The map folder a build writes (a generated map's, or a mod's texts, colours and images), for
    the engine to read the texts of notifications, victories and actions from: 1.9 does nothing for
    a trigger whose notification text it cannot find. Returns the folder that holds map/."""
    from generator.builder.outputs import notes_and_listing, output_files
    from generator.core.writer import write_outputs

    files = output_files(compiled)
    files.update(notes_and_listing(compiled, files, str(folder)))
    written = write_outputs(str(folder), files)
    game = next(path for path in written if path.suffix == ".xml" and path.parent.name == "games")
    return game.parent.parent.parent


def _control(spec_path: Path, scenario: Scenario, game_name: str, folder: Path, map_dir: Path | None = None,
             engine=None, pool=None) -> Run:
    try:
        with _BUILDING:
            xml = build_xml(spec_path, scenario.rules + scenario.control_also_without)
            # what the left-out rules made is missing here, and that is the point: the parts of the
            # given that name it are left out (the engine would refuse the game)
            given, left_out = given_within(scenario.given, GameNames.of(_root(xml)))
            variant = apply_given(xml, given, Collector())
    except DiagnosticError as err:
        return Run([], 0.0, "error", "the spec without " + ", ".join(scenario.rules) + " does not build: "
                   + "; ".join(d.format() for d in err.diagnostics[:3]))
    run = play_variant(scenario, variant, game_name, folder, map_dir, engine, pool)
    run.script_notes[:0] = [f"the control game has no such names: given {what} left out" for what in left_out]
    if run.stopped_by == "error":
        run.error += _control_game_errors(variant.xml)
    return run


def _control_game_errors(xml: bytes) -> str:
    """Why the engine refused a control, as validate finds it: a control is built without
    validation, so what its left-out rules made and other rules still name (a player, a condition)
    reaches the engine. Such rules belong in control_also_without."""
    from lxml import etree

    from generator.check.validate import validate_tree

    found = [d for d in validate_tree(etree.ElementTree(_root(xml)), engine="1.9", source="control game")
             if d.severity == "error"]
    if not found:
        return ""
    shown = "; ".join(d.message for d in found[:3]) + (f" (and {len(found) - 3} more)" if len(found) > 3 else "")
    return (f"; the game without the rules has errors: {shown} (leave out the rules that name what the backed "
            "rules make too: control_also_without)")


def _root(xml: bytes):
    from lxml import etree

    return etree.fromstring(xml, etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False))


RESULTS_FOLDER = "scenario-results"


def results_path(spec_path: Path, outdir: Path, engine: str | None = None) -> Path:
    """1.9's results are <spec>.json (what `report` reads); another engine's <spec>.<engine>.json."""
    return Path(outdir) / _results_relpath(spec_path, engine)


def _results_relpath(spec_path: Path, engine: str | None) -> str:
    suffix = "" if engine in (None, EngineName.V1_9) else f".{engine}"
    return f"{RESULTS_FOLDER}/{Path(spec_path).stem}{suffix}.json"


def write_results(spec_path: Path, outdir: Path, results: list[ScenarioResult], seconds: float,
                  complete: bool, engine: str | None = None) -> Path:
    """The results `report` reads, written by the safe writer (staged and renamed into place;
    no link under outdir followed, only a regular file replaced): the output folder may hold
    what an unzipped mod or a cloned project put there."""
    from generator.core.writer import read_output, write_outputs

    relpath = _results_relpath(spec_path, engine)
    # the entries apart from the document, whose values are of every kind: they keep their own type
    digest = spec_digest(spec_path)
    entries = stamped([r.as_json() for r in results], digest, results[0].game_digest if results else "",
                      scenario_digests(spec_path))
    document = {"version": RESULTS_VERSION, "spec": display_path(spec_path), "spec_digest": digest,
                "complete": complete, "seconds": round(seconds, 1), "scenarios": entries}
    earlier_text = None if complete else read_output(outdir, relpath)
    if earlier_text is not None:
        # one scenario run: keep the others' earlier results, each marked with what it ran on
        try:
            earlier = json.loads(earlier_text)
        except ValueError:
            earlier = {}
        if isinstance(earlier, dict) and earlier.get("version") == RESULTS_VERSION:
            document["scenarios"] = merged(earlier, entries)
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    return write_outputs(outdir, {relpath: text.encode("utf-8")})[0]


MAX_RESULTS_BYTES = 16 * 1024 * 1024


def _read_json(path: Path) -> dict | None:
    """A results file, None when missing, unreadable or not JSON; a FIFO, device or oversized file
    is refused (located), as every input is: one named by mistake would block or fill memory."""
    try:
        document = json.loads(read_input(path, MAX_RESULTS_BYTES).decode("utf-8"))
    except DiagnosticError as err:
        if any(d.code != "TG001" for d in err.diagnostics):
            raise
        return None
    except ValueError:  # not UTF-8, not JSON
        return None
    return document if isinstance(document, dict) else None


def read_results(spec_path: Path, results_file: Path) -> dict | None:
    """The results test wrote for this spec, or None (no file, unreadable, or of another version
    of the spec: a stale result backs nothing)."""
    document = _read_json(Path(results_file))
    if not isinstance(document, dict) or document.get("version") != RESULTS_VERSION:
        return None
    mark_stale(document, spec_path, spec_digest(spec_path))
    return document


def rule_backing(loaded: LoadedScenarios, results: dict | None) -> dict[str, str]:
    """Per rule id with a scenario: backed, scenario fails, control passes, control error,
    not run, or stale (the spec changed since test ran)."""
    by_id = {s["id"]: s for s in (results or {}).get("scenarios", [])}
    verdicts: dict[str, str] = {}
    rank = ["backed", "restates the game", "control passes", "control error", "not the same game",
            "passes (no control)", "scenario fails", "not run", "stale"]
    for scenario in loaded.scenarios:
        result = by_id.get(scenario.id)
        if result is not None and result.get("stale", (results or {}).get("stale")):
            verdict = "stale"
        elif result is None:
            verdict = "not run"
        elif scenario.same_game:
            verdict = "scenario fails" if not result["passed"] else (
                "restates the game" if result.get("restates") else
                "not the same game" if result.get("differences") else "passes (no control)")
        elif not scenario.control:
            verdict = "passes (no control)" if result["passed"] else "scenario fails"
        elif result["backed"]:
            verdict = "backed"
        elif not result["passed"]:
            verdict = "scenario fails"
        elif result.get("control") is None or result["control"].get("error"):
            verdict = "control error"
        else:
            verdict = "control passes"
        for rule in scenario.rules:
            current = verdicts.get(rule)
            if current is None or rank.index(verdict) < rank.index(current):
                verdicts[rule] = verdict
    return verdicts
