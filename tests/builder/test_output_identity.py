"""Every example spec and corpus XML gives the outputs recorded in tests/golden/output_identity.json.

The manifest was recorded on purpose with `python3 tests/output_identity.py record` (never by this
test); a change of output shows here case by case, with the outputs that moved."""
from __future__ import annotations

import json

import pytest

import output_identity
from conftest import SHARED, requires_shared

RECORDED = json.loads(output_identity.MANIFEST.read_text(encoding="utf-8"))


def _cases():
    if not SHARED.is_dir():
        return [pytest.param(None, marks=requires_shared, id="no-shared")]
    return output_identity.cases()


@requires_shared
def test_every_case_is_recorded():
    assert sorted(output_identity.cases()) == sorted(RECORDED)


@pytest.mark.parametrize("case", _cases())
def test_outputs_are_as_recorded(case):
    changed = output_identity.differences(RECORDED[case], output_identity.outputs(case))
    assert not changed, f"{case} differs:\n" + output_identity.explained(case, changed)


def test_a_difference_shows_the_changed_lines():
    before = (0, "".join(f"<territory name=\"T{n}\"/>\n" for n in range(500)).encode())
    after = (1, before[1].replace(b'"T7"', b'"T7x"'))
    shown = output_identity.text_difference("build/game.xml", before, after)
    assert "exit status 0 -> 1" in shown
    assert '-<territory name="T7"/>' in shown and '+<territory name="T7x"/>' in shown
    assert "T400" not in shown  # only the lines around the change


def test_a_long_difference_is_cut():
    before = (None, "".join(f"line {n}\n" for n in range(500)).encode())
    after = (None, "".join(f"line {n}!\n" for n in range(500)).encode())
    shown = output_identity.text_difference("report", before, after)
    assert len(shown.splitlines()) <= output_identity.MAX_DIFF_LINES + 2
    assert "more diff lines" in shown


def test_the_recorded_hashes_are_made_as_before():
    """The manifest's format is kept: an output with an exit status is 'STATUS SHA', a file its SHA."""
    case = next(c for c in RECORDED if c.startswith("spec:"))
    assert set(RECORDED[case]["report"].split(" ")[0]) <= set("0123456789")
    assert len(RECORDED[case]["build text"]) == 64 and RECORDED[case]["build status"] in ("0", "1", "2")
