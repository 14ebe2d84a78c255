"""Share and iterate: diff in game terms, packages for downloadedMaps and forums,
watch mode, the editor schema, and scaffolding."""
from __future__ import annotations

import json
import re
import shutil
import threading
import time
import zipfile
from pathlib import Path

import jsonschema
import pytest

from conftest import GLOBAL_GAMES_DIR, PLAIN_GAME, REPO, SHARED, requires_engine, requires_shared
from textedit import replaced
from generator.cli.main import main
from generator.core.diagnostics import DiagnosticError
from generator.builder.jsonschema import build_schema
from generator.builder.package import safe_extract, zip_bytes
from generator.read.yamlio import load_yaml_file, load_yaml_text

EXAMPLE = PLAIN_GAME
FRONTIER = REPO / "rules_yaml" / "frontier_1939.yaml"
needs_shared = requires_shared

G40_MOD = """\
mod:
  name: Cheap Cruisers
  version: "1.1"
  base: {map: world_war_ii_global, game: ww2global40_2nd_edition.xml}
  engine: "1.9"
change:
  units:
    cruiser: {cost: 11}
  territories:
    Urals: {production: 2}
rules:
  - id: CC-1
    text: Germany earns 2 PUs while it holds Poland.
    use: national_objective
    with: {player: Germans, amount: 2, owns: [Poland]}
  - id: CC-2
    text: Players agree not to attack on the first turn.
    status: notes
"""


def _run(capsys, *argv) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


# --- diff ---------------------------------------------------------------------------------------------------

@needs_shared
def test_diff_between_two_global_1940_games_speaks_in_game_terms(capsys):
    status, out, _ = _run(capsys, "diff", str(GLOBAL_GAMES_DIR / "ww2global40_2nd_edition.xml"),
                          str(GLOBAL_GAMES_DIR / "ww2global40_balanced.xml"))
    assert status == 0
    lines = [line.strip() for line in out.splitlines()]
    for expected in ("game version 4.0 → 4.1", "new unit type marine", "bomber cost 12 → 14",
                     "infantry transportCost 2 → 5", "transport transportCapacity 5 → 11",
                     "new production rule buyMarine: 1 marine for 5 PUs", "frontier production now offers buyMarine",
                     "national objective objectiveAttachment_British_1_Original objectiveValue 5 → 3"):
        assert expected in lines, expected
    assert out.splitlines()[0] == "game:"


def test_diff_of_spec_against_its_own_build_is_empty_and_mixes_formats(tmp_path, capsys):
    assert main(["build", str(EXAMPLE), "-o", str(tmp_path)]) == 0
    xml = tmp_path / "frontier_1939" / "map" / "games" / "frontier_1939.xml"
    capsys.readouterr()
    status, out, _ = _run(capsys, "diff", str(EXAMPLE), str(xml))
    assert (status, out.strip()) == (0, "no changes in game terms")


def test_diff_reports_a_mods_changes_in_markdown_and_json(tmp_path, capsys):
    mod = tmp_path / "mod.yaml"
    mod.write_text(f"mod:\n  name: M\n  version: '2'\n  base: {EXAMPLE}\n"
                   "change:\n  units:\n    armour: {cost: 5, attack: 4}\n  territories:\n    Kiev: {production: 4}\n"
                   "add:\n  attachments:\n    - {name: triggerAttachment_Test, attachTo: Germans, "
                   "class: TriggerAttachment, type: player, options: {when: 'before:germansPurchase', "
                   "players: Germans, resource: PUs, resourceCount: 1}}\n")
    status, out, _ = _run(capsys, "diff", str(EXAMPLE), str(mod), "--format", "markdown")
    assert status == 0
    assert "- armour cost 6 → 5" in out.splitlines()
    assert "- armour attack 3 → 4" in out.splitlines()
    assert "- Kiev production 3 → 4" in out.splitlines()
    assert "- new trigger triggerAttachment_Test (on Germans)" in out.splitlines()
    status, out, _ = _run(capsys, "diff", str(EXAMPLE), str(mod), "--format", "json")
    changes = json.loads(out)["changes"]
    assert {"section": "production", "text": "armour cost 6 → 5", "kind": "changed"} in changes


