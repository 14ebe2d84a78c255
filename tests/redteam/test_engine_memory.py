"""Issue #25, item 6: every engine JVM's memory is bounded, and so is --jobs.

A JVM had Java's default heap (a quarter of the machine's memory) and `--jobs` accepted 16 of
them. Now every JVM has a heap limit sized to the machine and to the engines running at once
(never below what Global 1940 needs), `--jobs` is lowered to what the machine runs (TG211), and a
game that does not fit stops the JVM at once with TG083 (tests/engine/test_engine_lifecycle.py
plays one; every java command's limit is checked there too)."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from generator.cli.main import main
from generator.engine import memory

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


def spec_with(folder: Path, scenarios: str) -> Path:
    spec = folder / "bounds.yaml"
    spec.write_text(HEAD + scenarios, encoding="utf-8")
    return spec


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


def test_under_an_address_space_limit_the_heap_takes_half_of_it(machine, monkeypatch):
    # A build server's worker runs `build --engine-check` under its --job-memory limit, which the
    # JVM inherits: everything it reserves must fit inside.
    machine(64 * 1024)
    monkeypatch.setattr(memory, "_address_space_limit_mib", lambda: 4096)
    assert memory.engine_heap_mib(1) == 2048
    monkeypatch.setattr(memory, "_address_space_limit_mib", lambda: 1536)
    assert memory.engine_heap_mib(1) == 768


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
    given: {units: [{territory: Berlin Region, owner: Germans, add: {infantry: 40000000}}]}
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
