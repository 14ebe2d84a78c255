"""One schema for the harness's JSON (issue 28): harness-records.schema.json declares every record
the Java harness prints, and records.read_output reads every report through it. Here: the schema
is valid JSON Schema, records.py's own reader agrees with jsonschema (the reference) on good and
broken records, and a report that matches no record is TG093 naming each record tried and where
it differs. tests/engine/test_java_compiles.py runs every mode in both engines through the reader."""
from __future__ import annotations

import copy
import re

import jsonschema
import pytest

from generator.core.diagnostics import DiagnosticError
from generator.engine import records

CHECK = {"results": [{"path": "g.xml", "ok": True, "error": None, "warnings": [],
                      "counts": {"territories": 4, "players": 2, "unit_types": 2, "attachments": 8, "triggers": 1,
                                 "steps": 14}},
                     {"path": "h.xml", "ok": False, "counts": None, "error": "no such player", "warnings": ["line 1"]}]}
PLAY = {"path": "g.xml", "ai": "easy", "seed": 3, "map_dir": None, "rounds_requested": 2, "time_limit_seconds": 600.0,
        "ok": True, "game": "Two", "stopped_by": "rounds", "start_round": 1, "rounds_completed": 2, "steps_run": 28,
        "last_step": "redsPurchase", "ai_randomness_seeded": True, "round_seconds": [0.5, 0.25],
        "slowest_steps": [{"round": 1, "step": "redsBattle", "player": "Reds", "seconds": 0.1}], "total_seconds": 1.5,
        "exceptions": [{"kind": "fatal", "type": "java.lang.X", "message": "m", "round": 1, "step": "s", "at": ["a"],
                        "cause_at": ["b"], "engine_defect": None}],
        "console_warnings": {"DTD": 2}, "missing_images": [], "script_notes": ["Reds was not offered x"],
        "messages": [{"kind": "to all", "title": "t", "text": "x", "to": [], "not_to": [], "round": 1, "step": "s"}],
        "fired": [{"trigger": "triggerAttachmentX", "round": 1, "step": "s", "event": "Trigger X: ..."}],
        "air_removed": [], "winners": None,
        "players": [{"name": "Reds", "resources": {"PUs": 5}, "territories": 2, "units": {"infantry": 3},
                     "unplaced_units": {}}],
        "territories": {"Redland": {"owner": "Reds", "units": {"Reds": {"infantry": 3}}}},
        "relationships": [["Reds", "Blues", "war"]], "switches": {"conditionAttachmentX": True},
        "history": [{"round": 1, "step": "s", "event": "e"}],
        "round_stats": [{"round": 1, "complete": True, "players": {"Reds": {
            "pus": 5, "income": 5, "territories": 2, "production": 4, "units": {"infantry": 3}, "battles": 0,
            "lost_value": 0}}}]}
ODDS = {"ok": True, "battles": [{"battle": "Reds|Blues|E6|armour=2|", "dice_seeded": True, "runs": 50,
                                 "attacker_win": 0.5, "defender_win": 0.5, "draw": 0, "rounds": 1.5,
                                 "attackers_left": {"armour": 0.5}, "defenders_left": {}},
                                {"battle": "x", "error": "a battle is ATTACKER|DEFENDER|TERRITORY|UNITS|UNITS"}]}
# the desktop client's side: 1.9's play with --screenshot, 2.x's `engine gui` (ClientGui.java)
CLIENT = {"windows": ["TripleAFrame: Two"], "frame_title": "Two", "centred_on": "Redland", "screenshot": "shot.png",
          "screen": [1600, 1000], "map_panel": [0, 40, 1200, 900], "battle_windows_closed": ["JDialog: Battle"],
          "tiles_wait_seconds": 1.5}
GUI = {"path": "g.xml", "ai": "easy", "map_dir": "m", "rounds_requested": 1, "ok": True, "game": "Two",
       "stopped_by": "rounds", "rounds_completed": 1, "total_seconds": 9.5, "exceptions": [], "warnings_shown": [],
       "game_stops": [], "missing_images": [], "placeholder_resources": ["Coal"], "messages": [], "client": CLIENT}