def test_a_new_unit_type_is_described_with_its_stats(tmp_path, capsys):
    """Issue 27.13: "new unit stats for elite_infantry" said nothing of the stats."""
    mod = tmp_path / "elite.yaml"
    mod.write_text(f"mod:\n  name: Elite\n  base: {EXAMPLE}\nadd:\n  units: [elite_infantry]\n  attachments:\n"
                   "    - {name: unitAttachment, attachTo: elite_infantry, class: UnitAttachment, type: unitType, "
                   "options: {movement: 1, attack: 2, defense: 3, isInfantry: true}}\n")
    _, out, _ = _run(capsys, "diff", str(EXAMPLE), str(mod))
    assert "  new unit stats for elite_infantry: movement 1, attack 2, defense 3, isInfantry true" in out.splitlines()


def test_trigger_timing_change_is_described(tmp_path, capsys):
    mod = tmp_path / "later.yaml"
    mod.write_text(f"mod:\n  name: Later\n  base: {EXAMPLE}\nchange:\n  attachments:\n"
                   "    - {name: triggerAttachment_Russians_Mobilisation, attachTo: Russians, "
                   "options: {when: 'after:russiansCombatMove'}}\n")
    _, out, _ = _run(capsys, "diff", str(EXAMPLE), str(mod))
    assert ("  trigger triggerAttachment_Russians_Mobilisation now fires after russiansCombatMove "
            "(was before russiansPurchase)") in out.splitlines()


# --- package ------------------------------------------------------------------------------------------------

def _package_g40_mod(tmp_path, capsys, monkeypatch) -> Path:
    monkeypatch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    spec = tmp_path / "cheap_cruisers.yaml"
    spec.write_text(G40_MOD)
    status, out, _ = _run(capsys, "package", str(spec), "-o", str(tmp_path / "dist"), "--previous",
                          str(GLOBAL_GAMES_DIR / "ww2global40_2nd_edition.xml"))
    assert status == 0
    assert [Path(p).name for p in out.splitlines()] == [
        "cheap_cruisers-1.1.zip", "cheap_cruisers-1.1.forum.md", "cheap_cruisers-1.1.forum.bbcode"]
    archive = tmp_path / "dist" / "cheap_cruisers-1.1.zip"
    with zipfile.ZipFile(archive) as z:
        assert sorted(z.namelist()) == [
            "world_war_ii_global/cheap_cruisers.README.txt", "world_war_ii_global/map.yml",
            "world_war_ii_global/map/games/cheap_cruisers.notes.html",
            "world_war_ii_global/map/games/cheap_cruisers.xml",
            "world_war_ii_global/map/objectives.properties"]  # the Objectives tab lists CC-1 for this game
        listing = z.read("world_war_ii_global/map.yml").decode()
        objectives = z.read("world_war_ii_global/map/objectives.properties").decode("latin-1")
    assert "ww2global40_2nd_edition.xml" in listing and "cheap_cruisers.xml" in listing
    assert "Cheap_Cruisers.Germans;objectiveAttachment_" in objectives
    post = (tmp_path / "dist" / "cheap_cruisers-1.1.forum.md").read_text()
    assert post.splitlines()[0] == "# Cheap Cruisers 1.1"
    assert "- **CC-1** Germany earns 2 PUs while it holds Poland. _(enforced)_" in post
    assert "- **CC-2** Players agree not to attack on the first turn. _(notes only)_" in post
    assert "- cruiser cost 12 → 11" in post and "- Urals production 1 → 2" in post
    bbcode = (tmp_path / "dist" / "cheap_cruisers-1.1.forum.bbcode").read_text()
    assert "[*][b]CC-1[/b] Germany earns 2 PUs while it holds Poland. [i](enforced)[/i]" in bbcode
    # packaging twice gives the same zip
    assert main(["package", str(spec), "-o", str(tmp_path / "again")]) == 0
    assert (tmp_path / "again" / archive.name).read_bytes() == archive.read_bytes()
    return archive


