"""The schema check kept warm (generator.check.warmschema): a game whose root shape and sections
were valid before is not validated whole again; whatever it reports is a full check's, also when an
edit breaks the game's validity elsewhere than in the section it changed."""
from __future__ import annotations

import shutil

from lxml import etree

from conftest import REPO

from generator.check import warmschema
from generator.check.schema import check_schema


def _compiled(tmp_path):
    from generator.builder.compiler import compile_spec

    shutil.copytree(REPO / "rules_yaml", tmp_path / "specs")
    return compile_spec(tmp_path / "specs" / "frontier_1939.yaml")


def _both(compiled, tree, memo):
    """(the memo's findings, a full check's), formatted."""
    memo.line_positions = compiled._line_positions
    kept = memo.check(tree, source=compiled.spec_path, position_of=compiled.position_of)
    full = check_schema(tree, source=compiled.spec_path, position_of=compiled.position_of)
    return [d.format() for d in kept], [d.format() for d in full]


def _new_tree(compiled):
    return etree.ElementTree(etree.fromstring(compiled.xml_bytes))


def test_the_schema_has_nothing_between_sections():
    """game.xsd relates no section to another: else nothing may be validated alone."""
    made = warmschema.section_schema()
    assert made is not None
    assert {"map", "playerList", "production", "initialize", "propertyList"} <= made[1]


def test_kept_sections_are_a_full_schema_checks(tmp_path):
    compiled = _compiled(tmp_path)
    memo = warmschema.SchemaMemo()
    assert _both(compiled, compiled.tree, memo) == ([], []) and memo.whole
    tree = _new_tree(compiled)
    root = tree.getroot()
    assert _both(compiled, tree, memo) == ([], []) and not memo.whole and memo.validated_alone == 0
    # a valid edit of one section: that one validated alone
    root.find("production/productionRule/cost").set("quantity", "7")
    assert _both(compiled, tree, memo) == ([], []) and not memo.whole and memo.validated_alone == 1
    # an invalid one: the whole game, its findings
    root.find("production/productionRule/cost").set("quantity", "seven")
    kept, full = _both(compiled, tree, memo)
    assert kept == full and full and memo.whole
    root.find("production/productionRule/cost").set("quantity", "7")
    assert _both(compiled, tree, memo) == ([], []) and memo.whole  # nothing known valid after an invalid game
    assert _both(compiled, tree, memo) == ([], []) and not memo.whole


def test_a_valid_section_in_a_changed_root_is_checked_whole(tmp_path):
    """Kept sections stay valid alone, but the root's content model may no longer hold: a section
    repeated, one taken away, sections in another order, an attribute on the root."""
    compiled = _compiled(tmp_path)
    memo = warmschema.SchemaMemo()
    _both(compiled, compiled.tree, memo)
    edits = [
        lambda root: root.append(etree.fromstring(etree.tostring(root.find("loader")))),
        lambda root: root.remove(root.find("info")),
        lambda root: root.insert(0, root.find("propertyList")),
        lambda root: root.set("bogus", "1"),
    ]
    invalid = 0
    for edit in edits:
        tree = _new_tree(compiled)
        edit(tree.getroot())
        kept, full = _both(compiled, tree, memo)
        assert kept == full and memo.whole, edit
        invalid += bool(full)
        assert _both(compiled, _new_tree(compiled), memo) == ([], [])
    assert invalid >= 2  # the schema does refuse some of them: the case is not empty
