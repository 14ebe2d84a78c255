"""The test tiers of tests/conftest.py: markers taken from fixtures, the JVM guard of the tiers without
an engine, and TRIPLEA_GEN_REQUIRE_SHARED turning "missing" skips into failures."""
from __future__ import annotations

import os
import subprocess
import sys
from types import SimpleNamespace

import pytest

import conftest
from conftest import REPO


def _item_using(*functions):
    definitions = {f.__name__: [SimpleNamespace(func=f)] for f in functions}
    return SimpleNamespace(_fixtureinfo=SimpleNamespace(name2fixturedefs=definitions))


def test_a_fixture_passes_its_tier_to_the_tests_using_it():
    @conftest.tier("engine")
    def played():
        pass

    @conftest.tier("shared")
    def base_game():
        pass

    def plain():
        pass

    assert conftest.fixture_tiers(_item_using(played, base_game, plain)) == {"engine", "shared"}
    assert conftest.fixture_tiers(_item_using(plain)) == set()


def test_a_test_outside_the_engine_tiers_may_not_start_a_jvm(monkeypatch):
    monkeypatch.setattr(conftest._Guard, "allowed", False)
    with pytest.raises(pytest.fail.Exception, match="no engine or engine_current marker"):
        conftest._refuse_unmarked(["/usr/lib/jvm/bin/java", "-cp", "x", "Main"])
    with pytest.raises(pytest.fail.Exception):
        conftest._refuse_unmarked(["xvfb-run", "-a", "java", "Main"])
    conftest._refuse_unmarked(["sleep", "1"])  # other processes are no engine
    monkeypatch.setattr(conftest._Guard, "allowed", True)
    conftest._refuse_unmarked(["java", "Main"])


def _pytest(node: str, *, shared, require: bool, extra=()) -> str:
    env = dict(os.environ, TRIPLEA_GEN_SHARED=str(shared), PYTHONPATH=str(REPO))
    env.pop("TRIPLEA_GEN_REQUIRE_SHARED", None)
    if require:
        env["TRIPLEA_GEN_REQUIRE_SHARED"] = "1"
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", node, *extra],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    return done.stdout.splitlines()[-1] if done.stdout else done.stderr


def test_a_missing_shared_is_skipped_or_under_the_ci_switch_fails(tmp_path):
    node = "tests/check/test_validate.py::test_victory_key_missing_from_the_map_folder"
    assert "1 skipped" in _pytest(node, shared=tmp_path / "absent", require=False)
    required = _pytest(node, shared=tmp_path / "absent", require=True)
    assert "1 error" in required or "1 failed" in required, required  # set-up fails: an error of the run


def test_a_corpus_pair_missing_from_a_present_shared_fails(tmp_path):
    (tmp_path / "corpus" / "xml").mkdir(parents=True)
    last = _pytest("tests/builder/test_extract.py", shared=tmp_path, require=False,
                   extra=("-k", "ww2v3_1942_test-from-ww2v3_1941_test"))
    assert "1 failed" in last, last
