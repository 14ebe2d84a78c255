"""The dependency map of warm rebuilds (generator.builder.depmap) and the warm builder behind it
(generator.builder.incremental): the diff of located YAML trees, the map held to the model (no
section changes that it did not predict), and warm builds equal to cold ones, diagnostics included,
through edit sequences that touch prices, set-up, rules, overlays and a misspelt name."""
from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from conftest import REPO, SHARED, SHARED_MISSING
from folders import snapshot
from fuzzseed import FUZZ_SEED, replay_hint
from tests.builder.test_warm_cold import EXAMPLES, _edited

from generator.builder import depmap
from generator.read.yamlio import load_yaml_text

EDITS = 3


def _tree(text: str):
    return load_yaml_text(text, "spec.yaml")


def test_a_changed_number_is_its_path():
    old = _tree("change:\n  units:\n    cruiser: {cost: 11}\n  territories:\n    Urals: {production: 2}\n")
    new = _tree("change:\n  units:\n    cruiser: {cost: 12}\n  territories:\n    Urals: {production: 2}\n")
    assert depmap.changed_paths(old, new) == {("change", "units", "cruiser", "cost")}
    assert depmap.stale_sections(depmap.changed_paths(old, new)) == {"production"}


def test_a_longer_number_moves_the_keys_after_it_on_its_line():
    old = _tree("rules:\n  - {id: B1, with: {amount: 2, owns: [Poland]}}\n")
    new = _tree("rules:\n  - {id: B1, with: {amount: 200, owns: [Poland]}}\n")
    assert depmap.changed_paths(old, new) == {(("rules", 0, "with", "amount")), ("rules", 0, "with", "owns"),
                                              ("rules", 0, "with", "owns", 0)}
    assert depmap.stale_sections(depmap.changed_paths(old, new)) is None  # rules reach anywhere


def test_keys_added_removed_or_reordered_and_lists_of_another_length_are_their_parent():
    old = _tree("properties: {a: 1, b: 2}\nunits: [infantry]\n")
    assert depmap.changed_paths(old, _tree("properties: {b: 2, a: 1}\nunits: [infantry]\n")) == {("properties",)}
    assert depmap.changed_paths(old, _tree("properties: {a: 1}\nunits: [infantry]\n")) == {("properties",)}
    assert depmap.changed_paths(old, _tree("properties: {a: 1, b: 2}\nunits: [infantry, armour]\n")) == {("units",)}
    assert depmap.changed_paths(old, _tree("properties: {a: 1, b: true}\nunits: [infantry]\n")) == \
        {("properties", "b")}


def test_unknown_and_everywhere_reaching_paths_make_everything_stale():
    assert depmap.stale_sections([("mod", "base")]) is None
    assert depmap.stale_sections([("rename", "units", "infantry")]) is None
    assert depmap.stale_sections([("no such key",)]) is None
    assert depmap.stale_sections([()]) is None
    assert depmap.stale_sections([("scenarios", 0, "id"), ("assets",)]) == set()
    assert depmap.stale_sections([("change", "players", "Germans", "prices", "infantry")]) == \
        {"players", "production", "attachments"}
    assert depmap.shown(("rules", 3, "with", "owns")) == "rules[3].with.owns"


def _example(example: Path, monkeypatch) -> str:
    text = example.read_text(encoding="utf-8")
    if "world_war_ii_global" in text:
        if not SHARED.is_dir():
            pytest.skip(SHARED_MISSING)
        monkeypatch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    return text


def _section_fingerprints(spec: Path, text: str):
    """Each rendered section's fingerprint of the cold model (as the warm render compares them)."""
    from generator.builder.pipeline import add_rules_to_notes, load_spec
    from generator.core.diagnostics import DiagnosticError
    from generator.render.sections import SECTION_FIELDS, fingerprint

    try:
        loaded = load_spec(spec, text=text)
    except DiagnosticError:
        return None
    if loaded.rules:
        add_rules_to_notes(loaded)
    return {name: fingerprint(tuple(getattr(loaded.game, f) for f in fields))
            for name, fields in SECTION_FIELDS.items()}


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_the_map_predicts_every_section_an_edit_changes(example, tmp_path, monkeypatch):
    """Random number edits of every example: each section whose model fingerprint changed is one
    the map named stale (the warm render takes the others unfingerprinted)."""
    text = _example(example, monkeypatch)
    shutil.copytree(REPO / "rules_yaml", tmp_path / "specs")
    spec = tmp_path / "specs" / example.name
    rng = random.Random(f"{FUZZ_SEED}:map:{example.name}")
    before = _section_fingerprints(spec, text)
    for _ in range(EDITS):
        edited = _edited(text, rng)
        after = _section_fingerprints(spec, edited)
        paths = depmap.changed_paths(_tree(text), _tree(edited))
        stale = depmap.stale_sections(paths)
        if before is not None and after is not None and stale is not None:
            changed = {name for name in before if before[name] != after[name]}
            assert changed <= stale, (sorted(map(depmap.shown, paths)), changed - stale, replay_hint())
        text, before = edited, after


