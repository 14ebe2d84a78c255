"""Red team fuzz of the commands that write, compare or play, randomised on every run (the seed,
tests/fuzzseed.py, is in every failure; TRIPLEA_GEN_FUZZ_SEED replays it): small real specs with
values, lines and names of an attacker's choosing, through `build` into a map folder other mods
were built into, `test` (hostile given/play/expect), `package`, `diff` and `import --base`.

Each case runs `python -m generator` in its own process, with an address-space and a time limit,
in a sandbox (redteam/command_sandbox.py): it may exit 0, 1 or 2, never 3 (an internal error) and
never hang; it may write nothing outside its output folder (every other path compared by size,
time and hash; its temporary folder left empty); and what the user had in the output folder
(another mod's game and its map.yml entry, texts, a file of the user's) survives. The engine is
kept out of the way (TRIPLEA_JAR names no file) except in the few cases marked `engine`.

Each command gets a time budget; its cases run two at a time and stop early rather than slow the
suite down: about 2 minutes in all on two cores, plus under a minute for the engine cases.
TRIPLEA_GEN_FUZZ_SCALE=N gives a longer soak."""
from __future__ import annotations

import contextlib
import io
import os
import random
import re
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from conftest import PLAIN_GAME, REPO, requires_engine
from fuzzseed import FUZZ_SEED, replay_hint
from redteam.command_sandbox import Sandbox, run_command

RULES_BASE = REPO / "tests" / "golden" / "rules" / "base.yaml"
SMALL_SPECS = [PLAIN_GAME, REPO / "rules_yaml" / "frontier_1939.yaml"]  # the second draws its map: used less
WORKERS = 2
# Longer soaks: TRIPLEA_GEN_FUZZ_SCALE=10 gives every command ten times the time and cases.
SCALE = float(os.environ.get("TRIPLEA_GEN_FUZZ_SCALE", "1"))
BUDGET = {"build": 30.0 * SCALE, "test": 15.0 * SCALE, "package": 20.0 * SCALE, "diff": 15.0 * SCALE,
          "import": 15.0 * SCALE}  # seconds
MIN_CASES = 4  # each command gets at least these, however slow the machine
MAX_CASES = int(60 * SCALE)

# A mod of the rules base with a rule and a scenario (tests/scenarios/test_scenarios.py's shape):
# what `test` is fuzzed on.
SCENARIO_MOD = f"""\
mod:
  name: Frontier with a pact payment
  version: "1.0"
  base: {RULES_BASE.as_posix()}
  engine: "1.9"
rules:
  - {{id: PAY, text: The USSR gets 9 when Italy first goes to war with it., use: first_war_payment,
     with: {{receiver: Russians, amount: 9, attackers: [Italians]}}}}
  - {{id: OBJ, text: Italy earns 5 while it holds Rome., use: national_objective,
     with: {{player: Italians, amount: 5, owns: [Rome Region]}}}}
scenarios:
  - id: italian-war-pays
    rule: PAY
    text: Italy at war with the USSR pays it.
    given: {{round: 1, step: italiansPolitics, relationships: [[Italians, Russians, War]],
             owners: {{Rome Region: Italians}}, resources: {{Italians: {{PUs: 10}}}},
             units: [{{territory: Rome Region, owner: Italians, add: {{infantry: 2}}}}]}}
    play: {{until: {{step: italiansCombatMove}}, ai: none, seed: 3}}
    expect:
      - fired: triggerAttachment_PAY
      - resources: {{Russians: {{PUs: {{change: 9}}}}}}
      - owners: {{Rome Region: Italians}}
      - history: [Italians, war]
      - no_exception: true
"""

