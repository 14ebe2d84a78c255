"""A mod answers for what it changes and adds: the base game's own warnings (an untouched Global
1940 has 18) are one note line, not counted by `validate --strict`; a warning the mod causes at a
base element is the mod's, in full."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import GLOBAL_GAMES_DIR, GLOBAL_MAP_DIR, tier
from generator.cli.main import main

BASE = GLOBAL_GAMES_DIR / "ww2global40_2nd_edition.xml"
HEADER = """\
mod:
  name: One Line
  version: "1.0"
  base: {map: world_war_ii_global, game: ww2global40_2nd_edition.xml}
"""


@pytest.fixture
@tier("shared")
def g40(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("TRIPLEA_MAPS", str(GLOBAL_MAP_DIR.parent))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _note(count: int) -> str:
    base = str(BASE)
    return (f"note: {count} warning(s) come from the base game {base} itself and are not counted against the mod; "
            f"'triplea-gen validate {base}' lists them")


def test_a_one_line_mod_of_global_1940_is_clean_under_strict(g40: Path, capsys):
    (g40 / "mod.yaml").write_text(HEADER + "change:\n  units:\n    cruiser: {cost: 11}\n", encoding="utf-8")
    assert main(["validate", "--strict", "mod.yaml"]) == 0
    assert capsys.readouterr().out.splitlines() == ["0 errors, 0 warnings", _note(18)]
    assert main(["validate", "--format", "json", "mod.yaml"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["warnings"] == 0 and report["diagnostics"] == []
    assert report["base_game_warnings"]["count"] == 18


def test_a_warning_the_mod_causes_at_a_base_element_is_the_mods(g40: Path, capsys):
    # The trigger was the only user of its condition: the condition is now unused because of the mod.
    (g40 / "mod.yaml").write_text(HEADER + "remove:\n  attachments: [{name: triggerAttachment_Germans_Improved_"
                                  "Mech_Inf, attachTo: Germans}]\n", encoding="utf-8")
    assert main(["validate", "--strict", "mod.yaml"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert "warning[TG160]: condition 'conditionAttachment_Germans_Improved_Mech_Inf' is never used" in out[0]
    assert out[-2:] == ["0 errors, 1 warning", _note(18)]


def test_the_base_game_validated_itself_lists_its_warnings(g40: Path, capsys):
    assert main(["validate", str(BASE)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "0 errors, 18 warnings"


def test_build_prints_the_same_note(g40: Path, capsys):
    (g40 / "mod.yaml").write_text(HEADER + "change:\n  units:\n    cruiser: {cost: 11}\n", encoding="utf-8")
    assert main(["build", "mod.yaml", "-o", "out"]) == 0
    assert capsys.readouterr().err.splitlines() == [_note(18)]
