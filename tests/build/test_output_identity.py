"""Every example spec and corpus XML gives the outputs recorded in tests/golden/output_identity.json.

The manifest was recorded on purpose with `python3 tests/output_identity.py record` (never by this
test); a change of output shows here case by case, with the outputs that moved."""
from __future__ import annotations

import json

import pytest

import output_identity
from conftest import SHARED, SHARED_MISSING

RECORDED = json.loads(output_identity.MANIFEST.read_text(encoding="utf-8"))


def _cases():
    if not SHARED.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(reason=SHARED_MISSING), id="no-shared")]
    return output_identity.cases()


def test_every_case_is_recorded():
    if not SHARED.is_dir():
        pytest.skip(SHARED_MISSING)
    assert sorted(output_identity.cases()) == sorted(RECORDED)


@pytest.mark.parametrize("case", _cases())
def test_outputs_are_as_recorded(case):
    changed = output_identity.differences(RECORDED[case], output_identity.outputs(case))
    assert not changed, f"{case} differs:\n" + "\n".join(changed)
