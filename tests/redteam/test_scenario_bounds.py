"""Issue #25, item 6: what a scenario gives the engine is bounded.

A scenario whose `given` adds 40,000,000 infantry grew one JVM to 6.4 GB. Every count a scenario
hands the engine (units added, per territory and in all; purchases, placements, moves; rounds,
amounts, the seed) has a bound, refused at its YAML line (TG210) before anything is built.
The JVM's own memory bound: test_engine_memory.py."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO

from generator.cli.main import main
from generator.core.diagnostics import DiagnosticError
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
        - {territory: Berlin Region, owner: Germans, add: {infantry: 40000000}}
    expect:
      - no_exception: true
""")
    assert bound_errors(spec) == [(5, 60, "number of infantry to add is 40,000,000, over the bound of 1,000")]


def test_the_whole_command_refuses_it_with_exit_2_and_nothing_played(tmp_path: Path, capsys):
    spec = spec_with(tmp_path, """\
  - id: flood
    rule: PAY
    given:
      units:
        - {territory: Berlin Region, owner: Germans, add: {infantry: 40000000}}
    expect:
      - no_exception: true
""")
    assert main(["test", str(spec), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert f"bounds.yaml:{HEAD_LINES + 5}:60: error[TG210]: number of infantry to add is 40,000,000, over the " \
           "bound of 1,000" in err
    assert "hint: a scenario sets up a few units" in err
    assert not (tmp_path / "out").exists()


def test_many_changes_add_up_per_territory_and_in_all(tmp_path: Path):
    per_territory = "".join("        - {territory: Berlin Region, owner: Germans, add: {infantry: 900}}\n"
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
        (6, 11, "the given adds 1,800 units to Berlin Region, over the bound of 1,000"),
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
      placements: {Germans: {Berlin Region: {infantry: 700}, Pomerania: {infantry: 700}}}
      moves: {Germans: [{from: Berlin Region, to: Pomerania, units: {infantry: 5000}}]}
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
        (11, 70, "number of infantry (units of a move) is 5,000, over the bound of 1,000")]


def test_counts_within_the_bounds_are_accepted(tmp_path: Path):
    spec = spec_with(tmp_path, """\
  - id: big-but-fine
    rule: PAY
    given:
      round: 3
      units:
        - {territory: Berlin Region, owner: Germans, add: {infantry: 1000}}
    play: {purchases: {Germans: {infantry: 1000}}, seed: 7}
    expect:
      - no_exception: true
""")
    (scenario,) = load_scenarios(spec).scenarios
    assert scenario.given.units[0].add == {"infantry": 1000}


