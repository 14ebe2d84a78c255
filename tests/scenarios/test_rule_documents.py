"""Every scenario of the example specs, played in the real engine with its control, in both engines
(Debian's 1.9 and TripleA 2.x; a scenario whose engines: names one is played in that one only): each passes,
and each control fails (the rule it backs is what makes it pass); a rule that restates the game
(control: same-game) builds the same game without it. A macro change that stops a rule
from working, or makes it work without the rule, fails here."""
from __future__ import annotations

import json

import pytest
from conftest import GLOBAL_MAP_DIR, REPO, SHARED_MISSING, missing, requires_current_engine, requires_engine

from generator.cli.main import main

SPECS = sorted(p for p in (REPO / "rules_yaml").glob("*.yaml") if "\nscenarios:" in p.read_text(encoding="utf-8"))


ENGINES = [pytest.param("1.9", marks=[pytest.mark.engine, requires_engine], id="1.9"),
           pytest.param("current", marks=[pytest.mark.engine_current, requires_current_engine], id="current")]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("spec", SPECS, ids=[p.stem for p in SPECS])
def test_every_scenario_passes_and_every_control_fails(spec, engine, tmp_path, monkeypatch, capsys):
    if "base: {map: world_war_ii_global" in spec.read_text(encoding="utf-8"):
        if not GLOBAL_MAP_DIR.is_dir():
            missing(SHARED_MISSING)
        monkeypatch.setenv("TRIPLEA_MAPS", str(GLOBAL_MAP_DIR.parent))
    status = main(["test", str(spec), "-o", str(tmp_path), "--format", "json", "--engine", engine])
    document = json.loads(capsys.readouterr().out)
    wrong = [f"{r['id']}: " + ("passes, but its control passes too or could not be played" if r["passed"] and
                               r["control"] is not None else
                               "passes, but without its rule the game is not the same: " + "; ".join(r["differences"])
                               if r["passed"] else
                               "; ".join(e["evidence"] for e in r["run"]["expectations"] if not e["passed"])
                               or r["run"]["error"])
             for r in document["scenarios"] if not r["passed"] or (r["control"] is not None and not r["backed"])
             or r.get("differences")]
    assert not wrong and status == 0, "\n".join(wrong)