def test_a_package_speaks_to_players_with_install_steps_and_its_units(tmp_path, capsys):
    """Issue 27.13: the post had no install steps and no table of new or changed units, and the README
    inside the package told players to run triplea-gen."""
    spec = tmp_path / "elite.yaml"
    spec.write_text(f"""\
mod: {{name: Elite Guard, version: "2.0", base: {EXAMPLE}}}
add:
  units: [elite_infantry]
  production:
    rules:
      buyElite_Infantry: {{cost: {{PUs: 4}}, result: {{elite_infantry: 1}}}}
  attachments:
    - {{name: unitAttachment, attachTo: elite_infantry, class: UnitAttachment, type: unitType,
       options: {{movement: 1, attack: 2, defense: 3, isInfantry: true}}}}
change:
  units:
    armour: {{cost: 5, attack: 4}}
""", encoding="utf-8")
    status, out, _ = _run(capsys, "package", str(spec), "-o", str(tmp_path / "dist"))
    assert status == 0
    post = (tmp_path / "dist" / "elite-2.0.forum.md").read_text(encoding="utf-8")
    assert "## Install" in post and "3. Start TripleA, choose a local (or network) game, open the game list and pick " \
        "'Elite Guard'." in post
    assert "| elite_infantry | new | 4 PUs | 2 | 3 | 1 | isInfantry: true |" in post
    assert "| armour | changed | 5 PUs | 4 | 3 | 2 | cost 6 PUs → 5 PUs; attack 3 → 4 |" in post
    assert "| infantry |" not in post  # unchanged units are not listed
    bbcode = (tmp_path / "dist" / "elite-2.0.forum.bbcode").read_text(encoding="utf-8")
    assert "[list=1]" in bbcode and "[*][b]elite_infantry[/b] (new): cost 4 PUs, attack 2, defense 3, movement 1, " \
        "isInfantry: true" in bbcode
    with zipfile.ZipFile(tmp_path / "dist" / "elite-2.0.zip") as z:
        (readme,) = [z.read(n).decode() for n in z.namelist() if n.endswith("README.txt")]
    assert "triplea-gen" not in readme and "To install and play:\n1. In TripleA, install the map" in readme


@needs_shared
def test_package_of_a_global_1940_mod(tmp_path, capsys, monkeypatch):
    assert _package_g40_mod(tmp_path, capsys, monkeypatch).is_file()


@needs_shared
@requires_engine
def test_packaged_mod_unzips_into_a_folder_the_engine_loads(tmp_path, capsys, monkeypatch):
    from generator.engine.harness import check_games

    archive = _package_g40_mod(tmp_path, capsys, monkeypatch)
    downloaded = tmp_path / "home" / "triplea" / "downloadedMaps"
    written = safe_extract(archive, downloaded)
    (xml,) = [p for p in written if p.suffix == ".xml"]
    assert xml == downloaded / "world_war_ii_global" / "map" / "games" / "cheap_cruisers.xml"
    (verdict,) = check_games([xml])
    assert verdict.ok, verdict.error


@pytest.mark.parametrize("name", ["../evil.txt", "/etc/evil", "a/../../evil", "C:/evil", "..\\evil"])
def test_zip_names_cannot_escape(tmp_path, name):
    with pytest.raises(DiagnosticError):
        zip_bytes({name: b"x"}, "out.zip")
    hostile = tmp_path / "hostile.zip"
    with zipfile.ZipFile(hostile, "w") as z:
        z.writestr("ok/file.txt", b"fine")
        z.writestr(name, b"evil")
    with pytest.raises(DiagnosticError) as err:
        safe_extract(hostile, tmp_path / "dest")
    assert err.value.diagnostics[0].code == "TG070"
    assert not (tmp_path / "evil").exists() and not (tmp_path / "evil.txt").exists()


