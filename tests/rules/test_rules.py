"""The rule language around the macros: rules and loops, the errors a rule gets
(collected in one pass, at the YAML line, with a hint), declaration order, the
game notes and the coverage report, and the overlay additions (rename:, and
change: of alliances, frontiers, steps, starting units, resources, relationships)."""
from __future__ import annotations

import json
from pathlib import Path

from lxml import etree

from conftest import PLAIN_GAME, REPO, SHARED_MISSING, build_game, missing
from generator.model import game as m
from generator.cli.main import main
from generator.builder.pipeline import load_spec
from generator.rules.expand import _substitute, order_attachments

FRONTIER = PLAIN_GAME  # without its generated map: a rename must not have to redraw it
RULES_BASE = REPO / "tests" / "golden" / "rules" / "base.yaml"


def write(folder: Path, text: str, name: str = "mod.yaml") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def mod(base: Path, body: str) -> str:
    return f"mod:\n  name: Test\n  version: \"1.0\"\n  base: {base}\n{body}"


def build_root(spec: Path, out: Path) -> etree._Element:
    return etree.parse(str(build_game(spec, out))).getroot()


def errors(capsys) -> list[str]:
    return capsys.readouterr().err.splitlines()


# --- rules, loops and their errors ---------------------------------------------------------------------------------

def test_rule_errors_are_all_reported_at_their_lines_with_hints(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, mod(RULES_BASE, """\
rules:
  - id: R1
    text: Unknown macro.
    use: national_objectiv
  - id: R2
    text: Missing parameter.
    use: national_penalty
    with: {player: Russians}
  - id: R3
    text: Wrong names and types.
    use: free_placement
    with:
      player: Russans
      territory: Kiev
      units: {infantri: 1}
      when: [after:russiansBatle]
      uses: many
      colour: red
  - id: R1
    text: Same id again.
    status: notes
  - id: R5
    text: A loop over nothing.
    for: {round: []}
    use: notes_only
"""))
    assert main(["build", "mod.yaml", "-o", "out"]) == 2
    assert errors(capsys) == [
        "mod.yaml:8:5: error[TG061]: unknown macro 'national_objectiv'",
        "  hint: did you mean 'national_objective'?",
        "mod.yaml:12:5: error[TG062]: macro 'national_penalty' needs parameter 'amount' (int)",
        "  hint: PUs lost each turn the conditions hold (a positive number)",
        "mod.yaml:17:7: error[TG061]: parameter 'player': the game has no player 'Russans'",
        "  hint: did you mean 'Russians'?",
        "mod.yaml:19:7: error[TG061]: parameter 'units': the game has no unit type 'infantri'",
        "  hint: did you mean 'infantry'?",
        "mod.yaml:20:7: error[TG061]: parameter 'when': the game has no step 'russiansBatle'",
        "  hint: did you mean 'russiansBattle'?",
        "mod.yaml:21:7: error[TG062]: parameter 'uses' must be a whole number, not 'many'",
        "  hint: write a number such as 5",
        "mod.yaml:22:7: error[TG062]: macro 'free_placement' has no parameter 'colour'",
        "  hint: its parameters: player, territory, units, only_if_held, when, uses, owns, allied_owns, not_owns, "
        "count, owner, at_war_with, not_at_war_with, rounds, conditions",
        "mod.yaml:23:5: error[TG060]: rule id 'R1' is used twice (first at line 6)",
        "  hint: give every rule its own id",
        "mod.yaml:28:11: error[TG065]: loop 'round' needs a list of values or a range such as 3..10",
        "  hint: write for: {player: [Germans, Italians]} or for: {round: 3..10}",
    ]
    assert not (tmp_path / "out").exists()


