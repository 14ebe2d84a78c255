"""The attachment checks kept warm (generator.check.warmchecks): what they are declared to read and
write is what their code reads and writes, and a validation that takes the kept findings reports
exactly what a full one does, also when the edit is in what the checks read."""
from __future__ import annotations

import re
import shutil

import pytest
from lxml import etree

from conftest import REPO, SHARED, SHARED_MISSING

from generator.check import warmchecks

CHECK_SOURCES = ("attachments.py", "victory.py", "checkerstate.py")
# the checker's own, the same for every game of a run, or reset by the checks themselves
CONSTANT = {"engine", "catalog", "root", "out", "position_of", "current", "current_class", "option_cache"}


def _checker_attributes() -> set[str]:
    """The data attributes the checker sets in its __init__ (generator.check.validate)."""
    source = (REPO / "generator" / "check" / "validate.py").read_text(encoding="utf-8")
    init = source[source.index("    def __init__(self, root"):source.index("    def require(")]
    return set(re.findall(r"self\.([a-z_]+)(?::[^=]+)? = ", init))


def test_the_declared_reads_and_writes_are_the_codes():
    """Every checker attribute the attachment checks use is declared read or written by them (or is
    one of the constant ones); written ones are only written there."""
    attributes = _checker_attributes() - {"attachments_memo", "map_dir"}
    used: set[str] = set()
    for name in CHECK_SOURCES:
        text = (REPO / "generator" / "check" / name).read_text(encoding="utf-8")
        used |= set(re.findall(r"self\.([a-z_]+)", text)) & attributes
    assert used <= set(warmchecks.ATTACHMENTS_READ) | set(warmchecks.ATTACHMENTS_WRITE) | CONSTANT, used
    validate = (REPO / "generator" / "check" / "validate.py").read_text(encoding="utf-8")
    body = validate[validate.index("    def require("):]
    for name in warmchecks.ATTACHMENTS_WRITE:  # read later (by completeness, victory, map folder...), never set
        assert not re.search(rf"self\.{name}(\[[^\]]*\])? = |self\.{name}\.(add|append|update|setdefault)\(",
                             body), name


def _compiled(tmp_path, monkeypatch, example: str):
    from generator.builder.compiler import compile_spec

    if "s00" in example or "g40" in example:
        if not SHARED.is_dir():
            pytest.skip(SHARED_MISSING)
        monkeypatch.setenv("TRIPLEA_MAPS", str(SHARED / "maps"))
    shutil.copytree(REPO / "rules_yaml", tmp_path / "specs")
    return compile_spec(tmp_path / "specs" / f"{example}.yaml")


def _validate(compiled, tree, memo=None, structure=None):
    from generator.check.validate import validate_tree

    for kept in (memo, structure):
        if kept is not None:
            kept.line_positions, kept.fallback = compiled._line_positions, compiled.position_of(None)
    return [d.format() for d in validate_tree(tree, engine="1.9", source=compiled.spec_path,
                                              position_of=compiled.position_of, attachments_memo=memo,
                                              structure_memo=structure)]


@pytest.mark.parametrize("example", ["frontier_1939", "s000_nonaggression_pacts", "s004_corrupting_g40"])
def test_kept_findings_are_a_full_validations(example, tmp_path, monkeypatch):
    compiled = _compiled(tmp_path, monkeypatch, example)
    memo = warmchecks.AttachmentsMemo()
    full = _validate(compiled, compiled.tree)
    assert _validate(compiled, compiled.tree, memo) == full and not memo.replayed
    again = etree.ElementTree(etree.fromstring(compiled.xml_bytes))  # a new tree: the elements are others
    assert _validate(compiled, again, memo) == full and memo.replayed
    # an edit outside the attachments (a production cost): still taken from memory, still the same
    cost = again.getroot().find("production/productionRule/cost")
    cost.set("quantity", "-5")
    assert _validate(compiled, again, memo) == _validate(compiled, again) and memo.replayed
    # an edit of an attachment (a unit's movement to a bad value, a reference to a missing unit): run again
    option = again.getroot().find("attachmentList/attachment/option")
    option.set("value", "notANumber")
    assert _validate(compiled, again, memo) == _validate(compiled, again) and not memo.replayed
    # a name the attachments may refer to taken away: run again
    unit = again.getroot().find("unitList/unit")
    unit.set("name", unit.get("name") + "Gone")
    assert _validate(compiled, again, memo) == _validate(compiled, again) and not memo.replayed


