"""Impossible numbers are reported at their YAML line: an error where the game breaks (a negative
production cost pays the buyer), a warning where both engines load something else than what is
written (an attack below 0 or above the dice sides, a movement no route needs, rolls below 0, a
rule that gives no units); a national objective pays a positive amount. The ranges are catalog
facts (attachments.yaml `sensible:`, gameplay.yaml `production_numbers`)."""
from __future__ import annotations

from pathlib import Path

from conftest import PLAIN_GAME
from generator.catalog import load_catalog
from generator.cli.main import main


def _validate(tmp_path: Path, body: str, capsys) -> tuple[int, list[str], list[str]]:
    """Exit status, standard output and standard error lines of `validate` on a mod of the plain game."""
    spec = tmp_path / "mod.yaml"
    spec.write_text(f"mod:\n  name: Numbers\n  version: \"1.0\"\n  base: {PLAIN_GAME}\n{body}", encoding="utf-8")
    status = main(["validate", str(spec)])
    out = capsys.readouterr()
    return status, *([line.replace(str(spec), "mod.yaml") for line in text.splitlines()] for text in (out.out, out.err))


def test_impossible_unit_numbers_are_warnings_at_their_line(tmp_path: Path, capsys):
    status, out, _ = _validate(tmp_path, """\
change:
  units:
    infantry: {attack: -1, defenseRolls: -2}
    armour: {movement: 300}
    fighter: {attack: 7, defense: 6}
""", capsys)
    assert status == 0
    assert out == [
        "mod.yaml:7:16: warning[TG162]: option 'attack' of UnitAttachment 'unitAttachment' on 'infantry' is -1, "
        "below 0: both engines count it as 0",
        "  hint: write a number from 0 to 6",
        "mod.yaml:7:28: warning[TG162]: option 'defenseRolls' of UnitAttachment 'unitAttachment' on 'infantry' is -2, "
        "below 0: both engines count it as 0 (no die is rolled)",
        "  hint: write 0 or more",
        "mod.yaml:8:14: warning[TG162]: option 'movement' of UnitAttachment 'unitAttachment' on 'armour' is 300, "
        "above the longest route of this map (8 moves at most): no unit needs that many moves here: it means no limit",
        "  hint: write a number from 0 to 8",
        "mod.yaml:9:15: warning[TG162]: option 'attack' of UnitAttachment 'unitAttachment' on 'fighter' is 7, above "
        "the dice sides (6): both engines count it as the dice sides (every die hits)",
        "  hint: write a number from 0 to 6",
        "0 errors, 4 warnings",
    ]


def test_a_negative_production_cost_is_an_error(tmp_path: Path, capsys):
    status, out, _ = _validate(tmp_path, "change:\n  units:\n    armour: {cost: -2}\n", capsys)
    assert status == 1
    assert out == [
        "mod.yaml:7:14: error[TG163]: the cost in PUs of production rule 'buyArmour' is -2, below 0: a purchase adds "
        "it to the buyer instead of taking it: every unit bought pays for itself and more",
        "  hint: write 0 or more",
        "1 error, 0 warnings",
    ]


def test_a_national_objective_pays_a_positive_amount(tmp_path: Path, capsys):
    for amount in (0, -5):
        status, _, err = _validate(tmp_path, f"""\
rules:
  - id: R1
    text: Germany is paid while it holds Warsaw.
    use: national_objective
    with: {{player: Germans, amount: {amount}, owns: [Warsaw]}}
""", capsys)
        assert status == 2
        assert err == [
            f"mod.yaml:9:29: error[TG062]: parameter 'amount' must be 1 or more, not {amount}",
            "  hint: PUs paid each turn the objective holds (a positive number; a loss is national_penalty)"]


def test_the_ranges_live_in_the_catalog():
    unit = load_catalog().classes["UnitAttachment"].options
    assert (unit["attack"].sensible.low, unit["attack"].sensible.high) == (0, "diceSides")
    assert unit["movement"].sensible.high == "routes"
    assert load_catalog().production_numbers["cost"].severity == "error"