def test_a_misspelt_key_is_the_only_error_not_what_follows_from_it(tmp_path, capsys, monkeypatch):
    # wiht: leaves the macro without parameters, playr: leaves it without player; saying that the
    # macro needs them would only repeat the cause, and the cause would come last.
    monkeypatch.chdir(tmp_path)
    write(tmp_path, mod(RULES_BASE, """\
rules:
  - id: R1
    text: A misspelt with.
    use: national_penalty
    wiht: {player: Russians, amount: 3}
  - id: R2
    text: A misspelt parameter.
    use: national_penalty
    with: {playr: Russians, amount: 3}
  - id: R3
    txet: A misspelt text.
    status: notes
"""))
    assert main(["build", "mod.yaml", "-o", "out"]) == 2
    assert errors(capsys) == [
        "mod.yaml:9:5: error[TG030]: unknown key 'wiht' in a rule",
        "  hint: did you mean 'with'?",
        "mod.yaml:13:12: error[TG062]: macro 'national_penalty' has no parameter 'playr'",
        "  hint: did you mean 'player'?",
        "mod.yaml:15:5: error[TG030]: unknown key 'txet' in a rule",
        "  hint: did you mean 'text'?",
    ]


def test_a_macro_the_game_cannot_serve_is_an_error_at_the_rule(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, mod(FRONTIER, """\
rules:
  - id: R1
    text: Frontier 1939 has no politics.
    use: political_action
    with: {player: Russians, targets: [Germans], to: default_war_relation}
"""))
    assert main(["build", "mod.yaml", "-o", "out"]) == 2
    assert errors(capsys) == [
        "mod.yaml:6:5: error[TG063]: macro 'political_action': the game has no Politics step for Russians",
        "  hint: check the rule against the game and the macro's parameters (documented in political_action.xml.j2)",
    ]


def test_loops_generate_one_fragment_per_value_with_readable_names(tmp_path):
    spec = write(tmp_path, mod(RULES_BASE, """\
rules:
  - id: S000-R08
    text: Each side pays its ally 1 PU in rounds 2 and 3.
    for: {payer: [Germans, Italians], round: 2..3}
    use: round_payment
    with: {payer: "{{ payer }}", amount: 1, rounds: "{{ round }}"}
"""))
    (record,) = load_spec(spec).rules
    assert len(record.fragments) == 4
    assert [name for name in record.generated if name.endswith("_Payer")] == [
        "triggerAttachment_S000_R08_Germans_2_Payer", "triggerAttachment_S000_R08_Germans_3_Payer",
        "triggerAttachment_S000_R08_Italians_2_Payer", "triggerAttachment_S000_R08_Italians_3_Payer"]


def test_a_rule_may_use_what_its_own_changes_add(tmp_path):
    """Names added by a rule's change:/add: (here a resource) are known to its macro parameters."""
    spec = write(tmp_path, mod(RULES_BASE, """\
rules:
  - id: R1
    text: Germany earns a victory token each round from round 2.
    add: {resources: {Token: {}}}
    use: round_payment
    with: {payee: Germans, amount: 1, rounds: 2-+, resource: Token}
"""))
    (record,) = load_spec(spec).rules
    assert '<option name="resource" value="Token"/>' in record.fragments[0]


def test_a_notes_rule_that_changes_the_game_is_warned(tmp_path, capsys):
    """Issue 27.4: `status: notes` on a rule whose own change: (or macro) the engine enforces put
    "NOT ENFORCED: play by honour" into the notes; now a warning at its status line."""
    spec = write(tmp_path, mod(RULES_BASE, """\
rules:
  - id: R1
    text: Infantry cost 2.
    status: notes
    change: {units: {infantry: {cost: 2}}}
  - id: R2
    text: Germany earns 5 while it holds Warsaw.
    status: notes
    use: national_objective
    with: {player: Germans, amount: 5, owns: [Warsaw]}
  - id: R3
    text: Armour cost 5.
    change: {units: {armour: {cost: 5}}}
  - id: R4
    text: No counter-attacks in the first round.
    status: notes
"""))
    assert main(["build", str(spec), "-o", str(tmp_path / "out")]) == 0
    warnings = [line for line in errors(capsys) if "TG220" in line]
    assert warnings == [
        f"{spec}:8:5: warning[TG220]: rule R1 says status: notes, but its change: changes the game: the engine "
        "enforces it, while the game notes say \"NOT ENFORCED: play by honour\"",
        f"{spec}:12:5: warning[TG220]: rule R2 says status: notes, but its macro 'national_objective' changes the "
        "game: the engine enforces it, while the game notes say \"NOT ENFORCED: play by honour\""]


