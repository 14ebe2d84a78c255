"""Shared test fixtures: where ../shared is, and skips with a reason when it is absent."""
from __future__ import annotations

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
        return [pytest.param(None, marks=pytest.mark.skip(reason=SHARED_MISSING), id="no-shared")]
    return [pytest.param(path, id=path.name) for path in files]


@pytest.fixture
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip(SHARED_MISSING)
    return SHARED


def engine_available() -> bool:
    from generator.engine.harness import engine_available as harness_engine_available

    return harness_engine_available()


requires_engine = pytest.mark.skipif(not engine_available(), reason=ENGINE_MISSING)


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
requires_current_engine = pytest.mark.skipif(_CURRENT_PROBLEM is not None,
                                             reason=CURRENT_ENGINE_MISSING + str(_CURRENT_PROBLEM))


def build_game(spec: Path, out: Path) -> Path:
    """Build spec into out with the command line; the game XML it wrote."""
    from generator.cli.main import main

    assert main(["build", str(spec), "-o", str(out)]) == 0
    (xml,) = out.glob("*/map/games/*.xml")
    return xml


@pytest.fixture
def previous_build(tmp_path: Path) -> Path:
    """An output folder that already holds a good build of the default example, which bad input
    must leave alone."""
    from generator.cli.main import main

    out = tmp_path / "out"
    assert main(["build", str(REPO / "rules_yaml" / "frontier_1939.yaml"), "-o", str(out)]) == 0
    return out


# Fuzz tests: 2,000+ examples in every run (CI included); override with HYPOTHESIS_PROFILE=quick.
from hypothesis import settings as _hypothesis_settings  # noqa: E402

_hypothesis_settings.register_profile("default", max_examples=1000)
_hypothesis_settings.register_profile("quick", max_examples=50)
_hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


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