@pytest.mark.parametrize("example", ["frontier_1939", "s004_corrupting_g40"])
def test_kept_structure_findings_are_a_full_validations(example, tmp_path, monkeypatch):
    """The structural checks' local passes kept per top-level section: the same findings, in the
    same order, as a full validation; a section whose text changed is checked again."""
    compiled = _compiled(tmp_path, monkeypatch, example)
    memo = warmchecks.StructureMemo()
    full = _validate(compiled, compiled.tree)
    assert _validate(compiled, compiled.tree, structure=memo) == full and memo.reused == 0
    again = etree.ElementTree(etree.fromstring(compiled.xml_bytes))
    sections = [child for child in again.getroot() if isinstance(child.tag, str)]
    assert _validate(compiled, again, structure=memo) == full and memo.reused == len(sections)
    option = again.getroot().find("attachmentList/attachment/option")
    del option.attrib["value"]  # TG108, in the attachment list only
    option.set("bogus", "1")  # TG183
    assert _validate(compiled, again, structure=memo) == _validate(compiled, again)
    assert memo.reused == len(sections) - 1
    assert any("TG108" in line for line in _validate(compiled, again, structure=memo))


def _warm_validate(compiled, tree, memos: dict):
    """validate_tree for 1.9 with the given memos (keyed by their validate_tree argument)."""
    from generator.check.validate import validate_tree

    for kept in memos.values():
        kept.line_positions, kept.fallback = compiled._line_positions, compiled.position_of(None)
    return [d.format() for d in validate_tree(tree, engine="1.9", source=compiled.spec_path,
                                              position_of=compiled.position_of, **memos)]


def _cold(compiled, tree):
    return _warm_validate(compiled, tree, {})


def _new_tree(compiled):
    return etree.ElementTree(etree.fromstring(compiled.xml_bytes))  # the elements are others


def test_dtd_ids_kept_per_section_report_a_full_checks_collisions(tmp_path, monkeypatch):
    """1.9's ID namespace spans sections: a name changed in one section collides with (or stops
    colliding with) a name in a kept one; the IDs kept per section report what a full check does."""
    compiled = _compiled(tmp_path, monkeypatch, "frontier_1939")
    memo = warmchecks.StructureMemo()
    assert _warm_validate(compiled, compiled.tree, {"structure_memo": memo}) == _cold(compiled, compiled.tree)
    tree = _new_tree(compiled)
    root = tree.getroot()
    step = root.find("gamePlay/sequence/step")
    unit = root.find("unitList/unit")
    # a unit (changed section) renamed to a step's name (kept section): reported at the step, which
    # comes later in 1.9's tag order, with the unit's line
    unit.set("name", step.get("name"))
    warm = _warm_validate(compiled, tree, {"structure_memo": memo})
    assert warm == _cold(compiled, tree)
    assert memo.reused == len(root) - 1 and memo.id_entries is not None  # the IDs taken per section
    assert any("TG109" in line and f"'{step.get('name')}' names both a unit" in line for line in warm)
    # the unit renamed back, a step renamed to a player's name, and a name that is no XML name
    unit.set("name", unit.get("name") + "X")
    step.set("name", root.find("playerList/player").get("name"))
    root.find("production/productionRule").set("name", "1 bad name")
    warm = _warm_validate(compiled, tree, {"structure_memo": memo})
    assert warm == _cold(compiled, tree)
    assert sum("TG109" in line for line in warm) == sum("TG109" in line for line in _cold(compiled, _new_tree(compiled))) + 2