def test_a_change_naming_what_a_rule_adds_says_which_rule_and_that_rules_come_later(tmp_path, capsys, monkeypatch):
    # Not "no unit type 'elite_infantry'; did you mean 'infantry'?": the name is right, the order is not.
    monkeypatch.chdir(tmp_path)
    write(tmp_path, mod(RULES_BASE, """\
change:
  units:
    elite_infantry: {attack: 2}
  attachments:
    - {name: unitAttachment, attachTo: elite_infantry, options: {defense: 3}}
rules:
  - id: R7
    text: Elite infantry.
    add:
      units: [elite_infantry]
      attachments:
        - {name: unitAttachment, attachTo: elite_infantry, class: UnitAttachment, type: unitType,
           options: {movement: 1, attack: 1, defense: 2}}
"""))
    assert main(["build", "mod.yaml", "-o", "out"]) == 2
    assert errors(capsys) == [
        "mod.yaml:7:5: error[TG051]: the base game has no unit type 'elite_infantry': rule R7 (line 11) adds it, "
        "and rules apply after the mod's own remove:, add: and change:",
        "  hint: change it in rule R7 itself: a rule's own change: applies after its add:",
        "mod.yaml:9:7: error[TG051]: the base game has no attachment 'unitAttachment' on 'elite_infantry': rule R7 "
        "(line 11) adds it, and rules apply after the mod's own remove:, add: and change:",
        "  hint: change it in rule R7 itself: a rule's own change: applies after its add:",
    ]


def test_macros_read_the_attachment_the_engine_keeps():
    """Global 1940 declares Russia's territoryAttachment twice; the engine (and every merge) uses the later."""
    from generator.rules.helpers import GameHelpers

    def territory_attachment(production: str) -> m.Attachment:
        return m.Attachment("territoryAttachment", "Russia", m.ATTACHMENT_PACKAGE + "TerritoryAttachment",
                            "territory", options=[m.Option("production", production)])

    game = m.Game(attachments=[territory_attachment("0"), territory_attachment("3")])
    assert GameHelpers(game).attachment("territoryAttachment", "Russia").options[0].value == "3"


def test_loop_values_are_substituted_as_plain_text():
    """Characters XML escapes are escaped once, when the game is written, not by the substitution."""
    loop = {"side": "Axis & <Friends>", "n": 2}
    assert _substitute({"text": "{{ side }} win", "keys": ["{{ side }}", "{{ n + 1 }}"]}, loop) == \
        {"text": "Axis & <Friends> win", "keys": ["Axis & <Friends>", 3]}


def test_attachments_come_after_those_they_name():
    def attachment(name: str, conditions: str | None = None) -> m.Attachment:
        options = [m.Option("conditions", conditions)] if conditions else []
        return m.Attachment(name, "Germans", m.ATTACHMENT_PACKAGE + "RulesAttachment", "player", options=options)

    trigger = attachment("triggerAttachment_T", "conditionAttachment_A:conditionAttachment_B")
    a, b = attachment("conditionAttachment_A"), attachment("conditionAttachment_B", "conditionAttachment_A")
    assert [x.name for x in order_attachments([trigger, b, a])] == [
        "conditionAttachment_A", "conditionAttachment_B", "triggerAttachment_T"]
    ordered = [a, b, trigger]
    assert order_attachments(ordered) == ordered


def test_a_merged_reference_to_a_new_condition_moves_the_attachment_after_it(tmp_path):
    """A macro that adds a new condition to a base trigger must not leave a forward reference."""
    spec = write(tmp_path, mod(FRONTIER, """\
rules:
  - id: R1
    text: Germany earns 5 while it holds Warsaw, from round 2.
    use: national_objective
    with: {player: Germans, amount: 5, owns: [Warsaw], rounds: 2-+}
change:
  attachments:
    - name: triggerAttachment_Russians_Mobilisation
      attachTo: Russians
      options: {conditions: "conditionAttachment_Russians_First_Round:conditionAttachment_Late"}
add:
  attachments:
    - {name: conditionAttachment_Late, attachTo: Russians, class: RulesAttachment, type: player,
       options: {rounds: 1-+}}
"""))
    names = [a.name for a in load_spec(spec).game.attachments]
    assert names.index("conditionAttachment_Late") < names.index("triggerAttachment_Russians_Mobilisation")


# --- notes and report ------------------------------------------------------------------------------------------------

