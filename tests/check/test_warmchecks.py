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
