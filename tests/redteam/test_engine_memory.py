"""Issue #25, item 6: what a spec gives the engine is bounded, and so is every engine JVM's memory.

A scenario whose `given` adds 40,000,000 infantry grew one JVM to 6.4 GB (Java's default heap, a
quarter of the machine's memory), and `--jobs` accepted 16 of them. Now: every count a scenario
hands the engine has a bound, refused at its YAML line (TG210) before anything is built; every
JVM has a heap limit sized to the machine and to the engines running at once; `--jobs` is lowered
to what the machine runs (TG211); and a game that does not fit stops the JVM at once with TG083
(tests/engine/test_engine_lifecycle.py plays one)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from generator.cli.main import main
from generator.core.diagnostics import DiagnosticError
from generator.engine import memory
from generator.scenarios.run import load_scenarios

RULES_BASE = REPO / "tests" / "golden" / "rules" / "base.yaml"
HEAD = f"""\
mod:
  name: Frontier with a payment
  version: "1.0"
  base: {RULES_BASE}
  engine: "1.9"
rules:
  - {{id: PAY, text: The USSR gets 9 when Italy first goes to war with it., use: first_war_payment,
     with: {{receiver: Russians, amount: 9, attackers: [Italians]}}}}
scenarios:
"""
HEAD_LINES = HEAD.count("\n")


def spec_with(folder: Path, scenarios: str) -> Path:
    spec = folder / "bounds.yaml"
    spec.write_text(HEAD + scenarios, encoding="utf-8")
    return spec


def bound_errors(spec: Path) -> list[tuple[int, int, str]]:
    """(line, column, message) of every TG210 load_scenarios reports, lines counted in the scenarios."""
    with pytest.raises(DiagnosticError) as raised:
        load_scenarios(spec)
    return [(d.position.line - HEAD_LINES, d.position.col, d.message)
            for d in raised.value.diagnostics if d.code == "TG210"]


# --- the scenario's counts: refused at their line before any build ---------------------------------------------

def test_forty_million_infantry_are_refused_at_their_line(tmp_path: Path):
    spec = spec_with(tmp_path, """\
  - id: flood
    rule: PAY
    given:
      units:
        - {territory: Germany, owner: Germans, add: {infantry: 40000000}}
    expect:
      - no_exception: true
""")
    assert bound_errors(spec) == [(5, 54, "number of infantry to add is 40,000,000, over the bound of 1,000")]


def test_the_whole_command_refuses_it_with_exit_2_and_nothing_played(tmp_path: Path, capsys):
    spec = spec_with(tmp_path, """\
  - id: flood
    rule: PAY
    given:
      units:
        - {territory: Germany, owner: Germans, add: {infantry: 40000000}}
    expect:
      - no_exception: true
""")
    assert main(["test", str(spec), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"bounds.yaml:{HEAD_LINES + 5}:54: error[TG210]: number of infantry to add is 40,000,000, over the " \
           "bound of 1,000" in err
    assert "hint: a scenario sets up a few units" in err
    assert not (tmp_path / "out").exists()


def test_many_changes_add_up_per_territory_and_in_all(tmp_path: Path):
    per_territory = "".join(f"        - {{territory: Germany, owner: Germans, add: {{infantry: 900}}}}\n"
                            for _ in range(2))
    everywhere = "".join(f"        - {{territory: T{index}, owner: Germans, add: {{infantry: 1000}}}}\n"
                         for index in range(11))
    spec = spec_with(tmp_path, f"""\
  - id: stacked
    rule: PAY
    given:
      units:
{per_territory}    expect:
      - no_exception: true
  - id: spread
    rule: PAY
    given:
      units:
{everywhere}    expect:
      - no_exception: true
""")
    assert bound_errors(spec) == [
        (6, 11, "the given adds 1,800 units to Germany, over the bound of 1,000"),
        (23, 11, "the given adds 11,000 units in all, over the bound of 10,000")]


def test_scripted_purchases_placements_moves_rounds_amounts_and_seeds_are_bounded(tmp_path: Path):
    spec = spec_with(tmp_path, """\
  - id: scripted
    rule: PAY
    given:
      round: 100000000
      resources: {Germans: {PUs: 99999999999}}
    play:
      until: {round: 99999999999, step: germansPurchase}
      seed: 99999999999999999999
      purchases: {Germans: {infantry: 600, armour: 600}}
      placements: {Germans: {Germany: {infantry: 700}, Poland: {infantry: 700}}}
      moves: {Germans: [{from: Germany, to: Poland, units: {infantry: 5000}}]}
    expect:
      - no_exception: true
