"""`odds`: the engine's battle calculator (1.9's, and 2.x's with engine="current") on typical battles of the units a mod changes, before
and after: armour attacking at 4 instead of 3 wins more often when it attacks and no more often
when it defends; the same seed gives the same figures; nothing to calculate is TG604."""
from __future__ import annotations

import pytest

from generator.balance.odds import changed_units, measure_odds
from generator.balance.variants import spec_variants
from generator.core.diagnostics import DiagnosticError
from tests.conftest import REPO, SHARED, SHARED_MISSING, missing, requires_current_engine, requires_engine

FIXTURES = REPO / "tests" / "fixtures" / "balance"


def test_the_units_a_mod_changes_are_found_with_their_options():
    mod, base = spec_variants(FIXTURES / "hex_strong_armour.yaml", None)
    assert changed_units(mod, base) == {"armour": ["attack"]}


def test_a_mod_that_changes_no_unit_and_no_battle_given_is_tg604():
    mod, base = spec_variants(FIXTURES / "hex_reds_rich.yaml", None)
    with pytest.raises(DiagnosticError) as caught:
        measure_odds(mod, base, [])
    assert caught.value.diagnostics[0].code == "TG604"


@pytest.mark.engine
@requires_engine
def test_a_stronger_attack_wins_more_attacks_and_no_more_defences():
    mod, base = spec_variants(FIXTURES / "hex_strong_armour.yaml", None)
    given = "Reds|Blues|E6|armour=2|infantry=2"
    data = measure_odds(mod, base, [given], seed=3, runs=400)
    attack, defence, mine = data["battles"]
    assert attack["battle"] == "Reds|Blues|Redhold|armour=5|infantry=10" and defence["why"].startswith("armour")
    assert attack["mod"]["attacker_win"] > attack["base"]["attacker_win"]
    assert defence["mod"] == defence["base"]  # armour defends as before: the same dice, the same battles
    assert mine["why"] == "given" and mine["mod"]["runs"] == 400
    assert measure_odds(mod, base, [given], seed=3, runs=400) == data  # repeatable


@pytest.mark.engine_current
@requires_current_engine
def test_the_current_engines_calculator_answers_too_and_repeats_for_a_seed():
    """2.x's own BattleCalculator, single-threaded, its dice seeded (OddsMode.java in current/)."""
    mod, base = spec_variants(FIXTURES / "hex_strong_armour.yaml", None)
    given = "Reds|Blues|E6|armour=2|infantry=2"
    data = measure_odds(mod, base, [given], seed=3, runs=400, engine="current")
    attack, defence, mine = data["battles"]
    assert all("error" not in row[name] for row in data["battles"] for name in ("base", "mod"))
    assert all(row[name]["dice_seeded"] for row in data["battles"] for name in ("base", "mod"))
    assert attack["mod"]["attacker_win"] > attack["base"]["attacker_win"]
    assert defence["mod"] == defence["base"]
    assert mine["mod"]["runs"] == 400
    assert measure_odds(mod, base, [given], seed=3, runs=400, engine="current") == data  # repeatable
    assert measure_odds(mod, base, [given], seed=4, runs=400, engine="current") != data  # the seed matters


@pytest.mark.engine
@requires_engine
def test_a_global_1940_mod_gets_figures_from_1_9_not_a_failed_copy_of_the_game(monkeypatch):
    """1.9's public OddsCalculator copies the game by serialization, which fails on Global 1940
    (NullPointerException in DefaultNamed.equals): the harness hands it the game uncopied."""
    if not (SHARED / "maps").is_dir():
        missing(SHARED_MISSING)
    monkeypatch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    mod, base = spec_variants(REPO / "rules_yaml" / "g40_showcase.yaml", None)
    data = measure_odds(mod, base, [], seed=1, runs=20)
    assert data["battles"] and all("error" not in row[name] for row in data["battles"] for name in ("base", "mod"))
    assert all(row[name]["runs"] == 20 for row in data["battles"] for name in ("base", "mod"))


@pytest.mark.engine
@requires_engine
def test_a_battle_the_calculator_cannot_answer_is_tg605_and_exit_1(capsys):
    from generator.cli.main import main

    status = main(["odds", str(FIXTURES / "hex_strong_armour.yaml"), "--runs", "20",
                   "--battle", "Reds|Blues|Nowhere|armour=2|infantry=2"])
    out, err = capsys.readouterr()
    assert status == 1
    assert "attacker wins" in out  # the typical battles' figures are still printed
    assert "--battle: error[TG605]" in err and "no territory Nowhere" in err and "hint:" in err