def armour_cost(xml: bytes) -> str:
    rule = re.search(rb'<productionRule name="buyArmour">\s*<cost resource="PUs" quantity="(\d+)"/>', xml)
    return rule.group(1).decode()


# --- watch --------------------------------------------------------------------------------------------------

def test_watch_rebuilds_for_a_save_that_lands_during_a_build(tmp_path, monkeypatch, capsys):
    import generator.cli.watch as watch_module

    spec = tmp_path / "game.yaml"
    spec.write_text(EXAMPLE.read_text())
    real_build = watch_module._build_once
    calls = []

    def build_then_save(*args):
        base = real_build(*args)
        if not calls:  # the modder saves while the first build is still writing
            spec.write_text(replaced(EXAMPLE.read_text(), "buyArmour: {cost: {PUs: 6}", "buyArmour: {cost: {PUs: 7}"))
        calls.append(args)
        return base

    monkeypatch.setattr(watch_module, "_build_once", build_then_save)
    thread = threading.Thread(daemon=True, target=watch_module.watch,
                              args=(str(spec), str(tmp_path / "out"), 0.02, 2))
    thread.start()
    thread.join(timeout=30)
    assert not thread.is_alive(), "the save made during the first build never started a second build"
    xml = tmp_path / "out" / "frontier_1939" / "map" / "games" / "game.xml"
    assert armour_cost(xml.read_bytes()) == "7"


def test_watch_rebuilds_after_a_change(tmp_path, capsys):
    spec = tmp_path / "game.yaml"
    spec.write_text(EXAMPLE.read_text())
    out = tmp_path / "out"
    xml = out / "frontier_1939" / "map" / "games" / "game.xml"
    result = {}
    # A daemon thread: if the watcher never reaches its build count, the test fails instead of
    # keeping the test process alive after the run.
    thread = threading.Thread(daemon=True, target=lambda: result.update(status=main(
        ["watch", str(spec), "-o", str(out), "--interval", "0.05", "--max-builds", "3"])))
    thread.start()
    try:
        deadline = time.time() + 20
        while not xml.exists() and time.time() < deadline:
            time.sleep(0.05)
        first = xml.read_bytes()
        assert armour_cost(first) == "6"
        # Saved straight after the first build, possibly before the watcher looked at the files again.
        spec.write_text(replaced(EXAMPLE.read_text(), "buyArmour: {cost: {PUs: 6}", "buyArmour: {cost: {PUs: 7}"))
        deadline = time.time() + 20
        while armour_cost(xml.read_bytes()) != "7" and time.time() < deadline:
            time.sleep(0.05)
        assert armour_cost(xml.read_bytes()) == "7"
        rebuilt = xml.read_bytes()
        spec.write_text("players: [broken\n")  # a broken edit: reported, previous output kept
    finally:
        thread.join(timeout=30)
    assert not thread.is_alive(), "the watcher did not see all three edits"
    assert result == {"status": 0}
    assert xml.read_bytes() == rebuilt
    out_text, err_text = capsys.readouterr()
    assert out_text.count("[watch] built ") == 2
    assert "[watch] failed with 1 problem(s)" in out_text
    assert "game.yaml:2:1: error[TG020]: YAML syntax error" in err_text


# --- schema -------------------------------------------------------------------------------------------------

def _schema_position(data, error) -> tuple[int, str]:
    """The YAML line a schema error points at (a misspelled key: the key's own line)."""
    node = data
    for step in error.absolute_path:
        node = node[step]
    unexpected = re.search(r"\('([^']+)' was unexpected\)", error.message)
    if unexpected and hasattr(node, "position_of"):
        return node.position_of(unexpected.group(1)).line, unexpected.group(1)
    return node.pos.line, ""