# Values an attacker puts where a name, number or text goes (YAML source text).
HOSTILE_VALUES = [
    '""', "~", "[]", "{}", "-1", "0", "1e309", "-.inf", ".nan", "99999999999999999999999999", "0x7fffffff",
    "'../../escape'", "/etc/passwd", "'/tmp/../../root'", "CON", "aux", "NUL.txt", "'..'", "'.'", "'a/b'",
    "'a\\b'", '"\\u202eevil"', '"\\0"', '"line\\nbreak"', "'[url=http://evil.invalid]x[/url]'", "'<img src=x>'",
    "'{{ 7 ** 7 ** 7 }}'", "'{{ \"\".__class__ }}'", "'{% for i in range(10**9) %}x{% endfor %}'", "yes", "on",
    "'x'", "Germans", "germans", "GERMANS", "[[Italians, Russians, War], 1]", "{a: {b: {c: [1, [2, [3]]]}}}",
    "!!binary aGk=", "!!python/object/apply:os.system [id]", "*nowhere", "&anchor x", "'%s%s%n'",
    "'" + "x" * 3000 + "'", "[" + ", ".join(["1"] * 500) + "]", "{until: {step: nosuchstep, round: 99}}",
    "{rounds: 10, ai: easy}", "[{territory: Rome Region, owner: Italians, add: {infantry: 100000000}}]",
]
# Names that make files (players, units, the spec's own file name).
HOSTILE_NAMES = ["CON", "aux", "Other Mod", "Ger mans", "germans", "GERMANS", "a/b", "..", "x\\y", "\u00e9t\u00e9",
                 "e\u0301te", "[b]x[/b]", "<x>", "LPT1", "com1.png"]
SPEC_NAMES = ["spec.yaml", "my mod.yaml", "other mod.yaml", "Other_Mod.yaml", "CON.yaml", "aux.yml", " .yaml",
              "..yaml", "\u00e9t\u00e9.yaml", "a;b&c.yaml", "-o.yaml", "--help.yaml"]
_VALUE = re.compile(r"(:\s+)([^\s{}\[\],#][^{}\[\],#\n]*?)(?=\s*(?:[,}\]\n]|$))")
_NAMES = re.compile(r"(info: \{name: |\n  name: |mapName: \{value: )([^,}\n]+)")
_PLAYER = re.compile(r"\b(Germans|Russians|Italians)\b")


@dataclass
class Case:
    command: str
    number: int
    args: list[str] = field(default_factory=list)
    what: list[str] = field(default_factory=list)  # the mutations, for the failure message
    files: dict[str, str] = field(default_factory=dict)  # input files (relative to input/) and their text


