"""The 1.9 engine never fires a trigger that has no conditions: the validator warns about it
(TG156), and triggers that macros generate always get a condition that holds."""
from __future__ import annotations

from pathlib import Path

from lxml import etree

from conftest import REPO, requires_engine
from textedit import replaced
from generator.cli.main import main

EXAMPLE = REPO / "rules_yaml" / "frontier_1939.yaml"


def _without_condition(tmp_path: Path) -> Path:
    text = replaced(EXAMPLE.read_text(), "      conditions: conditionAttachment_Russians_First_Round\n", "")
    spec = tmp_path / "no_condition.yaml"
    spec.write_text(text)
    assert main(["build", str(spec), "-o", str(tmp_path / "out"), "--engine", "current"]) == 0
    return tmp_path / "out" / "frontier_1939" / "map" / "games" / "no_condition.xml"


def test_validator_warns_for_19_only(tmp_path, capsys):
    xml = _without_condition(tmp_path)
    capsys.readouterr()
    assert main(["validate", str(xml), "--engine", "1.9"]) == 0
    out = capsys.readouterr().out
    assert ("warning[TG156]: trigger 'triggerAttachment_Russians_Mobilisation' has no conditions: the 1.9 engine "
            "never fires it") in out
    assert main(["validate", str(xml), "--engine", "current"]) == 0
    assert "TG156" not in capsys.readouterr().out


@requires_engine
def test_the_engine_indeed_never_fires_it(tmp_path):
    from generator.engine.harness import play_game

    report = play_game(_without_condition(tmp_path), rounds=2, seed=3)
    assert report.exceptions == [] and report.rounds_completed == 2
    assert report.fired == []


def test_a_macro_trigger_without_conditions_gets_one_that_holds(tmp_path):
    spec = tmp_path / "mod.yaml"
    spec.write_text(f"mod:\n  name: M\n  base: {EXAMPLE}\nrules:\n  - id: R1\n    text: Italy pays Germany 2 PUs "
                    "in round 2.\n    use: round_payment\n    with: {payer: Italians, payee: Germans, amount: 2, "
                    "rounds: '2'}\n")
    from generator.builder.pipeline import load_spec

    loaded = load_spec(spec)
    triggers = [a for a in loaded.game.attachments if a.class_name == "TriggerAttachment"
                and a.name.startswith("triggerAttachment_R1")]
    assert triggers and all(any(o.name == "conditions" for o in t.options) for t in triggers)
    mod2 = tmp_path / "mod2.yaml"
    mod2.write_text(f"mod:\n  name: M\n  base: {EXAMPLE}\nrules:\n  - id: R2\n    text: Germany gets 1 PU "
                    "before each purchase.\n    use: free_placement\n    with: {player: Germans, territory: "
                    "Berlin Region, units: {infantry: 1}, only_if_held: false}\n")
    assert main(["build", str(mod2), "-o", str(tmp_path / "out2")]) == 0
    root = etree.parse(str(next((tmp_path / "out2").rglob("mod2.xml")))).getroot()
    for trigger in root.iter("attachment"):
        if trigger.get("javaClass", "").endswith("TriggerAttachment") and trigger.get("name").startswith(
                "triggerAttachment_R2"):
            conditions = [o.get("value") for o in trigger if o.get("name") == "conditions"]
            assert conditions == ["conditionAttachment_Always_True"], etree.tostring(trigger)
    always = root.find("attachmentList/attachment[@name='conditionAttachment_Always_True']")
    assert [(o.get("name"), o.get("value")) for o in always] == [("rounds", "1-+")]
