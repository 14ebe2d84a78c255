"""The cyclic collector is paused while a large input is parsed, and always restored."""
from __future__ import annotations

import gc

import pytest

from generator.core.gcpause import collector_paused


def test_paused_within_and_restored_after_also_on_error():
    assert gc.isenabled()
    with pytest.raises(ValueError):
        with collector_paused():
            assert not gc.isenabled()
            raise ValueError
    assert gc.isenabled()


def test_nested_pauses_keep_the_outer_state():
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_caller_that_disabled_collection_keeps_it_disabled():
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
