"""Shared test fixtures: where ../shared is, and the test tiers.

Tiers are markers: `shared` (needs ../shared), `engine` (plays games on TripleA 1.9), `engine_current`
(on TripleA 2.x). A test gets them from its decorators (requires_shared, requires_engine,
requires_current_engine) or from the fixtures it uses (a fixture decorated with @tier("engine") passes
its tier to every test that uses it, however indirectly). A test of a tier whose needs are missing is
skipped with the reason, or fails when TRIPLEA_GEN_REQUIRE_SHARED=1 (CI: nothing may be skipped for a
missing ../shared or engine). A test outside the engine tiers that starts a JVM fails at once, so
`-m "not engine and not engine_current"` plays no game."""
from __future__ import annotations

import inspect
import os
from pathlib import Path

import pytest

from generator.engine.install import engine_jar

REPO = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("TRIPLEA_GEN_SHARED", REPO.parent / "shared"))
CORPUS_DIR = SHARED / "corpus" / "xml"
GLOBAL_MAP_DIR = SHARED / "maps" / "world_war_ii_global"
GLOBAL_GAMES_DIR = GLOBAL_MAP_DIR / "map" / "games"
# A small game without map geometry (Frontier 1939 before it got its map): what the tests that
# edit a game's text, and the rule-macro goldens, start from.
PLAIN_GAME = REPO / "tests" / "fixtures" / "plain_game" / "frontier_1939.yaml"
ENGINE_JAR = engine_jar()  # where the engine is installed ($TRIPLEA_JAR, else Debian's place)

SHARED_MISSING = "../shared (corpus and maps) is not present next to the repo; CI has it"
# CI sets it: a test that would be skipped because ../shared or an engine is missing fails instead.
REQUIRE_SHARED = os.environ.get("TRIPLEA_GEN_REQUIRE_SHARED") == "1"
ENGINE_TIERS = ("engine", "engine_current")
ENGINE_MISSING = "the TripleA 1.9 engine is not installed (apt-get install triplea); CI installs it"


def corpus_xmls() -> list[Path]:
    """Every real game XML we test against: the corpus and the Global 1940 games."""
    if not SHARED.is_dir():
        return []
    return sorted(CORPUS_DIR.glob("*.xml")) + sorted(GLOBAL_GAMES_DIR.glob("*.xml"))


def xml_params():
    """pytest params, one per real XML, or a single skipped param when ../shared is absent."""
    files = corpus_xmls()
    if not files:
        return [pytest.param(None, marks=requires_shared, id="no-shared")]
    return [pytest.param(path, id=path.name) for path in files]


def missing(reason: str) -> None:
    """In a test or fixture body: skip for something ../shared or an engine should have given, or
    fail under TRIPLEA_GEN_REQUIRE_SHARED=1."""
    if REQUIRE_SHARED:
        pytest.fail(f"TRIPLEA_GEN_REQUIRE_SHARED=1: {reason}", pytrace=False)
    pytest.skip(reason)


def tier(name: str):
    """Marks a fixture as needing a tier (shared, engine, engine_current): every test using it gets
    the marker. Put it under @pytest.fixture."""
    def mark(function):
        function.triplea_tiers = (*getattr(function, "triplea_tiers", ()), name)
        return function
    return mark


requires_shared = pytest.mark.shared


@pytest.fixture
@tier("shared")
def shared_dir() -> Path:
    return SHARED


def engine_available() -> bool:
    from generator.engine.harness import engine_available as harness_engine_available

    return harness_engine_available()


# A marker: the collection hook below skips (or fails) the test when the engine is missing.
requires_engine = pytest.mark.engine


def _shared_current_engine() -> None:
    """Tests only (never the tool): without TRIPLEA_CURRENT_HOME, the TripleA 2.x engine that
    ../shared/engines/ holds, as CI has it."""
    if os.environ.get("TRIPLEA_CURRENT_HOME"):
        return
    installs = sorted(path for path in (SHARED / "engines").glob("triplea-*") if (path / ".triplea-root").is_file())
    if installs:
        os.environ["TRIPLEA_CURRENT_HOME"] = str(installs[-1])


_shared_current_engine()
CURRENT_ENGINE_MISSING = ("TripleA 2.x cannot run here (TRIPLEA_CURRENT_HOME, ../shared/engines/triplea-*, and "
                          "Java 25 from pip install '.[engine]' plus ecj); CI has all three: ")


def current_engine_problem() -> str | None:
    from generator.engine.engines import engine_problem_named

    return engine_problem_named("current")


_CURRENT_PROBLEM = current_engine_problem()
requires_current_engine = pytest.mark.engine_current


def build_game(spec: Path, out: Path) -> Path:
    """Build spec into out with the command line; the game XML it wrote."""
    from generator.cli.main import main

    assert main(["build", str(spec), "-o", str(out)]) == 0
    (xml,) = out.glob("*/map/games/*.xml")
    return xml