NOTES_MOD = """\
rules:
  - id: R1
    text: Germany earns 5 PUs while it holds Warsaw.
    use: national_objective
    with: {player: Germans, amount: 5, owns: [Warsaw]}
  - id: R2
    text: Tanks attack at 1 when landing from the sea.
    use: marines
    with: {units: [armour], bonus: -2}
    status: partial
    note: The engine applies it in every round of the battle.
  - id: R3
    text: Only one counter-attack in the first round.
    status: notes
  - id: R4
    text: Hungary joins the Axis.
    use: new_power
    with: {player: Hungarians, template: Italians, capital: Danube}
"""


def test_notes_list_every_rule_and_mark_what_is_not_enforced(tmp_path):
    spec = write(tmp_path, mod(RULES_BASE, NOTES_MOD))
    root = build_root(spec, tmp_path / "out")
    (notes_file,) = (tmp_path / "out").glob("*/map/games/mod.notes.html")
    html = notes_file.read_text(encoding="utf-8")
    notes = root.find("propertyList/property[@name='notes']/value").text
    assert notes.startswith(html)  # the notes property opens with the same rules table
    r1 = next(r for r in html.split("<tr") if "<td>R1</td>" in r)
    r2 = next(r for r in html.split("<tr") if "<td>R2</td>" in r)
    r3 = next(r for r in html.split("<tr") if "<td>R3</td>" in r)
    r4 = next(r for r in html.split("<tr") if "<td>R4</td>" in r)
    assert "bgcolor" not in r1 and "<td>enforced</td>" in r1
    assert 'bgcolor="#fff2cc"' in r2 and "<b>PARTLY ENFORCED</b>: play by honour" in r2
    assert "<i>The engine applies it in every round of the battle.</i>" in r2
    assert 'bgcolor="#f4cccc"' in r3 and "<b>NOT ENFORCED</b>: play by honour" in r3
    assert "derived from the base map" in r4  # what the new_power macro tells players
    honour = html.split("<h3>Play by honour</h3>")[1]
    assert "<b>R2</b> (partly enforced)" in honour and "<b>R3</b> (not enforced)" in honour
    assert "R1" not in honour and "R4" not in honour
    assert "2 enforced by the game, 1 partly enforced, 1 not enforced" in html