def test_kept_initial_state_findings_follow_the_names_it_reads(tmp_path, monkeypatch):
    """<initialize> unchanged but a unit type it places renamed elsewhere, or its hit points lowered:
    the kept findings are not reused, and the findings are a full validation's."""
    from generator.check.validate import INITIALIZE_READS

    compiled = _compiled(tmp_path, monkeypatch, "frontier_1939")
    memo = warmchecks.SectionCheckMemo(INITIALIZE_READS)
    assert _warm_validate(compiled, compiled.tree, {"initialize_memo": memo}) == _cold(compiled, compiled.tree)
    tree = _new_tree(compiled)
    root = tree.getroot()
    root.find("production/productionRule/cost").set("quantity", "7")  # not read: reused
    assert _warm_validate(compiled, tree, {"initialize_memo": memo}) == _cold(compiled, tree) and memo.reused
    placement = next(tree.getroot().find("initialize").iter("unitPlacement"))
    placed = placement.get("unitType")
    unit = next(u for u in root.iterfind("unitList/unit") if u.get("name") == placed)
    unit.set("name", placed + "Gone")
    warm = _warm_validate(compiled, tree, {"initialize_memo": memo})
    assert warm == _cold(compiled, tree) and not memo.reused
    assert any(f"'{placed}' in <unitPlacement>" in line for line in warm)
    unit.set("name", placed)
    assert _warm_validate(compiled, tree, {"initialize_memo": memo}) == _cold(compiled, tree) and not memo.reused
    # hit points are read too: one hit taken is TG154 with one hit point, fine with two
    placement.set("hitsTaken", "1")
    attachment = next(a for a in root.iter("attachment") if a.get("attachTo") == placed
                      and a.get("name") == "unitAttachment")
    for option in attachment.findall("option[@name='hitPoints']"):
        attachment.remove(option)
    one = _warm_validate(compiled, tree, {"initialize_memo": memo})
    assert one == _cold(compiled, tree) and any("TG154" in line for line in one)
    etree.SubElement(attachment, "option", name="hitPoints", value="2")
    two = _warm_validate(compiled, tree, {"initialize_memo": memo})
    assert two == _cold(compiled, tree) and not memo.reused and not any("TG154" in line for line in two)


def test_the_initial_state_check_reads_what_it_declares():
    """check_initialize reads of the checker only validate.INITIALIZE_READS (and the constant ones,
    its reporting): what the warm process keys its kept findings on."""
    from generator.check.validate import INITIALIZE_READS

    source = (REPO / "generator" / "check" / "validate.py").read_text(encoding="utf-8")
    body = source[source.index("    def check_initialize("):source.index("    # ----", source.index("    def check_initialize("))]
    used = set(re.findall(r"self\.([a-z_]+)", body))
    assert used - {"require", "error", "warning", "unknown"} <= set(INITIALIZE_READS) | CONSTANT, used
    checkerstate = (REPO / "generator" / "check" / "checkerstate.py").read_text(encoding="utf-8")
    unknown = checkerstate[checkerstate.index("    def unknown("):checkerstate.index("    # ----", checkerstate.index("    def unknown("))]
    assert set(re.findall(r"self\.([a-z_]+)", unknown)) - {"error"} <= set(INITIALIZE_READS), unknown


def test_warm_rebuilds_report_a_cold_builds_findings_across_sections(tmp_path):
    """Through the warm builder (kept render, kept memos): a step renamed to a unit's or a player's
    name collides in 1.9's ID namespace with a name in a kept section; renamed back, the warning goes.
    Each rebuild's findings are a cold build's, in the same order."""
    from generator.builder import incremental
    from generator.builder.pipeline import compile_cold
    from generator.check.validate import validate_tree
    from generator.render.sections import keep_warm

    keep_warm()
    shutil.copytree(REPO / "rules_yaml", tmp_path / "specs")
    spec = tmp_path / "specs" / "frontier_1939.yaml"
    text = spec.read_text(encoding="utf-8")
    edits = [text, text.replace("{name: endRoundStep,", "{name: infantry,"), text,
             text.replace("{name: gameInitDelegate,", "{name: Germans,"),
             text.replace("defense: 2}", "defense: 2, hitPoints: 2}", 1), text,
             text.replace("defense: 2}", "defense: 3}", 1)]
    collisions, kept = [], []
    for edited in edits:
        warm = [d.format() for d in incremental.validated(incremental.compile_warm(spec, edited), "1.9")]
        cold_game = compile_cold(spec, edited)
        cold = [d.format() for d in validate_tree(cold_game.tree, engine="1.9", source=cold_game.spec_path,
                                                  position_of=cold_game.position_of)]
        assert warm == cold
        collisions.append(sum("names both a" in line for line in warm))
        memos = next(iter(incremental._memos.values()))
        kept.append((memos[3].reused, not memos[4].whole))  # initial state's findings, schema not whole
    assert collisions == [0, 1, 0, 1, 0, 0, 0]
    # a name declared (the step's), a unit's hit points: checked again; a unit's defence: kept
    assert [reused for reused, _ in kept[1:]] == [False, False, False, False, False, True]
    assert all(alone for _, alone in kept[1:])