@pytest.fixture(autouse=True)
def _each_test_a_new_process():
    """What a warm process keeps (watch, the build server, a test that stands for one) ends with its
    test: the next test builds as a new process does, as the commands it calls would."""
    yield
    from generator.builder.compiler import forget_warm_state

    forget_warm_state()


@pytest.fixture
def previous_build(tmp_path: Path) -> Path:
    """An output folder that already holds a good build of the default example, which bad input
    must leave alone."""
    from generator.cli.main import main

    out = tmp_path / "out"
    assert main(["build", str(REPO / "rules_yaml" / "frontier_1939.yaml"), "-o", str(out)]) == 0
    return out


# Fuzz tests: HYPOTHESIS_PROFILE=ci (.ci/run: 1,000 examples a test, no deadline: a shared CI
# machine is slow at times) or dev (the default: 100 examples, quick to run while editing); quick
# is kept as a name for dev.
from hypothesis import settings as _hypothesis_settings  # noqa: E402

_hypothesis_settings.register_profile("ci", max_examples=1000, deadline=None, print_blob=True)
_hypothesis_settings.register_profile("dev", max_examples=100)
_hypothesis_settings.register_profile("quick", max_examples=50)
_hypothesis_settings.register_profile("default", max_examples=1000)  # the old name of ci's count
_hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


# ---------------------------------------------------------------- tiers

def _missing_for(tiers: set[str]) -> str | None:
    if "shared" in tiers and not SHARED.is_dir():
        return SHARED_MISSING
    if "engine" in tiers and not engine_available():
        return ENGINE_MISSING
    if "engine_current" in tiers and _CURRENT_PROBLEM is not None:
        return CURRENT_ENGINE_MISSING + str(_CURRENT_PROBLEM)
    return None


def fixture_tiers(item) -> set[str]:
    """The tiers the fixtures of a test (all it uses, however indirectly) are marked with."""
    found = set()
    info = getattr(item, "_fixtureinfo", None)
    for definitions in (info.name2fixturedefs.values() if info else ()):
        for definition in definitions:
            function = inspect.unwrap(definition.func)
            found.update(getattr(function, "triplea_tiers", ()))
    return found


def pytest_collection_modifyitems(config, items):
    for item in items:
        for name in sorted(fixture_tiers(item) - {m.name for m in item.iter_markers()}):
            item.add_marker(getattr(pytest.mark, name))
        reason = _missing_for({m.name for m in item.iter_markers()})
        if reason is None:
            continue
        if REQUIRE_SHARED:
            item.stash[_REQUIRED_BUT_MISSING] = reason
        else:
            item.add_marker(pytest.mark.skip(reason=reason))


_REQUIRED_BUT_MISSING = pytest.StashKey[str]()


class _Guard:
    """Whether the test being set up or run may start a JVM (engine tiers only)."""

    allowed = True  # collection and session set-up are not guarded
    test = ""


def pytest_runtest_setup(item):
    reason = item.stash.get(_REQUIRED_BUT_MISSING, None)
    if reason is not None:
        pytest.fail(f"TRIPLEA_GEN_REQUIRE_SHARED=1: {reason}", pytrace=False)
    _Guard.allowed = any(item.get_closest_marker(name) for name in ENGINE_TIERS)
    _Guard.test = item.nodeid


def _is_jvm(command) -> bool:
    return any(Path(str(part)).name in ("java", "java.exe") for part in command)


def _refuse_unmarked(command) -> None:
    if not _Guard.allowed and _is_jvm(command):
        pytest.fail(f"{_Guard.test} starts a JVM but has no engine or engine_current marker: mark it "
                    f"(requires_engine, requires_current_engine) or the fixture that plays (@tier)", pytrace=False)


def _guard_engine_starts() -> None:
    from generator.engine import lifecycle

    start_group, register_group = lifecycle.start_group, lifecycle.register_group

    def guarded_start(command, **popen):
        _refuse_unmarked(command)
        return start_group(command, **popen)

    def guarded_register(process):
        if not _Guard.allowed and _is_jvm(process.args):
            process.kill()
            process.wait()
        _refuse_unmarked(process.args)
        return register_group(process)

    lifecycle.start_group, lifecycle.register_group = guarded_start, guarded_register


_guard_engine_starts()


def pytest_report_header(config):
    from fuzzseed import replay_hint

    return replay_hint()  # in every run's log, so a randomised failure can be replayed


def pytest_unconfigure(config):
    """A test that leaves a non-daemon thread running would keep this process alive after the
    summary, and CI would only see a timeout. Name the threads and end the run as failed instead."""
    import sys
    import threading

    stuck = [t.name for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon and t.is_alive()]
    if stuck:
        print(f"\ntests left non-daemon threads running: {', '.join(stuck)}", file=sys.stderr, flush=True)
        os._exit(3)