def test_every_example_validates_against_the_schema(tmp_path):
    assert main(["schema", "-o", str(tmp_path / "rules.schema.json")]) == 0
    schema = json.loads((tmp_path / "rules.schema.json").read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    for spec in sorted((REPO / "rules_yaml").glob("*.yaml")):
        errors = list(validator.iter_errors(load_yaml_file(spec)))
        assert errors == [], (spec.name, [e.message for e in errors])


@pytest.mark.parametrize("original, misspelled", [
    ("connections:\n    - [Berlin Region, Pomerania]", "conections:\n    - [Berlin Region, Pomerania]"),
    ("  Germans: {optional: false}", "  Germans: {optinal: false}"),
    ("resources:\n  PUs: {}", "resource:\n  PUs: {}"),
    ("    options: {movement: 1, transportCost: 2", "    option: {movement: 1, transportCost: 2"),
    ("  - {name: gameInitDelegate, delegate: initDelegate, maxRunCount: 1}",
     "  - {name: gameInitDelegate, delegat: initDelegate, maxRunCount: 1}"),
])
def test_misspelled_key_is_reported_at_its_line_by_schema_and_build(original, misspelled, tmp_path, capsys):
    text = EXAMPLE.read_text()
    assert original in text
    text = text.replace(original, misspelled, 1)
    line = text[:text.index(misspelled)].count("\n") + 1 + misspelled[:misspelled.index(":")].count("\n")
    spec = tmp_path / "typo.yaml"
    spec.write_text(text)
    data = load_yaml_text(text, "typo.yaml")
    errors = list(jsonschema.Draft7Validator(build_schema()).iter_errors(data))
    assert [_schema_position(data, e) for e in errors] == [(line, _key_of(misspelled))]
    status, _, err = _run(capsys, "build", str(spec), "-o", str(tmp_path / "out"))
    assert status == 2
    assert f"typo.yaml:{line}:" in err.splitlines()[0] and "error[TG030]" in err.splitlines()[0]
    assert f"unknown key '{_key_of(misspelled)}'" in err.splitlines()[0]


def _key_of(misspelled: str) -> str:
    for candidate in ("conections", "optinal", "resource", "option", "delegat"):
        if candidate + ":" in misspelled:
            return candidate
    raise AssertionError(misspelled)


def test_schema_knows_every_macro_and_its_parameters():
    schema = build_schema()
    rule = schema["definitions"]["rule"]
    macros = rule["properties"]["use"]["enum"]
    assert "national_objective" in macros and "notes_only" in macros
    (objective,) = [c["then"]["properties"]["with"] for c in rule["allOf"]
                    if c["if"]["properties"]["use"]["const"] == "national_objective"]
    assert {"player", "amount", "owns"} <= set(objective["properties"])
    assert objective["required"] == ["player", "amount"]


# --- new ----------------------------------------------------------------------------------------------------

def test_new_game_scaffold_builds_and_validates(tmp_path, capsys):
    status, out, _ = _run(capsys, "new", "My Little War", "-d", str(tmp_path))
    assert status == 0 and Path(out.strip()).name == "my_little_war.yaml"
    assert main(["build", str(tmp_path / "my_little_war.yaml"), "-o", str(tmp_path / "out")]) == 0
    assert main(["validate", str(tmp_path / "my_little_war.yaml"), "--engine", "1.9"]) == 0
    # A whole map folder the desktop client opens (it used to be the XML and map.yml alone, and the
    # client stopped with "Unable to load expected resource: polygons.txt").
    folder = tmp_path / "out" / "my_little_war"
    for engine in ("1.9", "current"):
        assert main(["validate", str(folder / "map" / "games" / "my_little_war.xml"), "--engine", engine,
                     "--map-dir", str(folder)]) == 0
    assert {"polygons.txt", "centers.txt", "place.txt", "map.properties"} <= {p.name for p in (folder / "map").iterdir()}
    _, _, err = _run(capsys, "build", str(tmp_path / "my_little_war.yaml"), "-o", str(tmp_path / "out"))
    assert "warning" not in err
    status, _, err = _run(capsys, "new", "My Little War", "-d", str(tmp_path))
    assert status == 2 and "error[TG071]: file exists; not overwritten" in err


def test_a_game_without_a_map_is_not_built_into_the_maps_folder(tmp_path, capsys, monkeypatch):
    """The plain game lists territories but draws no map, and no map of its mapName is installed: the
    client could list it but not open it. Refused inside TripleA's maps folder, nothing written; a
    warning in a scratch output folder."""
    maps = tmp_path / "downloadedMaps"
    maps.mkdir()
    (maps / "other_map").mkdir()
    (maps / "other_map" / "map.yml").write_text("map_name: other\n", "utf-8")
    monkeypatch.setenv("TRIPLEA_MAPS", str(maps))
    status, _, err = _run(capsys, "build", str(PLAIN_GAME), "-o", str(maps))
    assert status == 1
    assert "error[TG520]: the output folder's frontier_1939/ is a map folder the desktop client cannot open" in err
    assert "hint: draw the board in `map:`" in err
    assert sorted(p.name for p in maps.iterdir()) == ["other_map"]
    status, _, err = _run(capsys, "build", str(PLAIN_GAME), "-o", str(tmp_path / "scratch"))
    assert status == 0 and "warning[TG520]" in err
    # With the map installed, the game goes with it: no finding.
    assert main(["build", str(FRONTIER), "-o", str(tmp_path / "drawn")]) == 0
    shutil.copytree(tmp_path / "drawn" / "frontier_1939", maps / "frontier_1939")
    status, _, err = _run(capsys, "build", str(PLAIN_GAME), "-o", str(tmp_path / "scratch"))
    assert status == 0 and "TG520" not in err


@needs_shared
def test_new_mod_scaffold_builds(tmp_path, monkeypatch):
    monkeypatch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    assert main(["new", "House Rules", "--base", "world_war_ii_global/ww2global40_2nd_edition.xml",
                 "-d", str(tmp_path)]) == 0
    assert main(["build", str(tmp_path / "house_rules.yaml"), "-o", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "world_war_ii_global" / "map" / "games" / "house_rules.xml").is_file()


@needs_shared
def test_new_mod_scaffold_shows_a_rule_with_its_own_change(tmp_path, monkeypatch, capsys):
    """Issue 27.4: a rule's own change: is how most house rules are enforced; the scaffold shows one."""
    monkeypatch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    assert main(["new", "House Rules", "--base", "world_war_ii_global/ww2global40_2nd_edition.xml",
                 "-d", str(tmp_path)]) == 0
    spec = tmp_path / "house_rules.yaml"
    text = spec.read_text(encoding="utf-8")
    assert "#  - id: R02" in text and "#    change:" in text
    head, _, example = text.partition("#  - id: R02")
    spec.write_text(head + ("#  - id: R02" + example).replace("#  ", "  "), encoding="utf-8")  # taken in
    capsys.readouterr()
    assert main(["report", str(spec)]) == 0
    out = capsys.readouterr().out
    assert "R02" in out and "2 rules: 1 enforced, 0 partial, 1 notes only" in out


# --- progress -----------------------------------------------------------------------------------------------

class _Terminal:
    def __init__(self, tty: bool):
        self.tty, self.text = tty, ""

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass


def test_progress_shows_on_a_terminal_only_once_an_operation_is_slow(monkeypatch):
    from generator.core import progress as progress_module

    terminal, pipe = _Terminal(True), _Terminal(False)
    for stream in (terminal, pipe):
        with progress_module.progress("drawing map tiles", 4, stream) as shown:
            shown.advance()  # fast: nothing shown yet
            monkeypatch.setattr(progress_module, "SHOW_AFTER_SECONDS", 0.0)
            shown.advance()
            shown.advance(2)
        monkeypatch.setattr(progress_module, "SHOW_AFTER_SECONDS", 0.3)
    assert "\rdrawing map tiles:  50% (2/4)" in terminal.text
    assert "\rdrawing map tiles: 100% (4/4)" in terminal.text
    assert "25%" not in terminal.text and terminal.text.endswith("\r")
    assert pipe.text == ""
