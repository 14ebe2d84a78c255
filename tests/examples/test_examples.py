"""Every example in rules_yaml/ builds, validates clean for the engine it targets,
loads in the real engine's parser and plays 2 rounds with the easy AI."""
from __future__ import annotations

from pathlib import Path

import pytest

from conftest import GLOBAL_MAP_DIR, REPO, SHARED, SHARED_MISSING, build_game, missing, requires_engine
from generator.cli.main import main
from generator.read.yamlio import load_yaml_file

EXAMPLES = sorted((REPO / "rules_yaml").glob("*.yaml"))


def _needs_shared(spec: Path) -> bool:
    data = load_yaml_file(spec)
    return isinstance(data, dict) and "mod" in data


@pytest.fixture(scope="module", params=EXAMPLES, ids=[p.stem for p in EXAMPLES])
def built_example(request, tmp_path_factory) -> tuple[Path, Path]:
    """Each example built once for all the tests of this module."""
    spec = request.param
    with pytest.MonkeyPatch.context() as patch:
        if _needs_shared(spec):
            if not SHARED.is_dir():
                missing(SHARED_MISSING)
            patch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
        out = tmp_path_factory.mktemp(spec.stem)
        yield spec, build_game(spec, out)


@pytest.mark.parametrize("engine", ["1.9", "current"])
def test_example_validates_clean(built_example, engine, capsys):
    _, xml = built_example
    capsys.readouterr()
    assert main(["validate", str(xml), "--engine", engine]) == 0
    assert " error[" not in capsys.readouterr().out


@requires_engine
def test_example_loads_and_plays_two_rounds(built_example):
    from generator.engine.harness import check_games, play_game

    spec, xml = built_example
    (verdict,) = check_games([xml])
    assert verdict.ok, verdict.error
    map_dir = xml.parent.parent.parent
    report = play_game(xml, rounds=2, ai="easy", seed=1, map_dir=map_dir)
    assert report.exceptions == [], report.exceptions
    assert report.rounds_completed == 2 or report.winners, report.stopped_by


@requires_engine
def test_default_example_trigger_fires_in_round_one(tmp_path):
    from generator.engine.harness import play_game

    assert main(["build", str(REPO / "rules_yaml" / "frontier_1939.yaml"), "-o", str(tmp_path)]) == 0
    report = play_game(tmp_path / "frontier_1939" / "map" / "games" / "frontier_1939.xml", rounds=2, seed=3)
    fired = [(f["trigger"], f["round"], f["step"]) for f in report.fired]
    assert ("triggerAttachment_Russians_Mobilisation", 1, "russiansPurchase") in fired
    assert [f for f in fired if f[0] == "triggerAttachment_Russians_Mobilisation"] == [
        ("triggerAttachment_Russians_Mobilisation", 1, "russiansPurchase")]  # uses: 1


# --- README's table of the rule documents ---------------------------------------------------------------------

def _readme_rule_counts() -> dict[str, tuple[int, int, int, int]]:
    """`| \\`s00N_....yaml\\` | what | total (enforced / partial / notes) |` rows of README's table."""
    import re

    rows = re.findall(r"^\| `(s\d{3}_\w+)\.yaml` \| .* \| (\d+) \((\d+) / (\d+) / (\d+)\) \|$",
                      (REPO / "README.md").read_text(encoding="utf-8"), re.M)
    return {name: tuple(int(n) for n in numbers) for name, *numbers in rows}


def test_readme_lists_every_rule_document():
    documents = sorted(p.stem for p in (REPO / "rules_yaml").glob("s0*.yaml"))
    assert sorted(_readme_rule_counts()) == documents


@pytest.mark.parametrize("name", sorted(p.stem for p in (REPO / "rules_yaml").glob("s0*.yaml")))
def test_readme_rule_counts_match_the_spec(name, monkeypatch):
    """A relabelled rule changes these counts; the README must say what `report` says."""
    from generator.builder.pipeline import load_spec
    from generator.write.notes import status_counts

    spec = REPO / "rules_yaml" / f"{name}.yaml"
    if "base: {map: world_war_ii_global" in spec.read_text(encoding="utf-8"):
        if not GLOBAL_MAP_DIR.is_dir():
            missing(SHARED_MISSING)
        monkeypatch.setenv("TRIPLEA_MAPS", str(GLOBAL_MAP_DIR.parent))
    loaded = load_spec(spec)
    counts = status_counts(loaded.rules)
    found = (len(loaded.rules), counts["enforced"], counts["partial"], counts["notes"])
    assert _readme_rule_counts()[name] == found