""")
    assert bound_errors(spec) == [
        (4, 7, "given round is 100,000,000, over the bound of 1,000"),
        (5, 29, "Germans's PUs is 99,999,999,999, over the bound of 1,000,000,000"),
        (7, 15, "play until round is 99,999,999,999, over the bound of 1,000"),
        (8, 7, "play seed is 99,999,999,999,999,999,999, over the bound of 9,223,372,036,854,775,807"),
        (9, 19, "Germans's purchases add up to 1,200 units, over the bound of 1,000"),
        (10, 20, "Germans's placements add up to 1,400 units, over the bound of 1,000"),
        (11, 61, "number of infantry (units of a move) is 5,000, over the bound of 1,000")]


def test_counts_within_the_bounds_are_accepted(tmp_path: Path):
    spec = spec_with(tmp_path, """\
  - id: big-but-fine
    rule: PAY
    given:
      round: 3
      units:
        - {territory: Germany, owner: Germans, add: {infantry: 1000}}
    play: {purchases: {Germans: {infantry: 1000}}, seed: 7}
    expect:
      - no_exception: true
""")
    (scenario,) = load_scenarios(spec).scenarios
    assert scenario.given.units[0].add == {"infantry": 1000}


# --- the JVM's memory and --jobs ----------------------------------------------------------------------------------

@pytest.fixture
def machine(monkeypatch):
    """A machine of the given memory (MiB), without TRIPLEA_GEN_ENGINE_HEAP."""
    monkeypatch.delenv(memory.HEAP_VARIABLE, raising=False)

    def of(mib: int):
        monkeypatch.setattr(memory, "physical_memory_mib", lambda: mib)
    return of


def test_the_heap_is_sized_to_the_machine_and_the_engines_at_once(machine):
    machine(64 * 1024)
    assert memory.engine_heap_mib(1) == memory.HEAP_CEILING_MIB
    assert memory.engine_heap_mib(16) == 64 * 1024 // 2 // 16 - memory.OVERHEAD_MIB - memory.METASPACE_MIB
    machine(4 * 1024)
    assert memory.engine_heap_mib(1) == 2048 - memory.OVERHEAD_MIB - memory.METASPACE_MIB
    assert memory.engine_heap_mib(4) == memory.HEAP_FLOOR_MIB  # never below what Global 1940 needs
    with memory.engines_at_once(4):
        assert memory.heap_options() == (f"-Xmx{memory.HEAP_FLOOR_MIB}m", "-XX:MaxMetaspaceSize=256m",
                                         "-XX:+ExitOnOutOfMemoryError")
    assert memory.concurrent_engines() == 1


def test_the_jobs_fit_the_cores_and_the_memory(machine, monkeypatch):
    machine(4 * 1024)  # 2 GiB for engines: two of 512 + 256 + 256 MiB
    assert memory.jobs_this_machine_runs(cores=16) == 2
    machine(256 * 1024)
    assert memory.jobs_this_machine_runs(cores=16) == 16
    assert memory.jobs_this_machine_runs(cores=2) == 2
    machine(1024)  # too small for even one at the floor: one still runs
    assert memory.jobs_this_machine_runs(cores=2) == 1
    monkeypatch.setenv(memory.HEAP_VARIABLE, "8192")
    machine(32 * 1024)
    assert memory.jobs_this_machine_runs(cores=16) == 1


def test_a_bad_heap_setting_is_refused(monkeypatch, capsys):
    monkeypatch.setenv(memory.HEAP_VARIABLE, "lots")
    with pytest.raises(memory.HeapSettingError, match="whole number of MiB from 128 to 65536, not 'lots'"):
        memory.engine_heap_mib()
    assert main(["test", str(REPO / "rules_yaml" / "s000_nonaggression_pacts.yaml"), "--jobs", "2"]) == 2
    assert "TRIPLEA_GEN_ENGINE_HEAP: error[TG084]" in capsys.readouterr().err


def test_jobs_over_what_the_machine_runs_are_lowered_with_a_warning(tmp_path: Path):
    # Its own process: the spec has a scenario over a bound, so nothing is built or played; the
    # warning about --jobs comes first.
    spec = spec_with(tmp_path, """\
  - id: flood
    rule: PAY
    given: {units: [{territory: Germany, owner: Germans, add: {infantry: 40000000}}]}
    expect:
      - no_exception: true
""")
    done = subprocess.run([sys.executable, "-m", "generator", "test", str(spec), "--jobs", "16", "-o",
                           str(tmp_path / "out")], capture_output=True, text=True, cwd=REPO, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "TRIPLEA_GEN_NO_SERVER": "1"})
    allowed = memory.jobs_this_machine_runs()
    assert allowed < 16
    warning = re.search(r"triplea-gen: warning\[TG211\]: --jobs 16: this machine runs (\d+) games? at a time "
                        r"\((\d+) cores, [\d,]+ MiB of memory, engines of at least 512 MiB heap\); playing \1 at a time",
                        done.stderr)
    assert warning, done.stderr
    assert int(warning.group(1)) == allowed
    assert "error[TG210]" in done.stderr and done.returncode == 2