TEXTS = {"answers": [{"ask": "politics:x", "button": "B", "description": None}, {"ask": "unit:Reds:tank", "image": None}]}
GOOD = {"check": CHECK, "play": PLAY, "odds": ODDS, "texts": TEXTS}


def _reference(mode: str, value) -> list[str]:
    """The records of mode's outputs that jsonschema finds value to match."""
    schema = records.schema()
    return [name for name in records.outputs()[mode]
            if jsonschema.Draft202012Validator({**schema, "$ref": f"#/$defs/{name}"}).is_valid(value)]


def _breakages():
    """(mode, a broken copy of its good report, what the message must name)."""
    def broken(mode, change):
        value = copy.deepcopy(GOOD[mode])
        change(value)
        return value
    yield "check", broken("check", lambda v: v["results"][0]["counts"].pop("steps")), "$.results[0].counts"
    yield "check", broken("check", lambda v: v["results"][1].update(ok="no")), "$.results[1].ok"
    yield "play", broken("play", lambda v: v["players"][0]["units"].update(infantry="3")), "$.players[0].units.infantry"
    yield "play", broken("play", lambda v: v.update(stoped_by="rounds")), "'stoped_by'"
    yield "play", broken("play", lambda v: v["round_stats"][0]["players"]["Reds"].pop("income")), "'income'"
    yield "play", broken("play", lambda v: v["relationships"][0].pop()), "$.relationships[0]"
    yield "play", broken("play", lambda v: v.update(stopped_by="tired")), "$.stopped_by"
    yield "odds", broken("odds", lambda v: v["battles"][0].update(runs=True)), "$.battles[0].runs"
    yield "texts", broken("texts", lambda v: v["answers"][0].update(shown="x")), "'shown'"


def test_the_schema_is_json_schema_and_names_its_records_once():
    schema = records.schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    named = {name for names in records.outputs().values() for name in names}
    assert named <= set(schema["$defs"]), named - set(schema["$defs"])
    text = records.SCHEMA_PATH.read_text(encoding="utf-8")
    referenced = set(re.findall(r'"#/\$defs/(\w+)"', text))
    assert set(schema["$defs"]) == named | referenced, "a record nothing prints"
    assert all(schema["$defs"][name].get("description") for name in schema["$defs"])


@pytest.mark.parametrize("mode", sorted(GOOD))
def test_good_reports_are_read_as_their_record(mode):
    assert records.read_output(mode, GOOD[mode], "1.9") is GOOD[mode]
    assert _reference(mode, GOOD[mode])  # jsonschema agrees


def test_the_clients_reports_are_records_too():
    played_in_the_client = PLAY | {"client": CLIENT}
    for value, name in ((played_in_the_client, "play_report"), (GUI, "gui_report")):
        assert records.read_output("gui", value, "1.9") is value
        assert _reference("gui", value) == [name]


def test_the_other_plays_are_records_too():
    refused = {"ok": False, "error": "harness: unknown option --x"}
    partial = {key: PLAY[key] for key in ("path", "ai", "seed", "map_dir", "rounds_requested", "time_limit_seconds",
                                          "ok", "exceptions", "missing_images")} | {"stopped_by": "time limit"}
    for value, name in ((refused, "play_refused"), (partial, "play_partial")):
        assert records.read_output("play", value, "current") is value
        assert _reference("play", value) == [name]


@pytest.mark.parametrize("mode,value,named", list(_breakages()), ids=lambda x: x if isinstance(x, str) else "")
def test_a_report_matching_no_record_is_tg093_naming_where(mode, value, named):
    with pytest.raises(DiagnosticError) as caught:
        records.read_output(mode, value, "current")
    diagnostic = caught.value.diagnostics[0]
    assert diagnostic.code == "TG093" and named in diagnostic.message, diagnostic.message
    assert f"the current harness printed a {mode} report" in diagnostic.message
    first = records.outputs()[mode][0]
    assert f"as {first}:" in diagnostic.message
    assert str(diagnostic.position).startswith("generator/engine/harness-records.schema.json:")
    assert diagnostic.position.line > 1  # the line that declares the first record tried
    assert not _reference(mode, value)  # jsonschema refuses it too