@pytest.mark.parametrize("example", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_loading_a_spec_leaves_its_yaml_as_it_was(example, tmp_path, monkeypatch):
    """The warm builder keeps the YAML it handed to load_spec to diff the next edit with."""
    from generator.builder.pipeline import load_spec
    from generator.core.diagnostics import DiagnosticError

    text = _example(example, monkeypatch)
    shutil.copytree(REPO / "rules_yaml", tmp_path / "specs")
    spec = tmp_path / "specs" / example.name
    data = _tree(text)
    try:
        load_spec(spec, data=data)
    except DiagnosticError:
        pass
    assert depmap.changed_paths(_tree(text), data) == set()


MOD = """\
mod:
  name: Warm Mod
  version: "1.0"
  base: {map: world_war_ii_global, game: ww2global40_2nd_edition.xml}
  engine: "1.9"
change:
  units:
    cruiser: {cost: 11}
  territories:
    Urals: {production: 2}
  players:
    Germans: {prices: {infantry: 3}}
  initialUnits:
    Urals: {Russians: {infantry: 7}}
  properties:
    Warm Note: "plain"
rules:
  - id: B1
    text: Germany earns 2 PUs while it holds Poland and Denmark.
    use: national_objective
    with: {player: Germans, amount: 2, owns: [Poland, Denmark]}
texts:
  notifications:
    WARM_NOTE: "first"
"""
# Each step's text replaces its first string by the second, from the step before.
STEPS = [
    ("cost: 11", "cost: 13"),  # a price: production only
    ("Urals: {production: 2}", "Urals: {production: 3}"),  # an overlay of an attachment
    ("prices: {infantry: 3}", "prices: {infantry: 4}"),  # a player's own prices
    ("{infantry: 7}}", "{infantry: 8}}"),  # the set-up
    ("amount: 2", "amount: 5"),  # a rule's params
    ("owns: [Poland, Denmark]", "owns: [Polnd, Denmark]"),  # a misspelt territory: an error
    ("owns: [Polnd, Denmark]", "owns: [Poland, Denmark]"),  # fixed
    ("cost: 13", "cost: 1x"),  # a number that is not one: an error
    ("cost: 1x", "cost: 12"),  # fixed
    ("Urals: {production: 3}", "Urals: {production: 3, isImpassable: false}"),  # a key added
    ('Warm Note: "plain"', 'Warm Note: "pl\\x01ain"'),  # rendered, but no XML can hold it: TG042
    ('Warm Note: "pl\\x01ain"', 'Warm Note: "plain"'),  # back to the last good text
    ('WARM_NOTE: "first"', 'WARM_NOTE: "second"'),  # a text: no section, the map folder's text file
    ("cost: 12", "cost: 14"),  # a price, after a build that wrote the text file the stage read
    ("cost: 14", "cost: 15"),  # a price again: the map folder stage reused (builder/warmfolder.py)
    ('WARM_NOTE: "second"', 'WARM_NOTE: "second"\n    WARM_OTHER: "third"'),  # a text added
]


def _build(spec: Path, out: Path, capsys) -> tuple[str, str]:
    """A build as watch runs it: (what it printed, the diagnostics it raised)."""
    from generator.builder.outputs import build_spec
    from generator.core.diagnostics import DiagnosticError

    capsys.readouterr()
    try:
        build_spec(str(spec), str(out), only_changed=True)
        failed = ""
    except DiagnosticError as err:
        failed = "\n".join(d.format() for d in err.diagnostics)
    return capsys.readouterr().err, failed


def test_warm_builds_equal_cold_ones_through_an_edit_sequence(tmp_path, monkeypatch, capsys):
    """After each edit: the warm build (dependency map, sections and findings kept) writes the same
    files and reports the same diagnostics, positions and messages, as a cold build of that text."""
    if not SHARED.is_dir():
        pytest.skip(SHARED_MISSING)
    from generator.builder import incremental, warmfolder
    from generator.render import sections
    from generator.speclang.basecache import keep_in_memory

    monkeypatch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    monkeypatch.chdir(tmp_path)
    keep_in_memory()
    spec = tmp_path / "mod.yaml"
    text = MOD
    spec.write_text(text, encoding="utf-8")
    _build(spec, tmp_path / "warm", capsys)
    plans = []
    for old, new in STEPS:
        assert old in text
        text = text.replace(old, new)
        spec.write_text(text, encoding="utf-8")
        warmfolder.last_reused.clear()
        warm = _build(spec, tmp_path / "warm", capsys)
        plans.append(dict(incremental.last_plan, folder=dict(warmfolder.last_reused)))
        kept, sections._warm = sections._warm, None  # a cold build in this process: nothing kept
        try:
            shutil.rmtree(tmp_path / "cold", ignore_errors=True)
            cold = _build(spec, tmp_path / "cold", capsys)
        finally:
            sections._warm = kept
        assert warm == cold, (old, new)
        if not cold[1]:
            assert snapshot(tmp_path / "warm") == snapshot(tmp_path / "cold"), (old, new)
    assert plans[0]["stale"] == {"production"}  # the price edit fingerprinted one section
    assert plans[3]["stale"] == {"initialize"}
    assert plans[4]["stale"] is None  # a rule: everything
    # the map folder stage (additions and check, builder/warmfolder.py): reused when the edit left the
    # sections it reads and the files it read as they were (a price; the set-up re-renders a section
    # it reads; a text is its input), not in the build after one that wrote what it reads (the first
    # build's files in the output folder); not reached by a build that failed before it (None)
    reused = [plan["folder"].get("additions") for plan in plans]
    assert [plan["folder"].get("check") for plan in plans] == reused
    assert reused == [False, False, True, False, False, None, True, None, True, False, None, False,
                      False, True, True, False]