class Mutator:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def mutate(self, text: str, what: list[str], times: int | None = None, start: int = 0) -> str:
        for _ in range(times or self.rng.randint(1, 3)):
            operation = self.rng.choice([self.value, self.value, self.value, self.player, self.named, self.line,
                                         self.cut])
            text = operation(text, what, start)
        return text

    def value(self, text: str, what: list[str], start: int) -> str:
        spots = [m for m in _VALUE.finditer(text) if m.start() >= start and not text[:m.start()].endswith("#")]
        if not spots:
            return text
        spot = self.rng.choice(spots)
        value = self.rng.choice(HOSTILE_VALUES)
        what.append(f"value at offset {spot.start(2)}: {spot.group(2)[:30]!r} -> {value[:40]!r}")
        return text[:spot.start(2)] + value + text[spot.end(2):]

    def player(self, text: str, what: list[str], start: int) -> str:
        found = sorted(set(_PLAYER.findall(text)))
        if not found:
            return text
        old, new = self.rng.choice(found), self.rng.choice(HOSTILE_NAMES)
        what.append(f"player {old} renamed {new!r} everywhere")
        quoted = '"' + new.replace("\\", "\\\\").replace('"', '\\"') + '"'
        return re.sub(rf"\b{old}\b(?![A-Za-z])", lambda m: quoted if _in_flow_or_value(text, m.start()) else new, text)

    def named(self, text: str, what: list[str], start: int) -> str:
        """The game's name or its map folder's, which name files and folders, made hostile but valid YAML."""
        spots = [m for m in _NAMES.finditer(text) if m.start() >= start]
        if not spots:
            return text
        spot, new = self.rng.choice(spots), self.rng.choice(HOSTILE_NAMES + SPEC_NAMES)
        what.append(f"{spot.group(1).strip()} {spot.group(2)!r} -> {new!r}")
        quoted = '"' + new.replace("\\", "\\\\").replace('"', '\\"') + '"'
        return text[:spot.start(2)] + quoted + text[spot.end(2):]

    def line(self, text: str, what: list[str], start: int) -> str:
        lines = text.split("\n")
        first = text[:start].count("\n")
        if len(lines) <= first + 1:
            return text
        at = self.rng.randrange(first, len(lines))
        how = self.rng.choice(["deleted", "doubled", "dedented", "indented"])
        what.append(f"line {at + 1} {how}: {lines[at][:40]!r}")
        if how == "deleted":
            del lines[at]
        elif how == "doubled":
            lines.insert(at, lines[at])
        elif how == "dedented":
            lines[at] = lines[at].lstrip()
        else:
            lines[at] = "   " + lines[at]
        return "\n".join(lines)

    def cut(self, text: str, what: list[str], start: int) -> str:
        at = self.rng.randrange(max(start, len(text) // 2), len(text) + 1)
        what.append(f"cut at offset {at}")
        return text[:at]


def _in_flow_or_value(text: str, at: int) -> bool:
    """Whether a name at `at` stands where YAML reads a value (so a hostile name is quoted there)."""
    line_start = text.rfind("\n", 0, at) + 1
    return bool(text[line_start:at].strip())


# --- the cases ------------------------------------------------------------------------------------------------

def _spec_source(rng: random.Random) -> str:
    path = SMALL_SPECS[0] if rng.random() < 0.85 else SMALL_SPECS[1]
    return path.read_text(encoding="utf-8")


def make_case(command: str, number: int, fixtures: dict[str, Path]) -> Case:
    rng = random.Random(f"{FUZZ_SEED}-{command}-{number}")
    mutator = Mutator(rng)
    case = Case(command, number)
    spec_name = rng.choice(SPEC_NAMES)
    if command in ("build", "package"):
        source = _spec_source(rng) if rng.random() < 0.7 else SCENARIO_MOD
        case.files[spec_name] = mutator.mutate(source, case.what)
        case.args = [command, f"../input/{spec_name}", "-o", "../out" if command == "build" else "../out/dist"]
        if command == "package" and rng.random() < 0.5:
            case.args += ["--previous", str(PLAIN_GAME)]
    elif command == "test":
        start = SCENARIO_MOD.index("scenarios:")
        case.files[spec_name] = mutator.mutate(SCENARIO_MOD, case.what, start=start)
        case.args = ["test", f"../input/{spec_name}", "-o", "../out", "--jobs", "1"]
        if rng.random() < 0.3:
            case.args += ["--format", "json"]
    elif command == "diff":
        old_text = _spec_source(rng)
        xml = fixtures["xml"].read_text(encoding="utf-8")
        sides = []
        for side in ("old", "new"):
            if rng.random() < 0.5:
                name = f"{side}_{spec_name}"
                case.files[name] = mutator.mutate(old_text, case.what) if side == "new" or rng.random() < 0.3 \
                    else old_text
            else:
                name = f"{side}.xml"
                case.files[name] = _mutated_xml(xml, rng, case.what) if side == "new" else xml
            sides.append(f"../input/{name}")
        case.args = ["diff", *sides, "--format", rng.choice(["text", "markdown", "json"])]
    elif command == "import":
        xml = _mutated_xml(fixtures["xml"].read_text(encoding="utf-8"), rng, case.what)
        case.files["game.xml"] = xml
        target = rng.choice(["imported.yaml", "CON.yaml", "sub/dir/x.yaml", "a b.yaml", "../out/again.yaml"])
        case.args = ["import", "../input/game.xml", "-o", f"../out/{target}", "--base",
                     str(rng.choice([PLAIN_GAME, RULES_BASE]))]
    return case


_ATTRIBUTE = re.compile(r'(\s[A-Za-z]+=")([^"]*)(")')
XML_VALUES = ["", " ", "-1", "99999999999999999999", "CON", "../x", "&amp;", "&#0;", "&#x202e;", "[url=x]y[/url]",
              "&lt;img src=x&gt;", "NaN", "1e309", "Germans", "germans", "x" * 3000]


def _mutated_xml(xml: str, rng: random.Random, what: list[str]) -> str:
    spots = list(_ATTRIBUTE.finditer(xml))
    for _ in range(rng.randint(1, 4)):
        spot = rng.choice(spots)
        how = rng.random()
        if how < 0.2:
            what.append(f"xml attribute at {spot.start()} removed: {spot.group(0)[:40]!r}")
            xml = xml[:spot.start()] + xml[spot.end():]
        else:
            value = rng.choice(XML_VALUES)
            what.append(f"xml attribute at {spot.start()}: {spot.group(2)[:30]!r} -> {value[:30]!r}")
            xml = xml[:spot.start(2)] + value + xml[spot.end(2):]
        spots = list(_ATTRIBUTE.finditer(xml))
    return xml


def run_case(case: Case, root: Path, fixtures: dict[str, Path], cache: Path) -> tuple[int | None, list[str]]:
    sandbox = Sandbox(root, fixtures["shared_map"] if case.command in ("build", "test", "package") else None)
    for name, text in case.files.items():
        (sandbox.input / name).write_text(text, encoding="utf-8")
    work = root / "work"
    work.mkdir()
    sandbox.freeze()
    outcome = run_command(case.args, work, {"TRIPLEA_JAR": str(root / "no-engine.jar"), "TMPDIR": str(sandbox.temp),
                                            "XDG_CACHE_HOME": str(cache)})
    found = []
    if outcome.status is None:
        found.append(f"no answer within {outcome.seconds:.0f} s (a hang)")
    elif outcome.status not in (0, 1, 2):
        found.append(f"exit {outcome.status}: {outcome.stderr.strip()[-600:]}")
    found += sandbox.problems()
    return outcome.status, found


def _describe(case: Case, problems: list[str]) -> str:
    return (f"{case.command} case {case.number}: {' '.join(case.args)}\n  mutations: {case.what}\n  "
            + "\n  ".join(problems))


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory) -> dict[str, Path]:
    """A map folder another mod was built into (its game, notes, texts and map.yml entry), and a
    game XML built from the plain example, built once for every case."""
    from generator.cli.main import main

    folder = tmp_path_factory.mktemp("fixtures")
    other = folder / "other mod.yaml"
    other.write_text(SCENARIO_MOD.replace("name: Frontier with a pact payment", "name: Other Mod"), encoding="utf-8")
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["build", str(other), "-o", str(folder / "shared")]) == 0
        assert main(["build", str(PLAIN_GAME), "-o", str(folder / "plain")]) == 0
    (xml,) = (folder / "plain").glob("*/map/games/*.xml")
    return {"shared_map": folder / "shared" / "frontier_1939", "xml": xml}