def test_report_prints_the_coverage_table(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, mod(RULES_BASE, NOTES_MOD))
    assert main(["report", "mod.yaml"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["rule", "status", "macro", "text"]
    assert lines[1].split()[:3] == ["R1", "enforced", "national_objective"]
    assert lines[2].split()[:3] == ["R2", "partial", "marines"]
    assert lines[3].split()[:3] == ["R3", "notes", "-"]
    assert lines[-1] == "4 rules: 2 enforced, 1 partial, 1 notes only"


def test_report_json(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, mod(RULES_BASE, NOTES_MOD))
    assert main(["report", "mod.yaml", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "Test" and report["counts"] == {"enforced": 2, "partial": 1, "notes": 1}
    r1, r2, r3, r4 = report["rules"]
    assert (r1["id"], r1["status"], r1["macro"], r1["line"]) == ("R1", "enforced", "national_objective", 6)
    assert r1["generated"] == ["objectiveAttachment_R1"]
    assert r2["generated"] == ["unitAttachment@armour"] and r2["note"].startswith("The engine applies")
    assert (r3["status"], r3["macro"], r3["generated"]) == ("notes", None, [])
    assert any("derived from the base map" in detail for detail in r4["details"])


def test_report_of_a_broken_spec_exits_2(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, mod(RULES_BASE, "rules:\n  - {id: R1, text: x, use: nothing_like_it}\n"))
    assert main(["report", "mod.yaml"]) == 2
    assert "error[TG061]: unknown macro 'nothing_like_it'" in capsys.readouterr().err


# --- overlay additions -------------------------------------------------------------------------------------------------

def test_rename_changes_every_reference(tmp_path):
    spec = write(tmp_path, mod(FRONTIER, """\
rename:
  players: {Germans: Reich}
  territories: {Warsaw: Warszawa}
  units: {armour: panzer}
"""))
    root = build_root(spec, tmp_path / "out")
    text = etree.tostring(root, encoding="unicode")
    assert root.find("playerList/player[@name='Reich']") is not None
    assert root.find("playerList/alliance[@player='Reich']").get("alliance") == "Axis"
    assert {s.get("player") for s in root.iter("step") if s.get("name").startswith("germans")} == {"Reich"}
    assert root.find("production/playerProduction[@player='Reich']") is not None
    assert root.find("production/productionRule[@name='buyArmour']/result").get("resourceOrUnit") == "panzer"
    assert root.find("attachmentList/attachment[@name='unitAttachment'][@attachTo='panzer']") is not None
    objective = root.find("attachmentList/attachment[@name='objectiveAttachment_Germans_1_Hold_Warsaw']")
    assert objective.get("attachTo") == "Reich"  # the attachment keeps its name; what it names changes
    assert objective.find("option[@name='directOwnershipTerritories']").get("value") == "Warszawa"
    assert {c.get("t1") for c in root.iter("connection")} | {c.get("t2") for c in root.iter("connection")} >= {
        "Warszawa"}
    assert root.find("initialize/ownerInitialize/territoryOwner[@territory='Warszawa']").get("owner") == "Russians"
    assert {u.get("owner") for u in root.iter("unitPlacement") if u.get("territory") == "Berlin Region"} == {"Reich"}
    for old in ('"Germans"', '"Warsaw"', '"armour"'):
        assert old not in text


def test_rename_errors(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, mod(FRONTIER, """\
rename:
  players: {Germanz: Reich, Italians: Russians}
  units: {armour: "pan:zer"}
"""))
    assert main(["build", "mod.yaml", "-o", "out"]) == 2
    assert errors(capsys) == [
        "mod.yaml:6:13: error[TG051]: the base game has no player 'Germanz' to rename",
        "  hint: did you mean 'Germans'?",
        "mod.yaml:6:29: error[TG053]: the base game already has a player called 'Russians'",
        "  hint: choose a name the game does not use yet",
        "mod.yaml:7:11: error[TG053]: 'pan:zer' cannot be a unit type name",
        "  hint: names may not contain ':' or be empty; Neutral is the engine's own player",
    ]


SETUP_CHANGES = """\
add:
  players: {Romanians: {optional: false}}
  production:
    rules:
      buyMarine: {cost: {PUs: 4}, result: {infantry: 1}}
    frontiers:
      lean: [buyInfantry]
change:
  alliances:
    Axis: [Germans, Italians, Romanians]
  frontiers:
    production: {add: [buyMarine], remove: [buyDestroyer]}
  players:
    Italians: {frontier: lean}
  steps:
    - after: germansBattle
      add: [{name: russiansPactPlace, delegate: place, player: Russians}]
  initialUnits:
    Warsaw:
      Russians: {infantry: {quantity: 2, hitsTaken: 0}, artillery: 0}
    Baltic Sea:
      Germans: {destroyer: 2}
  resources:
    Germans: {PUs: 25}
  relationships:
    - [Russians, Italians, War]
    - [Romanians, Germans, Allied, 1]
"""


def test_setup_changes(tmp_path):
    root = build_root(write(tmp_path, mod(RULES_BASE, SETUP_CHANGES)), tmp_path / "out")
    assert [(a.get("player"), a.get("alliance")) for a in root.iterfind("playerList/alliance")
            if a.get("alliance") == "Axis"] == [("Germans", "Axis"), ("Italians", "Axis"), ("Romanians", "Axis")]
    rules = [r.get("name") for r in root.iterfind("production/productionFrontier[@name='production']/frontierRules")]
    assert "buyMarine" in rules and "buyDestroyer" not in rules
    assert root.find("production/playerProduction[@player='Italians']").get("frontier") == "lean"
    steps = [s.get("name") for s in root.iter("step")]
    assert steps[steps.index("germansBattle") + 1] == "russiansPactPlace"
    warsaw = [(u.get("unitType"), u.get("quantity"), u.get("hitsTaken")) for u in root.iter("unitPlacement")
              if u.get("territory") == "Warsaw"]
    assert warsaw == [("infantry", "2", "0")]
    baltic = [(u.get("unitType"), u.get("quantity")) for u in root.iter("unitPlacement")
              if u.get("territory") == "Baltic Sea"]
    assert baltic == [("destroyer", "2"), ("transport", "1")]
    assert root.find("initialize/resourceInitialize/resourceGiven[@player='Germans']").get("quantity") == "25"
    pairs = {frozenset((r.get("player1"), r.get("player2"))): r.get("type") for r in root.iter("relationship")}
    assert pairs[frozenset(("Italians", "Russians"))] == "War"
    assert pairs[frozenset(("Romanians", "Germans"))] == "Allied"
    assert len(pairs) == len(list(root.iter("relationship")))  # a changed pair is replaced, not added


def test_setup_change_errors_point_at_the_line_with_the_closest_name(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, mod(RULES_BASE, """\
change:
  alliances:
    Axes: [Germans]
    Allies: [Russians, Fins]
  frontiers:
    productoin: {add: [buyInfantry]}
    production: {add: [buyBattleship], remove: [buyArmor]}
  steps:
    - {after: germansBatle, add: [{name: x, delegate: place, player: Russians}]}
    - {after: germansBattle, add: [{name: germansPlace, delegate: place, player: Germans}]}
  initialUnits:
    Warsw: {Russians: {infantry: 1}}
  resources:
    Germans: {Gold: 3}
  relationships:
    - [Russians, Italians, Wat]
"""))
    assert main(["build", "mod.yaml", "-o", "out"]) == 2
    assert errors(capsys) == [
        "mod.yaml:7:5: error[TG051]: the base game has no alliance 'Axes'",
        "  hint: did you mean 'Axis'?",
        "mod.yaml:8:24: error[TG051]: the base game has no player 'Fins'",
        "  hint: check the spelling against the base game's players",
        "mod.yaml:10:5: error[TG051]: the base game has no production frontier 'productoin'",
        "  hint: did you mean 'production'?",
        "mod.yaml:11:24: error[TG051]: the base game has no production rule 'buyBattleship'",
        "  hint: check the spelling against the base game's production rules",
        "mod.yaml:11:49: error[TG051]: the base game has no rule in frontier production called 'buyArmor'",
        "  hint: did you mean 'buyArmour'?",
        "mod.yaml:13:8: error[TG051]: the base game has no step 'germansBatle'",
        "  hint: did you mean 'germansBattle'?",
        "mod.yaml:14:36: error[TG053]: the base game already has a step called 'germansPlace'",
        "  hint: step names must be unique",
        "mod.yaml:16:5: error[TG051]: the base game has no territory 'Warsw'",
        "  hint: did you mean 'Warsaw'?",
        "mod.yaml:18:15: error[TG051]: the base game has no resource 'Gold'",
        "  hint: check the spelling against the base game's resources",
        "mod.yaml:20:7: error[TG051]: the base game has no relationship type 'Wat'",
        "  hint: did you mean 'War'?",
    ]


def test_turns_split_with_out_of_turn_steps_and_trailing_partners():
    """A pact window puts Russian steps inside the German turn; Russia's own turn is still its own.
    G40's UK_Pacific places and ends its turn after the British end of turn and stays in it."""
    from generator.model import game as m
    from generator.rules.helpers import _split_sequence

    def step(name, player=None):
        return m.Step(name, "delegate", player)

    steps = [step("init"), step("germansPurchase", "Germans"), step("russiansPactPurchase", "Russians"),
             step("russiansPactPlace", "Russians"), step("germansBattle", "Germans"), step("germansEndTurn", "Germans"),
             step("russiansPurchase", "Russians"), step("russiansEndTurn", "Russians"),
             step("britishPurchase", "British"), step("UK_PacificPurchase", "UK_Pacific"),
             step("britishEndTurn", "British"), step("UK_PacificPlace", "UK_Pacific"),
             step("UK_PacificEndTurn", "UK_Pacific"), step("endRound")]
    head, blocks, tail = _split_sequence(steps)
    assert [s.name for s in head] == ["init"] and [s.name for s in tail] == ["endRound"]
    assert [(b.player, len(b.steps)) for b in blocks] == [("Germans", 5), ("Russians", 2), ("British", 5)]


def test_war_conditions_with_an_owner_test_each_pair():
    """1.9 tests atWarPlayers only for the player a condition is attached to, so `owner:` war tests
    become relationship tests, one inverted condition per pair for 'at war with none of'."""
    from generator.rules.conditions import Conditions

    values = {"owner": ["Italians"], "count": "all", "owns": [], "allied_owns": [], "not_owns": [],
              "at_war_with": ["Russians"], "not_at_war_with": ["British", "French"], "rounds": "",
              "conditions": []}
    condition = Conditions.from_params(values)
    assert condition.attachments("conditionAttachment_X") == [
        ("conditionAttachment_X", [("players", "Italians", None), ("relationship", "Italians:Russians:anyWar", None)]),
        ("conditionAttachment_X_Peace_1", [("relationship", "Italians:British:anyWar", None), ("invert", "true", None)]),
        ("conditionAttachment_X_Peace_2", [("relationship", "Italians:French:anyWar", None), ("invert", "true", None)]),
    ]
    without_owner = Conditions.from_params(dict(values, owner=[]))
    assert without_owner.attachments("c") == [
        ("c", [("atWarPlayers", "Russians", "1")]), ("c_Peace", [("atWarPlayers", "British:French", "0")])]


def test_allied_ownership_counts_the_players_of_the_side_whatever_their_relationship():
    """allied_owns with a side becomes a direct-ownership test by the side's players in a condition
    of its own: 1.9's alliedOwnershipTerritories asks the relationship, and G40's Concordant (China
    and UK Pacific, neutral archetype) made the Burma road objective fail while Burma was British."""
    from generator.rules.conditions import Conditions

    values = {"owner": [], "count": "all", "owns": ["Szechwan"], "allied_owns": ["Burma", "Yunnan"],
              "not_owns": [], "at_war_with": [], "not_at_war_with": [], "rounds": "", "conditions": []}
    condition = Conditions.from_params(values, side=["Chinese", "UK_Pacific", "Americans"])
    assert condition.attachments("c") == [
        ("c", [("directOwnershipTerritories", "Szechwan", "1")]),
        ("c_Side_Held", [("players", "Chinese:UK_Pacific:Americans", None),
                         ("directOwnershipTerritories", "Burma:Yunnan", "2")])]
    assert condition.names("c", inline=True) == ["c_Side_Held"]
    # without a side (a rule naming no player) the relationship-based option remains
    assert Conditions.from_params(values).attachments("c") == [
        ("c", [("directOwnershipTerritories", "Szechwan", "1"), ("alliedOwnershipTerritories", "Burma:Yunnan", "2")])]


def test_allied_ownership_side_is_the_player_and_its_alliance(tmp_path, monkeypatch):
    """Built from a spec: the Burma road condition of s001 names every player of China's alliance."""
    from conftest import SHARED

    if not (SHARED / "maps" / "world_war_ii_global").is_dir():
        missing(SHARED_MISSING)
    monkeypatch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    xml = build_game(REPO / "rules_yaml" / "s001_kaihlhac_balance.yaml", tmp_path / "out")
    root = etree.parse(str(xml)).getroot()
    (side,) = root.iterfind("attachmentList/attachment[@name='conditionAttachment_S001_R58_Side_Held']")
    options = {o.get("name"): (o.get("value"), o.get("count")) for o in side.iterfind("option")}
    assert options["directOwnershipTerritories"] == ("Burma:Yunnan", "2")
    assert {"Chinese", "UK_Pacific", "British", "Americans"} <= set(options["players"][0].split(":"))
    assert not {"Japanese", "Germans", "Italians"} & set(options["players"][0].split(":"))
    (objective,) = root.iterfind("attachmentList/attachment[@name='objectiveAttachment_S001_R58']")
    assert [o.get("name") for o in objective.iterfind("option")] == ["conditions", "objectiveValue"]


def test_rules_that_are_no_list_are_reported_at_their_line(tmp_path, capsys):
    """Found by the YAML fuzz (seed 1598100486): a plain text under rules: (a scalar carries no position
    of its own) was reported without line and column."""
    spec = write(tmp_path, mod(RULES_BASE, "rules:\n  -e Carpathians cannot be entered.\n    us impassable\n"))
    assert main(["build", str(spec), "-o", str(tmp_path / "out")]) == 2
    lines = errors(capsys)
    rules_line = spec.read_text(encoding="utf-8").splitlines().index("rules:") + 1
    assert lines[0] == (f"{spec}:{rules_line}:1: error[TG031]: rules must be a list, not the value "
                        "'-e Carpathians cannot be entered. us impassable'")
