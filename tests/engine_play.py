"""Playing a built game in the real engine for tests: it must load in the engine's parser and
then play its rounds with the easy AI without any exception."""
from __future__ import annotations

from pathlib import Path


def load_and_play(xml: Path, rounds: int = 2, seed: int = 1, map_dir: Path | None = None):
    """The engine's play report (generator.engine.harness.PlayReport)."""
    from generator.engine.harness import check_games, play_game

    (verdict,) = check_games([xml])
    assert verdict.ok, verdict.error
    report = play_game(xml, rounds=rounds, ai="easy", seed=seed, map_dir=map_dir)
    assert report.exceptions == [], report.exceptions
    assert report.rounds_completed == rounds, report.stopped_by
    return report


def when_fired(report, trigger: str) -> list[tuple[int, str]]:
    """(round, step) of every firing of a trigger."""
    return [(entry["round"], entry["step"]) for entry in report.fired if entry["trigger"] == trigger]


def player(report, name: str) -> dict:
    """A player's state at the end of the game: resources, territories, units."""
    return next(state for state in report.players if state["name"] == name)


def air_removed_before_battle(report, xml: Path) -> list[dict]:
    """Aircraft the engine removed as unable to land in a step between a combat move and the battle
    step after it: an inserted step there must never change the turn it sits in."""
    from lxml import etree

    mid_turn, between = set(), False
    for step in etree.parse(str(xml)).getroot().iterfind("gamePlay/sequence/step"):
        name = step.get("name")
        if name.endswith("CombatMove") and not name.endswith("NonCombatMove"):
            between = True
        elif name.endswith("Battle"):
            between = False
        elif between:
            mid_turn.add(name)
    return [entry for entry in report.air_removed if entry["step"] in mid_turn]


def play_to_victory(xml: Path, rounds: int, seed: int, map_dir: Path):
    """Play up to `rounds` rounds with the easy AI; the game must end with a winner on the way
    (a victory trigger or victory-city check signalled game over), without any exception."""
    from generator.engine.harness import play_game

    report = play_game(xml, rounds=rounds, ai="easy", seed=seed, map_dir=map_dir)
    assert report.exceptions == [], report.exceptions
    assert report.stopped_by == "game over", f"no winner in {report.rounds_completed} rounds ({report.stopped_by})"
    assert report.winners, "game over without a named winner"
    return report