@pytest.mark.parametrize("command", list(BUDGET))
def test_hostile_input_never_escapes_the_output_folder_nor_crashes(command, fixtures, tmp_path, tmp_path_factory):
    cache = tmp_path_factory.getbasetemp() / "fuzz-cache"  # the caches are the user's, outside any sandbox
    budget, started = BUDGET[command], time.monotonic()
    failures: list[str] = []
    statuses: Counter = Counter()

    def one(number: int) -> list[str] | None:
        if time.monotonic() - started > budget and number >= MIN_CASES:
            return None  # over the budget: the case is not run
        case = make_case(command, number, fixtures)
        status, problems = run_case(case, tmp_path / f"case{number}", fixtures, cache)
        statuses[status] += 1
        return [_describe(case, problems)] if problems else []

    with ThreadPoolExecutor(WORKERS) as pool:
        for result in pool.map(one, range(MAX_CASES)):
            failures += result or []
    ran = sum(statuses.values())
    print(f"{command}: {ran} cases in {time.monotonic() - started:.0f} s, exit statuses {dict(statuses)}")
    assert not failures, f"{replay_hint()}; {len(failures)} of {ran} cases failed\n" + "\n".join(failures)


# --- hostile things already in the output folder ----------------------------------------------------------------

def _link_game_file(sandbox: Sandbox) -> None:
    (sandbox.out / "frontier_1939" / "map" / "games" / "spec.xml").symlink_to(sandbox.root / "user" / "game.xml")


def _link_listing(sandbox: Sandbox) -> None:
    listing = sandbox.out / "frontier_1939" / "map.yml"
    listing.rename(sandbox.root / "user" / "map.yml")
    listing.symlink_to(sandbox.root / "user" / "map.yml")


def _fifo_listing(sandbox: Sandbox) -> None:
    listing = sandbox.out / "frontier_1939" / "map.yml"
    listing.unlink()
    os.mkfifo(listing)


def _linked_map_folder(sandbox: Sandbox) -> None:
    folder = sandbox.out / "frontier_1939"
    folder.rename(sandbox.root / "user" / "frontier_1939")
    folder.symlink_to(sandbox.root / "user" / "frontier_1939", target_is_directory=True)


def _alias_bomb_listing(sandbox: Sandbox) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 9)]
    lines += ['map_name: "frontier_1939"', "games:", '  - {game_name: "Other Mod", file_name: "other_mod.xml"}',
              "  - {game_name: *a8, file_name: bomb.xml}"]
    (sandbox.out / "frontier_1939" / "map.yml").write_text("\n".join(lines) + "\n")


def _foreign_journal(sandbox: Sandbox) -> None:
    """A journal the user did not write, naming files outside the output folder to 'restore'."""
    import json

    staging = sandbox.out / ".triplea-gen-staging-1-abcd"
    staging.mkdir()
    (staging / "o0").write_text("planted\n")
    (sandbox.out / ".triplea-gen-journal").write_text(json.dumps({
        "staging": staging.name, "folders": ["../user/documents", "/tmp"],
        "files": [{"path": "../user/documents/plans.txt", "backup": "o0"}, {"path": "/etc/hostname", "backup": None},
                  {"path": "kept.txt", "backup": None}]}))


def _link_results_file(sandbox: Sandbox) -> None:
    (sandbox.out / "scenario-results").mkdir()
    (sandbox.out / "scenario-results" / "spec.json").symlink_to(sandbox.root / "user" / "documents" / "plans.txt")


HOSTILE_FOLDERS = [
    pytest.param("build", _link_game_file, id="link-at-the-game-file"),
    pytest.param("build", _link_listing, id="link-at-map.yml"),
    pytest.param("build", _fifo_listing, id="fifo-at-map.yml"),
    pytest.param("build", _linked_map_folder, id="map-folder-is-a-link"),
    pytest.param("build", _alias_bomb_listing, id="alias-bomb-in-map.yml"),
    pytest.param("build", _foreign_journal, id="foreign-journal"),
    pytest.param("test", _link_results_file, id="link-at-the-results-file"),
    # another spec whose file name cleans up to the other mod's game file: refused, never replacing it
    pytest.param("build", "other mod.yaml", id="same-game-file-as-another-mod"),
    pytest.param("build", "Other Mod.yaml", id="game-file-equal-but-for-case-to-another-mod-s"),
]


@pytest.mark.parametrize("command, plant", HOSTILE_FOLDERS)
def test_hostile_things_in_the_output_folder_are_never_followed_nor_lost(command, plant, fixtures, tmp_path):
    """What a build merges with, or writes over, in a map folder other mods were built into; `plant`
    puts the hostile thing there, or is the file name of a spec that makes another mod's game file."""
    sandbox = Sandbox(tmp_path / "sandbox", fixtures["shared_map"])
    spec_name = plant if isinstance(plant, str) else "spec.yaml"
    (sandbox.input / spec_name).write_text(SCENARIO_MOD, encoding="utf-8")
    (sandbox.root / "work").mkdir()
    if callable(plant):
        plant(sandbox)
    sandbox.freeze()
    # A build of this small mod takes a few seconds: 30 s is a hang (and keeps the alias bomb's case short).
    outcome = run_command([command, f"../input/{spec_name}", "-o", "../out"], sandbox.root / "work",
                          {"TRIPLEA_JAR": str(tmp_path / "no-engine.jar"), "TMPDIR": str(sandbox.temp)}, seconds=30)
    assert outcome.status in (0, 1, 2), f"exit {outcome.status}: {outcome.stderr[-1500:]}"
    assert not sandbox.problems(), sandbox.problems()


# --- a few cases the engine really plays: a small hex game whose rule and scenario carry hostile texts ---------

HEX_SCENARIO = """
rules:
  - id: R1
    text: {rule_text}
    use: national_objective
    with: {{player: {player}, amount: 3, owns: [Redhold]}}
scenarios:
  - id: {scenario_id}
    rule: R1
    control: false
    text: "[size=500]x <script>alert(1)</script> %s{{0}}"
    given: {{round: 1, step: redsEndTurn, resources: {{{player}: {{PUs: 0}}}},
             units: [{{territory: Redhold, owner: {player}, add: {{infantry: {count}}}}}]}}
    play: {{until: {{step: bluesPurchase}}, ai: idle}}
    expect:
      - history: {history}
      - message: {{contains: "\\u202e%n"}}
      - no_exception: true
"""
ENGINE_CASES = {
    "markup-and-format-strings": dict(player="Reds", rule_text="'Reds earn 3 [url=http://evil.invalid]x[/url] "
                                      "<img src=x> %s%n while they hold Redhold.'", scenario_id="'[b]hostile[/b]'",
                                      count=1, history="'%s%n{0}<img src=x>[/url]'"),
    "player-named-con": dict(player="CON", rule_text="'CON earns 3.'", scenario_id="con", count=200,
                             history="[CON, infantry]"),
    "random-names": None,  # a player name and texts drawn from the hostile lists with the run's seed
}


@pytest.mark.engine
@requires_engine
@pytest.mark.parametrize("name", list(ENGINE_CASES))
def test_scenarios_with_hostile_texts_play_in_the_engine_and_keep_to_the_output_folder(name, tmp_path, fixtures):
    values = ENGINE_CASES[name]
    if values is None:
        rng = random.Random(f"{FUZZ_SEED}-engine")
        quote = lambda text: "'" + text.replace("'", "''") + "'"  # noqa: E731
        values = dict(player=rng.choice(["CON", "aux", "Reds", "LPT1"]), count=rng.choice([0, 1, 50]),
                      rule_text=quote(rng.choice(HOSTILE_NAMES + ["%s%n", "[/list]"])),
                      scenario_id=quote(rng.choice(HOSTILE_NAMES)), history=quote(rng.choice(HOSTILE_NAMES)))
    text = (REPO / "rules_yaml" / "hex_skirmish.yaml").read_text(encoding="utf-8")
    # The example's own rules and scenarios (its victories) make way for the hostile ones; the game stays.
    text = text[:text.index("\nrules:\n") + 1] if "\nrules:\n" in text else text
    if values["player"] != "Reds":
        text = re.sub(r"\bReds\b", values["player"], text)
    spec_text = text + HEX_SCENARIO.format(**values)
    sandbox = Sandbox(tmp_path / "sandbox", fixtures["shared_map"])
    (sandbox.input / "hex.yaml").write_text(spec_text, encoding="utf-8")
    (sandbox.root / "work").mkdir()
    sandbox.freeze()
    # The JVM reserves far more address space than it uses: the harness bounds its heap instead.
    outcome = run_command(["test", "../input/hex.yaml", "-o", "../out", "--jobs", "1"], sandbox.root / "work",
                          {"TMPDIR": str(sandbox.temp)}, memory_limit=False, seconds=300)
    assert outcome.status in (0, 1, 2), f"{replay_hint()}: {name}: exit {outcome.status}\n{outcome.stderr[-2000:]}"
    if ENGINE_CASES[name] is not None:  # these are valid: the engine plays them to their end
        assert "stopped by until step" in outcome.stdout, outcome.stdout + outcome.stderr
    assert not sandbox.problems(), f"{replay_hint()}: {name}: {sandbox.problems()}"
